"""Battle for Moscow combat (BM8.1-BM8.8) through the shared `combat` plugin and the shared `area_results`:
the CRT as data, odds, column shifts, mud, results. Positions on the pack's map; strengths from
counters.yaml (e.g. g-vii 7, g-xxiv-pz 12, a Soviet army 8, or 4 at half strength)."""

from __future__ import annotations

import pytest

from casebook.areas._combat_odds import crt_result
from casebook.areas.results import apply_result, retreat_paths
from casebook.core.hexgrid import parse_hex

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


@pytest.mark.case("BM8.4", "BM8.5")
def test_BM8_4_crt_is_the_one_die_table_of_the_reference(bfm):
    table = bfm.pack.tables["crt"]
    assert list(dict(table.dims)["odds"]) == ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    assert [int(r) for r in dict(table.dims)["roll"]] == [1, 2, 3, 4, 5, 6]
    for odds, column in REFERENCE_CRT.items():
        for roll, expected in enumerate(column, start=1):
            if expected is not None:
                assert table.lookup(odds=odds, roll=roll) == expected, (odds, roll)


@pytest.mark.case("BM8.4")
def test_BM8_4_the_uncertain_cell_reads_both_ways(position):
    ctx = position([], settings={"crt_4_1_roll_3": "DR"})
    assert crt_result(ctx, "4:1", 3, 0) == "DR"
    ctx = position([], settings={"crt_4_1_roll_3": "EX"})
    assert crt_result(ctx, "4:1", 3, 0) == "EX"
    assert crt_result(ctx, "4:1", 4, 0) == "DRL"      # other cells are untouched


@pytest.mark.case("BM5.1B", "BM5.1C")
def test_BM5_1_tec_as_data(bfm, position):
    assert bfm.pack.tables["tec"].lookup(terrain="forest") == 2
    assert bfm.pack.tables["tec"].lookup(terrain="clear") == 1
    ctx = position([])
    assert ctx.value("move_cost", {"hex_terrain": "forest"}) == 2
    assert ctx.value("move_cost", {"hex_terrain": "clear"}) == 1


@pytest.mark.case("BM8.2A")
def test_BM8_2A_fractions_dropped(position):
    ctx = position([("s-3a", "0606", 4), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)])
    a = attack(ctx, "0606", "g-vii", "g-xxxiv")               # 11 : 4 = 2.75
    assert (a["attack_strength"], a["defense_strength"], a["column"]) == (11, 4, "2:1")
    assert a["legal"] and a["column_shift"] == 0


@pytest.mark.case("BM8.2B")
def test_BM8_2B_capped_at_6_to_1(position):
    ctx = position([("s-3a", "0606", 4), ("g-xxiv-pz", "0605", None), ("g-xli-pz", "0706", None),
                    ("g-lvii-pz", "0707", None)])
    a = attack(ctx, "0606", "g-xxiv-pz", "g-xli-pz", "g-lvii-pz")   # 36 : 4 = 9
    assert a["ratio"] == "9" and a["column"] == "6:1"


@pytest.mark.case("BM8.2C")
def test_BM8_2C_no_attack_below_1_to_1(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None)])
    a = attack(ctx, "0606", "g-vii")                          # 7 : 8
    assert not a["legal"]
    assert any("BM8.2C" in r["cases"] for r in a["refusals"])
    offered = ctx.hook.casebook_legal_actions(ctx=ctx, phase="german_turn", step="combat")
    assert not [x for xs in offered for x in xs if x.kind == "attack"]


@pytest.mark.case("BM8.2C")
def test_BM8_2C_ask_attack_below_1_to_1_says_not_legal_first_and_shows_no_outcomes(position):
    ctx = position([("s-3a", "0606", 8), ("g-xxxiv", "0605", None)])
    a = attack(ctx, "0606", "g-xxxiv")                        # 4 : 8 = 1/2
    assert list(a)[:2] == ["legal", "refusals"] and a["legal"] is False
    assert a["refusals"] == [{"reason": "the odds 4:8 are below the CRT's first column, 1:1", "cases": ["BM8.2C"]}]
    assert (a["attack_strength"], a["defense_strength"], a["ratio"]) == (4, 8, "1/2")
    assert a["column"] is None and a["basic_column"] is None
    assert "outcomes" not in a and "BM8.2C" in a["cases"]
    rolled = ctx.hook.casebook_answer(ctx=ctx, question="attack", args=["0606"],
                                      options={"with": ["g-xxxiv"], "roll": 1})
    assert "result" not in rolled                             # no CRT cell for an attack not allowed
    legal = attack(position([("s-3a", "0606", 4), ("g-xxxiv", "0605", None)]), "0606", "g-xxxiv")
    assert legal["legal"] and legal["column"] == "1:1" and len(legal["outcomes"]) == 6


