"""The board as integer indices and the step costs of supply searches, for the shared supply
area (``areas/supply.py``): private helper. Game-neutral: it knows no rule and cites no case.

A supply area asks two searches many times per game: the line network from the usable sources
(one step per hexside) and the cheapest cross-country path of at most a rule-script number of MPs
to a source or a line hex. Both run on plain integer hex indices with precomputed neighbour
lists (the searches are ``areas/search.py``'s ``multi_source_dijkstra``/``multi_source_bfs``,
with networkx's tie-breaks; a game's ``test_supply_cache.py`` checks them against networkx).

- :class:`BoardIndex` — per board: hexes as indices, neighbour lists, kinds of step;
- :class:`StepCosts` — per movement-cost row, weather and settings: the MP to enter a hex from a
  neighbour, asked once per kind of step of the game's movement cost (its answer depends on the
  hex pair only through what the map says of the two hexes and their hexside — the inputs of a
  terrain effects chart) and kept across state changes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from casebook.content.packcache import board_table
from casebook.core.hexgrid import Hex

__all__ = ["Ask", "BoardIndex", "StepCosts", "board_index"]

#: Ask one step's MP: ``ask(from_hex, to_hex) -> MP or None`` (None: prohibited).
Ask = Callable[[Hex, Hex], "float | None"]


class BoardIndex:
    """The hexes of a board as indices ``0..n-1`` (the board graph's node order) and each hex's
    neighbours in the graph's adjacency order (the order networkx searches them in).

    ``step_kind[(a, b)]`` numbers the *kinds* of step from ``a`` into ``b``: two steps are of one
    kind when the map says the same of both hexes and of the hexside between them (terrain, town
    kind, the hex sets, the printed hexside features): a terrain chart's inputs, so a step
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
    return (node.get("terrain"), town.get("kind", "town") if town else None, tuple(sorted(node.get("hex_sets", ()))),
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


#: SHA-256 of this module's source: part of the key of the index kept in the pack cache
_SOURCE: list[str] = []


def board_index(ctx: Any) -> BoardIndex:
    """The :class:`BoardIndex` of ``ctx.board``: built once per board, kept for the process and,
    for a pack's board, in the compiled-pack cache beside it (``casebook.content.packcache``
    ``board_table``, keyed by this module's source too), so a warm ``casebook ask`` reads it back
    instead of building it (some 12,000 steps of a full map)."""
    if not _SOURCE:
        _SOURCE.append(hashlib.sha256(Path(__file__).read_bytes()).hexdigest())
    index: BoardIndex = board_table(ctx.board, "supplyindex", BoardIndex, _SOURCE[0])
    return index


class StepCosts:
    """MPs of every step between adjacent hexes for one movement-cost row, weather and settings, asked
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

    def preload(self, row: tuple[float | None, ...]) -> None:
        """Take the cost of every kind of step from ``row`` (a :meth:`row` made before, e.g. kept
        in the pack cache): nothing is asked again."""
        for kind, mp in enumerate(row):
            self._by_kind.setdefault(kind, mp)

    def row(self, ask: Ask) -> tuple[float | None, ...]:
        """The cost of every kind of step, by kind number (asked once): units whose rows are
        equal move alike everywhere on the board, so they can share a search."""
        return tuple(self.cost(a, b, ask) for a, b in self._index.kind_step)

    def into(self, x: int, ask: Ask) -> list[tuple[int, float]]:
        found = self._into[x]
        if found is None:
            found = []
            step_kind, by_kind = self._index.step_kind, self._by_kind
            for y in self._index.adj[x]:
                kind = step_kind[y, x]
                mp = by_kind[kind] if kind in by_kind else self.cost(y, x, ask)
                if mp is not None:
                    found.append((y, mp))
            self._into[x] = found
        return found
