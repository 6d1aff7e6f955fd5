"""Guards weighing the threat (issue #16, session 11): a guard hex needs a share of the enemy strength
within reach in itself and next to it; both bots bring it there and keep it. Positions: the October
Blitz setup with a Soviet army moved next to Smolensk (18.1.3D)."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.core.hexgrid import parse_hex
from casebook.tools.bots import action_value, make_bot
from casebook.tools.bots_guard import (
    GUARD_BOLSTER,
    GUARD_SHARE,
    REACH_MIN,
    bolsters,
    exposed,
    guard_hexes,
    held,
    need,
    reach,
    short_guards,
    threat,
    weakens,
)

SMOLENSK = "1308"


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _dest(action):
    return (action.get("path") or (action.get("to"),))[-1]


# ------------------------------------------------------------------ weighing the threat (session 11)

#: A Soviet army (16th Army's 112th, 214th and 108th Rifle Divisions, 6 each) moved next to
#: Smolensk in the Blitz setup: the bypassed armies that took it in 14 of 40 planner games.
ARMY = {"s-112rd": "1409", "s-214rd": "1409", "s-108rd": "1408"}
#: The German infantry within six hexes of Smolensk at the start (9th Army's corps), activated.
NEAR = ("g-339id", "g-286sd", "g-292id", "g-183id", "g-137id", "g-197id", "g-267id", "g-15id", "g-263id")


def _threatened(game, army: bool = True, drop_18_1_3D: bool = False, clear: bool = False):
    """The Blitz setup in the German movement step of Turn 1, the infantry near Smolensk activated;
    with the Soviet ARMY next to it, optionally without 18.1.3D, or (``clear``) with no Soviet
    unit within its reach of Smolensk (nor ten hexes beyond)."""
    data = game.new_initial_state(1).data.to_dict()
    data["step"] = "movement"
    for u in data["units"]:
        if u.get("id") in NEAR:
            u["activated"] = True
        if army and u.get("id") in ARMY:
            u["hex"] = ARMY[u["id"]]
    if clear:
        grid = game.engine.board_for(game.new_initial_state(1).data).grid
        data["units"] = [u for u in data["units"] if not (
            u.get("hex") and u["side"] == "soviet"
            and grid.distance(parse_hex(SMOLENSK), parse_hex(u["hex"])) <= reach(u) + REACH_MIN)]
    if drop_18_1_3D:
        victory = data["scenario"]["victory"]
        victory["soviet"] = [c for c in victory["soviet"] if c.get("case") != "18.1.3D"]
    return game.state_from_dict(data)


def _play_step(state, bot):
    """Let ``bot`` play the German movement step to its end (at most 60 decisions)."""
    for _ in range(60):
        if state.data.step != "movement" or state.current_player() != "german":
            break
        state.apply(bot.choose(state))
    return state


def test_threat_is_the_enemy_strength_within_reach_and_the_need_its_share(blitz):
    state = blitz.new_initial_state(1)
    grid = blitz.engine.board_for(state.data).grid
    within = [u for u in state.data.units if u.get("hex") and u["side"] == "soviet" and u.get("class") != "hq"
              and grid.distance(parse_hex(SMOLENSK), parse_hex(u["hex"])) <= reach(u)]
    # printed strength less half a point per step lost (a Soviet division starts worn: 2 October)
    assert threat(state, "german", SMOLENSK) == sum(u["strength"] - 0.5 * (u.get("losses") or 0) for u in within) > 0
    assert need(state, "german", SMOLENSK) == pytest.approx(GUARD_SHARE * threat(state, "german", SMOLENSK))
    # the 403rd Security Division alone holds Smolensk on 2 October, nothing next to it
    garrison = next(u for u in state.data.units if u["id"] == "g-403sd")
    assert held(state, "german", SMOLENSK) == garrison["strength"]
    assert short_guards(state, "german") == {SMOLENSK: pytest.approx(need(state, "german", SMOLENSK)
                                                                      - garrison["strength"])}
    # the Moscow hexes: no German unit within reach on 2 October, nothing needed
    assert short_guards(state, "soviet") == {}
    assert all(need(state, "soviet", m) == 0.0 for m in guard_hexes(state, "soviet"))
    # an army next to Smolensk adds its strength to the threat
    moved = _threatened(blitz)
    before = {u["id"]: u for u in state.data.units}
    added = sum(before[i]["strength"] for i in ARMY
                if grid.distance(parse_hex(SMOLENSK), parse_hex(before[i]["hex"])) > reach(before[i]))
    assert threat(moved, "german", SMOLENSK) == threat(state, "german", SMOLENSK) + added
    assert need(_threatened(blitz, army=False, clear=True), "german", SMOLENSK) == 0.0


def test_planner_gathers_strength_at_smolensk_against_an_army_next_to_it(blitz):
    """With a Soviet army next to Smolensk, the planner's German movement step brings divisions into
    Smolensk's ring until the garrison and ring hold at least half the need (GUARD_SHARE / 2 of the
    threat) with three units or more; without 18.1.3D, or without the threat, no unit goes there."""
    state = _threatened(blitz)
    want, menace = need(state, "german", SMOLENSK), threat(state, "german", SMOLENSK)
    assert want == pytest.approx(GUARD_SHARE * menace) and held(state, "german", SMOLENSK) < 0.5 * want
    after = _play_step(state, make_bot("planner", "german", 1))   # (plays on ``state`` itself)
    assert held(after, "german", SMOLENSK) >= 0.5 * want
    ring = {SMOLENSK, *blitz.engine.board_for(after.data).label_neighbours(SMOLENSK)}
    assert sum(1 for u in after.data.units if u.get("hex") in ring and u["side"] == "german") >= 3
    for control in (_threatened(blitz, drop_18_1_3D=True), _threatened(blitz, army=False, clear=True)):
        base = held(control, "german", SMOLENSK)
        assert held(_play_step(control, make_bot("planner", "german", 1)), "german", SMOLENSK) <= base


def test_greedy_bolsters_smolensk_against_an_army_next_to_it(blitz):
    """The greedy German sends the 339th Infantry Division (the one stack that can reach Smolensk's
    ring this step) next to Smolensk: the move covers its strength of the shortfall, GUARD_BOLSTER a
    point; without 18.1.3D the same bot marches it away. Once there, a move out costs as much; a
    reinforcement placed next to Smolensk is worth its strength up to the shortfall."""
    from casebook.core.actions import Action

    state = _threatened(blitz)
    lack = short_guards(state, "german")[SMOLENSK]
    division = next(u for u in state.data.units if u["id"] == "g-339id")
    choice = make_bot("greedy", "german", 1).choose(state)
    ring = set(blitz.engine.board_for(state.data).label_neighbours(SMOLENSK))
    assert choice.get("stack") == division["hex"] and _dest(choice) in ring
    assert bolsters(state, choice) == min(division["strength"], lack)
    control = _threatened(blitz, drop_18_1_3D=True)
    assert _dest(make_bot("greedy", "german", 1).choose(control)) not in ring | {SMOLENSK}
    # the division standing next to Smolensk, activated: a move out costs its strength of the need
    data = state.data.to_dict()
    next(u for u in data["units"] if u["id"] == "g-339id")["hex"] = "1208"
    there = blitz.state_from_dict(data)
    out = [a for a in there.legal_actions() if a.kind == "move" and a.get("stack") == "1208"
           and _dest(a) not in ring | {SMOLENSK}]
    assert "1208" in ring and out
    assert all(weakens(there, a) == pytest.approx(min(division["strength"], need(there, "german", SMOLENSK)
                                                      - (held(there, "german", SMOLENSK) - division["strength"])))
               for a in out)
    assert make_bot("greedy", "german", 1).choose(there).get("stack") != "1208"
    place = Action.make("place-reinforcement", "german", unit="g-31id", hex=sorted(ring)[0])
    printed = blitz.engine.pack.counters["g-31id"]["strength"]
    assert bolsters(state, place) == min(printed, lack)
    assert action_value(state, state.ctx(), place) == 1.0 + GUARD_BOLSTER * min(printed, lack)
    assert action_value(control, control.ctx(), place) == 1.0


def test_an_advance_out_of_a_short_guard_ring_is_declined_and_an_overstack_there_counts_nothing(blitz):
    """Seed 5 of the session-11 row: a panzer stack next to Smolensk advanced away after combat on
    Turn 3, and a second division kept in an overstacked Smolensk was eliminated by 6.2E. An advance
    out of the ring of a short guard hex costs the greedy bot GUARD_BOLSTER a point of the need it
    opens and is declined by the planner; a stack staying overstacked on the guard hex adds nothing
    to the planner's GUARD_HOLD terms (the area's, and since session 13 the core's: the strength in
    the hex itself, planner_guard)."""
    from casebook.core.actions import Action
    from casebook.tools.bots_guard import advance_weakens
    from casebook.tools.planner import PlannerBot
    from casebook.tools.planner_eval import GUARD_HOLD, Mover, W, build_view, plan_value

    data = _threatened(blitz).data.to_dict()
    next(u for u in data["units"] if u["id"] == "g-339id")["hex"] = "1208"   # next to Smolensk
    state = blitz.state_from_dict(data)
    division = next(u for u in state.data.units if u["id"] == "g-339id")
    away = Action.make("advance", "german", path=("1208", "1109"), **{"with": ("g-339id",)})
    along = Action.make("advance", "german", path=("1208", "1309"), **{"with": ("g-339id",)})
    lack_after = need(state, "german", SMOLENSK) - (held(state, "german", SMOLENSK) - division["strength"])
    assert advance_weakens(state, away) == min(division["strength"], lack_after) > 0
    assert advance_weakens(state, along) == 0.0                # 1309 is next to Smolensk too
    assert action_value(state, state.ctx(), away) == 0.5 - GUARD_BOLSTER * advance_weakens(state, away)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    assert bot._other(state, state.ctx(), view, away) == -1.0 < bot._other(state, state.ctx(), view, along)
    control = blitz.state_from_dict({**data, "scenario": {**data["scenario"], "victory": {
        **data["scenario"]["victory"], "soviet": [c for c in data["scenario"]["victory"]["soviet"]
                                                  if c.get("case") != "18.1.3D"]}}})
    assert advance_weakens(control, away) == 0.0 and action_value(control, control.ctx(), away) == 0.5
    # the garrison's stack on Smolensk, overstacked and staying: its strength is not counted, in the
    # area nor in the core (the hex's own need, more than 4 here: the ring is open)
    assert view.guard_core[SMOLENSK] > 4.0 and exposed(state, "german", SMOLENSK) > 0
    ok = Mover(SMOLENSK, 4.0, False, (SMOLENSK, "1309"))
    over = Mover(SMOLENSK, 4.0, False, (SMOLENSK, "1309"), overstacked=True)
    assert (plan_value(view, [ok], [SMOLENSK]) - plan_value(view, [over], [SMOLENSK])
            == pytest.approx(2 * GUARD_HOLD * 4.0 + W["overstack"]))
