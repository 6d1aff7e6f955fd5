"""Battle for Moscow combat (8.1-8.8) through the shared `combat` plugin and `bfm_results`:
the CRT as data, odds, column shifts, mud, results. Positions on the pack's map; strengths from
counters.yaml (e.g. g-vii 7, g-xxiv-pz 12, a Soviet army 8, or 4 at half strength)."""

from __future__ import annotations

import pytest

from casebook.kernel.hexgrid import parse_hex
from casebook.plugins._combat_odds import crt_result
from casebook.plugins.bfm_results import apply_result, retreat_paths

REFERENCE_CRT = {  # shared/reference/battle-for-moscow.md, rows = die 1..6
    "1:1": ["DR", "EX", "EX", "NE", "NE", "AL"],
    "2:1": ["DR", "DR", "EX", "EX", "NE", "NE"],
    "3:1": ["DR", "DR", "DR", "EX", "EX", "DRL"],
    "4:1": ["DR", "DR", None, "DRL", "DRL", "DE"],   # roll 3: DR or EX, tested below
    "5:1": ["DR", "DRL", "DRL", "DRL", "DE", "DE"],
    "6:1": ["DRL", "DRL", "DE", "DE", "DE", "DE"],
}


def attack(ctx, hex_, *with_):
    return ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[hex_], options={"with": list(with_)})


@pytest.mark.case("8.4", "8.5")
def test_8_4_crt_is_the_one_die_table_of_the_reference(bfm):
    table = bfm.pack.tables["crt"]
    assert list(dict(table.dims)["odds"]) == ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    assert [int(r) for r in dict(table.dims)["roll"]] == [1, 2, 3, 4, 5, 6]
    for odds, column in REFERENCE_CRT.items():
        for roll, expected in enumerate(column, start=1):
            if expected is not None:
                assert table.lookup(odds=odds, roll=roll) == expected, (odds, roll)


@pytest.mark.case("8.4")
def test_8_4_the_uncertain_cell_reads_both_ways(position):
    ctx = position([], settings={"crt_4_1_roll_3": "DR"})
    assert crt_result(ctx, "4:1", 3, 0) == "DR"
    ctx = position([], settings={"crt_4_1_roll_3": "EX"})
    assert crt_result(ctx, "4:1", 3, 0) == "EX"
    assert crt_result(ctx, "4:1", 4, 0) == "DRL"      # other cells are untouched


@pytest.mark.case("5.1B", "5.1C")
def test_5_1_tec_as_data(bfm, position):
    assert bfm.pack.tables["tec"].lookup(terrain="forest") == 2
    assert bfm.pack.tables["tec"].lookup(terrain="clear") == 1
    ctx = position([])
    assert ctx.value("move_cost", {"hex_terrain": "forest"}) == 2
    assert ctx.value("move_cost", {"hex_terrain": "clear"}) == 1


@pytest.mark.case("8.2A")
def test_8_2A_fractions_dropped(position):
    ctx = position([("s-3a", "0606", 4), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)])
    a = attack(ctx, "0606", "g-vii", "g-xxxiv")               # 11 : 4 = 2.75
    assert (a["attack_strength"], a["defense_strength"], a["column"]) == (11, 4, "2:1")
    assert a["legal"] and a["column_shift"] == 0


@pytest.mark.case("8.2B")
def test_8_2B_capped_at_6_to_1(position):
    ctx = position([("s-3a", "0606", 4), ("g-xxiv-pz", "0605", None), ("g-xli-pz", "0706", None),
                    ("g-lvii-pz", "0707", None)])
    a = attack(ctx, "0606", "g-xxiv-pz", "g-xli-pz", "g-lvii-pz")   # 36 : 4 = 9
    assert a["ratio"] == "9" and a["column"] == "6:1"


@pytest.mark.case("8.2C")
def test_8_2C_no_attack_below_1_to_1(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None)])
    a = attack(ctx, "0606", "g-vii")                          # 7 : 8
    assert not a["legal"]
    assert any("8.2C" in r["cases"] for r in a["refusals"])
    offered = ctx.hook.casebook_legal_actions(ctx=ctx, phase="german_turn", step="combat")
    assert not [x for xs in offered for x in xs if x.kind == "attack"]


