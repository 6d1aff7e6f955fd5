"""The relief's ring (session 20, docs/planner.md "Guards", *Relief*): while a side keeps its key HQs
(mechanized, Moscow '41 2.2C) out of an automatic-loss hex's guard (Smolensk, 18.1.3D), each hex next
to the guard hex that no own combat unit holds is owed ``RING_LACK`` by the other stacks, and a plan
gains ``GUARD_HOLD`` × ``RING_LACK`` for each such hex it holds. Planner vs planner the relieved guard
met its area need with one panzer division in one of Smolensk's three ring hexes, and a 6-point Soviet
stack walked through an open one on Turn 2 (seed 4, BALANCE.md "Session 20")."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, build_view, plan_value
from casebook.tools.planner_guard import GUARD_HOLD, RING_LACK, open_ring, relief

SMOLENSK = "1308"
#: Smolensk's ring on the Blitz map (three hexes: the others are off the map's edge)
RING = ("1208", "1309", "1408")
ACTIVATION = "german: activate-hq hq=g-lvii-pz stacks=0413,0414,0514"


@pytest.fixture(scope="module")
def activated():
    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    state.apply(ACTIVATION)
    return state


def _view(state, side="german"):
    return build_view(state, side, PlannerBot(side, 1).goals(state))


def test_18_1_3D_the_open_ring_is_owed_by_the_relief(activated):
    """Turn 1: 403rd Security Division alone in Smolensk, its three ring hexes empty, the panzer corps
    HQs on the map: the relief owes ``RING_LACK`` for each (no key HQ's stack stands in the area)."""
    view = _view(activated)
    assert view.keyed and view.guard_need[SMOLENSK] > 0
    assert tuple(view.neighbours(SMOLENSK)) == RING
    assert open_ring(view, SMOLENSK) == RING
    assert relief(view, SMOLENSK) == pytest.approx(3 * RING_LACK)
    view.own["1208"] = 10.0  # a stack in one ring hex: two left open
    assert open_ring(view, SMOLENSK) == ("1309", "1408")
    assert relief(view, SMOLENSK) == pytest.approx(2 * RING_LACK)


def test_18_1_3D_a_stack_closing_the_ring_gains_ring_lack(activated):
    """A 10-point stack moving from 1209 into the empty ring hex 1208 gains ``GUARD_HOLD`` ×
    ``RING_LACK`` more while the side relieves key HQs than with none on the map (the approach is
    the same: the shortfall is above its strength either way)."""
    view = _view(activated)
    plain = Mover("1209", 10.0, False, ("1209", "1208"))
    gain = plan_value(view, [plain], ["1208"]) - plan_value(view, [plain], ["1209"])
    view.keyed = set()
    assert open_ring(view, SMOLENSK) == () and relief(view, SMOLENSK) == 0.0
    before = plan_value(view, [plain], ["1208"]) - plan_value(view, [plain], ["1209"])
    assert gain - before == pytest.approx(GUARD_HOLD * RING_LACK)


def test_18_1_3D_a_stack_leaving_the_ring_open_pays_ring_lack(activated):
    """The same stack standing in 1208 pays ``GUARD_HOLD`` × ``RING_LACK`` more for marching off
    (1208 -> 1109) while the side relieves key HQs: the relief keeps the ring it closed."""
    view = _view(activated)
    view.own["1208"] = 10.0
    stack = Mover("1208", 10.0, False, ("1208", "1109"))
    leave = plan_value(view, [stack], ["1109"]) - plan_value(view, [stack], ["1208"])
    view.keyed = set()
    before = plan_value(view, [stack], ["1109"]) - plan_value(view, [stack], ["1208"])
    assert before - leave == pytest.approx(GUARD_HOLD * RING_LACK)


def test_18_1_3D_a_side_without_key_hqs_reads_no_ring_relief(activated):
    """The Soviet side has no mechanized HQ: its guard hexes (Moscow's, 18.1.3B) owe no ring
    relief — its guard reads as before session 20."""
    view = _view(activated, "soviet")
    assert not view.keyed and view.guards
    assert all(open_ring(view, g) == () and relief(view, g) == 0.0 for g in view.guards)
