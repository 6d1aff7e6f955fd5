"""Bounds on what a player or rules lawyer types (#18, the trials): a die roll the combat dice
cannot show, a save's turn past the scenario's last, script nesting counted with parentheses."""

from __future__ import annotations

import contextlib
import io

import pytest

from casebook.tools.cli import main

ATTACK = "docs/examples/attack.yaml"


class _Result:
    def __init__(self, code: int, output: str) -> None:
        self.exit_code, self.output = code, output


def run(*args: str) -> _Result:
    """``casebook ARGS`` in-process, through the console script's error handling and exit codes."""
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return _Result(code, out.getvalue())


def _ask(*args):
    return run("ask", *args)


@pytest.mark.case("10.0D")
@pytest.mark.parametrize("roll", ["1", "13", "-4", "99"])
def test_10_0D_ask_attack_roll_must_be_one_two_dice_can_show(roll):
    """10.0D: the attacker rolls two dice — a roll is 2 to 12 (``--roll 99`` was read off the CRT)."""
    res = _ask(ATTACK, "attack", "0304", "--with", "g1,g2", "--roll", roll)
    assert res.exit_code == 2 and f"--roll {roll}: the combat dice (2 × d6, by 10.0D) roll 2-12" in res.output  # usage


@pytest.mark.case("10.0D")
def test_10_0D_ask_attack_roll_of_12_is_read_off_the_crt():
    res = _ask(ATTACK, "attack", "0304", "--with", "g1,g2", "--roll", "12")
    assert res.exit_code == 0 and "result: roll 12, modified_roll" in res.output


@pytest.mark.parametrize("depth, refused", [(120, False), (121, True), (900, True)])
def test_parentheses_count_in_the_script_nesting_limit(depth, refused):
    """Parentheses leave no node in the parse tree, so 900 nested pairs passed the nesting limit
    (MAX_TREE_DEPTH, 120); now they count, located at the first pair too many."""
    from casebook.script.parser import MAX_TREE_DEPTH, parse_script

    text = "# (((( in a comment do not count\nquantity q = sum by BM8.4\n  start " \
           + "(" * depth + "1" + ")" * depth + ' by BM8.4\n'
    statements, problems = parse_script(text, "x.rules")
    assert MAX_TREE_DEPTH == 120
    if refused:
        assert not statements and [(p.line, p.column) for p in problems] == [(3, 9 + MAX_TREE_DEPTH)]
        assert problems[0].message == "parentheses nested deeper than 120 levels (split the expression)"
    else:
        assert len(statements) == 1 and not problems


INCOME = "docs/examples/income-turn13.yaml"


@pytest.mark.case("0.7.2.1B")
@pytest.mark.parametrize("roll", ["0", "7", "-1", "99"])
def test_0_7_2_1B_ask_income_roll_must_be_one_the_ip_die_can_show(roll):
    """0.7.2.1B / 1.0C: one die is rolled for the IPs (quantity ip_dice of initiative.rules) —
    a roll is 1 to 6 (``--roll 99`` was added to the income)."""
    res = _ask(INCOME, "income", "german", "--roll", roll)
    assert res.exit_code == 2  # a usage error of `ask` (README, "Commands")
    assert f"--roll {roll}: the IP dice (1 × d6, by 0.7.2.1B) roll 1-6" in res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


@pytest.mark.case("0.7.2.1B")
@pytest.mark.parametrize("roll, total", [("1", 27), ("6", 32)])
def test_0_7_2_1B_ask_income_rolls_1_and_6_are_added(roll, total):
    # docs/examples/income-turn13.yaml: the German total is 31 with a roll of 5
    # (games/moscow41/tests/test_initiative.py::test_ask_income_json_snapshot), so 27 with 1, 32 with 6
    res = _ask(INCOME, "income", "german", "--roll", roll, "--json")
    assert res.exit_code == 0, res.output
    import json

    answer = json.loads(res.output)
    assert (answer["roll"], answer["total"]) == (int(roll), total)


# ---- script size and literal limits, trace problems: one located line, exit 1 (#18 "bad input") ----
def _rules_with(tmp_path, extra: str):
    """A copy of Battle for Moscow's rules folder with ``extra`` appended to combat.rules."""
    import shutil
    from pathlib import Path

    rules = tmp_path / "rules"
    shutil.copytree(Path(__file__).resolve().parents[1] / "games" / "battle_for_moscow" / "rules", rules)
    with (rules / "combat.rules").open("a") as f:
        f.write(extra)
    return rules


@pytest.mark.parametrize("extra, message", [
    # a sum of 20,000 terms, one per line (the fuzzed scripts' RecursionError)
    ("quantity big = sum by BM8.4\n" + "  +1 by BM8.4\n" * 20_000, "a statement of more than 500 lines"),
    # the same on one line
    ("quantity big = sum by BM8.4\n  +" + "+".join(["1"] * 20_000) + " by BM8.4\n",
     "a line longer than 2000 characters"),
    # number literals the compiler could not take (lark VisitError)
    ("quantity lit = sum by BM8.4\n  +" + "9" * 38 + " by BM8.4\n", "a number literal longer than 24 characters"),
    ("quantity lit = sum by BM8.4\n  +1e999999 by BM8.4\n", "syntax error: unexpected `e999999`"),
])
def test_rule_script_size_and_literal_limits_are_content_errors_not_tracebacks(tmp_path, extra, message):
    rules = _rules_with(tmp_path, extra)
    out = run("rules", "check", rules)
    assert out.exit_code == 1 and "Traceback" not in out.output, out.output
    first = out.output.strip().splitlines()[0]
    assert first.startswith(f"{rules}/combat.rules:") and message in first, first


def _trace_lines():
    from pathlib import Path

    golden = Path(__file__).resolve().parents[1] / "games" / "kestrel_pass" / "golden" / "meeting-greedy-seed1.jsonl"
    return golden.read_text().splitlines()[:10]


def _edited(lines, **fields):
    import json

    event = json.loads(lines[3])
    event.update(fields)
    return lines[:3] + [json.dumps(event)] + lines[4:]


@pytest.mark.parametrize("name, edit, message", [
    ("deep", lambda ls: ls[:2] + [ls[2][:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"] + ls[3:],
     ":3: JSON nested too deeply"),
    ("seq", lambda ls: _edited(ls, seq=99), ":4: trace seq not dense: event 99 after 2"),
    ("field", lambda ls: _edited(ls, bogus=1), ":4: trace event: missing fields [], unknown fields ['bogus']"),
    ("null", lambda ls: _edited(ls, turn=None), ":4: trace event: wrong type for turn (an int, got null)"),
    ("list", lambda ls: _edited(ls, kind=["a"]), ':4: trace event: wrong type for kind (non-empty text, got ["a"])'),
])
@pytest.mark.parametrize("command", ["replay", "explain", "cases"])
def test_a_bad_trace_line_is_one_located_line_exit_1_in_every_trace_command(tmp_path, name, edit, message, command):
    trace = tmp_path / f"{name}.jsonl"
    trace.write_text("\n".join(edit(_trace_lines())) + "\n")
    out = run(command, trace, *(["2"] if command == "explain" else []))
    assert out.exit_code == 1 and out.output.strip() == f"{trace}{message}", out.output
