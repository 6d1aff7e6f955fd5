"""Shared rules area `zoc`: zones of control as a game's scripts and ZOC chart state them (for
example Moscow '41 7.0-7.5 and errata 0.2.3.1, e.g. Battle for Moscow BM6, Kestrel Pass KP6): who exerts
a ZOC into which hexes, how a moving unit treats it (locking, fluid, none: the ZOC chart), and
its effects on moves, supply and command paths and retreats.

Answers ``casebook_zoc`` (the EZOC in a hex for a side), ``casebook_zoc_map`` (every EZOC of a
side at once, with the key it is cached by), ``casebook_facts`` (``in_ezoc`` and
``zoc_retreat_blocked`` of a unit), ``casebook ask … zoc HEX [--for UNIT]``, and refuses through
``casebook_validate_action`` the moves a locking EZOC forbids (``move``, ``react-move``,
``force-march`` with a ``path``; e.g. 7.2) and the retreats into an EZOC hex without a friendly
combat unit (``retreat`` with a ``path``; e.g. 7.5A).

It holds no case id: answers cite the game's ZOC lines (:mod:`._zoc_cites`) and, for what no
line states, the manifest's ``area_cases: zoc:`` (``in_ezoc``, ``locking``, ``retreat_blocked``,
``temperature_column``: :mod:`._game_cases`). Which units lift an EZOC is the game's
``counts_as_combat_unit`` lines; the chart row of a unit its ``chart_row`` quantity, if any.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import hookimpl
from casebook.core.state import HEX_RE

from ._game_cases import STEP_KEYS, given_or
from ._zoc_chart import kind_in_effect
from ._zoc_cites import blocks, combine_cases, definition_cases, effect_cases, map_cases, note_blocks
from ._zoc_map import (
    chart_column,
    chart_kind,
    chart_row,
    conditions,
    exerted_by,
    exerts_zoc,
    friendly_combat_unit_in,
    hex_lines,
    map_key,
    most_restrictive,
    source_cases,
    stopped_cases,
    unit_kind,
    zoc_map,
    zoc_sources,
)
from ._zoc_moves import locking_refusals, moving_units, retreat_allowed_into, retreat_cases, retreat_refusals
from .help import usage_line

__all__ = ["STATE_SCHEMA", "REQUIRES", "AREA_CASES", "STEPS", "QUESTIONS", "HELP_RULES", "casebook_zoc_sources", "zoc_answer",
           "zoc_for_unit", "retreat_blocked_by_zoc", "casebook_zoc", "casebook_zoc_map", "casebook_answer",
           "casebook_validate_action", "casebook_facts"]
#: What a pack must hold for this area (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": ["zoc_chart"], "quantities": ["zoc_column"]}
#: the steps it asks the manifest's ``area_cases: zoc:`` for (``casebook lint`` checks the block)
AREA_CASES = STEP_KEYS["zoc"]
#: The sequence steps this area acts in (none of its own: it answers the others; content/requires.py).
STEPS: tuple[str, ...] = ()

#: question -> usage line, for `casebook ask` (see docs/ask/zoc.md)
QUESTIONS: dict[str, str] = {
    "zoc": "zoc HEX [SIDE] [--for UNIT] — the enemy ZOC in HEX: who exerts it, how a moving unit "
           "treats it (the ZOC chart), its effect on moves, paths and retreats ({cases})",
}
#: The permissions and quantities whose cases the `zoc` question's help quotes (the game's own).
HELP_RULES = {"zoc": ("exert_zoc", "exert_zoc_on_ground", "marker_zoc", "zoc_into_hex", "zoc_column", "move_on_in_ezoc",
                      "retreat_into_ezoc", "trace_supply_through_ezoc", "trace_command_through_ezoc",
                      "trace_communication_through_ezoc")}

#: What each kind means for a moving unit (for example Moscow '41 7.2, 7.3; 7.0B: none = no
#: effect); the cases are each game's (permission ``move_on_in_ezoc``, :func:`effect_cases`).
_EFFECTS: dict[str, dict[str, Any]] = {
    "locking": {"must_stop_on_entering": True, "ezoc_to_ezoc": "prohibited"},
    "fluid": {"must_stop_on_entering": False, "ezoc_to_ezoc": "+1 MP"},
    "none": {"must_stop_on_entering": False, "ezoc_to_ezoc": "no effect"},
}
_MOVES = ("move", "react-move", "force-march")


def _side_of(ctx: Any, side: str) -> str:
    sides = ctx.pack.vocabulary.side_ids or ctx.state.sides
    if side not in sides:
        raise QuestionError(f"unknown side {side!r}: expected {' or '.join(sides)}")
    return side


def zoc_answer(ctx: Any, hex_: str, side: str) -> dict[str, Any]:
    """The enemy ZOC in hex ``hex_`` as it affects units of ``side``::

        {"hex", "side", "exerted_by": [unit ids], "kind": "locking"|"fluid"|"none",
         "by_class": {chart row: kind}, "friendly_combat_unit": bool,
         "blocks_supply": bool, "blocks_command": bool, "blocks_retreat": bool, "cases"}

    ``kind`` is how the most restricted unit class treats this EZOC (the chart depends on the
    moving unit, 7.0B-C; several ZOCs add nothing, 7.0F: the most restrictive kind wins);
    ``by_class`` gives each chart row. Supply lines and command paths cannot be traced through
    an EZOC hex, nor a retreat enter one, unless a friendly combat unit is there (e.g. 7.4,
    7.5A: the game's ``trace_*_through_ezoc`` and ``retreat_into_ezoc`` lines). Raises
    QuestionError for a bad hex label or off-map hex.
    """
    # per state version, with its lines: every event of the version that reads it names them
    a = ctx.memo_kept(("zoc.answer", hex_, side), lambda: _kept_answer(ctx, hex_, side))
    return {**a, "exerted_by": list(a["exerted_by"]), "by_class": dict(a["by_class"]),
            "cases": list(a["cases"])}


#: How many ZOC answers are kept across state changes (per weather and settings).
_ANSWERS_KEPT = 20000


def _kept_answer(ctx: Any, hex_: str, side: str) -> dict[str, Any]:
    """:func:`_zoc_answer` kept across state changes by what it reads: the hex and side, who
    exerts a ZOC there, whether a friendly combat unit is there, the weather and settings."""
    who = exerted_by(ctx, hex_, side) if isinstance(hex_, str) else None
    if who is None:
        return _zoc_answer(ctx, hex_, side)
    kept = ctx.lasting("zoc.answers", conditions(ctx), pause=False)  # read through kept
    key = (hex_, side, who, friendly_combat_unit_in(ctx, hex_, side))
    found = ctx.kept(kept, key, lambda: _zoc_answer(ctx, hex_, side))
    while len(kept) > _ANSWERS_KEPT:
        kept.pop(next(iter(kept)))
    return found


def _zoc_answer(ctx: Any, hex_: str, side: str) -> dict[str, Any]:
    try:
        if not ctx.board.contains(parse_hex(hex_)):
            raise QuestionError(f"hex {hex_} is off the map ({ctx.board.grid.describe()})")
    except ValueError as exc:
        raise QuestionError(str(exc)) from None
    who = list(zoc_map(ctx, side).get(hex_, ()))  # the hex's lines: noted by the caller's exerted_by
    rows = [r for r in ctx.table("zoc_chart").dims[0][1]]
    by_class: dict[str, str] = {}
    cases: list[str] = list(definition_cases(ctx))
    row_cases: dict[str, tuple[str, ...]] = {}
    for row in rows:
        by_class[row], row_cases[row] = chart_kind(ctx, row) if who else ("none", ())
    kind = most_restrictive(by_class.values()) if who else "none"
    cases += [c for row in rows if by_class[row] == kind for c in row_cases[row]]
    friendly = friendly_combat_unit_in(ctx, hex_, side)
    blocked, block_cases = blocks(ctx, bool(who), friendly)
    if who:
        cases += [*combine_cases(ctx), *block_cases, *source_cases(ctx, side, who)]
    else:
        cases += _no_zoc_cases(ctx)
    return {"hex": hex_, "side": side, "exerted_by": who,
            "kind": kind,
            "by_class": by_class, "friendly_combat_unit": friendly,
            **blocked,
            "cases": list(dict.fromkeys(cases))}


def _no_zoc_cases(ctx: Any) -> tuple[str, ...]:
    """The cases of a weather in which nobody has a ZOC (7.1C, 0.2.3.1), if it is in force."""
    vocabulary = ctx.pack.vocabulary  # a unit of the game's first class, size and side
    probe = {"class": (vocabulary.unit_classes or ("none",))[0], "side": vocabulary.side_ids[0],
             "size": (vocabulary.unit_sizes or ("none",))[0]}
    ok, cases = exerts_zoc(ctx, probe)
    return () if ok else cases


def zoc_for_unit(ctx: Any, hex_: str, unit_id: str) -> dict[str, Any]:
    """:func:`zoc_answer` for ``unit_id``'s side, plus how that unit treats the EZOC in
    ``hex_``: ``{"for", "row", "kind", "must_stop_on_entering", "ezoc_to_ezoc"}`` — locking:
    stop on entering, never EZOC to EZOC (7.2); fluid: EZOC to EZOC at +1 MP (7.3); none.
    Raises QuestionError for an unknown unit."""
    if not ctx.state.has_unit(unit_id):
        from casebook.content.schema import did_you_mean

        raise QuestionError(f"no unit {unit_id!r} on the map"
                            f"{did_you_mean(unit_id, [u['id'] for u in ctx.state.units if u.get('hex')])}")
    unit = ctx.state.unit(unit_id)
    answer = zoc_answer(ctx, hex_, unit["side"])
    kind, kcases = unit_kind(ctx, unit) if answer["exerted_by"] else ("none", ())
    effect = _EFFECTS[kind_in_effect(ctx, kind)]  # as the game's move_on_in_ezoc lines bind it
    answer.update({"for": unit_id, "row": chart_row(ctx, unit), "kind": kind,
                   "must_stop_on_entering": effect["must_stop_on_entering"],
                   "ezoc_to_ezoc": effect["ezoc_to_ezoc"]})
    answer["cases"] = list(dict.fromkeys([*answer["cases"], *kcases, *effect_cases(ctx, kind)]))
    return answer


def retreat_blocked_by_zoc(ctx: Any, unit_id: str) -> bool:
    """Whether EZOCs leave ``unit_id`` no hex to retreat into: every adjacent hex is enemy-
    occupied or an EZOC it may not enter (7.5A), and EZOCs close at least one of them. The unit
    then suffers losses instead (7.5B, 11.2B: the results plugin applies them)."""
    unit = ctx.state.unit(unit_id)
    if not unit.get("hex"):
        return False
    side, by_zoc = unit["side"], False
    for n in ctx.board.neighbours(parse_hex(unit["hex"])):
        label = hex_label(n)
        if any(u.get("side") != side for u in ctx.state.units_at(label)):
            continue
        if retreat_allowed_into(ctx, label, side):
            return False
        by_zoc = True
    return by_zoc


# ------------------------------------------------------------------------------------- hooks
@hookimpl
def casebook_zoc(ctx: Any, hex: str, side: str) -> dict[str, Any]:
    """The enemy ZOC in ``hex`` affecting a unit of ``side`` (:func:`zoc_answer`)."""
    return zoc_answer(ctx, hex, side)


@hookimpl
def casebook_zoc_map(ctx: Any, side: str) -> dict[str, Any]:
    """Every enemy ZOC affecting units of ``side``: ``{"key", "exerted_by": {hex: (ids)},
    "cases", "lines": {hex: line entries} or None}`` (``lines``: what decided each hex, for the
    events that read it: :func:`~._zoc_map.hex_lines`) — the map :func:`zoc_answer` reads (7.0A, 7.0D, 7.0E; who has a ZOC, 7.1A-C),
    read-only, and ``key`` (:func:`map_key`: the weather, settings and enemy units it is
    computed from)."""
    cases = list(map_cases(ctx))
    found = zoc_map(ctx, side)
    cases += [c for _, _, cs in zoc_sources(ctx, side) for c in cs if c not in cases]
    if not found:
        cases += _no_zoc_cases(ctx)
    rows = ctx.table("zoc_chart").dims[0][1]
    with ctx.apart(recorded=False):  # every row's cell: none decides a mover's answer (its own row's does)
        kind = most_restrictive(chart_kind(ctx, row)[0] for row in rows)  # as zoc_answer's, 7.0B-C
    return {"key": map_key(ctx, side), "exerted_by": MappingProxyType(found), "cases": cases,
            "kind": kind, "lines": hex_lines(ctx, side)}


@hookimpl
def casebook_zoc_sources(ctx: Any, side: str) -> list[dict[str, Any]]:
    """The markers whose hex is a ZOC by itself against ``side``: each marker on the map whose
    kind the game's ``marker_zoc`` lines permit for ``side`` (facts ``marker_kind``, ``side``: the
    side the ZOC works against; e.g. Moscow '41 16.3A: a Partisan marker's hex, against one
    side): ``[{"hex", "id": "KIND@HEX", "cases"}]``; none in a game without such lines."""
    if "marker_zoc" not in ctx.rules.permissions:
        return []
    kept = ctx.lasting("zoc.marker_zoc", pause=False)  # the verdict depends on the kind and side only
    out = []
    for m in ctx.state.markers:
        kind, hex_ = m.get("kind"), m.get("hex")
        if not hex_:
            continue
        cases = ctx.kept(kept, (kind, side), lambda: _marker_zoc(ctx, kind, side))  # noqa: B023
        if cases is not None:
            out.append({"hex": hex_, "id": f"{kind}@{hex_}", "cases": list(cases)})
    return out


def _marker_zoc(ctx: Any, kind: Any, side: str) -> list[str] | None:
    verdict = ctx.permission("marker_zoc", {"marker_kind": kind, "side": side})
    return list(verdict.cases) if verdict.value else None


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Mapping[str, Any]) -> Any:
    """``zoc HEX [SIDE] [--for UNIT]`` (without --for: against the phasing side's enemy, i.e. for
    the phasing side, else the game's first side; a side of the game's vocabulary may be given
    as a second argument)."""
    if question != "zoc":
        return None
    if len(args) not in (1, 2):
        raise QuestionError("usage: " + usage_line(ctx.rules, QUESTIONS["zoc"], HELP_RULES["zoc"]))
    if options.get("for"):
        answer = zoc_for_unit(ctx, args[0], options["for"])
    else:
        side = args[1] if len(args) == 2 else (ctx.state.phasing or ctx.pack.vocabulary.side_ids[0])
        answer = zoc_answer(ctx, args[0], _side_of(ctx, side))
    note_blocks(ctx, answer)  # every blocks_* key is answered: each key's lines (7.4, 7.5A)
    # the lines that keep a neighbour's ZOC out of the hex decided the answer too (e.g. 7.1B)
    answer["cases"] = list(dict.fromkeys([*answer["cases"], *stopped_cases(ctx, args[0], answer["side"])]))
    if answer["exerted_by"] and ctx.engine.recording:  # asked: the ZOC Chart cells read, in the column in force
        column = chart_column(ctx)[0]
        rows = [*([answer["row"]] if "row" in answer else []), *answer["by_class"]]  # the unit's first
        found = [ctx.pack.table_lines.cell("zoc_chart", unit=row, weather=column) for row in rows]
        answer["table_lines"] = list({ln["source"]: ln for ln in found if ln is not None}.values())
    return answer


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Any]:
    """7.2 on moves with a ``path`` (``move``, ``react-move``, ``force-march``: start hex
    ``stack`` or the units' hex); 7.5A on ``retreat`` actions with a ``path``."""
    path = action.get("path")
    if not path:
        return []
    path = [path] if isinstance(path, str) else list(path)
    if action.kind in _MOVES:
        start = action.get("stack") or action.get("from")
        units = moving_units(ctx, action, start)
        if start is None and units:
            start = units[0].get("hex")
        if start is None:
            return []
        return locking_refusals(ctx, action.side, start, path, units)
    if action.kind == "retreat":
        return retreat_refusals(ctx, action.side, path)
    return []


@hookimpl
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """For a unit id: ``in_ezoc`` (its hex is in an EZOC: 7.0A) and ``zoc_retreat_blocked``
    (7.5B). Hex labels and sides: None (the stacking plugin answers hexes)."""
    if not isinstance(subject, str) or HEX_RE.match(subject) or not ctx.state.has_unit(subject):
        return None
    unit = ctx.state.unit(subject)
    who = exerted_by(ctx, unit.get("hex", ""), unit["side"]) if unit.get("hex") else ()
    return {"in_ezoc": {"value": bool(who), "exerted_by": list(who), "cases": list(given_or(ctx, "zoc", "in_ezoc", definition_cases))},
            "zoc_retreat_blocked": {"value": retreat_blocked_by_zoc(ctx, subject),
                                    "cases": list(retreat_cases(ctx))}}


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    """Drop the cached ZOC maps and answers: units moved (the kernel may not call
    ``ctx.changed``) — the memo's own entries and those kept with their lines
    (``ctx.memo_kept``: a kept entry never outlives the memo's)."""
    kept = ctx.memo_lasting()
    for store in (ctx.memo, kept):
        for key in [k for k in store if isinstance(k, tuple) and str(k[0]).startswith("zoc.")]:
            del store[key]
    for key in [k for k in kept.lines if k not in kept]:
        del kept.lines[key]


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.zoc``: the plugin keeps no state; any record here is refused."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
