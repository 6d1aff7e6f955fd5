"""OOS marking at the end of the Recovery Step (5.5A-D, 5.6B): private helper of `supply`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from casebook.content.cases import implements

__all__ = ["mark_oos"]

_SOURCE = "supply.mark_oos"


@implements("5.5A", "5.5B", "5.5C", "5.5D", "5.6B")
def mark_oos(ctx: Any, side: str, in_supply: Callable[[Any, str], bool]) -> dict[str, Any]:
    """Judge the supply of every unit of ``side`` at the end of its Recovery Step and apply 5.5.

    All verdicts are taken first (one instant), then applied per unit in id order:

    - supplied: an OOS marker is removed (5.5D);
    - unsupplied remnant: eliminated (5.5B; 16.1B "the Soviets remove all remnants that are OOS").
      The partisans plugin removes them first (its step_end runs tryfirst) and gives one partisan
      point per three, together with voluntary disbandments (5.5C, 16.1B); a remnant still here
      is removed and counted in the plugin data ``oos_remnants_removed``;
    - unsupplied, not yet OOS: marked OOS (5.5A);
    - unsupplied and already OOS: a fatigue result (5.5A); if already fatigued, one more loss
      marker (5.5A), the unit eliminated at its third loss (11.3A). HQs are only marked.

    Which of these befalls a unit is the script quantity ``oos_result`` (supply.rules). This is
    the only place OOS markers are placed (5.6B). Returns ``{"restored", "marked",
    "fatigued", "losses", "eliminated": [unit ids]}``.
    """
    state = ctx.state
    units = sorted(u["id"] for u in state.units if u.get("side") == side and u.get("hex"))
    verdict = {uid: in_supply(ctx, uid) for uid in units}
    out: dict[str, Any] = {"restored": [], "marked": [], "fatigued": [], "losses": [],
                           "eliminated": []}
    effects: dict[tuple[Any, ...], str] = {}
    for uid in units:
        unit = state.unit(uid)
        facts = {"supplied": bool(verdict[uid]), "already_oos": bool(unit.get("oos")),
                 "fatigued": bool(unit.get("fatigued")), "unit_class": unit.get("class", "infantry")}
        key = tuple(facts.values())
        if key not in effects:  # the oos_result lines of supply.rules (5.5A, 5.5B, 5.5D)
            effects[key] = str(ctx.value("oos_result", facts))
        effect = effects[key]
        if effect == "restored":
            if unit.get("oos"):
                state.update_unit(uid, oos=None)
                out["restored"].append(uid)
        elif effect == "eliminated":
            state.remove_unit(uid, "eliminated")
            out["eliminated"].append(uid)
        elif effect == "marked":
            if not unit.get("oos"):
                state.update_unit(uid, oos=True)
                out["marked"].append(uid)
        elif effect == "fatigue":
            state.update_unit(uid, fatigued=True)
            out["fatigued"].append(uid)
        elif effect == "loss":
            losses = int(unit.get("losses", 0)) + 1
            if losses >= 3:
                state.remove_unit(uid, "eliminated")
                out["eliminated"].append(uid)
            else:
                state.update_unit(uid, losses=losses)
            out["losses"].append(uid)
    remnants = [u for u in out["eliminated"] if u not in out["losses"]]
    if remnants:
        data = dict(state.plugin_data("supply") or {})
        data["oos_remnants_removed"] = {"turn": state.turn, "count": len(remnants)}
        state.set_plugin_data("supply", data)
    ctx.changed()
    ctx.record("oos-marking", ["5.5A", "5.5B", "5.5C", "5.5D"], out, source=_SOURCE, side=side)
    return out
