"""Path searches over the hex grid, shared by the rules areas (movement, retreats, lines of
communication): one module instead of a hand-written search in every plugin.

Every search is given the start hex label and small callbacks that say what the rules allow —
the areas ask the game's rule scripts inside them; this module knows no rule and cites no case.
Hex labels are the board's (``"0306"``); costs are movement points (MP, integers).

- :func:`cheapest_paths` — a Dijkstra search over MP costs with a hex budget (the reach of a
  moving unit): ``{hex: (mp, hexes, previous hex)}``;
- :func:`path_to` — the path a :func:`cheapest_paths` answer gives to one hex;
- :func:`breadth_first` — fewest hexes (rail lines); :func:`nearest` — the nearest goal hex (lines of
  communication);
- :func:`exact_paths` — every simple path of exactly N hexes (retreats);
- :func:`multi_source_dijkstra`, :func:`multi_source_bfs`, :func:`walk_back` — searches from many
  sources at once over plain integer hex indices with networkx's tie-breaks (supply networks:
  ``areas/supply.py``; a game's ``test_supply_cache.py`` checks them against networkx).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from heapq import heappop, heappush
from itertools import count
from typing import Any

__all__ = ["Neighbours", "cheapest_paths", "path_to", "breadth_first", "nearest", "exact_paths",
           "multi_source_dijkstra", "multi_source_bfs", "walk_back", "paths_within", "path_within"]

#: hex label -> the labels of its neighbours on the map
Neighbours = Callable[[str], Iterable[str]]


def cheapest_paths(start: str, neighbours: Neighbours, cost: Callable[[str, str], int | None], *,
                   budget: int, max_hexes: int,
                   stops: Callable[[str], bool] = lambda h: False) -> dict[str, tuple[int, int, str | None]]:
    """Every hex reachable from ``start`` spending at most ``budget`` MP in at most ``max_hexes``
    hexes: ``{hex: (mp, hexes, previous hex or None for the start)}``.

    ``cost(here, there)`` is the MP cost of entering ``there`` from ``here`` (None: it may not be
    entered); ``stops(hex)`` says a move entering ``hex`` ends there (an enemy ZOC). Among equal
    MP the path of fewer hexes wins; the queue is ordered by (MP, hexes, label), so the answer is
    a pure function of its inputs."""
    best: dict[str, tuple[int, int]] = {start: (0, 0)}
    prev: dict[str, str | None] = {start: None}
    queue = [(0, 0, start)]
    while queue:
        spent, hexes, here = heapq.heappop(queue)
        if best.get(here) != (spent, hexes) or hexes >= max_hexes:
            continue
        if here != start and stops(here):
            continue
        for there in neighbours(here):
            step = cost(here, there)
            if step is None:
                continue
            key = (spent + step, hexes + 1)
            if key[0] > budget or key >= best.get(there, (10**9, 0)):
                continue
            best[there], prev[there] = key, here
            heapq.heappush(queue, (key[0], key[1], there))
    return {h: (mp, n, prev[h]) for h, (mp, n) in best.items()}


def path_to(found: dict[str, tuple[int, int, str | None]], hex_: str) -> list[str]:
    """The hexes entered on the way to ``hex_`` in a :func:`cheapest_paths` answer, start
    excluded, ``hex_`` last (empty for the start itself)."""
    path: list[str] = []
    here: str | None = hex_
    while here is not None and found[here][2] is not None:
        path.append(here)
        here = found[here][2]
    return path[::-1]


def breadth_first(start: str, neighbours: Neighbours, enter: Callable[[str, str], bool]) -> dict[str, list[str]]:
    """Fewest-hex paths from ``start``: ``{hex: [start, …, hex]}`` for every hex reached through
    hexes ``enter(here, there)`` allows (rail lines)."""
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    while frontier:
        nxt: list[str] = []
        for here in frontier:
            for there in neighbours(here):
                if there in paths or not enter(here, there):
                    continue
                paths[there] = paths[here] + [there]
                nxt.append(there)
        frontier = nxt
    return paths


def nearest(start: str, neighbours: Neighbours, enter: Callable[[str, str], bool],
            goal: Callable[[str], bool]) -> list[str] | None:
    """The fewest-hex path ``[start, …, hex]`` to a hex satisfying ``goal`` through hexes
    ``enter(here, there)`` allows, or None; each frontier is taken in label order, so among the
    nearest goals the first found wins (lines of communication)."""
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    while frontier:
        nxt: list[str] = []
        for here in frontier:
            if goal(here):
                return paths[here]
            for there in neighbours(here):
                if there in paths or not enter(here, there):
                    continue
                paths[there] = paths[here] + [there]
                nxt.append(there)
        frontier = sorted(nxt)
    return None


def exact_paths(start: str, neighbours: Neighbours, enter: Callable[[str], bool], length: int,
                end: Callable[[list[str]], bool]) -> list[list[str]]:
    """Every simple path of exactly ``length`` hexes from ``start`` (start excluded) through hexes
    ``enter`` allows, whose whole hex list ``[start, …]`` satisfies ``end``; depth first, in the
    neighbours' order."""
    out: list[list[str]] = []

    def walk(path: list[str]) -> None:
        if len(path) == length + 1:
            if end(path):
                out.append(path[1:])
            return
        for there in neighbours(path[-1]):
            if there in path or not enter(there):
                continue
            walk(path + [there])

    walk([start])
    return out


