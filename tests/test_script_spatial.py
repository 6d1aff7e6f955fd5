"""Spatial terms of the rule language (issue #15): units and hexes within N hexes, the distance to
the nearest matching unit or hex, a hex's terrain and town kind, own/enemy — and the two Moscow '41
rules now written with them (16.2 partisan placement, 15.1D paratroop targets)."""

from __future__ import annotations

import pytest

from casebook.core.errors import ScriptSyntaxError
from casebook.script import compile_pack, compile_scripts, find_rule_pack
from tests.conftest import make_ctx

M41 = compile_pack(find_rule_pack("moscow41"))

POSITION = """
kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {columns: 20, rows: 20}
  terrain: {default: clear, "0505": forest}
  towns: {"0808": {name: Testgrad, kind: city, ip: 2}, "0606": {name: Dorf, kind: town, ip: 1}}
turn: 5
weather: {temperature: cold, ground: frozen}
phase: second_initiative
step: replacement_reinforcement
phasing: soviet
first_player: german
rng: {seed: 0, state: null}
units:
  - {id: s1, side: soviet, counter: s-5rd, hex: "0101"}
  - {id: g1, side: german, counter: g-7id, hex: "0505"}
  - {id: g2, side: german, counter: g-183id, hex: "0508"}
"""


def _rules(text: str):
    return compile_scripts([("t.rules", text)], M41.schema)


@pytest.fixture(scope="module")
def ctx(m41):
    return make_ctx(m41, POSITION)


def _value(ctx, rules, name, **facts):
    return rules.value(name, facts, ctx.engine.script_tables, ctx.standard)


def test_distance_to_nearest_enemy_unit_from_a_hex(ctx):
    r = _rules("quantity d = first by 1.1\n  otherwise distance to nearest(map_units having enemy from hex) by 1.1\n")
    assert _value(ctx, r, "d", hex="0505", side="soviet") == 0
    assert _value(ctx, r, "d", hex="0503", side="soviet") == 2
    assert _value(ctx, r, "d", hex="0501", side="german") == 4   # s1 at 0101: four columns away
    none = _rules("quantity d = first by 1.1\n  otherwise distance to nearest(map_units having class is ski) by 1.1\n")
    assert _value(ctx, none, "d", hex="0505") == 999              # nothing matches: FAR


def test_count_and_any_within_n_hexes(ctx):
    r = _rules("quantity n = first by 1.1\n  otherwise count(map_units within 3 of hex having side is german) by 1.1\n"
               "forbid place_partisan by 1.1 when any map_unit within 1 of hex has enemy\n")
    assert _value(ctx, r, "n", hex="0506") == 2
    assert _value(ctx, r, "n", hex="0101") == 0
    assert not r.allowed("place_partisan", {"hex": "0504", "side": "soviet"}, ctx.engine.script_tables, ctx.standard)
    assert r.allowed("place_partisan", {"hex": "0502", "side": "soviet"}, ctx.engine.script_tables, ctx.standard)


def test_terrain_and_town_kind_of_a_hex(ctx):
    r = _rules("quantity t = sum by 1.1\n  1 by 1.1 when terrain(hex) is forest\n  10 by 1.1 when town(hex) is city\n"
               "  100 by 1.1 when town(hex) is town\n"
               "quantity c = first by 1.1\n  otherwise count(map_hexes within 2 of hex having town is city) by 1.1\n")
    assert _value(ctx, r, "t", hex="0505") == 1
    assert _value(ctx, r, "t", hex="0808") == 10
    assert _value(ctx, r, "t", hex="0606") == 100
    assert _value(ctx, r, "c", hex="0707") == 1 and _value(ctx, r, "c", hex="0101") == 0
    d = _rules("quantity d = first by 1.1\n  otherwise distance(hex, \"0808\") by 1.1\n")
    assert _value(ctx, d, "d", hex="0805") == 3


def test_spatial_mistakes_are_located_errors():
    with pytest.raises(ScriptSyntaxError) as exc:
        _rules("quantity d = first by 1.1\n  otherwise distance to nearest(attackers having fatigued) by 1.1\n"
               "forbid place_partisan by 1.1 when town(hex) is capital\n")
    text = str(exc.value)
    assert "t.rules:2:" in text and "`attackers` has no `hex` field" in text
    assert "t.rules:3:" in text and "capital" in text


@pytest.mark.case("16.2")
def test_16_2_the_placement_distance_is_the_script_term(ctx):
    """16.2: "A partisan marker cannot be placed within five hexes of an enemy unit" — the
    distance is the script's `distance to nearest(map_units having enemy from hex)`."""
    e = ctx.quantity("partisan_enemy_distance", {"hex": "0511", "side": "soviet"})
    assert e.value == 3 and e.lines[0].source.endswith("partisans.rules:20")
    assert not ctx.allowed("place_partisan", {"hex": "0511", "side": "soviet", "partisan_points": 1,
                                             "partisan_markers": 0})
    assert ctx.allowed("place_partisan", {"hex": "0515", "side": "soviet", "partisan_points": 1,
                                         "partisan_markers": 0})


@pytest.mark.case("15.1D")
def test_15_1D_no_drop_on_a_city_or_an_enemy_occupied_hex(ctx):
    """15.1D: "The target hex cannot be a city or occupied by an enemy unit. However, it can be
    adjacent to an enemy unit." — read from the map by the paratroop_drop lines."""
    base = {"side": "soviet", "drop_eligible": True, "drops_this_turn": 0, "drop_distance": 3}
    for target, ok in (("0808", False), ("0505", False), ("0504", True), ("0606", True)):
        v = ctx.permission("paratroop_drop", {**base, "target": target})
        assert bool(v.value) is ok, target
        if not ok:
            assert list(v.cases) == ["15.1D"]
