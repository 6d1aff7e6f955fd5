"""The planner chooses which stacks an activated HQ takes (src/casebook/tools/planner_command.py;
docs/planner.md, "HQ activations"; BALANCE.md, session 17)."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot, _priority
from casebook.tools.planner_command import chosen_stacks
from casebook.tools.planner_eval import build_view


@pytest.fixture(scope="module")
def blitz() -> tuple:
    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    bot = PlannerBot("german", 1)
    return state, bot, build_view(state, "german", bot.goals(state))


def _units(state, hexes) -> set[str]:
    return {u["id"] for h in hexes for u in state.data.units_at(h) if u["side"] == "german"}


def test_0_7_3_1B_an_hq_takes_the_stacks_the_planner_values_not_the_listed_nearest(blitz) -> None:
    """The Blitz's first German decision: LVII Panzer Corps' listed activation takes its own stack
    (20th Panzer), 5th Panzer and the 252nd Infantry Division (the nearest, 0.7.3.1B); the planner
    fills the template with the three panzer stacks within its radius it values most."""
    state, bot, view = blitz
    listed = next(a for a in state.legal_actions() if a.kind == "activate-hq" and a.get("hq") == "g-lvii-pz")
    assert set(listed.get("stacks")) == {"0413", "0414", "0514"}
    assert "g-252id" in _units(state, listed.get("stacks"))
    extra = chosen_stacks(state, state.legal_actions(), lambda: view, _priority)
    mine = next(a for a in extra if a.get("hq") == "g-lvii-pz")
    assert set(mine.get("stacks")) == {"0614", "0414", "0316"}  # 2nd, 5th and 11th Panzer
    assert "g-252id" not in _units(state, mine.get("stacks"))
    assert state.why_not(mine) == ((), "legal")  # the game accepts the filled template
    assert sum(_priority(view, h) for h in mine.get("stacks")) > sum(_priority(view, h) for h in listed.get("stacks"))
    assert bot.choose(state) == mine  # and the bot plays it


def test_2_2C_every_chosen_set_is_one_the_game_accepts(blitz) -> None:
    """Eligibility is the game's answer, never guessed: every option offered is legal (an infantry
    corps HQ takes no panzer stack, 2.2C), and none repeats a listed set."""
    state, _, view = blitz
    listed = {(a.get("hq"), frozenset(a.get("stacks") or ())) for a in state.legal_actions()}
    extra = chosen_stacks(state, state.legal_actions(), lambda: view, _priority)
    assert extra
    for a in extra:
        assert state.why_not(a) == ((), "legal")
        assert (a.get("hq"), frozenset(a.get("stacks"))) not in listed


def test_no_stacks_argument_no_option_and_no_view_built(blitz) -> None:
    """A decision without an activation that names stacks is left as listed (Battle for Moscow has
    none): nothing added, the view not even built."""
    state, _, _ = blitz

    def no_view() -> None:
        raise AssertionError("the view was built")

    moves = [a for a in state.legal_actions() if a.kind != "activate-hq"]
    assert chosen_stacks(state, moves, no_view, _priority) == []
