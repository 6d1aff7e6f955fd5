"""Search primitives of the Moscow '41 `supply` plugin (5.2B-D, 5.3): private helper.

The supply area asks two searches many times per game: the line network from the usable
sources (5.2D, one step per hexside) and the cheapest cross-country path of at most
``supply_path_mp`` MPs to a source or a line hex (5.2B-C). Both run here on plain integer
hex indices with precomputed neighbour lists, with the tie-breaks of networkx's
``multi_source_dijkstra`` (sources in the order given, neighbours in the board graph's order,
the first path found to a hex kept among equal ones), so every path is the one networkx would
give (``tests/rules/test_supply_cache.py`` checks it against networkx).

- :class:`BoardIndex` — per board: hexes as indices, neighbour lists (``ctx.lasting``);
- :class:`StepCosts` — per TEC row, weather and settings: the MP to enter a hex from a
  neighbour, asked once per hex pair of the movement cost hook (``casebook_move_cost``, mode
  ``supply``) and kept across state changes (the hook's answer depends only on the hex pair,
  the weather, the TEC row and the settings ``road_bridges``/``hq_movement_class``, and on the
  hex pair only through what the map says of the two hexes and their hexside — the TEC's inputs,
  9.2A-B: see ``games/moscow41/plugins/_movement_costs.py`` ``move_cost``);
- :func:`dijkstra` — multi-source Dijkstra with a cutoff, never expanding ``closed`` hexes;
- :func:`bfs` — multi-source breadth-first search (unit steps) over an adjacency mapping;
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from heapq import heappop, heappush
from itertools import count
from typing import Any

from casebook.core.hexgrid import Hex

__all__ = ["BoardIndex", "StepCosts", "board_index", "dijkstra", "bfs", "path_to_source"]

#: Ask one step's MP: ``ask(from_hex, to_hex) -> MP or None`` (None: prohibited).
Ask = Callable[[Hex, Hex], "float | None"]


class BoardIndex:
    """The hexes of a board as indices ``0..n-1`` (the board graph's node order) and each hex's
    neighbours in the graph's adjacency order (the order networkx searches them in).

    ``step_kind[(a, b)]`` numbers the *kinds* of step from ``a`` into ``b``: two steps are of one
    kind when the map says the same of both hexes and of the hexside between them (terrain, town
    kind, the printed hexside features): the Terrain Effects Chart's inputs (9.2A-B), so a step
    cost is asked once per kind, not once per hexside."""

    def __init__(self, board: Any) -> None:
        adjacency = board.adjacency()
        self.hexes: list[Hex] = list(adjacency)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        ix = self.index
        self.adj: list[list[int]] = [[ix[n] for n in adjacency[h]] for h in self.hexes]
        nodes = [_hex_kind(board.node(h)) for h in self.hexes]
        kinds: dict[tuple[Any, ...], int] = {}
        self.step_kind: dict[tuple[int, int], int] = {}
        #: one step ``(a, b)`` of each kind, by kind number
        self.kind_step: list[tuple[int, int]] = []
        for a, nbrs in enumerate(self.adj):
            for b in nbrs:
                key = (nodes[a], nodes[b], _side_kind(adjacency[self.hexes[a]][self.hexes[b]], self.hexes[b]))
                kind = kinds.setdefault(key, len(kinds))
                if kind == len(self.kind_step):
                    self.kind_step.append((a, b))
                self.step_kind[a, b] = kind

    def __len__(self) -> int:
        return len(self.hexes)


def _hex_kind(node: Mapping[str, Any]) -> tuple[Any, ...]:
    town = node.get("town")
    return (node.get("terrain"), town.get("kind", "town") if town else None, "moscow" in node.get("hex_sets", ()),
            bool(node.get("railhead")), node.get("entry_area"), tuple(sorted(node.get("edges") or ())))


def _side_kind(edge: Mapping[str, Any], entered: Hex) -> tuple[Any, ...]:
    """The printed features of a hexside (its identity ``side`` left out); a faced fortification
    by whether it protects the hex entered."""
    out = []
    for k, v in sorted(edge.items()):
        if k == "side":
            continue
        if k == "fortification":
            v = None if v is None else ("entered" if v == entered else "left")
        out.append((k, v))
    return tuple(out)


def board_index(ctx: Any) -> BoardIndex:
    """The :class:`BoardIndex` of ``ctx.board`` (built once per board)."""
    cache = ctx.lasting("supply.index")
    index = cache.get("index")
    if index is None:
        index = cache["index"] = BoardIndex(ctx.board)
    return index


class StepCosts:
    """MPs of every step between adjacent hexes for one TEC row, weather and settings, asked
    lazily (``ask``) once per kind of step (:class:`BoardIndex` ``step_kind``) and kept:
    ``into(x)`` lists ``(y, MP of the step y -> x)`` for the neighbours ``y`` of ``x`` that may
    enter it (the backward view a search from the sources needs); ``cost(a, b)`` is the MP of
    ``a -> b`` (None: prohibited)."""

    def __init__(self, index: BoardIndex) -> None:
        self._index = index
        self._by_kind: dict[int, float | None] = {}
        self._into: list[list[tuple[int, float]] | None] = [None] * len(index)

    def cost(self, a: int, b: int, ask: Ask) -> float | None:
        kind = self._index.step_kind[a, b]
        try:
            return self._by_kind[kind]
        except KeyError:
            hexes = self._index.hexes
            value = self._by_kind[kind] = ask(hexes[a], hexes[b])
            return value

    def row(self, ask: Ask) -> tuple[float | None, ...]:
        """The cost of every kind of step, by kind number (asked once): units whose rows are
        equal move alike everywhere on the board, so they can share a search."""
        return tuple(self.cost(a, b, ask) for a, b in self._index.kind_step)

    def into(self, x: int, ask: Ask) -> list[tuple[int, float]]:
        found = self._into[x]
        if found is None:
            found = []
            for y in self._index.adj[x]:
                mp = self.cost(y, x, ask)
                if mp is not None:
                    found.append((y, mp))
            self._into[x] = found
        return found


def dijkstra(sources: Iterable[int], cutoff: float, neighbours: Callable[[int], Sequence[tuple[int, float]]],
             closed: Collection[int] = ()) -> tuple[dict[int, float], dict[int, int]]:
    """Multi-source Dijkstra: ``(dist, pred)`` for every index within ``cutoff`` of a source;
    ``dist`` in the order hexes are settled, ``pred[h]`` the hex ``h`` was reached from (none
    for sources). A ``closed`` hex may be reached but is never left. Tie-breaks as networkx's
    ``_dijkstra_multisource``: a heap of ``(distance, push count, hex)``, neighbours in the
    order ``neighbours`` gives, a hex's path replaced only by a strictly shorter one.

    With whole-MP costs and cutoff (the TEC's) it runs on a bucket queue — one first-in
    first-out list per distance, which pops in exactly the heap's (distance, push count) order;
    any other cost falls back to the heap."""
    sources = list(sources)
    if isinstance(cutoff, int):
        try:
            return _buckets(sources, cutoff, neighbours, closed)
        except TypeError:  # a cost that is not a whole number of MPs
            pass
    return _heap(sources, cutoff, neighbours, closed)


def _buckets(sources: list[int], cutoff: int, neighbours: Callable[[int], Sequence[tuple[int, float]]],
             closed: Collection[int]) -> tuple[dict[int, float], dict[int, int]]:
    dist: dict[int, float] = {}
    seen: dict[int, float] = {}
    pred: dict[int, int] = {}
    buckets: list[list[int]] = [[] for _ in range(cutoff + 1)]
    for s in sources:
        seen[s] = 0
        buckets[0].append(s)
    for d, bucket in enumerate(buckets):
        i = 0
        while i < len(bucket):  # a step of 0 MP appends to the bucket being read
            v = bucket[i]
            i += 1
            if v in dist:
                continue
            dist[v] = d
            if v in closed:
                continue
            for u, cost in neighbours(v):
                vu = d + cost
                if vu > cutoff or u in dist:
                    continue
                if u not in seen or vu < seen[u]:
                    if vu < d:
                        raise TypeError("negative step cost")
                    buckets[vu].append(u)  # TypeError unless a whole number
                    seen[u] = vu
                    pred[u] = v
    return dist, pred


def _heap(sources: list[int], cutoff: float, neighbours: Callable[[int], Sequence[tuple[int, float]]],
          closed: Collection[int]) -> tuple[dict[int, float], dict[int, int]]:
    dist: dict[int, float] = {}
    seen: dict[int, float] = {}
    pred: dict[int, int] = {}
    fringe: list[tuple[float, int, int]] = []
    c = count()
    for s in sources:
        seen[s] = 0
        heappush(fringe, (0, next(c), s))
    while fringe:
        d, _, v = heappop(fringe)
        if v in dist:
            continue
        dist[v] = d
        if v in closed:
            continue
        for u, cost in neighbours(v):
            vu = d + cost
            if vu > cutoff or u in dist:
                continue
            if u not in seen or vu < seen[u]:
                seen[u] = vu
                heappush(fringe, (vu, next(c), u))
                pred[u] = v
    return dist, pred


def bfs(sources: Iterable[Any], adj: Mapping[Any, Sequence[Any]],
        closed: Collection[Any] = ()) -> tuple[dict[Any, int], dict[Any, Any]]:
    """Multi-source breadth-first search over ``adj`` (node -> neighbours in order), never
    entering a ``closed`` node: ``(dist, pred)`` as :func:`dijkstra` with every step 1
    (first-in first-out is the heap's order when all steps cost 1, so the paths are networkx's
    on the graph without the closed nodes)."""
    dist: dict[Any, int] = {}
    pred: dict[Any, Any] = {}
    queue: deque[Any] = deque()
    for s in sources:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    while queue:
        v = queue.popleft()
        d = dist[v] + 1
        for u in adj.get(v, ()):
            if u not in dist and u not in closed:
                dist[u] = d
                pred[u] = v
                queue.append(u)
    return dist, pred


def path_to_source(pred: Mapping[Any, Any], node: Any) -> list[Any]:
    """``[node, …, source]``: the search's path to ``node``, walked back to its source."""
    path = [node]
    while node in pred:
        node = pred[node]
        path.append(node)
    return path


