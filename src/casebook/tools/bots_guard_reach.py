"""Guards, what both bots read first: the guard hexes of a side, the enemy units within reach of one and
the strength around it (split from :mod:`casebook.tools.bots_guard` in session 14; that module re-exports
every public name here).

- :func:`guard_hexes`: another side's strike hexes of the scenario's victory block (``when: instant``
  or ``kind: enter``), read by :func:`casebook.tools.planner_goals.goals_for` — no game, side or town
  is named here;
- :func:`reach`, :func:`pressure`, :func:`threat`, :func:`facing`: the enemy combat units within reach
  of a guard hex, and the part of them that meets it first;
- :func:`held`, :func:`garrison`, :func:`exposed`, :func:`open_guards`: the own combat strength in a
  guard hex and next to it, and the hexes next to it an attacker could stand in. A unit of a class the
  victory block names ``non_combat`` (and an HQ) is no combat unit (:func:`combat_unit`).

Heuristics for bots, not rules: the rules decide what is legal and who wins.
"""

from __future__ import annotations

import itertools
from typing import Any

from casebook.core.hexgrid import parse_hex
from casebook.tools.planner_goals import goals_for, non_combat_of

__all__ = ["guard_hexes", "combat_unit", "printed_ma", "strength", "reach", "hex_distance", "enemies_beyond_reach",
           "pressure", "holds", "open_guards", "threat", "ring", "held", "garrison", "exposed", "facing",
           "REACH_TURNS", "REACH_MIN"]

#: An enemy combat unit threatens a guard hex within REACH_TURNS times its printed MA (a turn's
#: move and a force march, or two turns' march) ...
REACH_TURNS = 2
#: ... and at least REACH_MIN hexes (the planner's GUARD_RADIUS: two turns' march of a foot unit).
REACH_MIN = 10


def guard_hexes(state: Any, side: str) -> frozenset[str]:
    """The hexes ``side`` must keep the enemy out of: the other sides' strike hexes of the victory
    block (cached per board, position — kept with its entry, so its id is not reused — and side)."""
    cache = state.game.__dict__.setdefault("_bot_guards", {})
    board = state.game.engine.board_for(state.data)
    key = (id(board), id(state.data), side)
    found = cache.get(key)
    if found is None:
        if len(cache) > 64:
            cache.clear()
        goals = goals_for(state.data.scenario, board, state.data.sides)
        found = cache[key] = (goals.guard(side), state.data)
    hexes: frozenset[str] = found[0]
    return hexes


def combat_unit(state: Any, u: dict[str, Any], keep: bool = False) -> bool:  # keep: what blocks entry, HQs aside
    return u.get("class") not in (("hq",) if keep else non_combat_of(state))


def printed_ma(u: dict[str, Any]) -> int:
    try:
        return int(u.get("ma") or 0)
    except (TypeError, ValueError):
        return 0


def strength(u: dict[str, Any]) -> float:
    """A unit's combat strength for the bots: printed strength less 0.5 per step lost (>= 0)."""
    try:
        return max(0.0, float(u.get("strength") or 0) - 0.5 * int(u.get("losses") or 0))
    except (TypeError, ValueError):
        return 0.0


def reach(unit: dict[str, Any]) -> int:
    """Hexes within which ``unit`` threatens a guard hex: ``REACH_TURNS`` × its printed MA,
    at least ``REACH_MIN``."""
    return max(REACH_MIN, REACH_TURNS * printed_ma(unit))


#: (layout, label, label) -> distance in hexes: a pure function of the three (session 15: the
#: guard reads asked ~45,000 distances in a profiled side-turn, each parsing both labels).
_DISTANCES: dict[tuple[Any, str, str], int] = {}
#: The numbers :func:`_enemies` gives (never reused in a process).
_NUMBERS = itertools.count()


def hex_distance(state: Any, a: str, b: str) -> int:
    grid = state.game.engine.board_for(state.data).grid
    key = (grid.layout, a, b)
    found = _DISTANCES.get(key)
    if found is None:
        if len(_DISTANCES) > 200_000:
            _DISTANCES.clear()
        found = _DISTANCES[key] = int(grid.distance(parse_hex(a), parse_hex(b)))
    return found


def _enemies(state: Any, side: str) -> tuple[int, list[dict[str, Any]]]:
    """(a number naming the enemy combat units' (id, hex, reach, strength) — the same number for
    the same facts, whatever the version —, those units) for ``side`` (once per version). The
    enemy stands still while a side moves, so what is read of it is kept across its moves."""
    cache = state.__dict__.setdefault("_bot_enemies", {})
    key = (state.data.version, side)
    found: tuple[int, list[dict[str, Any]]] | None = cache.get(key)
    if found is None:
        if len(cache) > 8:
            cache.clear()
        units = [u for u in state.data.units if u.get("hex") and u.get("side") != side and combat_unit(state, u)]
        sigs = state.__dict__.setdefault("_bot_enemy_sigs", {})
        if len(sigs) > 256:
            sigs.clear()  # what is kept under an old number is never asked for again (numbers are not reused)
        sig = (side, tuple((u.get("id"), u["hex"], reach(u), strength(u)) for u in units))
        number = sigs.get(sig)
        if number is None:
            number = sigs[sig] = next(_NUMBERS)
        found = cache[key] = (number, units)
    return found


