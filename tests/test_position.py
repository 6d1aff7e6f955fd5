"""kernel.position: load, validate (refused whole), exact round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.content.loader import load_pack
from casebook.content.position import dump_position, effective_map, load_position, position_to_dict
from casebook.core.errors import PositionError

INLINE = """\
kind: position
format: 1
game: mini
map:
  layout: flat-top-even-q
  size: {columns: 6, rows: 6}
  terrain: {default: clear, "0303": forest}
  hexsides: [{hexes: ["0303", "0304"], river: true}, {hexes: ["0202", "0203"], road: true}]
  towns: {"0505": {name: Testgrad, kind: city, ip: 2}}
turn: 3
weather: {temperature: warm, ground: dry}
phase: first_player
step: movement
phasing: german
first_player: german
ip: {german: 20, soviet: 15}
units:
  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0303"}
  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0305", fatigued: true, losses: 1}
  - {id: h1, side: german, class: hq, mechanized: true, radius: 4, limit: 3, ma: 6, hex: "0202"}
  - {counter: s-252rd, hex: "0505", guards: true}
markers:
  - {kind: fortification, hex: "0404"}
control: {"0505": soviet}
rng: {seed: 1, state: null}
"""


@pytest.fixture(scope="module")
def pack():
    from pathlib import Path

    return load_pack(Path(__file__).parent / "packs" / "mini")


def test_inline_map_position_loads(pack):
    pos = load_position(INLINE, pack=pack)
    assert pos.turn == 3 and pos.weather.ground == "dry" and pos.ip == {"german": 20, "soviet": 15}
    assert pos.map.terrain["0303"] == "forest" and pos.map.hexsides[0].river
    assert [u.id for u in pos.units] == ["g1", "s1", "h1", "s-252rd"]
    assert pos.units[1].fatigued and pos.units[1].losses == 1
    # counter fields from the mix (errata applied: strength 5, 0.2.4.9A), overrides from the position
    s252 = pos.units[3]
    assert (s252.name, s252.strength, s252.ma, s252.guards, s252.hex) == ("252 RD", 5, 4, True, "0505")
    assert effective_map(pos)["size"] == {"columns": 6, "rows": 6}


def test_scenario_uses_pack_map_and_is_found_by_game(mini_pack):
    pos = load_position(mini_pack / "scenarios" / "skirmish.yaml")  # pack found from game: mini
    assert pos.map is None and pos.scenario.last_turn == 3
    assert pos.units[0].id == "g-1id" and pos.units[0].strength == 7


def test_bad_position_refused_whole_with_every_problem(pack):
    text = (INLINE.replace("class: infantry, size: division, strength: 7", "class: tank, size: division, strength: 7")
            .replace('hex: "0305"', 'hex: "0909"')
            .replace("id: h1", "id: g1")
            .replace("counter: s-252rd", "counter: s-252rx")
            .replace("temperature: warm", "temperature: hot"))
    with pytest.raises(PositionError) as exc:
        load_position(text, pack=pack)
    got = {(p.line, p.key): p.message for p in exc.value.problems}
    assert got[(18, "units.0.class")].startswith("expected 'infantry', 'cavalry'") and "got 'tank'" in got[(18, "units.0.class")]
    assert got[(11, "weather.temperature")] == "expected 'warm', 'cold' or 'arctic', got 'hot'"
    assert got[(21, "units.3.counter")] == "unknown counter 's-252rx' (did you mean 's-252rd'?)"
    # a schema error does not hide what the raw data shows (issue #19): the hex off the map too
    assert got[(19, "units.1.hex")] == "hex 0909 is off the map (hexes 0101..0606)"
    assert len(got) == 4  # the other semantic checks run once the shape is right:
    text = INLINE.replace('hex: "0305"', 'hex: "0909"').replace("id: h1", "id: g1").replace("step: movement", "step: supply")
    with pytest.raises(PositionError) as exc:
        load_position(text, pack=pack)
    got = {(p.line, p.key): p.message for p in exc.value.problems}
    assert got == {
        (19, "units.1.hex"): "hex 0909 is off the map (hexes 0101..0606)",
        (20, "units.2.id"): "duplicate unit id 'g1' (also units.0)",
        (13, "step"): "'supply' is not a step of phase 'first_player'",
    }


def test_unknown_game_is_refused():
    with pytest.raises(PositionError, match="unknown game 'nosuch'"):
        load_position("kind: position\nformat: 1\ngame: nosuch\n")


def test_dump_is_exact_and_readable(pack):
    pos = load_position(INLINE, pack=pack)
    text = dump_position(pos)
    assert text.startswith("kind: position\nformat: 1\ngame: mini\n")
    assert "- {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: '0305', losses: 1, fatigued: true}" in text
    assert load_position(text, pack=pack) == pos
    assert position_to_dict(load_position(text, pack=pack)) == position_to_dict(pos)


_labels = st.builds(lambda c, r: f"{c:02d}{r:02d}", st.integers(1, 6), st.integers(1, 6))
_unit = st.fixed_dictionaries(
    {"side": st.sampled_from(["german", "soviet"]),
     "class": st.sampled_from(["infantry", "cavalry", "armor", "mechanized", "hq", "remnant", "ski", "paratroop"]),
     "hex": _labels},
    optional={"size": st.sampled_from(["division", "brigade", "regiment", "battalion"]),
              "strength": st.integers(0, 20), "ma": st.integers(0, 12), "losses": st.integers(0, 3),
              "fatigued": st.booleans(), "oos": st.booleans(), "reserve": st.booleans(), "guards": st.booleans(),
              "name": st.text(st.characters(categories=["L", "N", "Zs", "Pd"]), max_size=12)},
)


@settings(max_examples=60, deadline=None)
@given(units=st.lists(_unit, max_size=6), counters=st.lists(st.sampled_from(["g-1id", "s-252rd", "g-lvi-pz"]), unique=True))
def test_round_trip_over_generated_units(pack, units, counters):
    data = {"kind": "position", "format": 1, "game": "mini", "turn": 2,
            "units": [{"id": f"u{i}", **u} for i, u in enumerate(units)]
            + [{"counter": c, "hex": "0101", "fatigued": True} for c in counters]}
    from casebook.content.yamlio import dump_yaml

    pos = load_position(dump_yaml(data), pack=pack)
    assert load_position(dump_position(pos), pack=pack) == pos