@pytest.mark.case("BM8.3A")
def test_BM8_3A_forest_shifts_one_left(position):
    ctx = position([("s-3a", "0405", 4), ("g-vii", "0305", None), ("g-vi", "0306", None)])
    a = attack(ctx, "0405", "g-vii", "g-vi")                  # 12 : 4 = 3:1, forest
    assert (a["basic_column"], a["column"], a["column_shift"]) == ("3:1", "2:1", -1)
    assert [t["case"] for t in a["shifts"]] == ["BM8.3A"]


@pytest.mark.case("BM8.3B")
def test_BM8_3B_moscow_shifts_one_left(position):
    ctx = position([("s-3a", "1103", 4), ("g-vii", "1102", None), ("g-vi", "1202", None)])
    a = attack(ctx, "1103", "g-vii", "g-vi")
    assert (a["basic_column"], a["column"]) == ("3:1", "2:1")
    assert [t["case"] for t in a["shifts"]] == ["BM8.3B"]


@pytest.mark.case("BM8.3C")
def test_BM8_3C_fortification_for_a_soviet_defender_only(position):
    soviet = position([("s-3a", "0606", 4), ("g-vii", "0605", None), ("g-vi", "0706", None)], markers=["0606"])
    a = attack(soviet, "0606", "g-vii", "g-vi")
    assert (a["column"], [t["case"] for t in a["shifts"]]) == ("2:1", ["BM8.3C"])
    german = position([("g-xxxiv", "0606", None), ("s-3a", "0605", 8), ("s-13a", "0706", None)],
                      markers=["0606"], phasing="soviet")
    a = attack(german, "0606", "s-3a", "s-13a")               # 16 : 4, German in a fortification
    assert (a["column"], a["shifts"]) == ("4:1", [])


@pytest.mark.case("BM8.3D")
def test_BM8_3D_river_only_when_all_attackers_are_across(position):
    across = position([("s-3a", "0805", 4), ("g-xxiv-pz", "0806", None)])
    a = attack(across, "0805", "g-xxiv-pz")                   # 12 : 4 across 0805/0806
    assert (a["column"], [t["case"] for t in a["shifts"]]) == ("2:1", ["BM8.3D"])
    mixed = position([("s-3a", "0805", 4), ("g-xxiv-pz", "0806", None), ("g-xlii", "0705", None)])
    a = attack(mixed, "0805", "g-xxiv-pz", "g-xlii")          # 16 : 4, one attacker not across
    assert (a["column"], a["shifts"]) == ("4:1", [])


@pytest.mark.case("BM8.3")
def test_BM8_3_shifts_are_cumulative(position):
    ctx = position([("s-3a", "0906", 4), ("g-xxiv-pz", "0805", None), ("g-xli-pz", "1005", None)],
                   markers=["0906"])
    a = attack(ctx, "0906", "g-xxiv-pz", "g-xli-pz")          # 24 : 4 = 6:1; forest, fortification
    assert a["basic_column"] == "6:1" and a["column"] == "4:1"
    assert sorted(t["case"] for t in a["shifts"]) == ["BM8.3A", "BM8.3C"]


@pytest.mark.case("BM8.8A")
def test_BM8_8A_mud_halves_attack_summed_before_dividing(position):
    units = [("s-3a", "0606", 8), ("g-xlvii-pz", "0605", None), ("g-vii", "0706", None)]
    mud = attack(position(units, ground="mud"), "0606", "g-xlvii-pz", "g-vii")
    # 9/2 + 7/2 = 8 against 8 (defence not halved): 1:1; halving each unit rounded down would
    # give 4 + 3 = 7, below 1:1.
    assert (mud["attack_strength"], mud["defense_strength"], mud["column"], mud["legal"]) == (8, 8, "1:1", True)
    dry = attack(position(units), "0606", "g-xlvii-pz", "g-vii")
    assert (dry["attack_strength"], dry["column"]) == (16, "2:1")


