"""The kept searches of a supply trace, for the shared supply area: private helper. Game-neutral:
the caller gives what its rules say (usable sources, closed hexes, targets, step costs) and a
``store`` — its cache for one side and everything that side's supply depends on.

On top of the store, the searches here are kept by what they *read* (``ctx.lasting``) and reused
unchanged when a placement leaves every hex they read as it was:

- :func:`line_search` / :func:`line_path` — the line hexes (``supply.line_network``)
  from which an unbroken line leads to a usable source: one breadth-first search per side;
- :func:`backward_map` — MPs from every hex to the nearest target (usable source or line hex):
  one backward multi-source Dijkstra per side and movement-cost row;
- :func:`blocked_met` — the closed hexes and unusable sources a unit's own search meets (what
  stops the path of a unit out of supply).

Hexes are :class:`~casebook.core.hexgrid.Hex` at the edges, board indices inside; MPs integers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

from casebook.areas import _supply_search as index_
from casebook.areas import search
from casebook.areas.supply import line_network, lru_get
from casebook.core.hexgrid import Hex

__all__ = ["RUNS_KEPT", "kept_run", "untouched", "line_search", "line_path", "backward_map",
           "blocked_met"]

#: How many searches per side (line) or per side and row (backward maps) are kept for reuse.
RUNS_KEPT = 4
#: Line searches are told apart by a stamp (never reused, unlike ``id``).
_STAMPS = itertools.count()
#: How many :func:`blocked_met` searches are kept.
_MET_KEPT = 512


def kept_run(kept: dict[Any, Any], key: Any, reusable: Callable[[dict[str, Any]], bool],
             make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The first run in ``kept`` that is ``reusable`` (it read nothing that changed), else a new
    one from ``make()``; either way kept under ``key`` as the most recent (the last :data:`RUNS_KEPT`)."""
    found = next((run for run in kept.values() if reusable(run)), None) or make()
    lru_get(kept, key, RUNS_KEPT)[0].update(found)
    return found


def untouched(changed: frozenset[int], read: Any) -> bool:
    """No hex whose status ``changed`` is one a search ``read`` (a set or dict of indices)."""
    return not any(i in read for i in changed)


def line_search(ctx: Any, side: str, store: dict[Any, Any], usable: set[Hex],
                closed: frozenset[int]) -> tuple[dict[int, int], dict[int, int]]:
    """The line network of ``side`` from its ``usable`` sources through no ``closed`` hex: the hop
    count from the nearest usable source to each line hex reached and the hex each was reached
    from (board indices); the caller keeps it (``ctx.kept``: the ``supply_line`` lines that made
    the network are kept with it); ``store`` gets ``"line-stamp"`` and ``"line-derived"``.

    The search reads the closed status of the hexes it reaches and of their line neighbours only;
    the last results per side are kept (``ctx.lasting``) with those hexes, and one is reused,
    unchanged, when the sources are the same and no hex it read changed status."""
    adj, _ = line_network(ctx, side)
    ix = index_.board_index(ctx).index
    starts = tuple(i for i in (ix[h] for h in sorted(usable)) if any(n not in closed for n in adj.get(i, ())))

    def make() -> dict[str, Any]:
        dist, pred = search.multi_source_bfs(starts, adj, closed)
        read = set(dist)
        for i in dist:
            read.update(adj.get(i, ()))
        return {"starts": starts, "closed": closed, "read": frozenset(read), "result": (dist, pred),
                "stamp": next(_STAMPS), "derived": {}}

    found = kept_run(ctx.lasting("supply.line-runs", pause=False).setdefault(side, {}), (starts, closed),
                     lambda run: run["starts"] == starts and untouched(run["closed"] ^ closed, run["read"]), make)
    store["line-stamp"], store["line-derived"] = found["stamp"], found["derived"]
    result: tuple[dict[int, int], dict[int, int]] = found["result"]
    return result


