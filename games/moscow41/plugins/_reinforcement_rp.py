"""Replacement Points (12.2) and rebuilding around remnants (12.3) for
``games/moscow41/plugins/reinforcement.py``."""

from __future__ import annotations

from typing import Any

from casebook.areas.reinforcement import probe as q
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.dice import roll
from casebook.core.hooks import Refusal
from casebook.core.trace import Trace

__all__ = ["KINDS", "collect_rps", "rp_facts", "rp_refusals", "rp_actions", "apply_rp",
           "rebuildable", "rebuild_choices", "rebuild_refusals", "rebuild_actions", "apply_rebuild"]

#: The RP kinds of the Turn Track and the Replacement Tracks (12.0C, 12.2A).
KINDS = ("infantry", "armor")


@implements("12.0C", "12.2A", "12.2C")
def collect_rps(ctx: Any, side: str) -> dict[str, int]:
    """Add this turn's RPs of ``side`` from the Turn Track (``turn_track`` ``<side>.rp``, 12.2A),
    each kind kept up to the Replacement Track limit (rule-script quantity ``rp_limit``, 12.2C).
    Returns the new totals per kind. Changes the state."""
    rows = [r for r in ctx.records("turn_track") if r.get("turn") == ctx.state.turn]
    new = (rows[0].get(side) or {}).get("rp", {}) if rows else {}
    limit = ctx.value("rp_limit", {})
    out = {}
    for kind in KINDS:
        have = ctx.state.track("rp", side, kind)
        target = max(have, min(have + int(new.get(kind, 0)), limit))
        ctx.state.add_track("rp", target - have, side, kind)
        out[kind] = target
    ctx.changed()
    ctx.record("rp-collected", ("12.2A", "12.2C"), {"side": side, "new": dict(new), "total": out,
                                                    "limit": limit}, source="reinforcement.collect_rps")
    return out


def rp_facts(ctx: Any, uid: str, kind: str) -> dict[str, Any]:
    """The facts of the ``assign_rp`` permission for unit ``uid`` and RP ``kind``."""
    u = ctx.state.unit(uid)
    return {"rp_kind": kind, "unit_class": u.get("class"), "losses": u.get("losses", 0),
            "supplied": q.supplied(ctx, uid), "in_command": q.in_command(ctx, uid),
            "reinforcements_placed": bool(q.data(ctx).get("placed"))}


