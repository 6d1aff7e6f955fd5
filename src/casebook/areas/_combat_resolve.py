"""The combat area's procedure, behind its face :mod:`casebook.areas.combat` (which re-exports
these three): :func:`assess` (an attack before the dice: strengths, ratio, CRT column and shifts,
DRM terms), :func:`resolve` (support paid, the combat dice rolled, the CRT cell read, units noted)
and :func:`attack_answer` (``casebook ask … attack``: the assessment with play's refusals and every
outcome). ``ask`` and play share them: one code path for every legality and number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.areas._combat_notes import note_on_roll, noted_flags, roll_notes
from casebook.areas._combat_odds import (
    as_json_number,
    below_table,
    column_shift,
    combat_dice,
    combat_lines,
    crt_lines,
    crt_result,
    dice_cases,
    fired_cases,
    gather,
    odds_column,
    outcomes,
    procedure_cases,
    rules_define,
    shifted_column,
)
from casebook.areas._combat_rules import attack_refusals, record, save, support_cost
from casebook.areas._combat_validators import attack_action, awaited, cited, other_refusals, overrun_refusals
from casebook.areas._game_cases import given
from casebook.areas._roll_lines import dice_lines, roll_naming
from casebook.areas.combat_words import bound_cases, limit_words, wasted_drm
from casebook.core.errors import IllegalActionError, QuestionError

__all__ = ["assess", "resolve", "attack_answer", "shift_sources"]


def assess(ctx: Any, attackers: Sequence[str], hex_: str, support: Mapping[str, int] | None = None,
           overrun: bool = False) -> dict[str, Any]:
    """Everything about an attack before the dice: strengths (strength points), the ratio, the
    basic and shifted CRT column (the game's ``loss_shift``, e.g. 10.3B-C: each side's largest
    Loss marker shifts one column per step, attacker left, defender right), and the DRM of ``attack_drm`` with its terms (net
    clamped once, 10.4.5C; ``drm.limit`` says it when the limit changed the sum:
    :func:`~.combat_words.limit_words`). A game whose scripts define ``column_shift`` (e.g. BM8.3)
    adds its shifts, listed under ``shifts``; ``warnings``: support that buys no DRM, or none
    that counts (:func:`_support_warnings`). Raises KeyError for an unknown unit."""
    f = gather(ctx, attackers, hex_, support, overrun)
    index, basic = odds_column(ctx, f.attack_strength, f.defense_strength)
    scripted, shift_terms = column_shift(ctx, f.drm_facts)
    shift = f.loss_shift + scripted
    _, column = shifted_column(ctx, index, shift)
    e = ctx.quantity("attack_drm", f.drm_facts)
    terms = [{"case": ", ".join(ln.cases), "value": ln.amount, "source": ln.source.rsplit("/", 1)[-1]}
             for ln in e.lines if ln.fired and ln.kind in ("term", "group")]
    raw, net, bound = sum(t["value"] for t in terms), int(e.value), bound_cases(e.lines)
    ratio = f.attack_strength / f.defense_strength if f.defense_strength else None
    out = {"facts": f, "attackers": list(f.attackers), "defenders": list(f.defenders),
           "attack_strength": as_json_number(f.attack_strength),
           "defense_strength": as_json_number(f.defense_strength),
           "ratio": None if ratio is None else f"{as_json_number(ratio)}", "basic_column": basic,
           "column": column, "column_shift": shift,
           "drm": {"raw": raw, "net": net, **({"limit": limit_words(raw, net, bound)} if raw != net else {}),
                   "terms": terms}}  # the limit (10.4.5C) in the account's words
    if rules_define(ctx, "column_shift"):
        out["shifts"] = shift_terms
    sup = {**(support or {}), **({"attacker": 0} if overrun else {})}  # 9.5A: none overrunning
    warned = _support_warnings(ctx, f, sup, (raw, net, bound))
    if warned:
        out["warnings"] = warned
    return out


def _support_warnings(ctx: Any, f: Any, support: Mapping[str, int],
                      limit: tuple[int, int, Sequence[str]]) -> list[dict[str, Any]]:
    """A warning (``{"warning": text, "cases": […]}``) per side whose support IPs leave a remainder
    that buys no DRM (the IPs per DRM: the game's ``ip_cost``; e.g. Moscow '41 10.4.2A:
    2 IPs a DRM for one side, 3 for the other), and per side whose bought DRMs the limit takes away (``limit``: the raw
    and net DRM and the bound's cases, 10.4.5C: :func:`~.combat_words.wasted_drm`). The IPs are
    spent all the same (no case forbids paying more): a warning, no refusal. Empty in a game
    without ``ip_cost``."""
    out: list[dict[str, Any]] = []
    raw, net, bound = limit
    for who, side in (("attacker", f.attacker_side), ("defender", f.defender_side)):
        ips = int(support.get(who, 0) or 0)
        if ips <= 0 or not rules_define(ctx, "ip_cost"):
            continue
        with ctx.apart(recorded=False):  # a warning: its cost lines are no line of the answer or event
            per = support_cost(ctx, side, 1)
        head = f"{ips} {side} IP{'' if ips == 1 else 's'} of support: "
        if per > 1 and ips % per:
            out.append({"warning": head + f"{ips % per} of them buy no DRM (each {per} buy 1, a remainder none)",
                        "cases": list(cited(ctx, "support_amount"))})
        wasted = wasted_drm(who, ips // max(per, 1), raw, net) * max(per, 1)
        if wasted:
            out.append({"warning": head + f"{wasted} of them buy no DRM that counts: {limit_words(raw, net, bound)}",
                        "cases": list(dict.fromkeys([*bound, *cited(ctx, "support_amount")]))})
    return out


def resolve(ctx: Any, attackers: Sequence[str], hex_: str, kind: str, support: Mapping[str, int] | None,
            roll: int | None = None) -> dict[str, Any]:
    """Resolve one combat: pay the announced support (attacker then defender, 10.0C; none for an
    overrunning attacker, 9.5A), roll the combat dice (10.0D), read the CRT (10.0E) and note the
    units the game's ``note_FLAG`` lines permit (Moscow '41 10.7A, e.g.). The `results` area
    applies the cell. Raises IllegalActionError if a side cannot pay its support."""
    sup = {"attacker": 0, "defender": 0, **dict(support or {})}
    if kind == "overrun":
        sup["attacker"] = 0
    a = assess(ctx, attackers, hex_, sup, kind == "overrun")
    f = a["facts"]
    for who, side in (("attacker", f.attacker_side), ("defender", f.defender_side)):
        if sup[who]:
            if sup[who] > ctx.state.track("ip", side):
                raise IllegalActionError(f"{side}: support {sup[who]}", list(cited(ctx, "ip_short")),
                                         f"{side} has {ctx.state.track('ip', side)} IPs")
            ctx.state.add_track("ip", -sup[who], side)
    dice = combat_dice(ctx)
    if roll is None:
        roll = roll_naming(ctx, dice, dice_lines(ctx, "combat_dice"), purpose="combat", cases=dice_cases(ctx),
                           source="combat.resolve")  # the roll event names the combat_dice line
    result = crt_result(ctx, a["column"], roll, a["drm"]["net"])
    rec = record(ctx)
    noted = note_on_roll(ctx, rec, f, roll)
    if kind != "overrun":  # an overrunning stack may overrun again (the game's attack_again lines are not asked)
        rec["attacked_step"] = sorted(set(rec["attacked_step"]) | set(attackers))
    rec["defended_step"] = sorted(set(rec["defended_step"]) | set(f.defenders))  # defend_again decides (e.g. 9.5E)
    if kind == "attack":
        rec["attacked_phase"] = sorted(set(rec["attacked_phase"]) | set(attackers))
    save(ctx, rec)
    out = {k: v for k, v in a.items() if k != "facts"}
    shifted = [c for t in a.get("shifts", ()) if t["value"] for c in t["case"].split(", ")]  # shifts that moved the column
    fired = list(dict.fromkeys([*fired_cases(ctx, f), *shifted]))
    out.update(hex=hex_, kind=kind, attacker_side=f.attacker_side, defender_side=f.defender_side,
               odds=a["column"], support=sup, roll=roll, modified_roll=roll + a["drm"]["net"], result=result,
               **noted, cases=list(dict.fromkeys([*_procedure(ctx, "resolved"), *fired])))
    if not rules_define(ctx, "ip_cost"):
        del out["support"]       # no IPs, no combat support (a game without ip_cost)
    if ctx.trace is not None:  # the event names the lines of its strengths, shifts, DRM terms and dice
        crt_row = _table_lines(crt_lines(ctx, a["column"], [roll], a["drm"]["net"]))  # and the CRT row read
        ctx.record("combat", list(dict.fromkeys([*_procedure(ctx, "combat_event"), *fired])),
                   {k: v for k, v in out.items() if k != "drm"}
                   | {"drm": a["drm"]["net"], "terms": a["drm"].get("terms", []), "lines": [*combat_lines(ctx, f), *crt_row]},
                   source="combat.resolve", side=f.attacker_side)
    return out


def attack_answer(ctx: Any, hex_: str, attackers: Sequence[str], support: Sequence[int] = (0, 0),
                  overrun: bool = False, roll: int | None = None) -> dict[str, Any]:
    """``attack HEX --with U,U [--support A,D] [--overrun] [--roll N]``: the attack assessed
    (eligibility refusals with their cases, strengths, ratio, column and shift, DRM terms, every
    outcome); with ``roll`` the CRT cell for that unmodified roll. ``legal`` and the refusals are
    play's: the combat area's and every other validator of the same action (6.2D, 15.3C; for an
    overrun the movement area's ``overrun`` action, 9.5A). Never changes the state."""
    units = [ctx.state.unit(a) for a in attackers if ctx.state.has_unit(a)]
    if len(units) != len(attackers):
        missing = [a for a in attackers if not ctx.state.has_unit(a)]
        raise QuestionError(f"attack: no unit {', '.join(missing)} on the map")
    side = units[0]["side"]
    kind = "overrun" if overrun else ("reaction" if side != ctx.state.phasing and ctx.state.phasing else "attack")
    sup = {"attacker": int(support[0]) if support else 0, "defender": int(support[1]) if len(support) > 1 else 0}
    refusals = (awaited(ctx) if kind != "overrun" else []) + attack_refusals(ctx, side, hex_, list(attackers),
                                                                            kind, sup["attacker"])
    if kind == "overrun":  # 9.5A: the movement area's overrun action, as play judges it
        refusals += overrun_refusals(ctx, side, hex_, list(attackers))
    else:  # 6.2D, 15.3B-C, …: every other area's validator of the attack action, as in play
        refusals += other_refusals(ctx, attack_action(side, hex_, list(attackers), sup["attacker"]))
    if not ctx.state.units_at(hex_) or all(u.get("side") == side for u in ctx.state.units_at(hex_)):
        return {"attackers": list(attackers), "hex": hex_, "legal": False,
                "refusals": [{"reason": r.reason, "cases": list(r.cases)} for r in refusals],
                "cases": _procedure(ctx, "no_target")}
    a = assess(ctx, attackers, hex_, sup, overrun)
    out = {k: v for k, v in a.items() if k not in ("facts", "basic_column", "shifts")}
    if rules_define(ctx, "loss_shift") or rules_define(ctx, "column_shift"):  # where column_shift comes from
        shifts = [*shift_sources(ctx, a["facts"]), *a.get("shifts", ())]
        out = {**{k: v for k, v in out.items() if k != "drm"}, "shifts": shifts, "drm": out["drm"]}
    out["basic_column"] = a["basic_column"]
    out["kind"] = kind
    out["legal"] = not refusals
    out["refusals"] = [{"reason": r.reason, "cases": list(r.cases)} for r in refusals]
    column, net = a["column"], a["drm"]["net"]  # every roll's cell, kept per version: each support amount reads them
    cells = ctx.memo_kept(("combat.outcomes", column, net), lambda: outcomes(ctx, column, net))
    out["outcomes"] = [{k: v for k, v in o.items() if k != "p"} for o in cells]
    if roll is not None:
        out["result"] = {"roll": roll, "modified_roll": roll + a["drm"]["net"],
                         "result": crt_result(ctx, a["column"], roll, a["drm"]["net"]),
                         **roll_notes(ctx, a["facts"], roll)}
        noting = [c for flag, cases in noted_flags(ctx).items() if out["result"].get(flag) for c in cases]
        if noting:  # the roll notes a unit for a flag: the answer cites the note_FLAG line's cases
            out["result"]["cases"] = list(dict.fromkeys(noting))
    if refusals and "attack" in ctx.rules.permissions:
        out = _not_legal(ctx, out, a["facts"])
    if ctx.engine.recording:  # an ask answer: the CRT row(s) its outcomes and result were read from
        rolls = [o["roll"] for o in out.get("outcomes", ())] + ([roll] if roll is not None else [])
        out["table_lines"] = crt_lines(ctx, a["column"], rolls, a["drm"]["net"])
    out["cases"] = sorted(set(_procedure(ctx, "answer"))
                          | set(dice_cases(ctx))
                          | {c for t in a["drm"]["terms"] for c in t["case"].split(", ")}
                          | {c for t in a.get("shifts", ()) if t["value"] for c in t["case"].split(", ")}
                          | set(ctx.memo_kept(("combat.fired", hex_, tuple(attackers), overrun),  # strengths:
                                              lambda: fired_cases(ctx, a["facts"])))  # no support read
                          | {c for r in refusals for c in r.cases})
    return out


def shift_sources(ctx: Any, f: Any) -> list[dict[str, Any]]:
    """Where a Loss marker's column shift comes from: the terms of the game's ``loss_shift`` that
    moved the column (e.g. Moscow '41 10.3B-C: the defenders' largest Loss marker to the right, the
    attackers' to the left), each ``{"case", "value", "source", "from"}``, ``from`` naming the units
    of that side with the largest ``losses`` (``"s-222rd (losses 1)"``); [] in a game without
    ``loss_shift``. ``ask … attack`` lists them under ``shifts`` before a ``column_shift``'s terms
    (e.g. BM8.3); the ``combat`` event names the same lines (``lines``), which the account words."""
    if not rules_define(ctx, "loss_shift"):
        return []
    out: list[dict[str, Any]] = []
    for ln in ctx.quantity("loss_shift", f.drm_facts).lines:
        if ln.fired and ln.kind in ("term", "group") and ln.amount:  # right: defenders' markers, left: attackers'
            units = [ctx.state.unit(u) for u in (f.defenders if ln.amount > 0 else f.attackers)]
            most = max(int(u.get("losses") or 0) for u in units)
            out.append({"case": ", ".join(ln.cases), "value": ln.amount, "source": ln.source.rsplit("/", 1)[-1],
                        "from": ", ".join(f"{u['id']} (losses {most})" for u in units
                                          if int(u.get("losses") or 0) == most)})
    return out


def _table_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table lines as a trace event names its rule lines (source and cases; explain reads the text)."""
    return [{"source": ln["source"], "cases": ln["cases"]} for ln in lines]


def _procedure(ctx: Any, key: str) -> list[str]:
    """The cases a combat step ``key`` cites: those the game gives (game.yaml ``area_cases:
    combat:``) it numbers, else those heading its combat quantities (``procedure_cases``)."""
    return procedure_cases(ctx, given(ctx, "combat", key) or ())

def _not_legal(ctx: Any, out: Mapping[str, Any], f: Any) -> dict[str, Any]:
    """A refused attack of a game whose scripts have ``attack`` lines (e.g. Battle for Moscow's
    BM8.2C, odds below the table): ``legal`` and the refusals first, no outcomes or result, no column below the CRT (BM8.2C)."""
    head = {"legal": False, "refusals": out["refusals"]}
    rest = {k: v for k, v in out.items() if k not in ("legal", "refusals", "outcomes", "result")}
    if below_table(ctx, f.attack_strength, f.defense_strength):
        rest.update(column=None, basic_column=None)
    return head | rest
