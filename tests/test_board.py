"""Tests of src/casebook/core/board.py on a 6x6 inline map (the inline `map:` of the content format)."""

from __future__ import annotations

import copy

import networkx as nx
import pytest

from casebook.areas.search import path_within, paths_within
from casebook.content.mapdata import BoardError, board_from_map
from casebook.core.board import Board, HexInfo, SideInfo
from casebook.core.hexgrid import Hex, HexSide, Layout, parse_hex

H = parse_hex

MAP = {
    "kind": "map",
    "format": 1,
    "provenance": "reconstructed: test map",
    "layout": "flat-top-even-q",
    "size": {"columns": 6, "rows": 6},
    "terrain": {"default": "clear", "0303": "forest", "0404": "swamp", "provenance": "reconstructed: x"},
    "hexsides": [
        {"hexes": ["0303", "0304"], "river": True},
        {"hexes": ["0202", "0203"], "road": True},
        {"hexes": ["0504", "0505"], "rail": True, "road": True},
        {"hexes": ["0505", "0506"], "rail": True},
        {"hexes": ["0304", "0303"], "major_river": True, "fortification": {"protects": "0304"}},
        {"hexes": ["0101", "0102"], "canal": True, "trail": True, "provenance": "reconstructed: y"},
    ],
    "towns": {
        "0505": {"name": "Testgrad", "kind": "city", "ip": 2},
        "0202": {"name": "Smallville", "kind": "town", "ip": 1, "provenance": "reconstructed: z"},
    },
    "moscow": ["0606"],
    "entry_areas": {"A": ["0101", "0102"], "B": ["0601"]},
}


@pytest.fixture
def board() -> Board:
    return board_from_map(MAP)


def test_graph_has_every_on_map_hex_and_every_adjacent_pair(board):
    g = board.graph
    assert g.number_of_nodes() == 36
    # flat-top 6x6: 5 vertical pairs in each of 6 columns (30), and between each of the 5 pairs of
    # neighbouring columns 2*6 - 1 = 11 diagonal pairs (55)
    assert g.number_of_edges() == 30 + 55
    assert set(g[H("0303")]) == {H("0302"), H("0402"), H("0403"), H("0304"), H("0203"), H("0202")}
    assert set(g[H("0101")]) == {H("0102"), H("0201")}
    assert nx.is_frozen(g)


def test_hex_info(board):
    assert board.hex(H("0303")) == HexInfo(H("0303"), "forest", None, frozenset(), False, None, frozenset())
    assert board.hex(H("0101")).terrain == "clear"
    assert board.hex(H("0101")).edges == {"north", "west"}
    assert board.hex(H("0101")).entry_area == "A"
    assert board.hex(H("0505")).town == {"name": "Testgrad", "kind": "city", "ip": 2}
    assert "moscow" in board.hex(H("0606")).hex_sets
    with pytest.raises(ValueError, match="off the map"):
        board.hex(H("0707"))


def test_side_info_is_unordered_and_merges_entries(board):
    s = board.side(H("0304"), H("0303"))
    assert s == board.side(H("0303"), H("0304"))
    assert s.side == HexSide(H("0303"), H("0304"))
    assert s.river and s.major_river and not s.road
    assert s.fortification == H("0304")
    assert s.features == {"river", "major_river", "fortification"}
    assert board.side(H("0101"), H("0102")).features == {"canal", "trail"}
    plain = board.side(H("0303"), H("0302"))
    assert plain == SideInfo(HexSide(H("0302"), H("0303")))
    assert plain.features == frozenset()
    edge = board.graph.edges[H("0504"), H("0505")]
    assert edge["rail"] is True and edge["road"] is True and edge["river"] is False


def test_side_refuses_non_adjacent_and_off_map(board):
    with pytest.raises(ValueError, match="not adjacent"):
        board.side(H("0303"), H("0305"))
    with pytest.raises(ValueError, match="off the map"):
        board.side(H("0606"), H("0607"))


