"""Shared rules area ``area_breakdown``: a unit broken down into smaller counters of the counter
mix, and pieces recombined into a broken-down unit (e.g. Moscow '41 13.0, German infantry
divisions into regiments).

Actions (the phasing side's)::

    SIDE: breakdown unit=ID                        # the unit leaves the map, pieces take its hex
    SIDE: recombine into=ID units=P1,P2[,P3]       # pieces stacked together bring a unit back

The pieces are the counters of the counter mix that permission ``breakdown_piece`` allows
(facts ``side``, ``unit_class``, ``unit_size``) and that are not on the map, in id order — any
piece serves any unit. A broken-down unit leaves the map (``removed`` with reason
``rebuilding``) and its data waits in this area's record ``{"divisions": {id: unit data}}``.
Every verdict, number and citation is a line of the game (``games/<game>/rules/*.rules``):

- permissions ``breakdown`` (facts ``side``, ``unit_class``, ``unit_size``, ``activated``,
  ``losses``, ``step``, ``acting_phasing``: the acting side is the phasing side) and
  ``recombine`` (the first non-piece's or first piece's ``side``, ``unit_class``,
  ``unit_size``; ``activated`` of all; ``regiments``: each piece's ``losses`` and ``fatigued``;
  ``step``, ``acting_phasing``, ``into_broken_down``): refused with the lines that fired;
- quantities ``breakdown_regiments`` (how many pieces; its header cases are the breakdown's, cited
  by the ``breakdown`` event and the refusal when the pool is short), ``breakdown_regiment_losses``
  (the losses each piece takes) and ``breakdown_mp_cost`` (MPs a breakdown takes from a move; its
  header cases are cited by the result), all read with the unit's ``losses``;
- quantity ``recombine_losses`` (the rebuilt unit's losses; its header cases are the
  recombination's, cited by every recombine refusal of this area and the event) and permission
  ``recombine_sheds_fatigue`` (forbidden: the rebuilt unit is fatigued).

The status flags (the format's ``fatigued``, ``oos``, ``activated``, ``reserve`` and the
vocabulary's ``unit_flags`` a unit carries that its counter does not print, e.g. a formation
flag) pass from a broken-down unit to its pieces, which take its place in its hex; back, a flag
every piece has passes to the rebuilt unit. The unit waiting off the map keeps none of them.
A unit broken down during a move hands on its MPs through the ``casebook_units_replaced`` hook
(the movement plugin's bookkeeping). Public API: :func:`piece_pool`, :func:`divisions_available`,
:func:`breakdown_refusals`, :func:`apply_breakdown`, :func:`recombine_refusals`,
:func:`apply_recombine`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.content.schema_position import UNIT_FLAGS, counter_fields
from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.core.hooks import Refusal, hookimpl

from ._zoc_cites import line_cases

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "PLUGIN", "piece_pool", "divisions_available",
           "breakdown_refusals", "apply_breakdown", "recombine_refusals", "apply_recombine"]

#: What the pack must hold for this area (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["breakdown_mp_cost", "breakdown_regiment_losses", "breakdown_regiments", "recombine_losses"]}

#: question -> usage line, for `casebook ask` (none: the actions answer ``why``)
QUESTIONS: dict[str, str] = {}
PLUGIN = "area_breakdown"


def _data(ctx: Any) -> dict[str, Any]:
    return ctx.state.plugin_data(PLUGIN) or {}


def _header(ctx: Any, quantity: str) -> tuple[str, ...]:
    """The cases of quantity ``quantity``'s header (``quantity x = first by CASES``)."""
    return tuple(ctx.rules.quantities[quantity].code.cases)


def _status(ctx: Any, u: Mapping[str, Any]) -> list[str]:
    """The status flags unit ``u`` carries: the format's and the vocabulary's not printed on its counter."""
    printed = ctx.pack.counters.get(u.get("id"), {})
    return [k for k in (*UNIT_FLAGS, *ctx.pack.vocabulary.unit_flags) if u.get(k) and not printed.get(k)]


def _is_piece(ctx: Any, u: Mapping[str, Any], kept: dict[Any, Any] | None = None) -> bool:
    """Permission ``breakdown_piece`` for the unit's side, class and size (kept per board;
    ``kept``: that cache, read once by a caller asking of many units)."""
    if kept is None:
        kept = ctx.lasting("breakdown.piece", pause=False)  # read through kept
    key = (u.get("side"), u.get("class"), u.get("size") or "none")
    return bool(ctx.kept(kept, key, lambda: ctx.allowed(
        "breakdown_piece", {"side": key[0], "unit_class": key[1], "unit_size": key[2]})))


def piece_pool(ctx: Any) -> list[str]:
    """The piece counters of the counter mix not on the map, in id order (any piece serves any
    broken-down unit)."""
    ids = ctx.kept(("breakdown.regiments",), "ids",
                   lambda: sorted(cid for cid, c in ctx.pack.counters.items() if _is_piece(ctx, c)))
    return [cid for cid in ids if not ctx.state.has_unit(cid)]


