"""Combat losses and fatigue of units, for a game whose rule scripts say what one loss or one
fatigue result does to a unit (a helper of the shared results procedure, not a plugin).

The game's lines read (the cases cited are theirs; this module holds none):

- quantity ``combat_loss`` (``first``; facts ``side``, ``unit_class``, ``unit_size``, ``losses``
  and ``replacement_free``): ``loss_marker`` (one more loss marker on the unit), ``eliminated``,
  or a unit class of the game's vocabulary (the unit is replaced by a counter of that class and
  side from the counter mix not on the map; ``replacement_free`` is false when none is left);
- quantity ``combat_fatigue`` (``first``; facts ``unit_class``, ``fatigued``,
  ``with_combat_units``): ``fatigue`` (the unit's fatigued flag), ``none``, ``loss`` (one
  combat loss instead) or ``eliminated``.

An HQ (unit class ``hq``, as the ``combat`` area counts it) takes the losses of its force only
after the combat units it is with. Public API: :func:`apply_loss`, :func:`fatigue_unit`,
:func:`distribute_losses`, :func:`steps_left`, :func:`loss_effect`, :func:`loss_facts`,
:func:`free_replacement`, :func:`decided`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.content.schema_position import counter_fields

from ._combat_odds import is_hq

__all__ = ["apply_loss", "fatigue_unit", "distribute_losses", "steps_left", "loss_effect", "loss_facts",
           "free_replacement", "decided", "is_hq"]

#: The status flags a replacement counter carries over (the format's own, in a save's order).
_CARRIED = ("fatigued", "activated", "reserve", "oos")
#: How many losses :func:`steps_left` follows at most (a bound on a game's ``combat_loss`` lines
#: that never eliminate).
_MAX_STEPS = 20


def decided(ctx: Any, quantity: str, facts: Mapping[str, Any]) -> tuple[Any, list[str]]:
    """``(value, cases)`` of a ``first`` quantity: its value and the cases of the line that
    decided it (the first term that fired, else the ``otherwise`` line)."""
    e = ctx.quantity(quantity, facts)
    term = next((ln for ln in e.lines if ln.kind == "term" and ln.fired), None)
    start = next((ln for ln in e.lines if ln.kind == "start"), None)
    line = term or start
    return e.value, list(line.cases) if line is not None else list(e.cases)


def _first_class(ctx: Any) -> str:
    return (ctx.pack.vocabulary.unit_classes or ("none",))[0]


def loss_facts(ctx: Any, unit: Mapping[str, Any], losses: int | None = None,
               replacement_free: bool = True) -> dict[str, Any]:
    """The facts of the ``combat_loss`` quantity for ``unit`` (with ``losses`` loss markers,
    default its own); a unit without a class is of the vocabulary's first class."""
    return {"side": unit.get("side"), "unit_class": unit.get("class", _first_class(ctx)),
            "unit_size": unit.get("size") or "none",
            "losses": int(unit.get("losses") or 0) if losses is None else losses,
            "replacement_free": replacement_free}


def loss_effect(ctx: Any, unit: Mapping[str, Any], losses: int | None = None,
                replacement_free: bool = True) -> tuple[str, list[str]]:
    """``(effect, cases)``: what one more combat loss does to ``unit`` by the ``combat_loss``
    lines, kept per state version by the facts."""
    facts = loss_facts(ctx, unit, losses, replacement_free)
    key = ("results.combat_loss", tuple(facts.values()))
    found = ctx.memo_kept(key, lambda: decided(ctx, "combat_loss", facts))  # its lines noted at every read
    return str(found[0]), list(found[1])


def steps_left(ctx: Any, unit: Mapping[str, Any]) -> int:
    """Combat losses the unit can still take before the ``combat_loss`` lines eliminate it (a
    replacement counter goes on taking them); 0 for an HQ. It orders the default policy and
    the check of a named loss order; the lines are evaluated without being cited (what a loss
    does is cited by :func:`apply_loss`)."""
    if is_hq(unit):
        return 0
    rules, tables, standard = ctx.engine.rules, ctx.engine.script_tables, ctx.standard
    facts = loss_facts(ctx, unit)
    classes = set(ctx.pack.vocabulary.unit_classes)
    for n in range(1, _MAX_STEPS + 1):
        effect = str(rules.value("combat_loss", facts, tables, standard))
        if effect == "eliminated":
            return n
        if effect in classes:
            facts = {**facts, "unit_class": effect, "losses": 0}
        else:
            facts = {**facts, "losses": int(facts["losses"]) + 1}
    return _MAX_STEPS


