"""Spatial terms of the rule language: records within N hexes, the distance to the nearest
matching record, the terrain and town kind of a hex, ``own`` / ``enemy`` units.

Compiled by :class:`SpatialTerms`, a part of :class:`casebook.script.exprs.ExprCompiler`:

- ``count(map_units within 5 of target having enemy)``, ``any map_unit within 1 has …`` — only
  the records whose ``hex`` field is at most the radius from the origin (default: the
  evaluation's ``hex`` fact);
- ``distance to nearest(map_units having side is german from target)`` — hexes from the origin to
  the nearest matching record's hex, :data:`FAR` when none matches (so ``<= 5`` is false);
- ``terrain(h)``, ``town(h)`` (the town's kind, ``none`` where there is no town), ``town_name(h)``, ``distance(a, b)``;
- inside a record that has a ``side`` field, ``own`` / ``enemy``: the record's side is / is not
  the evaluation's ``side`` fact (else the phasing side).

Distances are counted on the game's map (:class:`casebook.core.board.Board`, given by the engine
with the standard facts), through any terrain and units. The nearest search sorts the matching
hexes once per state version and per value of the facts the condition reads, then walks them
from the origin along the axis one hex step changes by at most one: exact. A question asked of
every hex of the map (paratroop targets, partisan placements) asks it of one set of matching hexes
hundreds of times: past :data:`FIELD_AFTER` searches the distances of the whole map are found at
once (:func:`distance_field`) and looked up.
"""

from __future__ import annotations

import bisect
import weakref
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from casebook.core.hexgrid import Hex, parse_hex, to_cube

from . import ast as A
from .facts import FactType
from .standard import keep

__all__ = ["FAR", "FIELD_AFTER", "SpatialTerms", "distance_field", "grid_cubes", "hex_facts"]

