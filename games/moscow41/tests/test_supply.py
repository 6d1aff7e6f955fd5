"""Moscow '41 supply (5.0-5.7): sources, MP/line/HQ paths, enemy units and EZOCs, OOS marking.

Positions are small inline maps (flat-top-even-q, north up: column 01 is the west edge, the last
column the east edge; hexes of one row in consecutive columns are adjacent). ZOCs come from a
small fake ``casebook_zoc`` (every adjacent enemy non-HQ, non-remnant unit) so the paths here
do not depend on the ZOC area's weather readings; MP costs come from the movement plugin or the
TEC (infantry: clear 1, forest 2 — tables/tec.yaml).
"""

from __future__ import annotations

import json

import pytest

from casebook.content.plugins import make_plugin_manager
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import hookimpl
from casebook.games.moscow41.plugins import _area_config, supply
from casebook.script.engine import Engine
from tests.conftest import make_ctx


class FakeZoc:
    """Every enemy unit but HQs and remnants exerts a ZOC into its six neighbours (7.0D, 7.1A)."""

    @hookimpl
    def casebook_zoc(self, ctx, hex, side):
        by = sorted(u["id"] for n in ctx.board.neighbours(parse_hex(hex))
                    for u in ctx.state.units_at(hex_label(n))
                    if u["side"] != side and u["class"] not in ("hq", "remnant"))
        return {"hex": hex, "exerted_by": by, "kind": "locking" if by else "none", "cases": ["7.1A"]}


@pytest.fixture(scope="module")
def eng(m41):
    pm = make_plugin_manager(m41.pack.manifest["plugins"], extra={"fake_zoc": FakeZoc()})
    return Engine(m41.pack, m41.board, m41.rules, pm, m41.sequence)


def G(uid, hex_, cls="infantry", **kw):
    size = None if cls in ("hq", "remnant") else kw.pop("size", "division")
    return {"id": uid, "side": "german", "class": cls, "size": size, "strength": 7, "ma": 4,
            "hex": hex_, **kw}


def S(uid, hex_, cls="infantry", **kw):
    return {**G(uid, hex_, cls, **kw), "side": "soviet"}


def line(kind, *hexes):
    return [{"hexes": [a, b], kind: True} for a, b in zip(hexes, hexes[1:])]


def row(r, a, b):
    return [f"{c:02d}{r:02d}" for c in range(a, b + 1)]


def make(eng, units, cols=20, rows=1, terrain=None, hexsides=(), towns=None, control=None,
         entry=None, weather=("warm", "dry"), phasing="german", plugin_state=None):
    doc = {"kind": "position", "format": 1, "game": "moscow41",
           "map": {"layout": "flat-top-even-q", "size": {"columns": cols, "rows": rows},
                   "terrain": {"default": "clear", **(terrain or {})}, "hexsides": list(hexsides),
                   "towns": towns or {}, "entry_areas": entry or {}},
           "weather": {"temperature": weather[0], "ground": weather[1]},
           "phase": "first_player", "step": "movement", "phasing": phasing, "first_player": phasing,
           "ip": {"german": 10, "soviet": 10},
           "units": [{k: v for k, v in u.items() if v is not None} for u in units],
           "control": control or {}, "plugin_state": plugin_state or {}}
    return make_ctx(eng, json.dumps(doc, indent=1))


def ask(ctx, uid):
    return ctx.hook.casebook_supply(ctx=ctx, unit=uid)


# -- 5.0 / 5.1 sources -----------------------------------------------------------------------------
@pytest.mark.case("5.0A", "5.0B", "5.0C")
def test_5_0_supply_is_a_traced_path(eng):
    ctx = make(eng, [G("near", "0501"), G("far", "1501")])
    near, far = ask(ctx, "near"), ask(ctx, "far")
    assert near["in_supply"] and near["route"] == "mp" and near["path"][-1] == "0101"
    assert "5.0C" in near["cases"]
    assert not far["in_supply"] and far["route"] is None and far["path"] == []


