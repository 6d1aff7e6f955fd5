"""Losses, remnants and fatigue of Moscow '41 combat results (private to the `results` plugin):
11.1C-D, 11.3A-D, 10.6A-B."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.content.cases import implements
from casebook.content.schema_position import counter_fields
from casebook.games.moscow41.plugins._rule_refusals import decided

__all__ = ["parse_result", "is_hq", "is_breakdown_regiment", "apply_loss", "fatigue_unit",
           "distribute_losses", "steps_left", "free_remnant", "loss_effect", "loss_facts"]

_SRC = "results"


def is_hq(unit: Mapping[str, Any]) -> bool:
    return unit.get("class") == "hq"


@implements("11.0A", "11.0B")
def parse_result(text: str) -> dict[str, dict[str, Any]]:
    """A CRT cell ``"F1/R"`` as ``{"attacker": {"fatigue", "retreat", "number"}, "defender": …}``:
    before the slash the attacker's result, after it the defender's (11.0A); ``F`` fatigue, ``R``
    a retreat of one hex, a number n losses (attacker) or n hexes of retreat and/or losses
    (defender), ``-`` no effect (11.0B). ValueError on anything else."""
    parts = str(text).split("/")
    if len(parts) != 2:
        raise ValueError(f"CRT result {text!r}: expected 'attacker/defender'")
    out = {}
    for who, part in zip(("attacker", "defender"), parts):
        part = part.strip()
        rest = "" if part == "-" else part
        entry = {"fatigue": "F" in rest, "retreat": "R" in rest, "number": 0}
        digits = rest.replace("F", "").replace("R", "")
        if digits:
            if not digits.isdigit():
                raise ValueError(f"CRT result {text!r}: unknown {who} result {part!r}")
            entry["number"] = int(digits)
        out[who] = entry
    return out


def is_breakdown_regiment(unit: Mapping[str, Any]) -> bool:
    """A German infantry regiment (the breakdown regiments of 13.0; 11.3A-B)."""
    return unit.get("side") == "german" and unit.get("class") == "infantry" and unit.get("size") == "regiment"


def loss_facts(unit: Mapping[str, Any], losses: int | None = None) -> dict[str, Any]:
    """The facts of the ``combat_loss`` quantity (results.rules) for ``unit`` (with ``losses``
    loss markers, default its own)."""
    return {"side": unit.get("side"), "unit_class": unit.get("class", "infantry"),
            "unit_size": unit.get("size") or "none",
            "losses": int(unit.get("losses") or 0) if losses is None else losses}


def loss_effect(ctx: Any, unit: Mapping[str, Any], losses: int | None = None) -> tuple[str, list[str]]:
    """``(effect, cases)``: what one more combat loss does to ``unit`` — ``loss_marker``,
    ``remnant`` or ``eliminated`` — by the ``combat_loss`` lines of results.rules (11.3A-D,
    10.6B), kept per state version by the facts."""
    facts = loss_facts(unit, losses)
    key = ("results.combat_loss", tuple(facts.values()))
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = decided(ctx, "combat_loss", facts)
    return str(found[0]), list(found[1])


def steps_left(unit: Mapping[str, Any]) -> int:
    """Combat losses the unit can still take before it is eliminated (11.3A-D); 0 for an HQ.
    Only the default policy's order of who takes a loss reads it (:func:`distribute_losses`, the
    decisions' choices); what a loss does is :func:`loss_effect` (results.rules)."""
    if is_hq(unit):
        return 0
    if unit.get("class") == "remnant":
        return 1
    losses = int(unit.get("losses") or 0)
    if is_breakdown_regiment(unit):
        return max(0, 2 - losses)
    return max(0, 3 - losses)


def free_remnant(ctx: Any) -> str | None:
    """A remnant counter of the counter mix not on the map (11.3C: the pool), or None."""
    on_map = {u.get("counter") or u.get("id") for u in ctx.state.units} | {u.get("id") for u in ctx.state.units}
    for cid, c in sorted(ctx.pack.counters.items()):
        if c.get("class") == "remnant" and c.get("side") == "soviet" and cid not in on_map:
            return cid
    return None