def multi_source_dijkstra(sources: Iterable[int], cutoff: float, neighbours: Callable[[int], Sequence[tuple[int, float]]],
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
                    buckets[vu].append(u)  # type: ignore[call-overload]  # TypeError unless a whole number
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


def multi_source_bfs(sources: Iterable[Any], adj: Mapping[Any, Sequence[Any]],
        closed: Collection[Any] = ()) -> tuple[dict[Any, int], dict[Any, Any]]:
    """Multi-source breadth-first search over ``adj`` (node -> neighbours in order), never
    entering a ``closed`` node: ``(dist, pred)`` as :func:`multi_source_dijkstra` with every step 1
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


def walk_back(pred: Mapping[Any, Any], node: Any) -> list[Any]:
    """``[node, …, source]``: the search's path to ``node``, walked back to its source."""
    path = [node]
    while node in pred:
        node = pred[node]
        path.append(node)
    return path


def paths_within(board: Any, start: Any, radius: int | None, closed: Iterable[Any] = ()) -> dict[Any, list[Any]]:
    """Shortest hex paths on ``board`` (a :class:`casebook.core.board.Board`) from the hex
    ``start`` to every hex within ``radius`` hexes that avoid the ``closed`` hexes (``start``
    itself is never closed): one breadth-first search, the very one of
    ``networkx.single_source_shortest_path`` on ``restricted_view(graph, closed)`` (same paths,
    same order; run on the board's neighbour table, without the view's per-edge filters).
    networkx.NodeNotFound if ``start`` is off the map."""
    adj = board.neighbour_table()
    if start not in adj:
        import networkx as nx

        raise nx.NodeNotFound(f"Source {start} not in G")
    shut = set(closed)
    shut.discard(start)
    paths: dict[Any, list[Any]] = {start: [start]}
    level, nextlevel = 0, [start]
    limit = float("inf") if radius is None else radius
    while nextlevel and limit > level:
        thislevel, nextlevel = nextlevel, []
        for v in thislevel:
            for w in adj[v]:
                if w not in paths and w not in shut:
                    paths[w] = paths[v] + [w]
                    nextlevel.append(w)
        level += 1
    return paths


def path_within(board: Any, reach: Mapping[Any, list[Any]], target: Any, radius: int) -> list[Any] | None:
    """The path to the hex ``target`` from a :func:`paths_within` result ``reach`` on ``board``,
    or — when ``target`` itself is closed — through its nearest reachable neighbour, if that stays
    within ``radius`` hexes; None if there is none."""
    if target in reach:
        return reach[target]
    adj = board.neighbour_table()
    best: list[Any] | None = None
    for n in sorted(adj[target] if target in adj else board.graph.neighbors(target)):
        path = reach.get(n)
        if path is not None and len(path) <= radius and (best is None or len(path) + 1 < len(best)):
            best = path + [target]
    return best
