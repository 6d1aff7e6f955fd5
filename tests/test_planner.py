"""The planning bot (``bot:planner``): goals read from the packs' victory blocks, the plan search's
budget and determinism, and its choices in small inline-map positions (no timing asserts)."""

from __future__ import annotations

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.game import Game
from casebook.core.hexgrid import parse_hex
from casebook.tools.bots import BOT_KINDS, make_bot
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_combat import ATTACKER_STEP, FATIGUE, expected_value, side_value, spare_ips, support_options
from casebook.tools.planner_eval import Mover, build_view, plan_value
from casebook.tools.planner_goals import HOLD_WEIGHT, goals_for
from casebook.tools.planner_search import Budget, search_plan


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


@pytest.fixture(scope="module")
def bfm():
    return Game.load("battle_for_moscow", "campaign")


def _state(game, units: str, step: str, scenario: str = "", size: int = 8, ip: int = 0, phasing: str = "german"):
    text = f"""
kind: position
format: 1
game: moscow41
{scenario}
map:
  layout: flat-top-even-q
  size: {{columns: {size}, rows: {size}}}
  terrain: {{default: clear}}
  towns: {{"0606": {{name: Testgrad, kind: town, ip: 1}}, "0101": {{name: Rearburg, kind: town, ip: 1}}}}
turn: 3
weather: {{temperature: warm, ground: dry}}
phase: {"first_player" if phasing == "german" else "second_player"}
step: {step}
phasing: {phasing}
first_player: german
ip: {{german: {ip}, soviet: 0}}
units:
{units}
"""
    pos = load_position(text, pack=game.engine.pack)
    return game.state_from_dict(position_to_dict(pos))


def _inf(side, uid, hex_, strength, activated=False):
    return (f'  - {{id: {uid}, side: {side}, class: infantry, size: division, strength: {strength}, ma: 4, '
            f'hex: "{hex_}", activated: {str(activated).lower()}}}\n')


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


def test_search_plan_respects_its_node_budget_and_is_seeded(blitz):
    state = blitz.new_initial_state(1)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    movers = [Mover(h, 6.0, False, (h, *view.neighbours(h))) for h in sorted(view.own)[:12]]
    plans = []
    for nodes in (50, 200, 200):
        budget = Budget(nodes, seconds=60.0)
        plan, value = search_plan(view, movers, budget, seed="s")
        assert budget.used <= nodes
        assert value == pytest.approx(plan_value(view, movers, plan))
        plans.append((plan, value))
    assert plans[1] == plans[2]        # same seed, same budget: the same plan


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


# ------------------------------------------------------------------ combat judgement (session 6)

def _hq(side, uid, hex_, activated):
    return (f'  - {{id: {uid}, side: {side}, class: hq, ma: 4, radius: 3, limit: 3, mechanized: false, '
            f'hex: "{hex_}", activated: {str(activated).lower()}}}\n')


@pytest.mark.case("11.0B")
def test_11_0B_crt_codes_read_as_losses_or_hexes_and_fatigue():
    assert side_value("-") == (0.0, 0.0)
    assert side_value("F") == (0.0, 1.0)
    assert side_value("R") == (1.0, 0.0)
    assert side_value("2") == (2.0, 0.0)
    assert side_value("F1") == (1.0, 1.0)
    assert side_value("FR") == (1.0, 1.0)
    assert side_value("F3") == (3.0, 1.0)
    assert side_value("Ex") == (0.0, 0.0)   # a notation it does not know counts as nothing
    # half the rolls -/2, half 1/F: 0.5 * 2 * DEFENDER_STEP + 0.5 * (FATIGUE - ATTACKER_STEP)
    answer = {"outcomes": [{"roll": 7, "probability": "1/2", "result": "-/2"},
                           {"roll": 3, "probability": "1/2", "result": "1/F"}]}
    assert expected_value(answer) == pytest.approx(0.5 * 2 + 0.5 * (FATIGUE - ATTACKER_STEP))
    assert expected_value({"outcomes": []}) is None


