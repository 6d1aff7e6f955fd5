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
    assert res.exit_code == 1 and f"--roll {roll}: the combat dice (2 × d6, by 10.0D) roll 2-12" in res.output


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
    assert res.exit_code == 1
    assert f"--roll {roll}: the IP dice (1 × d6, by 0.7.2.1B) roll 1-6" in res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


@pytest.mark.case("0.7.2.1B")
@pytest.mark.parametrize("roll, total", [("1", 27), ("6", 32)])
def test_0_7_2_1B_ask_income_rolls_1_and_6_are_added(roll, total):
    # docs/examples/income-turn13.yaml: the German total is 31 with a roll of 5
    # (tests/rules/test_initiative.py::test_ask_income_json_snapshot), so 27 with 1, 32 with 6
    res = _ask(INCOME, "income", "german", "--roll", roll, "--json")
    assert res.exit_code == 0, res.output
    import json

    answer = json.loads(res.output)
    assert (answer["roll"], answer["total"]) == (int(roll), total)
