"""Retreats after combat for the shared ``area_results`` (a module of its API, not a plugin):
the legal retreat paths of a unit and why a path is refused, from the game's quantity
``retreat_hexes`` (fact ``side``), ``stacking_limit``, the lines of ``retreat_into_enemy_hex``
and ``retreat_into_ezoc`` (the ``zoc`` area's ``blocks_retreat``) and the side's map ``edge``
in the vocabulary (retreats towards it are listed first). It holds no case id.

The generic retreat and advance procedure other games parameterise with their own rules (e.g. Moscow
'41's ``results`` plugin): :func:`paths_up_to` enumerates every retreat (or advance) of at most N
hexes through the steps a game's callback allows, :func:`retreat_judge` ranks retreats by where
they end (next to the enemy, toward a goal such as a supply source, away from the start).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

from ._zoc_cites import answer_closes, line_cases
from .search import Neighbours, exact_paths

__all__ = ["retreat_cases", "retreat_paths", "retreat_refusal", "side_edge", "paths_up_to", "retreat_judge"]

PLUGIN = "area_results"


def _blocked(ctx: Any, hex_: str, side: str) -> bool:
    """A retreat may not enter ``hex_``: an enemy ZOC there blocks retreats (the ``zoc`` area's
    ``blocks_retreat``, from the game's ``retreat_into_ezoc`` lines: those lines named, not the
    supply or command ones of the same answer)."""
    return answer_closes(ctx, ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side), "blocks_retreat")


def retreat_cases(ctx: Any) -> tuple[str, ...]:
    """The cases of the game's lines that keep a retreat out of enemy hexes and enemy ZOCs."""
    return line_cases(ctx, ("retreat_into_enemy_hex", "retreat_into_ezoc"))


def retreat_paths(ctx: Any, uid: str) -> list[list[str]]:
    """The legal retreats of ``uid``, best first: ``retreat_hexes`` hexes, each on the map, free
    of enemy units and of enemy ZOC, ending that many hexes from the start where
    ``stacking_limit`` leaves room. Order (the owner's choice, the bots' policy): nearest the
    side's map edge (its ``edge`` in the vocabulary), then by labels. Empty: it is eliminated."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    n = int(ctx.value("retreat_hexes", {"side": side}))
    grid, limit = ctx.board.grid, int(ctx.value("stacking_limit", {"side": side}))

    def enter(label: str) -> bool:
        return not any(u.get("side") != side for u in ctx.state.units_at(label)) and not _blocked(ctx, label, side)

    def end(path: list[str]) -> bool:
        return grid.distance(parse_hex(start), parse_hex(path[-1])) == n and len(ctx.state.units_at(path[-1])) < limit

    neighbours = lambda h: [hex_label(nb) for nb in ctx.board.neighbours(parse_hex(h))]
    paths = exact_paths(start, neighbours, enter, n, end)
    edge = {hex_label(h) for h in ctx.board.edge_hexes(side_edge(ctx, side))}

    def key(p: list[str]) -> tuple:
        end_hex = parse_hex(p[-1])
        return (min((grid.distance(end_hex, parse_hex(e)) for e in edge), default=0), p)

    return sorted({tuple(p): p for p in paths}.values(), key=key)


def retreat_refusal(ctx: Any, uid: str, path: Sequence[str]) -> Refusal:
    """Why ``path`` is not a retreat of ``uid``: its length and end, an enemy unit or enemy ZOC
    entered, an occupied last hex — each citing the game's lines."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    q = ctx.quantity("retreat_hexes", {"side": side})
    n, length = int(q.value), tuple(q.cases)
    grid, hexes = ctx.board.grid, [start, *path]
    for before, here in zip(hexes, hexes[1:]):
        try:
            adjacent = ctx.board.contains(parse_hex(here)) and grid.distance(parse_hex(before), parse_hex(here)) == 1
        except ValueError:
            adjacent = False
        if not adjacent:
            return Refusal(f"a retreat moves hex by hex on the map: {here} is not a hex next to {before}", length, PLUGIN)
        enemy = [u["id"] for u in ctx.state.units_at(here) if u.get("side") != side]
        if enemy:
            return Refusal(f"{uid} may not retreat into {here}: enemy unit {', '.join(enemy)} is there",
                           retreat_cases(ctx), PLUGIN)
        if _blocked(ctx, here, side):
            zoc = ctx.hook.casebook_zoc(ctx=ctx, hex=here, side=side) or {}
            return Refusal(f"{uid} may not retreat into {here}: it is in the ZOC of enemy unit "
                           f"{', '.join(zoc.get('exerted_by') or ())}", retreat_cases(ctx), PLUGIN)
    if len(path) != n or grid.distance(parse_hex(start), parse_hex(hexes[-1])) != n:
        return Refusal(f"{uid} retreats {n} hexes, ending {n} hexes from {start}; {','.join(path)} does not",
                       length, PLUGIN)
    held = [u["id"] for u in ctx.state.units_at(hexes[-1]) if u["id"] != uid]
    if held:
        limit = ctx.quantity("stacking_limit", {"side": side})
        return Refusal(f"a retreat may not end on another unit ({', '.join(held)} in {hexes[-1]})",
                       tuple(dict.fromkeys([*limit.cases, *length])), PLUGIN)
    return Refusal(f"{','.join(path)} is not one of {uid}'s retreats", (*length, *retreat_cases(ctx)), PLUGIN)


