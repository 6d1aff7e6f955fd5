"""casebook render: deterministic SVG of the map and of a position's units."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.yamlio import load_yaml
from casebook.tools.cmd_render import render
from casebook.tools.render import render_svg

PACK = Path(__file__).resolve().parent.parent / "games" / "moscow41"

MINI = {
    "layout": "flat-top-even-q", "north": "up", "size": {"columns": 4, "rows": 4},
    "terrain": {"default": "clear", "0202": "forest", "0303": "swamp"},
    "hexsides": [{"hexes": ["0101", "0102"], "river": True},
                 {"hexes": ["0202", "0203"], "major_river": True, "road": True, "rail": True},
                 {"hexes": ["0302", "0303"], "fortification": {"protects": "0303"}}],
    "towns": {"0202": {"name": "Testgrad", "kind": "city", "ip": 2},
              "0404": {"name": "Moscow", "kind": "city", "ip": 3}},
    "moscow": ["0404"],
    "entry_areas": {"A": ["0101"]},
}
UNITS = [
    {"id": "g1", "name": "7 Pz", "hex": "0203", "side": "german", "class": "armor", "strength": 4, "ma": 8},
    {"id": "g2", "name": "25/7", "hex": "0203", "side": "german", "class": "armor", "strength": 3, "ma": 8},
    {"id": "s1", "name": "252 RD", "hex": "0303", "side": "soviet", "class": "infantry", "strength": 6, "ma": 4},
    {"id": "s2", "name": "off map", "side": "soviet", "class": "infantry", "strength": 1, "ma": 4},
]


def test_render_is_deterministic_and_draws_towns_and_units():
    a = render_svg(MINI, UNITS, title="Mini")
    assert a == render_svg(MINI, UNITS, title="Mini")
    assert a.startswith("<?xml") and "<svg" in a
    for text in ("Testgrad", "MOSCOW", "Entry A", "7 Pz", "4-8", "3-8", "252 RD", "6-4", "Mini"):
        assert f">{text}<" in a, text
    assert "off map" not in a  # a unit with no hex is not drawn
    assert "random" not in a and "date" not in a.lower()


def test_stacked_units_are_offset():
    one = render_svg(MINI, UNITS[:1])
    two = render_svg(MINI, UNITS[:2])
    assert two.count(">X<") == one.count(">X<") == 0
    assert two.count('rx="1.2"') == one.count('rx="1.2"') + 1


def test_render_command_writes_the_moscow41_map(tmp_path):
    out = tmp_path / "map.svg"
    result = CliRunner().invoke(render, ["moscow41", "-o", str(out)], standalone_mode=False)
    assert result.exception is None, result.output
    svg = out.read_text(encoding="utf-8")
    for name in ("Kalinin", "Volokolamsk", "Mozhaisk", "Maloyaroslavets", "Kaluga", "Smolensk", "MOSCOW"):
        assert f">{name}<" in svg, name
    again = tmp_path / "again.svg"
    CliRunner().invoke(render, ["moscow41", "-o", str(again)], standalone_mode=False)
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.skipif(not (PACK / "scenarios" / "october-blitz.yaml").is_file(), reason="no scenario yet")
def test_render_scenario_draws_its_units(tmp_path):
    out = tmp_path / "ob.svg"
    result = CliRunner().invoke(render, ["moscow41", "--scenario", "october-blitz", "-o", str(out)],
                                standalone_mode=False)
    assert result.exception is None, result.output
    svg = out.read_text(encoding="utf-8")
    units = load_yaml(PACK / "scenarios" / "october-blitz.yaml").data["units"]
    placed = [u for u in units if u.get("hex")]
    assert svg.count('rx="1.2"') >= len(placed)  # one counter per placed unit (+ legend swatches)
    assert "The October Blitz" in svg


def test_scenario_and_position_are_exclusive(tmp_path):
    pos = tmp_path / "p.yaml"
    pos.write_text("kind: position\n", encoding="utf-8")
    result = CliRunner().invoke(render, ["moscow41", "--scenario", "x", "--position", str(pos), "-o",
                                         str(tmp_path / "o.svg")], standalone_mode=False)
    assert result.exception is not None and "not both" in str(result.exception)
