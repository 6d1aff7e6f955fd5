"""Retreats and advances after combat in Moscow '41 (private to the `results` plugin): 11.2A-D,
11.4A-D, 7.5A-B, 10.6A."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from casebook.core.actions import Action
from casebook.core.cases import implements
from casebook.core.hexgrid import hex_label, parse_hex

__all__ = ["in_ezoc", "enemy_occupied", "refused_path", "retreat_options", "advance_paths", "supply_target"]

#: The friendly map edge a side traces supply to when no supply plugin names a route
#: (rulebook: 5.1A west for the Germans, 5.1C east for the Soviets).
_SUPPLY_EDGE = {"german": "west", "soviet": "east"}


def enemy_occupied(ctx: Any, hex_: str, side: str) -> bool:
    return any(u.get("side") != side for u in ctx.state.units_at(hex_))


def _friendly_combat_unit(ctx: Any, hex_: str, side: str, exclude: Iterable[str] = ()) -> bool:
    """A friendly combat unit other than a remnant or HQ stands in ``hex_`` (7.5A, 11.2B)."""
    skip = set(exclude)
    return any(u.get("side") == side and u.get("class") not in ("hq", "remnant") and u["id"] not in skip
               for u in ctx.state.units_at(hex_))


def in_ezoc(ctx: Any, hex_: str, side: str) -> bool:
    """Whether ``hex_`` is in an enemy ZOC for ``side``: asked of ``casebook_zoc``; without an
    answer, any adjacent enemy unit other than an HQ or remnant exerts one (7.1A)."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    if answer is not None:
        return answer.get("kind", "none") != "none" and bool(answer.get("exerted_by", [True]))
    for n in ctx.board.neighbours(parse_hex(hex_)):
        for u in ctx.state.units_at(hex_label(n)):
            if u.get("side") != side and u.get("class") not in ("hq", "remnant"):
                return True
    return False


def _prohibited(ctx: Any, units: Sequence[str], a: str, b: str) -> bool:
    answer = ctx.hook.casebook_move_cost(ctx=ctx, units=list(units), from_hex=a, to_hex=b, mode="retreat")
    return answer is not None and answer.get("mp") is None


def supply_target(ctx: Any, units: Sequence[str], side: str) -> list[str]:
    """Hexes of the friendly supply source a retreat goes toward (11.2C): the end of the route
    ``casebook_supply`` gives for the first unit, else the side's supply map edge (5.1A, 5.1C)."""
    for uid in units:
        answer = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
        if answer and answer.get("path"):
            return [str(answer["path"][-1])]
    edge = _SUPPLY_EDGE.get(side)
    return [hex_label(h) for h in ctx.board.edge_hexes(edge)] if edge else []


def _distance_to(ctx: Any, hex_: str, targets: Sequence[str]) -> int:
    if not targets:
        return 0
    h = parse_hex(hex_)
    return min(ctx.board.grid.distance(h, parse_hex(t)) for t in targets)


def _paths(ctx: Any, units: Sequence[str], start: str, side: str, length: int) -> list[list[str]]:
    """Every simple path of at most ``length`` hexes a retreat may take: never into an
    enemy-occupied hex, nor an EZOC unless a friendly combat unit other than a remnant is there
    (11.2B, 7.5A), nor prohibited terrain, nor back through a hex already crossed."""
    out: list[list[str]] = []

    def walk(path: list[str]) -> None:
        out.append(list(path))
        if len(path) == length:
            return
        here = path[-1] if path else start
        for n in ctx.board.neighbours(parse_hex(here)):
            nxt = hex_label(n)
            if nxt == start or nxt in path or enemy_occupied(ctx, nxt, side):
                continue
            if in_ezoc(ctx, nxt, side) and not _friendly_combat_unit(ctx, nxt, side, units):
                continue
            if _prohibited(ctx, units, here, nxt):
                continue
            walk(path + [nxt])

    walk([])
    return out


