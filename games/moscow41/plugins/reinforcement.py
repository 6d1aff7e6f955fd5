"""Moscow '41 reinforcements, replacements and withdrawals (12.0–12.4; the Replacement and
Reinforcement Step 0.7.2.2).

On entering the step (either Initiative Phase) the phasing side collects its RPs from the Turn
Track (12.2A, 12.2C), makes the withdrawals due (12.4) and finds its reinforcements due from
``state.pending`` and the Reinforcement Schedule (12.0B, 12.1A-B). The phasing player then
assigns RPs (``assign-rp``), rebuilds divisions around remnants (``rebuild``, 12.3) and places
reinforcements (``place-reinforcement``), in that order (0.7.2.2A-B), and passes; whatever is
left unplaced is delayed to the next turn (12.1E).

Actions::

    soviet: assign-rp rp=infantry unit=s-5rd      # 12.2A-G
    soviet: assign-rp from=s-rem-01 unit=s-5rd      # a stacked remnant used as an RP, 12.2H
    soviet: rebuild into=s-5rd unit=s-rem-01        # 12.3
    german: place-reinforcement hex=0122 unit=g-31id
"""

from __future__ import annotations

from typing import Any

from casebook.areas import reinforcement as entry
from casebook.areas import replacements as rp
from casebook.areas.reinforcement import probe as q
from casebook.content.cases import implements
from casebook.content.packconfig import config_reader
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hooks import Refusal, hookimpl