@implements("12.2A", "12.2B", "12.2D", "12.2E", "12.2F", "12.2H")
def rp_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``assign-rp unit=U rp=infantry|armor`` or ``assign-rp unit=U from=REMNANT`` is
    illegal: the rule-script ``assign_rp`` permission (12.2A-F), RPs of that kind on the track,
    and for a remnant (12.2H) that it is a friendly remnant stacked with the unit."""
    uid, remnant, kind = action.get("unit"), action.get("from"), action.get("rp")
    st = ctx.state
    if not isinstance(uid, str) or not st.has_unit(uid) or st.unit(uid).get("side") != action.side:
        return [Refusal(f"no unit {uid!r} of the {action.side} side on the map", ("12.2D",))]
    if remnant is not None:
        if not st.has_unit(remnant) or st.unit(remnant).get("class") != "remnant" \
                or st.unit(remnant).get("side") != action.side:
            return [Refusal(f"{remnant!r} is not a friendly remnant on the map", ("12.2H",))]
        if st.unit(remnant).get("hex") != st.unit(uid).get("hex"):
            return [Refusal(f"remnant {remnant} is not stacked with {uid}", ("12.2H",))]
        kind = "remnant"
    elif kind not in KINDS:
        return [Refusal(f"rp must be one of {', '.join(KINDS)} (or from=<remnant>)", ("12.2A",))]
    elif st.track("rp", action.side, kind) < 1:
        return [Refusal(f"no {kind} RPs left on the {action.side} Replacement Track", ("12.2A", "12.2C"))]
    return q.refusals(ctx, "assign_rp", rp_facts(ctx, uid, kind))


def rp_actions(ctx: Any, side: str) -> list[Action]:
    """Every legal ``assign-rp`` of ``side`` now (units with losses, by RP kind, then remnants)."""
    out = []
    for u in ctx.state.units:
        if u.get("side") != side or not u.get("losses") or "hex" not in u:
            continue
        for kind in KINDS:
            a = Action.make("assign-rp", side, unit=u["id"], rp=kind)
            if ctx.state.track("rp", side, kind) > 0 and not rp_refusals(ctx, a):
                out.append(a)
        for r in ctx.state.units_at(u["hex"]):
            if r.get("class") == "remnant" and r.get("side") == side:
                a = Action.make("assign-rp", side, unit=u["id"], **{"from": r["id"]})
                if not rp_refusals(ctx, a):
                    out.append(a)
    return out


@implements("12.2E", "12.2H")
def apply_rp(ctx: Any, action: Action) -> dict[str, Any]:
    """Remove one combat loss from the unit for one RP (12.2E) — fatigue stays unless the
    rule scripts allow ``replacement_removes_fatigue`` (``forbid … by 12.2G``); with
    ``from=REMNANT`` the remnant leaves play instead of an RP (12.2H). Changes the state."""
    st, uid, remnant = ctx.state, action.get("unit"), action.get("from")
    if remnant is not None:
        st.remove_unit(remnant, "rebuilding")
        spent = {"remnant": remnant}
    else:
        st.add_track("rp", -1, action.side, action.get("rp"))
        spent = {"rp": action.get("rp")}
    losses = st.unit(uid).get("losses", 0) - 1
    st.update_unit(uid, losses=losses or None)
    if st.unit(uid).get("fatigued") and ctx.allowed("replacement_removes_fatigue", {}):
        st.update_unit(uid, fatigued=None)  # only where a modder deleted the forbid line of 12.2G
    ctx.changed()
    ctx.record("replacement", ("12.2E", "12.2H") if remnant else ("12.2E",),
               {"unit": uid, "losses": losses, **spent}, source="reinforcement.apply_rp", side=action.side)
    return {"unit": uid, "losses": losses, **spent, "cases": ["12.2E", "12.2G"]}


def rebuildable(ctx: Any, counter: Any, side: str) -> bool:
    """Whether a counter (counter-mix data) of ``side`` may be rebuilt: the rule-script
    permission ``rebuild_as`` (12.3B: a normal rifle division of ``rebuild_strength``, Guards
    are not normal; 12.4D: not one marked for withdrawal, the asterisk, counter field
    ``withdraw`` — such units re-enter or leave by the schedules)."""
    if counter is None or counter.get("side") != side:
        return False
    return ctx.allowed("rebuild_as", {
        "side": side, "unit_class": counter.get("class"), "unit_size": counter.get("size") or "none",
        "counter_strength": int(counter.get("strength") or 0), "counter_guards": bool(counter.get("guards")),
        "withdraw_marked": bool(counter.get("withdraw"))})


def rebuild_choices(ctx: Any, side: str) -> list[str]:
    """Eliminated divisions of ``side`` that can be rebuilt now (:func:`rebuildable`, with
    the rule scripts' ``rebuild_as``), not on the map and not already pending (12.3B)."""
    key = ("reinforcement", "rebuild-choices", side)
    found = ctx.memo.get(key)  # once per state version: every rebuild verdict of a listing asks
    if found is None:
        st = ctx.state
        pending = {p["unit"] for p in st.pending}
        found = ctx.memo[key] = sorted({r["unit"] for r in st.removed
                                        if r.get("reason") == "eliminated" and r["unit"] not in pending
                                        and not st.has_unit(r["unit"])
                                        and rebuildable(ctx, ctx.pack.counters.get(r["unit"]), side)})
    return list(found)


@implements("12.3A", "12.3B")
def rebuild_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``rebuild unit=REMNANT into=DIVISION`` is illegal: the ``rebuild`` permission (12.3A:
    a Soviet remnant in supply, in command, not in an EZOC), the division among
    :func:`rebuild_choices`, and ``rebuild_rp_cost`` infantry RPs on the track (12.3B)."""
    st, uid, div = ctx.state, action.get("unit"), action.get("into")
    if not isinstance(uid, str) or not st.has_unit(uid) or st.unit(uid).get("side") != action.side:
        return [Refusal(f"no unit {uid!r} of the {action.side} side on the map", ("12.3A",))]
    u = st.unit(uid)
    out = q.refusals(ctx, "rebuild", {
        "side": action.side, "unit_class": u.get("class"), "supplied": q.supplied(ctx, uid),
        "in_command": q.in_command(ctx, uid), "in_ezoc": q.in_ezoc(ctx, u["hex"], action.side),
        "reinforcements_placed": bool(q.data(ctx).get("placed"))})
    if div not in rebuild_choices(ctx, action.side):
        out.append(Refusal(f"{div!r} is not an eliminated normal rifle division", ("12.3B",)))
    cost = ctx.value("rebuild_rp_cost", {})
    if st.track("rp", action.side, "infantry") < cost:
        out.append(Refusal(f"rebuilding needs {cost} infantry RPs", ("12.3B",)))
    return out


def rebuild_actions(ctx: Any, side: str) -> list[Action]:
    out = []
    for u in ctx.state.units:
        if u.get("side") == side and u.get("class") == "remnant" and "hex" in u:
            for div in rebuild_choices(ctx, side):
                a = Action.make("rebuild", side, unit=u["id"], into=div)
                if not rebuild_refusals(ctx, a):
                    out.append(a)
    return out


@implements("12.3B", "12.3C")
def apply_rebuild(ctx: Any, action: Action) -> dict[str, Any]:
    """Remove the remnant, spend ``rebuild_rp_cost`` infantry RPs, roll ``rebuild_delay_dice`` (two) dice and put the
    division on the Turn Track that many turns ahead (12.3B: a 6 rolled on Turn 10 returns it on
    Turn 16), to enter at a friendly railhead (12.3C: pending without an entry area)."""
    st, side = ctx.state, action.side
    st.remove_unit(action.get("unit"), "rebuilding")
    e_cost, e_dice = ctx.quantity("rebuild_rp_cost", {}), ctx.quantity("rebuild_delay_dice", {})
    st.add_track("rp", -e_cost.value, side, "infantry")
    dice = int(e_dice.value)
    total = roll(st, dice, purpose="rebuild delay", cases=["12.3B"], trace=ctx.trace or Trace(),
                 source="reinforcement.apply_rebuild")
    st.add_pending(action.get("into"), st.turn + total)
    ctx.changed()
    data = {"remnant": action.get("unit"), "division": action.get("into"), "roll": total,
            "turn": st.turn + total, "lines": ctx.fired_lines(e_cost, e_dice)}
    ctx.record("rebuild", ("12.3B", "12.3C"), data, source="reinforcement.apply_rebuild", side=side)
    return {**data, "cases": ["12.3B", "12.3C"]}