@pytest.mark.case("8.3A")
def test_8_3A_forest_shifts_one_left(position):
    ctx = position([("s-3a", "0405", 4), ("g-vii", "0305", None), ("g-vi", "0306", None)])
    a = attack(ctx, "0405", "g-vii", "g-vi")                  # 12 : 4 = 3:1, forest
    assert (a["basic_column"], a["column"], a["column_shift"]) == ("3:1", "2:1", -1)
    assert [t["case"] for t in a["shifts"]] == ["8.3A"]


@pytest.mark.case("8.3B")
def test_8_3B_moscow_shifts_one_left(position):
    ctx = position([("s-3a", "1103", 4), ("g-vii", "1102", None), ("g-vi", "1202", None)])
    a = attack(ctx, "1103", "g-vii", "g-vi")
    assert (a["basic_column"], a["column"]) == ("3:1", "2:1")
    assert [t["case"] for t in a["shifts"]] == ["8.3B"]


@pytest.mark.case("8.3C")
def test_8_3C_fortification_for_a_soviet_defender_only(position):
    soviet = position([("s-3a", "0606", 4), ("g-vii", "0605", None), ("g-vi", "0706", None)], markers=["0606"])
    a = attack(soviet, "0606", "g-vii", "g-vi")
    assert (a["column"], [t["case"] for t in a["shifts"]]) == ("2:1", ["8.3C"])
    german = position([("g-xxxiv", "0606", None), ("s-3a", "0605", 8), ("s-13a", "0706", None)],
                      markers=["0606"], phasing="soviet")
    a = attack(german, "0606", "s-3a", "s-13a")               # 16 : 4, German in a fortification
    assert (a["column"], a["shifts"]) == ("4:1", [])


@pytest.mark.case("8.3D")
def test_8_3D_river_only_when_all_attackers_are_across(position):
    across = position([("s-3a", "0805", 4), ("g-xxiv-pz", "0806", None)])
    a = attack(across, "0805", "g-xxiv-pz")                   # 12 : 4 across 0805/0806
    assert (a["column"], [t["case"] for t in a["shifts"]]) == ("2:1", ["8.3D"])
    mixed = position([("s-3a", "0805", 4), ("g-xxiv-pz", "0806", None), ("g-xlii", "0705", None)])
    a = attack(mixed, "0805", "g-xxiv-pz", "g-xlii")          # 16 : 4, one attacker not across
    assert (a["column"], a["shifts"]) == ("4:1", [])


@pytest.mark.case("8.3")
def test_8_3_shifts_are_cumulative(position):
    ctx = position([("s-3a", "0906", 4), ("g-xxiv-pz", "0805", None), ("g-xli-pz", "1005", None)],
                   markers=["0906"])
    a = attack(ctx, "0906", "g-xxiv-pz", "g-xli-pz")          # 24 : 4 = 6:1; forest, fortification
    assert a["basic_column"] == "6:1" and a["column"] == "4:1"
    assert sorted(t["case"] for t in a["shifts"]) == ["8.3A", "8.3C"]


@pytest.mark.case("8.8A")
def test_8_8A_mud_halves_attack_summed_before_dividing(position):
    units = [("s-3a", "0606", 8), ("g-xlvii-pz", "0605", None), ("g-vii", "0706", None)]
    mud = attack(position(units, ground="mud"), "0606", "g-xlvii-pz", "g-vii")
    # 9/2 + 7/2 = 8 against 8 (defence not halved): 1:1; halving each unit rounded down would
    # give 4 + 3 = 7, below 1:1.
    assert (mud["attack_strength"], mud["defense_strength"], mud["column"], mud["legal"]) == (8, 8, "1:1", True)
    dry = attack(position(units), "0606", "g-xlvii-pz", "g-vii")
    assert (dry["attack_strength"], dry["column"]) == (16, "2:1")


def _outcome(ctx, result, hex_, attackers):
    return {"result": result, "hex": hex_, "attackers": attackers, "attacker_side": "german",
            "defender_side": "soviet"}


