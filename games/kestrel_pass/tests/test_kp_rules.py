"""Kestrel Pass (the third game, all data) on the shared areas: movement (KP5), ZOC (KP6),
stacking (KP7), combat and results (KP8), control and victory (KP9), each value from the game's
own rules (games/kestrel_pass/cases.yaml, tables/, rules/)."""

from __future__ import annotations

import pytest

from casebook.areas.control import controller
from casebook.areas.movement import overstack_check, reach
from casebook.areas.results import apply_result, retreat_paths
from casebook.areas.victory import automatic_winner, verdict


def attack(ctx, hex_, *with_, roll=None):
    options = {"with": list(with_), **({"roll": roll} if roll else {})}
    return ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[hex_], options=options)


def _outcome(result, hex_, attackers, a_side="blue", d_side="red"):
    return {"result": result, "hex": hex_, "attackers": attackers, "attacker_side": a_side, "defender_side": d_side}


@pytest.mark.case("KP5.1A", "KP5.1B")
def test_KP5_1_forest_costs_two_and_the_ma_limits(position):
    ctx = position([("b-1", "0304", None)], step="movement")
    r = reach(ctx, "b-1")                                     # MA 4 (counters.yaml)
    assert r["0305"] == {"path": ["0305"], "mp": 2}           # forest 0305: 2 MP
    assert r["0404"] == {"path": ["0404"], "mp": 1}           # clear: 1 MP
    assert r["0306"]["mp"] == 3 and max(v["mp"] for v in r.values()) == 4
    assert len(r) == 36


@pytest.mark.case("KP5.2", "KP6.1", "KP6.2")
def test_KP6_2_an_enemy_zoc_stops_and_enemy_hexes_are_closed(position):
    ctx = position([("b-1", "0304", None), ("r-1", "0506", None)], step="movement")
    r = reach(ctx, "b-1")
    assert "0506" not in r                                    # KP5.2: never into an enemy hex
    zoc = {"0505", "0405", "0406"}                            # r-1's ZOC, the six hexes around 0506 (KP6.1)
    assert zoc <= set(r)
    assert not any(h in zoc for v in r.values() for h in v["path"][:-1])   # KP6.2: entering stops
    assert "0507" not in r and "0606" not in r


@pytest.mark.case("KP6.3")
def test_KP6_3_a_unit_leaves_an_enemy_zoc_freely(position):
    ctx = position([("b-1", "0405", None), ("r-1", "0506", None)], step="movement")
    r = reach(ctx, "b-1")                                     # starts in r-1's ZOC (0405 is next to 0506)
    assert r["0403"] == {"path": ["0404", "0403"], "mp": 2}   # leaves it: no cost, no stop


@pytest.mark.case("KP5.2")
def test_KP5_2_each_unit_moves_once_a_phase(kp):
    from casebook.core.game import Game

    state = Game(kp, "meeting").new_initial_state(seed=1)
    state.apply("blue: move stack=0204 path=0304")
    assert not any("stack=0304" in str(a) for a in state.legal_actions())
    cases, why = state.why_not("blue: move stack=0304 path=0404")
    assert cases == ("KP5.2",) and "already moved" in why


@pytest.mark.case("KP7")
def test_KP7_one_unit_per_hex_at_the_end_of_a_phase(position):
    ctx = position([("b-1", "0304", None), ("b-2", "0404", None)], step="movement")
    assert "0404" not in reach(ctx, "b-1")                    # passes through, never ends on a friend
    assert "0405" in reach(ctx, "b-1")
    over = position([("b-1", "0304", None), ("b-3", "0304", None)])
    assert overstack_check(over) == ["b-3"]                   # the weaker (5 to 6) is eliminated
    assert [e.cases for e in over.trace if e.kind == "eliminated"] == [("KP7",)]


