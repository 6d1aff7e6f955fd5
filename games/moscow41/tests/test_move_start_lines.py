"""9.4A, 9.1D: a move refused for its stack names the ``start_move`` line that forbade it (issue #15:
cite only deciding cases) — not 9.1D beside 9.4A whatever the reason, as before session 16 — and a
hex holding no unit of the side moving names the ``movement_side`` line that says whose units move
now (0.7.3.2A), in ``ask … why`` as in play's refusal (the same function, ``why_not_lines``).
tests/positions/blitz-seed2-turn2-smolensk.yaml: German Movement Step of Turn 2, Soviet units in
3111, an unactivated German division in 4009; docs/examples/reach-move.yaml for a unit that moved."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.position import position_to_dict
from casebook.core.game import Game
from casebook.tools.cmd_ask import _position_engine, why_not_lines

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "games" / "moscow41" / "rules" / "movement.rules"


def line_of(start: str) -> str:
    lines = RULES.read_text(encoding="utf-8").splitlines()
    return f"movement.rules:{next(i for i, t in enumerate(lines) if t.startswith(start)) + 1}"


def _state(position: Path):
    pos, engine = _position_engine(str(position))
    return Game(engine, next(iter(engine.pack.scenarios))).state_from_dict(position_to_dict(pos))


def _why(state, action: str) -> tuple[tuple[str, ...], str, list[str]]:
    cases, reason, lines = why_not_lines(state, action)
    return cases, reason, [ln["source"] for ln in lines]


@pytest.fixture(scope="module")
def smolensk():
    return _state(ROOT / "tests" / "positions" / "blitz-seed2-turn2-smolensk.yaml")


@pytest.mark.case("0.7.3.2A")
def test_0_7_3_2A_a_hex_without_a_unit_of_the_side_names_whose_units_move_not_9_1D(smolensk):
    cases, reason, lines = _why(smolensk, "german: move stack=3111 path=3211")
    assert (cases, reason) == (("0.7.3.2A", "0.7.3.7"), "no unit of german in 3111")
    assert lines == [line_of("  otherwise phasing_side")]


@pytest.mark.case("9.4A")
def test_9_4A_an_unactivated_unit_names_the_activation_line_only(smolensk):
    cases, reason, lines = _why(smolensk, "german: move stack=4009 path=3909")
    assert cases == ("9.4A",) and reason.endswith("only activated units move in the Movement Step")
    assert lines == [line_of("forbid start_move by 9.4A")]


@pytest.mark.case("9.1D")
def test_9_1D_a_unit_that_moved_names_the_once_a_phase_line_only():
    state = _state(ROOT / "docs" / "examples" / "reach-move.yaml")
    state.apply("german: move stack=0202 path=0302")
    state.apply("german: move stack=0104 path=0204")  # another stack moves: g1's move is over
    cases, reason, lines = _why(state, "german: move stack=0302 path=0402")
    assert cases == ("9.1D",) and reason.endswith("each unit moves once a phase")
    assert lines == [line_of("forbid start_move by 9.1D")]
