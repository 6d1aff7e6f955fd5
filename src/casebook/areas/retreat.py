"""Retreats after combat for the shared ``area_results`` (a module of its API, not a plugin):
the legal retreat paths of a unit and why a path is refused, from the game's quantity
``retreat_hexes`` (fact ``side``), ``stacking_limit``, the lines of ``retreat_into_enemy_hex``
and ``retreat_into_ezoc`` (the ``zoc`` area's ``blocks_retreat``) and the side's map ``edge``
in the vocabulary (retreats towards it are listed first). It holds no case id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

from ._zoc_cites import line_cases
from .search import exact_paths

__all__ = ["retreat_cases", "retreat_paths", "retreat_refusal", "side_edge"]

PLUGIN = "area_results"


def _blocked(ctx: Any, hex_: str, side: str) -> bool:
    """A retreat may not enter ``hex_``: an enemy ZOC there blocks retreats (the ``zoc`` area's
    ``blocks_retreat``, from the game's ``retreat_into_ezoc`` lines)."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side) or {}
    return bool(answer.get("blocks_retreat", bool(answer.get("exerted_by")))) if answer.get("exerted_by") else False


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
