"""Reading map data into a board (:func:`board_from_map`): :class:`BoardError` and the parsers of
each section of the map data, which record every problem with its key path instead of stopping
at the first, so the loader can turn them into ``file:line:column`` errors.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from casebook.core.board import FEATURES, Board
from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, HexSide, hex_label, parse_hex

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["board_from_map", "MAP_KEYS", "BoardError", "KeyPath", "Problems", "grid_from", "terrain", "hexsides",
           "towns", "labels", "entry_areas"]
#: The map format's own top-level keys; any other names a hex set (:class:`~casebook.core.board.Board`).
MAP_KEYS = frozenset({"kind", "format", "provenance", "layout", "north", "size", "first", "terrain",
                      "hexsides", "towns", "railheads", "entry_areas"})


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


class Problems:
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


def grid_from(data: Mapping[str, Any]) -> Grid:
    size: Any = data.get("size")
    first: Any = data.get("first") or {}
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


# -- the sections of the map data ----------------------------------------------------------------
def terrain(data: Any, grid: Grid, p: Problems) -> dict[Hex | None, str]:
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


def hexsides(data: Any, grid: Grid, graph: nx.Graph, p: Problems) -> None:
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


def _fortification(key: KeyPath, value: Any, a: Hex, b: Hex, attrs: dict, grid: Grid, p: Problems) -> None:
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


def towns(data: Any, grid: Grid, p: Problems) -> Iterator[tuple[Hex, dict[str, Any]]]:
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


def labels(values: Any, key: KeyPath, grid: Grid, p: Problems) -> Iterator[tuple[KeyPath, Hex]]:
    """Parse a list of on-map labels found at ``key``; problems recorded at ``(*key, index)``."""
    values = values or []
    if not isinstance(values, Sequence) or isinstance(values, str):
        p.add(key, f"expected a list of hex labels, got {values!r}")
        return
    for i, label in enumerate(values):
        h = p.label((*key, i), label, grid)
        if h is not None:
            yield (*key, i), h


def entry_areas(data: Any, grid: Grid, graph: nx.Graph, p: Problems) -> dict[str, frozenset[Hex]]:
    out: dict[str, frozenset[Hex]] = {}
    if not isinstance(data, Mapping):
        p.add(("entry_areas",), "expected a mapping area name -> list of hex labels")
        return out
    for name, values in data.items():
        if name == "provenance":
            continue
        area = str(name)
        hexes = {h for _, h in labels(values, ("entry_areas", name), grid, p)}
        for h in sorted(hexes):
            other = graph.nodes[h]["entry_area"]
            if other is not None:
                p.add(("entry_areas", name), f"hex {hex_label(h)} is already in entry area {other}")
            else:
                graph.nodes[h]["entry_area"] = area
        out[area] = frozenset(hexes)
    return out


def board_from_map(map_data: Mapping[str, Any]) -> Board:
    """Build a board from plain map data (``map.yaml`` schema; labels are strings).

    Keys used: ``layout``, ``size``, ``first``, ``north``, ``terrain`` (``default`` plus
    label -> terrain id), ``hexsides``, ``towns``, ``railheads``, ``entry_areas``; every
    other top-level key is a named hex set (a list of labels: the game's vocabulary
    ``hex_sets``, e.g. a capital's hexes); ``kind``/``format``/``provenance`` are ignored, as
    is ``provenance`` inside any mapping. Railheads default to the towns touching a ``rail`` hexside.
    Raises :class:`BoardError` (a ValueError) listing every problem: a bad or off-map
    label, a hexside between non-adjacent hexes, a fortification protecting neither of its
    hexes, a non-boolean feature, an unknown hexside key, a hex in two entry areas.
    """
    import networkx as nx

    grid = grid_from(map_data)
    p = Problems()
    graph = nx.Graph()
    cells = terrain(map_data.get("terrain"), grid, p)
    for h in grid.hexes():
        graph.add_node(h, terrain=cells.get(h, cells.get(None, "")), town=None, hex_sets=frozenset(),
                       railhead=False, entry_area=None, edges=grid.edges(h))
        for n in grid.neighbours(h):
            if n > h:
                graph.add_edge(h, n, side=HexSide(h, n), fortification=None,
                               **{f: False for f in FEATURES})
    hexsides(map_data.get("hexsides") or [], grid, graph, p)
    for h, town in towns(map_data.get("towns") or {}, grid, p):
        graph.nodes[h]["town"] = town
    for name in map_data:
        if name not in MAP_KEYS:
            for _, h in labels(map_data[name], (name,), grid, p):
                graph.nodes[h]["hex_sets"] = graph.nodes[h]["hex_sets"] | {name}
    if "railheads" in map_data and map_data["railheads"] is not None:
        for _, h in labels(map_data["railheads"], ("railheads",), grid, p):
            graph.nodes[h]["railhead"] = True
    else:
        for h, town in graph.nodes(data="town"):
            if town is not None and any(graph.edges[h, n]["rail"] for n in graph[h]):
                graph.nodes[h]["railhead"] = True
    areas = entry_areas(map_data.get("entry_areas") or {}, grid, graph, p)
    if p.items:
        raise BoardError(p.items)
    return Board(grid, nx.freeze(graph), areas)
