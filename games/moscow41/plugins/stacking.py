"""Moscow '41 stacking (6.0-6.2): stacking points against the limit of a hex, and overstacking —
judged at the end of the Command and Movement Steps, never while a unit passes through (6.2A).

Answers ``casebook_stacking``, ``casebook_facts`` (``overstacked`` of a hex or of a unit's hex,
read by combat for 6.2D) and ``casebook ask … stacking HEX``; refuses (``casebook_validate_action``)
a move that ends overstacked (6.2B, unless it overruns from there, 6.2C), an attack by more than
the stacking limit from one hex (6.2D) and a retreat into an overstack when another hex is open
(6.2F); at the end of the Movement Step fatigues every overstacked unit (6.2E). The points and
limits are the rule-script quantities ``stacking_points`` and ``stacking_limit``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal, hookimpl
from casebook.core.state import HEX_RE
from casebook.games.moscow41.plugins._rule_refusals import refusals

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "unit_points", "stacking_answer", "end_hex_refusals", "attack_refusals",
           "retreat_refusals", "overstack_check", "casebook_stacking", "casebook_answer",
           "casebook_facts", "casebook_validate_action", "casebook_step_end"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["stacking_limit", "stacking_points"]}

#: question -> usage line, for `casebook ask` (see docs/ask/stacking.md)
QUESTIONS: dict[str, str] = {
    "stacking": "stacking HEX — stacking points, limit and overstacking of the units in HEX (6.0-6.2)",
}
SOURCE = "stacking"
_MOVES = ("move", "react-move", "force-march", "rail-move")


@implements("6.0A", "6.0B", "6.1")
def unit_points(ctx: Any, unit: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
    """Stacking points of one unit (script ``stacking_points``): German division 3, other 1
    (6.0A); Soviet division 2, other 1 (6.0B); HQs 0 (6.1: any number stack free)."""
    return _points(ctx, ctx.lasting("stacking.points"), unit)


def _points(ctx: Any, kept: dict[Any, Any], unit: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
    """:func:`unit_points` from ``kept`` (the lasting cache: the script reads these three facts
    only), computed on a miss."""
    key = (unit.get("side"), unit.get("class"), unit.get("size", "none"))
    found = kept.get(key)
    if found is None:
        q = ctx.quantity("stacking_points", {"side": key[0], "unit_class": key[1], "unit_size": key[2]})
        found = kept[key] = (int(q.value), tuple(q.cases))
    return found


def _limit(ctx: Any, side: str) -> tuple[int, tuple[str, ...]]:
    kept = ctx.lasting("stacking.limit")  # the script reads the side only
    found = kept.get(side)
    if found is None:
        q = ctx.quantity("stacking_limit", {"side": side})
        found = kept[side] = (int(q.value), tuple(q.cases))
    return found


def _records(ctx: Any, hex_: str, units: Sequence[Any] | None) -> list[Mapping[str, Any]]:
    if units is None:
        return list(ctx.state.units_at(hex_))
    out = []
    for u in units:
        if isinstance(u, str):
            if not ctx.state.has_unit(u):
                raise QuestionError(f"no unit {u!r} on the map")
            u = ctx.state.unit(u)
        out.append(u)
    return out


@implements("6.0A", "6.0B", "6.1", "6.2C")
def stacking_answer(ctx: Any, hex_: str, units: Sequence[Any] | None = None, *,
                    copy: bool = True) -> dict[str, Any]:
    """Stacking in ``hex_`` of ``units`` (ids or unit records; default: the units there now)::

        {"hex", "side", "points", "limit", "overstacked", "excess", "units": [{"id", "points"}],
         "must_leave": [unit ids], "cases"}

    ``points``/``limit`` in stacking points; ``overstacked`` when points exceed the limit;
    ``excess`` = points over the limit. With units of both sides (during an overrun) the side
    the more overstacked is reported. ``must_leave``: the unactivated combat units that must
    move out of an overstacked hex during the Movement Step if possible (6.2C).
    Raises QuestionError for a bad or off-map hex or an unknown unit id. ``copy=False`` (this
    plugin's own reads) returns the kept answer itself: read-only.
    """
    on_map = ctx.lasting("stacking.on_map")
    if not isinstance(hex_, str) or hex_ not in on_map:
        try:
            if not ctx.board.contains(parse_hex(hex_)):
                raise QuestionError(f"hex {hex_} is off the map ({ctx.board.grid.describe()})")
        except ValueError as exc:
            raise QuestionError(str(exc)) from None
        on_map[hex_] = True
    recs = _records(ctx, hex_, units)
    # the answer reads these fields of the units only (and the phasing side for an empty hex):
    # kept by them across state changes (a movement listing asks about every destination)
    fields = tuple((u.get("id"), u.get("counter"), u.get("side"), u.get("class"), u.get("size"),
                    u.get("activated")) for u in recs)
    key = (hex_, fields, None if recs else ctx.state.phasing)
    kept = ctx.lasting("stacking.answers")
    found = kept.get(key)
    if found is None:
        found = kept[key] = _answer(ctx, hex_, recs)
        while len(kept) > _ANSWERS_KEPT:
            kept.pop(next(iter(kept)))
    if not copy:
        return found
    return {**found, "units": [dict(r) for r in found["units"]], "must_leave": list(found["must_leave"]),
            "cases": list(found["cases"])}


#: How many stacking answers are kept across state changes.
_ANSWERS_KEPT = 4096


def _answer(ctx: Any, hex_: str, recs: list[Mapping[str, Any]]) -> dict[str, Any]:
    sides = list(dict.fromkeys(u.get("side") for u in recs)) or [ctx.state.phasing or "german"]
    kept = ctx.lasting("stacking.points")
    best: dict[str, Any] | None = None
    for side in sides:
        mine = [u for u in recs if u.get("side") == side]
        rows, cases = [], []
        for u in mine:
            pts, pc = _points(ctx, kept, u)
            rows.append({"id": u.get("id"), "points": pts})
            cases += pc
        limit, lc = _limit(ctx, side)
        points = sum(r["points"] for r in rows)
        over = points > limit
        answer = {"hex": hex_, "side": side, "points": points, "limit": limit, "overstacked": over,
                  "excess": max(0, points - limit), "units": rows,
                  "must_leave": [u["id"] for u in mine if over and not u.get("activated")
                                 and u.get("class") != "hq"],
                  "cases": list(dict.fromkeys(["6.0", *cases, *lc, *(["6.2A", "6.2C"] if over else [])]))}
        if best is None or answer["excess"] > best["excess"]:
            best = answer
    assert best is not None
    return best


def _moving(ctx: Any, action: Any, start: str | None) -> list[Mapping[str, Any]]:
    ids = action.get("units") or action.get("unit")
    if isinstance(ids, str):
        ids = (ids,)
    if ids:
        return [ctx.state.unit(i) for i in ids if ctx.state.has_unit(i)]
    return [u for u in ctx.state.units_at(start)] if start else []


@implements("6.2B")
def end_hex_refusals(ctx: Any, action: Any) -> list[Refusal]:
    """6.2B: a move may not end overstacked — only the last hex of the ``path`` (or ``to``)
    counts, hexes passed through may be overstacked (6.2A); permission ``end_move_overstacked``
    (stacking.rules: forbidden by 6.2B, permitted by 6.2C to a move that overruns from its last
    hex, ``overrun`` argument)."""
    path = action.get("path") or action.get("to")
    overrun = bool(action.get("overrun"))
    if not path or ctx.allowed("end_move_overstacked", {"hex_overstacked": True, "overrun": overrun}):
        return []  # 6.2C in stacking.rules: even an overstack may end this move
    end = path if isinstance(path, str) else path[-1]
    start = action.get("stack") or action.get("from")
    moving = [u for u in _moving(ctx, action, start) if u.get("side") == action.side]
    ids = {u.get("id") for u in moving}
    if not moving or not HEX_RE.match(str(end)):
        return []
    stay = [u for u in ctx.state.units_at(end) if u.get("id") not in ids]
    answer = stacking_answer(ctx, end, [*stay, *moving])
    if not answer["overstacked"]:
        return []
    verdict = ctx.permission("end_move_overstacked", {"hex_overstacked": True, "overrun": overrun})
    return [Refusal(f"a move cannot end overstacked: {end} would hold {answer['points']} stacking "
                    f"points against a limit of {answer['limit']}", tuple(verdict.cases), SOURCE)]


@implements("6.2D")
def attack_refusals(ctx: Any, action: Any) -> list[Refusal]:
    """6.2D: from one hex only units up to the stacking limit may attack (attacker's choice)."""
    ids = action.get("with") or ()
    ids = (ids,) if isinstance(ids, str) else tuple(dict.fromkeys(ids))  # a unit named twice counts once
    by_hex: dict[str, list[Mapping[str, Any]]] = {}
    for i in ids:
        if ctx.state.has_unit(i) and ctx.state.unit(i).get("hex"):
            u = ctx.state.unit(i)
            by_hex.setdefault(u["hex"], []).append(u)
    out = []
    for h, units in sorted(by_hex.items()):
        answer = stacking_answer(ctx, h, units)
        if answer["overstacked"]:
            out.append(Refusal(f"only units up to the stacking limit may attack from the "
                               f"overstacked hex {h}: {answer['points']} points against a limit "
                               f"of {answer['limit']}", ("6.2D",), SOURCE))
    return out


@implements("6.2F")
def retreat_refusals(ctx: Any, action: Any) -> list[Refusal]:
    """6.2F: a retreat may end in an overstack only if no other route is available: refused
    as the ``retreat_into_overstack`` lines of stacking.rules say, given ``other_route_open``
    — another adjacent hex (not enemy-occupied, open to retreat as far as ZOCs go — the
    ``blocks_retreat`` of ``casebook_zoc``, 7.5A — and not overstacked) is open."""
    path = action.get("path")
    ids = action.get("units") or action.get("unit")
    if not path or not ids:
        return []
    path = [path] if isinstance(path, str) else list(path)
    units = _records(ctx, path[-1], [ids] if isinstance(ids, str) else list(ids))
    start = units[0].get("hex")
    moving = {u.get("id") for u in units}
    stay = [u for u in ctx.state.units_at(path[-1]) if u.get("id") not in moving]
    if not start or not stacking_answer(ctx, path[-1], [*stay, *units])["overstacked"]:
        return []
    for n in ctx.board.neighbours(parse_hex(start)):
        label = hex_label(n)
        if label == path[0] or any(u.get("side") != action.side for u in ctx.state.units_at(label)):
            continue
        zoc = ctx.hook.casebook_zoc(ctx=ctx, hex=label, side=action.side)
        if zoc is not None and zoc.get("blocks_retreat"):
            continue
        if not stacking_answer(ctx, label, [*ctx.state.units_at(label), *units])["overstacked"]:
            return refusals(ctx, "retreat_into_overstack", {"other_route_open": True},
                            f"a retreat may end overstacked only when no other route is available; {label} is open",
                            SOURCE)
    return refusals(ctx, "retreat_into_overstack", {"other_route_open": False},
                    "a retreat may end overstacked only when no other route is available", SOURCE)


@implements("6.2F")
def overstack_check(ctx: Any, step: str) -> list[dict[str, Any]]:
    """The end-of-step check of 6.2A (Command and Movement Steps). Returns the overstacked
    hexes (stacking answers). Where the scripts allow ``overstack_fatigue`` (6.2E: at the end
    of the Movement Step) every unit of the phasing player
    in an overstacked hex suffers an automatic fatigue result (6.2E): it is flipped fatigued
    (11.1C); one already fatigued takes a combat loss instead (11.1D: recorded as
    ``fatigue-loss`` and applied through the ``casebook_combat_loss`` hook). HQs have no
    fatigued side. At the end of a Command Step the overstacks are recorded for correction at the earliest instant (6.2F)."""
    hexes = sorted({u["hex"] for u in ctx.state.units if u.get("hex")})
    found = [a for a in (stacking_answer(ctx, h, copy=False) for h in hexes) if a["overstacked"]]
    for a in found:
        ctx.record("overstacked", ("6.2A", "6.2F"), {"hex": a["hex"], "points": a["points"],
                   "limit": a["limit"], "step": step}, source="stacking.overstack_check", side=a["side"])
    if not ctx.allowed("overstack_fatigue", {"ending_step": step}):  # 6.2E in stacking.rules
        return found
    changed = False
    for a in found:
        if a["side"] != ctx.state.phasing:
            continue
        for row in a["units"]:
            unit = ctx.state.unit(row["id"])
            if unit.get("class") == "hq":
                continue
            if unit.get("fatigued"):
                ctx.record("fatigue-loss", ("6.2E", "11.1D"), {"unit": row["id"], "hex": a["hex"]},
                           source="stacking.overstack_check", side=a["side"])
                # 11.1D: treated as a combat loss, applied by the plugin owning losses
                ctx.hook.casebook_combat_loss(ctx=ctx, unit=row["id"], cases=["6.2E", "11.1D"])
                changed = True
            else:
                ctx.state.update_unit(row["id"], fatigued=True)
                changed = True
                ctx.record("fatigue", ("6.2E", "11.1C"), {"unit": row["id"], "hex": a["hex"]},
                           source="stacking.overstack_check", side=a["side"])
    if changed:
        ctx.changed()
    return found


# ------------------------------------------------------------------------------------- hooks
@hookimpl
def casebook_stacking(ctx: Any, hex: str, units: Sequence[str] | None) -> dict[str, Any]:
    """Stacking in ``hex`` (:func:`stacking_answer`)."""
    return stacking_answer(ctx, hex, units)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Mapping[str, Any]) -> Any:
    """``stacking HEX``."""
    if question != "stacking":
        return None
    if len(args) != 1:
        raise QuestionError("usage: stacking HEX")
    return stacking_answer(ctx, args[0])


@hookimpl
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """``overstacked`` of a hex label, or of the hex of a unit id (6.2D reads it per attacker):
    ``{"overstacked": {"value": bool, "points", "limit", "cases"}}``."""
    if not isinstance(subject, str):
        return None
    if HEX_RE.match(subject):
        hex_ = subject
    elif ctx.state.has_unit(subject) and ctx.state.unit(subject).get("hex"):
        hex_ = ctx.state.unit(subject)["hex"]
    else:
        return None
    a = stacking_answer(ctx, hex_)
    return {"overstacked": {"value": a["overstacked"], "points": a["points"], "limit": a["limit"],
                            "cases": ["6.2D", *a["cases"]]}}


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """6.2B on moves, 6.2D on attacks, 6.2F on retreats."""
    if action.kind in _MOVES:
        return end_hex_refusals(ctx, action)
    if action.kind == "attack":
        return attack_refusals(ctx, action)
    if action.kind == "retreat":
        return retreat_refusals(ctx, action)
    return []


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """6.2A: check stacking at the end of the steps the scripts' ``check_stacking`` names (each
    Command Step and the Movement Step)."""
    if ctx.allowed("check_stacking", {"ending_step": step}):  # 6.2A in stacking.rules
        overstack_check(ctx, step)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.stacking``: the plugin keeps no state; any record here is refused."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
