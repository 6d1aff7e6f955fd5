"""The board: a map's hexes and hexsides as a read-only networkx graph with typed views.

:meth:`Board.from_map` takes the plain data of a map (the ``map.yaml`` section of
``docs/content-format.md``, or the inline ``map:`` of a position) and builds:

- ``board.grid`` — the :class:`~casebook.kernel.hexgrid.Grid` (layout, size, first numbers, north);
- ``board.graph`` — a frozen :class:`networkx.Graph` whose nodes are the on-map :class:`Hex` es and
  whose edges are *every* pair of adjacent on-map hexes (a hexside), with attributes:

  node: ``terrain`` (str, a terrain id), ``town`` (dict with ``name``/``kind``/``ip`` or None),
  ``moscow`` (bool), ``railhead`` (bool), ``entry_area`` (str or None), ``edges`` (frozenset of
  compass map edges, e.g. ``{"north", "west"}``);

  edge: ``river``, ``major_river``, ``road``, ``trail``, ``rail``, ``canal`` (bool),
  ``fortification`` (the :class:`Hex` a printed, faced fortification protects, or None) and
  ``side`` (the :class:`HexSide`).

The kernel gives these features no meaning; the rules (TEC, movement, combat) do.
Bad map data raises :class:`BoardError` (a ValueError) listing every problem at once, each with
the key path inside the map data (``hexsides.3.hexes``) so the loader can turn it into
``file:line:column`` errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from .hexgrid import Grid, Hex, HexSide, hex_label, parse_hex

__all__ = ["FEATURES", "HexInfo", "SideInfo", "Board", "BoardError"]

FEATURES: tuple[str, ...] = ("river", "major_river", "road", "trail", "rail", "canal")
"""Boolean hexside features a map may declare."""

_SIDE_KEYS = frozenset(FEATURES) | {"hexes", "fortification", "provenance"}


KeyPath = tuple  # tuple[str | int, ...]: mapping keys and list indices, as in kernel.yamlio


class BoardError(ValueError):
    """Map data that cannot make a board; lists every problem found.

    ``paths`` is a tuple of ``(key_path, message)`` with ``key_path`` a tuple of mapping keys and
    list indices inside the map data (``("hexsides", 3, "hexes")``, for ``YamlDoc.problem``);
    ``problems`` is the same with the path dotted (``"hexsides.3.hexes"``).
    """

    def __init__(self, paths: Sequence[tuple[KeyPath, str]]) -> None:
        self.paths: tuple[tuple[KeyPath, str], ...] = tuple((tuple(k), m) for k, m in paths)
        self.problems: tuple[tuple[str, str], ...] = tuple(
            (".".join(str(x) for x in k), m) for k, m in self.paths
        )
        lines = [f"{k}: {m}" if k else m for k, m in self.problems]
        n = len(lines)
        super().__init__(f"{n} problem{'s' if n != 1 else ''} in map data:\n  " + "\n  ".join(lines))


@dataclass(frozen=True)
class HexInfo:
    """Everything the map says about one hex (node attributes of ``board.graph``).

    ``town`` is a dict (``name``, ``kind``, ``ip`` in IPs, …) or None; it is left out of hashing.
    ``edges`` are the compass map edges the hex lies on.
    """

    hex: Hex
    terrain: str
    town: Mapping[str, Any] | None = field(default=None, hash=False)
    moscow: bool = False
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


class _Problems:
    def __init__(self) -> None:
        self.items: list[tuple[KeyPath, str]] = []

    def add(self, key: KeyPath, message: str) -> None:
        self.items.append((key, message))

    def label(self, key: KeyPath, value: Any, grid: Grid) -> Hex | None:
        """Parse an on-map hex label, or record a problem and return None."""
        try:
            h = parse_hex(value)
        except ValueError as exc:
            self.add(key, str(exc))
            return None
        if not grid.contains(h):
            self.add(key, f"hex {value} is off the map ({grid.describe()})")
            return None
        return h


def _grid_from(data: Mapping[str, Any]) -> Grid:
    size = data.get("size")
    first = data.get("first") or {}
    problems: list[tuple[KeyPath, str]] = []
    if not isinstance(size, Mapping):
        problems.append((("size",), "expected a mapping {columns: <int>, rows: <int>}"))
    if not isinstance(first, Mapping):
        problems.append((("first",), "expected a mapping {column: <int>, row: <int>}"))
    if "layout" not in data:
        problems.append((("layout",), "missing; expected one of the hex layouts, e.g. flat-top-even-q"))
    if problems:
        raise BoardError(problems)
    try:
        return Grid(
            layout=data["layout"],
            columns=size.get("columns"),
            rows=size.get("rows"),
            first_col=first.get("column", 1),
            first_row=first.get("row", 1),
            north=data.get("north", "up"),
        )
    except ValueError as exc:
        key = "layout" if "layout" in str(exc) else "north" if "north" in str(exc) else "size"
        raise BoardError([((key,), str(exc))]) from None


class Board:
    """A loaded map. Build it with :meth:`from_map`; read it through :meth:`hex`, :meth:`side`,
    :meth:`towns`, :attr:`moscow`, :attr:`railheads`, :attr:`entry_areas`, :meth:`edge_hexes`
    or the frozen :attr:`graph` directly."""

    def __init__(self, grid: Grid, graph: nx.Graph, entry_areas: Mapping[str, frozenset[Hex]]) -> None:
        self.grid: Grid = grid
        self.graph: nx.Graph = graph
        self.entry_areas: dict[str, frozenset[Hex]] = dict(entry_areas)
        nodes = graph.nodes
        self.moscow: frozenset[Hex] = frozenset(h for h in nodes if nodes[h]["moscow"])
        self.railheads: frozenset[Hex] = frozenset(h for h in nodes if nodes[h]["railhead"])
        # geometry tables, filled once per board (the board is read-only): on-map neighbours of
        # a hex, the SideInfo of an ordered pair, and the same by printed labels
        self._nbrs: dict[Hex, tuple[Hex, ...]] = {}
        self._sides: dict[tuple[Hex, Hex], SideInfo] = {}
        self._label_nbrs: dict[str, tuple[str, ...]] = {}
        self._edge_hexes: dict[str, tuple[Hex, ...]] = {}
        self._towns: tuple[tuple[Hex, Mapping[str, Any]], ...] | None = None
        self._adj: dict[Hex, tuple[Hex, ...]] | None = None

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_map(cls, map_data: Mapping[str, Any]) -> Board:
        """Build a board from plain map data (``map.yaml`` schema; labels are strings).

        Keys used: ``layout``, ``size``, ``first``, ``north``, ``terrain`` (``default`` plus
        label -> terrain id), ``hexsides``, ``towns``, ``moscow``, ``railheads``,
        ``entry_areas``; ``kind``/``format``/``provenance`` are ignored, as is ``provenance``
        inside any mapping. Railheads default to the towns touching a ``rail`` hexside.
        Raises :class:`BoardError` (a ValueError) listing every problem: a bad or off-map
        label, a hexside between non-adjacent hexes, a fortification protecting neither of its
        hexes, a non-boolean feature, an unknown hexside key, a hex in two entry areas.
        """
        grid = _grid_from(map_data)
        p = _Problems()
        graph = nx.Graph()
        terrain = _terrain(map_data.get("terrain"), grid, p)
        for h in grid.hexes():
            graph.add_node(h, terrain=terrain.get(h, terrain.get(None, "")), town=None, moscow=False,
                           railhead=False, entry_area=None, edges=grid.edges(h))
            for n in grid.neighbours(h):
                if n > h:
                    graph.add_edge(h, n, side=HexSide(h, n), fortification=None,
                                   **{f: False for f in FEATURES})
        _hexsides(map_data.get("hexsides") or [], grid, graph, p)
        for h, town in _towns(map_data.get("towns") or {}, grid, p):
            graph.nodes[h]["town"] = town
        for _, h in _labels(map_data.get("moscow"), ("moscow",), grid, p):
            graph.nodes[h]["moscow"] = True
        if "railheads" in map_data and map_data["railheads"] is not None:
            for _, h in _labels(map_data["railheads"], ("railheads",), grid, p):
                graph.nodes[h]["railhead"] = True
        else:
            for h, town in graph.nodes(data="town"):
                if town is not None and any(graph.edges[h, n]["rail"] for n in graph[h]):
                    graph.nodes[h]["railhead"] = True
        areas = _entry_areas(map_data.get("entry_areas") or {}, grid, graph, p)
        if p.items:
            raise BoardError(p.items)
        return cls(grid, nx.freeze(graph), areas)

    # -- views ----------------------------------------------------------------------------------
    def _on_map(self, h: Hex) -> None:
        if not self.grid.contains(h):
            raise ValueError(f"hex {h} is off the map ({self.grid.describe()})")

    def hex(self, h: Hex) -> HexInfo:
        """What the map says about on-map hex ``h``; ValueError if off the map."""
        self._on_map(h)
        attrs = dict(self.graph.nodes[h])
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
            info = SideInfo(**self.graph.edges[side.a, side.b])
            self._sides[(a, b)] = self._sides[(b, a)] = info
        return info

    def sides(self) -> Iterator[SideInfo]:
        """Every hexside with at least one feature, in label order."""
        for a, b in sorted(tuple(sorted(e)) for e in self.graph.edges):
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

    def paths_within(self, start: Hex, radius: int, closed: Iterable[Hex] = ()) -> dict[Hex, list[Hex]]:
        """Shortest hex paths from ``start`` to every hex within ``radius`` hexes that avoid the
        ``closed`` hexes (``start`` itself is never closed): one breadth-first search, the very
        one of ``networkx.single_source_shortest_path`` on ``restricted_view(graph, closed)``
        (same paths, same order; run on the board's adjacency table, without the view's
        per-edge filters). networkx.NodeNotFound if ``start`` is off the map."""
        if start not in self.graph:
            raise nx.NodeNotFound(f"Source {start} not in G")
        adj = self._adjacency()
        shut = set(closed)
        shut.discard(start)
        paths: dict[Hex, list[Hex]] = {start: [start]}
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

    def _adjacency(self) -> dict[Hex, tuple[Hex, ...]]:
        """Hex -> its neighbours in the graph's adjacency order (built once per board)."""
        if self._adj is None:
            self._adj = {h: tuple(self.graph.adj[h]) for h in self.graph}
        return self._adj

    def path_within(self, reach: Mapping[Hex, list[Hex]], target: Hex, radius: int) -> list[Hex] | None:
        """The path to ``target`` from a :meth:`paths_within` result, or — when ``target`` itself
        is closed — through its nearest reachable neighbour, if that stays within ``radius``
        hexes; None if there is none."""
        if target in reach:
            return reach[target]
        best: list[Hex] | None = None
        for n in sorted(self.graph.neighbors(target)):
            path = reach.get(n)
            if path is not None and len(path) <= radius and (best is None or len(path) + 1 < len(best)):
                best = path + [target]
        return best

    def towns(self) -> dict[Hex, dict[str, Any]]:
        """Hex -> town dict (``name``, ``kind``, ``ip``…) for every town, in label order."""
        if self._towns is None:
            self._towns = tuple(sorted((h, t) for h, t in self.graph.nodes(data="town") if t is not None))
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


