"""The attacks offered in the combat and reaction-attacks steps (private to the `combat` plugin):
10.1A-C, 10.5A-C, 0.7.3.3A, 0.7.3.5A, 2.3A-C, 10.4.2A.

The listing asks the same questions as the refusals of an ``attack`` action (``attack_refusals``),
but cheap ones first: a group the side cannot pay for is left out before the supply and command
of its units are asked; so is support a side cannot afford. What is offered is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas._combat_odds import gather, rules_define, rules_permit
from casebook.areas._combat_rules import (
    attack_groups,
    attack_legal,
    max_support,
    reaction_cost,
    support_allowed,
    support_cost,
    targets,
)
from casebook.areas._combat_validators import cited
from casebook.core.actions import Action
from casebook.core.templates import ActionTemplate

__all__ = ["attack_actions", "attacker_templates", "support_options", "support_actions", "support_templates",
           "whole_ips"]


def support_options(ctx: Any, side: str, attackers: list[str], hex_: str, paid: int, kind: str,
                    cache: dict[Any, Any] | None = None) -> list[int]:
    """The attacker's support offered with an attack: none, and the most worth buying
    (``max_support``) when the attackers may receive it (2.3B); none when the side cannot pay
    one DRM of it after ``paid`` IPs (2.3A), without asking who is in supply."""
    if kind == "overrun" or not rules_define(ctx, "ip_cost"):
        return [0]  # no IPs to buy support with (e.g. Battle for Moscow)
    available = ctx.state.track("ip", side) - paid
    if support_cost(ctx, side, 1) > available:
        return [0]  # max_support buys nothing it cannot pay for
    verdict = support_allowed(ctx, attackers, True, cache=cache)
    if not verdict or not verdict.value:
        return [0]
    f = gather(ctx, attackers, hex_)
    top = max_support(ctx, side, available, lambda ips: {**f.drm_facts, "attacker_support_ips": ips})
    return sorted({0, top})


def attack_actions(ctx: Any, side: str, kind: str) -> list[Action]:
    """Every ``attack`` of ``side`` now (``kind`` attack or reaction), with each support offered."""
    out: list[Action] = []
    cache: dict[Any, Any] = {}  # answers kept for this listing only (see _combat_rules.kept)
    for hex_, units in targets(ctx, side, kind).items():
        for group in attack_groups(ctx, side, hex_, units, kind, cache):
            if not attack_legal(ctx, side, hex_, group, kind, cache):
                continue
            paid = reaction_cost(ctx, side, group) if kind == "reaction" else 0
            for ips in support_options(ctx, side, group, hex_, paid, kind, cache):
                out.append(Action.make("attack", side, hex=hex_, support=ips, **{"with": group}))
    return out


def support_actions(ctx: Any, pending: Mapping[str, Any]) -> list[Action]:
    """The defender's ``support`` choices for the ``pending`` attack: none, and the most worth
    buying (``max_support``) when the defenders may receive it (2.3C, 10.4.2B). Who is in supply
    and command among the defenders is asked only when some support would change the DRM."""
    side, hex_ = pending["defender_side"], pending["hex"]
    options = [0]
    if rules_define(ctx, "ip_cost") and support_cost(ctx, side, 1) <= ctx.state.track("ip", side):
        f = gather(ctx, pending["attackers"], hex_, {"attacker": pending["attacker_support"]})
        top = max_support(ctx, side, ctx.state.track("ip", side),
                          lambda ips: {**f.drm_facts, "attacker_support_ips": 0, "defender_support_ips": ips})
        if top:
            verdict = support_allowed(ctx, [u["id"] for u in ctx.state.units_at(hex_)], False)
            if verdict is None or verdict.value:
                options = [0, top]
    return [Action.make("support", side, ips=n) for n in options]


def whole_ips(value: Any) -> int | None:
    """``value`` as a whole number of IPs (0 or more), or None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def _hint(ctx: Any, side: str, available: int, top: int) -> str:
    per = support_cost(ctx, side, 1)
    return (f"IPs 0-{available}: each {per} {side} IPs buy 1 DRM, a remainder buys none{_by(ctx, 'support_amount')}; "
            f"{top} buys the most that changes the DRM{_by(ctx, 'support_most')}")


def _by(ctx: Any, key: str) -> str:
    """`` (CASES)``: the cases of combat step ``key`` (:func:`~._combat_validators.cited`) for a hint."""
    cases = cited(ctx, key)
    return f" ({', '.join(cases)})" if cases else ""


