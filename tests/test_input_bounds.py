"""Bounds on what a player or rules lawyer types (#18, the trials): a die roll the combat dice
cannot show, a save's turn past the scenario's last, script nesting counted with parentheses."""

from __future__ import annotations

import contextlib
import io

import pytest

from casebook.tools.cli import main

ATTACK = "docs/examples/attack.yaml"
BFM = "games/battle_for_moscow/scenarios/campaign.yaml"


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


@pytest.mark.case("BM8.4")
def test_BM8_4_battle_for_moscow_combat_is_one_die_so_a_roll_is_1_to_6():
    res = _ask(BFM, "attack", "0304", "--with", "g-ix,g-xl-pz", "--roll", "7")
    assert res.exit_code == 1 and "--roll 7: the combat dice (1 × d6, by BM8.4) roll 1-6" in res.output
    res = _ask(BFM, "attack", "0304", "--with", "g-ix,g-xl-pz", "--roll", "6")
    assert res.exit_code == 0 and "result: roll 6, modified_roll 6, result DRL" in res.output


@pytest.fixture(scope="module")
def bfm_save(tmp_path_factory):
    """A Battle for Moscow save after 6 greedy decisions (scenario ``campaign``, turns 1-7)."""
    from casebook.tools.cmd_play import run_play

    out = tmp_path_factory.mktemp("save") / "out"
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "greedy")}
    run_play("battle_for_moscow", "campaign", players, 1, out, max_actions=6, echo=lambda s: None, progress=False)
    text = (out / "final.yaml").read_text(encoding="utf-8")
    assert "  last_turn: 7\n" in text and "\nturn:" not in text  # turn 1: the default, left out
    return text


@pytest.mark.case("BM1.2")
@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("\nphase:", "\nturn: 999\nphase:", 1), "turn: turn 999 is outside the scenario's turns 1-7"),
    (lambda t: t.replace("\nphase:", "\nturn: 0\nphase:", 1), "turn: turn 0 is outside the scenario's turns 1-7"),
    (lambda t: t.replace("  last_turn: 7\n", "  last_turn: 999\n").replace("\nphase:", "\nturn: 12\nphase:", 1),
     "scenario.last_turn: scenario 'campaign' of battle_for_moscow has last_turn 7, the save says 999"),
])
def test_BM1_2_a_save_cannot_play_past_the_scenarios_seven_turns(tmp_path, bfm_save, edit, message):
    """The campaign is seven turns (BM1.2; scenario ``last_turn: 7``): a save's turn is bounded by
    them, and a save cannot lengthen them; refused by play --load and by ask alike."""
    save = tmp_path / "edited.yaml"
    save.write_text(edit(bfm_save), encoding="utf-8")
    for args in (("play", "--load", save, "--out", tmp_path / "o", "--quiet"), ("ask", save, "zoc", "0303")):
        res = run(*args)
        assert res.exit_code == 1 and message in res.output, res.output
    good = tmp_path / "good.yaml"
    good.write_text(bfm_save.replace("\nphase:", "\nturn: 7\nphase:", 1), encoding="utf-8")
    assert run("ask", good, "zoc", "0303").exit_code == 0


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
