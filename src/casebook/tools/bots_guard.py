"""Guards: both bots keep a garrison on the hexes whose entry by an enemy unit loses them the game.

A *guard hex* of a side is another side's strike hex of the scenario's victory block (``when:
instant`` or ``kind: enter``), read by :func:`casebook.tools.planner_goals.goals_for` — no game,
side or town is named here. Shared by ``bot:greedy`` and ``bot:planner`` (docs/planner.md, "Guards"):

- **keep**: an action that would take the last own combat unit out of a guard hex (a move, rail
  move or overrun of its stack, an advance after combat or a retreat that leaves it) is not played
  (:func:`empties`), whatever the threat;
- **send**: a guard hex with no own combat unit, *threatened* (an enemy combat unit within its
  :func:`reach`), draws the nearest own stack (:func:`fills`, :func:`open_guards`, :func:`guard_call`);
- **weigh**: a guard hex *needs* ``GUARD_SHARE`` of the enemy strength that meets it first
  (:func:`facing`, within reach and no farther from it than from the nearest guard hex but one;
  :func:`need`) in the hex and the hexes next to it (:func:`held`), and ``GUARD_CORE`` of it in
  the hex itself while an attacker can stand next to it (:func:`core_need`, :func:`garrison`);
  moves and reinforcements that bring strength in are worth ``GUARD_BOLSTER`` per point of the
  shortfall (:func:`short_guards`, :func:`bolsters`), ones that take it out as much less
  (:func:`weakens`, :func:`advance_weakens`): nothing beyond the need, so the front is not stripped.

The guard hexes themselves and what stands within reach of them live in
:mod:`casebook.tools.bots_guard_reach` (split out in session 14; re-exported here).

Everything here is a heuristic for bots, not a rule: the rules decide what is legal and who wins.
"""

from __future__ import annotations

from typing import Any

from casebook.core.actions import Action
from casebook.tools.bots_guard_reach import (
    REACH_MIN,
    REACH_TURNS,
    exposed,
    facing,
    garrison,
    guard_hexes,
    held,
    open_guards,
    pressure,
    reach,
    strength,
    threat,
)
from casebook.tools.bots_guard_reach import combat_unit as _combat
from casebook.tools.bots_guard_reach import hex_distance as _distance
from casebook.tools.bots_guard_reach import holds as _held
from casebook.tools.bots_guard_reach import printed_ma as _ma
from casebook.tools.bots_guard_reach import ring as _ring

__all__ = ["guard_hexes", "reach", "pressure", "open_guards", "empties", "fills", "guard_call", "threat", "need",
           "held", "core_need", "facing", "garrison", "exposed", "short_guards", "bolsters", "weakens", "strength",
           "advance_weakens", "REACH_TURNS", "REACH_MIN", "GUARD_SEND", "GUARD_CALL", "GUARD_LEAVE", "GUARD_SHARE",
           "GUARD_BOLSTER", "GUARD_CORE", "crowds", "crowded_guards", "unstacks", "GUARD_CROWD", "short_call"]

#: What the greedy bot adds to a move that puts a combat unit into an open, threatened guard hex
#: (any other action of its one-step values is worth less than 12).
GUARD_SEND = 50.0
#: What an activation adds for each stack it wakes that can reach an open, threatened guard hex.
GUARD_CALL = 20.0
#: The value of an action that empties a guard hex (below ``pass``, 0: it is never chosen while
#: anything else is legal).
GUARD_LEAVE = -50.0
#: The share of the threat a guard hex needs in itself and the hexes next to it (an attacker bringing
#: all of it attacks at 5 to 1; a screen in the ring blocks hexes it must stand in). Session 11: a lone
#: 4-point garrison fell to 22 points with 18 IPs of support (e.g. the Blitz's Smolensk, seed 9).
GUARD_SHARE = 0.2
#: What the greedy bot adds to a move or a reinforcement per strength point it brings into a short
#: guard hex or its ring, up to the shortfall (a 10-point division: 20, above its other one-step
#: values; an open hex's GUARD_SEND stays above it).
GUARD_BOLSTER = 2.0
#: The share of the threat a guard hex needs *in itself* while an attacker can stand next to it: its
#: ring may be other guard hexes' garrisons, and an attack needs one free hex next to it (session 12,
#: e.g. the Blitz: a panzer stack attacked the Moscow hex facing it, 2 points with 12 in the ring).
GUARD_CORE = 0.2
#: What a retreat that ends in an own guard hex overstacked costs both bots (:func:`crowds`), beyond an
#: ordinary overstack: any other path is worth more, two steps lost about as much. The overstack's
#: fatigue at the end of each Movement Step (6.2E) eliminated the garrison with the unit that came
#: in when nothing moved out (session 13, e.g. the Blitz's Smolensk, planner vs planner seed 5, Turn 4).
GUARD_CROWD = 3.0
_MOVES = ("move", "rail-move", "overrun")