def _other_validators(ctx: Any) -> Any:
    """``casebook_validate_action`` of every plugin but `results` (whose own check lists these
    options), kept per plugin manager."""
    pm = ctx.engine.pm
    kept = ctx.lasting("results.other-validators", id(pm))
    if "caller" not in kept:
        mine = [p for p in (pm.get_plugin("results"),) if p is not None]
        kept["caller"] = pm.subset_hook_caller("casebook_validate_action", remove_plugins=mine)
    return kept["caller"]


@implements("6.2F", "7.5A")
def refused_path(ctx: Any, units: Sequence[str], side: str, path: Sequence[str]) -> bool:
    """Whether another area refuses ``units`` retreating along ``path`` (the ``retreat`` action
    with ``path`` and ``units``): 6.2F (into an overstack only if no other route), 7.5A …"""
    if not path:
        return False
    action = Action.make("retreat", side, path=list(path), units=list(units))
    return any(rs for rs in _other_validators(ctx)(ctx=ctx, action=action))


@implements("11.2A", "11.2B", "11.2C", "11.2D", "7.5B")
def retreat_options(ctx: Any, units: Sequence[str], start: str, side: str, hexes: int,
                    attackers: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The retreats of ``units`` (one stack, moving together) from ``start`` by ``hexes`` hexes,
    best first: the longest paths the 11.2B priorities allow (one combat loss per hex not
    retreated, 11.2B, 7.5B) that no other area's validator refuses (6.2F: :func:`refused_path`),
    ranked by 11.2C — not ending adjacent to an attacking unit, then
    toward a friendly supply source (closer to it than the start), then away from the combat hex
    (11.2D: never an advance), then by hex labels. Each: ``{"path", "hexes", "losses",
    "toward_supply", "ends_adjacent_to_attacker", "cases"}``."""
    units = [u for u in units if ctx.state.has_unit(u)]
    if not units:  # the whole stack is gone: nothing retreats
        return []
    paths = [p for p in _paths(ctx, units, start, side, hexes) if not refused_path(ctx, units, side, p)]
    best = max((len(p) for p in paths), default=0)
    targets = supply_target(ctx, units, side)
    d0 = _distance_to(ctx, start, targets)
    att_hexes = {ctx.state.unit(a)["hex"] for a in attackers if ctx.state.has_unit(a)}
    options = []
    for p in paths:
        if len(p) != best:
            continue
        end = p[-1] if p else start
        adjacent = any(ctx.board.grid.distance(parse_hex(end), parse_hex(h)) <= 1 for h in att_hexes) if p else True
        d = _distance_to(ctx, end, targets)
        away = ctx.board.grid.distance(parse_hex(end), parse_hex(start))
        options.append({"path": p, "hexes": len(p), "losses": hexes - len(p),
                        "toward_supply": d < d0, "ends_adjacent_to_attacker": adjacent,
                        "_key": (adjacent, d, -away, p),
                        "cases": ["11.2B", "11.2C"] + (["7.5B"] if len(p) < hexes else [])})
    options.sort(key=lambda o: o.pop("_key"))
    return options


@implements("11.4A", "11.4B", "11.4C", "11.4D")
def advance_paths(ctx: Any, side: str, vacated: str, hexes: int, eliminated: bool) -> list[list[str]]:
    """The advance paths after combat into the cleared hex ``vacated`` (11.4A): only that hex when
    the defenders were eliminated (11.4B, EZOCs ignored); after a retreat, up to ``hexes`` hexes
    (as many as the defenders retreated), the first into the vacated hex as if it were not in an
    EZOC, then any direction, never into an enemy-occupied hex and stopping on entering an EZOC
    (11.4C-D). Paths of every length from 1, in label order."""
    out = [[vacated]]
    if eliminated or hexes <= 1:
        return out

    def walk(path: list[str]) -> None:
        if len(path) == hexes:
            return
        for n in ctx.board.neighbours(parse_hex(path[-1])):
            nxt = hex_label(n)
            if nxt in path or enemy_occupied(ctx, nxt, side):
                continue
            out.append(path + [nxt])
            if not in_ezoc(ctx, nxt, side):
                walk(path + [nxt])

    walk([vacated])
    return out