@pytest.mark.case("BM8.8A")
def test_BM8_8A_mud_halving_reads_all_or_panzers_only(position):
    """Interpretation mud-halving-scope: g-ix (infantry 7) and g-xl-pz (panzer 8) attack a Soviet
    army at half strength (4) in mud. All halved (the default, original rules): 7/2 + 8/2 = 15/2,
    15/2 : 4 is 1:1. Panzers only (later editions): 7 + 8/2 = 11, 11 : 4 is 2:1."""
    units = [("s-3a", "0606", 4), ("g-ix", "0605", None), ("g-xl-pz", "0706", None)]
    default = attack(position(units, ground="mud"), "0606", "g-ix", "g-xl-pz")
    every = attack(position(units, ground="mud", settings={"mud_halving": "all"}), "0606", "g-ix", "g-xl-pz")
    panzers = attack(position(units, ground="mud", settings={"mud_halving": "panzers"}), "0606", "g-ix", "g-xl-pz")
    assert str(default["attack_strength"]) == str(every["attack_strength"]) == "15/2"
    assert (default["column"], every["column"]) == ("1:1", "1:1")
    assert (panzers["attack_strength"], panzers["defense_strength"], panzers["column"]) == (11, 4, "2:1")
    infantry = attack(position(units, ground="mud", settings={"mud_halving": "panzers"}), "0606", "g-ix")
    assert (infantry["attack_strength"], infantry["column"]) == (7, "1:1")     # not halved at all
    dry = attack(position(units, settings={"mud_halving": "panzers"}), "0606", "g-ix", "g-xl-pz")
    assert (dry["attack_strength"], dry["column"]) == (15, "3:1")


def _outcome(ctx, result, hex_, attackers):
    return {"result": result, "hex": hex_, "attackers": attackers, "attacker_side": "german",
            "defender_side": "soviet"}


@pytest.mark.case("BM8.6B", "BM8.5B")
def test_BM8_6B_dr_into_enemy_zoc_eliminates(position):
    ring = [("s-3a", "0606", 4), ("g-vii", "0605", None), ("g-vi", "0707", None), ("g-v", "0507", None),
            ("g-xx", "0804", None)]
    ctx = position(ring, trace=True)
    assert retreat_paths(ctx, "s-3a") == []
    applied = apply_result(ctx, _outcome(ctx, "DR", "0606", ["g-vii"]))
    assert not ctx.state.unit("s-3a").get("hex") and not applied["pending"]
    assert "BM8.6B" in [e for e in ctx.trace if e.kind == "eliminated"][0].cases
    assert ctx.state.unit("g-vii")["hex"] == "0606"           # BM8.7: the advance into the vacated hex


@pytest.mark.case("BM8.6A")
def test_BM8_6A_dr_retreats_two_hexes_towards_the_friendly_edge(position):
    ctx = position([("s-3a", "0606", 4), ("g-vii", "0605", None)], trace=True)
    paths = retreat_paths(ctx, "s-3a")
    assert paths and all(len(p) == 2 for p in paths)
    apply_result(ctx, _outcome(ctx, "DR", "0606", ["g-vii"]))
    end = ctx.state.unit("s-3a")["hex"]
    assert end == paths[0][-1]
    assert ctx.board.grid.distance(parse_hex("0606"), parse_hex(end)) == 2
    assert int(end[:2]) >= 6                                  # not back towards the German west edge


@pytest.mark.case("BM8.5E", "BM8.8B")
def test_BM8_5E_exchange_attacker_loses_at_least_as_much(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)], ground="mud")
    applied = apply_result(ctx, _outcome(ctx, "EX", "0606", ["g-vii", "g-xxxiv"]))
    assert ctx.state.unit("s-3a")["strength"] == 4 and applied["lost"] == 4   # 8 -> 4
    lost = (7 + 4) - sum(ctx.state.unit(u)["strength"] for u in ("g-vii", "g-xxxiv"))
    assert lost >= 4                                          # printed strength, even in mud
    assert ctx.state.unit("g-vii")["strength"] == 3           # 7 -> 3 covers it in one step


