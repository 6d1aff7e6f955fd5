"""Retreats and advances after combat in Moscow '41 (private to the `results` plugin): 11.2A-D,
11.4A-D, 7.5A-B, 10.6A."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from casebook.areas.retreat import paths_up_to, retreat_judge
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed

__all__ = ["in_ezoc", "enemy_occupied", "refused_path", "retreat_options", "path_refusals", "advance_paths",
           "supply_target", "shortfall_losses"]

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


#: why a step of a retreat is refused (:func:`_step_fault`): words and cases
_FAULTS = {
    "revisit": ("a retreat never enters a hex twice nor goes back to the hex it left", ("11.2A", "11.2D")),
    "enemy": ("a retreating unit cannot enter an enemy-occupied hex", ("11.2B",)),
    "ezoc": ("a retreating unit cannot enter an EZOC unless a friendly combat unit other than a remnant is there",
             ("11.2B", "7.5A")),
    "terrain": ("the TEC prohibits entering the hex", ("11.2B", "9.2A")),
}


def _step_fault(ctx: Any, units: Sequence[str], start: str, side: str, here: str, nxt: str,
                path: Sequence[str]) -> str | None:
    """Why ``units`` retreating along ``path`` (so far) may not go on from ``here`` into the
    adjacent ``nxt`` (a key of :data:`_FAULTS`), or None: never back through a hex already
    crossed, never into an enemy-occupied hex, nor an EZOC unless a friendly combat unit other
    than a remnant is there (11.2B, 7.5A), nor prohibited terrain."""
    if nxt == start or nxt in path:
        return "revisit"
    if enemy_occupied(ctx, nxt, side):
        return "enemy"
    if in_ezoc(ctx, nxt, side) and not _friendly_combat_unit(ctx, nxt, side, units):
        return "ezoc"
    if _prohibited(ctx, units, here, nxt):
        return "terrain"
    return None


def _neighbours(ctx: Any) -> Any:
    return lambda h: [hex_label(n) for n in ctx.board.neighbours(parse_hex(h))]


def _distance(ctx: Any) -> Any:
    return lambda a, b: ctx.board.grid.distance(parse_hex(a), parse_hex(b))


def _paths(ctx: Any, units: Sequence[str], start: str, side: str, length: int) -> list[list[str]]:
    """Every simple path of at most ``length`` hexes a retreat may take (:func:`_step_fault`;
    the shared area's :func:`~casebook.areas.retreat.paths_up_to`)."""
    return paths_up_to(start, _neighbours(ctx), lambda here, nxt, path: _step_fault(
        ctx, units, start, side, here, nxt, path) is None, length)


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


def _judge(ctx: Any, units: Sequence[str], start: str, side: str, attackers: Sequence[str]) -> Any:
    """``judge(path) -> (ends adjacent to an attacker, distance to the supply source, toward it,
    hexes away from start)`` for retreats of ``units`` from ``start`` (11.2C-D; the shared
    area's :func:`~casebook.areas.retreat.retreat_judge`)."""
    att_hexes = {ctx.state.unit(a)["hex"] for a in attackers if ctx.state.has_unit(a)}
    return retreat_judge(start, _distance(ctx), supply_target(ctx, units, side), att_hexes)


def _rank(ctx: Any, adjacent: bool, supply_distance: int, away: int) -> int:
    """The script quantity ``retreat_rank`` of a retreat (results.rules: 11.2C, 11.2D; lowest
    first), kept per state version by its facts."""
    facts = {"ends_adjacent_to_attacker": adjacent, "supply_distance": supply_distance, "hexes_from_start": away}
    key = ("results.retreat_rank", adjacent, supply_distance, away)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = int(ctx.value("retreat_rank", facts))
    return int(found)


def shortfall_losses(ctx: Any, hexes_short: int) -> int:
    """Combat losses for a retreat ``hexes_short`` hexes short of its distance: the script
    quantity ``retreat_shortfall_losses`` (results.rules: one per hex, 11.2B)."""
    return int(ctx.value("retreat_shortfall_losses", {"hexes_short": hexes_short})) if hexes_short > 0 else 0


@implements("11.2A", "11.2B", "11.2C", "11.2D", "7.5B")
def retreat_options(ctx: Any, units: Sequence[str], start: str, side: str, hexes: int,
                    attackers: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The retreats of ``units`` (one stack, moving together) from ``start`` by ``hexes`` hexes,
    best first: the longest paths the 11.2B priorities allow (one combat loss per hex not
    retreated, 11.2B, 7.5B) that no other area's validator refuses (6.2F: :func:`refused_path`),
    ranked by 11.2C (interpretation ``retreat-restrictions-rank``; the script quantity
    ``retreat_rank`` of results.rules) — not ending adjacent to an attacking unit, then toward a
    friendly supply source (closer to it than the start), then away from the combat hex (11.2D:
    never an advance), then by hex labels. Each: ``{"path", "hexes",
    "losses", "toward_supply", "ends_adjacent_to_attacker", "cases"}``. Every legal retreat path
    of that length is one of them (:func:`path_refusals`)."""
    units = [u for u in units if ctx.state.has_unit(u)]
    if not units:  # the whole stack is gone: nothing retreats
        return []
    paths = [p for p in _paths(ctx, units, start, side, hexes) if not refused_path(ctx, units, side, p)]
    best = max((len(p) for p in paths), default=0)
    judge = _judge(ctx, units, start, side, attackers)
    losses = shortfall_losses(ctx, hexes - best)
    options = []
    for p in paths:
        if len(p) != best:
            continue
        adjacent, d, toward, away = judge(p)
        options.append({"path": p, "hexes": len(p), "losses": losses,
                        "toward_supply": toward, "ends_adjacent_to_attacker": adjacent,
                        "_key": (_rank(ctx, adjacent, d, away), p),
                        "cases": ["11.2B", "11.2C"] + (["7.5B"] if len(p) < hexes else [])})
    options.sort(key=lambda o: o.pop("_key"))
    return options


def _bad(reason: str, cases: Sequence[str]) -> Refusal:
    return Refusal(reason, tuple(cases), "results")


@implements("11.2A", "11.2B", "7.5A", "7.5B", "6.2F")
def path_refusals(ctx: Any, units: Sequence[str], start: str, side: str, path: Sequence[Any], hexes: int,
                  attackers: Sequence[str] = ()) -> list[Refusal]:
    """Why ``units`` (one stack in ``start``) may not retreat along ``path`` when they retreat
    ``hexes`` hexes (an R result, or the hexes a number result's defender chose to retreat):
    each refusal names its cases; empty when ``path`` is one of :func:`retreat_options` — the
    same paths the retreat prompt lists from and ``ask retreat`` answers. In order: hexes of the
    map, adjacent one after the other, at most ``hexes`` of them (11.2A); each step open to a
    retreat (11.2B, 7.5A: :func:`_step_fault`); no other area's refusal (6.2F); as far as
    possible (11.2B, 7.5B). 11.2C ranks the legal paths and refuses none (interpretation
    ``retreat-restrictions-rank``)."""
    here, walked = start, []
    if len(path) > hexes:
        return [_bad(f"a path of {len(path)} hexes for a retreat of {hexes}", ("11.2A",))]
    for h in path:
        try:
            on_map = isinstance(h, str) and ctx.board.contains(parse_hex(h))
        except ValueError:
            on_map = False
        if not on_map:
            return [_bad(f"{h!r} is not a hex of the map", ("11.2A",))]
        if h not in {hex_label(n) for n in ctx.board.neighbours(parse_hex(here))}:
            return [_bad(f"{h} is not adjacent to {here}: a retreat goes hex by hex", ("11.2A",))]
        fault = _step_fault(ctx, units, start, side, here, h, walked)
        if fault is not None:
            reason, cases = _FAULTS[fault]
            return [_bad(f"{h}: {reason}", cases)]
        walked.append(h)
        here = h
    if walked:
        action = Action.make("retreat", side, path=list(walked), units=list(units))
        others = [r for rs in _other_validators(ctx)(ctx=ctx, action=action) for r in (rs or ())]
        if others:
            return others
    options = retreat_options(ctx, units, start, side, hexes, attackers)
    best = options[0]["hexes"] if options else 0
    if len(walked) < best:
        return [_bad(f"the stack can retreat {best} hexes (e.g. {','.join(options[0]['path'])}): it must retreat "
                     "as far as possible", ("11.2B", "7.5B"))]
    return []


@implements("11.4A", "11.4B", "11.4C", "11.4D")
def advance_paths(ctx: Any, side: str, vacated: str, hexes: int, eliminated: bool) -> list[list[str]]:
    """The advance paths after combat into the cleared hex ``vacated`` (11.4A): only that hex when
    the defenders were eliminated (11.4B, EZOCs ignored); after a retreat, up to ``hexes`` hexes
    (as many as the defenders retreated), the first into the vacated hex as if it were not in an
    EZOC, then any direction, never into an enemy-occupied hex and stopping on entering an EZOC
    (11.4C-D). Paths of every length from 1, in label order. The length is the script quantity
    ``advance_hexes``, the hexes entered and left the ``advance_into``/``advance_beyond`` lines
    (results.rules); the search is the shared area's :func:`~casebook.areas.retreat.paths_up_to`."""
    n = int(ctx.value("advance_hexes", {"defenders_eliminated": bool(eliminated), "retreat_required": hexes}))
    if n <= 1:
        return [[vacated]]

    def enter(here: str, there: str, path: list[str]) -> bool:
        return memo_allowed(ctx, "advance_into", {"enemy_occupied": enemy_occupied(ctx, there, side)})

    def stops(there: str) -> bool:
        return not memo_allowed(ctx, "advance_beyond", {"in_ezoc": in_ezoc(ctx, there, side)})
    return [[vacated, *p] for p in paths_up_to(vacated, _neighbours(ctx), enter, n - 1, stops)]
