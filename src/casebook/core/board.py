"""The board: a map's hexes and hexsides as a read-only networkx graph with typed views.

:func:`casebook.content.mapdata.board_from_map` takes the plain data of a map (the ``map.yaml``
section of ``docs/content-format.md``, or the inline ``map:`` of a position) and builds:

- ``board.grid`` — the :class:`~casebook.core.grid.Grid` (layout, size, first numbers, north);
- ``board.graph`` — a frozen :class:`networkx.Graph` whose nodes are the on-map :class:`Hex` es and
  whose edges are *every* pair of adjacent on-map hexes (a hexside), with attributes:

  node: ``terrain`` (str, a terrain id), ``town`` (dict with ``name``/``kind``/``ip`` or None),
  ``hex_sets`` (frozenset of the names of the game's hex sets it is in), ``railhead`` (bool),
  ``entry_area`` (str or None), ``edges`` (frozenset of compass map edges, e.g. ``{"north", "west"}``);

  edge: ``river``, ``major_river``, ``road``, ``trail``, ``rail``, ``canal`` (bool),
  ``fortification`` (the :class:`Hex` a printed, faced fortification protects, or None) and
  ``side`` (the :class:`HexSide`).

  The same attributes without networkx: :meth:`Board.node`, :meth:`Board.edge`,
  :meth:`Board.adjacency`, :meth:`Board.edge_items` (the graph's own dicts, in its order). The
  graph itself is built when first asked for (networkx is imported then): a board loaded from the
  compiled-pack cache answers every question without importing networkx.

The kernel gives these features no meaning; the rules (TEC, movement, combat) do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .grid import Grid
from .hexgrid import Hex, HexSide, hex_label, parse_hex

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["FEATURES", "HexInfo", "SideInfo", "Board"]

FEATURES: tuple[str, ...] = ("river", "major_river", "road", "trail", "rail", "canal")
"""Boolean hexside features a map may declare."""


@dataclass(frozen=True)
class HexInfo:
    """Everything the map says about one hex (node attributes of ``board.graph``).

    ``town`` is a dict (``name``, ``kind``, ``ip`` in IPs, …) or None; it is left out of hashing.
    ``edges`` are the compass map edges the hex lies on.
    """

    hex: Hex
    terrain: str
    town: Mapping[str, Any] | None = field(default=None, hash=False)
    hex_sets: frozenset[str] = frozenset()
    railhead: bool = False
    entry_area: str | None = None
    edges: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SideInfo:
    """Everything the map says about one hexside (edge attributes of ``board.graph``).

    ``fortification`` is the hex a faced fortification protects (one of the side's two hexes) or None.
    """

    side: HexSide
    river: bool = False
    major_river: bool = False
    road: bool = False
    trail: bool = False
    rail: bool = False
    canal: bool = False
    fortification: Hex | None = None

    @property
    def features(self) -> frozenset[str]:
        """Names of the features present (the true booleans, plus ``fortification``)."""
        out = {f for f in FEATURES if getattr(self, f)}
        if self.fortification is not None:
            out.add("fortification")
        return frozenset(out)


class Board:
    """A loaded map. Build it with :func:`casebook.content.mapdata.board_from_map`; read it through :meth:`hex`, :meth:`side`,
    :meth:`towns`, :meth:`hex_set`, :attr:`railheads`, :attr:`entry_areas`, :meth:`edge_hexes`
    or the frozen :attr:`graph` directly."""

    def __init__(self, grid: Grid, graph: nx.Graph, entry_areas: Mapping[str, frozenset[Hex]]) -> None:
        self.grid: Grid = grid
        # the graph's own node and adjacency dicts (read-only): what every view reads; the
        # networkx graph is kept for this process only (not pickled) and rebuilt from them
        self._node: dict[Hex, dict[str, Any]] = graph._node
        self._adjd: dict[Hex, dict[Hex, dict[str, Any]]] = graph._adj
        self._graph: nx.Graph | None = graph
        self.entry_areas: dict[str, frozenset[Hex]] = dict(entry_areas)
        nodes = self._node
        names = sorted({s for h in nodes for s in nodes[h]["hex_sets"]})
        #: name -> the hexes of each named hex set of the map (the game's vocabulary ``hex_sets``)
        self.hex_sets: dict[str, frozenset[Hex]] = {
            s: frozenset(h for h in nodes if s in nodes[h]["hex_sets"]) for s in names}
        self.railheads: frozenset[Hex] = frozenset(h for h in nodes if nodes[h]["railhead"])
        # geometry tables, filled once per board (the board is read-only): on-map neighbours of
        # a hex, the SideInfo of an ordered pair, and the same by printed labels
        self._nbrs: dict[Hex, tuple[Hex, ...]] = {}
        self._sides: dict[tuple[Hex, Hex], SideInfo] = {}
        self._label_nbrs: dict[str, tuple[str, ...]] = {}
        self._edge_hexes: dict[str, tuple[Hex, ...]] = {}
        self._towns: tuple[tuple[Hex, Mapping[str, Any]], ...] | None = None
        self._adj: dict[Hex, tuple[Hex, ...]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_graph": None}

    @property
    def graph(self) -> nx.Graph:
        """The frozen :class:`networkx.Graph` of the map (module docstring), built on first use
        from the board's node and adjacency dicts (same nodes, adjacency order and attributes)."""
        if self._graph is None:
            import networkx as nx

            graph = nx.Graph()
            graph._node = self._node
            graph._adj = self._adjd
            self._graph = nx.freeze(graph)
        return self._graph

    def node(self, h: Hex) -> Mapping[str, Any]:
        """The attributes of on-map hex ``h`` (``graph.nodes[h]``: read, never change); KeyError off the map."""
        return self._node[h]

    def edge(self, a: Hex, b: Hex) -> Mapping[str, Any]:
        """The attributes of the hexside between adjacent ``a`` and ``b`` (``graph.edges[a, b]``:
        read, never change); KeyError if they are not adjacent on-map hexes."""
        return self._adjd[a][b]

    def adjacency(self) -> Mapping[Hex, Mapping[Hex, Mapping[str, Any]]]:
        """Hex -> neighbour -> hexside attributes, in the graph's node and adjacency order
        (``graph.adj``: read, never change)."""
        return self._adjd

    def edge_items(self) -> Iterator[tuple[Hex, Hex, Mapping[str, Any]]]:
        """``(a, b, attributes)`` of every hexside once, in ``graph.edges(data=True)`` order."""
        seen: set[Hex] = set()
        for a, nbrs in self._adjd.items():
            for b, data in nbrs.items():
                if b not in seen:
                    yield a, b, data
            seen.add(a)

    # -- views ----------------------------------------------------------------------------------
    def _on_map(self, h: Hex) -> None:
        if not self.grid.contains(h):
            raise ValueError(f"hex {h} is off the map ({self.grid.describe()})")

    def hex_set(self, name: str) -> frozenset[Hex]:
        """The hexes of the map's hex set ``name`` (empty if the map has none of that name: a
        shared rules area may ask for a set some games lack)."""
        return self.hex_sets.get(name, frozenset())

    def hex(self, h: Hex) -> HexInfo:
        """What the map says about on-map hex ``h``; ValueError if off the map."""
        self._on_map(h)
        attrs = dict(self._node[h])
        if attrs["town"] is not None:
            attrs["town"] = dict(attrs["town"])  # a copy: the board stays unchanged
        return HexInfo(hex=h, **attrs)

    def side(self, a: Hex, b: Hex) -> SideInfo:
        """What the map says about the hexside between ``a`` and ``b`` (either order).

        ValueError if either hex is off the map or they are not adjacent.
        """
        info = self._sides.get((a, b))
        if info is None:
            side = self.grid.hexside(a, b)
            info = SideInfo(**self._adjd[side.a][side.b])
            self._sides[(a, b)] = self._sides[(b, a)] = info
        return info

    def sides(self) -> Iterator[SideInfo]:
        """Every hexside with at least one feature, in label order."""
        for a, b in sorted(tuple(sorted((a, b))) for a, b, _ in self.edge_items()):
            info = self.side(a, b)
            if info.features:
                yield info

    def hexes(self) -> list[Hex]:
        """Every on-map hex in label order."""
        return self.grid.hexes()

    def contains(self, h: Hex) -> bool:
        """True if ``h`` is on the map."""
        return self.grid.contains(h)

    def neighbours(self, h: Hex) -> list[Hex]:
        """On-map neighbours of ``h`` (clockwise from sheet-top, see ``hexgrid``); a fresh list
        from a table filled once per hex."""
        found = self._nbrs.get(h)
        if found is None:
            found = self._nbrs[h] = tuple(self.grid.neighbours(h))
        return list(found)

    def label_neighbours(self, label: str) -> tuple[str, ...]:
        """On-map neighbours of the hex labelled ``label``, as labels in label order (a table
        filled once per hex; ValueError for a bad label). Plugins key their maps by labels."""
        found = self._label_nbrs.get(label)
        if found is None:
            found = self._label_nbrs[label] = tuple(sorted(hex_label(n) for n in
                                                           self.neighbours(parse_hex(label))))
        return found

    def neighbour_table(self) -> dict[Hex, tuple[Hex, ...]]:
        """Hex -> its neighbours in the graph's adjacency order (built once per board; read, never
        change): what the breadth-first searches of :mod:`casebook.areas.search` walk."""
        if self._adj is None:
            self._adj = {h: tuple(nbrs) for h, nbrs in self._adjd.items()}
        return self._adj

    def towns(self) -> dict[Hex, dict[str, Any]]:
        """Hex -> town dict (``name``, ``kind``, ``ip``…) for every town, in label order."""
        if self._towns is None:
            self._towns = tuple(sorted((h, a["town"]) for h, a in self._node.items() if a.get("town") is not None))
        return {h: dict(t) for h, t in self._towns}

    def edge_hexes(self, edge: str) -> list[Hex]:
        """On-map hexes on compass map edge ``edge`` (north/south/east/west), label order (a
        fresh list from a table filled once per edge; ValueError for another name)."""
        found = self._edge_hexes.get(edge)
        if found is None:
            found = self._edge_hexes[edge] = tuple(self.grid.edge_hexes(edge))
        return list(found)

    def __repr__(self) -> str:
        g = self.grid
        return f"Board({g.layout.value}, {g.describe()}, north={g.north})"