def free_replacement(ctx: Any, side: str, unit_class: str) -> str | None:
    """A counter of ``unit_class`` and ``side`` of the counter mix not on the map, or None."""
    on_map = {u.get("counter") or u.get("id") for u in ctx.state.units} | {u.get("id") for u in ctx.state.units}
    for cid, c in sorted(ctx.pack.counters.items()):
        if c.get("class") == unit_class and c.get("side") == side and cid not in on_map:
            return cid
    return None


def apply_loss(ctx: Any, uid: str) -> dict[str, Any]:
    """One combat loss on unit ``uid``, as the ``combat_loss`` lines say: a loss marker more,
    elimination, or replacement by a counter of the class named (its status flags carried over;
    with none of that class free, the lines are asked again with ``replacement_free`` false).
    Returns ``{"unit", "effect": "N-loss"|<class>|"eliminated", "cases"}`` (and ``"remnant"``:
    the replacing counter, or None)."""
    state = ctx.state
    unit = dict(state.unit(uid))
    losses = int(unit.get("losses") or 0)
    effect, cases = loss_effect(ctx, unit)
    counter, short = None, dict[str, Any]()
    if effect not in ("eliminated", "loss_marker"):
        counter = free_replacement(ctx, unit["side"], effect)
        if counter is None:
            effect, cases = loss_effect(ctx, unit, replacement_free=False)
            short = {"remnant": None}
            if effect not in ("eliminated", "loss_marker"):
                raise ValueError(f"combat_loss: no {effect} counter is free to replace {uid}")
    if effect == "eliminated":
        state.remove_unit(uid, "eliminated")
        return {"unit": uid, "effect": "eliminated", **short, "cases": cases}
    if effect == "loss_marker":
        state.update_unit(uid, losses=losses + 1)
        return {"unit": uid, "effect": f"{losses + 1}-loss", "cases": cases}
    assert counter is not None
    state.remove_unit(uid, "eliminated")
    carried = {k: unit[k] for k in _CARRIED if unit.get(k)}
    replacement = dict(ctx.pack.counters[counter])
    # every field of the counter mix (name, type, …), as a load of the save expands the
    # counter: reference, so that save -> load -> save gives the same bytes
    record = {**{k: replacement[k] for k in counter_fields(ctx.pack.vocabulary) if k in replacement},
              "id": counter, "counter": counter, "side": unit["side"], "class": effect,
              "strength": replacement.get("strength"), "ma": replacement.get("ma"), "hex": unit["hex"], **carried}
    state.add_unit({k: v for k, v in record.items() if v is not None})
    return {"unit": uid, "effect": effect, "remnant": counter, "cases": cases}


def fatigue_unit(ctx: Any, uid: str, stacked_with_combat_units: bool) -> dict[str, Any]:
    """A combat fatigue result on ``uid``, as the ``combat_fatigue`` lines say. Returns
    ``{"unit", "effect": "fatigued"|"ignored"|"loss"|"eliminated", "cases"}``."""
    unit = ctx.state.unit(uid)
    effect, cases = decided(ctx, "combat_fatigue", {"unit_class": unit.get("class", _first_class(ctx)),
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


def distribute_losses(ctx: Any, units: Sequence[str], n: int) -> list[dict[str, Any]]:
    """Apply ``n`` combat losses to a force (``units``) by the owner's default policy: each loss
    to the combat unit with the most losses left (then the strongest, then by id), so units are
    spared elimination while they can be. HQs go last: they survive when the losses exactly
    eliminate the combat units they are with and are eliminated by any loss beyond (a
    replacement counter goes on taking the force's losses). Returns the loss events in order."""
    events: list[dict[str, Any]] = []
    units = list(units)
    for _ in range(n):
        alive = [u for u in units if ctx.state.has_unit(u)]
        combat = [ctx.state.unit(u) for u in alive if not is_hq(ctx.state.unit(u))]
        if combat:
            target = sorted(combat, key=lambda u: (-steps_left(ctx, u), -int(u.get("strength") or 0), u["id"]))[0]
            events.append(apply_loss(ctx, target["id"]))
            if events[-1].get("remnant"):
                units.append(events[-1]["remnant"])
            continue
        hqs = [u for u in alive if is_hq(ctx.state.unit(u))]
        if not hqs:
            break
        for h in hqs:
            events.append(apply_loss(ctx, h))
        break
    return events
