"""Moscow '41 road lengths against the real distances (issue #16, docs/moscow41-pack.md "Road lengths").

A road's length on the map is the fewest hexes a unit passes moving only along road hexsides from
one town to another; times the printed scale (10 km a hex, 0.2.2A) it must come near the real
great-circle distance between the two towns (``gazetteer.yaml``). A road is never straight and a
hex path along a line between two hex axes is up to 2/sqrt(3) = 1.15 times the line, so the road
may be longer than the line, but not by the 20-32% the affine fit of sessions 5-7 gave (its
east-west scale was 8.5 km a hex), and not shorter than the line by more than the fit's rounding.

The shipped map uses ``grid: {fit: similarity}`` since session 8; the affine map of the same sources
is built in a tmp dir to check that the switch shortened every east-west road.
"""

from __future__ import annotations

import math
from collections import deque
from pathlib import Path

import pytest

from casebook.content.yamlio import load_yaml
from casebook.tools.cmd_mapfit import generate

PACK = Path(__file__).resolve().parent.parent / "games" / "moscow41"
KM_PER_HEX = 10.0  # 0.2.2A: "Each hex represents a distance of ten kilometers"

#: (from, to, road): town pairs on the main roads of 1941 (shared/reference/moscow41-geography.md)
ROADS = [
    ("Smolensk", "Vyazma", "Minsk highway"),
    ("Vyazma", "Mozhaisk", "Minsk highway"),
    ("Smolensk", "Moscow", "Minsk highway"),
    ("Roslavl", "Yukhnov", "Warsaw highway"),
    ("Roslavl", "Moscow", "Warsaw highway"),
    ("Kalinin", "Moscow", "Leningrad highway"),
    ("Volokolamsk", "Moscow", "Volokolamsk highway"),
    ("Tula", "Moscow", "Tula highway"),
    ("Maloyaroslavets", "Kaluga", "Kaluga road"),
    ("Smolensk", "Roslavl", "Roslavl road"),
]


@pytest.fixture(scope="module")
def game_map():
    return load_yaml(PACK / "map.yaml").data


#: geography.yaml's grid lines as shipped, and as they were with the affine fit (before #16)
AFFINE_GRID = [("  fit: similarity\n", "  fit: affine\n"), ("row: 8}", "row: 3}"), ("rows: 46}", "rows: 54}")]


@pytest.fixture(scope="module")
def affine_map(tmp_path_factory):
    """The map ``casebook mapfit`` builds from the shipped sources with ``fit: affine`` (before #16)."""
    d = tmp_path_factory.mktemp("affine")
    (d / "gazetteer.yaml").write_text((PACK / "gazetteer.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    geo = (PACK / "geography.yaml").read_text(encoding="utf-8")
    for new, old in AFFINE_GRID:                # its grid: rows 03-56 (Smolensk on the west edge)
        assert new in geo
        geo = geo.replace(new, old, 1)
    (d / "geography.yaml").write_text(geo, encoding="utf-8")
    return generate(d).map_data


@pytest.fixture(scope="module")
def coords():
    return {t["name"]: (t["lat"], t["lon"]) for t in load_yaml(PACK / "gazetteer.yaml").data["towns"]}


def great_circle_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Haversine distance in km between two ``(lat, lon)`` points in degrees (R = 6371 km)."""
    la1, lo1, la2, lo2 = map(math.radians, (*a, *b))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def road_hexes(game_map: dict, start: str, goal: str) -> int | None:
    """Fewest road hexsides from town ``start`` to town ``goal`` (names; any hex of a many-hex town)."""
    graph: dict[str, list[str]] = {}
    for side in game_map["hexsides"]:
        if side.get("road"):
            a, b = side["hexes"]
            graph.setdefault(a, []).append(b)
            graph.setdefault(b, []).append(a)
    hexes = {name: {h for h, t in game_map["towns"].items() if t["name"] == name} for name in (start, goal)}
    seen = {h: 0 for h in hexes[start]}
    queue = deque(hexes[start])
    while queue:
        h = queue.popleft()
        if h in hexes[goal]:
            return seen[h]
        for n in graph.get(h, ()):
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    return None


@pytest.mark.case("0.2.2A")
@pytest.mark.parametrize(("a", "b", "road"), ROADS, ids=[f"{a}-{b}" for a, b, _ in ROADS])
def test_0_2_2A_road_lengths_in_hexes_match_the_real_distance(game_map, coords, a, b, road):
    km = great_circle_km(coords[a], coords[b])
    hexes = road_hexes(game_map, a, b)
    assert hexes is not None, f"no road path from {a} to {b} ({road})"
    ratio = hexes * KM_PER_HEX / km
    assert 0.9 <= ratio <= 1.15, f"{road}, {a}-{b}: {hexes} hexes x 10 km for {km:.0f} km ({ratio:.2f})"


def test_0_2_2A_the_minsk_highway_is_40_hexes_from_smolensk_to_moscow(game_map, affine_map, coords):
    # Smolensk (54.78N 32.05E) to the Kremlin (55.75N 37.62E) is 369 km on the ground
    assert round(great_circle_km(coords["Smolensk"], coords["Moscow"])) == 369
    assert road_hexes(game_map, "Smolensk", "Moscow") == 40        # 1.08; the affine map: 46 (1.25)
    assert road_hexes(affine_map, "Smolensk", "Moscow") == 46


@pytest.mark.parametrize(("a", "b"), [("Smolensk", "Vyazma"), ("Vyazma", "Mozhaisk"), ("Roslavl", "Yukhnov"),
                                      ("Roslavl", "Moscow")])
def test_0_2_2A_the_similarity_fit_shortens_the_east_west_roads(game_map, affine_map, a, b):
    assert road_hexes(game_map, a, b) < road_hexes(affine_map, a, b)
