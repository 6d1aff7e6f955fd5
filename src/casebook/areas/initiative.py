"""Shared rules area ``initiative``: a points track per side, fed each turn from the hexes a
side controls and the turn track, and compared to decide the first player.

It holds no number and no case id: the game's rule scripts and tables give both (e.g. Moscow
'41's ``rules/initiative.rules``). The track is the vocabulary's track ``ip`` (one value per
side). What the area asks of the game, all by name:

- records ``initiative_chart`` (key ``hex``, fields ``town`` and ``ip``) and quantity ``town_ip``
  (facts ``hex``, ``map_town_ip``: the value the map prints, ``position_map``: the position
  brings its own map): the points each hex earns its controller;
- permission ``gain_control`` (facts ``side``, ``occupying_sides``, ``occupant_count``): who
  takes a chart or town hex its units occupy — asked at set-up and after every action, each
  change a ``control`` event (the shared ``area_control`` gives any occupied town to its
  occupant without asking; a game lists one or the other);
- records ``turn_track``: the row of the turn (field ``turn``), ``<side>.ip`` its bonus;
- quantities ``new_ips_collected`` and ``ips_unmodified`` (facts ``town_ips``, ``track_bonus``),
  ``ip_income`` (facts ``new_ips``, ``side``, ``ground``; its term lines are the multipliers
  reported), ``ip_available`` and ``ip_total`` (facts ``ip_roll``, ``ip_previous``,
  ``ip_unmodified`` besides those), ``ip_dice`` (the dice rolled) and ``base_ip`` (fact
  ``town_ips``: the base marker kept as plugin data);
- quantity ``initiative`` (facts ``turn`` and ``<side>_ips`` for every side): the first player.

It acts in the sequence steps ``initiative_determination`` (the first player), ``ip_collection``
(the phasing side's collection) and ``advance_turn`` (an ``end-phase`` event citing the step's
case in the game's sequence; the kernel advances the turn). It answers ``income SIDE``.

Public API: :func:`town_values`, :func:`towns_held`, :func:`update_control`,
:func:`track_bonus`, :func:`track_row_lines`, :func:`income`, :func:`collect_ips`, :func:`determine_first_player`,
:func:`end_phase`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.content.tablelines import reads_apart
from casebook.core.dice import SIDES as FACES
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label
from casebook.core.hooks import hookimpl

from ._roll_lines import roll_naming

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "HELP_RULES", "PLUGIN", "sides", "town_values", "towns_held",
           "update_control", "track_bonus", "track_row_lines", "town_ip_lines", "town_cases", "income", "collect_ips",
           "determine_first_player",
           "end_phase", "casebook_setup", "casebook_after_action", "casebook_step_start", "casebook_answer"]

#: What the pack must hold for this area (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": ["initiative_chart", "turn_track"],
            "quantities": ["base_ip", "initiative", "ip_available", "ip_dice", "ip_income", "ip_total",
                           "ips_unmodified", "new_ips_collected", "town_ip"]}

PLUGIN = "initiative"
_READS_BONUS = re.compile(r"\btrack_bonus\b")  # a term line reading the Turn Track's bonus

#: question -> usage line, for `casebook ask` (see docs/ask/income.md)
QUESTIONS: dict[str, str] = {
    "income": "income SIDE [--roll N] — the IPs SIDE collects this turn, term by term ({cases})",
}
#: The quantities whose cases the `income` question's help quotes (the game's own).
HELP_RULES = {"income": ("new_ips_collected", "ip_income", "ip_available", "ip_total")}


def sides(ctx: Any) -> tuple[str, ...]:
    """The game's sides (its vocabulary), in their order."""
    return tuple(s.id for s in ctx.pack.vocabulary.sides)


def _amount(value: Any) -> Any:
    return str(value) if isinstance(value, Fraction) and value.denominator != 1 else int(value)


def _printed(ctx: Any) -> dict[str, tuple[Any, int]]:
    return {hex_label(h): (t.get("name"), int(t.get("ip") or 0)) for h, t in ctx.board.towns().items()}


def town_values(ctx: Any) -> dict[str, dict[str, Any]]:
    """Hex label -> ``{"town", "ip"}`` for every hex that earns points: the rows of records
    ``initiative_chart`` on the pack's map (each with the value the map prints, if any), the
    towns of a position's own map; each hex's points are quantity ``town_ip``. Hexes worth 0 are
    left out. Kept per state version with its ``town_ip`` lines (``ctx.memo_kept``); the chart rows
    read for every hex are no answer's table lines (``reads_apart``): an answer or event cites the
    rows of the hexes it counts (:func:`town_ip_lines`)."""
    with reads_apart():
        return dict(ctx.memo_kept("initiative.towns", lambda: _town_values(ctx)))