def support_templates(ctx: Any, listed: list[Action], pending: Mapping[str, Any] | None) -> list[ActionTemplate]:
    """How much combat support to buy is the player's choice (10.4.2A: "announce how much combat
    support, if any"): for each ``listed`` ``attack`` offered with support (the most worth
    buying), a template whose ``support`` is any whole number of IPs the side can pay beyond a
    reaction's cost; for the defender's pending ``support``, one whose ``ips`` is any it can pay.
    The validators refuse an amount the side lacks (2.3A) or units that may not receive support
    (2.3B-C, 10.4.2B)."""
    out: list[ActionTemplate] = []
    if pending:
        side = pending["defender_side"]
        top = max((int(a.get("ips", 0)) for a in listed if a.kind == "support"), default=0)
        example = next((a for a in listed if a.kind == "support" and int(a.get("ips", 0)) == top), None)
        if top and example is not None:
            out.append(ActionTemplate.of(example, {"ips": _hint(ctx, side, ctx.state.track("ip", side), top)},
                                         cited(ctx, "defender_support_template")))
        return out
    for a in listed:
        if a.kind != "attack" or not int(a.get("support", 0)):
            continue
        group = list(a.get("with") or ())
        paid = reaction_cost(ctx, a.side, group) if ctx.state.step == "reaction_attacks" else 0
        hint = _hint(ctx, a.side, ctx.state.track("ip", a.side) - paid, int(a.get("support")))
        out.append(ActionTemplate.of(a, {"support": hint}, cited(ctx, "attacker_support_template")))
    return out


def attacker_templates(ctx: Any, side: str, kind: str, listed: list[Action]) -> list[ActionTemplate]:
    """Which units join an attack is the attacker's choice (10.3A: "the attacker announces all
    units attacking a single hex"; 10.5B: one or more stacks in a reaction; 6.2D: "of the
    attacker's choice" from an overstacked hex): for each enemy hex some eligible unit of
    ``side`` is adjacent to (``kind`` attack or reaction), one template ``attack hex=HEX
    with=<…> support=<…>`` whose ``with`` is any group of units — the listed groups are the
    natural ones (all of them, or up to the stacking limit of each hex). The example is the first
    ``listed`` attack on the hex (None when none is listed). A filling is judged by every
    validator of the ``attack`` action (``attack_refusals``: 10.1A-C, 10.3A, 10.6A, 0.7.3.5A, 2.3;
    stacking 6.2D; scatter 15.3B-C …), as ``ask attack --with`` is. None where the listing
    already offers every group (a game whose scripts permit ``choose_attackers``), nor for a
    reaction the side cannot pay for whoever joins it (:func:`_payable`, 0.7.3.5A, 2.3A)."""
    if kind == "attack" and rules_permit(ctx, "choose_attackers"):
        return []
    ips = rules_define(ctx, "ip_cost")
    out: list[ActionTemplate] = []
    for hex_, units in targets(ctx, side, kind).items():
        if kind == "reaction" and ips and not _payable(ctx, side, units):
            continue
        example = next((a for a in listed if a.kind == "attack" and a.get("hex") == hex_), None)
        free = {"with": (f"ID,… any of {','.join(units)}, each once{_by(ctx, 'attacker_twice')}; from an "
                         f"overstacked hex only units up to its stacking limit{_by(ctx, 'attackers_overstacked')}")}
        free["support"] = f"IPs, 0 or more{_by(ctx, 'support_amount')}" if ips else "0 (no combat support in this game)"
        if example is None:
            fixed: tuple[tuple[str, Any], ...] = (("hex", hex_),)
            out.append(ActionTemplate("attack", side, fixed, tuple(sorted(free.items())),
                                      cited(ctx, "attacker_template"), None))
        else:
            out.append(ActionTemplate.of(example, free, cited(ctx, "attacker_template")))
    return out


def _payable(ctx: Any, side: str, units: list[str]) -> bool:
    """Some filling of a reaction attack of ``units`` is one ``side`` can pay for: its cheapest,
    one unit alone (0.7.3.5A: the IPs per stack, or per unit), costs no more than the IPs it
    holds, as the attack's refusal for IPs compares them (2.3A, ``attack_refusals``)."""
    held = ctx.state.track("ip", side)
    return any(reaction_cost(ctx, side, [u]) <= held for u in units)