def divisions_available(ctx: Any) -> list[str]:
    """Broken-down units (ids) off the map that pieces can recombine into."""
    return sorted(d for d in _data(ctx).get("divisions", {}) if not ctx.state.has_unit(d))


def _refuse(ctx: Any, action_name: str, facts: Mapping[str, Any]) -> list[Refusal]:
    if ctx.allowed(action_name, facts):
        return []
    verdict = ctx.permission(action_name, facts)
    return [Refusal(ctx.rules.forbid_reason(ln, action_name), tuple(ln.cases), source=ln.source)
            for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]


def _refuse_kept(ctx: Any, action_name: str, facts: Mapping[str, Any]) -> list[Refusal]:
    """:func:`_refuse` for hashable ``facts``, kept per state version (:attr:`ctx.memo`) while no
    lines are being noted (recording or an event's lines: there every verdict notes its lines).
    The legal actions ask it of every activated unit, and most units share their facts."""
    if ctx.engine.recording or ctx.event_lines is not None:
        return _refuse(ctx, action_name, facts)
    key = ("breakdown.refuse", action_name, tuple(sorted(facts.items())))
    memo = ctx.memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(_refuse(ctx, action_name, facts))
    return list(found)


def _when(ctx: Any, action: Action) -> dict[str, Any]:
    return {"step": ctx.state.step, "acting_phasing": action.side == ctx.state.phasing}


def _unit_facts(u: Mapping[str, Any]) -> dict[str, Any]:
    return {"side": u.get("side"), "unit_class": u.get("class"), "unit_size": u.get("size") or "none",
            "activated": bool(u.get("activated")), "losses": u.get("losses", 0)}


def breakdown_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``breakdown unit=D`` is illegal: D not on the map, the ``breakdown`` permission, or
    fewer pieces in the pool than ``breakdown_regiments``."""
    uid = action.get("unit")
    if not isinstance(uid, str) or not ctx.state.has_unit(uid):
        return [Refusal(f"no unit {uid!r} on the map", line_cases(ctx, ("breakdown",), "forbid"))]
    facts = _unit_facts(ctx.state.unit(uid))
    out = _refuse_kept(ctx, "breakdown", {**facts, **_when(ctx, action)})
    if not out and len(piece_pool(ctx)) < ctx.value("breakdown_regiments", facts):
        out.append(Refusal("not enough piece counters left in the counter mix", _header(ctx, "breakdown_regiments")))
    return out


def apply_breakdown(ctx: Any, action: Action) -> dict[str, Any]:
    """Replace unit D by ``breakdown_regiments`` pieces in its hex, each with
    ``breakdown_regiment_losses`` losses and D's status flags; broken down during its move, the
    pieces go on with its MPs left less ``breakdown_mp_cost`` (``casebook_units_replaced``).
    Returns ``{"division", "regiments", "losses", "cases"}``. Changes the state."""
    st, uid = ctx.state, action.get("unit")
    div = dict(st.unit(uid))
    facts = {"losses": div.get("losses", 0)}
    e_n, e_losses = ctx.quantity("breakdown_regiments", facts), ctx.quantity("breakdown_regiment_losses", facts)
    n, losses = e_n.value, e_losses.value
    regiments = piece_pool(ctx)[:n]
    st.remove_unit(uid, "rebuilding")
    for rid in regiments:
        c = ctx.pack.counters[rid]
        unit = {"id": rid, **{k: c[k] for k in counter_fields(ctx.pack.vocabulary) if k in c and k != "id"}, "hex": div["hex"]}
        unit.update({k: div[k] for k in _status(ctx, div)})
        if losses:
            unit["losses"] = losses
        st.add_unit(unit)
    e_mp = ctx.quantity("breakdown_mp_cost", facts)
    ctx.hook.casebook_units_replaced(ctx=ctx, old=uid, new=list(regiments), mp_cost=int(e_mp.value))
    rec = _data(ctx)
    rec.setdefault("divisions", {})[uid] = {k: v for k, v in div.items() if k not in ("hex", "losses", *UNIT_FLAGS, *_status(ctx, div))}
    st.set_plugin_data(PLUGIN, rec)
    ctx.changed()
    cases = _header(ctx, "breakdown_regiments")
    ctx.record("breakdown", cases, {"division": uid, "regiments": regiments, "losses": losses,
                                    "lines": ctx.fired_lines(e_n, e_losses, e_mp)},
               source="breakdown.apply_breakdown", side=action.side)
    return {"division": uid, "regiments": regiments, "losses": losses,
            "cases": list(dict.fromkeys((*_header(ctx, "breakdown_mp_cost"), *cases)))}


def _recombine_facts(ctx: Any, units: list[str]) -> dict[str, Any]:
    us = [ctx.state.unit(r) for r in units]
    odd = [u for u in us if not _is_piece(ctx, u)]
    first = odd[0] if odd else us[0]
    return {"side": first.get("side"), "unit_class": first.get("class"),
            "unit_size": first.get("size") or "none", "activated": all(u.get("activated") for u in us),
            "regiments": [{"losses": int(u.get("losses", 0)), "fatigued": bool(u.get("fatigued"))} for u in us]}


def recombine_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``recombine units=P1,P2[,P3] into=D`` is illegal: a piece not on the map, the
    ``recombine`` permission (fact ``into_broken_down``: D is a broken-down unit off the map), or
    the pieces not stacked together."""
    units = list(action.get("units") or ())
    missing = [r for r in units if not ctx.state.has_unit(r)]
    cases = _header(ctx, "recombine_losses")
    if not units or missing:
        return [Refusal(f"units not on the map: {', '.join(missing) or 'none given'}", cases)]
    facts = {**_recombine_facts(ctx, units), **_when(ctx, action),
             "into_broken_down": action.get("into") in divisions_available(ctx)}
    out = _refuse(ctx, "recombine", facts)
    if len({ctx.state.unit(r).get("hex") for r in units}) != 1:
        out.append(Refusal("the pieces are not stacked together", cases))
    return out