def test_sides_lists_featured_hexsides_in_order(board):
    assert [str(s.side) for s in board.sides()] == [
        "0101/0102", "0202/0203", "0303/0304", "0504/0505", "0505/0506"]


def test_towns_moscow_entry_areas(board):
    assert board.towns() == {
        H("0202"): {"name": "Smallville", "kind": "town", "ip": 1},
        H("0505"): {"name": "Testgrad", "kind": "city", "ip": 2},
    }
    assert board.hex_set("moscow") == {H("0606")}
    assert board.entry_areas == {"A": frozenset({H("0101"), H("0102")}), "B": frozenset({H("0601")})}


def test_railheads_default_to_towns_on_a_rail_hexside(board):
    # 0505 touches rail hexsides; 0202 touches only a road
    assert board.railheads == {H("0505")}
    assert board.hex(H("0505")).railhead and not board.hex(H("0202")).railhead


def test_explicit_railheads_replace_the_default():
    data = dict(MAP, railheads=["0202", "0303"])
    assert board_from_map(data).railheads == {H("0202"), H("0303")}
    assert board_from_map(dict(MAP, railheads=[])).railheads == frozenset()


def test_edges_follow_north_and_first_numbers():
    data = dict(MAP, north="right", first={"column": 1, "row": 1})
    b = board_from_map(data)
    assert b.grid.layout is Layout.FLAT_EVEN_Q
    assert b.edge_hexes("north") == [H(f"06{r:02d}") for r in range(1, 7)]
    assert b.hex(H("0101")).edges == {"south", "west"}
    small = board_from_map({"layout": "pointy-top-odd-r", "size": {"columns": 2, "rows": 2},
                            "first": {"column": 10, "row": 20}, "terrain": {"default": "clear"}})
    assert small.hexes() == [H("1020"), H("1021"), H("1120"), H("1121")]
    assert small.graph.number_of_edges() == 5


def test_all_problems_are_reported_at_once_with_key_paths():
    bad = copy.deepcopy(MAP)
    bad["terrain"]["0707"] = "forest"
    bad["hexsides"] += [
        {"hexes": ["0303", "0305"], "river": True},              # not adjacent
        {"hexes": ["0606", "0607"], "road": True},              # off map
        {"hexes": ["0303", "0302"], "river": "yes"},            # not a bool
        {"hexes": ["0303", "0302"], "bridge": True},            # unknown key
        {"hexes": ["0303", "0302"], "fortification": {"protects": "0404"}},
        {"hexes": ["303", "0302"]},
    ]
    bad["towns"]["0909"] = {"name": "Nowhere"}
    bad["moscow"] = ["0606", "6"]
    bad["entry_areas"]["C"] = ["0601"]
    with pytest.raises(BoardError) as info:
        board_from_map(bad)
    keys = [k for k, _ in info.value.problems]
    assert keys == [
        "terrain.0707",
        "hexsides.6.hexes",
        "hexsides.7.hexes.1",
        "hexsides.8.river",
        "hexsides.9.bridge",
        "hexsides.10.fortification.protects",
        "hexsides.11.hexes.0",
        "towns.0909",
        "moscow.1",
        "entry_areas.C",
    ]
    assert info.value.paths[1][0] == ("hexsides", 6, "hexes")
    assert info.value.paths[0][0] == ("terrain", "0707")
    assert info.value.paths[-1][0] == ("entry_areas", "C")
    text = str(info.value)
    assert "10 problems" in text
    assert "hexes 0303 and 0305 are not adjacent" in text
    assert "hex 0607 is off the map (hexes 0101..0606)" in text
    assert "'303'" in text
    assert "already in entry area B" in text
    assert isinstance(info.value, ValueError)