@pytest.mark.case("10.4.2A")
def test_10_4_2A_support_is_filled_by_whole_DRMs_and_only_from_spare_IPs(blitz):
    # 6 against 6 (1:1) in the radius of an activated HQ (10.4.2B); the German has 9 IPs and one
    # other HQ not yet activated: 8 IPs to spare
    units = (_inf("german", "g1", "0303", 6, True) + _inf("soviet", "s1", "0304", 6)
             + _hq("german", "g-hq", "0203", True) + _hq("german", "g-hq2", "0808", False))
    state = _state(blitz, units, "combat", ip=9)
    assert spare_ips(state, "german") == 8
    listed = [a for a in state.legal_actions() if a.kind == "attack"]
    bot = PlannerBot("german", 1)
    nets = {}

    def net(a):
        from casebook.tools.planner import _answer
        found = _answer(state, state.ctx(), a, bot._answers)
        nets[int(a.get("support"))] = found[3]
        return found[3]

    offered = sorted(int(a.get("support")) for a in support_options(listed, 8, net))
    # 2 IPs a DRM for the Germans (10.4.2A): 0, 2, 4, 6, 8 until the net DRM cap (10.4.5C) stops it
    assert offered[:2] == [0, 2] and all(k % 2 == 0 for k in offered) and len(offered) >= 3
    assert all(nets[b] == nets[a] + 1 for a, b in zip(offered, offered[1:]))
    choice = bot.choose(state)
    assert choice.kind == "attack" and int(choice.get("support")) % 2 == 0
    assert state.why_not(choice) == ((), "legal")


def test_spare_ips_keep_one_per_hq_still_to_activate(blitz):
    units = (_inf("german", "g1", "0303", 6, True) + _hq("german", "g-a", "0101", False)
             + _hq("german", "g-b", "0102", False) + _hq("german", "g-c", "0103", True))
    state = _state(blitz, units, "combat")
    assert state.data.track("ip", "german") == 0 and spare_ips(state, "german") == 0


def test_view_distance_is_the_grids(blitz, bfm):
    for game in (blitz, bfm):
        state = game.new_initial_state(1)
        board = game.engine.board_for(state.data)
        view = build_view(state, "german", goals_for(state.data.scenario, board, state.data.sides))
        labels = sorted({u["hex"] for u in state.data.units if u.get("hex")})[:40]
        for a in labels:
            for b in labels:
                assert view.distance(a, b) == board.grid.distance(parse_hex(a), parse_hex(b))


def test_classic_crt_codes_are_read_as_battle_for_moscow_prints_them(bfm):
    # BM8.5: the 3:1 column of Battle for Moscow's CRT (DR DR DR EX EX DRL), asked of the rules
    state = bfm.new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in state.data.sides}
    while not any(a.kind == "attack" for a in state.legal_actions()):
        state.apply(bots[state.current_player()].choose(state))
    ctx = state.ctx()
    answers = [ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[a.get("hex")],
                                        options={"with": list(a.get("with")), "support": [0, 0]})
               for a in state.legal_actions() if a.kind == "attack"]
    three = next(a for a in answers if a["column"] == "3:1")
    assert [o["result"] for o in three["outcomes"]] == ["DR", "DR", "DR", "EX", "EX", "DRL"]
    # defender: 3/6 * 1 + 2/6 * 1 + 1/6 * 2 steps or retreats; attacker: 2/6 * 1 step (EX)
    assert expected_value(three) == pytest.approx(7 / 6 - ATTACKER_STEP * 2 / 6)


# ------------------------------------------------------------------ exploitation, gaps, pockets (session 8)

def _armor(side, uid, hex_, strength, ma=8, activated=True):
    return (f'  - {{id: {uid}, side: {side}, class: armor, size: division, strength: {strength}, ma: {ma}, '
            f'hex: "{hex_}", activated: {str(activated).lower()}}}\n')


FAR_TOWN = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
            '[{id: t, kind: control_count, when: end, hexes: ["1606"], at_least: 1}]}}')


@pytest.mark.case("9.6A")
def test_9_6A_a_free_panzer_stack_drives_its_full_MA_then_force_marches_on(blitz):
    # an activated armor division (MA 8) on open dry ground, no enemy within reach, the objective
    # 15 hexes east: it moves its full 8 MPs towards it, declares a force march (9.6A: a second
    # allotment), and goes on at once with the same stack
    units = _armor("german", "g1", "0106", 8) + _inf("soviet", "s1", "1616", 2)
    state = _state(blitz, units, "movement", FAR_TOWN, size=18)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    first = bot.choose(state)
    assert first.kind == "move" and first.get("stack") == "0106"
    end = first.get("path")[-1]
    assert view.distance("0106", end) == 8 and view.distance(end, "1606") == 7
    state.apply(first)
    march = bot.choose(state)
    assert str(march) == f"german: force-march stack={end}"
    state.apply(march)
    again = bot.choose(state)
    assert again.kind == "move" and again.get("stack") == end
    assert view.distance(again.get("path")[-1], "1606") < 7


