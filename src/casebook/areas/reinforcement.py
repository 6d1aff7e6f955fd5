"""Shared rules area ``reinforcement`` (a library a game's reinforcement plugin calls): the
schedules of arrivals and withdrawals, entry in the map's entry areas or at a railhead, delays,
and units withdrawn or substituted. Every number, verdict and citation is the game's
(e.g. Moscow '41's ``rules/reinforcement.rules``, tables ``reinforcements``, ``withdrawals``):

- records ``reinforcements`` (``turn``, ``side``, ``unit``, ``area``: an entry area of the map,
  absent: a friendly railhead) and ``withdrawals`` (``turn``, ``side``, ``unit``, ``type``,
  ``strength``); quantities ``reinforcement_turn`` / ``withdrawal_turn`` (fact ``schedule_turn``,
  ``side``): the turn a row is due;
- permission ``place_reinforcement`` (facts ``enemy_occupied``, ``railhead_entry``,
  ``in_listed_area``, ``hex_supplied``): where an arrival may be placed; a railhead entry is
  asked whether the unit could trace supply there (a probe of its counter, the supply hook);
- quantities ``entry_delay_turns`` (an arrival whose every entry hex is enemy-occupied waits;
  after one delay the adjacent entry areas nearer the side's ``home_edge`` — a map edge, fact
  ``side`` — open to it) and ``voluntary_delay_turns`` (an arrival left unplaced at the end of
  the step waits; a ``reinforcement-delayed`` event cites the quantity's cases);
- permissions ``substitute_withdrawal`` (facts ``same_type``, ``strength_difference``) and
  ``withdraw_unit`` (fact ``supplied``), quantity ``withdrawal_ip_cost`` (points of track ``ip``):
  who is withdrawn for a row (the named unit, else a substitute); a ``withdrawal`` event cites
  the substitution lines and the cost's cases.

The record (``state.plugin_data("reinforcement")``) holds, for the step in progress,
``available``: the arrivals the phasing player may place now, each ``{"unit", "area" (or absent:
a railhead), "areas": [entry areas allowed]}``; ``delayed``: units already delayed once for
blocked entry; ``arrived``: unit -> the turn it arrived; ``owed``: withdrawals not yet made for
want of a unit in supply.

Public API: the functions of ``__all__``; :data:`probe` (the private queries: supply, command,
ZOC, the record) for the game's plugin.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.core.hexgrid import parse_hex
from casebook.script.factlines import FactLines

from . import _reinforcement_probe as q
from ._zoc_cites import line_cases

#: The queries the area asks (supply, command, ZOC, the step's record), for the game's plugin.
probe = q

__all__ = ["STATE_SCHEMA", "probe", "arrived_within", "fallback_areas", "due_turn", "delayed_rows", "scheduled",
           "schedule_lines", "listed_hexes", "railhead_lines", "gather_due", "entry_hexes", "railhead_supply", "placement",
           "placeable", "delay_unplaced", "withdraw_due", "withdrawal_candidates"]


def _area_hexes(ctx: Any, area: str) -> list[str]:
    return q.hexes(ctx.board.entry_areas.get(area, ()))


def _blocked(ctx: Any, area: str, side: str) -> bool:
    """Whether every hex of entry area ``area`` holds units of another side."""
    hexes = _area_hexes(ctx, area)
    return bool(hexes) and all(q.enemy_occupied(ctx, h, side) for h in hexes)


def _edge_distance(ctx: Any, area: str, side: str) -> int:
    home = ctx.value("home_edge", {"side": side})
    edge = [parse_hex(h) for h in q.hexes(ctx.board.edge_hexes(home))]
    if not edge:
        return 0
    grid = ctx.board.grid
    return min(grid.distance(parse_hex(h), e) for h in _area_hexes(ctx, area) for e in edge)


def fallback_areas(ctx: Any, area: str, side: str) -> list[str]:
    """The entry areas a once-delayed reinforcement of ``area`` may use instead: the adjacent ones
    (nearest to ``area`` in hexes) that are closer to the owner's map edge (quantity
    ``home_edge``; e.g. Moscow '41's interpretation ``entry-area-adjacent``)."""
    others = [a for a in sorted(ctx.board.entry_areas) if a != area]
    if not others or area not in ctx.board.entry_areas:
        return []
    own = _area_hexes(ctx, area)

    def gap(a: str) -> int:
        return min(q.distance(ctx, x, y) for x in own for y in _area_hexes(ctx, a))

    nearest = min(gap(a) for a in others)
    mine = _edge_distance(ctx, area, side)
    return [a for a in others if gap(a) == nearest and _edge_distance(ctx, a, side) < mine]


def due_turn(ctx: Any, schedule: str, row: dict[str, Any]) -> int:
    """The turn a row of schedule ``schedule`` (``reinforcements`` or ``withdrawals``) is due:
    quantity ``reinforcement_turn`` or ``withdrawal_turn``, given the row's listed turn."""
    name = "reinforcement_turn" if schedule == "reinforcements" else "withdrawal_turn"
    return int(ctx.value(name, {"schedule_turn": int(row["turn"]), "side": row["side"]}))