@pytest.mark.case("8.6B", "8.5B")
def test_8_6B_dr_into_enemy_zoc_eliminates(position):
    ring = [("s-3a", "0606", 4), ("g-vii", "0605", None), ("g-vi", "0707", None), ("g-v", "0507", None),
            ("g-xx", "0804", None)]
    ctx = position(ring, trace=True)
    assert retreat_paths(ctx, "s-3a") == []
    applied = apply_result(ctx, _outcome(ctx, "DR", "0606", ["g-vii"]))
    assert not ctx.state.unit("s-3a").get("hex") and not applied["pending"]
    assert "8.6B" in [e for e in ctx.trace if e.kind == "eliminated"][0].cases
    assert ctx.state.unit("g-vii")["hex"] == "0606"           # 8.7: the advance into the vacated hex


@pytest.mark.case("8.6A")
def test_8_6A_dr_retreats_two_hexes_towards_the_friendly_edge(position):
    ctx = position([("s-3a", "0606", 4), ("g-vii", "0605", None)], trace=True)
    paths = retreat_paths(ctx, "s-3a")
    assert paths and all(len(p) == 2 for p in paths)
    apply_result(ctx, _outcome(ctx, "DR", "0606", ["g-vii"]))
    end = ctx.state.unit("s-3a")["hex"]
    assert end == paths[0][-1]
    assert ctx.board.grid.distance(parse_hex("0606"), parse_hex(end)) == 2
    assert int(end[:2]) >= 6                                  # not back towards the German west edge


@pytest.mark.case("8.5E", "8.8B")
def test_8_5E_exchange_attacker_loses_at_least_as_much(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)], ground="mud")
    applied = apply_result(ctx, _outcome(ctx, "EX", "0606", ["g-vii", "g-xxxiv"]))
    assert ctx.state.unit("s-3a")["strength"] == 4 and applied["lost"] == 4   # 8 -> 4
    lost = (7 + 4) - sum(ctx.state.unit(u)["strength"] for u in ("g-vii", "g-xxxiv"))
    assert lost >= 4                                          # printed strength, even in mud
    assert ctx.state.unit("g-vii")["strength"] == 3           # 7 -> 3 covers it in one step


@pytest.mark.case("8.5A", "3.1B")
def test_8_5A_al_costs_one_attacking_step(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", 2)])
    apply_result(ctx, _outcome(ctx, "AL", "0606", ["g-vii", "g-xxxiv"]))
    assert not ctx.state.unit("g-xxxiv").get("hex")           # the reduced unit is eliminated
    assert ctx.state.unit("g-vii")["strength"] == 7


@pytest.mark.case("8.5E", "8.6A", "8.7")
def test_8_5E_choices_are_the_players_in_the_combat_step(bfm):
    """In play the attacker picks the unit that pays an exchange and who advances, the defender
    the retreat path (decisions of the combat step, refused when not among the choices)."""
    from casebook.kernel.game import Game
    from casebook.plugins.bfm_results import run, start
    from tests.bfm.conftest import bfm_ctx

    ctx = bfm_ctx(bfm, [("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)])
    rec = start({"result": "EX", "hex": "0606", "attackers": ["g-vii", "g-xxxiv"],
                 "attacker_side": "german", "defender_side": "soviet"}, ["s-3a"])
    out = run(ctx, rec, interactive=True)                     # the defender's step is taken at once
    assert out["pending"] and ctx.state.unit("s-3a")["strength"] == 4
    state = Game(bfm, "campaign").state_from_dict(ctx.state.to_dict())   # a save with the choice pending
    assert state.current_player() == "german"
    assert [str(a) for a in state.legal_actions()] == ["german: take-loss unit=g-vii",
                                                       "german: take-loss unit=g-xxxiv"]
    state.apply("german: take-loss unit=g-xxxiv")             # 4 -> 2: 2 of the 4 owed
    assert [a.kind for a in state.legal_actions()] == ["take-loss", "take-loss"]
    state.apply("german: take-loss unit=g-xxxiv")             # 2 -> eliminated: 4 in all
    assert state.current_player() == "soviet" and {a.kind for a in state.legal_actions()} == {"retreat"}
    retreat = state.legal_actions()[-1]
    state.apply(retreat)
    assert state.data.unit("s-3a")["hex"] == list(retreat.get("path"))[-1]
    assert [str(a) for a in state.legal_actions()] == ["german: advance path=0606 with=g-vii",
                                                       "german: advance hold=true"]
    state.apply("german: advance hold=true")
    assert state.data.unit("g-vii")["hex"] == "0605" and not state.data.units_at("0606")