def empties(state: Any, action: Action, guards: frozenset[str] | None = None) -> str | None:
    """The guard hex of the action's side (or of ``guards``, hex labels, when given: the planner's
    held objectives, :meth:`~casebook.tools.planner_goals.Goals.keeps`) that ``action`` leaves with
    no own unit but HQs (a remnant, no garrison, still bars the entry), else None: a move, rail move or
    overrun of the stack on it (the moving units are the action's ``units`` if it names them, else the
    whole stack), an advance after
    combat, a retreat out of it or losses that eliminate its garrison (peeked). A retreat lets the
    attacker in: the defender takes the losses and stays where the rules offer that (session 12,
    e.g. the Blitz's greedy Soviets left a Moscow hex after an overrun at 3:2, seed 7)."""
    side, kind = action.side, action.kind
    guards = guard_hexes(state, side) if guards is None else guards
    if not guards:
        return None
    if kind in _MOVES:
        origin = action.get("stack")
        if origin not in guards:
            return None
        named = set(action.get("units") or ())
        here = [u for u in state.data.units_at(origin) if u.get("side") == side and _combat(state, u, True)]
        stay = [u for u in here if named and u["id"] not in named]
        return str(origin) if here and not stay else None
    if (kind == "advance" and action.get("path")) or kind == "retreat":
        held = [g for g in sorted(guards) if _held(state, side, g, True)]
        path = action.get("path") or ()
        if not held or (path and all(_distance(state, path[0], g) > 1 for g in held)):
            return None
        try:
            after = state.peek(action)
        except Exception:  # not applicable as listed: no judgement
            return None
        return next((g for g in held if not _held(after, side, g, True)), None)
    return None


def fills(state: Any, action: Action) -> str | None:
    """The open, threatened guard hex (:func:`open_guards`) a move or rail move of ``action``
    ends in with a combat unit, else None."""
    if action.kind not in ("move", "rail-move"):
        return None
    path = action.get("path") or (action.get("to"),)
    dest, origin = path[-1], action.get("stack")
    if not dest or not origin or dest not in open_guards(state, action.side):
        return None
    named = set(action.get("units") or ())
    moving = [u for u in state.data.units_at(origin) if u.get("side") == action.side and _combat(state, u)
              and (not named or u["id"] in named)]
    return str(dest) if moving else None


def guard_call(state: Any, side: str, stacks: Any) -> float:
    """``GUARD_CALL`` for each own stack in ``stacks`` (hex labels) with a combat unit whose
    printed MA reaches an open, threatened guard hex: waking it sends the garrison."""
    guards = open_guards(state, side)
    if not guards:
        return 0.0
    total = 0.0
    for label in stacks or ():
        combat = [u for u in state.data.units_at(label) if u.get("side") == side and _combat(state, u)]
        ma = max((_ma(u) for u in combat), default=0)
        if combat and any(_distance(state, label, g) <= ma for g in guards):
            total += GUARD_CALL
    return total


def need(state: Any, side: str, label: str) -> float:
    """The strength ``side`` wants in guard hex ``label`` and next to it: ``GUARD_SHARE`` of
    the threat that meets it first (:func:`facing`; with one guard hex, all the :func:`threat`;
    0 with no enemy combat unit within reach)."""
    return GUARD_SHARE * facing(state, side, label)


def core_need(state: Any, side: str, label: str) -> float:
    """The strength ``side`` wants in guard hex ``label`` itself: ``GUARD_CORE`` of the threat
    that meets it first (:func:`facing`) while an attacker can stand next to it (:func:`exposed`)."""
    want = GUARD_CORE * facing(state, side, label)
    return want if want > 0 and exposed(state, side, label) > 0 else 0.0


def _lacks(state: Any, side: str) -> dict[str, tuple[float, float]]:
    """Guard hex -> (what its hex and ring lack of :func:`need`, what the hex itself lacks of
    :func:`core_need`), for the guard hexes of ``side`` short of either (cached per version)."""
    cache = state.__dict__.setdefault("_bot_short_guards", {})
    key = (state.data.version, side)
    found: dict[str, tuple[float, float]] | None = cache.get(key)
    if found is None:
        cache.clear()
        found = {}
        for g in sorted(guard_hexes(state, side)):
            want = need(state, side, g)
            if want <= 0:
                continue
            area = max(0.0, want - held(state, side, g))
            core = max(0.0, core_need(state, side, g) - garrison(state, side, g))
            if area > 0 or core > 0:
                found[g] = (area, core)
        cache[key] = found
    return found