def _town_values(ctx: Any) -> dict[str, dict[str, Any]]:
    own = bool(ctx.state.map)
    towns = _printed(ctx)
    if not own:
        towns = {str(row["hex"]): (row.get("town"), towns.get(str(row["hex"]), (None, 0))[1])
                 for row in ctx.records("initiative_chart")}
    out = {}
    for h, (name, printed) in towns.items():
        ip = int(ctx.value("town_ip", {"hex": h, "map_town_ip": printed, "position_map": own}))
        if ip:
            out[h] = {"town": name, "ip": ip}
    return out


def town_ip_lines(ctx: Any, hex_: str) -> list[dict[str, Any]]:
    """The lines of quantity ``town_ip`` that decided ``hex_``'s points (for a trace event's ``lines``)."""
    printed = _printed(ctx).get(hex_, (None, 0))[1]
    return ctx.fired_lines(ctx.quantity("town_ip", {"hex": hex_, "map_town_ip": printed,
                                                    "position_map": bool(ctx.state.map)}))


def town_cases(ctx: Any, hexes: Sequence[str]) -> list[str]:
    """The cases of the ``town_ip`` lines that decided the points of ``hexes`` (an answer that
    shows each town's points cites them, so its ``lines`` name those lines)."""
    return list(dict.fromkeys(c for h in hexes for ln in town_ip_lines(ctx, h) for c in ln["cases"]))


def towns_held(ctx: Any, side: str) -> list[dict[str, Any]]:
    """The hexes worth points ``side`` controls (``state.control``), each ``{"hex", "town", "ip"}``, in hex order."""
    return [{"hex": h, **v} for h, v in sorted(town_values(ctx).items()) if ctx.state.control(h) == side]


def _town_hexes(ctx: Any) -> list[str]:
    hexes = {hex_label(h) for h in ctx.board.towns()}
    if not ctx.state.map:
        hexes.update(str(row["hex"]) for row in ctx.records("initiative_chart"))
    return sorted(hexes)


def update_control(ctx: Any) -> list[dict[str, Any]]:
    """Give each chart or town hex occupied by a side's units to that side when permission
    ``gain_control`` allows it. Hexes without units keep their last controller. Returns the
    changes, each ``{"hex", "side", "was"}``, and records a ``control`` event for each (citing
    the cases of the ``gain_control`` lines)."""
    changes = []
    for h in _town_hexes(ctx):
        units = ctx.state.units_at(h)
        present = sorted({u.get("side") for u in units} - {None})
        was = ctx.state.control(h)
        side = next((s for s in present if s != was and ctx.allowed("gain_control", {
            "side": s, "occupying_sides": len(present),
            "occupant_count": sum(1 for u in units if u.get("side") == s)})), None)
        if side is None:
            continue
        ctx.state.set_control(h, side)
        change = {"hex": h, "side": side, "was": was}
        changes.append(change)
        cases = [c for _, code, _ in ctx.rules.permissions["gain_control"].lines for c in code.cases]
        ctx.record("control", list(dict.fromkeys(cases)), change, source=f"{PLUGIN}.update_control", side=side)
    if changes:
        ctx.changed()
    return changes


def track_bonus(ctx: Any, side: str, turn: int | None = None) -> int:
    """The turn track's bonus of ``side`` for ``turn`` (default: now), in points (records
    ``turn_track``, field ``<side>.ip``). ``KeyError`` naming the turn if the track has no row for it."""
    turn = ctx.state.turn if turn is None else turn
    for row in ctx.records("turn_track"):
        if row.get("turn") == turn:
            return int(row[side]["ip"])
    raise KeyError(f"the Turn Track (turn_track) has no row for turn {turn}")