def test_planner_attacks_the_hex_whose_fall_opens_a_gap(blitz):
    # two Soviet stacks of the same strength, each attackable at the same odds by one German
    # stack: s1 stands in a line (neighbours s0, s2 keep the hexes around it in their zone of
    # control), s3 alone at the line's end: clearing it opens the way
    units = (_inf("german", "g1", "0304", 6, True) + _inf("german", "g2", "0608", 6, True)
             + _inf("soviet", "s0", "0403", 4) + _inf("soviet", "s1", "0404", 2)
             + _inf("soviet", "s2", "0405", 4) + _inf("soviet", "s3", "0708", 2))
    state = _state(blitz, units, "combat", size=10)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert view.breach["0708"] > view.breach["0404"]
    legal = [str(a) for a in state.legal_actions()]
    assert "german: attack hex=0404 support=0 with=g1" in legal
    assert "german: attack hex=0708 support=0 with=g2" in legal
    assert str(PlannerBot("german", 1).choose(state)) == "german: attack hex=0708 support=0 with=g2"


@pytest.mark.case("11.2B")
def test_11_2B_a_defender_with_no_retreat_is_pocketed(blitz):
    # the Soviet stack in 0505: every neighbour held by a German stack or next to one -> no hex to
    # retreat into (11.2B: not into an EZOC unless a friendly unit is there); open one side: not
    from casebook.tools.planner_eval import pocketed
    ring = "".join(_inf("german", f"g{i}", h, 3, True) for i, h in enumerate(("0504", "0606", "0405")))
    state = _state(blitz, ring + _inf("soviet", "s1", "0505", 4), "combat", size=10)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert pocketed(view.own, view.enemy, view.neighbours, "0505")
    state = _state(blitz, ring.replace('"0606"', '"0707"') + _inf("soviet", "s1", "0505", 4), "combat", size=10)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert not pocketed(view.own, view.enemy, view.neighbours, "0505")


def test_an_objective_out_of_reach_in_the_turns_left_pulls_less(blitz):
    # MA 8 on turn 3 of 4: a horizon of 16 hexes; a target 17 hexes away keeps a quarter of its pull
    from casebook.tools.planner_eval import FAR
    units = _armor("german", "g1", "0101", 8) + _inf("soviet", "s1", "0303", 2)
    state = _state(blitz, units, "movement", FAR_TOWN, size=20)
    view = build_view(state, "german", PlannerBot("german", 1).goals(state))
    assert view.horizon == 16
    assert view.within("0101", "0301") == 1.0
    assert view.within("0101", "1801") == FAR


@pytest.mark.case("2.2A")
def test_2_2A_the_spearhead_out_of_its_HQs_radius_is_activated_first(blitz):
    # one IP: the HQ could wake two rear infantry stacks (2.1), or the armor division ahead of
    # them — beyond the HQ's radius — be activated alone (2.2A). The spearhead drives the advance.
    units = (_armor("german", "g1", "0506", 8, activated=False) + _inf("german", "g2", "0102", 6)
             + _inf("german", "g3", "0103", 6) + _hq("german", "g-hq", "0202", False)
             + _inf("soviet", "s1", "1616", 2))
    state = _state(blitz, units, "command", FAR_TOWN, size=18, ip=1)
    legal = [str(a) for a in state.legal_actions()]
    assert "german: activate-hq hq=g-hq stacks=0102,0103" in legal
    assert str(PlannerBot("german", 1).choose(state)) == "german: activate-stack stack=0506"


REAR = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
        '[{id: t, kind: control_count, when: end, hexes: ["1606"], at_least: 1}], soviet: '
        '[{id: r, kind: enter, when: instant, hexes: ["0101"]}]}}')


def test_the_spearhead_waits_while_a_guard_hex_is_open(blitz):
    # as above, but a Soviet stack 3 hexes from an empty hex whose entry wins for the Soviets:
    # the HQ whose stacks stand next to it is activated, not the spearhead
    units = (_armor("german", "g1", "0506", 8, activated=False) + _inf("german", "g2", "0102", 6)
             + _inf("german", "g3", "0103", 6) + _hq("german", "g-hq", "0202", False)
             + _inf("soviet", "s1", "0401", 6))
    from casebook.tools.planner import LEAD, _lead
    state = _state(blitz, units, "command", REAR, size=18, ip=1)
    assert "german: activate-stack stack=0506" in [str(a) for a in state.legal_actions()]
    assert PlannerBot("german", 1).choose(state).kind == "activate-hq"
    bot = PlannerBot("german", 1)
    assert _lead(build_view(state, "german", bot.goals(state)), "0506") == 0.0
    # a garrison in the guard hex as strong as half the enemy near it: the spearhead counts again
    held = _state(blitz, units + _inf("german", "g4", "0101", 6), "command", REAR, size=18, ip=1)
    assert _lead(build_view(held, "german", bot.goals(held)), "0506") == LEAD