@implements("11.3A", "11.3B", "11.3C", "11.3D")
def apply_loss(ctx: Any, uid: str) -> dict[str, Any]:
    """One combat loss on unit ``uid``: German 1-Loss, 2-Loss, then elimination (a breakdown
    regiment is eliminated by its second loss, 11.3B); Soviet 1-Loss, then replaced by a remnant
    counter from the pool (fatigue and activation carried over; eliminated if the pool is empty,
    interpretation remnant-pool-empty), a remnant eliminated by any loss (11.3D); an HQ is
    eliminated — which of these is the ``combat_loss`` quantity of results.rules.
    Returns ``{"unit", "effect": "1-loss"|"2-loss"|"remnant"|"eliminated", "cases"}``."""
    state = ctx.state
    unit = dict(state.unit(uid))
    losses = int(unit.get("losses") or 0)
    effect, cases = loss_effect(ctx, unit)
    if effect == "eliminated":
        state.remove_unit(uid, "eliminated")
        return {"unit": uid, "effect": "eliminated", "cases": cases}
    if effect == "loss_marker":
        state.update_unit(uid, losses=losses + 1)
        return {"unit": uid, "effect": f"{losses + 1}-loss", "cases": cases}
    counter = free_remnant(ctx)
    state.remove_unit(uid, "eliminated")
    if counter is None:
        return {"unit": uid, "effect": "eliminated", "remnant": None, "cases": [c for c in cases if c != "11.3D"]}
    carried = {k: unit[k] for k in ("fatigued", "activated", "reserve", "oos") if unit.get(k)}
    remnant = dict(ctx.pack.counters[counter])
    # every field of the counter mix (name, type, …), as a load of the save expands the
    # counter: reference, so that save -> load -> save gives the same bytes
    record = {**{k: remnant[k] for k in counter_fields(ctx.pack.vocabulary) if k in remnant},
              "id": counter, "counter": counter, "side": "soviet", "class": "remnant",
              "strength": remnant.get("strength"), "ma": remnant.get("ma"), "hex": unit["hex"], **carried}
    state.add_unit({k: v for k, v in record.items() if v is not None})
    return {"unit": uid, "effect": "remnant", "remnant": counter, "cases": cases}


@implements("11.1C", "11.1D", "10.6B")
def fatigue_unit(ctx: Any, uid: str, stacked_with_combat_units: bool) -> dict[str, Any]:
    """A combat fatigue result on ``uid``: flipped to its fatigued side (11.1C); already fatigued,
    it suffers a combat loss instead and stays fatigued (11.1D); an HQ stacked with combat units
    ignores it (10.6B) — the ``combat_fatigue`` lines of results.rules. Returns ``{"unit", "effect", "cases"}``."""
    unit = ctx.state.unit(uid)
    effect, cases = decided(ctx, "combat_fatigue", {"unit_class": unit.get("class", "infantry"),
                                                    "fatigued": bool(unit.get("fatigued")),
                                                    "with_combat_units": bool(stacked_with_combat_units)})
    if effect == "none":
        return {"unit": uid, "effect": "ignored", "cases": cases}
    if effect == "loss":
        loss = apply_loss(ctx, uid)
        return {"unit": uid, "effect": "loss", "loss": loss, "cases": [*cases, *loss["cases"]]}
    if effect == "eliminated":
        ctx.state.remove_unit(uid, "eliminated")
        return {"unit": uid, "effect": "eliminated", "cases": cases}
    ctx.state.update_unit(uid, fatigued=True)
    return {"unit": uid, "effect": "fatigued", "cases": cases}


@implements("10.6B", "11.3A")
def distribute_losses(ctx: Any, units: Sequence[str], n: int) -> list[dict[str, Any]]:
    """Apply ``n`` combat losses to a force (``units``) by the owner's default policy: each loss
    to the combat unit with the most losses left (then the strongest, then by id), so units are
    spared elimination while they can be. HQs go last (10.6B): they survive when the losses
    exactly eliminate the combat units they are stacked with and are eliminated by any loss
    beyond. Returns the loss events in order."""
    events: list[dict[str, Any]] = []
    units = list(units)
    for _ in range(n):
        alive = [u for u in units if ctx.state.has_unit(u)]
        combat = [ctx.state.unit(u) for u in alive if not is_hq(ctx.state.unit(u))]
        if combat:
            target = sorted(combat, key=lambda u: (-steps_left(u), -int(u.get("strength") or 0), u["id"]))[0]
            events.append(apply_loss(ctx, target["id"]))
            if events[-1].get("remnant"):  # the remnant goes on taking the force's losses
                units.append(events[-1]["remnant"])
            continue
        hqs = [u for u in alive if is_hq(ctx.state.unit(u))]
        if not hqs:
            break
        for h in hqs:  # a loss beyond the combat units: the HQs go with them (10.6B)
            events.append(apply_loss(ctx, h))
        break
    return events
