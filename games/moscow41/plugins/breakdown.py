"""Moscow '41 German infantry breakdown (13.0): a division into regiments and back.

Actions (German, activated units only, 13.0B)::

    german: breakdown unit=g-6id                       # Command or Movement Step (13.0B-D)
    german: recombine into=g-6id units=g-ir-01,g-ir-02,g-ir-03    # Command Step (13.0E-F)

Regiments are the counters of the pack's counter mix that are German infantry regiments and not
on the map (the breakdown pool). A broken-down division leaves the map (``removed`` with reason
``rebuilding``: it is waiting to be recombined, not eliminated) and its data is kept in this
plugin's record ``{"divisions": {id: unit data}}`` so any regiments can bring it (or any other
broken-down division, 13.0F) back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.content.schema_position import counter_fields
from casebook.core.actions import Action
from casebook.core.hooks import Refusal, hookimpl
from casebook.games.moscow41.plugins._movement_state import replace_units

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "PLUGIN", "regiment_pool", "breakdown_refusals", "apply_breakdown",
           "recombine_refusals", "apply_recombine", "divisions_available"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["breakdown_mp_cost", "breakdown_regiment_losses", "breakdown_regiments", "recombine_losses"]}

#: question -> usage line, for `casebook ask` (see docs/ask.md)
QUESTIONS: dict[str, str] = {}
PLUGIN = "breakdown"
#: Steps in which breakdown (13.0B) and recombination (13.0E) may happen.
BREAKDOWN_STEPS = ("command", "movement")
RECOMBINE_STEPS = ("command",)
#: Status flags a regiment takes from its division and a division from its regiments.
_CARRIED = ("activated", "reserve", "oos")


def _data(ctx: Any) -> dict[str, Any]:
    return ctx.state.plugin_data(PLUGIN) or {}


def _is_regiment(u: Mapping[str, Any]) -> bool:
    return u.get("side") == "german" and u.get("class") == "infantry" and u.get("size") == "regiment"


@implements("13.0A", "13.0F")
def regiment_pool(ctx: Any) -> list[str]:
    """German infantry regiment counters of the counter mix not on the map, in id order (13.0A;
    any regiment serves any division, 13.0F)."""
    cache = ctx.lasting("breakdown.regiments")
    if "ids" not in cache:
        cache["ids"] = sorted(cid for cid, c in ctx.pack.counters.items() if _is_regiment(c))
    return [cid for cid in cache["ids"] if not ctx.state.has_unit(cid)]


def divisions_available(ctx: Any) -> list[str]:
    """Broken-down divisions (ids) off the map that regiments can recombine into (13.0E-F)."""
    return sorted(d for d in _data(ctx).get("divisions", {}) if not ctx.state.has_unit(d))


def _refuse(ctx: Any, action_name: str, facts: Mapping[str, Any]) -> list[Refusal]:
    verdict = ctx.permission(action_name, facts)
    return [Refusal(f"forbidden: {ln.text}", tuple(ln.cases), source=ln.source)
            for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]


def _step_refusal(ctx: Any, action: Action, steps: tuple[str, ...], cases: tuple[str, ...]) -> list[Refusal]:
    if ctx.state.step not in steps or action.side != ctx.state.phasing:
        return [Refusal(f"{action.kind} only in the phasing player's {' or '.join(steps)} step", cases)]
    return []


@implements("13.0A", "13.0B", "13.0C", "13.0D")
def breakdown_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``breakdown unit=D`` is illegal: not the phasing player's Command or Movement Step
    (13.0B; at any point of the unit's movement and at no MP cost, 13.0C), the ``breakdown``
    permission (13.0A German infantry division, 13.0B activated, 13.0D at most two losses), or
    too few regiments in the pool for ``breakdown_regiments`` (13.0D)."""
    out = _step_refusal(ctx, action, BREAKDOWN_STEPS, ("13.0B",))
    uid = action.get("unit")
    if not isinstance(uid, str) or not ctx.state.has_unit(uid):
        return out + [Refusal(f"no unit {uid!r} on the map", ("13.0A",))]
    u = ctx.state.unit(uid)
    facts = {"side": u.get("side"), "unit_class": u.get("class"), "unit_size": u.get("size") or "none",
             "activated": bool(u.get("activated")), "losses": u.get("losses", 0)}
    out += _refuse(ctx, "breakdown", facts)
    if not out and len(regiment_pool(ctx)) < ctx.value("breakdown_regiments", facts):
        out.append(Refusal("not enough regiment counters left in the counter mix", ("13.0D",)))
    return out


