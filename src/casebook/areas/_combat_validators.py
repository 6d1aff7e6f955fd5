"""The refusals other rules areas give an attack (private to the `combat` plugin): one code path
for play and ``ask``.

An ``attack`` is legal when no plugin's ``casebook_validate_action`` refuses it: the combat area's
own :func:`~casebook.areas._combat_rules.attack_refusals` (10.1-10.6), and those of the other
areas — stacking (6.2D: only units up to the stacking limit attack from an overstacked hex),
paratroops (15.3B-C: a scattered unit cannot attack or be attacked), fortification and any
other plugin a game registers. The legal actions offer only what every validator accepts, and
``ask attack`` reports the same refusals. An overrun is an action of the movement area
(``overrun stack=HEX hex=HEX``, 9.5A): its refusals are the validators' of that action, plus
9.5A's single stack when the units asked about stand in several hexes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from casebook.areas._combat_odds import procedure_cases
from casebook.areas._game_cases import given_or
from casebook.core.actions import Action
from casebook.core.hooks import Refusal

__all__ = ["PLUGIN", "awaited", "cited", "other_refusals", "attack_action", "overrun_refusals"]

PLUGIN = "combat"


def cited(ctx: Any, key: str) -> tuple[str, ...]:
    """The cases the game gives for step ``key`` of its combat procedure (game.yaml ``area_cases:
    combat:``, e.g. Moscow '41 ``no_target: [10.3A]``), else those heading its combat quantities
    (:func:`~._combat_odds.procedure_cases`: a game with its own numbering)."""
    return given_or(ctx, PLUGIN, key, lambda c: procedure_cases(c, ()))


def awaited(ctx: Any) -> list[Refusal]:
    """The refusal of any attack while the combat before it is not over: its defender's support is
    still to be announced (10.0C, ``support_awaited``), or a decision of its result is still to be
    made (10.0F "Immediately apply the results of the combat, including any advance after combat,
    before resolving any other combat": ``result_awaited``); [] when none waits. Play's validator
    and ``ask attack`` both say it (one code path)."""
    if (ctx.state.plugin_data(PLUGIN) or {}).get("pending"):
        return [Refusal("a combat awaits the defender's support", cited(ctx, "support_awaited"), PLUGIN)]
    if (ctx.state.plugin_data("results") or {}).get("queue"):
        return [Refusal("a combat result awaits its decisions: they come before any other combat",
                        cited(ctx, "result_awaited"), PLUGIN)]
    return []


def _others(ctx: Any) -> Any:
    """``casebook_validate_action`` of every plugin but this one (kept per plugin manager)."""
    pm = ctx.engine.pm
    kept = ctx.lasting("combat.other-validators", id(pm), pause=False)  # a hook caller: no line
    caller = kept.get("caller")
    if caller is None:
        mine = [p for p in (pm.get_plugin(PLUGIN),) if p is not None]
        caller = kept["caller"] = pm.subset_hook_caller("casebook_validate_action", remove_plugins=mine)
    return caller


def other_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """What the other plugins' validators say against ``action`` (empty: nothing)."""
    return [r for rs in _others(ctx)(ctx=ctx, action=action) for r in (rs or ())]


def attack_action(side: str, hex_: str, attackers: Sequence[str], support: int = 0) -> Action:
    """The ``attack`` action of ``side`` on ``hex_`` with ``attackers`` paying ``support`` IPs."""
    return Action.make("attack", side, hex=hex_, support=support, **{"with": list(attackers)})


def overrun_refusals(ctx: Any, side: str, hex_: str, attackers: Sequence[str]) -> list[Refusal]:
    """Why ``attackers`` may not overrun ``hex_`` now, as play judges it: "only a single stack can
    participate" (9.5A), then every validator of the ``overrun stack=HEX hex=HEX units=…`` action
    (the movement area: moving armor and mechanized units in the Movement Step with the MPs,
    9.5A-D; scatter, 15.3C; …)."""
    hexes = sorted({ctx.state.unit(a).get("hex") for a in attackers if ctx.state.has_unit(a)})
    if len(hexes) != 1:
        return [Refusal(f"only a single stack can overrun: the units stand in {', '.join(map(str, hexes))}",
                        cited(ctx, "overrun_stacks"), PLUGIN)]
    action = Action.make("overrun", side, stack=hexes[0], hex=hex_, units=sorted(attackers))
    return [r for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in (rs or ())]