def test_grab_wakes_a_stack_near_an_objective_not_held(blitz):
    """Session 9: a panzer stack 3 hexes from an empty Kaluga (18.1.3A) stood two turns unactivated
    while guard calls took every IP. ``grab`` gives such a stack GRAB, tapering to 0 at GRAB_RADIUS."""
    from casebook.tools.planner_eval import GRAB, GRAB_RADIUS, grab, grabbers
    state = blitz.new_initial_state(1)
    bot = PlannerBot("german", 1)
    view = build_view(state, "german", bot.goals(state))
    assert not any(grab(view, h) for h in view.own)     # the front of 2 Oct: 19+ hexes from the five towns
    assert grabbers(state, view) == 0
    data = state.data.clone()
    data.move_unit("g-19pz-27", "1132")                  # 3 hexes from Kaluga (0833), 4 from Maloyaroslavets
    moved = blitz.state_from_dict(data.to_dict())
    view = build_view(moved, "german", bot.goals(moved))
    assert grab(view, "1132") == pytest.approx(GRAB * (1 - (3 - 1) / GRAB_RADIUS))
    assert grabbers(moved, view) == 1
    assert grab(view, "1308") == 0.0                     # Smolensk: German-held, no objective near


# ------------------------------------------------------------------ guards (session 10)

CAPITAL = ("scenario: {id: test, name: Test, first_turn: 1, last_turn: 4, victory: {german: "
           '[{id: m, kind: enter, when: instant, hexes: ["0909"]}, '
           '{id: t, kind: control_count, when: end, hexes: ["0606"], at_least: 1}]}}')


def test_planner_sends_a_unit_into_the_open_capital_when_the_enemy_is_within_reach(blitz):
    """A hex whose entry wins for the enemy (as Moscow, 18.1.3B), empty: a Soviet stack that can
    reach it goes there once an enemy combat unit is within its reach (REACH_TURNS x its MA),
    and not while the enemy is far; the Soviet stack's other pull, the town 0606, is held by neither."""
    from casebook.tools.bots_guard import REACH_MIN, reach
    from casebook.tools.planner_eval import GUARD_FILL
    near = _inf("soviet", "s1", "0907", 6, True) + _armor("german", "g1", "0901", 8)   # 8 hexes off
    state = _state(blitz, near, "movement", CAPITAL, size=18, phasing="soviet")
    bot = PlannerBot("soviet", 1)
    view = build_view(state, "soviet", bot.goals(state))
    assert view.distance("0901", "0909") <= reach({"ma": 8}) and view.open_guard == {"0909": 1.0}
    assert any(a.kind == "move" and a.get("path")[-1] == "0909" for a in state.legal_actions())
    choice = bot.choose(state)
    assert choice.kind == "move" and choice.get("path")[-1] == "0909"
    moved = [Mover("0907", 6.0, False, ("0907", "0909"))]
    assert plan_value(view, moved, ["0909"]) - plan_value(view, moved, ["0907"]) >= GUARD_FILL - 10
    plain = CAPITAL.replace('{id: m, kind: enter, when: instant, hexes: ["0909"]}, ', "")
    control = _state(blitz, near, "movement", plain, size=18, phasing="soviet")
    assert (PlannerBot("soviet", 1).choose(control).get("path") or ("",))[-1] != "0909"
    # the German unit far away (beyond its reach by REACH_MIN hexes and more): no pressure, no call
    far = _inf("soviet", "s1", "0707", 6, True) + _inf("german", "g1", "0932", 6)
    state = _state(blitz, far, "movement", CAPITAL, size=34, phasing="soviet")
    view = build_view(state, "soviet", bot.goals(state))
    assert view.distance("0932", "0909") - REACH_MIN >= REACH_MIN and view.open_guard == {}


