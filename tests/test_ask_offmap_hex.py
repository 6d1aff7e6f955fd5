"""A hex off the map, as an argument of any ``ask`` question whose usage line names it ``HEX``, is a
usage error (docs/ask.md: one line, exit 2) before any plugin answers — as ``stacking 9999`` always
was; ``partisans 9999`` and ``drop UNIT 9999`` answered with a verdict (exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


@pytest.mark.parametrize("position, args, grid", [
    ("partisans.yaml", ["partisans", "9999"], "0101..1212"),
    ("drop.yaml", ["drop", "s-201ab", "9999"], "0101..2020"),
    ("drop.yaml", ["stacking", "9999"], "0101..2020"),
    ("drop.yaml", ["zoc", "9999"], "0101..2020"),
    ("drop.yaml", ["fortification", "9999"], "0101..2020"),
    ("drop.yaml", ["overrun", "0101", "9999"], "0101..2020"),
    ("drop.yaml", ["move", "0101", "0102", "9999"], "0101..2020"),
    ("drop.yaml", ["attack", "9999", "--with", "s-201ab"], "0101..2020"),
    ("drop.yaml", ["reach", "9999"], "0101..2020"),  # a STACK given as a hex (areas/movement.py)
    ("drop.yaml", ["move", "9999", "0102"], "0101..2020"),
])
def test_an_ask_hex_off_the_map_is_a_usage_error_exit_2(position, args, grid):
    out = CliRunner().invoke(main, ["ask", str(EXAMPLES / position), *args])
    assert out.exit_code == 2, out.output
    assert out.output.strip() == f"hex 9999 is off the map (hexes {grid})"


def test_an_ask_hex_on_the_map_still_answers():
    out = CliRunner().invoke(main, ["ask", str(EXAMPLES / "partisans.yaml"), "partisans", "0909"])
    assert out.exit_code == 0 and "verdict:" in out.output, out.output


BLITZ = Path(__file__).resolve().parent.parent / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"


@pytest.mark.parametrize("action, said", [
    ("activate-hq hq=g-ix stacks=9999", "stacks=9999: hex 9999 is not on the map (hexes 0108..4053)"),
    ("mvoe stack=1313", "unknown action mvoe; did you mean move? (offered now: activate-hq, activate-stack, pass)"),
    ("activate-hq hq=g-zz stacks=2911", "hq=g-zz: g-zz is not a unit of this game"),
])
def test_ask_why_refuses_bad_input_in_the_play_prompts_words_exit_2(action, said):
    # `why` checks the typed action as play's prompt does (tools/typed.typed_problem), before the rules judge it
    out = CliRunner().invoke(main, ["ask", str(BLITZ), "why", action])
    assert out.exit_code == 2, out.output
    assert out.output.strip() == said


@pytest.mark.parametrize("arg, said", [
    ("hex=9999", "hex=9999: hex 9999 is not on the map (hexes 0101..1212)"),
    ("hex=abc", "hex=abc: 'abc' is not a hex label (four digits, column then row)"),
])
def test_ask_offer_refuses_a_hex_argument_off_the_map_exit_2(arg, said):
    out = CliRunner().invoke(main, ["ask", str(EXAMPLES / "partisans.yaml"), "offer", "place-partisan", arg])
    assert out.exit_code == 2, out.output
    assert out.output.strip() == said


def test_1_1A_ask_income_without_a_side_prints_its_usage_line_without_placeholders():
    out = CliRunner().invoke(main, ["ask", str(EXAMPLES / "income-turn13.yaml"), "income"])
    assert out.exit_code == 2 and out.output.strip() == "usage: income SIDE [--roll N]", out.output


BLITZ = Path(__file__).resolve().parent.parent / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"


@pytest.mark.parametrize("args, said", [
    (["command", "g-lvi"], "command: no unit 'g-lvi' on the map (did you mean 'g-vi'?)"),
    (["attak"], "no rules plugin of moscow41 answers 'attak' (did you mean 'attack'?); usage: attack HEX "
                "--with UNIT,UNIT… [--support A,D] [--overrun] [--roll N]"),
])
def test_a_mistyped_unit_or_question_gets_a_did_you_mean_not_a_listing(args, said):
    out = CliRunner().invoke(main, ["ask", str(BLITZ), *args])
    assert out.exit_code == 2, out.output
    assert out.output.strip().splitlines()[-1] in (said, f"Error: {said}")


@pytest.mark.case("9.5A")
def test_9_5A_a_move_into_enemy_units_is_refused_naming_the_hex_once():
    """It said "0404: 0404 is occupied by enemy units …" (the hex before a reason that names it)."""
    out = CliRunner().invoke(main, ["ask", str(EXAMPLES / "overrun.yaml"), "why", "move stack=0403 path=0404"])
    assert out.exit_code == 0, out.output
    assert "\nreason: 0404 is occupied by enemy units (only an overrun attacks them)\ncases: 9.0A, 9.5A\n" in out.output