# -- parsing helpers ----------------------------------------------------------------------------
def _terrain(data: Any, grid: Grid, p: _Problems) -> dict[Hex | None, str]:
    """Hex -> terrain id, with the default under key None."""
    out: dict[Hex | None, str] = {}
    if not isinstance(data, Mapping) or not isinstance(data.get("default"), str):
        p.add(("terrain", "default") if isinstance(data, Mapping) else ("terrain",),
              "expected a mapping with `default: <terrain id>` and label: <terrain id> entries")
        return out
    for key, value in data.items():
        if key == "provenance":
            continue
        if key == "default":
            out[None] = value
            continue
        h = p.label(("terrain", key), key, grid)
        if h is None:
            continue
        if not isinstance(value, str):
            p.add(("terrain", key), f"expected a terrain id (string), got {value!r}")
            continue
        out[h] = value
    return out


def _hexsides(data: Any, grid: Grid, graph: nx.Graph, p: _Problems) -> None:
    if not isinstance(data, Sequence) or isinstance(data, str):
        p.add(("hexsides",), "expected a list of {hexes: [<label>, <label>], <feature>: true, ...}")
        return
    for i, entry in enumerate(data):
        key = ("hexsides", i)
        if not isinstance(entry, Mapping):
            p.add(key, "expected a mapping {hexes: [<label>, <label>], <feature>: true, ...}")
            continue
        for k in entry:
            if k not in _SIDE_KEYS:
                p.add((*key, k), f"unknown hexside key {k!r}; expected one of {', '.join(sorted(_SIDE_KEYS))}")
        pair = entry.get("hexes")
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            p.add((*key, "hexes"), f"expected two hex labels, got {pair!r}")
            continue
        a = p.label((*key, "hexes", 0), pair[0], grid)
        b = p.label((*key, "hexes", 1), pair[1], grid)
        if a is None or b is None:
            continue
        if grid.distance(a, b) != 1:
            p.add((*key, "hexes"), f"hexes {pair[0]} and {pair[1]} are not adjacent, so they share no hexside")
            continue
        attrs = graph.edges[a, b]
        for f in FEATURES:
            if f in entry:
                if not isinstance(entry[f], bool):
                    p.add((*key, f), f"expected true or false, got {entry[f]!r}")
                elif entry[f]:
                    attrs[f] = True
        if entry.get("fortification") is not None:  # None: none (as a schema model dumps it)
            _fortification((*key, "fortification"), entry["fortification"], a, b, attrs, grid, p)


