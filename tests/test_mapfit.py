"""The Moscow '41 map reconstruction: the fit (similarity since #16; affine before) reproduces the printed hexes, the generated
map.yaml is current and loads into a Board, and its features are geometrically sound."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.content.mapdata import board_from_map
from casebook.content.yamlio import load_yaml
from casebook.core.errors import ContentError
from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, parse_hex
from casebook.tools import sheet
from casebook.tools.cmd_mapfit import generate, mapfit, outputs
from casebook.tools.mapfit import fit_affine, hex_at, residuals
from casebook.tools.mapsource import load_sources

PACK = Path(__file__).resolve().parent.parent / "games" / "moscow41"
PRINTED = {"Kalinin": "3733", "Volokolamsk": "2733", "Mozhaisk": "2032",
           "Maloyaroslavets": "1435", "Kaluga": "0833"}


@pytest.fixture(scope="module")
def build():
    return generate(PACK)


@pytest.fixture(scope="module")
def committed_map():
    return load_yaml(PACK / "map.yaml").data


@pytest.mark.case("18.1.3A")
def test_18_1_3A_printed_towns_land_on_their_printed_hexes(build, committed_map):
    placed = {p.name: p.hex for p in build.placements}
    for name, label in PRINTED.items():
        assert placed[name] == parse_hex(label), name
        assert committed_map["towns"][label]["name"] == name
    assert {r.name: r.snapped for r in build.residuals} == PRINTED
    assert all(r.distance < 0.5 for r in build.residuals)  # inside the hex, in hexes


@pytest.mark.case("0.2.3.3A")
def test_0_2_3_3A_hex_3111_is_on_the_map(build):
    assert build.grid.contains(Hex(31, 11))


@pytest.mark.case("18.1.3D")
def test_18_1_3D_smolensk_on_the_west_edge_and_moscow_several_hexes(build, committed_map):
    placed = {p.name: p for p in build.placements}
    assert "west" in build.grid.edges(placed["Smolensk"].hex)
    for name in ("Kalinin", "Zagorsk", "Kolomna", "Tula"):
        assert placed[name].on_map, name
    for name in ("Bryansk", "Orel", "Ryazan"):
        assert not placed[name].on_map, name
    assert len(committed_map["moscow"]) >= 3
    assert placed["Moscow"].hex == parse_hex(committed_map["moscow"][0])


def test_fit_needs_three_points_and_snaps_exactly_on_centres():
    grid = Grid("flat-top-even-q", 10, 10, north="right")
    pts = [(55.0, 36.0, Hex(2, 2)), (56.0, 36.0, Hex(8, 2)), (55.0, 37.0, Hex(2, 8))]
    aff = fit_affine(grid, pts)
    for lat, lon, h in pts:
        assert hex_at(grid, *aff.apply(lat, lon)) == h
    res = residuals(grid, aff, [("a", 55.0, 36.0, Hex(2, 2))])
    assert res[0].exact and res[0].distance < 1e-9
    with pytest.raises(ValueError, match="at least 3"):
        fit_affine(grid, pts[:2])


def test_regeneration_is_byte_identical_and_check_passes(build):
    again = outputs(generate(PACK))
    assert again == outputs(build)
    for rel, text in again.items():
        assert (PACK / rel).read_text(encoding="utf-8") == text, f"{rel} is stale: run casebook mapfit"
    result = CliRunner().invoke(mapfit, ["moscow41", "--check", "-q"], standalone_mode=False)
    assert result.exception is None and result.return_value == 0


def test_check_fails_on_a_stale_file(tmp_path):
    for name in ("gazetteer.yaml", "geography.yaml", "map.yaml"):
        (tmp_path / name).write_text((PACK / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "initiative_chart.yaml").write_text("stale\n", encoding="utf-8")
    result = CliRunner().invoke(mapfit, [str(tmp_path), "--check", "-q"], standalone_mode=False)
    assert result.return_value == 1


def test_a_printed_hex_the_fit_cannot_reproduce_is_an_error(tmp_path):
    text = (PACK / "gazetteer.yaml").read_text(encoding="utf-8").replace('Kaluga: "0833"', 'Kaluga: "0840"')
    (tmp_path / "gazetteer.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "geography.yaml").write_text((PACK / "geography.yaml").read_text(encoding="utf-8"))
    with pytest.raises(ContentError) as exc:
        generate(tmp_path)
    # a wrong anchor drags the whole fit: every printed town that moves is reported at once
    assert "gazetteer.yaml:15:3: printed.Kaluga: the fit puts Kaluga in 0837, not the printed 0840" in str(exc.value)
    assert len(exc.value.problems) == 4


@pytest.mark.case("0.2.2A")
def test_0_2_2A_the_similarity_fit_gives_one_scale_in_every_direction(build, tmp_path):
    assert all(r.exact for r in build.residuals)                 # the five printed hexes (18.1.3A)
    towns = {p.name: p.hex for p in build.placements}
    assert {n: f"{towns[n].col:02d}{towns[n].row:02d}" for n in PRINTED} == PRINTED
    # a column step runs north 1.5 sizes of sqrt(3): sqrt(3)/2 of a hex; a row step one hex east
    ns, ew = build.affine.km_per_hex()
    assert build.affine.origin is not None
    assert ns / (math.sqrt(3) / 2) == pytest.approx(ew, rel=0.01)
    assert 10.0 <= ew <= 10.8                      # the printed 10 km a hex (0.2.2A), as the towns allow
    # the affine fit of the same sources (the shipped map before #16): 8.5 km a hex east-west
    (tmp_path / "gazetteer.yaml").write_text((PACK / "gazetteer.yaml").read_text(encoding="utf-8"))
    text = (PACK / "geography.yaml").read_text(encoding="utf-8").replace("fit: similarity", "fit: affine")
    text = text.replace("row: 8}", "row: 3}").replace("rows: 46}", "rows: 54}")   # its grid: rows 03-56
    (tmp_path / "geography.yaml").write_text(text, encoding="utf-8")
    aff = generate(tmp_path)
    ns0, ew0 = aff.affine.km_per_hex()
    assert ew0 < 8.6 and ns0 / (math.sqrt(3) / 2) > 11.9
    old = {p.name: p.hex for p in aff.placements}
    assert (old["Smolensk"].col, old["Smolensk"].row) == (13, 3)         # the affine 1303; now 1308
    assert (towns["Smolensk"].col, towns["Smolensk"].row) == (13, 8)


def test_an_unknown_fit_is_refused_with_its_position(tmp_path):
    (tmp_path / "gazetteer.yaml").write_text((PACK / "gazetteer.yaml").read_text(encoding="utf-8"))
    text = (PACK / "geography.yaml").read_text(encoding="utf-8").replace("fit: similarity", "fit: conformal")
    (tmp_path / "geography.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as exc:
        load_sources(tmp_path)
    assert "geography.yaml:" in str(exc.value) and "grid.fit: fit must be affine or similarity" in str(exc.value)


def test_bad_sources_report_every_problem_with_positions(tmp_path):
    (tmp_path / "gazetteer.yaml").write_text((PACK / "gazetteer.yaml").read_text(encoding="utf-8"))
    text = (PACK / "geography.yaml").read_text(encoding="utf-8")
    text = text.replace("course: [Moscow, Istra, Volokolamsk]", "course: [Moscow, Atlantis, Volokolamsk]")
    text = text.replace("terrain: swamp, name: Yelnya", "terrain: lava, name: Yelnya")
    (tmp_path / "geography.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as exc:
        load_sources(tmp_path)
    msg = str(exc.value)
    assert "unknown place 'Atlantis'" in msg and "terrain: forest | swamp" in msg
    assert len(exc.value.problems) == 2


def test_map_loads_into_a_board_and_every_hex_has_a_terrain(committed_map):
    board = board_from_map(committed_map)
    assert len(board.hexes()) == 40 * 46
    terrain = committed_map["terrain"]
    assert terrain["default"] == "clear"
    assert set(terrain.values()) <= {"clear", "forest", "swamp"}
    assert {k for k in terrain if k != "default"} <= {f"{h.col:02d}{h.row:02d}" for h in board.hexes()}
    assert "forest" in terrain.values() and "swamp" in terrain.values()


def test_hexsides_are_between_adjacent_on_map_hexes(build, committed_map):
    grid = build.grid
    rivers = 0
    for s in committed_map["hexsides"]:
        a, b = (parse_hex(x) for x in s["hexes"])
        assert grid.contains(a) and grid.contains(b) and grid.distance(a, b) == 1, s
        rivers += bool(s.get("river") or s.get("major_river"))
    assert rivers > 100


@pytest.mark.parametrize("kind", ["road", "rail"])
def test_roads_and_rails_form_connected_hex_paths(build, committed_map, kind):
    import networkx as nx

    g = nx.Graph()
    for s in committed_map["hexsides"]:
        if s.get(kind):
            g.add_edge(*s["hexes"])
    # Moscow's hub joins every radial line: the Kremlin hex reaches Kalinin, Tula, Smolensk, Kaluga
    hub = committed_map["moscow"][0]
    for town in ("3733", "0342", "1308", "0833"):
        assert nx.has_path(g, hub, town), (kind, town)
    for comp in nx.connected_components(g):
        assert len(comp) >= 2


@pytest.mark.case("9.9I")
def test_9_9I_railheads_are_towns_on_a_rail_line(committed_map):
    rail_hexes = {x for s in committed_map["hexsides"] if s.get("rail") for x in s["hexes"]}
    assert set(committed_map["railheads"]) == rail_hexes & set(committed_map["towns"])
    assert {"2032", "1722", "3733"} <= set(committed_map["railheads"])  # Mozhaisk, Vyazma, Kalinin


@pytest.mark.case("14.2A")
def test_14_2A_mozhaisk_line_faces_west(build, committed_map):
    forts = [s for s in committed_map["hexsides"] if s.get("fortification")]
    assert len(forts) > 20
    protected = {s["fortification"]["protects"] for s in forts}
    assert {"2733", "2032", "1435", "0833"} <= protected
    for s in forts:
        line = parse_hex(s["fortification"]["protects"])
        other = next(parse_hex(x) for x in s["hexes"] if x != s["fortification"]["protects"])
        assert sheet.direction(build.grid, line, other) in ("W", "NW", "SW")


@pytest.mark.case("12.1A", "0.2.3.2")
def test_12_1A_entry_areas_on_the_south_edge_A_west_of_B(committed_map, build):
    areas = committed_map["entry_areas"]
    assert set(areas) == {"A", "B"}
    for labels in areas.values():
        assert len(labels) == 3
        assert all("south" in build.grid.edges(parse_hex(x)) for x in labels)
    assert max(parse_hex(x).row for x in areas["A"]) < min(parse_hex(x).row for x in areas["B"])


@pytest.mark.case("1.1A", "1.1C", "0.2.2.10")
def test_1_1C_initiative_chart_lists_each_moscow_hex(committed_map):
    chart = load_yaml(PACK / "tables" / "initiative_chart.yaml").data
    rows = {r["hex"]: r for r in chart["rows"]}
    # 1.1A: only the chart's towns earn IPs; the map's other towns are there at ip 0
    assert set(rows) == {h for h, t in committed_map["towns"].items() if t["ip"] > 0}
    assert len(rows) < len(committed_map["towns"])
    for h in committed_map["moscow"]:
        assert rows[h]["town"] == "Moscow" and rows[h]["ip"] == 1
    assert rows["3733"]["ip"] == 2 and rows["1308"]["ip"] == 3 and "2733" not in rows
    assert all(committed_map["towns"][h]["ip"] == r["ip"] for h, r in rows.items())