def enemies_beyond_reach(state: Any, side: str, label: str) -> list[tuple[int, dict[str, Any]]]:
    """(hexes beyond its :func:`reach` — negative when within it, the unit) for every enemy combat
    unit of ``side`` on the map, as seen from ``label``: what :func:`pressure` and :func:`threat`
    both read (cached by the enemy units' places, reaches and strengths)."""
    number, units = _enemies(state, side)
    cache = state.__dict__.setdefault("_bot_enemy_reach", {})
    key = (number, label)
    found: list[int] | None = cache.get(key)
    if found is None:
        if len(cache) > 4096:
            cache.clear()
        found = cache[key] = [hex_distance(state, label, u["hex"]) - reach(u) for u in units]
    return list(zip(found, units))


def pressure(state: Any, side: str, label: str) -> float:
    """0..1: how near the enemy of ``side`` is to ``label``: 1 when an enemy combat unit is within
    its :func:`reach`, tapering to 0 at ``REACH_MIN`` hexes beyond it (cached per version)."""
    cache = state.__dict__.setdefault("_bot_pressure", {})
    key = (state.data.version, side, label)
    if key not in cache:
        if len(cache) > 256:
            cache.clear()
        beyond = min((b for b, _ in enemies_beyond_reach(state, side, label)), default=None)
        cache[key] = 0.0 if beyond is None else max(0.0, min(1.0, 1.0 - beyond / REACH_MIN))
    value: float = cache[key]
    return value


def holds(state: Any, side: str, label: str, keep: bool = False) -> bool:
    return any(u.get("side") == side and combat_unit(state, u, keep) for u in state.data.units_at(label))


def open_guards(state: Any, side: str) -> dict[str, float]:
    """Guard hex -> :func:`pressure`, for the guard hexes of ``side`` with no own combat unit on
    them and an enemy combat unit within reach (pressure 1; cached per version)."""
    cache = state.__dict__.setdefault("_bot_open_guards", {})
    key = (state.data.version, side)
    found: dict[str, float] | None = cache.get(key)
    if found is None:
        cache.clear()
        found = cache[key] = {g: p for g in sorted(guard_hexes(state, side))
                              if not holds(state, side, g) and (p := pressure(state, side, g)) >= 1.0}
    return found


def threat(state: Any, side: str, label: str) -> float:
    """The enemy combat strength that can reach ``label`` within the horizon: the sum of the
    :func:`strength` of every enemy combat unit within its :func:`reach` of it (cached per
    version)."""
    cache = state.__dict__.setdefault("_bot_threat", {})
    key = (state.data.version, side, label)
    found = cache.get(key)
    if found is None:
        if len(cache) > 256:
            cache.clear()
        found = cache[key] = sum(strength(u) for b, u in enemies_beyond_reach(state, side, label) if b <= 0)
    value: float = found
    return value


def ring(state: Any, label: str) -> tuple[str, ...]:
    return tuple(state.game.engine.board_for(state.data).label_neighbours(label))


def held(state: Any, side: str, label: str) -> float:
    """The own combat strength in ``label`` and the hexes next to it."""
    hexes = {label, *ring(state, label)}
    return sum(strength(u) for u in state.data.units if u.get("hex") in hexes and u.get("side") == side and combat_unit(state, u))


def garrison(state: Any, side: str, label: str) -> float:
    """The own combat strength in ``label`` itself."""
    return sum(strength(u) for u in state.data.units_at(label) if u.get("side") == side and combat_unit(state, u))


def exposed(state: Any, side: str, label: str) -> int:
    """How many hexes next to guard hex ``label`` an attacker could stand in: neither a guard hex
    of ``side`` nor holding an own combat unit."""
    guards = guard_hexes(state, side)
    return sum(1 for n in ring(state, label) if n not in guards and not holds(state, side, n))


def facing(state: Any, side: str, label: str) -> float:
    """The part of the :func:`threat` to guard hex ``label`` that meets it first: the strength of
    the enemy units within reach of it that stand no more than one hex farther from it than from
    the nearest guard hex of ``side`` (cached by the enemy units' facts, :func:`_enemies`)."""
    cache = state.__dict__.setdefault("_bot_facing", {})
    guards = sorted(guard_hexes(state, side))
    key = (_enemies(state, side)[0], tuple(guards))
    found: dict[str, float] | None = cache.get(key)
    if found is None:
        if len(cache) > 256:
            cache.clear()
        rows = {g: enemies_beyond_reach(state, side, g) for g in guards}
        first: dict[str, int] = {}
        for g in guards:
            for b, u in rows[g]:
                first[u["id"]] = min(first.get(u["id"], 99), b + reach(u))
        found = cache[key] = {g: sum(strength(u) for b, u in rows[g]
                                     if b <= 0 and b + reach(u) <= first[u["id"]] + 1) for g in guards}
    return found.get(label, 0.0)
