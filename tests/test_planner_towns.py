"""The planning bot plays for a count condition ("hold N of these M hexes") as a set, and chases a
strike hex only when it can reach it (``casebook.tools.planner_aims``; issue #16, session 12).

The October Blitz's main German condition is 18.1.3A: control three of Kalinin, Volokolamsk,
Mozhaisk, Maloyaroslavets and Kaluga at the end; 18.1.3B (a German combat unit entering a Moscow
hex) wins at once. Real positions: the Blitz setup (rulebook: 18.1.1, the Campaign Game's front of
2 October 1941) and a constructed Turn-3 position on an inline map (no timing asserts)."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.core.hexgrid import hex_label
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_aims import COUNT_PULL, COUNT_TOP, SPARE, STRIKE_FAR, STRIKE_TURNS, cost
from casebook.tools.planner_eval import build_view, strength
from casebook.tools.planner_goals import HOLD_WEIGHT, CountGoal, capital_hexes, goals_for
from tests._planner_positions import inf, state

# rulebook: 18.1.3A — Kalinin, Volokolamsk, Mozhaisk, Maloyaroslavets, Kaluga (the scenario's hexes)
FIVE = ("3733", "2733", "2032", "1435", "0833")


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _german_combat_distance(view, state, label):
    """Hexes from ``label`` to the nearest German combat stack of strength >= 2 (the test's own count)."""
    stacks: dict[str, float] = {}
    for u in state.data.units:
        if u.get("side") == "german" and u.get("hex") and u.get("class") != "hq":
            stacks[u["hex"]] = stacks.get(u["hex"], 0.0) + max(strength(u), 0.5)
    return min(view.distance(label, h) for h, s in stacks.items() if s >= 2.0)


@pytest.mark.case("18.1.3A")
def test_18_1_3A_is_read_as_a_count_condition_and_18_1_3B_from_its_target(blitz):
    state = blitz.new_initial_state(1)
    board = blitz.engine.board_for(state.data)
    goals = goals_for(state.data.scenario, board, state.data.sides)
    assert goals.counts == (CountGoal("german", FIVE, 3),)          # three of these five, the German condition
    # 18.1.3B names its hexes by `target:`: the map's hex set of that name, not a name in the bot
    target = next(c["target"] for c in state.data.scenario["victory"]["german"] if c.get("kind") == "enter")
    named = frozenset(hex_label(h) for h in board.hex_set(target))
    victory = state.data.scenario["victory"]
    assert len(named) == 5 and goals.strike["german"] == named == capital_hexes(board, victory) == goals.capital
    assert goals.strike["soviet"] == {"1308"}                        # 18.1.3D: Smolensk, by `town:`


@pytest.mark.case("18.1.3A")
def test_18_1_3A_capital_hexes_are_only_what_the_victory_block_names(blitz):
    """The map's only hex set is no capital unless the victory block names it (session 14): the
    three-towns count (``at_least``) and the Smolensk `town:` condition name none."""
    state = blitz.new_initial_state(1)
    board = blitz.engine.board_for(state.data)
    victory = state.data.scenario["victory"]
    assert len(board.hex_sets) == 1                                  # the map declares `moscow` only
    assert capital_hexes(board) == frozenset()                       # no victory block: none guessed
    german = [c for c in victory["german"] if c.get("kind") != "enter"]
    assert capital_hexes(board, {"german": german, "soviet": victory["soviet"]}) == frozenset()
    moscow = frozenset(hex_label(h) for h in board.hex_set("moscow"))
    assert capital_hexes(board, {"moscow": {"vp_per_hex": 5}}) == moscow   # 17.2's key names the set
    assert capital_hexes(board, {"hexes": ["1308"]}) == {"1308"}     # a hex that decides alone


@pytest.mark.case("18.1.3A")
def test_18_1_3A_the_blitz_germans_choose_the_three_most_reachable_towns(blitz):
    state = blitz.new_initial_state(1)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    (aim,) = view.counts
    assert aim.at_least == 3 and aim.held == 0
    dist = {h: _german_combat_distance(view, state, h) for h in FIVE}
    # no Soviet unit on or next to the towns on 2 October: the cost is the distance
    assert {h: cost(view, h) for h in FIVE} == {h: float(d) for h, d in dist.items()}
    assert set(aim.chosen) == {"0833", "2032", "2733"}               # Kaluga 19, Mozhaisk 20, Volokolamsk 20
    assert max(dist[h] for h in aim.chosen) <= min(dist[h] for h in FIVE if h not in aim.chosen)
    for h in FIVE:  # the chosen pull as the winning objective, the others less than a main objective
        assert view.aims[h] == (COUNT_TOP * HOLD_WEIGHT if h in aim.chosen else SPARE * HOLD_WEIGHT)
        assert view.targets[h] == (COUNT_PULL * HOLD_WEIGHT if h in aim.chosen else SPARE * HOLD_WEIGHT)
    # the Moscow hexes (18.1.3B) lie beyond two turns' march of every German unit: a small pull
    assert view.horizon is not None and view.horizon % 4 == 0
    pace = view.horizon // 4                                         # Turn 1 of 4
    for h in bot.goals(state).strike["german"]:
        assert min(view.distance(h, o) for o in view.own) > STRIKE_TURNS * pace
        assert view.aims[h] == STRIKE_FAR * HOLD_WEIGHT
    # a panzer division moved next to Kaluga and Maloyaroslavets: the choice follows it
    data = state.data.clone()
    data.move_unit("g-19pz-27", "1132")                              # 3 hexes from Kaluga, 4 from Maloyaroslavets
    moved = blitz.state_from_dict(data.to_dict())
    view = build_view(moved, "german", bot.goals(moved))
    assert {"0833", "1435"} <= set(view.counts[0].chosen)


def test_a_strike_hex_within_two_turns_march_keeps_its_full_weight(blitz):
    state = blitz.new_initial_state(1)
    bot = PlannerBot("german", 1)
    data = state.data.clone()
    data.move_unit("g-19pz-27", "1937")                              # Naro-Fominsk: a few hexes from Moscow
    moved = blitz.state_from_dict(data.to_dict())
    view = build_view(moved, "german", bot.goals(moved))
    pace = (view.horizon or 0) // 4
    near = [h for h in bot.goals(moved).strike["german"] if view.distance(h, "1937") <= STRIKE_TURNS * pace]
    full = bot.goals(moved).targets("german")                        # the hex's weight and 4 x HOLD_WEIGHT
    assert near and all(view.aims[h] == full[h] >= 4 * HOLD_WEIGHT for h in near)


# ------------------------------------------------------------------ a constructed Turn-3 position

FIVE_TOWNS = ("0303", "0507", "0909", "1010", "0111")
COUNT = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
         '[{id: t, kind: control_count, when: end, hexes: ["0303", "0507", "0909", "1010", "0111"], at_least: 3}]}}')
