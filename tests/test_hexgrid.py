"""Tests of src/casebook/core/hexgrid.py, grid.py and tools/sheet.py: labels, offset<->cube, neighbours, distance,
edges, lines, sheet geometry."""

from __future__ import annotations

import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.core.grid import Grid
from casebook.core.hexgrid import (
    Cube,
    Hex,
    HexSide,
    Layout,
    distance,
    from_cube,
    hex_label,
    hexside,
    neighbours,
    parse_hex,
    to_cube,
)
from casebook.tools import sheet

LAYOUTS = list(Layout)
hexes = st.builds(Hex, st.integers(0, 99), st.integers(0, 99))
layouts = st.sampled_from(LAYOUTS)
untimed = settings(deadline=None)  # no timing assertions: hypothesis' per-example deadline is off


def H(label: str) -> Hex:
    return parse_hex(label)


def labels(hs) -> list[str]:
    return [hex_label(h) for h in hs]


# -- labels ---------------------------------------------------------------------------------------
def test_parse_hex_reads_column_then_row():
    assert parse_hex("2032") == Hex(20, 32)
    assert parse_hex("0105") == Hex(1, 5)
    assert hex_label(Hex(3, 7)) == "0307"


@pytest.mark.parametrize("bad", ["203", "20321", "20a2", " 2032", "2032\n", "", "٢٠٣٢", 2032, None])
def test_parse_hex_refuses_anything_but_four_digits_and_quotes_it(bad):
    with pytest.raises(ValueError) as info:
        parse_hex(bad)
    assert repr(bad) in str(info.value)


def test_hex_label_refuses_numbers_that_do_not_print_as_two_digits():
    with pytest.raises(ValueError):
        hex_label(Hex(100, 1))
    with pytest.raises(ValueError):
        hex_label(Hex(-1, 1))


@untimed
@given(hexes)
def test_label_round_trip(h):
    assert parse_hex(hex_label(h)) == h


@untimed
@given(st.from_regex(r"[0-9]{4}", fullmatch=True))
def test_parse_round_trip(label):
    assert hex_label(parse_hex(label)) == label


# -- cube coordinates -----------------------------------------------------------------------------
@untimed
@given(st.builds(Hex, st.integers(-200, 200), st.integers(-200, 200)), layouts)
def test_to_cube_from_cube_inverse(h, layout):
    c = to_cube(h, layout)
    assert c.q + c.r + c.s == 0
    assert from_cube(c, layout) == h


@untimed
@given(st.integers(-200, 200), st.integers(-200, 200), layouts)
def test_from_cube_to_cube_inverse(q, r, layout):
    c = Cube(q, r, -q - r)
    assert to_cube(from_cube(c, layout), layout) == c


def test_cube_rejects_bad_sum():
    with pytest.raises(ValueError):
        Cube(1, 1, 1)


def test_unknown_layout_is_refused_with_choices():
    with pytest.raises(ValueError, match="flat-top-even-q"):
        to_cube(Hex(1, 1), "hex-ish")


# -- neighbours (hand-computed, both parities; order clockwise from sheet-top) ---------------------
HAND = {
    # even-q: even columns sit lower
    (Layout.FLAT_EVEN_Q, "0202"): ["0201", "0302", "0303", "0203", "0103", "0102"],
    (Layout.FLAT_EVEN_Q, "0303"): ["0302", "0402", "0403", "0304", "0203", "0202"],
    # odd-q: odd columns sit lower
    (Layout.FLAT_ODD_Q, "0202"): ["0201", "0301", "0302", "0203", "0102", "0101"],
    (Layout.FLAT_ODD_Q, "0303"): ["0302", "0403", "0404", "0304", "0204", "0203"],
    # odd-r: odd rows sit to the right
    (Layout.POINTY_ODD_R, "0202"): ["0201", "0302", "0203", "0103", "0102", "0101"],
    (Layout.POINTY_ODD_R, "0303"): ["0402", "0403", "0404", "0304", "0203", "0302"],
    # even-r: even rows sit to the right
    (Layout.POINTY_EVEN_R, "0202"): ["0301", "0302", "0303", "0203", "0102", "0201"],
    (Layout.POINTY_EVEN_R, "0303"): ["0302", "0403", "0304", "0204", "0203", "0202"],
}


@pytest.mark.parametrize("layout,label", list(HAND))
def test_neighbours_match_hand_computed(layout, label):
    assert labels(neighbours(H(label), layout)) == HAND[(layout, label)]


def test_parity_is_that_of_the_printed_number_not_of_first_col():
    # a map starting at column 02 still has its printed even columns lower under even-q
    g = Grid(Layout.FLAT_EVEN_Q, columns=4, rows=4, first_col=2, first_row=2)
    assert labels(g.neighbours(H("0303"))) == ["0302", "0402", "0403", "0304", "0203", "0202"]
    assert sheet.center(g, H("0202"), 1.0)[1] > sheet.center(g, H("0302"), 1.0)[1]