def _fortification(key: KeyPath, value: Any, a: Hex, b: Hex, attrs: dict, grid: Grid, p: _Problems) -> None:
    if not isinstance(value, Mapping) or "protects" not in value:
        p.add(key, f"expected {{protects: <label>}}, got {value!r}")
        return
    h = p.label((*key, "protects"), value["protects"], grid)
    if h is None:
        return
    if h not in (a, b):
        p.add((*key, "protects"), f"a fortification on hexside {hex_label(a)}/{hex_label(b)} "
                                 f"must protect one of its two hexes, not {value['protects']}")
    elif attrs["fortification"] not in (None, h):
        p.add((*key, "protects"), f"hexside {hex_label(a)}/{hex_label(b)} already has a fortification "
                                 f"protecting {hex_label(attrs['fortification'])}")
    else:
        attrs["fortification"] = h


def _towns(data: Any, grid: Grid, p: _Problems) -> Iterator[tuple[Hex, dict[str, Any]]]:
    if not isinstance(data, Mapping):
        p.add(("towns",), "expected a mapping label -> {name, kind, ip}")
        return
    for label, town in data.items():
        if label == "provenance":
            continue
        key = ("towns", label)
        h = p.label(key, label, grid)
        if h is None:
            continue
        if not isinstance(town, Mapping) or not isinstance(town.get("name"), str):
            p.add(key, f"expected a mapping {{name, kind, ip}}, got {town!r}")
            continue
        yield h, {k: v for k, v in town.items() if k != "provenance"}