@pytest.mark.case("5.1A")
def test_5_1A_germans_trace_to_the_west_edge(eng):
    ctx = make(eng, [G("g", "0601")])
    a = ask(ctx, "g")
    assert a["path"] == ["0601", "0501", "0401", "0301", "0201", "0101"] and a["mp"] == 5
    assert "5.1A" in a["cases"]


@pytest.mark.case("5.1B")
def test_5_1B_entry_area_is_a_source_only_after_german_units_entered(eng):
    ctx = make(eng, [G("g", "1701")], entry={"A": ["2001"]})
    assert not ask(ctx, "g")["in_supply"]
    with ctx.state.transaction():
        assert supply.record_entry(ctx, Action.make("place-reinforcement", "german",
                                                    unit="g-5id", hex="2001")) == "A"
    assert ctx.state.plugin_data("supply") == {"entered": ["A"]}
    a = ask(ctx, "g")
    assert a["in_supply"] and a["path"][-1] == "2001" and "5.1B" in a["cases"]
    # a Soviet entry does not open it
    ctx2 = make(eng, [G("g", "1701")], entry={"A": ["2001"]})
    assert supply.record_entry(ctx2, Action.make("place-reinforcement", "soviet", area="A")) is None


@pytest.mark.case("5.1C")
def test_5_1C_soviet_east_edge_and_friendly_cities(eng):
    town = {"0301": {"name": "Testgrad", "kind": "city", "ip": 2}}
    ctx = make(eng, [S("east", "1601"), S("city", "0601")], towns=town, control={"0301": "soviet"})
    assert ask(ctx, "east")["path"][-1] == "2001"
    assert ask(ctx, "city")["path"][-1] == "0301" and ask(ctx, "city")["mp"] == 3
    ctx = make(eng, [S("city", "0601")], towns=town, control={"0301": "german"})
    assert not ask(ctx, "city")["in_supply"]


@pytest.mark.case("5.1C")
def test_5_1C_enemy_occupied_or_empty_ezoc_source_unusable_unless_friendly_unit(eng):
    # East edge 2001/2002; a German unit in 2002 occupies one source and its ZOC covers 2001.
    ctx = make(eng, [S("s", "1801"), G("g", "2002")], rows=2)
    a = ask(ctx, "s")
    assert not a["in_supply"]
    reasons = {b["hex"]: b["reason"] for b in a["blocked"]}
    assert "unoccupied and in an enemy ZOC" in reasons["2001"]
    # a friendly unit (here an HQ, not a combat unit) cancels the EZOC for the source itself
    ctx = make(eng, [S("s", "1801"), G("g", "2002"), S("hq", "2001", "hq", radius=3)], rows=2)
    a = ask(ctx, "s")
    assert a["in_supply"] and a["path"] == ["1801", "1901", "2001"]


# -- 5.2 paths -------------------------------------------------------------------------------------
@pytest.mark.case("5.2A")
def test_5_2A_path_unbroken_by_enemy_units(eng):
    ctx = make(eng, [G("g", "0501"), S("s", "0301", "hq", radius=3)])
    a = ask(ctx, "g")
    assert not a["in_supply"]
    assert {"hex": "0301", "reason": "enemy unit", "cases": ["5.4A", "5.2A"]} in a["blocked"]


@pytest.mark.case("5.2B")
def test_5_2B_german_eight_mp_or_a_road_to_the_source(eng):
    ctx = make(eng, [G("at8", "0901"), G("at9", "1001")])
    assert ask(ctx, "at8")["in_supply"] and ask(ctx, "at8")["mp"] == 8
    assert not ask(ctx, "at9")["in_supply"]
    road = line("road", *row(1, 1, 12))
    ctx = make(eng, [G("g", "1401")], hexsides=road)
    a = ask(ctx, "g")
    assert a["route"] == "road" and a["mp"] == 2 and a["path"][0] == "1401" and a["path"][-1] == "0101"
    assert "5.2D" in a["cases"]
    trail = line("trail", *row(1, 1, 12))
    assert ask(make(eng, [G("g", "1401")], hexsides=trail), "g")["route"] == "road"


