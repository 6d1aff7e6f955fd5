"""The planning bot (``bot:planner``): goals read from the packs' victory blocks, the plan search's
budget and determinism, and its choices in small inline-map positions (no timing asserts). Combat
judgement: test_planner_combat.py; the drive (exploitation, gaps, pockets): test_planner_drive.py;
guards: test_planner_guards.py; count conditions: test_planner_towns.py."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.bots import BOT_KINDS, make_bot
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_eval import Mover, build_view, plan_value
from casebook.tools.planner_goals import HOLD_WEIGHT, goals_for
from casebook.tools.planner_search import Budget, search_plan
from tests._planner_positions import inf as _inf
from tests._planner_positions import state as _state


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


@pytest.fixture(scope="module")
def bfm():
    return Game.load("battle_for_moscow", "campaign")


def test_planner_is_a_bot_kind_made_by_make_bot():
    assert "planner" in BOT_KINDS
    bot = make_bot("planner", "german", 3)
    assert isinstance(bot, PlannerBot) and bot.side == "german" and bot.seed == 3


def test_goals_of_the_october_blitz_come_from_its_victory_block(blitz):
    state = blitz.new_initial_state(1)
    goals = goals_for(state.data.scenario, blitz.engine.board_for(state.data), state.data.sides)
    # 18.1.3A: Kalinin, Volokolamsk, Mozhaisk, Maloyaroslavets, Kaluga are control objectives
    for h in ("3733", "2733", "2032", "1435", "0833"):
        assert goals.hold[h] == HOLD_WEIGHT
    # 18.1.3B: a German combat unit entering a Moscow hex; 18.1.3D: a Soviet one entering Smolensk
    assert goals.strike["german"] == goals.capital
    assert goals.strike["soviet"] == {"1308"}
    assert goals.guard("german") == {"1308"} and goals.guard("soviet") == goals.capital
    assert goals.hold["0212"] < HOLD_WEIGHT  # Roslavl: an ordinary town, a background objective


def test_goals_of_battle_for_moscow_are_moscow_for_both_sides(bfm):
    state = bfm.new_initial_state(1)
    goals = goals_for(state.data.scenario, bfm.engine.board_for(state.data), state.data.sides)
    assert goals.hold["1103"] == HOLD_WEIGHT  # BM10.1: whoever last occupied Moscow
    assert not goals.strike
    assert goals.targets("german")["1103"] == goals.targets("soviet")["1103"] == HOLD_WEIGHT


def _twelve_movers(blitz):
    """The German view of the Blitz setup and twelve of its stacks, each free to step next door."""
    state = blitz.new_initial_state(1)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    return view, [Mover(h, 6.0, False, (h, *view.neighbours(h))) for h in sorted(view.own)[:12]]


def test_search_plan_respects_its_node_budget_and_is_seeded(blitz):
    view, movers = _twelve_movers(blitz)
    plans = []
    for nodes in (50, 200, 200):
        budget = Budget(nodes)
        plan, value = search_plan(view, movers, budget, seed="s")
        assert budget.used <= nodes
        assert value == pytest.approx(plan_value(view, movers, plan))
        plans.append((plan, value))
    assert plans[1] == plans[2]        # same seed, same budget: the same plan


def test_search_plan_work_cap_is_a_count_and_ends_the_search_the_same_way(blitz):
    # the safety net of the budget: stacks evaluated, not seconds
    view, movers = _twelve_movers(blitz)
    found = []
    for _ in range(2):
        budget = Budget(400, work=12 * 60)
        found.append((search_plan(view, movers, budget, seed="s"), budget.used))
        assert budget.capped and budget.spent >= 12 * 60 and budget.used == budget.spent // 12 < 400
    assert found[0] == found[1]
    budget = Budget(400)
    search_plan(view, movers, budget, seed="s")
    assert not budget.capped and budget.used == 400


def test_planner_choices_are_the_same_under_any_wall_time(bfm, monkeypatch):
    # a tiny wall budget and a clock that jumps an hour at every read against a normal bot: the
    # node budget binds, so every choice and every node count are the same (#16: seeded and
    # deterministic, whatever the machine's load)
    import casebook.tools.planner as planner

    def play(seconds):
        state = bfm.new_initial_state(4)
        bots = {s: PlannerBot(s, 4, nodes=60, seconds=seconds) for s in state.data.sides}
        out = []
        for _ in range(30):
            bot = bots[state.current_player()]
            action = bot.choose(state)
            out.append((str(action), bot.last_nodes, bot.capped))
            state.apply(action)
        return out, sum(b.slow for b in bots.values())

    normal, _ = play(3600.0)
    ticks = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(planner.time, "perf_counter", lambda: float(next(ticks)))
    rushed, slow = play(1e-9)
    assert rushed == normal
    assert slow == 30  # every decision counted as over its wall budget, none cut short
    assert any(n > 0 for _, n, _ in normal)  # some decisions searched


def test_planner_prefers_the_higher_odds_attack(blitz):
    units = (_inf("german", "g1", "0303", 6, True) + _inf("german", "g2", "0403", 6, True)
             + _inf("soviet", "s1", "0404", 2) + _inf("soviet", "s2", "0302", 8))
    state = _state(blitz, units, "combat")
    legal = [str(a) for a in state.legal_actions()]
    assert "german: attack hex=0302 support=0 with=g1" in legal  # 6 against 8: below 1:1
    assert str(PlannerBot("german", 1).choose(state)) == "german: attack hex=0404 support=0 with=g2"  # 3:1


def test_planner_passes_rather_than_attack_at_bad_odds(blitz):
    units = _inf("german", "g1", "0303", 3, True) + _inf("soviet", "s2", "0302", 8)
    state = _state(blitz, units, "combat")
    assert any(a.kind == "attack" for a in state.legal_actions())
    assert PlannerBot("german", 1).choose(state).kind == "pass"


GARRISON = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
            '[{id: t, kind: control_count, when: end, hexes: ["0606"], at_least: 1}]}}')


def test_planner_garrisons_a_threatened_objective(blitz):
    # an activated German stack next to an empty town the victory block names, a Soviet unit close
    units = _inf("german", "g1", "0505", 6, True) + _inf("soviet", "s1", "0808", 4)
    state = _state(blitz, units, "movement", GARRISON, size=10)
    moves = [a for a in state.legal_actions() if a.kind == "move"]
    assert any((a.get("path") or ())[-1] == "0606" for a in moves)
    action = PlannerBot("german", 1).choose(state)
    assert action.kind == "move" and action.get("path")[-1] == "0606"


def test_planner_is_deterministic_and_its_state_round_trips(bfm):
    def play(n):
        state = bfm.new_initial_state(5)
        bots = {s: PlannerBot(s, 5, nodes=120) for s in state.data.sides}
        out = []
        for _ in range(n):
            bot = bots[state.current_player()]
            action = bot.choose(state)
            assert bot.last_nodes <= bot.nodes + len(state.legal_actions())
            out.append(str(action))
            state.apply(action)
        return out

    assert play(25) == play(25)
    bot = PlannerBot("soviet", 9, nodes=77)
    other = PlannerBot("german", 0)
    other.load_state_dict(bot.state_dict())
    assert other.state_dict() == bot.state_dict() == {"kind": "planner", "side": "soviet", "seed": 9,
                                                      "nodes": 77, "seconds": bot.seconds}
    with pytest.raises(ValueError):
        other.load_state_dict({"kind": "greedy"})


def test_planner_plays_a_blitz_turn_through_the_game_api(blitz):
    state = blitz.new_initial_state(2)
    bots = {s: PlannerBot(s, 2, nodes=60) for s in state.data.sides}
    kinds = set()
    for _ in range(40):
        action = bots[state.current_player()].choose(state)
        # listed, or a template filling (an attack's support) that the rules accept
        assert action in state.legal_actions() or state.why_not(action) == ((), "legal")
        kinds.add(action.kind)
        state.apply(action)
    assert {"activate-hq", "move"} <= kinds