@pytest.mark.case("BM8.5A", "BM3.1B")
def test_BM8_5A_al_costs_one_attacking_step(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", 2)])
    apply_result(ctx, _outcome(ctx, "AL", "0606", ["g-vii", "g-xxxiv"]))
    assert not ctx.state.unit("g-xxxiv").get("hex")           # the reduced unit is eliminated
    assert ctx.state.unit("g-vii")["strength"] == 7


@pytest.mark.case("BM8.5E", "BM8.6A", "BM8.7")
def test_BM8_5E_choices_are_the_players_in_the_combat_step(bfm):
    """In play the attacker picks the unit that pays an exchange and who advances, the defender
    the retreat path (decisions of the combat step, refused when not among the choices)."""
    from casebook.areas.results import run, start
    from casebook.core.game import Game
    from games.battle_for_moscow.tests.conftest import bfm_ctx

    ctx = bfm_ctx(bfm, [("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)])
    rec = start(ctx, {"result": "EX", "hex": "0606", "attackers": ["g-vii", "g-xxxiv"],
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


@pytest.mark.case("BM8.1")
def test_BM8_1_every_unit_attacks_once_and_every_hex_is_attacked_once(position):
    from casebook.areas._combat_rules import attack_refusals, eligible_attackers
    from casebook.areas.combat import resolve

    ctx = position([("s-3a", "0606", 4), ("s-5a", "0505", 4), ("g-vii", "0605", None),
                    ("g-xxxiv", "0706", None), ("g-xx", "0604", None)])
    # no activation: every German unit may attack in its combat phase
    assert {u["id"] for u in eligible_attackers(ctx, "german", "attack")} == {"g-vii", "g-xxxiv", "g-xx"}
    assert attack_refusals(ctx, "german", "0606", ["g-vii"], "attack") == []
    far = attack_refusals(ctx, "german", "0606", ["g-xx"], "attack")         # 0604 is not adjacent
    assert [(r.reason, r.cases) for r in far] == [("g-xx is not adjacent to 0606", ("BM8.1",))]
    out = resolve(ctx, ["g-vii"], "0606", "attack", None, roll=4)            # 7 : 4 is 1:1, roll 4: NE
    assert (out["odds"], out["result"]) == ("1:1", "NE")
    again = attack_refusals(ctx, "german", "0505", ["g-vii"], "attack")      # g-vii attacked already
    assert [r.reason for r in again] == ["g-vii already attacked in this step"]
    assert again[0].cases == ("BM8.1",)
    twice = attack_refusals(ctx, "german", "0606", ["g-xxxiv"], "attack")    # 0606 was attacked already
    assert [(r.reason, r.cases) for r in twice] == [("the units in 0606 were already attacked in this step",
                                                     ("BM8.1",))]
    assert attack_refusals(ctx, "german", "0505", ["g-xx"], "attack") == []  # another hex, another unit


@pytest.mark.case("BM8.1")
def test_BM8_1_the_attacker_chooses_which_adjacent_units_attack(bfm):
    """Every non-empty group of the eligible adjacent units is offered (largest first, then by
    sorted ids), less those below 1:1 (BM8.2C): against s-3a (8), g-ix 7, g-vi 5 and g-vii 7 may
    attack as three (19) or any two (12, 14, 12), none alone (7 or 5 : 8). A pair is played."""
    from casebook.core.game import Game
    from games.battle_for_moscow.tests.conftest import bfm_ctx

    ctx = bfm_ctx(bfm, [("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-vi", "0706", None),
                        ("g-ix", "0506", None)], turn=1)
    state = Game(bfm, "campaign").state_from_dict(ctx.state.to_dict())
    attacks = [a for a in state.legal_actions() if a.kind == "attack"]
    assert [list(a.get("with")) for a in attacks] == [["g-ix", "g-vi", "g-vii"], ["g-ix", "g-vi"],
                                                     ["g-ix", "g-vii"], ["g-vi", "g-vii"]]
    pair = attacks[2]
    state.apply(pair)
    combat = state.trace.of_kind("combat")[-1]
    assert (combat.data["attackers"], combat.data["attack_strength"], combat.data["odds"]) == (
        ["g-ix", "g-vii"], 14, "1:1")
    rec = state.data.plugin_data("combat")
    assert (rec["attacked_phase"], rec["defended_step"]) == (["g-ix", "g-vii"], ["s-3a"])   # g-vi did not attack

@pytest.mark.case("BM8.5C", "BM3.1B")
def test_BM8_5C_drl_a_step_then_the_retreat(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None)], trace=True)
    apply_result(ctx, _outcome(ctx, "DRL", "0606", ["g-vii"]))
    s3a = ctx.state.unit("s-3a")
    assert s3a["strength"] == 4                                   # 8 -> 4: one step
    assert ctx.board.grid.distance(parse_hex("0606"), parse_hex(s3a["hex"])) == 2
    kinds = [e.kind for e in ctx.trace if "BM8.5C" in e.cases]
    assert kinds[:2] == ["step-loss", "retreat"]                  # the loss first, then the retreat


@pytest.mark.case("BM8.5D")
def test_BM8_5D_de_eliminates_the_defender_whatever_its_strength(position):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None)], trace=True)
    apply_result(ctx, _outcome(ctx, "DE", "0606", ["g-vii"]))
    assert not ctx.state.unit("s-3a").get("hex")                  # a full-strength army goes at once
    assert ctx.state.unit("g-vii")["hex"] == "0606"               # and the hex may be entered (BM8.7)


@pytest.mark.case("BM8.5F")
def test_BM8_5F_ne_changes_nothing(position):
    units = [("s-3a", "0606", 8), ("g-vii", "0605", None)]
    ctx = position(units)
    before = [dict(u) for u in ctx.state.units]
    applied = apply_result(ctx, _outcome(ctx, "NE", "0606", ["g-vii"]))
    assert [dict(u) for u in ctx.state.units] == before and not applied["pending"]