def scheduled(ctx: Any, schedule: str, turn: int, side: str) -> list[dict[str, Any]]:
    """Rows of schedule ``schedule`` due on ``turn`` for ``side`` (:func:`due_turn`)."""
    return [r for r in ctx.records(schedule) if r.get("side") == side and due_turn(ctx, schedule, r) == turn]


def delayed_rows(ctx: Any, schedule: str, turn: int, side: str) -> list[dict[str, Any]]:
    """Rows of ``side`` listed for ``turn`` that a line of ``reinforcement_turn`` /
    ``withdrawal_turn`` moves to another turn (:func:`due_turn`; e.g. a house rule's
    ``schedule_turn + 1 by 12.0B``): ``[{"unit", "listed", "due", "cases"}]``, the quantity's
    ``cases`` those of the quantity's lines that fired (an answer citing them names the lines)."""
    name = "reinforcement_turn" if schedule == "reinforcements" else "withdrawal_turn"
    out = []
    for r in (r for r in ctx.records(schedule) if r.get("side") == side and int(r["turn"]) == turn):
        fired = ctx.fired_lines(ctx.quantity(name, {"schedule_turn": turn, "side": side}))
        if (due := due_turn(ctx, schedule, r)) != turn:
            cases = dict.fromkeys(c for ln in fired for c in ln.get("cases") or ())
            out.append({"unit": r.get("unit"), "listed": turn, "due": due, "cases": list(cases)})
    return out


