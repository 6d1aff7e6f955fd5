"""Reinforcement entry (12.1) and withdrawals (12.4) for ``games/moscow41/plugins/reinforcement.py``.

The plugin's record (``state.plugin_data("reinforcement")``) holds, for the Replacement and
Reinforcement Step in progress, ``available``: the reinforcements the phasing player may place
now, each ``{"unit", "area" (or absent: a railhead, 12.1C), "areas": [entry areas allowed]}``;
``delayed``: units already delayed once for blocked entry (12.1B); ``arrived``: unit -> the turn
it arrived (12.1F); ``owed``: withdrawals not yet made for want of a unit in supply (12.4B).
"""

from __future__ import annotations

from typing import Any

from casebook.content.cases import implements
from casebook.core.hexgrid import parse_hex

from . import _reinforcement_query as q

__all__ = ["due_turn", "scheduled", "schedule_lines", "listed_hexes",
           "gather_due", "entry_hexes", "railhead_supply", "placement", "placeable", "delay_unplaced",
           "withdraw_due", "withdrawal_candidates"]


def _area_hexes(ctx: Any, area: str) -> list[str]:
    return q.hexes(ctx.board.entry_areas.get(area, ()))


def _blocked(ctx: Any, area: str, side: str) -> bool:
    """12.1B: every hex of the entry area holds enemy units."""
    hexes = _area_hexes(ctx, area)
    return bool(hexes) and all(q.enemy_occupied(ctx, h, side) for h in hexes)


def _edge_distance(ctx: Any, area: str, side: str) -> int:
    home = ctx.value("home_edge", {"side": side})  # 12.1B in reinforcement.rules
    edge = [parse_hex(h) for h in q.hexes(ctx.board.edge_hexes(home))]
    if not edge:
        return 0
    grid = ctx.board.grid
    return min(grid.distance(parse_hex(h), e) for h in _area_hexes(ctx, area) for e in edge)


@implements("12.1B")
def fallback_areas(ctx: Any, area: str, side: str) -> list[str]:
    """The entry areas a once-delayed reinforcement of ``area`` may use instead (12.1B): the
    adjacent ones (nearest to ``area`` in hexes) that are closer to the owner's map edge
    (quantity ``home_edge``: west for the German, east for the Soviet). Reading: interpretation ``entry-area-adjacent``."""
    others = [a for a in sorted(ctx.board.entry_areas) if a != area]
    if not others or area not in ctx.board.entry_areas:
        return []
    own = _area_hexes(ctx, area)

    def gap(a: str) -> int:
        return min(q.distance(ctx, x, y) for x in own for y in _area_hexes(ctx, a))

    nearest = min(gap(a) for a in others)
    mine = _edge_distance(ctx, area, side)
    return [a for a in others if gap(a) == nearest and _edge_distance(ctx, a, side) < mine]


@implements("12.0B", "12.0D")
def due_turn(ctx: Any, schedule: str, row: dict[str, Any]) -> int:
    """The turn a row of schedule ``schedule`` (``reinforcements`` or ``withdrawals``) is due:
    quantity ``reinforcement_turn`` (12.0B) or ``withdrawal_turn`` (12.0D) of
    rules/reinforcement.rules, given the row's listed turn."""
    name = "reinforcement_turn" if schedule == "reinforcements" else "withdrawal_turn"
    return int(ctx.value(name, {"schedule_turn": int(row["turn"]), "side": row["side"]}))


def scheduled(ctx: Any, schedule: str, turn: int, side: str) -> list[dict[str, Any]]:
    """Rows of schedule ``schedule`` due on ``turn`` for ``side`` (:func:`due_turn`)."""
    return [r for r in ctx.records(schedule) if r.get("side") == side and due_turn(ctx, schedule, r) == turn]