def apply_recombine(ctx: Any, action: Action) -> dict[str, Any]:
    """Take the pieces off and put unit D in their hex with the losses ``recombine_losses``,
    fatigued where ``recombine_sheds_fatigue`` is forbidden. Returns ``{"division",
    "regiments", "losses", "fatigued", "cases"}``. Changes the state."""
    st, units, div_id = ctx.state, list(action.get("units")), action.get("into")
    if div_id not in divisions_available(ctx):  # the lines let it through: nothing to rebuild
        raise IllegalActionError(str(action), _header(ctx, "recombine_losses"),
                                 f"{div_id!r} is not a broken-down unit off the map")
    facts = _recombine_facts(ctx, units)
    regs = [dict(st.unit(r)) for r in units]
    e_losses = ctx.quantity("recombine_losses", facts)
    losses = e_losses.value
    fatigued = not ctx.allowed("recombine_sheds_fatigue", {"regiments": facts["regiments"]})
    for r in units:
        st.remove_unit(r, "rebuilding")
    rec = _data(ctx)
    div = {**rec["divisions"].pop(div_id), "hex": regs[0]["hex"]}
    div.update({k: True for k in _status(ctx, regs[0]) if all(k in _status(ctx, r) for r in regs)})
    if fatigued:
        div["fatigued"] = True
    if losses:
        div["losses"] = losses
    st.add_unit(div)
    st.set_plugin_data(PLUGIN, rec if rec.get("divisions") else None)
    ctx.changed()
    cases = _header(ctx, "recombine_losses")
    ctx.record("recombine", cases, {"division": div_id, "regiments": units, "losses": losses,
                                    "fatigued": fatigued, "lines": ctx.fired_lines(e_losses)},
               source="breakdown.apply_recombine", side=action.side)
    return {"division": div_id, "regiments": units, "losses": losses, "fatigued": fatigued, "cases": list(cases)}


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    """``breakdown`` of each activated unit of the phasing side the lines allow; ``recombine``
    of the first two or three activated pieces of a hex into the first broken-down unit."""
    side = ctx.state.phasing
    out = []
    kept = ctx.lasting("breakdown.piece", pause=False)  # read through kept
    verdicts: dict[tuple[Any, ...], bool] = {}  # a unit's facts -> legal: the verdict of units alike
    for u in ctx.state.units:
        if not u.get("activated") or u.get("side") != side:  # most units are not activated
            continue
        key: tuple[Any, ...] = (side, u.get("class"), u.get("size") or "none")  # _is_piece's key, read once
        # the kept verdict read directly where no event's lines are collected (the listing's hot path)
        piece = kept.get(key) if ctx.event_lines is None else None
        if not (_is_piece(ctx, u, kept) if piece is None else piece):
            key += (u.get("losses", 0),)  # with "activated": the facts of _unit_facts
            legal = verdicts.get(key)
            if legal is None:
                legal = verdicts[key] = not breakdown_refusals(ctx, Action.make("breakdown", side, unit=u["id"]))
            if legal:
                out.append(Action.make("breakdown", side, unit=u["id"]))
    divisions = divisions_available(ctx)
    if divisions:
        by_hex: dict[str, list[str]] = {}
        for u in ctx.state.units:
            if u.get("side") == side and u.get("activated") and "hex" in u and _is_piece(ctx, u, kept):
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
    """``plugin_state.area_breakdown``: each broken-down unit's data, waiting to be recombined."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    divisions: dict[str, dict[str, Any]]
