"""MP costs from a game's Terrain Effects Chart, and the enemy hexes and ZOCs a moving stack
meets — a module of the shared areas' API (not a plugin): a game's movement plugin calls it
(e.g. Moscow '41's), and the supply paths read the same costs through the game's
``casebook_move_cost`` answer. It holds no case id and no number: every cost is the game's
quantity ``move_cost``, every column and verdict the game's lines and tables.

What it reads of the game (its vocabulary):

- quantity ``move_cost`` with facts ``ground``, ``temperature``, ``hex_terrain`` (a town's kind
  replaces the hex's terrain), ``hexside_feature`` (``none`` or the board's hexside feature
  crossed), ``move_class`` (the chart row), ``fluid_ezoc_to_ezoc``, ``zoc_effects`` (how many
  enemy ZOCs a fluid step EZOC to EZOC is charged for) and ``overrun``;
- quantity ``tec_column`` (fact ``ground``): the chart column whose prohibited cells apply;
- records table ``tec_prohibited`` (``feature``, ``unit``, ``column``): terrain or hexside
  features a chart row may not enter or cross in a column, whatever the MPs;
- setting ``road_bridges`` (``bridged``: a road through a hexside also bridges its river);
- quantity ``zoc_column`` (fact ``ground``) and table ``zoc_chart`` (``unit``, ``weather``):
  the ZOC treatment of a chart row (``locking``, ``fluid`` or ``none``), the Arctic column
  whenever the temperature is ``arctic``;
- permission ``exert_zoc`` (facts ``temperature``, ``unit_class``) where no ZOC area answers;
- permission ``add_zoc_effects`` (no facts): allowed, a fluid step EZOC to EZOC is charged once
  per enemy unit exerting a ZOC into the hex entered; forbidden, once (e.g. Moscow '41 7.0F).

A stack's cost to enter a hex is that of its slowest row, by the cheapest way in: the hex's
terrain, or a road or trail through the hexside crossed. Costs are cached per context
(``ctx.memo``) and across changes by the weather and settings they depend on (``ctx.lasting``).
A step's cost cites the chart cells of the way taken only (an ``ask`` answer's table lines, a
play event's ``lines``), kept with it: not those of the ways it did not take.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from casebook.content.tablelines import cells_read, cite_again, read_line
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.script.factlines import lend, lines_of

from ._zoc_chart import kind_in_effect
from ._zoc_cites import note_binding

__all__ = ["FEATURE_ORDER", "weather", "entry_ways", "cell_cost", "step_cost", "step_table", "table_row",
           "enemy_hexes", "ezoc_map", "zoc_lines", "ezoc", "zoc_lookup", "kept_search", "zoc_treatment",
           "fluid_binding", "zoc_effects", "added_fluid_cost"]

#: The board's hexside features a crossing cost is looked up for (core.board.FEATURES), the
#: one charged last when a hexside has more than one.
FEATURE_ORDER = ("river", "canal", "major_river")
_ZOC_RANK = {"none": 0, "fluid": 1, "locking": 2}
_NO_EZOC: frozenset[str] = frozenset()


def weather(ctx: Any) -> tuple[str, str]:
    """``(temperature, ground)`` in force; ``warm``/``dry`` when the position has no weather yet."""
    w = ctx.state.weather or {}
    return w.get("temperature", "warm"), w.get("ground", "dry")


def _kept(ctx: Any, name: str) -> dict[Any, Any]:
    """The lasting cache ``name`` for what the MP costs depend on — the weather (cells, steps)
    and the setting ``road_bridges`` (ways in, steps) — found once per state version."""
    memo = ctx.memo
    found = memo.get(("terrain_costs.kept", name))
    if found is None:
        bridges = ctx.state.setting("road_bridges", "bridged")
        deps = {"terrain_costs.cell": weather(ctx), "terrain_costs.ways": (bridges,),
                "terrain_costs.step": (*weather(ctx), bridges)}[name]
        found = memo[("terrain_costs.kept", name)] = ctx.lasting(name, *deps, pause=False)  # read through kept
    return found


def _column(ctx: Any) -> str:
    # per state version, the line noted at every read
    return ctx.memo_kept("terrain_costs.tec_column", lambda: ctx.value("tec_column", {"ground": weather(ctx)[1]}))


def _prohibited(ctx: Any) -> frozenset[tuple[str, str, str]]:
    key = "terrain_costs.prohibited"
    if key not in ctx.memo:
        ctx.memo[key] = frozenset((r["feature"], r["unit"], r["column"]) for r in ctx.records("tec_prohibited"))
    return ctx.memo[key]


def cell_cost(ctx: Any, cls: str, terrain: str, feature: str | None, *, fluid: bool | int = False,
              overrun: bool = False) -> int | None:
    """MP for chart row ``cls`` to enter ``terrain`` across hexside ``feature`` (or None): the
    game's ``move_cost``; None where ``tec_prohibited`` lists the terrain or the feature for
    the row in the column in force. ``fluid``: a fluid step EZOC to EZOC charged for that many
    enemy ZOCs (fact ``zoc_effects``; True: one, :func:`zoc_effects`)."""
    key = (cls, terrain, feature, fluid, overrun)
    return ctx.kept(_kept(ctx, "terrain_costs.cell"), key,
                    lambda: _cell_cost(ctx, cls, terrain, feature, fluid, overrun))


def _cell_cost(ctx: Any, cls: str, terrain: str, feature: str | None, fluid: bool | int, overrun: bool) -> int | None:
    temperature, ground = weather(ctx)
    column, by = lines_of(ctx, lambda: _column(ctx))
    bad = _prohibited(ctx)
    if (terrain, cls, column) in bad or (feature is not None and (feature, cls, column) in bad):
        return None
    facts = {"ground": ground, "temperature": temperature, "hex_terrain": terrain,
             "hexside_feature": feature or "none", "move_class": cls,
             "fluid_ezoc_to_ezoc": bool(fluid), "zoc_effects": int(fluid) or 1, "overrun": overrun}
    cost, priced = lines_of(ctx, lambda: int(ctx.value("move_cost", facts)))
    lend(ctx, by, priced)  # the TEC column's line decides through the cell's lookup line only (issue #15)
    return cost


def entry_ways(ctx: Any, a: str, b: str) -> list[tuple[str, str | None, str]]:
    """``(terrain, feature, via)`` for each way to enter ``b`` from adjacent ``a``: the hex's
    own terrain (a town's kind replaces it) across the hexside's feature (``via`` "terrain"),
    a road (its feature bridged under setting ``road_bridges: bridged``) or a trail through the
    hexside. ValueError if the hexes are not adjacent."""
    memo = _kept(ctx, "terrain_costs.ways")
    key = (a, b)
    if key in memo:
        return memo[key]
    ha, hb = parse_hex(a), parse_hex(b)
    side = ctx.board.side(ha, hb)
    node = ctx.board.node(hb)
    town = node.get("town")
    terrain = town.get("kind", "town") if town else node["terrain"]
    feats = [f for f in FEATURE_ORDER if getattr(side, f)]
    feature = feats[-1] if feats else None
    out = [(terrain, feature, "terrain")]
    if side.road:
        bridged = ctx.state.setting("road_bridges", "bridged") == "bridged"
        out.append(("road", None if bridged else feature, "road"))
    if side.trail:
        out.append(("trail", feature, "trail"))
    memo[key] = out
    return out


def step_cost(ctx: Any, classes: frozenset[str], a: str, b: str, *, fluid: bool | int = False,
              overrun: bool = False) -> tuple[int | None, str, str | None]:
    """``(mp, via, feature)``: the cheapest way for a stack of chart rows ``classes`` to enter
    ``b`` from adjacent ``a``, each way costing what its slowest row pays; mp None (via
    ``"prohibited"``) where every way is prohibited to some row. ``fluid``: as :func:`cell_cost`'s."""
    return ctx.kept(_kept(ctx, "terrain_costs.step"), (classes, a, b, fluid, overrun),
                    lambda: _step_cost(ctx, classes, a, b, fluid, overrun))


def _step_cost(ctx: Any, classes: frozenset[str], a: str, b: str, fluid: bool | int,
               overrun: bool) -> tuple[int | None, str, str | None]:
    best: tuple[int | None, str, str | None] = (None, "prohibited", None)
    taken: list[tuple[Any, ...]] | None = None
    collect = ctx.event_lines is not None
    for terrain, feature, via in entry_ways(ctx, a, b):
        with cells_read(collect) as reads:  # each way's chart cells apart: only the way taken's are cited
            costs = [cell_cost(ctx, c, terrain, feature, fluid=fluid, overrun=overrun) for c in sorted(classes)]
        known = [c for c in costs if c is not None]
        if len(known) < len(costs):
            continue
        mp = max(known)
        if best[0] is None or mp < best[0]:
            best, taken = (mp, via, feature), reads
    _cite_cells(ctx, taken)
    return best


def _cite_cells(ctx: Any, reads: list[tuple[Any, ...]] | None) -> None:
    """Cite the chart cells of the way a step takes (every row of the stack, the hex's or the
    road's cell and the hexside's): to a running ``ask`` collector (``cite_again``), and as
    lines of the next event (play: ``{"source": "tables/tec.yaml:29", "cases"}``). Noted inside
    :func:`step_cost`'s ``ctx.kept``, they are kept with its value and named at every read."""
    if not reads:
        return
    cite_again(reads)
    if ctx.event_lines is not None:
        found = (read_line(ctx.pack, r) for r in reads)  # each line once: noted by source, marked a cell
        ctx.note_lines(tuple({**ln, "cell": True} for ln in found if ln is not None))  # (moving_stack.move_lines)


def step_table(ctx: Any, classes: frozenset[str]) -> dict[str, tuple[tuple[str, int | None, int | None], ...]]:
    """For a stack of chart rows ``classes``: hex label -> ``((neighbour, mp, mp from one enemy
    ZOC hex to another when fluid), ...)`` in label order — :func:`step_cost` of every hexside,
    filled hex by hex and kept for the weather and settings it depends on (a path search reads
    it as a table). Read it with :func:`table_row`: its rows' lines are no event's (an event
    names the costs it uses, :func:`step_cost`)."""
    return ctx.lasting("terrain_costs.table", *weather(ctx), ctx.state.setting("road_bridges", "bridged"),
                       classes, pause=False)


def table_row(ctx: Any, table: dict[str, Any], classes: frozenset[str], a: str) -> tuple[Any, ...]:
    """The row of :func:`step_table` for hex ``a`` (filled on first use)."""
    row = table.get(a)
    if row is None:
        with ctx.apart():
            row = table[a] = tuple((b, step_cost(ctx, classes, a, b)[0], step_cost(ctx, classes, a, b, fluid=True)[0])
                                   for b in ctx.board.label_neighbours(a))
    return row


def enemy_hexes(ctx: Any, side: str) -> frozenset[str]:
    """Hexes holding units of a side other than ``side`` (per state version)."""
    key = ("terrain_costs.enemy", side)
    if key not in ctx.memo:
        ctx.memo[key] = frozenset(u["hex"] for u in ctx.state.units
                                  if u.get("side") != side and u.get("hex"))
    return ctx.memo[key]


def ezoc_map(ctx: Any, side: str) -> tuple[Mapping[str, frozenset[str]] | None, Any]:
    """``(hex -> enemy unit ids, key)``: every enemy ZOC against ``side`` at once, from the ZOC
    area's ``casebook_zoc_map``, with the key it names (equal keys, equal maps: path searches
    are kept by it); ``(None, None)`` without a ZOC area (then :func:`ezoc` asks hex by hex).
    Per state version with the map's lines (``ctx.memo_kept``: every event that reads it names
    them); the converted map is kept by its key."""
    return _ezoc_full(ctx, side)[:2]


def _ezoc_full(ctx: Any, side: str) -> tuple[Any, Any, Any]:
    """:func:`ezoc_map` and the map's lines hex by hex (None: nothing collects)."""
    return ctx.memo_kept(("terrain_costs.ezoc_map", side), lambda: _ezoc_map(ctx, side))


def zoc_lines(ctx: Any, side: str, hexes: Any) -> None:
    """Note for the event the lines that decided the enemy ZOC against ``side`` in each of
    ``hexes`` (the ZOC area's map keeps them hex by hex): a move names those of the hexes it
    reads, not the whole map's."""
    lines = _ezoc_full(ctx, side)[2]
    if lines:
        for h in hexes:
            fired = lines.get(h)
            if fired:
                ctx.note_lines(fired)


def _ezoc_map(ctx: Any, side: str) -> tuple[Any, Any, Any]:
    ans = ctx.hook.casebook_zoc_map(ctx=ctx, side=side)
    if ans is None:
        return None, None, None
    kept = ctx.lasting("terrain_costs.ezoc_maps", pause=False)  # a conversion: no line
    zmap = kept.get(ans["key"])
    if zmap is None:
        zmap = kept[ans["key"]] = {h: frozenset(ids) for h, ids in ans["exerted_by"].items() if ids}
        while len(kept) > 64:
            kept.pop(next(iter(kept)))
    return zmap, ans["key"], ans.get("lines")


def ezoc(ctx: Any, hex_: str, side: str) -> frozenset[str]:
    """Enemy units exerting a ZOC into ``hex_`` against ``side``: the ZOC area's answer
    (``casebook_zoc_map``, else ``casebook_zoc``); without one, the adjacent enemy units the
    ``exert_zoc`` permission allows."""
    zmap = ezoc_map(ctx, side)[0]
    if zmap is not None:
        zoc_lines(ctx, side, (hex_,))
        return zmap.get(hex_, _NO_EZOC)
    # per state version with its lines (``ctx.memo_kept``)
    return ctx.memo_kept(("terrain_costs.ezoc", hex_, side), lambda: _ezoc(ctx, hex_, side))


def _ezoc(ctx: Any, hex_: str, side: str) -> frozenset[str]:
    ans = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    if ans is not None:
        return frozenset(ans.get("exerted_by") or ())
    temperature = weather(ctx)[0]
    near = {hex_label(n) for n in ctx.board.neighbours(parse_hex(hex_))}
    return frozenset(
        u.get("id") or u.get("counter") for u in ctx.state.units
        if u.get("side") != side and u.get("hex") in near
        and ctx.permission("exert_zoc", {"temperature": temperature,
                                         "unit_class": u.get("class", "infantry")}).value)


class _EzocByHex(dict):
    """:func:`ezoc` hex by hex as a mapping (``.get``), when no ZOC area gives a whole map."""

    def __init__(self, ctx: Any, side: str) -> None:
        super().__init__()
        self._ctx, self._side = ctx, side

    def get(self, hex_: str, default: Any = None) -> Any:
        if hex_ not in self:
            self[hex_] = ezoc(self._ctx, hex_, self._side)
        return dict.get(self, hex_) or default


def zoc_lookup(ctx: Any, side: str) -> Mapping[str, frozenset[str]]:
    """The enemy ZOCs against ``side`` as a mapping hex -> enemy unit ids (``.get``): the ZOC
    area's whole map (:func:`ezoc_map`), else :func:`ezoc` asked hex by hex."""
    zmap = ezoc_map(ctx, side)[0]
    return zmap if zmap is not None else _EzocByHex(ctx, side)


def kept_search(ctx: Any, side: str, key: tuple[Any, ...],
                search: Callable[[Mapping[str, frozenset[str]], frozenset[str]], Any], *, limit: int = 512) -> Any:
    """``search(zoc map, enemy hexes)`` for a stack of ``side`` (e.g. a reach), kept: across
    state changes by ``key`` (everything about the stack it depends on), the weather, the
    setting ``road_bridges``, the enemy-occupied hexes and the ZOC map's key — the last
    ``limit`` results; without a ZOC map, for this state version only. Treat it as read-only."""
    zmap, zkey = ezoc_map(ctx, side)
    enemy = enemy_hexes(ctx, side)
    if zmap is None:
        zmap = _EzocByHex(ctx, side)
        kept = ctx.memo.setdefault("terrain_costs.search", {})
    else:
        kept = ctx.lasting("terrain_costs.search", *weather(ctx), ctx.state.setting("road_bridges", "bridged"),
                           pause=False)
        key = (*key, enemy, zkey)
    found = kept.get(key)
    if found is None:
        with ctx.apart():  # a search over every hex in reach: no event's lines
            found = kept[key] = search(zmap, enemy)
        while len(kept) > limit:
            kept.pop(next(iter(kept)))
    return found


def zoc_treatment(ctx: Any, classes: frozenset[str]) -> str:
    """How enemy ZOCs affect a stack of chart rows ``classes``: the most restrictive of their
    ``zoc_chart`` cells — ``locking``, ``fluid`` or ``none`` — as the game's ``move_on_in_ezoc``
    lines make them bind (:func:`._zoc_chart.kind_in_effect`, e.g. Moscow '41 7.2, 7.3)."""
    temperature, ground = weather(ctx)
    column = "arctic" if temperature == "arctic" else ctx.value("zoc_column", {"ground": ground})
    chart = ctx.table("zoc_chart")
    kinds = [kind_in_effect(ctx, str(chart.lookup(unit=c, weather=column))) for c in sorted(classes)]
    return max(kinds, key=lambda k: _ZOC_RANK.get(k, 2)) if kinds else "none"


def fluid_binding(ctx: Any, classes: frozenset[str], side: str, a: str, b: str) -> tuple[str, ...]:
    """The cases of a fluid EZOC-to-EZOC step ``a`` -> ``b`` of a stack of chart rows ``classes``
    of ``side`` (e.g. Moscow '41 7.3: +1 MP), its deciding lines noted for the answer or event
    (:func:`._zoc_cites.note_binding`): the ZOC Chart cells of its rows, the ``move_on_in_ezoc``
    lines of a fluid ZOC and the lines that put ``a`` and ``b`` in an EZOC — and, where two or more
    enemy units exert a ZOC into ``b``, the ``add_zoc_effects`` lines that said how many ZOCs the
    step is charged for (:func:`zoc_effects`; e.g. Moscow '41 7.0F: one)."""
    lines = _ezoc_full(ctx, side)[2] or {}
    cases = note_binding(ctx, sorted(classes), "fluid", tuple(e for h in (a, b) for e in lines.get(h, ())))
    if len(zoc_lookup(ctx, side).get(b) or ()) < 2:
        return cases
    return tuple(dict.fromkeys((*cases, *ctx.memo_kept(("terrain_costs.add_zoc_effects",), lambda: tuple(
        ctx.permission("add_zoc_effects", {}).cases)))))


def _adds(ctx: Any) -> bool:
    """Whether the game's lines allow ``add_zoc_effects`` (read without noting lines: those are
    noted by :func:`fluid_binding` where the verdict decided a cost); once per state version."""
    memo = ctx.memo
    found = memo.get("terrain_costs.adds")
    if found is None:
        engine = ctx.engine
        found = memo["terrain_costs.adds"] = bool(engine.rules.allowed("add_zoc_effects", {}, engine.script_tables,
                                                                       ctx.standard))
    return found


def zoc_effects(ctx: Any, side: str, b: str) -> int:
    """How many enemy ZOCs a fluid step EZOC to EZOC of ``side`` into hex ``b`` is charged for (fact
    ``zoc_effects`` of ``move_cost``): one where the game's lines forbid ``add_zoc_effects`` or fewer
    than two enemy units exert a ZOC into ``b``, else one per such unit — e.g. Moscow '41 7.0F:
    "Multiple ZOCs exerted on a unit have no additional effect"; a house rule deleting that line adds."""
    n = len(zoc_lookup(ctx, side).get(b) or ())
    return n if n > 1 and _adds(ctx) else 1


def added_fluid_cost(ctx: Any, classes: frozenset[str],
                     zoc: str = "fluid") -> Callable[[str, str, frozenset[str]], int | None] | None:
    """For a reach search of a stack of chart rows ``classes`` treating ZOCs as ``zoc``: None where
    several enemy ZOCs add nothing (not ``"fluid"``, or the game's lines forbid ``add_zoc_effects``:
    every fluid step EZOC to EZOC costs the :func:`step_table`'s fluid MP), else ``(a, b, exerting
    units) -> MP`` of a fluid step into a hex where two or more exert, charged once per unit
    (:func:`step_cost`; the search runs apart)."""
    if zoc != "fluid" or not _adds(ctx):
        return None
    return lambda a, b, exerted: step_cost(ctx, classes, a, b, fluid=len(exerted))[0]