@pytest.mark.case("5.2B")
def test_5_2B_supply_is_measured_in_mp_not_hexes(eng):
    clear = make(eng, [G("g", "0801")])
    assert ask(clear, "g")["mp"] == 7
    forests = make(eng, [G("g", "0801")], terrain={"0301": "forest", "0401": "forest"})
    a = ask(forests, "g")  # 7 hexes, but two forests at 2 MP each: 9 MP > 8
    assert not a["in_supply"] and a["mp"] is None


@pytest.mark.case("5.2C")
def test_5_2C_soviets_may_use_rail_germans_may_not(eng):
    rail = line("rail", *row(1, 1, 20))
    sov = make(eng, [S("s", "0101")], hexsides=rail)
    a = ask(sov, "s")
    assert a["in_supply"] and a["route"] == "rail" and a["path"][-1] == "2001" and a["mp"] == 0
    ger = make(eng, [G("g", "2001")], hexsides=rail)
    assert not ask(ger, "g")["in_supply"]
    road = line("road", *row(1, 1, 20))
    assert ask(make(eng, [S("s", "0101")], hexsides=road), "s")["route"] == "road"


@pytest.mark.case("5.2D")
def test_5_2D_road_path_must_pass_through_road_hexsides(eng):
    # Road A runs 0101-0501 in row 1, road B 0502-2002 in row 2; 0501 and 0502 are adjacent, but
    # no road crosses their hexside, so B does not lead to the west edge.
    hexsides = line("road", *row(1, 1, 5)) + line("road", *row(2, 5, 20))
    ctx = make(eng, [G("g", "2002")], rows=2, hexsides=hexsides)
    assert not ask(ctx, "g")["in_supply"]
    ctx = make(eng, [G("g", "2002")], rows=2, hexsides=hexsides + line("road", "0501", "0502"))
    a = ask(ctx, "g")
    assert a["in_supply"] and a["route"] == "road" and a["mp"] == 0
    assert a["path"][a["path"].index("0502") + 1] == "0501"


# -- 5.3 HQs -----------------------------------------------------------------------------------------
@pytest.mark.case("5.3")
def test_5_3_hq_radius_extends_supply_but_never_chains(eng):
    units = [G("hq1", "0901", "hq", radius=3, limit=3), G("in3", "1201"), G("in4", "1301"),
             G("hq2", "1201", "hq", radius=3, limit=3), G("chain", "1401")]
    ctx = make(eng, units)
    assert ask(ctx, "hq1")["mp"] == 8
    a = ask(ctx, "in3")
    assert a["route"] == "hq" and a["hq"] == "hq1" and a["path"][:4] == ["1201", "1101", "1001", "0901"]
    assert "5.3" in a["cases"] and a["path"][-1] == "0101"
    assert not ask(ctx, "in4")["in_supply"]      # 4 hexes from hq1 (0.2.4.8)
    assert not ask(ctx, "hq2")["in_supply"]      # an HQ does not trace through another HQ
    assert not ask(ctx, "chain")["in_supply"]    # so hq2 supplies nobody


# -- 5.4 / 7.4 enemy units and EZOCs -------------------------------------------------------------
def _ezoc_case(eng, extra):
    # Soviet unit in 0402: on a 2-row map its ZOC reaches row 1 only in 0401 (column 4 holds only
    # 0401 and 0402), so every path of 0601 to the west edge crosses 0401.
    return make(eng, [G("g", "0601"), S("s", "0402"), *extra], cols=10, rows=2)


@pytest.mark.case("5.4A")
def test_5_4A_no_path_through_an_enemy_occupied_hex(eng):
    ctx = make(eng, [G("g", "0601"), S("s", "0301", "hq", radius=3)], cols=10)
    assert not ask(ctx, "g")["in_supply"]


