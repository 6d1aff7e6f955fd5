"""The board's geometry tables (src/casebook/core/board.py): neighbours, hexsides and label neighbours are
filled once per board and give exactly what the grid and the graph say."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.areas.search import paths_within
from casebook.content.mapdata import board_from_map
from casebook.core.board import Board, SideInfo
from casebook.core.hexgrid import hex_label, parse_hex
from tests.test_board import MAP


@pytest.fixture
def board() -> Board:
    return board_from_map(MAP)


def test_neighbours_table_is_the_grid_and_a_fresh_list(board):
    for h in board.hexes():
        got = board.neighbours(h)
        assert got == board.grid.neighbours(h) == board.neighbours(h)
        got.append(h)  # a caller's list: the table is not changed
        assert h not in board.neighbours(h)
    corner = parse_hex("0101")
    assert len(board.neighbours(corner)) < 6 and all(board.contains(n) for n in board.neighbours(corner))


def test_label_neighbours_are_sorted_labels_of_the_graph_neighbours(board):
    for h in board.hexes():
        label = hex_label(h)
        assert board.label_neighbours(label) == tuple(sorted(hex_label(n) for n in board.graph[h]))
    with pytest.raises(ValueError, match="four digits"):
        board.label_neighbours("abc")


def test_side_table_gives_the_graph_edge_either_way_and_still_refuses(board):
    a, b = parse_hex("0303"), parse_hex("0304")
    side = board.side(a, b)
    assert side is board.side(b, a)  # one table entry for both orders
    assert side == SideInfo(**board.graph.edges[a, b])
    assert side.river and side.major_river and side.fortification == b
    for x, y in [(parse_hex("0101"), parse_hex("0303")), (a, a), (parse_hex("0606"), parse_hex("0607"))]:
        with pytest.raises(ValueError):
            board.side(x, y)


BIG = board_from_map({"layout": "flat-top-even-q", "size": {"columns": 9, "rows": 8},
                      "terrain": {"default": "clear"}})


@settings(deadline=None, max_examples=80)
@given(st.sampled_from(BIG.hexes()), st.integers(0, 9),
       st.lists(st.sampled_from(BIG.hexes()), max_size=25))
def test_paths_within_is_networkx_bfs_on_the_restricted_view(start, radius, closed):
    """Same paths and the same order as the networkx search it replaces (restricted_view)."""
    view = nx.restricted_view(BIG.graph, [h for h in closed if h != start], [])
    expected = nx.single_source_shortest_path(view, start, cutoff=radius)
    got = paths_within(BIG, start, radius, closed)
    assert list(got.items()) == list(expected.items())


def test_paths_within_refuses_an_off_map_start():
    with pytest.raises(nx.NodeNotFound):
        paths_within(BIG, parse_hex("2020"), 3)