def schedule_lines(ctx: Any, schedule: str, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The lines that decided when ``row`` is due (for a trace event's ``lines``): the rule lines,
    then the schedule's row (its ``file:line``, or the erratum's that added or changed it)."""
    name = "reinforcement_turn" if schedule == "reinforcements" else "withdrawal_turn"
    lines = ctx.fired_lines(ctx.quantity(name, {"schedule_turn": int(row["turn"]), "side": row["side"]}))
    found = ctx.pack.table_lines.row(schedule, row)
    return lines + ([{"source": found["source"], "cases": found["cases"]}] if found is not None else [])


def gather_due(ctx: Any, side: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Take ``side``'s reinforcements due this turn out of ``state.pending`` and the schedule
    (:func:`scheduled`); return ``(available, delayed)``: those that can enter now (their entry
    area, or a railhead when none is listed) and those delayed ``entry_delay_turns`` because
    every hex of their area is enemy-occupied (put back into ``pending``). Changes the state."""
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
            st.add_pending(p["unit"], turn + int(ctx.value("entry_delay_turns", {})), area)
            delayed.append(entry)
            delayed_once.add(p["unit"])
    rec["delayed"] = sorted(delayed_once)
    q.set_data(ctx, rec)
    return available, delayed


def listed_hexes(ctx: Any, entry: dict[str, Any]) -> set[str]:
    """The hexes of the entry areas open to reinforcement ``entry``: the area its schedule row
    lists and those opened after a delay (``entry["areas"]``)."""
    return {h for a in entry.get("areas", ()) for h in _area_hexes(ctx, a)}


def entry_hexes(ctx: Any, entry: dict[str, Any], side: str) -> list[str]:
    """The hexes reinforcement ``entry`` may be placed in now: the hexes of the map's entry areas
    that permission ``place_reinforcement`` allows (fact ``in_listed_area``: one of its open
    entry areas) or, when no area is listed, the friendly railheads :func:`placeable` accepts
    (fact ``hex_supplied``: it could trace supply there; ``enemy_occupied``)."""
    if "areas" in entry:  # every entry area's hexes; the game's lines keep the listed ones
        listed = listed_hexes(ctx, entry)
        candidates = sorted({h for a in ctx.board.entry_areas for h in _area_hexes(ctx, a)})
        return [h for h in candidates if placeable(ctx, h, side, railhead=False, listed=h in listed)]
    free = [h for h in q.friendly_railheads(ctx, side) if not q.enemy_occupied(ctx, h, side)]
    ok = railhead_supply(ctx, entry, free)
    return [h for h in free if placeable(ctx, h, side, railhead=True, supplied=ok.get(h, True))]


def railhead_supply(ctx: Any, entry: dict[str, Any], hexes: list[str]) -> dict[str, bool]:
    """Whether reinforcement ``entry`` could trace supply from each of ``hexes``: a probe of its
    counter on a copy of the state; {} for a unit not in the counter mix."""
    probe = q.counter_unit(ctx, entry["unit"]) if entry["unit"] in ctx.pack.counters else None
    return q.probe_supply(ctx, hexes, probe) if probe is not None and hexes else {}


def railhead_lines(ctx: Any, entry: dict[str, Any], hex_: str) -> tuple[dict[str, Any], ...]:
    """The lines that decided :func:`railhead_supply` for ``hex_`` (asked before while lines
    were collected; else ``()``): the supply answer of the entry's probe there."""
    unit = entry["unit"]
    return q.probe_lines(ctx, hex_, q.counter_unit(ctx, unit)) if unit in ctx.pack.counters else ()


def _placement_facts(ctx: Any, hex_: str, side: str, railhead: bool, supplied: bool | None,
                     listed: bool, lines: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    facts: dict[str, Any] = {"enemy_occupied": q.enemy_occupied(ctx, hex_, side), "railhead_entry": railhead,
                             "in_listed_area": listed}
    if supplied is not None:
        facts["hex_supplied"] = supplied
    return FactLines(facts, {"hex_supplied": lines}) if lines else facts


def placement(ctx: Any, hex_: str, side: str, *, railhead: bool, supplied: bool | None = None,
              listed: bool = True, supplied_lines: tuple[dict[str, Any], ...] = ()) -> Any:
    """The rule scripts' verdict on ``side`` placing a reinforcement in ``hex_`` (permission
    ``place_reinforcement``: ``listed`` a hex of its listed entry area; ``supplied`` a railhead
    it can trace supply from — given only for a railhead entry; ``supplied_lines``: the lines
    that decided it, :func:`railhead_lines`, lent to a refusal by a line reading it)."""
    facts = _placement_facts(ctx, hex_, side, railhead, supplied, listed, supplied_lines)
    return ctx.permission("place_reinforcement", facts)


def placeable(ctx: Any, hex_: str, side: str, *, railhead: bool, supplied: bool | None = None,
              listed: bool = True) -> bool:
    """Whether :func:`placement` allows the placement (fast path, no explanation)."""
    return bool(ctx.allowed("place_reinforcement", _placement_facts(ctx, hex_, side, railhead, supplied, listed)))


def delay_unplaced(ctx: Any) -> list[str]:
    """At the end of the step, every reinforcement left unplaced waits the turns of quantity
    ``voluntary_delay_turns``; a ``reinforcement-delayed`` event cites that quantity's cases.
    Returns their ids. Changes the state."""
    rec = q.data(ctx)
    out = []
    to_turn = ctx.state.turn + int(ctx.value("voluntary_delay_turns", {}))
    for entry in rec.get("available", []):
        if ctx.state.has_unit(entry["unit"]):  # entered some other way (e.g. dropped from the air)
            continue
        ctx.state.add_pending(entry["unit"], to_turn, entry.get("area"))
        out.append(entry["unit"])
    if out:
        cases = ctx.rules.quantities["voluntary_delay_turns"].code.cases
        ctx.record("reinforcement-delayed", cases, {"units": out, "to_turn": to_turn},
                   source="reinforcement.delay_unplaced")
    rec["available"] = []
    q.set_data(ctx, rec)
    return out


def withdrawal_candidates(ctx: Any, row: dict[str, Any]) -> list[str]:
    """Units that may fill withdrawal ``row`` (``unit``, ``type``, ``strength``, ``side``), best
    first: the named unit; else the substitutes permission ``substitute_withdrawal`` allows
    (facts ``same_type``, ``strength_difference``), those of the listed strength first, then
    the others weakest first — only those permission ``withdraw_unit`` allows (fact ``supplied``)."""
    st = ctx.state
    own = [u for u in st.units if u.get("side") == row["side"] and "hex" in u]
    if st.has_unit(row["unit"]):
        named = [row["unit"]]
    else:
        named = []
    subs = [u for u in own if ctx.allowed("substitute_withdrawal", {
        "same_type": u.get("type") == row["type"], "strength_difference": (u.get("strength") or 0) - row["strength"]})]
    same = sorted(u["id"] for u in subs if (u.get("strength") or 0) == row["strength"])
    greater = [u["id"] for u in sorted((u for u in subs if (u.get("strength") or 0) != row["strength"]),
                                       key=lambda u: (u.get("strength") or 0, u["id"]))]
    for group in (named, same, greater):
        ok = [uid for uid in group if ctx.allowed("withdraw_unit", {"supplied": q.supplied(ctx, uid)})]
        if ok:
            return ok
    return []


def withdraw_due(ctx: Any, side: str) -> list[dict[str, Any]]:
    """Withdraw ``side``'s units due this turn (schedule ``withdrawals``, :func:`scheduled`; plus
    any owed from earlier turns for want of a unit in supply). Each goes to ``removed`` as
    ``withdrawn`` at the cost of quantity ``withdrawal_ip_cost`` (points of track ``ip``).
    Returns ``[{"row", "unit" or None}]``. Changes the state."""
    rec = q.data(ctx)
    rows = [dict(r) for r in rec.get("owed", []) if r["side"] == side]
    rows += [dict(r) for r in scheduled(ctx, "withdrawals", ctx.state.turn, side)]
    owed = [r for r in rec.get("owed", []) if r["side"] != side]
    done: list[dict[str, Any]] = []
    for row in rows:
        found = withdrawal_candidates(ctx, row)
        if not found:
            owed.append(row)
            done.append({"row": row, "unit": None})
            continue
        ctx.state.remove_unit(found[0], "withdrawn")
        cost = int(ctx.value("withdrawal_ip_cost", {}))
        if cost:
            ctx.state.add_track("ip", -min(cost, ctx.state.track("ip", side)), side)
        ctx.changed()
        cases = [*line_cases(ctx, ("substitute_withdrawal",)), *ctx.rules.quantities["withdrawal_ip_cost"].code.cases]
        ctx.record("withdrawal", cases, {"unit": found[0], "for": row["unit"],
                                                      "lines": schedule_lines(ctx, "withdrawals", row)},
                   source="reinforcement.withdraw_due", side=side)
        done.append({"row": row, "unit": found[0]})
    rec = q.data(ctx)
    rec["owed"] = owed
    q.set_data(ctx, rec)
    return done


def arrived_within(ctx: Any, uid: str) -> bool:
    """Whether ``uid`` entered as a reinforcement within the turns of quantity
    ``arrival_command_turns`` (e.g. Moscow '41's 12.1F: in command the turn it arrives)."""
    when = q.data(ctx).get("arrived", {}).get(uid)
    return when is not None and 0 <= ctx.state.turn - when < int(ctx.value("arrival_command_turns", {}))


class _Entry(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    unit: str
    area: str
    areas: list[str]


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.reinforcement``: the step in progress (``at``: turn:side, ``available``,
    ``placed``), units delayed once, the turn each unit arrived, withdrawals owed (see the module
    docstring). A game's reinforcement plugin declares it as its own."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    at: str
    available: list[_Entry]
    placed: bool
    delayed: list[str]
    arrived: dict[str, Annotated[int, Field(ge=1)]]
    owed: list[dict[str, Any]]