@pytest.mark.case("KP8.2A", "KP8.3", "KP8.4")
def test_KP8_2A_odds_and_the_forest_shift(position):
    ctx = position([("b-4", "0404", None), ("b-1", "0306", None), ("r-4", "0405", None)])
    a = attack(ctx, "0405", "b-4", "b-1")                     # 8 + 6 = 14 against 5 in clear: 2:1
    assert (a["attack_strength"], a["defense_strength"], a["column"]) == (14, 5, "2:1")
    assert len(a["outcomes"]) == 6 and "KP8.4" in a["cases"]
    forest = position([("b-4", "0404", None), ("r-4", "0305", None)])
    f = attack(forest, "0305", "b-4")                         # 8 to 5: 1:1, forest one left: 1:2
    assert (f["basic_column"], f["column"]) == ("1:1", "1:2") and "KP8.3" in f["cases"]


@pytest.mark.case("KP8.2B", "KP8.2C")
def test_KP8_2B_capped_at_4_to_1_and_KP8_2C_none_below_1_to_2(position):
    ctx = position([("b-4", "0404", None), ("b-1", "0306", None), ("r-4", "0405", 2)])
    a = attack(ctx, "0405", "b-4", "b-1")                     # 14 to 2: 7:1, resolved at 4:1
    assert a["column"] == "4:1" and "KP8.2B" in a["cases"]
    weak = position([("b-3", "0404", 2), ("r-1", "0405", None)])
    w = attack(weak, "0405", "b-3")                           # 2 to 7: below 1:2
    assert not w["legal"] and "KP8.2C" in w["cases"]


@pytest.mark.case("KP8.1")
def test_KP8_1_only_adjacent_units_attack(position):
    ctx = position([("b-1", "0304", None), ("r-2", "0807", None)])
    a = attack(ctx, "0807", "b-1")
    assert not a["legal"] and "KP8.1" in a["cases"]


@pytest.mark.case("KP8.5A", "KP3.1A", "KP3.1B")
def test_KP8_5A_a1_one_attacking_step(position):
    ctx = position([("b-4", "0404", None), ("b-1", "0306", None), ("r-4", "0405", None)])
    apply_result(ctx, _outcome("A1", "0405", ["b-4", "b-1"]))
    # the cheapest step: b-1 6 -> 3 (3 points) before b-4 8 -> 4 (tables/unit_steps.yaml)
    assert ctx.state.unit("b-1")["strength"] == 3 and ctx.state.unit("b-4")["strength"] == 8
    loss = [e for e in ctx.trace if e.kind == "step-loss"][0]
    assert loss.cases == ("KP3.1A", "KP3.1B", "KP8.5A") and loss.source == "area_results.step_loss"
    assert ctx.state.unit("r-4")["hex"] == "0405"             # no advance after A1


@pytest.mark.case("KP8.5B")
def test_KP8_5B_ne_no_effect(position):
    ctx = position([("b-4", "0404", None), ("r-4", "0405", None)])
    before = ctx.state.to_dict()
    assert apply_result(ctx, _outcome("NE", "0405", ["b-4"]))["stages"] == []
    assert ctx.state.to_dict()["units"] == before["units"]


@pytest.mark.case("KP8.5C", "KP8.6A", "KP8.7")
def test_KP8_5C_dr_retreats_one_hex_towards_reds_edge_and_the_attacker_advances(position):
    ctx = position([("b-4", "0404", None), ("r-4", "0405", None)])
    paths = retreat_paths(ctx, "r-4")
    assert paths[0] == ["0506"] and all(len(p) == 1 for p in paths)   # east first (Red's edge)
    apply_result(ctx, _outcome("DR", "0405", ["b-4"]))
    assert ctx.state.unit("r-4")["hex"] == "0506"
    assert ctx.state.unit("b-4")["hex"] == "0405"             # KP8.7: the strongest advances
    kinds = [(e.kind, e.cases) for e in ctx.trace if e.kind in ("retreat", "advance")]
    assert kinds == [("retreat", ("KP8.6A", "KP8.6B", "KP8.5C")), ("advance", ("KP8.7",))]


