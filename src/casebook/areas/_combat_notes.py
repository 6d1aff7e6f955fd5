"""Units a combat roll notes for a later promotion (private to the `combat` area), named by the
game's scripts: for each permission ``note_FLAG`` a game defines, a combat whose unmodified roll
the line permits notes one participating unit of the side it names; later, in a step its
``raise_FLAG`` lines permit, the unit's side pays ``ip_cost`` (``ip_use: FLAG``) to give it the
unit flag FLAG (action ``raise-FLAG unit=ID``); the notes lapse at the end of a step in which
``keep_FLAG_notes`` is forbidden. One such flag, for example: e.g. Moscow '41's Guards (10.7A-B,
e.g. games/moscow41/rules/combat.rules: ``forbid note_guards by 10.7A`` and a permit line for an
unmodified 12 or 2, e.g. ``forbid raise_guards``, ``forbid keep_guards_notes by 10.7B``).

Facts given: ``note_FLAG`` — ``side``, ``attacking`` (the side attacked), ``roll`` (unmodified),
``unit_class``, ``flagged`` (the unit has FLAG already); ``raise_FLAG`` — ``step``, ``side``,
``supplied`` (asked when read; the step is judged first for a supplied unit of the phasing
side, and in a step where that is allowed the area offers only the ``raise-FLAG`` actions);
``keep_FLAG_notes`` — ``step``. A game without such lines notes
nothing and its combat results carry no ``FLAG_noted``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from casebook.areas._combat_odds import CombatFacts, supplied
from casebook.areas._combat_rules import PLUGIN, noted_flags, record, save
from casebook.core.actions import Action
from casebook.script import AskedFacts

__all__ = ["noted_flags", "note_on_roll", "roll_notes", "raise_actions", "raise_flag", "apply_raise", "lapse_notes"]


def _candidates(ctx: Any, f: CombatFacts, roll: int, flag: str) -> list[Mapping[str, Any]]:
    """The units of the combat ``f`` that line ``note_FLAG`` permits noting after ``roll``."""
    out = []
    for uid in (*f.attackers, *f.defenders):
        if not ctx.state.has_unit(uid):
            continue
        u = ctx.state.unit(uid)
        facts = {"side": u["side"], "attacking": u["side"] == f.attacker_side, "roll": roll,
                 "unit_class": u.get("class"), "flagged": bool(u.get(flag))}
        if ctx.allowed(f"note_{flag}", facts):
            out.append(u)
    return out


def note_on_roll(ctx: Any, rec: dict[str, Any], f: CombatFacts, roll: int) -> dict[str, Any]:
    """After combat ``f`` rolled ``roll`` (unmodified): for each noted flag, note the strongest
    permitted unit (then the first id) in ``rec`` (the area's record, saved by the caller) and
    return ``{"FLAG_noted": id or None}``."""
    out: dict[str, Any] = {}
    for flag in noted_flags(ctx):
        found = _candidates(ctx, f, roll, flag)
        noted = None
        if found:
            noted = sorted(found, key=lambda u: (-int(u.get("strength") or 0), u["id"]))[0]["id"]
            rec[flag] = sorted(set(rec.get(flag, [])) | {noted})
        out[f"{flag}_noted"] = noted
    return out


def roll_notes(ctx: Any, f: CombatFacts, roll: int) -> dict[str, bool]:
    """For ``ask attack --roll``: ``{FLAG: True}`` when that roll would note a unit for FLAG."""
    return {flag: bool(_candidates(ctx, f, roll, flag)) for flag in noted_flags(ctx)}


def raise_flag(ctx: Any, kind: str) -> str | None:
    """The flag of an action kind ``raise-FLAG`` of a noted flag, else None."""
    if not kind.startswith("raise-"):
        return None
    flag = kind[len("raise-"):]
    return flag if flag in noted_flags(ctx) else None


def _raise_cases(ctx: Any, flag: str) -> list[str]:
    code = ctx.rules.permissions.get(f"raise_{flag}")
    lines = code.lines if code is not None else ()
    return list(dict.fromkeys([c for _, rc, _ in lines for c in rc.cases] or noted_flags(ctx)[flag]))


def raise_actions(ctx: Any, step: str) -> list[Action] | None:
    """``raise-FLAG unit=ID`` for each noted unit still on the map whose side has the IPs and
    that ``raise_FLAG`` permits now; None when no noted flag may be raised in ``step`` at all
    (the area's other actions are listed instead)."""
    out: list[Action] | None = None
    for flag, ids in ((fl, record(ctx).get(fl, [])) for fl in noted_flags(ctx)):
        # the step gate: would a unit in supply of the phasing side be allowed now
        if not ctx.allowed(f"raise_{flag}", {"step": step, "side": ctx.state.phasing, "supplied": True}):
            continue
        out = out or []
        for uid in ids:
            if not ctx.state.has_unit(uid):
                continue
            side = ctx.state.unit(uid)["side"]
            if ctx.state.track("ip", side) < ctx.value("ip_cost", {"ip_use": flag, "side": side}):
                continue
            facts = AskedFacts({"step": step, "side": side}, {"supplied": partial(supplied, ctx, uid)})
            if ctx.permission(f"raise_{flag}", facts).value:
                out.append(Action.make(f"raise-{flag}", side, unit=uid))
    return out


def apply_raise(ctx: Any, action: Action, flag: str) -> dict[str, Any]:
    """Pay ``ip_cost`` (``ip_use: FLAG``), give the unit FLAG, drop its note; event ``FLAG``."""
    uid = str(action.get("unit"))
    side = ctx.state.unit(uid)["side"]
    cost = ctx.value("ip_cost", {"ip_use": flag, "side": side})
    ctx.state.add_track("ip", -cost, side)
    ctx.state.update_unit(uid, **{flag: True})
    rec = record(ctx)
    rec[flag] = [g for g in rec.get(flag, []) if g != uid]
    save(ctx, rec)
    cases = _raise_cases(ctx, flag)
    ctx.record(flag, cases, {"unit": uid, "ips": cost}, source=f"{PLUGIN}.raise_{flag}", side=side)
    return {"unit": uid, flag: True, "ips": cost, "cases": cases}


def lapse_notes(ctx: Any, step: str) -> None:
    """At the end of ``step``: the notes of each flag whose ``keep_FLAG_notes`` is forbidden now
    lapse (event ``FLAG-lapsed`` with the forbidding cases)."""
    for flag in noted_flags(ctx):
        if f"keep_{flag}_notes" not in ctx.rules.permissions:
            continue
        verdict = ctx.permission(f"keep_{flag}_notes", {"step": step})
        if verdict.value:
            continue
        rec = record(ctx)
        if rec.get(flag):
            cases = [c for ln in verdict.lines if ln.fired and ln.kind == "forbid" for c in ln.cases]
            ctx.record(f"{flag}-lapsed", cases, {"units": rec[flag]}, source=f"{PLUGIN}.casebook_step_end")
            rec[flag] = []
            save(ctx, rec)