#: the same five hexes, all needed: no choice to make, each weighs HOLD_WEIGHT (the control)
ALL_FIVE = COUNT.replace("at_least: 3", "at_least: 5")


def _state(game, units: str, step: str, scenario: str = COUNT):
    return state(game, units, step, scenario, size=12, towns={h: f"T{h}" for h in FIVE_TOWNS}, control='{"0303": german}')


def _inf(side, uid, hex_, strength, activated=True):
    return inf(side, uid, hex_, strength, activated)


def _units(town_defender: int) -> str:
    # German: g0 holds 0303 (a town of the five), g1 next to the town 0507, g2 next to a Soviet
    # stack on a plain hex (0805); Soviet s3 far off in the corner
    return (_inf("german", "g0", "0303", 4) + _inf("german", "g1", "0506", 6) + _inf("german", "g2", "0705", 6)
            + _inf("soviet", "s1", "0507", town_defender) + _inf("soviet", "s2", "0805", 2)
            + _inf("soviet", "s3", "1111", 3))


def test_the_planner_chooses_the_cheapest_towns_and_attacks_the_one_it_needs(blitz):
    state = _state(blitz, _units(6), "combat")
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    (aim,) = view.counts
    # held first (0303), then 0507 (1 hex off, 6 Soviet strength on it: 1 + 6/5), then 0909
    assert aim.chosen == ("0303", "0507", "0909") and aim.held == 1
    assert cost(view, "0507") == pytest.approx(1 + 6 / 5)
    legal = [str(a) for a in state.legal_actions()]
    assert "german: attack hex=0507 support=0 with=g1" in legal      # 6 against 6
    assert "german: attack hex=0805 support=0 with=g2" in legal      # 6 against 2
    assert str(PlannerBot("german", 1).choose(state)) == "german: attack hex=0507 support=0 with=g1"
    # the control: every town needed alike (no set to complete), the better odds elsewhere win
    control = _state(blitz, _units(6), "combat", ALL_FIVE)
    assert build_view(control, "german", PlannerBot("german", 1).goals(control)).counts == []
    assert str(PlannerBot("german", 1).choose(control)) == "german: attack hex=0805 support=0 with=g2"


def test_the_planner_advances_into_the_town_it_needs_and_stays_there(blitz):
    state = _state(blitz, _units(2), "combat")
    bot = PlannerBot("german", 1)
    attack = bot.choose(state)
    assert str(attack) == "german: attack hex=0507 support=0 with=g1"
    state.apply(attack)
    soviet = PlannerBot("soviet", 1)
    while state.current_player() == "soviet":                        # the defender's retreat (11.2)
        state.apply(soviet.choose(state))
    advances = [a for a in state.legal_actions() if a.kind == "advance" and a.get("path")]
    assert any(list(a.get("path")) == ["0507"] for a in advances)
    assert any(len(a.get("path")) > 1 for a in advances)             # it could go on past the town
    choice = bot.choose(state)
    assert choice.kind == "advance" and list(choice.get("path")) == ["0507"]