@pytest.mark.case("5.4B")
def test_5_4B_empty_ezoc_hex_blocks_the_path(eng):
    a = ask(_ezoc_case(eng, []), "g")
    assert not a["in_supply"]
    assert {"hex": "0401", "reason": "enemy ZOC without a friendly non-remnant combat unit",
            "cases": ["5.4B", "7.4"]} in a["blocked"]


@pytest.mark.case("5.4B")
def test_5_4B_friendly_combat_unit_opens_the_ezoc_hex(eng):
    a = ask(_ezoc_case(eng, [G("friend", "0401", size="regiment")]), "g")
    assert a["in_supply"] and "0401" in a["path"]


@pytest.mark.case("5.4B", "7.4")
def test_7_4_a_remnant_does_not_open_the_ezoc_hex(eng):
    assert not ask(_ezoc_case(eng, [G("rem", "0401", "remnant")]), "g")["in_supply"]
    # an HQ there does not open 0401 for the MP path either; it supplies by its radius (5.3)
    assert ask(_ezoc_case(eng, [G("hq", "0401", "hq", radius=3)]), "g")["route"] == "hq"


# -- 5.5 OOS marking -------------------------------------------------------------------------------
@pytest.mark.case("5.5A", "5.5D")
def test_5_5A_mark_oos_then_fatigue_then_loss_and_5_5D_restore(eng):
    units = [G("back", "0201", oos=True), G("new", "1501"), G("oos", "1601", oos=True),
             G("tired", "1701", oos=True, fatigued=True), S("enemy", "2001")]
    ctx = make(eng, units, phasing="german")
    with ctx.state.transaction():
        supply.casebook_step_end(ctx, "first_player", "recovery")
    st = ctx.state
    assert "oos" not in st.unit("back")                                   # 5.5D
    assert st.unit("new")["oos"] is True and "fatigued" not in st.unit("new")
    assert st.unit("oos")["fatigued"] is True                             # already OOS: fatigue
    assert st.unit("tired")["losses"] == 1                                # already fatigued: a loss
    assert "oos" not in st.unit("enemy")                                  # only the phasing side


@pytest.mark.case("5.5B", "5.5C")
def test_5_5B_oos_remnants_eliminated_5_5C_three_make_a_partisan_point(eng):
    units = [S(f"r{i}", f"0{i}01", "remnant") for i in range(1, 5)]
    ctx = make(eng, units, phasing="soviet", cols=20)
    with ctx.state.transaction():
        supply.casebook_step_end(ctx, "first_player", "recovery")
    assert [u["id"] for u in ctx.state.units] == []
    assert ctx.state.plugin_data("supply")["oos_remnants_removed"]["count"] == 4
    # the whole step end: the partisans plugin removes them first and scores 5.5C (4 -> 1 point)
    ctx = make(eng, units, phasing="soviet", cols=20)
    with ctx.state.transaction():
        ctx.hook.casebook_step_end(ctx=ctx, phase="first_player", step="recovery")
    assert [u["id"] for u in ctx.state.units] == [] and ctx.state.track("partisans") == 1


@pytest.mark.case("5.6A")
def test_5_6A_supply_is_judged_at_the_instant(eng):
    ctx = make(eng, [G("g", "0601"), S("s", "0402")], cols=10, rows=2)
    assert not ask(ctx, "g")["in_supply"]
    ctx.state.move_unit("s", "0902")
    ctx.changed()
    assert ask(ctx, "g")["in_supply"]


@pytest.mark.case("5.6B")
def test_5_6B_no_oos_marker_during_the_turn(eng):
    ctx = make(eng, [G("g", "1501")])
    assert not ask(ctx, "g")["in_supply"]
    supply.casebook_step_end(ctx, "first_player", "movement")
    assert "oos" not in ctx.state.unit("g")


# -- 5.7 effects (scripts read the fact `supplied`) ----------------------------------------------
def _supplied(ctx, uid):
    facts = {}
    for part in ctx.hook.casebook_facts(ctx=ctx, subject=uid):
        facts.update(part or {})
    return facts["supplied"]["value"]