def short_guards(state: Any, side: str) -> dict[str, float]:
    """Guard hex -> how much strength it lacks — the most of :func:`need` less :func:`held` (the
    hex and its ring) and :func:`core_need` less :func:`garrison` (the hex itself) —, for the
    guard hexes of ``side`` short of either."""
    return {g: max(area, core) for g, (area, core) in _lacks(state, side).items()}


def bolsters(state: Any, action: Action) -> float:
    """The strength a move, rail move or reinforcement placement brings from outside into a
    short guard hex or a hex next to it (:func:`short_guards`), up to its shortfall (the most
    over the guard hexes it serves), else 0. A reinforcement not yet on the map is read from the
    pack's counter of its id."""
    kind = action.kind
    if kind not in ("move", "rail-move", "place-reinforcement"):
        return 0.0
    short = _lacks(state, action.side)
    if not short:
        return 0.0
    if kind == "place-reinforcement":
        dest, origin = action.get("hex"), None
        ids = {action.get("unit"), *(action.get("units") or ())} - {None}
        units = [u for u in state.data.units if u.get("id") in ids]
        counters = getattr(getattr(state.game.engine, "pack", None), "counters", None) or {}
        units += [counters[i] for i in sorted(ids - {u.get("id") for u in units}) if i in counters]
    else:
        dest, origin = (action.get("path") or (action.get("to"),))[-1], action.get("stack")
        named = set(action.get("units") or ())
        units = [u for u in state.data.units_at(origin or "") if u.get("side") == action.side
                 and (not named or u["id"] in named)]
    power = sum(strength(u) for u in units if _combat(state, u))
    if not dest or power <= 0:
        return 0.0
    best = 0.0
    for g, (ring_lack, core_lack) in short.items():
        area = {g, *_ring(state, g)}
        lack = max(ring_lack, core_lack) if dest == g else ring_lack  # only the hex fills its core ...
        if dest != g and core_lack > 0 and dest in area and _closes(state, action.side, g, dest):
            lack = max(lack, core_lack)  # ... or the last open hex next to it: no attacker stands there
        if dest in area and origin not in area:
            best = max(best, min(power, lack))
        elif dest == g and origin != g:  # from the ring into the hex: its own garrison
            best = max(best, min(power, core_lack))
    return best


def _closes(state: Any, side: str, g: str, dest: str) -> bool:
    """Whether an own combat unit entering ``dest`` closes the ring of guard hex ``g``: ``dest`` is
    the last hex next to it an attacker could stand in (:func:`exposed`), so its core need goes."""
    return exposed(state, side, g) == 1 and not _held(state, side, dest) and dest not in guard_hexes(state, side)


def short_call(state: Any, side: str, stacks: Any) -> float:
    """What an activation that wakes ``stacks`` (hex labels) is worth to the greedy bot for the guard
    hexes short of their need (:func:`short_guards`): for each woken stack with combat units outside a
    short guard hex's area whose printed MA reaches the area, ``GUARD_BOLSTER`` per strength point up
    to the shortfall, at most ``GUARD_CALL`` in all (session 14: a greedy side woke other HQs while one
    4-point division held its guard hex against two armies, e.g. the Blitz's Smolensk, seed 8)."""
    short = _lacks(state, side)
    if not short:
        return 0.0
    total = 0.0
    for label in [h for h in stacks or () if h]:
        combat = [u for u in state.data.units_at(label) if u.get("side") == side and _combat(state, u)]
        power, ma = sum(strength(u) for u in combat), max((_ma(u) for u in combat), default=0)
        if not combat or power <= 0:
            continue
        best = 0.0
        for g, (ring_lack, core_lack) in short.items():
            if label != g and label not in _ring(state, g) and _distance(state, label, g) - 1 <= ma:
                best = max(best, GUARD_BOLSTER * min(power, max(ring_lack, core_lack)))
        total += best
    return min(GUARD_CALL, total)


