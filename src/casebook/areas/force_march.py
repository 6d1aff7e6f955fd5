"""The force march fatigue roll — a module of the shared areas' API (not a plugin): a game
whose stacks may force march (a second MP allotment at the risk of fatigue) calls it when a
force march ends (e.g. Moscow '41's movement plugin). It holds no case id and no number: the
game passes the cases its roll and result cite and the modified roll that fails, and its lines
give the modifier and what a failure does to each unit.

What it reads of the game (its vocabulary):

- quantity ``force_march_drm`` (the facts the game gives: weather, supply …): the modifier
  added to one die;
- quantity ``force_march_fatigue`` (a ``first`` quantity; facts ``fatigued``, ``unit_class``):
  what a failed roll does to each unit — ``eliminated`` (removed), ``loss`` (a combat loss
  through ``casebook_combat_loss``, else one more step lost) or anything else (the unit is
  marked ``fatigued``; the trace's word for ``fatigue`` is ``fatigued``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.content.packconfig import Cases, Cites
from casebook.core.dice import roll
from casebook.core.trace import Trace

from ._results_losses import decided

__all__ = ["fatigue_roll", "FatigueCites"]


class FatigueCites(Cites):
    """The cases :func:`fatigue_roll` cites, as a game configures them
    (:mod:`casebook.content.packconfig`): the roll, its result (with the modifier's), a loss."""

    roll: Cases
    result: Cases
    loss: Cases

#: A ``force_march_fatigue`` value -> the word of the trace's ``effects``.
_EFFECT_WORD = {"fatigue": "fatigued"}


def fatigue_roll(ctx: Any, units: Sequence[str], facts: Mapping[str, Any], *, fails_at: int,
                 cites: Mapping[str, Sequence[str]], source: str) -> dict[str, Any]:
    """Roll one die plus ``force_march_drm`` (for ``facts``) for the force-marching ``units``; a
    modified roll of ``fails_at`` or less applies ``force_march_fatigue`` to each of them at once.
    ``cites``: the game's cases of the roll (``roll``), of the result (``result``, with the
    modifier's) and of a loss (``loss``, before the deciding line's). Records the die roll and a
    ``force-march-fatigue`` event (``source``); returns ``{"roll", "drm", "modified",
    "fatigued": bool, "effects": [{"unit", "effect", "cases"}], "cases"}``."""
    units = list(units)
    q = ctx.quantity("force_march_drm", facts)
    trace = ctx.trace if ctx.trace is not None else Trace()
    die = roll(ctx.state, 1, purpose="force march fatigue", cases=list(cites["roll"]), trace=trace, source=source)
    modified = die + int(q.value)
    failed = modified <= fails_at
    effects = []
    if failed:
        for u in units:
            unit = ctx.state.unit(u)
            effect, cases = decided(ctx, "force_march_fatigue", {
                "fatigued": bool(unit.get("fatigued")), "unit_class": unit.get("class", "infantry")})
            if effect == "eliminated":
                ctx.state.remove_unit(u, "eliminated")
            elif effect == "loss":  # a combat loss, applied as the game applies them
                taken = ctx.hook.casebook_combat_loss(ctx=ctx, unit=u, cases=[*cites["loss"], *cases])
                if taken is None:  # no area owns losses in this game: count the step here
                    ctx.state.update_unit(u, losses=int(unit.get("losses", 0)) + 1)
            else:
                ctx.state.update_unit(u, fatigued=True)
            effects.append({"unit": u, "effect": _EFFECT_WORD.get(effect, effect), "cases": cases})
        ctx.changed()
    result = {"roll": die, "drm": int(q.value), "modified": modified, "fatigued": failed,
              "effects": effects, "cases": sorted({*cites["result"], *q.cases})}
    ctx.record("force-march-fatigue", result["cases"], {"units": units, **result}, source=source)
    return result