def line_path(ctx: Any, side: str, pred: Mapping[int, int], h: Hex) -> tuple[list[Hex], bool]:
    """The line path from ``h`` to its nearest usable source in a :func:`line_search`'s ``pred``
    and whether it crosses a rail-only hexside."""
    index = index_.board_index(ctx)
    _, rail = line_network(ctx, side)
    path = search.walk_back(pred, index.index[h])
    return [index.hexes[i] for i in path], any(rail[a, b] for a, b in zip(path, path[1:]))


def backward_map(kept: dict[Any, Any], targets: tuple[int, ...], closed: frozenset[int], limit: int,
                 costs: index_.StepCosts, ask: index_.Ask) -> tuple[dict[int, float], dict[int, int]]:
    """MPs (at most ``limit``) from every hex to the nearest of ``targets`` — one multi-source
    Dijkstra from the targets over the graph backwards with the forward step costs — and the hex
    each is reached from. A closed hex may end a path but is never passed. The last searches are
    kept in ``kept`` (one dict per side and row) and one is reused, unchanged, when the targets
    are the same and no hex it settled changed status."""
    def make() -> dict[str, Any]:
        return {"targets": targets, "closed": closed,
                "map": search.multi_source_dijkstra(targets, limit, lambda x: costs.into(x, ask), closed)}

    def reusable(run: dict[str, Any]) -> bool:
        return run["targets"] == targets and untouched(run["closed"] ^ closed, run["map"][0])

    return kept_run(kept, (targets, closed), reusable, make)["map"]


def blocked_met(ctx: Any, key: Any, start: Hex, limit: int, costs: index_.StepCosts, ask: index_.Ask,
                block: Mapping[Hex, Any], closed: frozenset[int], targets: frozenset[int],
                unusable: Mapping[Hex, Any]) -> tuple[dict[Hex, Any], bool]:
    """What stops a unit's path from ``start``: the ``block`` entries of the closed hexes next to a
    hex a search of ``limit`` MPs reaches before a target (where a path would end), and the
    ``unusable`` sources it reaches or touches; and whether the limit stopped it too (a hex the
    search reached has an open neighbour it could enter but not within ``limit`` MPs).

    The search reads only the hexes it reaches and their neighbours; its result is kept
    (``ctx.lasting``, under ``key``) with what it read there and reused while that is unchanged."""
    index = index_.board_index(ctx)
    begin = index.index[start]
    kept = ctx.lasting("supply.blocked-met")

    def seen(read: frozenset[int], met: list[Hex]) -> tuple[Any, ...]:
        return (closed & read, targets & read, {h: block[h] for h in met if h in block},
                {h: v for h, v in unusable.items() if index.index[h] in read})

    run = kept.get(key)
    if run is not None and seen(run["read"], run["met"]) == run["seen"]:
        return run["found"], run["cut"]
    adj = index.adj
    met: set[int] = set()

    def steps(u: int) -> list[tuple[int, float]]:
        out = []
        for v in adj[u]:
            if v in closed:
                met.add(v)
                continue
            mp = costs.cost(u, v, ask)
            if mp is not None:
                out.append((v, mp))
        return out

    reached, _ = search.multi_source_dijkstra([begin], limit, steps, targets - {begin})
    read_set = set(reached)
    for i in reached:
        read_set.update(adj[i])
    read = frozenset(read_set)
    met_hexes = [index.hexes[i] for i in met]
    now = seen(read, met_hexes)
    found = {h: block[h] for h in met_hexes}
    found.update(now[3])
    cut = any(v not in reached and v not in closed and costs.cost(u, v, ask) is not None
              for u in reached if u not in targets or u == begin for v in adj[u])
    kept[key] = {"read": read, "met": met_hexes, "found": found, "seen": now, "cut": cut}
    while len(kept) > _MET_KEPT:
        kept.pop(next(iter(kept)))
    return found, cut