def _labels(values: Any, key: KeyPath, grid: Grid, p: _Problems) -> Iterator[tuple[KeyPath, Hex]]:
    """Parse a list of on-map labels found at ``key``; problems recorded at ``(*key, index)``."""
    values = values or []
    if not isinstance(values, Sequence) or isinstance(values, str):
        p.add(key, f"expected a list of hex labels, got {values!r}")
        return
    for i, label in enumerate(values):
        h = p.label((*key, i), label, grid)
        if h is not None:
            yield (*key, i), h


def _entry_areas(data: Any, grid: Grid, graph: nx.Graph, p: _Problems) -> dict[str, frozenset[Hex]]:
    out: dict[str, frozenset[Hex]] = {}
    if not isinstance(data, Mapping):
        p.add(("entry_areas",), "expected a mapping area name -> list of hex labels")
        return out
    for name, labels in data.items():
        if name == "provenance":
            continue
        area = str(name)
        hexes = {h for _, h in _labels(labels, ("entry_areas", name), grid, p)}
        for h in sorted(hexes):
            other = graph.nodes[h]["entry_area"]
            if other is not None:
                p.add(("entry_areas", name), f"hex {hex_label(h)} is already in entry area {other}")
            else:
                graph.nodes[h]["entry_area"] = area
        out[area] = frozenset(hexes)
    return out