@implements("13.0C", "13.0D")
def apply_breakdown(ctx: Any, action: Action) -> dict[str, Any]:
    """Replace division D by ``breakdown_regiments`` regiments in its hex, each with
    ``breakdown_regiment_losses`` (13.0D: one loss → three regiments each with 1-Loss; two
    losses → two regiments with 1-Loss), keeping its fatigue and activation. Broken down during
    its movement, the regiments go on with the division's MPs left less ``breakdown_mp_cost``
    (13.0C: at any point of the move, at no MP cost) and, once it has moved, count as moved (9.1D).
    Returns ``{"division", "regiments", "losses", "cases"}``. Changes the state."""
    st, uid = ctx.state, action.get("unit")
    div = dict(st.unit(uid))
    facts = {"losses": div.get("losses", 0)}
    e_n, e_losses = ctx.quantity("breakdown_regiments", facts), ctx.quantity("breakdown_regiment_losses", facts)
    n, losses = e_n.value, e_losses.value
    regiments = regiment_pool(ctx)[:n]
    st.remove_unit(uid, "rebuilding")
    for rid in regiments:
        c = ctx.pack.counters[rid]
        unit = {"id": rid, **{k: c[k] for k in counter_fields(ctx.pack.vocabulary) if k in c and k != "id"}, "hex": div["hex"]}
        unit.update({k: div[k] for k in (*_CARRIED, "fatigued") if div.get(k)})
        if losses:
            unit["losses"] = losses
        st.add_unit(unit)
    e_mp = ctx.quantity("breakdown_mp_cost", facts)
    replace_units(ctx, uid, regiments, int(e_mp.value))
    rec = _data(ctx)
    rec.setdefault("divisions", {})[uid] = {k: v for k, v in div.items()
                                            if k not in ("hex", "losses", "fatigued", *_CARRIED)}
    st.set_plugin_data(PLUGIN, rec)
    ctx.changed()
    ctx.record("breakdown", ("13.0D",), {"division": uid, "regiments": regiments, "losses": losses,
                                         "lines": ctx.fired_lines(e_n, e_losses, e_mp)},
               source="breakdown.apply_breakdown", side=action.side)
    return {"division": uid, "regiments": regiments, "losses": losses, "cases": ["13.0C", "13.0D"]}


def _recombine_facts(ctx: Any, units: list[str]) -> dict[str, Any]:
    us = [ctx.state.unit(r) for r in units]
    odd = [u for u in us if not _is_regiment(u)]
    first = odd[0] if odd else us[0]
    return {"side": first.get("side"), "unit_class": first.get("class"),
            "unit_size": first.get("size") or "none", "activated": all(u.get("activated") for u in us),
            "regiments": [{"losses": int(u.get("losses", 0))} for u in us]}


