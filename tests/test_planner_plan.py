"""The scenario's plan for the bot (``bot_plan:``, tools/planner_plan.py; issue #16, session 20): a
stack of the classes it names (the armour) drives for the plan's objective until its turn has passed,
then for the scenario's goals again; infantry is not pulled by an objective of ``classes: [armor]``; a scenario without the block
plays as before (no plan in the view, the plan term 0). Guidance for the bot, not a rule."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import build_view
from casebook.tools.planner_plan import PLAN_PULL, plan_aims, plan_pull
from tests._planner_positions import armor as _armor
from tests._planner_positions import inf as _inf
from tests._planner_positions import state as _state


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


_GOAL = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
         '[{id: t, kind: control_count, when: end, hexes: ["1609"], at_least: 1}]}')


def _scenario(by_turn: int | None, classes: str = ", classes: [armor]") -> str:
    """The test scenario (the town of 1609 to hold, east of the panzers), with a plan to reach 0916
    (south) by ``by_turn`` (None: no plan)."""
    if by_turn is None:
        return _GOAL + "}"
    return (_GOAL + ', bot_plan: {provenance: "reconstructed: a test plan", objectives: [{side: german, '
            f'hex: "0916", by_turn: {by_turn}, weight: 2.0{classes}}}]}}}}')


_TOWNS = {"1609": "Goalgrad", "0916": "Pincer"}
_PANZER = _armor("german", "g1", "0909", 8)
_UNITS = _PANZER + _inf("german", "g2", "0709", 6, True) + _inf("soviet", "s1", "1818", 2)


def _first_move(blitz, scenario: str) -> tuple[str, object]:
    state = _state(blitz, _UNITS, "movement", scenario, size=18, towns=_TOWNS)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    move = bot.choose(state)
    assert move.kind == "move" and move.get("stack") == "0909", str(move)
    return move.get("path")[-1], view


def test_a_spearhead_takes_the_plans_road_until_its_turn(blitz):
    # no plan: the panzer division drives east for the town it must hold (1609, 7 hexes)
    end, view = _first_move(blitz, _scenario(None))
    assert view.plan is None
    assert view.distance(end, "1609") < view.distance("0909", "1609")
    # the plan's objective 0916 (7 hexes south) by Turn 3, this turn: the panzers take its road
    end, view = _first_move(blitz, _scenario(3))
    assert view.plan is not None and dict(view.plan.targets) == {"0916": (2.0, {"0909": 8.0})}
    assert view.distance(end, "0916") < view.distance(end, "1609")
    assert view.distance(end, "0916") <= view.distance("0909", "0916") - 4
    # by Turn 2: its turn has passed (the position is Turn 3) -> the scenario's goal again
    end, view = _first_move(blitz, _scenario(2))
    assert view.plan is None
    assert view.distance(end, "1609") < view.distance("0909", "1609")


def test_an_objective_pulls_the_classes_it_names_only(blitz):
    state = _state(blitz, _UNITS, "movement", _scenario(3), size=18, towns=_TOWNS)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert dict(view.plan.targets["0916"][1]) == {"0909": 8.0}  # classes: [armor]

    class _M:  # a planner_eval.Mover's fields plan_pull reads
        def __init__(self, origin: str) -> None:
            self.origin, self.hq_only = origin, False

    reach = view.plan.reach
    one_nearer = plan_pull(view, [_M("0909")], ["0910"]) - plan_pull(view, [_M("0909")], ["0909"])
    assert one_nearer == pytest.approx(PLAN_PULL * 8.0 / 5.0 * 2.0)  # a hex nearer, per 5 SP and weight
    assert plan_pull(view, [_M("0909")], ["0909"]) == pytest.approx(PLAN_PULL * 8 / 5 * 2 * (reach - 7))
    assert plan_pull(view, [_M("0709")], ["0710"]) == 0.0  # infantry: not pulled
    state = _state(blitz, _UNITS, "movement", _scenario(3, ""), size=18, towns=_TOWNS)  # no classes: all
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert dict(view.plan.targets["0916"][1]) == {"0909": 8.0, "0709": 6.0}
    assert plan_pull(view, [_M("0709")], ["0710"]) > plan_pull(view, [_M("0709")], ["0709"])


def test_packs_without_a_plan_read_none():
    for game, scenario in (("moscow41", "campaign"), ("battle_for_moscow", None), ("kestrel_pass", "meeting")):
        g = Game.load(game, scenario)
        assert plan_aims(g.new_initial_state().data.scenario) == (), game
    blitz = Game.load("moscow41", "october-blitz")
    (vyazma,) = plan_aims(blitz.new_initial_state().data.scenario)
    assert (vyazma.side, vyazma.hex, vyazma.by_turn, vyazma.weight) == ("german", "1722", 2, 3.0)
    assert vyazma.classes == {"armor", "mechanized"}