@pytest.mark.case("KP8.5D")
def test_KP8_5D_d1_a_step_then_a_retreat(position):
    ctx = position([("b-4", "0404", None), ("r-1", "0405", None)])
    apply_result(ctx, _outcome("D1", "0405", ["b-4"]))
    assert ctx.state.unit("r-1")["strength"] == 3 and ctx.state.unit("r-1")["hex"] == "0506"


@pytest.mark.case("KP8.5E")
def test_KP8_5E_de_eliminates(position):
    ctx = position([("b-4", "0404", None), ("r-1", "0405", None)])
    apply_result(ctx, _outcome("DE", "0405", ["b-4"]))
    assert not ctx.state.unit("r-1").get("hex")
    assert [e.cases for e in ctx.trace if e.kind == "eliminated"] == [("KP8.5E",)]


@pytest.mark.case("KP8.5F")
def test_KP8_5F_exchange_the_attacker_loses_at_least_as_much(position):
    ctx = position([("b-4", "0404", None), ("b-3", "0306", None), ("r-1", "0405", None)])
    apply_result(ctx, _outcome("EX", "0405", ["b-4", "b-3"]))
    assert ctx.state.unit("r-1")["strength"] == 3             # 7 -> 3: 4 printed points lost
    # b-3 loses 3 (5 -> 2), not enough; b-4 loses 4 (8 -> 4) covers: the cheapest that covers
    assert ctx.state.unit("b-4")["strength"] == 4 and ctx.state.unit("b-3")["strength"] == 5
    assert ctx.state.unit("r-1")["hex"] == "0405"             # an exchange has no retreat here


@pytest.mark.case("KP8.6B")
def test_KP8_6B_a_unit_with_no_retreat_is_eliminated(position):
    ring = [("r-4", "0405", None), ("b-1", "0404", None), ("b-2", "0506", None), ("b-3", "0306", None)]
    ctx = position(ring)
    assert retreat_paths(ctx, "r-4") == []
    apply_result(ctx, _outcome("DR", "0405", ["b-1"]))
    gone = [e for e in ctx.trace if e.kind == "eliminated"]
    assert not ctx.state.unit("r-4").get("hex") and gone[0].cases == ("KP8.6B", "KP8.5C")


@pytest.mark.case("KP9.1")
def test_KP9_1_a_town_belongs_to_the_last_side_to_occupy_it(kp):
    from casebook.core.game import Game

    state = Game(kp, "meeting").new_initial_state(seed=1)
    state.apply("blue: move stack=0204 path=0304,0404")
    control = [e for e in state.trace if e.kind == "control"]
    assert control[-1].data == {"hex": "0404", "side": "blue", "city": "Northford"}
    assert control[-1].cases == ("KP9.1",) and control[-1].source == "area_control.update_control"


@pytest.mark.case("KP9.2")
def test_KP9_2_taking_the_enemy_capital_wins_at_once(position):
    ctx = position([("b-4", "1006", None)], control={"1006": "blue", "0106": "blue"})
    assert automatic_winner(ctx) == {"winner": "blue", "hex": "1006", "cases": ["KP9.2"]}
    assert controller(ctx, "1006") == "blue"
    ctx.state.set_control("1006", "red")
    assert automatic_winner(ctx) is None


@pytest.mark.case("KP9.3")
def test_KP9_3_the_side_holding_more_pass_towns_wins_at_the_end(position):
    ctx = position([], control={"0404": "blue", "0506": "red", "0611": "red"})
    v = verdict(ctx)
    assert (v["winner"], v["held"], v["cases"]) == ("red", {"blue": 1, "red": 2}, ["KP9.3"])
    ctx.state.set_control("0611", "blue")
    ctx.state.set_control("0506", "blue")
    assert verdict(ctx)["winner"] == "blue"
    split = position([], control={"0404": "blue", "0506": "red"})
    assert verdict(split)["winner"] is None and verdict(split)["level"] == "draw"