#: The distance to the nearest of nothing: farther than any map.
FAR = 999
#: Nearest searches of one set of matching hexes (one state version) after which the distances
#: of the whole map are found at once (about the cost of that many searches) and looked up.
FIELD_AFTER = 200
#: the six steps of the cube lattice, as (dq, dr)
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def distance_field(sources: Iterable[tuple[int, int]],
                   box: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Hexes from every cell of the cube lattice inside the box of ``box`` and ``sources`` (all
    cube coordinates ``(q, r)``) to the nearest of ``sources``: the grid's hex distance
    (:func:`casebook.core.hexgrid.distance`), through any terrain. Empty without sources.

    One breadth-first search from all sources at once, kept inside the box of the q, r and s
    coordinates: that box is convex on the lattice, and between two of its cells a shortest line
    changes each coordinate monotonically, so it stays inside — the distances are exact."""
    field = {c: 0 for c in sources}
    if not field:
        return field
    cells = [*box, *field]
    lo_q, hi_q = min(q for q, _ in cells), max(q for q, _ in cells)
    lo_r, hi_r = min(r for _, r in cells), max(r for _, r in cells)
    lo_s, hi_s = min(-q - r for q, r in cells), max(-q - r for q, r in cells)
    frontier = list(field)
    steps = 0
    while frontier:
        steps += 1
        nxt = []
        for q, r in frontier:
            for dq, dr in _STEPS:
                n = (q + dq, r + dr)
                if (n not in field and lo_q <= n[0] <= hi_q and lo_r <= n[1] <= hi_r
                        and lo_s <= -n[0] - n[1] <= hi_s):
                    field[n] = steps
                    nxt.append(n)
        frontier = nxt
    return field


@lru_cache(maxsize=16)
def grid_cubes(grid: Any) -> tuple[tuple[int, int], ...]:
    """The cube coordinates ``(q, r)`` of every hex of ``grid`` (a hexgrid.Grid)."""
    return tuple((c.q, c.r) for c in (to_cube(h, grid.layout) for h in grid.hexes()))

_HEX_FUNCTIONS = ("terrain", "town", "town_name", "distance")


@lru_cache(maxsize=8192)
def _hex(label: str) -> Hex:
    return parse_hex(label)


def _board(e: Any, loc: A.Loc) -> Any:
    board = getattr(e.std, "board", None)
    if board is None:
        from .values import MissingFactError

        raise MissingFactError(f"a spatial term needs the game's map ({loc})")
    return board


#: board -> {hex label: (terrain, town name, town kind)}: what the map says of each hex asked,
#: read once per board (a board never changes; a rule line may ask it of every unit after every action)
_HEX_FACTS: weakref.WeakKeyDictionary[Any, dict[str, tuple[str, str, str]]] = weakref.WeakKeyDictionary()


def hex_facts(board: Any) -> dict[str, tuple[str, str, str]]:
    """The cache of ``terrain(h)``, ``town_name(h)`` and ``town(h)`` for ``board``: hex label ->
    ``(terrain, town name or "", town kind or "none")``, filled as hexes are asked."""
    known = _HEX_FACTS.get(board)
    if known is None:
        known = _HEX_FACTS[board] = {}
    return known


def _hex_facts(hi: Any) -> tuple[str, str, str]:
    """``(terrain, town name, town kind)`` of a :class:`casebook.core.board.HexInfo`."""
    if not hi.town:
        return (hi.terrain, "", "none")
    return (hi.terrain, str(hi.town.get("name", "")), hi.town.get("kind", "town"))


def _blank(t: FactType) -> Any:
    """The value of a record field a unit or hex does not carry."""
    if t.has_default:
        return t.default
    return {"int": 0, "bool": False}.get(t.kind, "none" if "none" in t.values else "")


def _side_of(e: Any) -> Any:
    try:
        return e.facts["side"]
    except KeyError:
        if e.std is not None:
            try:
                return e.std["phasing_side"]
            except KeyError:
                pass
    from .values import MissingFactError

    raise MissingFactError("`own` / `enemy` need the fact `side` (or a phasing side)") from None


class SpatialTerms:
    """Compile methods of the spatial terms (a base of ``ExprCompiler``, which provides
    ``schema``, ``reads``, ``error``, ``compile``, ``condition``, ``number`` and ``_collection``)."""

    schema: Any
    reads: list[Any]

    # -- collections ---------------------------------------------------------------------------
    def records_fn(self, coll: str, t: FactType, within: A.Within | None, record: FactType | None,
                   loc: A.Loc) -> Any:
        """``fn(e, r) -> records`` of collection ``coll``: the caller's, else the engine's
        (``provider: engine``), filtered by ``within`` (hexes from an origin)."""
        from .values import MissingFactError

        if t.provider == "engine":
            fields = tuple((f, _blank(ft)) for f, ft in t.fields.items())

            def source(e: Any, r: Any) -> Any:
                try:
                    return e.facts[coll]
                except KeyError:
                    pass
                if e.std is None or not hasattr(e.std, "records"):
                    raise MissingFactError(f"collection `{coll}` needs the game ({loc})") from None
                return e.std.records(coll, fields)
            source.engine = (coll, fields)  # type: ignore[attr-defined]  # any/all/no may read the units (speed only)
        else:
            def source(e: Any, r: Any) -> Any:
                return e.facts[coll]
            source.plain = coll  # type: ignore[attr-defined]  # read inline by any/all/no (speed only)
        if within is None:
            return source
        self._need_hex(coll, t, loc)
        radius = self.number(within.radius, record).fn  # type: ignore[attr-defined]
        origin = self._origin(within.origin, record, within.loc)

        def near(e: Any, r: Any) -> list[Any]:
            grid = _board(e, loc).grid
            o, n = _hex(origin(e, r)), radius(e, r)
            return [x for x in source(e, r) if grid.distance(o, _hex(x["hex"])) <= n]
        return near

    def _need_hex(self, coll: str, t: FactType, loc: A.Loc) -> None:
        if "hex" not in t.fields:
            self.error(loc, f"`{coll}` has no `hex` field: spatial terms need one", len(coll))  # type: ignore[attr-defined]

    def _origin(self, node: A.Expr | None, record: FactType | None, loc: A.Loc) -> Any:
        """The hex label an origin expression gives (default: the fact ``hex``)."""
        c = self.compile(node if node is not None else A.Name("hex", loc), record)  # type: ignore[attr-defined]
        if c.type.kind not in ("str", "enum", "any"):
            self.error(loc, "a hex is needed here (a hex label such as `hex` or `target`)")  # type: ignore[attr-defined]
        return c.fn

    # -- distance to nearest -------------------------------------------------------------------
    def _nearest(self, node: A.Nearest, record: FactType | None, expect: Any) -> Any:
        from .values import NUM, Compiled, _const

        found = self._collection(node.collection, node.loc)  # type: ignore[attr-defined]
        if found is None:
            return _const(FAR, NUM)
        coll, t = found
        self._need_hex(coll, t, node.loc)
        source = self.records_fn(coll, t, None, record, node.loc)
        before = len(self.reads)
        cond = self.condition(node.where, t).fn if node.where is not None else None  # type: ignore[attr-defined]
        keyed = tuple(sorted({fact for _, fact, _ in self.reads[before:]}))
        relative = node.where is not None and _mentions(node.where, ("own", "enemy"))
        origin = self._origin(node.origin, record, node.loc)
        ident = (node.loc.file, node.loc.line, node.loc.column)

        def matching(e: Any, r: Any, grid: Any) -> tuple[list[int], list[tuple[int, int]], list[Any]]:
            key: Any = None
            shared = getattr(e.std, "cache", None)  # one entry per state version in it (keep: bounded)
            cache: dict[Any, Any] | None = None
            if shared is not None:
                version = ("nearest", e.std.version)
                cache = shared.get(version)
                if cache is None:
                    cache = keep(shared, version, {})
                try:
                    key = (ident, tuple(e.facts.get(f) for f in keyed), _side_of(e) if relative else None)
                    hit = cache.get(key)
                    if hit is not None:
                        return hit
                except TypeError:  # a fact that cannot be a key: no cache
                    key = None
            flat = grid.layout.flat
            hexes = sorted({_hex(x["hex"]) for x in source(e, r) if cond is None or cond(e, x)},
                           key=lambda h: (h.col, h.row) if flat else (h.row, h.col))
            # each hex as its cube coordinates (q, r): the distance is hexgrid.distance's, inlined
            # and [searches so far, the distance field once built] (FIELD_AFTER)
            out = ([h.col if flat else h.row for h in hexes],
                   [(c.q, c.r) for c in (to_cube(h, grid.layout) for h in hexes)], [0, None])
            if key is not None and cache is not None:
                cache[key] = out
            return out

        def nearest(e: Any, r: Any) -> int:
            grid = _board(e, node.loc).grid
            coords, cubes, lazy = matching(e, r, grid)
            h = _hex(origin(e, r))
            c = to_cube(h, grid.layout)
            oq, orr = c.q, c.r
            lazy[0] += 1
            if lazy[1] is None and lazy[0] > FIELD_AFTER:
                lazy[1] = distance_field(cubes, grid_cubes(grid))
            if lazy[1] is not None:
                found = lazy[1].get((oq, orr))
                if found is not None:
                    return found
            here = h.col if grid.layout.flat else h.row
            best = FAR
            right = bisect.bisect_left(coords, here)
            left = right - 1
            while left >= 0 or right < len(coords):  # a step changes the axis by at most one
                gap_l = here - coords[left] if left >= 0 else FAR
                gap_r = coords[right] - here if right < len(coords) else FAR
                if min(gap_l, gap_r) >= best:
                    break
                if gap_l <= gap_r:
                    q, rr = cubes[left]
                    left -= 1
                else:
                    q, rr = cubes[right]
                    right += 1
                dq, dr = oq - q, orr - rr
                best = min(best, max(abs(dq), abs(dr), abs(dq + dr)))
            return best
        return Compiled(nearest, NUM)

    # -- hex functions and own/enemy -----------------------------------------------------------
    def hex_function(self, node: A.Call, record: FactType | None) -> Any:
        """``terrain(h)``, ``town(h)``, ``town_name(h)`` (the map's name of its town, ``""``
        where there is none), ``distance(a, b)``; ``None`` for another function."""
        from .values import NUM, STR, Compiled, MissingFactError

        if node.fn not in _HEX_FUNCTIONS:
            return None
        want = 2 if node.fn == "distance" else 1
        if len(node.args) != want:
            self.error(node.loc, f"`{node.fn}` takes {want} hex{'es' if want > 1 else ''}", len(node.fn))  # type: ignore[attr-defined]
        args = [self._origin(a, record, node.loc) for a in node.args[:want]]
        while len(args) < want:
            args.append(lambda e, r: "")
        loc = node.loc
        if node.fn == "distance":
            fa, fb = args

            def dist(e: Any, r: Any) -> int:
                return int(_board(e, loc).grid.distance(_hex(fa(e, r)), _hex(fb(e, r))))
            return Compiled(dist, NUM)
        hexes = self.schema.collection("map_hexes")
        field = node.fn
        vtype = STR if field == "town_name" else (hexes[1].fields.get(field, STR) if hexes is not None else STR)
        f = args[0]

        pick = ("terrain", "town_name", "town").index(field)

        def info(e: Any, r: Any) -> Any:
            label = f(e, r)
            known = getattr(e.std, "hexes", None)  # the standard facts hold the board's cache
            if known is None:
                known = hex_facts(_board(e, loc))
            found = known.get(label)
            if found is None:
                try:
                    found = known[label] = _hex_facts(_board(e, loc).hex(_hex(label)))
                except ValueError:
                    raise MissingFactError(f"hex {label!r} is not on the map ({loc})") from None
            return found[pick]
        return Compiled(info, vtype)

    def side_relative(self, n: str, record: FactType | None) -> Any:
        """``own`` / ``enemy`` inside a record with a ``side`` field; ``None`` otherwise."""
        from .values import BOOL, Compiled

        if record is None or n not in ("own", "enemy") or n in record.fields or "side" not in record.fields:
            return None
        if n == "own":
            return Compiled(lambda e, r: r["side"] == _side_of(e), BOOL)
        return Compiled(lambda e, r: r["side"] != _side_of(e), BOOL)


def _mentions(node: Any, names: tuple[str, ...]) -> bool:
    """Whether the expression ``node`` contains a bare name among ``names``."""
    if isinstance(node, A.Name):
        return node.id in names
    if isinstance(node, tuple):
        return any(_mentions(x, names) for x in node)
    fields = getattr(node, "__dataclass_fields__", None)
    if not fields:
        return False
    return any(_mentions(getattr(node, f), names) for f in fields if f != "loc")
