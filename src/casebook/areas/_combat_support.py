"""Who may receive combat support (private to the `combat` plugin): 10.4.2B, 2.3B-C.

10.4.2B: "For a unit to receive combat support, it must be in supply and able to trace a command
path. This path must be to the activating HQ for the attacker or to any HQ for the defender."
(2.3B: "An attacking unit must be within the command radius of and able to trace a line of
supply to an activated HQ.") The command area answers which HQs a unit traces a command path to
(``casebook_command``: ``hqs``) and which HQ activated it (``activated_by``).

Setting ``combat_support_hq`` (interpretation combat-support-every-unit): ``activating`` (the
default, the text's reading) — an attacker activated by an HQ must trace its path to that HQ,
one activated on its own (2.2A) or for a reaction (2.4) to an activated HQ (2.3B); ``any`` —
to any HQ, as for the defender.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SETTING", "attacker_in_command", "defender_in_command"]

SETTING = ("combat_support_hq", "activating")


def defender_in_command(ctx: Any, uid: str) -> bool:
    """10.4.2B, 2.3C: a defender's command path may be to any friendly HQ (in command when no
    plugin answers)."""
    answer = ctx.hook.casebook_command(ctx=ctx, unit=uid)
    return True if answer is None else bool(answer.get("in_command", True))


def attacker_in_command(ctx: Any, uid: str) -> bool:
    """10.4.2B: whether attacking unit ``uid`` traces a command path to the activating HQ (the
    HQ that activated it: ``activated_by`` of the command answer), or, activated without an HQ,
    to an activated HQ (2.3B); under setting ``combat_support_hq: any``, to any HQ."""
    answer = ctx.hook.casebook_command(ctx=ctx, unit=uid)
    if answer is None:
        return True
    if ctx.state.setting(*SETTING) == "any":
        return bool(answer.get("in_command", True))
    if not answer.get("in_command", True):
        return False
    hqs = [e.get("hq") for e in answer.get("hqs") or ()]
    if "hqs" not in answer:  # a command area that names no HQs: its verdict alone
        return True
    activating = answer.get("activated_by")
    if activating is not None:
        return activating in hqs
    return any(ctx.state.has_unit(h) and ctx.state.unit(h).get("activated") for h in hqs)