@untimed
@given(hexes, layouts)
def test_neighbour_symmetry(h, layout):
    ns = neighbours(h, layout)
    assert len(set(ns)) == 6 and h not in ns
    for n in ns:
        assert h in neighbours(n, layout)
        assert distance(h, n, layout) == 1


# -- distance -------------------------------------------------------------------------------------
@untimed
@given(hexes, hexes, hexes, layouts)
def test_distance_is_a_metric(a, b, c, layout):
    assert distance(a, b, layout) == distance(b, a, layout)
    assert (distance(a, b, layout) == 0) == (a == b)
    assert distance(a, c, layout) <= distance(a, b, layout) + distance(b, c, layout)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_distance_equals_shortest_path_on_an_open_map(layout):
    g = Grid(layout, columns=9, rows=8)
    graph = nx.Graph()
    for h in g.hexes():
        graph.add_edges_from((h, n) for n in g.neighbours(h))
    lengths = dict(nx.all_pairs_shortest_path_length(graph))
    for a in g.hexes():
        for b in g.hexes():
            assert g.distance(a, b) == lengths[a][b], (a, b)


def test_distance_hand_values():
    assert distance(H("0101"), H("0606"), Layout.FLAT_EVEN_Q) == 8
    assert distance(H("0101"), H("0601"), Layout.FLAT_EVEN_Q) == 5
    assert distance(H("0101"), H("0106"), Layout.FLAT_EVEN_Q) == 5


# -- hexsides -------------------------------------------------------------------------------------
def test_hexside_is_unordered_and_checks_adjacency():
    s = hexside(H("0304"), H("0303"), Layout.FLAT_EVEN_Q)
    assert s == HexSide(H("0303"), H("0304")) == hexside(H("0303"), H("0304"), Layout.FLAT_EVEN_Q)
    with pytest.raises(ValueError, match="not adjacent"):
        hexside(H("0303"), H("0305"), Layout.FLAT_EVEN_Q)
    with pytest.raises(ValueError, match="not adjacent"):
        hexside(H("0303"), H("0303"), Layout.FLAT_EVEN_Q)
    with pytest.raises(ValueError):
        HexSide(H("0304"), H("0303"))


def test_grid_hexside_refuses_off_map():
    g = Grid(Layout.FLAT_EVEN_Q, 6, 6)
    with pytest.raises(ValueError, match="off the map"):
        g.hexside(H("0606"), H("0607"))


# -- compass and edges ----------------------------------------------------------------------------
def test_direction_north_up_flat():
    g = Grid(Layout.FLAT_EVEN_Q, 6, 6)
    c = H("0303")
    assert [sheet.direction(g, c, n) for n in neighbours(c, g.layout)] == ["N", "NE", "SE", "S", "SW", "NW"]


def test_direction_north_up_pointy():
    g = Grid(Layout.POINTY_ODD_R, 6, 6)
    c = H("0303")
    assert [sheet.direction(g, c, n) for n in neighbours(c, g.layout)] == ["NE", "E", "SE", "SW", "W", "NW"]


def test_direction_north_right_flat_moscow_style():
    # columns grow northward, rows grow eastward
    g = Grid(Layout.FLAT_EVEN_Q, 6, 6, north="right")
    c = H("0303")
    assert sheet.direction(g, c, H("0403")) == "NE"   # down-right on the sheet: next column (north), same row
    assert sheet.direction(g, c, H("0402")) == "NW"   # up-right on the sheet: next column (north), previous row (west)
    assert sheet.direction(g, c, H("0304")) == "E"    # next row: east
    assert sheet.direction(g, c, H("0302")) == "W"
    assert sheet.direction(g, c, H("0203")) == "SE"   # down-left: previous column (south), same row
    assert sheet.direction(g, c, H("0202")) == "SW"
    assert [sheet.direction(g, c, n) for n in neighbours(c, g.layout)] == ["W", "NW", "NE", "E", "SE", "SW"]
    with pytest.raises(ValueError, match="not adjacent"):
        sheet.direction(g, c, H("0505"))


def test_direction_north_down_and_left_are_rotations():
    c = H("0303")
    down = Grid(Layout.FLAT_EVEN_Q, 6, 6, north="down")
    left = Grid(Layout.FLAT_EVEN_Q, 6, 6, north="left")
    assert sheet.direction(down, c, H("0302")) == "S"
    assert sheet.direction(left, c, H("0302")) == "E"


def test_edges_north_up():
    g = Grid(Layout.FLAT_EVEN_Q, 6, 6)
    assert g.edges(H("0101")) == {"north", "west"}
    assert g.edges(H("0606")) == {"south", "east"}
    assert g.edges(H("0301")) == {"north"}
    assert g.edges(H("0303")) == frozenset()
    assert g.edges(H("0707")) == frozenset()
    assert labels(g.edge_hexes("west")) == ["0101", "0102", "0103", "0104", "0105", "0106"]
    assert labels(g.edge_hexes("north")) == ["0101", "0201", "0301", "0401", "0501", "0601"]


