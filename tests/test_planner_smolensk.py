"""The German planner keeps Smolensk's guard closed (issue #16, session 13; 18.1.3D: a Soviet combat
unit entering Smolensk wins at once). Position: October Blitz, seed 2 planner against planner,
Turn 2, the German movement step after VII Corps' activation (tests/positions/, written by the
planner's own play from session 12's trace of that seed). Smolensk (1308) has three hexes next to
it on the map: 1208 (20th Panzer Division), 1309 (SS Das Reich) and 1408, empty; its garrison, the
403rd Security Division (4), cannot be reinforced (the stacking limit, 6.2B). In session 12's game
1408 stayed empty, a Soviet stack of 8 marched into it and attacked Smolensk at 3:2 (-/FR: the
garrison retreated, the Soviets advanced and won on Turn 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.game import Game
from casebook.tools.bots import make_bot
from casebook.tools.bots_guard import GUARD_CORE, core_need, exposed, facing, garrison, short_guards

POSITION = Path(__file__).parent / "positions" / "blitz-seed2-turn2-smolensk.yaml"
SMOLENSK, OPEN = "1308", "1408"


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _position(game, drop_18_1_3D: bool = False):
    data = position_to_dict(load_position(POSITION, pack=game.engine.pack))
    if drop_18_1_3D:
        victory = data["scenario"]["victory"]
        victory["soviet"] = [c for c in victory["soviet"] if c.get("case") != "18.1.3D"]
    return game.state_from_dict(data)


def _dest(action):
    return (action.get("path") or (action.get("to"),))[-1]


@pytest.mark.case("18.1.3D")
def test_18_1_3D_the_german_planner_closes_the_last_open_hex_next_to_smolensk(blitz):
    state = _position(blitz)
    assert (state.data.turn, state.data.step, state.current_player()) == (2, "movement", "german")
    ring = set(blitz.engine.board_for(state.data).label_neighbours(SMOLENSK))
    assert ring == {"1208", "1309", OPEN} and exposed(state, "german", SMOLENSK) == 1
    assert garrison(state, "german", SMOLENSK) == 4.0  # the 403rd Security Division alone
    want = core_need(state, "german", SMOLENSK)
    assert want == pytest.approx(GUARD_CORE * facing(state, "german", SMOLENSK)) and want > 4.0
    bot = make_bot("planner", "german", 2)
    choice = bot.choose(state)
    assert choice.kind == "move" and _dest(choice) == OPEN
    state.apply(choice)
    assert exposed(state, "german", SMOLENSK) == 0 and SMOLENSK not in short_guards(state, "german")
    # the stack that closed the ring stays: no force march out of it, no second move
    follow = bot.choose(state)
    assert follow.get("stack") != OPEN


@pytest.mark.case("18.1.3D")
def test_18_1_3D_without_it_the_planner_leaves_the_hex_next_to_smolensk_open(blitz):
    """The control: the same position without 18.1.3D (Smolensk is no guard hex)."""
    state = _position(blitz, drop_18_1_3D=True)
    assert short_guards(state, "german") == {}
    choice = make_bot("planner", "german", 2).choose(state)
    assert _dest(choice) != OPEN