def weakens(state: Any, action: Action) -> float:
    """The strength a move or rail move takes out of a guard hex and the hexes next to it below
    what the hex needs (:func:`need`; the most over the guard hexes it leaves), else 0."""
    if action.kind not in ("move", "rail-move"):
        return 0.0
    origin = action.get("stack")
    dest = (action.get("path") or (action.get("to"),))[-1]
    guards = guard_hexes(state, action.side)
    if not origin or not dest or not guards:
        return 0.0
    named = set(action.get("units") or ())
    power = sum(strength(u) for u in state.data.units_at(origin) if u.get("side") == action.side
                and _combat(state, u) and (not named or u["id"] in named))
    worst = 0.0
    for g in sorted(guards):
        if origin == g and dest != g and (core := core_need(state, action.side, g)) > 0:
            worst = max(worst, min(power, max(0.0, core - (garrison(state, action.side, g) - power))))
        area = {g, *_ring(state, g)}
        if origin not in area or dest in area:
            continue
        want = need(state, action.side, g)
        if want > 0:
            worst = max(worst, min(power, max(0.0, want - (held(state, action.side, g) - power))))
    return worst


def advance_weakens(state: Any, action: Action) -> float:
    """The strength an advance after combat takes out of a guard hex and the hexes next to it
    below what the hex needs (the advancing units are the action's ``with``), else 0."""
    path = action.get("path") or ()
    if action.kind != "advance" or not path:
        return 0.0
    guards = guard_hexes(state, action.side)
    named = set(action.get("with") or ())
    if not guards or not named:
        return 0.0
    moving = [u for u in state.data.units if u.get("id") in named and u.get("hex") and _combat(state, u)]
    worst = 0.0
    for g in sorted(guards):
        area = {g, *_ring(state, g)}
        power = sum(strength(u) for u in moving if u["hex"] in area)
        out = sum(strength(u) for u in moving if u["hex"] == g)
        if out > 0 and path[-1] != g and (core := core_need(state, action.side, g)) > 0:
            worst = max(worst, min(out, max(0.0, core - (garrison(state, action.side, g) - out))))
        want = need(state, action.side, g) if power > 0 and path[-1] not in area else 0.0
        if want > 0:
            worst = max(worst, min(power, max(0.0, want - (held(state, action.side, g) - power))))
    return worst


def crowds(state: Any, action: Action) -> str | None:
    """The own guard hex a retreat ends in overstacked (the game's stacking answer on the position
    after it, peeked), else None; None in a game without a stacking answer."""
    path = action.get("path") or ()
    if action.kind != "retreat" or not path or path[-1] not in guard_hexes(state, action.side):
        return None
    end = str(path[-1])
    try:
        after = state.peek(action)
        ctx = after.ctx()
        answer = ctx.hook.casebook_stacking(ctx=ctx, hex=end, units=[u["id"] for u in after.data.units_at(end)])
    except Exception:  # not applicable as listed, or a hex the stacking answer refuses: no judgement
        return None
    return end if answer and answer.get("overstacked") else None


def _overstacked(state: Any, label: str, ids: list[str]) -> bool:
    ctx = state.ctx()
    try:
        answer = ctx.hook.casebook_stacking(ctx=ctx, hex=label, units=ids)
    except Exception:  # a hex or unit list the game's stacking answer refuses: no judgement
        return False
    return bool(answer and answer.get("overstacked"))


def crowded_guards(state: Any, side: str) -> frozenset[str]:
    """The guard hexes of ``side`` overstacked now with own units (the game's stacking answer; cached
    per version): 6.2F-like, each must be cleared at the earliest instant — an overstack left to the
    end of the Movement Step costs fatigue and then losses (6.2E), the garrison's as well."""
    cache = state.__dict__.setdefault("_bot_crowded_guards", {})
    key = (state.data.version, side)
    found: frozenset[str] | None = cache.get(key)
    if found is None:
        cache.clear()
        found = cache[key] = frozenset(
            g for g in sorted(guard_hexes(state, side))
            if (ids := [u["id"] for u in state.data.units_at(g) if u.get("side") == side])
            and _overstacked(state, g, ids))
    return found


def unstacks(state: Any, action: Action) -> bool:
    """Whether a move or rail move takes units out of an overstacked own guard hex
    (:func:`crowded_guards`) leaving a combat unit there (not :func:`empties`) and ends where it is
    not overstacked itself."""
    origin = action.get("stack")
    if action.kind not in ("move", "rail-move") or origin not in crowded_guards(state, action.side):
        return False
    dest = (action.get("path") or (action.get("to"),))[-1]
    if not dest or empties(state, action):
        return False
    named = set(action.get("units") or ())
    moving = [u["id"] for u in state.data.units_at(origin) if u.get("side") == action.side
              and (not named or u["id"] in named)]
    there = [u["id"] for u in state.data.units_at(dest) if u.get("side") == action.side]
    return not _overstacked(state, str(origin), [u["id"] for u in state.data.units_at(origin)
                                                if u.get("side") == action.side and u["id"] not in moving]) \
        and not _overstacked(state, str(dest), there + moving)
