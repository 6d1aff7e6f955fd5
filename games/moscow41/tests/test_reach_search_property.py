"""The movement plugin's own path search (games/moscow41/plugins/_movement_paths.py ``search``) agrees with
networkx's Dijkstra on random small boards: random terrain and hexside features (so random TEC
weights), random weather and MA, one stack and no enemy (no ZOC). The only departure is the
rule, not the search: a stack may always enter the first hex of its move by spending all its
MPs (9.2C), which a plain Dijkstra with a cutoff does not know.
"""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.areas.terrain_costs import step_cost
from casebook.core.state import GameState
from casebook.games.moscow41.plugins._movement_paths import Mover, reach
from casebook.script.engine import load_engine

ENGINE = load_engine("moscow41")
SIZE = 5
LABELS = [f"{c:02d}{r:02d}" for c in range(1, SIZE + 1) for r in range(1, SIZE + 1)]
untimed = settings(deadline=None, max_examples=60)


@st.composite
def boards(draw):
    terrain = {h: draw(st.sampled_from(["clear", "clear", "forest", "swamp"])) for h in LABELS}
    board = ENGINE.board_for(GameState.from_dict({"game": "moscow41", "map": _map(terrain, [])}))
    pairs = sorted({tuple(sorted((a, b))) for a in LABELS for b in board.label_neighbours(a)})
    sides = []
    for a, b in draw(st.lists(st.sampled_from(pairs), max_size=12, unique=True)):
        feature = draw(st.sampled_from(["river", "major_river", "road", "trail", "canal"]))
        sides.append({"hexes": [a, b], feature: True})
    towns = draw(st.lists(st.sampled_from(LABELS), max_size=2, unique=True))
    return terrain, sides, towns


def _map(terrain, sides, towns=()):
    return {"layout": "flat-top-even-q", "size": {"columns": SIZE, "rows": SIZE},
            "terrain": {"default": "clear", **terrain}, "hexsides": sides,
            "towns": {h: {"name": f"T{h}", "kind": "town", "ip": 1} for h in towns}}


@pytest.mark.case("9.0A", "9.1A", "9.2A", "9.2C")
@untimed
@given(boards(), st.sampled_from(LABELS), st.integers(1, 12),
       st.sampled_from(["armor", "infantry", "cavalry"]),
       st.sampled_from([("warm", "dry"), ("cold", "mud"), ("cold", "snow"), ("arctic", "frozen")]))
def test_search_agrees_with_networkx_dijkstra(board, start, budget, cls, weather):
    terrain, sides, towns = board
    temperature, ground = weather
    state = GameState.from_dict({
        "game": "moscow41", "map": _map(terrain, sides, towns), "phasing": "german",
        "weather": {"temperature": temperature, "ground": ground},
        "units": [{"id": "g1", "side": "german", "class": cls, "size": "division", "ma": budget,
                   "hex": start}]})
    ctx = ENGINE.ctx(state)
    classes = frozenset({cls})
    graph = nx.DiGraph()
    graph.add_nodes_from(LABELS)
    for a in LABELS:
        for b in ctx.board.label_neighbours(a):
            mp = step_cost(ctx, classes, a, b)[0]
            if mp is not None:
                graph.add_edge(a, b, mp=mp)
    expected = nx.single_source_dijkstra_path_length(graph, start, cutoff=budget, weight="mp")
    for b in graph.successors(start):  # 9.2C: the first hex by spending all MPs
        expected.setdefault(b, budget)
    del expected[start]

    got = reach(ctx, Mover(("g1",), "german", start, classes, "none", budget))
    assert {h: r["mp"] for h, r in got.items()} == expected
    for h, r in got.items():  # every path is a walk of its MP (9.2C: one hex, all MPs)
        walk = [start, *r["path"]]
        assert walk[-1] == h and all(graph.has_edge(a, b) for a, b in zip(walk, walk[1:]))
        spent = sum(graph.edges[a, b]["mp"] for a, b in zip(walk, walk[1:]))
        assert spent == r["mp"] or (r["spent_all"] and len(r["path"]) == 1 and r["stop"] == "9.2C")