def side_edge(ctx: Any, side: str) -> str:
    """The map edge ``side`` retreats towards: its ``edge`` in the game's vocabulary (game.yaml)."""
    edge = ctx.pack.vocabulary.side(side).edge
    if edge is None:
        raise ValueError(f"side {side!r} has no edge in the game's vocabulary (game.yaml)")
    return edge


def paths_up_to(start: str, neighbours: Neighbours, enter: Callable[[str, str, list[str]], bool], length: int,
                stops: Callable[[str], bool] = lambda h: False) -> list[list[str]]:
    """Every simple path of at most ``length`` hexes from ``start`` (start excluded; the empty
    path first), depth first in the neighbours' order: a step from ``here`` into ``there`` is
    taken when it revisits no hex (nor ``start``) and ``enter(here, there, path so far)`` allows
    it; a path that enters a hex ``stops`` says goes no further (an advance entering an enemy
    ZOC). Hex labels in, lists of hex labels out."""
    out: list[list[str]] = []

    def walk(path: list[str]) -> None:
        out.append(list(path))
        if len(path) >= length:
            return
        here = path[-1] if path else start
        for there in neighbours(here):
            if there == start or there in path or not enter(here, there, path):
                continue
            if stops(there):
                out.append([*path, there])
            else:
                walk([*path, there])

    walk([])
    return out


def retreat_judge(start: str, distance: Callable[[str, str], int], targets: Iterable[str],
                  enemy_hexes: Iterable[str]) -> Callable[[Sequence[str]], tuple[bool, int, bool, int]]:
    """``judge(path) -> (ends adjacent to an enemy hex, hexes to the nearest target, closer to a
    target than the start, hexes from the start)`` for retreats from ``start`` (the empty path
    ends in ``start`` and counts as adjacent). ``distance(a, b)`` in hexes; no targets: 0."""
    goals, enemies = list(targets), set(enemy_hexes)

    def to_goal(hex_: str) -> int:
        return min((distance(hex_, t) for t in goals), default=0)

    d0 = to_goal(start)

    def judge(path: Sequence[str]) -> tuple[bool, int, bool, int]:
        end = path[-1] if path else start
        adjacent = any(distance(end, h) <= 1 for h in enemies) if path else True
        d = to_goal(end)
        return adjacent, d, d < d0, distance(end, start)
    return judge