def schedule_lines(ctx: Any, schedule: str, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The lines that decided when ``row`` is due (for a trace event's ``lines``)."""
    name = "reinforcement_turn" if schedule == "reinforcements" else "withdrawal_turn"
    return ctx.fired_lines(ctx.quantity(name, {"schedule_turn": int(row["turn"]), "side": row["side"]}))


@implements("12.1A", "12.1B", "0.7.2.2B")
def gather_due(ctx: Any, side: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Take ``side``'s reinforcements due this turn out of ``state.pending`` and the schedule
    (:func:`scheduled`, 12.0B);
    return ``(available, delayed)``: those that can enter now (12.1A: their entry area, or a
    railhead when none is listed, 12.1C) and those delayed one turn because every hex of their
    area is enemy-occupied (12.1B; put back into ``pending`` for next turn). Changes the state."""
    st, turn, rec = ctx.state, ctx.state.turn, q.data(ctx)
    taken: list[dict[str, Any]] = []
    for t in range(1, turn + 1):
        taken += st.take_pending(t)
    due = []
    for p in taken:  # the other side's entries go back untouched
        if q.unit_side(ctx, p["unit"]) == side:
            due.append(p)
        else:
            st.add_pending(p["unit"], p["turn"], p.get("area"))
    known = ({p["unit"] for p in st.pending} | {d["unit"] for d in due}
             | {r["unit"] for r in st.removed} | set(rec.get("arrived", {})))
    for row in scheduled(ctx, "reinforcements", turn, side):
        if row["unit"] not in known and not st.has_unit(row["unit"]):
            due.append({"unit": row["unit"], "turn": turn, "area": row.get("area")})
    delayed_once = set(rec.get("delayed", []))
    available, delayed = [], []
    for p in due:
        area = p.get("area")
        entry = {"unit": p["unit"]}
        if area is None:
            available.append(entry)
            continue
        entry["area"] = area
        areas = [area] + (fallback_areas(ctx, area, side) if p["unit"] in delayed_once else [])
        open_areas = [a for a in areas if not _blocked(ctx, a, side)]
        if open_areas:
            available.append({**entry, "areas": open_areas})
        else:
            st.add_pending(p["unit"], turn + int(ctx.value("entry_delay_turns", {})), area)  # 12.1B
            delayed.append(entry)
            delayed_once.add(p["unit"])
    rec["delayed"] = sorted(delayed_once)
    q.set_data(ctx, rec)
    return available, delayed


def listed_hexes(ctx: Any, entry: dict[str, Any]) -> set[str]:
    """The hexes of the entry areas open to reinforcement ``entry``: the area its schedule row
    lists (12.1A) and those 12.1B opens after a delay (``entry["areas"]``)."""
    return {h for a in entry.get("areas", ()) for h in _area_hexes(ctx, a)}


@implements("12.1A")
def entry_hexes(ctx: Any, entry: dict[str, Any], side: str) -> list[str]:
    """The hexes reinforcement ``entry`` may be placed in now: the hexes of the map's entry areas
    that permission ``place_reinforcement`` allows (12.1A: those of its open entry areas, fact
    ``in_listed_area``) or any friendly railhead when no area is listed — those :func:`placeable` accepts
    (12.1C, 12.3C: one it can trace supply from; 12.1D: never enemy-occupied, an EZOC is allowed)."""
    if "areas" in entry:  # every entry area's hexes; 12.1A in reinforcement.rules keeps the listed ones
        listed = listed_hexes(ctx, entry)
        candidates = sorted({h for a in ctx.board.entry_areas for h in _area_hexes(ctx, a)})
        return [h for h in candidates if placeable(ctx, h, side, railhead=False, listed=h in listed)]
    free = [h for h in q.friendly_railheads(ctx, side) if not q.enemy_occupied(ctx, h, side)]
    ok = railhead_supply(ctx, entry, free)
    return [h for h in free if placeable(ctx, h, side, railhead=True, supplied=ok.get(h, True))]


def railhead_supply(ctx: Any, entry: dict[str, Any], hexes: list[str]) -> dict[str, bool]:
    """Whether reinforcement ``entry`` could trace supply from each of ``hexes`` (12.1C): a
    probe of its counter on a copy of the state; {} for a unit not in the counter mix."""
    probe = q.counter_unit(ctx, entry["unit"]) if entry["unit"] in ctx.pack.counters else None
    return q.probe_supply(ctx, hexes, probe) if probe is not None and hexes else {}


def _placement_facts(ctx: Any, hex_: str, side: str, railhead: bool, supplied: bool | None,
                     listed: bool) -> dict[str, Any]:
    facts: dict[str, Any] = {"enemy_occupied": q.enemy_occupied(ctx, hex_, side), "railhead_entry": railhead,
                             "in_listed_area": listed}
    if supplied is not None:
        facts["hex_supplied"] = supplied
    return facts


def placement(ctx: Any, hex_: str, side: str, *, railhead: bool, supplied: bool | None = None,
              listed: bool = True) -> Any:
    """The rule scripts' verdict on ``side`` placing a reinforcement in ``hex_`` (permission
    ``place_reinforcement``: 12.1A a hex of its listed entry area, ``listed``; 12.1D not
    enemy-occupied; 12.1C, 12.3C a railhead it can trace supply from, ``supplied`` — asked only
    for a railhead entry)."""
    return ctx.permission("place_reinforcement", _placement_facts(ctx, hex_, side, railhead, supplied, listed))


def placeable(ctx: Any, hex_: str, side: str, *, railhead: bool, supplied: bool | None = None,
              listed: bool = True) -> bool:
    """Whether :func:`placement` allows the placement (fast path, no explanation)."""
    return bool(ctx.allowed("place_reinforcement", _placement_facts(ctx, hex_, side, railhead, supplied, listed)))


@implements("12.1B")
def delay_unplaced(ctx: Any) -> list[str]:
    """At the end of the step, every reinforcement left unplaced waits (12.1E: voluntary delay;
    12.1B: no open hex) the turns of quantity ``voluntary_delay_turns`` (rules/reinforcement.rules,
    12.1E: 1, the next turn's Step 2). Returns their ids. Changes the state."""
    rec = q.data(ctx)
    out = []
    to_turn = ctx.state.turn + int(ctx.value("voluntary_delay_turns", {}))
    for entry in rec.get("available", []):
        if ctx.state.has_unit(entry["unit"]):  # entered some other way (a paratroop drop, 15.1B)
            continue
        ctx.state.add_pending(entry["unit"], to_turn, entry.get("area"))
        out.append(entry["unit"])
    if out:
        ctx.record("reinforcement-delayed", ("12.1E",), {"units": out, "to_turn": to_turn},
                   source="reinforcement.delay_unplaced")
    rec["available"] = []
    q.set_data(ctx, rec)
    return out


@implements("12.4A")
def withdrawal_candidates(ctx: Any, row: dict[str, Any]) -> list[str]:
    """Units that may fill withdrawal ``row`` (``unit``, ``type``, ``strength``, ``side``), best
    first: the named unit; else the substitutes permission ``substitute_withdrawal`` allows
    (12.4A: same type, same or greater strength), those of the listed strength first, then the
    others weakest first — only those permission ``withdraw_unit`` allows (12.4B: in
    supply)."""
    st = ctx.state
    own = [u for u in st.units if u.get("side") == row["side"] and "hex" in u]
    if st.has_unit(row["unit"]):
        named = [row["unit"]]
    else:
        named = []
    subs = [u for u in own if ctx.allowed("substitute_withdrawal", {  # 12.4A in reinforcement.rules
        "same_type": u.get("type") == row["type"], "strength_difference": (u.get("strength") or 0) - row["strength"]})]
    same = sorted(u["id"] for u in subs if (u.get("strength") or 0) == row["strength"])
    greater = [u["id"] for u in sorted((u for u in subs if (u.get("strength") or 0) != row["strength"]),
                                       key=lambda u: (u.get("strength") or 0, u["id"]))]
    for group in (named, same, greater):  # 12.4B in reinforcement.rules: in supply
        ok = [uid for uid in group if ctx.allowed("withdraw_unit", {"supplied": q.supplied(ctx, uid)})]
        if ok:
            return ok
    return []


@implements("12.4A")
def withdraw_due(ctx: Any, side: str) -> list[dict[str, Any]]:
    """Withdraw ``side``'s units due this turn (Withdrawal Schedule, :func:`scheduled`, 12.0D; plus any owed from earlier
    turns for want of a unit in supply). Each goes to ``removed`` as ``withdrawn`` at the IP cost
    of quantity ``withdrawal_ip_cost`` (12.4C: none). Returns ``[{"row", "unit" or None}]``. Changes the state."""
    rec = q.data(ctx)
    rows = [dict(r) for r in rec.get("owed", []) if r["side"] == side]
    rows += [dict(r) for r in scheduled(ctx, "withdrawals", ctx.state.turn, side)]  # 12.0D
    owed = [r for r in rec.get("owed", []) if r["side"] != side]
    done = []
    for row in rows:
        found = withdrawal_candidates(ctx, row)
        if not found:
            owed.append(row)
            done.append({"row": row, "unit": None})
            continue
        ctx.state.remove_unit(found[0], "withdrawn")
        cost = int(ctx.value("withdrawal_ip_cost", {}))  # 12.4C in reinforcement.rules: none
        if cost:
            ctx.state.add_track("ip", -min(cost, ctx.state.track("ip", side)), side)
        ctx.changed()
        ctx.record("withdrawal", ("12.4A", "12.4C"), {"unit": found[0], "for": row["unit"],
                                                      "lines": schedule_lines(ctx, "withdrawals", row)},
                   source="reinforcement.withdraw_due", side=side)
        done.append({"row": row, "unit": found[0]})
    rec = q.data(ctx)
    rec["owed"] = owed
    q.set_data(ctx, rec)
    return done