def test_bad_grid_is_refused():
    with pytest.raises(BoardError, match="layout"):
        board_from_map({"size": {"columns": 6, "rows": 6}, "terrain": {"default": "clear"}})
    with pytest.raises(BoardError, match="unknown hex layout"):
        board_from_map(dict(MAP, layout="square"))
    with pytest.raises(BoardError, match="north"):
        board_from_map(dict(MAP, north="upwards"))
    with pytest.raises(BoardError, match="columns"):
        board_from_map(dict(MAP, size={"rows": 6}))


def test_missing_terrain_default_is_a_problem():
    with pytest.raises(BoardError) as info:
        board_from_map(dict(MAP, terrain={"0303": "forest"}))
    assert info.value.problems[0][0] == "terrain.default"


def test_conflicting_fortifications_on_one_side():
    data = dict(MAP, hexsides=[
        {"hexes": ["0303", "0304"], "fortification": {"protects": "0304"}},
        {"hexes": ["0303", "0304"], "fortification": {"protects": "0303"}},
    ])
    with pytest.raises(BoardError, match="already has a fortification protecting 0304"):
        board_from_map(data)


def test_hex_type_in_graph_is_hex(board):
    assert all(isinstance(n, Hex) for n in board.graph.nodes)
    assert repr(board) == "Board(flat-top-even-q, hexes 0101..0606, north=up)"


def test_schema_dump_shape_is_accepted():
    # a pydantic model_dump of the map schema writes every feature and `fortification: None`
    data = dict(MAP, first=None, railheads=None, hexsides=[
        {"hexes": ["0303", "0304"], "river": False, "major_river": False, "road": True, "trail": False,
         "rail": False, "canal": False, "fortification": None},
    ])
    b = board_from_map(data)
    assert b.side(H("0303"), H("0304")).features == {"road"}
    assert b.railheads == frozenset()


def test_paths_within_avoid_closed_hexes_and_reach_a_closed_target_through_a_neighbour():
    board = board_from_map({"layout": "flat-top-even-q", "size": {"columns": 6, "rows": 6},
                            "terrain": {"default": "clear"}})
    start, wall = parse_hex("0101"), [parse_hex("0201"), parse_hex("0202")]
    reach = paths_within(board, start, 3, wall + [start])        # the start is never closed
    assert start in reach and not set(wall) & set(reach)
    assert all(len(p) - 1 <= 3 for p in reach.values())
    assert path_within(board, reach, parse_hex("0102"), 3) == [start, parse_hex("0102")]
    # a closed target is reached through its nearest open neighbour
    path = path_within(board, reach, parse_hex("0201"), 3)
    assert path is not None and path[-1] == parse_hex("0201") and len(path) == 2
    assert path_within(board, reach, parse_hex("0606"), 3) is None


def test_views_are_the_graphs_own_attributes_in_its_order(board):
    g = board.graph
    assert list(board.adjacency()) == list(g)
    assert all(list(board.adjacency()[h]) == list(g.adj[h]) for h in g)
    assert board.node(H("0505"))["town"]["name"] == "Testgrad"
    assert board.edge(H("0504"), H("0505")) == g.edges[H("0504"), H("0505")]
    assert board.edge(H("0504"), H("0505"))["rail"] is True
    assert [(a, b, dict(d)) for a, b, d in board.edge_items()] == [(a, b, dict(d)) for a, b, d in g.edges(data=True)]
    with pytest.raises(KeyError):
        board.edge(H("0101"), H("0303"))  # not adjacent


def test_a_pickled_board_rebuilds_the_same_frozen_graph_on_first_use(board):
    import pickle

    before = board.graph
    again = pickle.loads(pickle.dumps(board))
    assert again._graph is None  # the graph is not pickled (networkx stays out of a cached load)
    assert again.side(H("0303"), H("0304")).major_river is True  # answered without the graph
    assert again._graph is None
    g = again.graph
    assert nx.is_frozen(g)
    assert list(g) == list(before) and all(list(g.adj[h]) == list(before.adj[h]) for h in g)
    assert list(g.edges(data=True)) == list(before.edges(data=True))
    assert paths_within(again, H("0101"), 2) == paths_within(board, H("0101"), 2)