def test_edges_north_right():
    g = Grid(Layout.FLAT_EVEN_Q, 6, 5, north="right")
    assert labels(g.edge_hexes("north")) == ["0601", "0602", "0603", "0604", "0605"]
    assert labels(g.edge_hexes("south")) == ["0101", "0102", "0103", "0104", "0105"]
    assert labels(g.edge_hexes("west")) == ["0101", "0201", "0301", "0401", "0501", "0601"]
    assert labels(g.edge_hexes("east")) == ["0105", "0205", "0305", "0405", "0505", "0605"]
    assert g.edges(H("0101")) == {"south", "west"}
    with pytest.raises(ValueError):
        g.edge_hexes("up")


def test_grid_validation():
    with pytest.raises(ValueError, match="north"):
        Grid(Layout.FLAT_EVEN_Q, 6, 6, north="sideways")
    with pytest.raises(ValueError, match="1x1"):
        Grid(Layout.FLAT_EVEN_Q, 0, 6)
    with pytest.raises(ValueError, match="99"):
        Grid(Layout.FLAT_EVEN_Q, 60, 6, first_col=50)
    assert Grid("pointy-top-odd-r", 2, 2).layout is Layout.POINTY_ODD_R


# -- lines ----------------------------------------------------------------------------------------
big = st.builds(Hex, st.integers(1, 20), st.integers(1, 20))


@untimed
@given(big, big, layouts)
def test_line_endpoints_contiguity_and_length(a, b, layout):
    g = Grid(layout, 20, 20)
    path = sheet.line(g, a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == g.distance(a, b) + 1
    assert all(g.distance(x, y) == 1 for x, y in zip(path, path[1:]))
    assert all(g.contains(h) for h in path)


def test_line_along_the_ragged_top_edge_stays_on_the_map():
    g = Grid(Layout.FLAT_EVEN_Q, 6, 6)
    assert labels(sheet.line(g, H("0101"), H("0301"))) == ["0101", "0201", "0301"]
    assert sheet.line(g, H("0404"), H("0404")) == [H("0404")]


def test_line_straight_down_a_column():
    g = Grid(Layout.FLAT_ODD_Q, 6, 6)
    assert labels(sheet.line(g, H("0302"), H("0305"))) == ["0302", "0303", "0304", "0305"]


# -- sheet geometry -------------------------------------------------------------------------------
_SHEET_ANGLE = {True: (0, 60, 120, 180, 240, 300), False: (30, 90, 150, 210, 270, 330)}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_centers_agree_with_neighbour_directions(layout):
    g = Grid(layout, 6, 6)
    size = 10.0
    for h in g.hexes():
        cx, cy = sheet.center(g, h, size)
        for angle, n in zip(_SHEET_ANGLE[layout.flat], neighbours(h, layout)):
            nx_, ny = sheet.center(g, n, size)
            assert math.hypot(nx_ - cx, ny - cy) == pytest.approx(size * math.sqrt(3))
            assert math.degrees(math.atan2(nx_ - cx, -(ny - cy))) % 360 == pytest.approx(angle)


def test_first_hex_touches_the_sheet_origin():
    g = Grid(Layout.FLAT_ODD_Q, 6, 6)   # column 01 sits lower, column 02 touches y = 0
    assert sheet.center(g, H("0101"), 2.0) == pytest.approx((2.0, 2 * math.sqrt(3)))
    assert sheet.center(g, H("0201"), 2.0) == pytest.approx((5.0, math.sqrt(3)))
    p = Grid(Layout.POINTY_EVEN_R, 6, 6)
    assert sheet.center(p, H("0101"), 2.0) == pytest.approx((math.sqrt(3), 2.0))
    assert min(y for h in g.hexes() for _, y in sheet.corners(g, h, 2.0)) == pytest.approx(0.0)
    assert min(x for h in g.hexes() for x, _ in sheet.corners(g, h, 2.0)) == pytest.approx(0.0)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_side_segment_is_the_shared_edge(layout):
    g = Grid(layout, 6, 6)
    size = 3.0
    for h in g.hexes():
        for n in g.neighbours(h):
            p, q = sheet.side_segment(g, g.hexside(h, n), size)
            assert math.dist(p, q) == pytest.approx(size)
            for end in (p, q):
                for x in (h, n):
                    assert min(math.dist(end, c) for c in sheet.corners(g, x, size)) == pytest.approx(0, abs=1e-9)


def test_flat_side_segment_hand_value():
    g = Grid(Layout.FLAT_EVEN_Q, 6, 6)
    (x1, y1), (x2, y2) = sheet.side_segment(g, g.hexside(H("0202"), H("0203")), 1.0)
    assert (x1, x2) == pytest.approx((3.0, 2.0))
    assert y1 == pytest.approx(2.5 * math.sqrt(3)) and y2 == pytest.approx(2.5 * math.sqrt(3))