@implements("13.0E", "13.0F")
def recombine_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``recombine units=R1,R2[,R3] into=D`` is illegal: not the phasing player's Command
    Step (13.0E), the ``recombine`` permission (German infantry regiments, activated, two or
    three of them), not stacked together, or D not a broken-down division off the map (any
    division will do, 13.0F)."""
    out = _step_refusal(ctx, action, RECOMBINE_STEPS, ("13.0B", "13.0E"))
    units = list(action.get("units") or ())
    missing = [r for r in units if not ctx.state.has_unit(r)]
    if not units or missing:
        return out + [Refusal(f"units not on the map: {', '.join(missing) or 'none given'}", ("13.0E",))]
    out += _refuse(ctx, "recombine", _recombine_facts(ctx, units))
    if len({ctx.state.unit(r).get("hex") for r in units}) != 1:
        out.append(Refusal("the regiments are not stacked together", ("13.0E",)))
    if action.get("into") not in divisions_available(ctx):
        out.append(Refusal(f"{action.get('into')!r} is not a broken-down division off the map", ("13.0E", "13.0F")))
    return out


@implements("13.0E")
def apply_recombine(ctx: Any, action: Action) -> dict[str, Any]:
    """Take the regiments off and put division D in their hex: fatigued if any regiment was
    (13.0E), with the loss ``recombine_losses`` (13.0E; interpretation recombine-losses).
    Returns ``{"division", "regiments", "losses", "fatigued", "cases"}``. Changes the state."""
    st, units, div_id = ctx.state, list(action.get("units")), action.get("into")
    facts = _recombine_facts(ctx, units)
    regs = [dict(st.unit(r)) for r in units]
    e_losses = ctx.quantity("recombine_losses", facts)
    losses = e_losses.value
    fatigued = any(r.get("fatigued") for r in regs)
    for r in units:
        st.remove_unit(r, "rebuilding")
    rec = _data(ctx)
    div = {**rec["divisions"].pop(div_id), "hex": regs[0]["hex"]}
    div.update({k: True for k in _CARRIED if all(r.get(k) for r in regs)})
    if fatigued:
        div["fatigued"] = True
    if losses:
        div["losses"] = losses
    st.add_unit(div)
    st.set_plugin_data(PLUGIN, rec if rec.get("divisions") else None)
    ctx.changed()
    ctx.record("recombine", ("13.0E",), {"division": div_id, "regiments": units, "losses": losses,
                                          "fatigued": fatigued, "lines": ctx.fired_lines(e_losses)},
               source="breakdown.apply_recombine",
               side=action.side)
    return {"division": div_id, "regiments": units, "losses": losses, "fatigued": fatigued,
            "cases": ["13.0E"]}


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    """``breakdown`` for activated German infantry divisions (Command and Movement Steps);
    ``recombine`` of the first two or three activated regiments of a hex (Command Step)."""
    side = ctx.state.phasing
    if side != "german" or step not in BREAKDOWN_STEPS:
        return []
    out = []
    for u in ctx.state.units:
        if u.get("side") == side and u.get("size") == "division" and u.get("activated"):
            a = Action.make("breakdown", side, unit=u["id"])
            if not breakdown_refusals(ctx, a):
                out.append(a)
    divisions = divisions_available(ctx)
    if step in RECOMBINE_STEPS and divisions:
        by_hex: dict[str, list[str]] = {}
        for u in ctx.state.units:
            if _is_regiment(u) and u.get("activated") and "hex" in u:
                by_hex.setdefault(u["hex"], []).append(u["id"])
        for _hex, regs in sorted(by_hex.items()):
            a = Action.make("recombine", side, units=sorted(regs)[:3], into=divisions[0])
            if not recombine_refusals(ctx, a):
                out.append(a)
    return out


@hookimpl
def casebook_validate_action(ctx: Any, action: Action) -> list[Refusal]:
    if action.kind == "breakdown":
        return breakdown_refusals(ctx, action)
    if action.kind == "recombine":
        return recombine_refusals(ctx, action)
    return []


@hookimpl
def casebook_apply_action(ctx: Any, action: Action) -> Any:
    if action.kind == "breakdown":
        return apply_breakdown(ctx, action)
    if action.kind == "recombine":
        return apply_recombine(ctx, action)
    return None


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.breakdown``: each broken-down division's unit data, waiting to be
    recombined (13.0)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    divisions: dict[str, dict[str, Any]]
