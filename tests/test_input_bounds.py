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