def test_planner_keeps_its_last_unit_on_the_capital_under_threat(blitz):
    """The Soviet stack stands on the hex whose entry wins for the enemy, the town 0606 is empty
    and unheld next to it: the planner takes no move of that stack (it never empties the hex); the
    same position without the enter condition sends it to the town."""
    units = _inf("soviet", "s1", "0909", 6, True) + _armor("german", "g1", "0901", 8)
    state = _state(blitz, units, "movement", CAPITAL.replace('0606', '0808'), size=18, phasing="soviet")
    assert any(a.kind == "move" and a.get("stack") == "0909" for a in state.legal_actions())
    assert PlannerBot("soviet", 1).choose(state).get("stack") != "0909"
    plain = CAPITAL.replace('0606', '0808').replace('{id: m, kind: enter, when: instant, hexes: ["0909"]}, ', "")
    control = _state(blitz, units, "movement", plain, size=18, phasing="soviet")
    assert PlannerBot("soviet", 1).choose(control).get("stack") == "0909"


def test_planner_brings_a_garrison_nearer_to_an_open_capital_it_cannot_reach_this_step(blitz):
    """The Soviet stack 6 hexes from the open capital hex, two hexes of move: it closes in (by
    GUARD_APPROACH a hex) where, without the enter condition, it goes for the town 0606."""
    from casebook.tools.planner_eval import GUARD_APPROACH
    units = _inf("soviet", "s1", "0903", 6, True) + _armor("german", "g1", "0917", 8)
    state = _state(blitz, units, "movement", CAPITAL, size=18, phasing="soviet")
    bot = PlannerBot("soviet", 1)
    view = build_view(state, "soviet", bot.goals(state))
    assert view.open_guard == {"0909": 1.0} and view.guard_near == {"0909": view.distance("0903", "0909")}
    assert not any(a.kind == "move" and a.get("path")[-1] == "0909" for a in state.legal_actions())
    choice = bot.choose(state)
    assert view.distance(choice.get("path")[-1], "0909") < view.distance("0903", "0909")
    mover = [Mover("0903", 6.0, False, ("0903", choice.get("path")[-1]))]
    assert plan_value(view, mover, [choice.get("path")[-1]]) - plan_value(view, mover, ["0903"]) >= GUARD_APPROACH
    plain = CAPITAL.replace('{id: m, kind: enter, when: instant, hexes: ["0909"]}, ', "")
    control = _state(blitz, units, "movement", plain, size=18, phasing="soviet")
    away = PlannerBot("soviet", 1).choose(control).get("path")[-1]
    assert view.distance(away, "0909") >= view.distance("0903", "0909")


def test_planner_sends_a_second_stack_next_to_a_guard_hex_short_of_the_threat(blitz):
    """Session 11: one unit is not a garrison against an army. The capital hex holds 6; German
    stacks of 60 stand within their reach of it: it needs GUARD_SHARE of 60 in it and next to it,
    so the second Soviet stack goes next to it (GUARD_HOLD a point up to the need) rather than to the
    town 0606; with the Germans beyond reach it takes the town."""
    from casebook.tools.bots_guard import GUARD_SHARE, held, need
    from casebook.tools.planner_eval import GUARD_HOLD
    army = _armor("german", "g1", "0915", 20) + _armor("german", "g2", "0916", 20) + _armor("german", "g3", "0917", 20)
    mine = _inf("soviet", "s1", "0909", 6) + _inf("soviet", "s2", "0707", 6, True)
    state = _state(blitz, mine + army, "movement", CAPITAL, size=18, phasing="soviet")
    assert need(state, "soviet", "0909") == pytest.approx(GUARD_SHARE * 60) and held(state, "soviet", "0909") == 6
    bot = PlannerBot("soviet", 1)
    choice = bot.choose(state)
    ring = set(state.game.engine.board_for(state.data).label_neighbours("0909"))
    view = build_view(state, "soviet", bot.goals(state))
    assert view.guard_need == {"0909": pytest.approx(GUARD_SHARE * 60)}
    end = choice.get("path")[-1]
    assert choice.get("stack") == "0707" and end in ring
    mover = [Mover("0707", 6.0, False, ("0707", end, "0606"))]
    assert plan_value(view, mover, [end]) - plan_value(view, mover, ["0707"]) >= GUARD_HOLD * 6
    state.apply(choice)
    assert held(state, "soviet", "0909") >= GUARD_SHARE * 60      # the need met: 12 against 60
    far = army.replace('"0915"', '"0932"').replace('"0916"', '"0933"').replace('"0917"', '"0934"')
    control = _state(blitz, mine + far, "movement", CAPITAL, size=34, phasing="soviet")
    assert need(control, "soviet", "0909") == 0.0
    assert PlannerBot("soviet", 1).choose(control).get("path")[-1] == "0606"