def track_row_lines(ctx: Any, side: str, terms: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The Turn Track row the bonus of ``side`` was read from (records ``turn_track``, the row of
    the turn: ``{"source": "tables/turn_track.yaml:N", "cases", "text"}``, its cases those of the
    provenance nearest ``<side>.ip``), when one of ``terms`` (:func:`income`'s) reads fact
    ``track_bonus``; else none (a pack whose script adds no bonus)."""
    if not any(_READS_BONUS.search(str(t.get("text", ""))) for t in terms):
        return []
    row = next((r for r in ctx.records("turn_track") if r.get("turn") == ctx.state.turn), None)
    found = ctx.pack.table_lines.row("turn_track", row, (side, "ip")) if row is not None else None
    return [found] if found is not None else []


def _terms(*explanations: Any) -> list[dict[str, Any]]:
    """The lines that decided each of ``explanations`` (``Explanation.deciding``: a term adding 0
    or × 1 is none; docs/rule-language.md, "Which lines an event names"), and each ``start``."""
    out = []
    for e in explanations:
        named = {m.source for m in e.deciding()}
        for ln in e.lines:
            if ln.kind != "start" and not (ln.source in named or any(m.source in named for m in ln.members)):
                continue
            out.append({"case": ln.cases[0] if ln.cases else None, "cases": list(ln.cases),
                        "quantity": e.name, "kind": ln.kind, "value": _amount(ln.amount),
                        "source": ln.source, "text": ln.text.strip()})
    return out


def income(ctx: Any, side: str, roll: int | None = None) -> dict[str, Any]:
    """The points ``side`` collects now: its hexes held + the turn track bonus (quantities
    ``new_ips_collected`` / ``ips_unmodified``), through ``ip_income`` (the weather's multiplier),
    then the ``roll`` and the points already on the track (``ip_available``, ``ip_total``).

    Returns ``{"side", "town_ips" (the IPs of the hexes held, summed), "held": [{"hex", "town", "ip"}], "track_bonus", "multiplier"
    ("1/2"…), "income", "previous", "roll", "total", "range", "terms": [{"case", "cases",
    "quantity", "kind", "value", "source", "text"}], "cases"}``. Without ``roll``, ``total`` is
    None and ``range`` gives the totals for the lowest and highest roll of ``ip_dice``.
    Raises ``ValueError`` for an unknown side or no ground condition in force."""
    if side not in sides(ctx):
        raise ValueError(f"unknown side {side!r}; expected one of {list(sides(ctx))}")
    ground = (ctx.state.weather or {}).get("ground")
    if ground is None:
        raise ValueError("no ground condition is in force: the weather multiplier is unknown")
    held = towns_held(ctx, side)
    towns = sum(t["ip"] for t in held)
    bonus = track_bonus(ctx, side)
    collected = {"town_ips": towns, "track_bonus": bonus}
    e_new, e_unmodified = ctx.quantity("new_ips_collected", collected), ctx.quantity("ips_unmodified", collected)
    new_ips, unmodified = e_new.value, e_unmodified.value
    e_income = ctx.quantity("ip_income", {"new_ips": new_ips, "side": side, "ground": ground})
    multiplier = Fraction(1)
    for ln in e_income.lines:
        if ln.kind == "term" and ln.fired:
            multiplier *= Fraction(ln.amount)
    previous = ctx.state.track("ip", side)

    def total_for(die: int) -> tuple[Any, Any]:
        facts = {"new_ips": new_ips, "side": side, "ground": ground, "ip_roll": die,
                 "ip_previous": previous, "ip_unmodified": unmodified}
        return ctx.quantity("ip_available", facts), ctx.quantity("ip_total", facts)

    terms = _terms(e_new, e_unmodified, e_income)
    dice = int(ctx.value("ip_dice", {}))
    total = None
    if roll is not None:
        e_avail, e_total = total_for(roll)
        total = e_total.value
        terms += [t for t in _terms(e_avail, e_total)
                  if not (t["quantity"] == "ip_total" and t["text"].startswith("ip_available"))]
    cases = list(dict.fromkeys(c for t in terms for c in t["cases"]))
    return {
        "side": side, "town_ips": towns, "held": held, "track_bonus": bonus,
        "multiplier": _amount(multiplier), "income": e_income.value, "previous": previous,
        "roll": roll, "total": total, "range": [total_for(dice)[1].value, total_for(FACES * dice)[1].value],
        "terms": terms, "cases": cases,
    }


def _roll(ctx: Any, dice: int, lines: list[dict[str, Any]]) -> int:
    """Roll ``dice`` for the collection: the ``roll`` event names the ``ip_dice`` lines that gave
    the dice (``data.lines``; rolled into a scratch trace, then recorded with them)."""
    cases = list(dict.fromkeys(c for ln in lines for c in ln["cases"]))
    return roll_naming(ctx, dice, lines, purpose="IP collection", cases=cases, source=f"{PLUGIN}.collect_ips")


def collect_ips(ctx: Any, side: str | None = None, die: int | None = None) -> dict[str, Any]:
    """Collection for ``side`` (default: the phasing side): roll the dice of quantity ``ip_dice``
    (or use ``die``), put :func:`income`'s total on the track, set the base marker to quantity
    ``base_ip`` (plugin data). Returns :func:`income`'s answer. ``ValueError`` if no side is phasing."""
    side = side or ctx.state.phasing
    if side is None:
        raise ValueError("points collection needs a phasing side")
    e_dice = ctx.quantity("ip_dice", {})  # the roll and the collection cite the line that gave the dice
    dice_lines = ctx.fired_lines(e_dice)
    if die is None:
        die = _roll(ctx, int(e_dice.value), dice_lines)
    answer = income(ctx, side, die)
    ctx.state.add_track("ip", answer["total"] - ctx.state.track("ip", side), side)
    e_base = ctx.quantity("base_ip", {"town_ips": answer["town_ips"]})
    data = ctx.state.plugin_data(PLUGIN) or {}
    data.setdefault("base_ip", {})[side] = e_base.value
    ctx.state.set_plugin_data(PLUGIN, data)
    ctx.changed()
    town_lines = [ln for t in answer["held"] for ln in town_ip_lines(ctx, t["hex"])]  # every town counted
    headers = [*ctx.rules.quantities["ip_total"].code.cases, *ctx.rules.quantities["base_ip"].code.cases]
    rolled = [c for ln in dice_lines for c in ln["cases"]]  # the step's die roll (its ip_dice line's cases)
    ctx.record("ip-collection", list(dict.fromkeys(answer["cases"] + rolled + headers)),
               {"towns": answer["town_ips"],  # the trace's key as before (golden traces unchanged)
                **{k: answer[k] for k in ("track_bonus", "multiplier", "income", "previous", "roll", "total")},
                "lines": [ln for t in answer["terms"] for ln in [{"source": t["source"], "cases": list(t["cases"])},
                          *({"source": r["source"], "cases": r["cases"]}  # the Turn Track row after its bonus line
                            for r in track_row_lines(ctx, side, [t] if t["kind"] == "term" else []))]]
                + dice_lines + town_lines + ctx.fired_lines(e_base)},
               source=f"{PLUGIN}.collect_ips", side=side)
    return answer


def determine_first_player(ctx: Any) -> str:
    """The first player: quantity ``initiative`` of the turn and each side's points on the track
    now (facts ``<side>_ips``). Sets ``state.set_first_player``."""
    facts = {"turn": ctx.state.turn, **{f"{s}_ips": ctx.state.track("ip", s) for s in sides(ctx)}}
    e = ctx.quantity("initiative", facts)
    ctx.state.set_first_player(e.value)
    ctx.changed()
    ctx.record("first-player", list(e.cases), {**facts, "first_player": e.value, "lines": ctx.fired_lines(e)},
               source=f"{PLUGIN}.determine_first_player", side=None)
    return e.value


def end_phase(ctx: Any) -> dict[str, Any]:
    """The end of the turn: the kernel's ``SequenceMachine.advance`` moves the turn marker when it
    leaves this last step, so this records the end (citing the step's case in the game's
    sequence) and changes nothing: ``{"turn", "next_turn"}``."""
    out = {"turn": ctx.state.turn, "next_turn": ctx.state.turn + 1}
    cases = [str(s["case"]) for ph in ctx.pack.sequence.get("phases") or () for s in ph.get("steps") or ()
             if s.get("id") == ctx.state.step and s.get("case")]
    ctx.record("end-phase", cases, out, source=f"{PLUGIN}.end_phase", side=None)
    return out


@hookimpl
def casebook_setup(ctx: Any) -> None:
    """Control from the units' positions at set-up."""
    update_control(ctx)


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    """Control after every action."""
    update_control(ctx)


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """Steps ``initiative_determination``, ``ip_collection`` and ``advance_turn``."""
    if step == "initiative_determination":
        determine_first_player(ctx)
    elif step == "ip_collection":
        collect_ips(ctx)
    elif step == "advance_turn":
        end_phase(ctx)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    """``income SIDE [--roll N]``."""
    if question != "income":
        return None
    if len(args) != 1:
        raise QuestionError(f"usage: {QUESTIONS['income'].split(' — ', 1)[0]}")
    die = (options or {}).get("roll")
    if die is not None:  # a roll the dice of quantity ip_dice can show
        dice = int(ctx.value("ip_dice", {}))
        if isinstance(die, bool) or not isinstance(die, int) or not dice <= die <= dice * FACES:
            cases = ", ".join(ctx.rules.quantities["ip_dice"].code.cases)
            raise QuestionError(f"--roll {die!r}: the IP dice ({dice} × d{FACES}, by {cases}) roll "
                                f"{dice}-{dice * FACES}")
    try:
        answer = income(ctx, args[0], die)
    except (ValueError, KeyError) as exc:
        raise QuestionError(str(exc).strip("'\"")) from None
    dice_terms = _terms(ctx.quantity("ip_dice", {}))  # the dice line behind the roll and the range (0.7.2.1B):
    answer["terms"] += [t for t in dice_terms if t["kind"] != "start"] or dice_terms  # a modder's `2d6 … when turn >= 2`
    if ctx.engine.recording:  # asked (cmd_ask.answer_ctx lists it after the rule lines): the Turn Track row (1.2)
        answer["table_lines"] = track_row_lines(ctx, args[0], answer["terms"])
    answer["cases"] = list(dict.fromkeys(answer["cases"] + [c for t in answer["terms"] for c in t["cases"]]
                                         + town_cases(ctx, [t["hex"] for t in answer["held"]])))
    return answer


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.initiative``: each side's base marker (points of its hexes) at collection."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    base_ip: dict[str, Annotated[int, Field(ge=0)]]
