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

import re
from collections.abc import Callable, Sequence
from typing import Any

from casebook.areas._combat_odds import is_hq

__all__ = ["SETTING", "attacker_in_command", "defender_in_command", "unsupported"]

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


#: a fact a ``combat_support`` forbid line reads -> (the value that refuses, what it says of the unit)
_WHY = {"supplied": (False, "out of supply"), "in_command": (False, "not in command"),
        "overrun": (True, "overrunning (no support in an overrun)")}


def unsupported(ctx: Any, units: Sequence[str], facts_of: Callable[[str], Any]) -> tuple[str, tuple[str, ...]]:
    """(which of ``units`` cannot receive combat support and why, the cases of the forbid lines
    that refused them): ``"s-91rd out of supply; s-19a not in command"`` (10.4.2B, 2.3B-C). Each
    unit's verdict is the script permission ``combat_support`` on ``facts_of(uid)`` (the facts
    :func:`support_allowed` asks); its reason, the facts the lines that fired read, as read."""
    whys: list[str] = []
    cases: list[str] = []
    for uid in units:
        if is_hq(ctx.state.unit(uid)):
            continue
        facts = facts_of(uid)
        verdict = ctx.permission("combat_support", facts)
        if verdict.value:
            continue
        fired = [ln for ln in verdict.lines if ln.kind == "forbid" and ln.fired and not ln.overridden]
        named = {w for ln in fired for w in re.findall(r"\w+", ln.text)}
        said = [what for fact, (bad, what) in _WHY.items() if fact in named and bool(facts[fact]) == bad]
        whys.append(f"{uid} {' and '.join(said) or 'refused'}")
        cases += [c for ln in fired for c in ln.cases]
    return "; ".join(whys), tuple(dict.fromkeys(cases))
