"""Shared rules area ``area_stacking``: stacking points against the limit of a hex, and what an
overstack does — judged at the end of the steps the game's lines name, never while a unit passes
through (e.g. Moscow '41 6.0-6.2).

A game lists ``area_stacking`` in its manifest and writes (``games/<game>/rules/*.rules``):

- quantities ``stacking_points`` (facts ``side``, ``unit_class``, ``unit_size``: the points of one
  unit; its header ``by`` cases are what stacking is, cited by every answer) and
  ``stacking_limit`` (fact ``side``: the points a hex may hold);
- permission ``check_stacking`` (fact ``ending_step``): the steps at whose end stacking is checked;
  an overstack found is recorded (event ``overstacked``) where ``remain_overstacked`` is forbidden
  (it must be corrected), citing both permissions' lines;
- permission ``overstack_fatigue`` (fact ``ending_step``) and quantity
  ``overstack_fatigue_effect`` (an enum ``fatigue``/``loss``/``none``; facts ``side``,
  ``unit_class``, ``fatigued``): at the end of the steps it allows, every unit of the phasing side
  in an overstacked hex is flipped ``fatigued`` (event ``fatigue``), or takes a combat loss through
  ``casebook_combat_loss`` (event ``fatigue-loss``), citing the line that decided;
- permission ``end_move_overstacked`` (facts ``hex_overstacked``, ``overrun``): a move
  (``move``, ``react-move``, ``force-march``, ``rail-move``) may not end overstacked — only its
  last hex counts; its ``permit`` lines' cases are cited with ``check_stacking``'s by an
  overstacked answer (whose unactivated units that count for stacking must leave);
- permission ``attack_from_overstack`` (fact ``hex_overstacked``): an ``attack`` by more than the
  limit from one hex is refused; its lines' cases are cited by the fact ``overstacked``;
- permission ``retreat_into_overstack`` (fact ``other_route_open``): a ``retreat`` into an
  overstack while another adjacent hex is open (not enemy-occupied, not closed to retreat by the
  ``blocks_retreat`` of ``casebook_zoc``, not overstacked).

Public API: :func:`unit_points`, :func:`stacking_answer`, :func:`end_hex_refusals`,
:func:`attack_refusals`, :func:`retreat_refusals`, :func:`overstack_check`. Answers
``casebook_stacking``, ``casebook_facts`` (``overstacked`` of a hex or of a unit's hex) and
``casebook ask … stacking HEX``. Raises QuestionError for a bad hex or unit in a question.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal, hookimpl
from casebook.core.state import HEX_RE

from ._zoc_cites import answer_closes, line_cases

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "unit_points", "stacking_answer", "end_hex_refusals",
           "attack_refusals", "retreat_refusals", "overstack_check", "casebook_stacking", "casebook_answer",
           "casebook_facts", "casebook_validate_action", "casebook_step_end"]

#: What the pack must hold for this area (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["overstack_fatigue_effect", "stacking_limit", "stacking_points"]}

#: question -> usage line, for `casebook ask` (see docs/ask/stacking.md)
QUESTIONS: dict[str, str] = {
    "stacking": "stacking HEX — stacking points, limit and overstacking of the units in HEX",
}
SOURCE = "stacking"
_MOVES = ("move", "react-move", "force-march", "rail-move")
#: How many stacking answers are kept across state changes.
_ANSWERS_KEPT = 4096


def _fired_forbids(verdict: Any) -> list[Any]:
    return [ln for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]


def unit_points(ctx: Any, unit: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
    """``(points, cases)`` of one unit: quantity ``stacking_points`` of its side, class and size."""
    return _points(ctx, ctx.lasting("stacking.points", pause=False), unit)


def _points(ctx: Any, kept: dict[Any, Any], unit: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
    """:func:`unit_points` from ``kept`` (the lasting cache: the lines read these three facts
    only), computed on a miss."""
    key = (unit.get("side"), unit.get("class"), unit.get("size", "none"))

    def compute() -> tuple[int, tuple[str, ...]]:
        q = ctx.quantity("stacking_points", {"side": key[0], "unit_class": key[1], "unit_size": key[2]})
        return int(q.value), tuple(q.cases)
    return ctx.kept(kept, key, compute)


def _limit(ctx: Any, side: str) -> tuple[int, tuple[str, ...]]:
    def compute() -> tuple[int, tuple[str, ...]]:
        q = ctx.quantity("stacking_limit", {"side": side})
        return int(q.value), tuple(q.cases)
    return ctx.kept(("stacking.limit",), side, compute)  # the lines read the side only


def _records(ctx: Any, hex_: str, units: Sequence[Any] | None) -> list[Mapping[str, Any]]:
    if units is None:
        return list(ctx.state.units_at(hex_))
    out, seen = [], set()
    for u in units:
        if isinstance(u, str):
            if not ctx.state.has_unit(u):
                raise QuestionError(f"no unit {u!r} on the map")
            u = ctx.state.unit(u)
        if u.get("id") is None or u.get("id") not in seen:  # a unit named twice counts once
            seen.add(u.get("id"))
            out.append(u)
    return out


def stacking_answer(ctx: Any, hex_: str, units: Sequence[Any] | None = None, *,
                    copy: bool = True) -> dict[str, Any]:
    """Stacking in ``hex_`` of ``units`` (ids or unit records; default: the units there now)::

        {"hex", "side", "points", "limit", "overstacked", "excess", "units": [{"id", "points"}],
         "must_leave": [unit ids], "cases"}

    ``points``/``limit`` in stacking points; ``overstacked`` when points exceed the limit;
    ``excess`` = points over the limit. With units of both sides the side the more overstacked
    is reported. ``must_leave``: the unactivated units that count for stacking (points above 0)
    of an overstacked hex. ``cases``: ``stacking_points``'s header, the lines of the points and
    the limit, and when overstacked ``check_stacking``'s forbid and ``end_move_overstacked``'s
    permit lines. Raises QuestionError for a bad or off-map hex or an unknown unit id.
    ``copy=False`` (this area's own reads) returns the kept answer itself: read-only.
    """
    on_map = ctx.lasting("stacking.on_map", pause=False)  # the board's
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
    kept = ctx.lasting("stacking.answers", pause=False)  # read through kept
    found = ctx.kept(kept, key, lambda: _answer(ctx, hex_, recs))
    while len(kept) > _ANSWERS_KEPT:
        kept.pop(next(iter(kept)))
    if not copy:
        return found
    return {**found, "units": [dict(r) for r in found["units"]], "must_leave": list(found["must_leave"]),
            "cases": list(found["cases"])}


def _answer(ctx: Any, hex_: str, recs: list[Mapping[str, Any]]) -> dict[str, Any]:
    sides: list[str] = list(dict.fromkeys(str(u.get("side")) for u in recs)) or [ctx.state.phasing or ctx.pack.vocabulary.side_ids[0]]
    kept = ctx.lasting("stacking.points", pause=False)  # read through kept
    what = tuple(ctx.rules.quantities["stacking_points"].code.cases)
    over_cases = (*line_cases(ctx, ("check_stacking",), "forbid"), *line_cases(ctx, ("end_move_overstacked",), "permit"))
    best: dict[str, Any] | None = None
    for side in sides:
        mine = [u for u in recs if u.get("side") == side]
        rows: list[dict[str, Any]] = []
        cases: list[str] = []
        for u in mine:
            pts, pc = _points(ctx, kept, u)
            rows.append({"id": u.get("id"), "points": pts})
            cases += pc
        limit, lc = _limit(ctx, side)
        points = sum(r["points"] for r in rows)
        over = points > limit
        answer = {"hex": hex_, "side": side, "points": points, "limit": limit, "overstacked": over,
                  "excess": max(0, points - limit), "units": rows,
                  "must_leave": [u["id"] for u, r in zip(mine, rows) if over and not u.get("activated")
                                 and r["points"] > 0],
                  "cases": list(dict.fromkeys([*what, *cases, *lc, *(over_cases if over else ())]))}
        if best is None or answer["excess"] > best["excess"]:
            best = answer
    assert best is not None
    return best


def _moving(ctx: Any, action: Any, start: str | None) -> list[Mapping[str, Any]]:
    ids = action.get("units") or action.get("unit")
    if isinstance(ids, str):
        ids = (ids,)
    if not ids:  # the movement plugin's movers (casebook_movers), not every unit in the hex
        ids = ctx.hook.casebook_movers(ctx=ctx, action=action)
    if ids is not None:  # a unit named twice moves (and counts) once
        return [ctx.state.unit(i) for i in dict.fromkeys(ids) if ctx.state.has_unit(i)]
    return [u for u in ctx.state.units_at(start)] if start else []


def end_hex_refusals(ctx: Any, action: Any) -> list[Refusal]:
    """A move may not end overstacked: only the last hex of the ``path`` (or ``to``) counts,
    with the units the move takes (its ``units=``, else the movement plugin's
    ``casebook_movers``, else every unit of its side in the start hex); permission
    ``end_move_overstacked`` (facts ``hex_overstacked``, ``overrun``: the action's ``overrun``
    argument). The refusal cites the lines that decided."""
    path = action.get("path") or action.get("to")
    overrun = bool(action.get("overrun"))
    if not path or ctx.allowed("end_move_overstacked", {"hex_overstacked": True, "overrun": overrun}):
        return []  # even an overstack may end this move
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
    numbers = [*_limit(ctx, action.side)[1], *(c for u in [*stay, *moving] for c in unit_points(ctx, u)[1])]
    return [Refusal(f"a move cannot end overstacked: {end} would hold {answer['points']} stacking "
                    f"points against a limit of {answer['limit']}",  # cited with the lines of its numbers
                    tuple(dict.fromkeys([*verdict.cases, *numbers])), SOURCE)]


def attack_refusals(ctx: Any, action: Any) -> list[Refusal]:
    """From one hex only units up to the stacking limit may attack (the ``with`` units of each
    hex are judged together): permission ``attack_from_overstack`` (fact ``hex_overstacked``)."""
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
        if answer["overstacked"] and not ctx.allowed("attack_from_overstack", {"hex_overstacked": True}):
            fired = _fired_forbids(ctx.permission("attack_from_overstack", {"hex_overstacked": True}))
            out.append(Refusal(f"only units up to the stacking limit may attack from the "
                               f"overstacked hex {h}: {answer['points']} points against a limit "
                               f"of {answer['limit']}", tuple(dict.fromkeys(c for ln in fired for c in ln.cases)),
                               SOURCE))
    return out


def _retreat_refusal(ctx: Any, other_route_open: bool, reason: str) -> list[Refusal]:
    facts = {"other_route_open": other_route_open}
    if ctx.allowed("retreat_into_overstack", facts):
        return []
    fired = _fired_forbids(ctx.permission("retreat_into_overstack", facts))
    return [Refusal(reason, tuple(dict.fromkeys(c for ln in fired for c in ln.cases)), source=SOURCE)]


def retreat_refusals(ctx: Any, action: Any) -> list[Refusal]:
    """A retreat may end in an overstack only as the ``retreat_into_overstack`` lines say, given
    ``other_route_open``: another hex adjacent to the start (not the path's first, not
    enemy-occupied, not closed by the ``blocks_retreat`` of ``casebook_zoc``, and not overstacked
    by the retreating units) is open."""
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
        if answer_closes(ctx, ctx.hook.casebook_zoc(ctx=ctx, hex=label, side=action.side), "blocks_retreat"):
            continue
        if not stacking_answer(ctx, label, [*ctx.state.units_at(label), *units])["overstacked"]:
            return _retreat_refusal(ctx, True, "a retreat may end overstacked only when no other route is "
                                               f"available; {label} is open")
    return _retreat_refusal(ctx, False, "a retreat may end overstacked only when no other route is available")


def _fatigue_effect(ctx: Any, unit: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """``(effect, cases)`` of quantity ``overstack_fatigue_effect`` for one unit (kept: the
    lines read its side, class and fatigue only); the cases of the line that decided."""
    key = (unit.get("side"), unit.get("class"), bool(unit.get("fatigued")))

    def compute() -> tuple[str, tuple[str, ...]]:
        e = ctx.quantity("overstack_fatigue_effect", {"side": key[0], "unit_class": key[1], "fatigued": key[2]})
        fired = [c for ln in ctx.fired_lines(e) for c in ln["cases"]]
        return str(e.value), tuple(dict.fromkeys(fired))
    return ctx.kept(("stacking.fatigue_effect",), key, compute)


def _must_correct(ctx: Any) -> tuple[bool, tuple[str, ...]]:
    """Whether an overstack found must be recorded for correction (``remain_overstacked``
    forbidden), and the cases the record cites (kept per rules)."""
    return ctx.kept(("stacking.correct", id(ctx.rules)), "found", lambda: (
        not ctx.allowed("remain_overstacked", {}),
        (*line_cases(ctx, ("check_stacking",)), *line_cases(ctx, ("remain_overstacked",)))))


def overstack_check(ctx: Any, step: str) -> list[dict[str, Any]]:
    """The end-of-step check: returns the overstacked hexes (stacking answers), each recorded
    (``overstacked``) when it must be corrected. Where ``overstack_fatigue`` is allowed for
    ``step``, every unit of the phasing side in an overstacked hex takes its
    ``overstack_fatigue_effect``: ``fatigue`` flips it fatigued, ``loss`` is a combat loss applied
    through the ``casebook_combat_loss`` hook. Changes the state."""
    hexes = sorted({u["hex"] for u in ctx.state.units if u.get("hex")})
    found = [a for a in (stacking_answer(ctx, h, copy=False) for h in hexes) if a["overstacked"]]
    if found:
        record, cases = _must_correct(ctx)
        for a in found if record else ():
            ctx.record("overstacked", cases, {"hex": a["hex"], "points": a["points"],
                       "limit": a["limit"], "step": step}, source="stacking.overstack_check", side=a["side"])
    if not ctx.allowed("overstack_fatigue", {"ending_step": step}):
        return found
    changed = False
    for a in found:
        if a["side"] != ctx.state.phasing:
            continue
        for row in a["units"]:
            unit = ctx.state.unit(row["id"])
            effect, cases = _fatigue_effect(ctx, unit)
            if effect == "loss":
                ctx.record("fatigue-loss", cases, {"unit": row["id"], "hex": a["hex"]},
                           source="stacking.overstack_check", side=a["side"])
                ctx.hook.casebook_combat_loss(ctx=ctx, unit=row["id"], cases=list(cases))
                changed = True
            elif effect == "fatigue":
                ctx.state.update_unit(row["id"], fatigued=True)
                changed = True
                ctx.record("fatigue", cases, {"unit": row["id"], "hex": a["hex"]},
                           source="stacking.overstack_check", side=a["side"])
    if changed:
        ctx.changed()
    return found


# ------------------------------------------------------------------------------------- hooks
@hookimpl
def casebook_stacking_note(ctx: Any, action: Any) -> str | None:
    """A listed retreat into an overstack (:func:`casebook.areas._results_stages.retreat_note`)."""
    from ._results_stages import retreat_note

    return retreat_note(ctx, action)


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
    """``overstacked`` of a hex label, or of the hex of a unit id (read per attacker):
    ``{"overstacked": {"value": bool, "points", "limit", "cases"}}``; the cases lead with those
    of the ``attack_from_overstack`` lines."""
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
                            "cases": [*line_cases(ctx, ("attack_from_overstack",)), *a["cases"]]}}


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """The last hex of moves, the hexes of attackers, the last hex of retreats."""
    if action.kind in _MOVES:
        return end_hex_refusals(ctx, action)
    if action.kind == "attack":
        return attack_refusals(ctx, action)
    if action.kind == "retreat":
        return retreat_refusals(ctx, action)
    return []


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """Check stacking at the end of the steps the lines' ``check_stacking`` allows."""
    if ctx.allowed("check_stacking", {"ending_step": step}):
        overstack_check(ctx, step)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.area_stacking``: the area keeps no state; any record here is refused."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