@pytest.fixture
def oos_ctx(eng):
    return make(eng, [G("in", "0301"), G("out", "1501"), G("hq", "1601", "hq", radius=3)])


@pytest.mark.case("5.7A")
def test_5_7A_oos_combat_unit_cannot_receive_ips_hq_can(oos_ctx):
    ctx = oos_ctx
    assert not _supplied(ctx, "out") and not _supplied(ctx, "hq")
    rip = lambda uid, cls: ctx.permission("receive_ip", {"supplied": _supplied(ctx, uid), "unit_class": cls}).value
    assert rip("in", "infantry") and not rip("out", "infantry") and rip("hq", "hq")


@pytest.mark.case("5.7B")
def test_5_7B_oos_ma_halved(oos_ctx):
    ma = lambda uid: oos_ctx.value("ma", {"printed_ma": 4, "reaction": False, "ground": "dry",
                                          "supplied": _supplied(oos_ctx, uid)})
    assert (ma("in"), ma("out")) == (4, 2)


@pytest.mark.case("5.7C")
def test_5_7C_oos_force_march_minus_two(oos_ctx):
    drm = lambda uid: oos_ctx.value("force_march_drm", {"ground": "dry", "temperature": "warm",
                                                        "supplied": _supplied(oos_ctx, uid)})
    assert (drm("in"), drm("out")) == (0, -2)


def _attack(ctx, supplied):
    return ctx.value("attack_drm", {
        "ground": "dry", "temperature": "warm", "attacker_side": "german", "defender_side": "soviet",
        "attacker_support_ips": 0, "defender_support_ips": 0, "whole_division": False,
        "attackers": [{"class": "infantry", "fatigued": False, "supplied": supplied,
                       "overstacked": False, "across_river": False, "across_fortification": False}],
        "defenders": [{"class": "infantry", "hedgehog": False}]})


@pytest.mark.case("5.7D")
def test_5_7D_oos_attacker_minus_two(oos_ctx):
    assert _attack(oos_ctx, _supplied(oos_ctx, "in")) == 0
    assert _attack(oos_ctx, _supplied(oos_ctx, "out")) == -2


@pytest.mark.case("5.7E")
def test_5_7E_oos_unit_cannot_receive_rps(oos_ctx):
    rp = lambda uid: oos_ctx.permission("receive_rp", {"supplied": _supplied(oos_ctx, uid), "in_command": True})
    assert rp("in").value and not rp("out").value
    assert "5.7E" in {c for line in rp("out").lines if line.fired for c in line.cases}


@pytest.mark.case("5.7F")
def test_5_7F_no_effect_on_defence(oos_ctx):
    effects = ask(oos_ctx, "out")["effects"]
    assert {"effect": "no effect on defence", "cases": ["5.7F"]} in effects
    strength = oos_ctx.value("combat_strength", {"attacking": False, "fortified": False, "units": [
        {"class": "infantry", "strength": 7, "guards": False, "printed_guards": False, "hedgehog": False}]})
    assert strength == 7
    assert "effects" not in ask(oos_ctx, "in")


# -- helpers and the question ------------------------------------------------------------------
def test_tec_fallback_costs_forest_two_and_road_one(eng):
    ctx = make(eng, [G("g", "0301")], terrain={"0201": "forest"}, hexsides=line("road", "0301", "0401"))
    u = ctx.state.unit("g")
    assert _area_config.tec_cost(ctx, u, parse_hex("0301"), parse_hex("0201")) == 2
    assert _area_config.tec_cost(ctx, u, parse_hex("0301"), parse_hex("0401")) == 1


def test_ask_supply_json(eng, snapshot):
    ctx = _ezoc_case(eng, [])
    answer = ctx.hook.casebook_answer(ctx=ctx, question="supply", args=["g"], options={})
    assert answer["in_supply"] is False
    assert json.loads(json.dumps(answer)) == snapshot
