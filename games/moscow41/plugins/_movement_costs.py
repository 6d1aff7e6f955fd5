"""Moscow '41 movement, part 1: MP costs (9.2, 4.6A, 7.3, 9.5A), movement allowances (9.1A,
9.3, 9.7, 9.8B, 4.3D, 4.5C, 5.7B) and the facts a moving stack needs (weather, supply, ZOC).

Private helper of :mod:`casebook.games.moscow41.plugins.movement`; only that plugin imports it. Every number
comes from the rule scripts (``games/moscow41/rules/movement.rules``: ``move_cost``, ``ma``) and the
TEC tables (``tec``, ``tec_hexside``, ``tec_prohibited``, ``zoc_chart``); results are cached per
context in ``ctx.memo`` (the hot path of reach and of the supply plugin's 8-MP paths).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.content.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex

__all__ = [
    "weather", "units_of", "move_class", "is_supplied", "cell_cost", "step_cost", "move_cost",
    "movement_allowance", "ezoc", "ezoc_map", "step_table", "table_row", "zoc_treatment", "enemy_hexes", "FEATURE_ORDER",
]

#: Hexside features with a crossing cost on the TEC (tables/tec_hexside.yaml dims), costliest last
#: when more than one is printed on a side.
FEATURE_ORDER = ("river", "canal", "major_river")
_ZOC_RANK = {"none": 0, "fluid": 1, "locking": 2}


def weather(ctx: Any) -> tuple[str, str]:
    """``(temperature, ground)`` in force; Warm/Dry when the position has no weather yet."""
    w = ctx.state.weather or {}
    return w.get("temperature", "warm"), w.get("ground", "dry")


def units_of(ctx: Any, ids: Sequence[str]) -> list[Mapping[str, Any]]:
    """The unit records of ``ids``; QuestionError naming an unknown unit."""
    out = []
    for uid in ids:
        try:
            out.append(ctx.state.unit(uid))
        except KeyError:
            raise QuestionError(f"no unit {uid!r} on the map") from None
    if not out:
        raise QuestionError("no units given")
    return out


@implements("9.2A")
def move_class(ctx: Any, unit: Mapping[str, Any]) -> str:
    """The TEC / ZOC Chart row of a unit (9.2A, 7.0C); HQs per interpretation hq-movement-class."""
    cls = unit.get("class", "infantry")
    if cls == "hq" and unit.get("mechanized") and \
            ctx.state.setting("hq_movement_class", "by_mechanized") == "by_mechanized":
        return "mechanized"
    return cls


def is_supplied(ctx: Any, uid: str) -> bool:
    """Whether ``uid`` traces supply at this instant (5.6A): the supply plugin's answer, else the
    absence of an OOS marker."""
    key = ("movement.supplied", uid)
    if key not in ctx.memo:
        ans = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
        ctx.memo[key] = bool(ans["in_supply"]) if ans is not None else not ctx.state.unit(uid).get("oos")
    return ctx.memo[key]


def _kept(ctx: Any, name: str) -> dict[Any, Any]:
    """The lasting cache ``name`` for what the MP costs depend on — the weather (cells, steps)
    and the setting ``road_bridges`` (candidates, steps) — found once per state version."""
    memo = ctx.memo
    found = memo.get(("movement.kept", name))
    if found is None:
        bridges = ctx.state.setting("road_bridges", "bridged")
        deps = {"movement.cell": weather(ctx), "movement.cands": (bridges,),
                "movement.step": (*weather(ctx), bridges)}[name]
        found = memo[("movement.kept", name)] = ctx.lasting(name, *deps)
    return found


def _column(ctx: Any) -> str:
    key = "movement.tec_column"
    if key not in ctx.memo:
        ctx.memo[key] = ctx.value("tec_column", {"ground": weather(ctx)[1]})
    return ctx.memo[key]


def _prohibited(ctx: Any) -> frozenset[tuple[str, str, str]]:
    key = "movement.prohibited"
    if key not in ctx.memo:
        ctx.memo[key] = frozenset((r["feature"], r["unit"], r["column"]) for r in ctx.records("tec_prohibited"))
    return ctx.memo[key]


def cell_cost(ctx: Any, cls: str, terrain: str, feature: str | None, *, fluid: bool = False,
              overrun: bool = False) -> int | None:
    """MP for one TEC row ``cls`` to enter ``terrain`` across ``feature`` (or None): the
    ``move_cost`` script (9.2A-B, 4.6A, 7.3, 9.5A); None if prohibited (tables/tec_prohibited)."""
    key = (cls, terrain, feature, fluid, overrun)
    memo = _kept(ctx, "movement.cell")
    if key in memo:
        return memo[key]
    temperature, ground = weather(ctx)
    column = _column(ctx)
    bad = _prohibited(ctx)
    if (terrain, cls, column) in bad or (feature is not None and (feature, cls, column) in bad):
        memo[key] = None
        return None
    facts = {"ground": ground, "temperature": temperature, "hex_terrain": terrain,
             "hexside_feature": feature or "none", "move_class": cls,
             "fluid_ezoc_to_ezoc": fluid, "overrun": overrun}
    memo[key] = int(ctx.value("move_cost", facts))
    return memo[key]


def _candidates(ctx: Any, a: str, b: str) -> list[tuple[str, str | None, str]]:
    """(terrain, feature, via) ways to enter ``b`` from ``a``: the hex's own terrain (a town's
    kind replaces it), a road or trail through the hexside crossed (9.2A; road bridges rivers per
    interpretation road-bridges). ValueError if not adjacent."""
    memo = _kept(ctx, "movement.cands")
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


def step_cost(ctx: Any, classes: frozenset[str], a: str, b: str, *, fluid: bool = False,
              overrun: bool = False) -> tuple[int | None, str, str | None]:
    """``(mp, via, feature)``: the cheapest way for a stack of TEC rows ``classes`` to enter
    ``b`` from adjacent ``a`` (the slowest unit decides each way, 9.1C); mp None if prohibited."""
    key = (classes, a, b, fluid, overrun)
    memo = _kept(ctx, "movement.step")
    if key in memo:
        return memo[key]
    best: tuple[int | None, str, str | None] = (None, "prohibited", None)
    for terrain, feature, via in _candidates(ctx, a, b):
        costs = [cell_cost(ctx, c, terrain, feature, fluid=fluid, overrun=overrun) for c in sorted(classes)]
        if any(c is None for c in costs):
            continue
        mp = max(costs)
        if best[0] is None or mp < best[0]:
            best = (mp, via, feature)
    memo[key] = best
    return best


def step_table(ctx: Any, classes: frozenset[str]) -> dict[str, tuple[tuple[str, int | None, int | None], ...]]:
    """For a stack of TEC rows ``classes``: hex label -> ``((neighbour, mp, mp EZOC to EZOC
    when fluid), ...)`` in label order — :func:`step_cost` of every hexside, filled hex by hex
    and kept for the weather and settings it depends on (a path search reads it as a table).
    Use :func:`table_row` to read it."""
    return ctx.lasting("movement.table", *weather(ctx), ctx.state.setting("road_bridges", "bridged"),
                       classes)


def table_row(ctx: Any, table: dict[str, Any], classes: frozenset[str], a: str) -> tuple[Any, ...]:
    """The row of :func:`step_table` for hex ``a`` (filled on first use)."""
    row = table.get(a)
    if row is None:
        row = table[a] = tuple((b, step_cost(ctx, classes, a, b)[0], step_cost(ctx, classes, a, b, fluid=True)[0])
                               for b in ctx.board.label_neighbours(a))
    return row


@implements("9.2A", "9.2B", "4.6A")
def move_cost(ctx: Any, units: Sequence[str], from_hex: str, to_hex: str, mode: str) -> dict[str, Any]:
    """MP for the stack ``units`` to enter adjacent ``to_hex`` from ``from_hex`` (hook
    ``casebook_move_cost``): ``{"mp": int | None, "via": "terrain"|"road"|"trail", "terrain",
    "feature", "cases"}``. Terrain of the hex entered plus the hexside crossed (9.2A-B), TEC
    column by the ground (4.1B-4.5E), Arctic +1 (4.6A); a road or trail lowers the cost only when
    moving through its hexside. ``mode`` ``"supply"`` uses the same costs (5.2B-C 8-MP paths).
    Raises QuestionError for unknown units or hexes that are not adjacent.
    """
    classes = frozenset(move_class(ctx, u) for u in units_of(ctx, units))
    try:
        mp, via, feature = step_cost(ctx, classes, from_hex, to_hex)
    except ValueError as exc:
        raise QuestionError(f"{from_hex} -> {to_hex}: {exc}") from None
    cases = ["9.2A"]
    if feature is not None:
        cases.append("9.2B")
    if weather(ctx)[0] == "arctic":
        cases.append("4.6A")
    if mp is None:
        cases.append("9.2C")
    terrain = dict((v, t) for t, _, v in _candidates(ctx, from_hex, to_hex)).get(via)
    return {"mp": mp, "via": via, "terrain": terrain, "feature": feature, "cases": cases}


def _ma_quantity(ctx: Any, facts: Mapping[str, Any]) -> Any:
    """The ``ma`` script's explained value for ``facts`` (kept by the facts: the script reads
    nothing else; the explanation is shared, read-only)."""
    cache = ctx.lasting("movement.ma")
    key = tuple(facts.items())
    q = cache.get(key)
    if q is None:
        q = cache[key] = ctx.quantity("ma", facts)
    return q


@implements("9.0B", "9.1A", "9.3", "9.7", "9.8B", "9.6A", "5.7B")
def movement_allowance(ctx: Any, units: Sequence[str], mode: str, *,
                       supplied: Mapping[str, bool] | None = None) -> dict[str, Any]:
    """The MA in MP of the stack ``units`` for ``mode`` (hook ``casebook_movement_allowance``):
    ``{"ma", "max_hexes", "unit", "cases", "terms"}``; the slowest unit decides (9.1C).

    The ``ma`` script: printed MA (9.1A), halved for reaction before weather and supply (9.7),
    halved in Mud/Drying (4.3D) and Deep Snow (4.5C) and when out of supply (5.7B), cumulative
    and rounded down but never below ¼ of the printed MA (9.3). ``force-march`` is a second
    allotment equal to the first (9.6A); ``unactivated`` moves one hex (9.8B: ``max_hexes`` 1).
    ``supplied`` overrides the supply at this instant (9.6B: a force march keeps the status the
    move began with). Modes: hq, stack, reaction, unactivated, force-march, supply.
    """
    temperature, ground = weather(ctx)
    best: tuple[int, str, Any] | None = None
    for u in units_of(ctx, units):
        uid = u.get("id") or u.get("counter")
        sup = supplied[uid] if supplied is not None and uid in supplied else is_supplied(ctx, uid)
        facts = {"printed_ma": int(u.get("ma", 0)), "reaction": mode == "reaction", "ground": ground,
                 "supplied": sup}
        q = _ma_quantity(ctx, facts)
        if best is None or q.value < best[0]:
            best = (int(q.value), uid, q)
    assert best is not None
    ma, uid, q = best
    terms = [{"text": ln.text.split("  by")[0].strip(), "amount": str(ln.amount),
              "cases": list(ln.cases), "source": ln.source}
             for ln in q.lines if ln.fired]
    cases = list(q.cases)
    if mode == "force-march":
        cases.append("9.6A")
        terms.append({"text": "second allotment equal to the first", "amount": str(ma),
                      "cases": ["9.6A"], "source": "games/moscow41/plugins/_movement_costs.py"})
    max_hexes = None
    if mode == "unactivated":
        max_hexes = 1
        cases.append("9.8B")
        terms.append({"text": "unactivated units move one hex", "amount": "1 hex",
                      "cases": ["9.8B"], "source": "games/moscow41/plugins/_movement_costs.py"})
    return {"ma": ma, "max_hexes": max_hexes, "unit": uid, "temperature": temperature,
            "ground": ground, "cases": cases, "terms": terms}


def enemy_hexes(ctx: Any, side: str) -> frozenset[str]:
    """Hexes holding units of a side other than ``side``."""
    key = ("movement.enemy", side)
    if key not in ctx.memo:
        ctx.memo[key] = frozenset(u["hex"] for u in ctx.state.units
                                  if u.get("side") != side and u.get("hex"))
    return ctx.memo[key]


_NO_EZOC: frozenset[str] = frozenset()


def ezoc_map(ctx: Any, side: str) -> tuple[Mapping[str, frozenset[str]] | None, Any]:
    """``(hex -> enemy unit ids, key)``: every EZOC against ``side`` at once, from the ZOC
    plugin's ``casebook_zoc_map`` (7.0A), with the key it names (equal keys, equal maps: reach
    results are kept by it); ``(None, None)`` without a ZOC plugin (then :func:`ezoc` asks hex by
    hex). Memo per state version; the converted map is kept by its key."""
    memo = ctx.memo
    mkey = ("movement.ezoc_map", side)
    found = memo.get(mkey)
    if found is None:
        ans = ctx.hook.casebook_zoc_map(ctx=ctx, side=side)
        if ans is None:
            found = (None, None)
        else:
            kept = ctx.lasting("movement.ezoc_maps")
            zmap = kept.get(ans["key"])
            if zmap is None:
                zmap = kept[ans["key"]] = {h: frozenset(ids) for h, ids in ans["exerted_by"].items() if ids}
                while len(kept) > 64:
                    kept.pop(next(iter(kept)))
            found = (zmap, ans["key"])
        memo[mkey] = found
    return found


def ezoc(ctx: Any, hex_: str, side: str) -> frozenset[str]:
    """Enemy units exerting a ZOC into ``hex_`` against ``side``: the ZOC plugin's answer
    (``casebook_zoc_map``, the map ``casebook_zoc`` reads); without one, adjacent enemy units
    the ``exert_zoc`` permission allows (7.1A, 7.1C)."""
    zmap = ezoc_map(ctx, side)[0]
    if zmap is not None:
        return zmap.get(hex_, _NO_EZOC)
    key = ("movement.ezoc", hex_, side)
    memo = ctx.memo
    if key in memo:
        return memo[key]
    ans = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    if ans is not None:
        out = frozenset(ans.get("exerted_by") or ())
    else:
        temperature = weather(ctx)[0]
        h = parse_hex(hex_)
        near = {hex_label(n) for n in ctx.board.neighbours(h)}
        out = frozenset(
            u.get("id") or u.get("counter") for u in ctx.state.units
            if u.get("side") != side and u.get("hex") in near
            and ctx.permission("exert_zoc", {"temperature": temperature,
                                             "unit_class": u.get("class", "infantry")}).value)
    memo[key] = out
    return out


def zoc_treatment(ctx: Any, classes: frozenset[str]) -> str:
    """How EZOCs affect a stack of TEC/ZOC rows ``classes`` (7.0B-C): the most restrictive of
    its units' ZOC Chart cells — ``locking`` (7.2), ``fluid`` (7.3) or ``none``."""
    temperature, ground = weather(ctx)
    column = "arctic" if temperature == "arctic" else ctx.value("zoc_column", {"ground": ground})
    chart = ctx.table("zoc_chart")
    kinds = [str(chart.lookup(unit=c, weather=column)) for c in sorted(classes)]
    return max(kinds, key=lambda k: _ZOC_RANK.get(k, 2)) if kinds else "none"
