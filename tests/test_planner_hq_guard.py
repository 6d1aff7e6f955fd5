"""The planning bot's guard and its mechanized HQs (session 18, docs/planner.md "Guards", *HQs at the
front*): a stack carrying an HQ marked ``mechanized`` — the only HQs that may activate the panzer
divisions (Moscow '41 2.2C) — counts for the guard terms of an automatic-loss hex (Smolensk, 18.1.3D)
wherever a plan puts it, as any stack, at a cost (``KEY_HQ_GUARD`` a strength point in the guard's
area): Smolensk's ring is kept whole as before (hq18's first try, counting it where it stood, left the
ring open: Smolensk fell in 5 of 20 planner games), other stacks are preferred, and it leaves when
relieved. Session 20, *the relief's ring*: while a side keeps such HQs out of the guard, each hex next
to the guard hex that no own combat unit holds is owed ``RING_LACK`` by the other stacks, and a plan gains
``GUARD_HOLD`` × ``RING_LACK`` for each such hex it holds (planner vs planner, seed 4, a 6-point Soviet
stack walked through an open ring hex on Turn 2: BALANCE.md "Session 20")."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, build_view, plan_value
from casebook.tools.planner_guard import GUARD_APPROACH, GUARD_HOLD, KEY_HQ_GUARD, RING_LACK, key_hq, open_ring, relief

SMOLENSK = "1308"
#: Blitz seed 1, Turn 1: the planner's activation of LVII Pz (with 20th Panzer in 0413, 5th Panzer in
#: 0414, the 252nd Infantry in 0514), as the session 17 games began
ACTIVATION = "german: activate-hq hq=g-lvii-pz stacks=0413,0414,0514"
#: Smolensk's ring on the Blitz map (three hexes: the others are off the map's edge)
RING = ("1208", "1309", "1408")


@pytest.fixture(scope="module")
def activated():
    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    state.apply(ACTIVATION)
    return state


def test_2_2C_a_stack_with_a_mechanized_hq_guards_at_a_cost_for_18_1_3D(activated):
    """20th Panzer with LVII Pz (a mechanized HQ) moving next to Smolensk (1208) from 0413 still
    gains the guard terms there (the ring is kept whole when nothing else is near), but
    ``KEY_HQ_GUARD`` a strength point less than the same stack without the HQ: another stack that
    gives the guard as much is preferred."""
    units = activated.data.units_at("0413")
    assert key_hq(units) and not key_hq(activated.data.units_at("0414"))
    bot = PlannerBot("german", 1)
    view = build_view(activated, "german", bot.goals(activated))
    assert view.guard_need.get(SMOLENSK, 0.0) > 0 and view.distance("1208", SMOLENSK) == 1
    power = sum(float(u["strength"]) for u in units if u.get("strength"))
    plain = Mover("0413", power, False, ("0413", "1208"))
    carried = Mover("0413", power, False, ("0413", "1208"), key_hq=True)
    gain = plan_value(view, [plain], ["1208"]) - plan_value(view, [plain], ["0413"])
    kept = plan_value(view, [carried], ["1208"]) - plan_value(view, [carried], ["0413"])
    assert GUARD_HOLD * min(power, view.guard_need[SMOLENSK]) - KEY_HQ_GUARD * power > 0 and kept > 0
    # less by the cost, and by the approach the plain stack gains (session 19: none for a key HQ's stack)
    lack = view.guard_need[SMOLENSK] - sum(view.own.get(h, 0.0) for h in (SMOLENSK, *view.neighbours(SMOLENSK)))
    closer = view.distance("0413", SMOLENSK) - view.distance("1208", SMOLENSK)
    assert closer == 9 and lack > 0
    approach = GUARD_APPROACH * closer * min(power, lack) / 5.0
    assert gain - kept == pytest.approx(KEY_HQ_GUARD * power + approach)


def test_18_1_3D_infantry_relieves_a_mechanized_hq_stack_in_the_ring(activated):
    """Session 19: a stack carrying a mechanized HQ (2.2C) next to Smolensk counts as a relief owed
    (``relief``): the guard's approach still sends another stack within ``GUARD_RADIUS`` nearer though the
    need is met, and the HQ activations' guard call (``_priority``) wakes that stack, not the HQ's."""
    bot = PlannerBot("german", 1)
    view = build_view(activated, "german", bot.goals(activated))
    want = view.guard_need[SMOLENSK]
    view.own["1208"] = view.own.get("1208", 0.0) + want  # a key HQ's stack meets the whole need
    view.keyed = {"1208"}
    # and a division's worth for each ring hex left open (session 20: 1309 and 1408)
    assert relief(view, SMOLENSK) == pytest.approx(view.own["1208"] + RING_LACK * len(open_ring(view, SMOLENSK)))
    assert open_ring(view, SMOLENSK) == ("1309", "1408")
    foot = Mover("1513", 4.0, False, ("1513", "1410"))  # a foot stack 6 hexes off marching 3 nearer
    assert view.distance("1513", SMOLENSK) == 6 and view.distance("1410", SMOLENSK) == 3
    assert want - sum(view.own.get(h, 0.0) for h in (SMOLENSK, *view.neighbours(SMOLENSK))) + relief(view, SMOLENSK) >= 4
    step = plan_value(view, [foot], ["1410"]) - plan_value(view, [foot], ["1513"])
    view.keyed = set()  # the same strength without the HQ: the need met, no approach
    plain = plan_value(view, [foot], ["1410"]) - plan_value(view, [foot], ["1513"])
    assert step - plain == pytest.approx(GUARD_APPROACH * 3 * 4.0 / 5.0)


def test_18_1_3D_a_mechanized_hq_stack_relieved_leaves_the_guard(activated):
    """With Smolensk's need met by other stacks (as strong as it asks, in it and next to it), the
    stack carrying LVII Pz gains by leaving the ring (1208) and loses nothing of the guard; without
    the HQ it would be indifferent."""
    bot = PlannerBot("german", 1)
    view = build_view(activated, "german", bot.goals(activated))
    want = view.guard_need[SMOLENSK]
    for h in (SMOLENSK, *view.neighbours(SMOLENSK)):  # the need met and more, whatever moves
        view.own[h] = view.own.get(h, 0.0) + want
    carried = Mover("1208", 10.0, False, ("1208", "0413"), key_hq=True)
    plain = Mover("1208", 10.0, False, ("1208", "0413"))
    leave = plan_value(view, [carried], ["0413"]) - plan_value(view, [carried], ["1208"])
    stay = plan_value(view, [plain], ["0413"]) - plan_value(view, [plain], ["1208"])
    assert leave - stay == pytest.approx(KEY_HQ_GUARD * 10.0)



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