__all__ = ["REQUIRES", "CONFIG", "STATE_SCHEMA", "QUESTIONS", "STEP", "replacements", "reinforcement_step", "reinforcements_answer",
           "place_refusals", "apply_place", "arrived_this_turn"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {
    "tables": ["reinforcements", "turn_track", "withdrawals"],
    "quantities": ["rebuild_delay_dice", "rebuild_rp_cost", "rebuild_strength", "reinforcement_turn", "rp_limit",
                   "withdrawal_turn"],
}

#: question -> usage line, for `casebook ask` (see docs/ask.md)
QUESTIONS: dict[str, str] = {
    "reinforcements": "reinforcements [SIDE] — RPs, reinforcements available now and where they "
                      "may enter, rebuild choices (12.0-12.3)",
}
#: The step this plugin owns as printed (0.7.2.2), in both Initiative Phases; the step play uses
#: is the rule script's quantity ``reinforcement_step`` (12.0E, rules/reinforcement.rules).
STEP = "replacement_reinforcement"
_KINDS = ("assign-rp", "rebuild", "place-reinforcement")
#: The configs it reads (src/casebook/content/packconfig.py): config/replacements.yaml, the names and
#: cases of the shared ``replacements`` area (12.2 RPs, 12.3 rebuilding), read by ``replacements(ctx)``.
CONFIG = {"replacements": rp.REPLACEMENTS_CONFIG}
replacements = config_reader("replacements", rp.REPLACEMENTS_CONFIG, rp.Replacements)


def reinforcement_step(ctx: Any) -> str:
    """The step in which reinforcements, replacements and withdrawals occur (12.0E: Step 2 of
    the Initiative Phase, ``replacement_reinforcement``): quantity ``reinforcement_step``."""
    return str(ctx.value("reinforcement_step", {}))


def _ours(ctx: Any, step: str) -> bool:
    return ctx.state.phasing is not None and step == reinforcement_step(ctx)


@hookimpl
@implements("0.7.2.2A", "0.7.2.2B", "12.0A")
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """Automatic work of the phasing side's Replacement and Reinforcement Step: RPs in (12.2A,
    12.2C), withdrawals out (12.4), reinforcements due made available (12.1A-B); all in the
    step of quantity ``reinforcement_step`` (12.0E: Step 2 of the Initiative Phase)."""
    if not _ours(ctx, step):
        return
    side = ctx.state.phasing
    rec = q.data(ctx)
    rec.update(available=[], placed=False, at=f"{ctx.state.turn}:{side}")
    q.set_data(ctx, rec)
    rp.collect(ctx, replacements(ctx), side)
    entry.withdraw_due(ctx, side)
    available, delayed = entry.gather_due(ctx, side)
    # a unit already on the map (a division rebuilt from its remnant, 12.2, before its scheduled
    # return) is not placed a second time
    present = [e["unit"] for e in available if ctx.state.has_unit(e["unit"])]
    available = [e for e in available if not ctx.state.has_unit(e["unit"])]
    if present:
        ctx.record("reinforcement-already-on-map", ("12.1A",), {"units": present},
                   source="reinforcement.casebook_step_start", side=side)
    rec = q.data(ctx)
    rec["available"] = available
    q.set_data(ctx, rec)
    if delayed:
        ctx.record("reinforcement-blocked", ("12.1B",), {"units": [d["unit"] for d in delayed],
                   "to_turn": ctx.state.turn + 1}, source="reinforcement.casebook_step_start", side=side)


@hookimpl
def casebook_decider(ctx: Any, phase: str, step: str) -> str | None:
    """The phasing player decides in the Replacement and Reinforcement Step (0.7.2.2)."""
    return ctx.state.phasing if _ours(ctx, step) else None


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    if not _ours(ctx, step):
        return []
    side = ctx.state.phasing
    out: list[Action] = []
    # 0.7.2.2A before B: the rule scripts' assign_rp / rebuild lines refuse RPs once a
    # reinforcement is placed (fact reinforcements_placed), so none is listed then
    out += rp.assign_actions(ctx, r := replacements(ctx), side) + rp.rebuild_actions(ctx, r, side)
    for e in q.data(ctx).get("available", []):
        out += [Action.make("place-reinforcement", side, unit=e["unit"], hex=h)
                for h in entry.entry_hexes(ctx, e, side)]
    return out + [Action.make("pass", side)]


@implements("12.1A")
def place_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``place-reinforcement unit=U hex=H`` is illegal: U is not available to the side now
    (12.1A-B), or H is not one of its entry hexes (12.1A, 12.1C) or is enemy-occupied (12.1D)."""
    found = [e for e in q.data(ctx).get("available", []) if e["unit"] == action.get("unit")]
    if not found:
        return [Refusal(f"{action.get('unit')!r} is not a reinforcement available now", ("12.1A", "12.1B"))]
    hex_ = action.get("hex")
    if isinstance(hex_, str) and q.enemy_occupied(ctx, hex_, action.side):
        areas = found[0].get("areas")
        if areas is None:
            supplied = entry.railhead_supply(ctx, found[0], [hex_]).get(hex_, True)
            verdict = entry.placement(ctx, hex_, action.side, railhead=True, supplied=supplied)
        else:
            verdict = entry.placement(ctx, hex_, action.side, railhead=False,
                                      listed=hex_ in entry.listed_hexes(ctx, found[0]))
        if "12.1D" in verdict.cases:  # 12.1D in reinforcement.rules
            return [Refusal(f"{hex_} is enemy-occupied", ("12.1D",))]
    with ctx.apart(recorded=False):  # a listing: the refusal names the verdict of hex_ alone
        hexes = entry.entry_hexes(ctx, found[0], action.side)
    if hex_ not in hexes:
        if "areas" in found[0]:  # 12.1A in reinforcement.rules: the listed area's hexes only
            verdict = entry.placement(ctx, str(hex_), action.side, railhead=False,
                                      listed=hex_ in entry.listed_hexes(ctx, found[0]))
            line = next((ln.source for ln in verdict.lines if ln.fired and ln.kind == "forbid"
                         and not ln.overridden and "12.1A" in ln.cases), "")
            return [Refusal(f"{hex_} is not in entry area {', '.join(found[0]['areas'])}", ("12.1A",), source=line)]
        if hex_ in q.friendly_railheads(ctx, action.side):  # 12.1C's line refused it (hex_supplied)
            ok = entry.railhead_supply(ctx, found[0], [str(hex_)]).get(str(hex_), True)
            entry.placement(ctx, str(hex_), action.side, railhead=True, supplied=ok,  # with its supply lines
                            supplied_lines=entry.railhead_lines(ctx, found[0], str(hex_)))
        return [Refusal(f"{hex_} is not in a friendly railhead that can trace supply", ("12.1C",))]
    return []


@hookimpl
def casebook_validate_action(ctx: Any, action: Action) -> list[Refusal]:
    if action.kind not in _KINDS:
        return []
    if ctx.state.step != reinforcement_step(ctx) or action.side != ctx.state.phasing:
        return [Refusal(f"{action.kind} is taken by the phasing player in the Replacement and "
                        f"Reinforcement Step", ("0.7.2.2", "12.0E"))]
    if action.kind == "place-reinforcement":
        return place_refusals(ctx, action)
    r = replacements(ctx)
    return rp.assign_refusals(ctx, r, action) if action.kind == r.assign else rp.rebuild_refusals(ctx, r, action)


@implements("12.1F", "0.7.2.2B")
def apply_place(ctx: Any, action: Action) -> dict[str, Any]:
    """Put reinforcement U on the map in H, not activated: it gains no free move (12.1F) but
    counts as in command this turn (12.1F, see :func:`arrived_this_turn`). Changes the state."""
    uid, hex_ = action.get("unit"), action.get("hex")
    unit = q.counter_unit(ctx, uid) if uid in ctx.pack.counters else {"id": uid, "side": action.side}
    ctx.state.add_unit({**unit, "hex": hex_})
    rec = q.data(ctx)
    rec["available"] = [e for e in rec.get("available", []) if e["unit"] != uid]
    rec["placed"] = True
    rec.setdefault("arrived", {})[uid] = ctx.state.turn
    q.set_data(ctx, rec)
    row = next((r for r in ctx.records("reinforcements") if r.get("unit") == uid), None)
    lines = entry.schedule_lines(ctx, "reinforcements", row) if row is not None else []
    ctx.record("reinforcement", ("12.1A", "12.1F"), {"unit": uid, "hex": hex_, "lines": lines},
               source="reinforcement.apply_place", side=action.side)
    return {"unit": uid, "hex": hex_, "cases": ["12.1A", "12.1F"]}


@hookimpl
def casebook_apply_action(ctx: Any, action: Action) -> Any:
    if action.kind == "place-reinforcement":
        return apply_place(ctx, action)
    if action.kind == (r := replacements(ctx)).assign:
        return rp.apply_assign(ctx, r, action)
    if action.kind == r.rebuild:
        return rp.apply_rebuild(ctx, r, action)
    return None


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    if _ours(ctx, step):
        entry.delay_unplaced(ctx)


@implements("12.1F")
def arrived_this_turn(ctx: Any, uid: str) -> bool:
    """Whether ``uid`` entered as a reinforcement this turn (12.1F: quantity
    ``arrival_command_turns``) — it is in command."""
    return entry.arrived_within(ctx, uid)


@hookimpl(wrapper=True)
@implements("12.1F")
def casebook_command(ctx: Any, unit: str) -> Any:
    """12.1F: "A reinforcement is considered to be in command the turn it arrives" — the command
    area's answer, made ``in_command`` (case 12.1F added) for a unit that arrived this turn."""
    answer = yield
    if answer is None or answer.get("in_command"):
        return answer
    # plugin data is copied on each read: once per state version, the line with it (memo_kept)
    arrived, turns = ctx.memo_kept(("reinforcement", "arrived"), lambda: (
        dict(q.data(ctx).get("arrived") or {}), int(ctx.value("arrival_command_turns", {}))))
    when = arrived.get(unit)
    if when is None or not 0 <= ctx.state.turn - when < turns:  # 12.1F in reinforcement.rules
        return answer
    return {**answer, "in_command": True, "cases": [*answer.get("cases", ()), "12.1F"]}


@hookimpl
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """For a unit id: ``reinforcement_in_command`` — True the turn it arrives (12.1F; the same
    verdict :func:`casebook_command` gives the command area's answers)."""
    if not isinstance(subject, str) or not ctx.state.has_unit(subject):
        return None
    return {"reinforcement_in_command": {"value": arrived_this_turn(ctx, subject), "cases": ["12.1F"]}}


def _due(ctx: Any, row: dict[str, Any] | None) -> dict[str, Any]:
    """A scheduled reinforcement's due turn (12.0B: quantity ``reinforcement_turn``, its line named); else nothing."""
    return {} if row is None else {"due": entry.due_turn(ctx, "reinforcements", row), "cases": ["12.0B"]}


def reinforcements_answer(ctx: Any, side: str | None = None) -> dict[str, Any]:
    """``casebook ask reinforcements [SIDE]``: ``{"side", "rp": {kind: n}, "rp_limit",
    "available": [{"unit", "areas"|"railhead", "hexes"}], "pending": [...], "rebuild":
    [division ids], "cases"}`` (12.1-12.3). Raises QuestionError for an unknown side."""
    side = side or ctx.state.phasing or "soviet"
    if side not in ("german", "soviet"):
        raise QuestionError(f"unknown side {side!r}: german or soviet")
    rec, look = q.data(ctx), ctx
    if rec.get("at") != f"{ctx.state.turn}:{side}":  # the step has not run: preview it on a copy
        look = ctx.engine.ctx(ctx.state.clone())
        entries = entry.gather_due(look, side)[0]
    else:
        entries = rec.get("available", [])
    rows = {r.get("unit"): r for r in ctx.records("reinforcements")}
    available = [{"unit": e["unit"], **({"areas": e["areas"]} if "areas" in e else {"railhead": True}),
                  "hexes": entry.entry_hexes(look, e, side), **_due(ctx, rows.get(e["unit"]))} for e in entries]
    pending = [dict(p) for p in ctx.state.pending if q.unit_side(ctx, p["unit"]) == side]
    r = replacements(ctx)
    points, received = _points(ctx, r, side, ahead=look is not ctx)
    return {"side": side, "rp": points["total"], **received,
            "rp_limit": ctx.value("rp_limit", {}), "available": available, "pending": pending,
            **({"delayed": d} if (d := entry.delayed_rows(ctx, "reinforcements", ctx.state.turn, side)) else {}),
            "rebuild": rp.rebuild_choices(ctx, r, side) if side == "soviet" else [],
            "cases": ["12.1A", "12.1C", "12.2A", "12.2C", "12.3B"],  # asked: the schedule rows read (file:line)
            **({"table_lines": [ln for e in entries if e["unit"] in rows and (ln := ctx.pack.table_lines.row(
                "reinforcements", rows[e["unit"]])) is not None] + ([ln] if points["row"] is not None and (
                    ln := ctx.pack.table_lines.row(r.schedule, points["row"])) is not None else [])}
               if ctx.engine.recording else {})}


@implements("12.2A", "12.2C")
def _points(ctx: Any, r: Any, side: str, ahead: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The side's RPs when it decides in its step: before the step has run (``ahead``, the phasing
    side in the step), its track plus the points the step's start adds (``rp.receipt``, what
    :func:`casebook_step_start` collects); otherwise the track as it is (with the turn's row: after its step, collected)."""
    got = rp.receipt(ctx, r, side)
    if not (ahead and side == ctx.state.phasing and ctx.state.step == reinforcement_step(ctx)):
        return {"total": {k: ctx.state.track(r.track, side, k) for k in rp.kinds(ctx, r)}, "row": None if ahead else got["row"]}, {}
    have = {k: ctx.state.track(r.track, side, k) for k in got["total"]}
    words = ", ".join(f"{k} {have[k]} + {n - have[k]}" for k, n in got["total"].items())
    return got, {"rp_received": {k: n - have[k] for k, n in got["total"].items()},
                 "rp_when": f"after this step's receipt (12.2A, 12.2C): {words}"}


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Any) -> Any:
    if question != "reinforcements":
        return None
    if len(args) > 1:
        raise QuestionError("usage: " + QUESTIONS["reinforcements"])
    return reinforcements_answer(ctx, args[0] if args else None)


#: ``plugin_state.reinforcement``: the step's record, the shared area's (see its docstring).
STATE_SCHEMA = entry.STATE_SCHEMA
