"""The planning bot's combat judgement: an attack's expected result and what support is worth.

An attack is judged by the rules' own ``attack`` answer (the code of ``casebook ask … attack``):
its ``outcomes`` (every roll with its probability and the CRT cell it gives) are turned into an
**expected value** — steps lost or hexes retreated by the defender, fatigue on either side, steps
lost by the attacker — instead of a threshold on the odds column. Combat support is bought by
filling the attack's ``support`` argument (the action template of docs/actions.md) with each
amount up to what the side can spare, and the amount worth most against its IP cost is kept.

What a side can spare (:func:`spare_ips`): its Initiative Points less one per own HQ not yet
activated this step loop (an HQ activation moves a whole corps; a DRM of one rarely pays as much),
so support never starves the activations still to come (found watching the October Blitz: the
German bot spent 20 of its 28 Turn 1 IPs on two +5 DRM attacks that were won anyway, and ten of
its fifteen corps never moved). Game-neutral: it reads the answer's fields, the units' ``class``
and ``activated`` fields and the state's IP count; a game with no IPs buys no support.

Result codes are read as the CRT notation ``attacker/defender`` with ``-`` (no effect), ``F``
(fatigue), ``R`` (a one-hex retreat), a number (losses or hexes of retreat) and combinations
(``F1``, ``FR``), or as the classic one-word codes (``NE``, ``AL``, ``DR``, ``DRL``, ``DE``,
``EX``: :data:`CLASSIC`); a game whose CRT speaks otherwise is judged by its odds only
(:func:`odds_value`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from casebook.core.actions import Action

__all__ = ["CLASSIC", "side_value", "expected_value", "odds_value", "spare_ips", "support_options",
           "DEFENDER_STEP", "ATTACKER_STEP", "FATIGUE", "IP_COST"]

#: Value of one defender loss or hex of retreat (the defender may choose retreat: 11.0B-like).
DEFENDER_STEP = 1.0
#: Cost of one attacker loss (own steps are scarcer than the enemy's ground).
ATTACKER_STEP = 1.4
#: Value of a fatigue result (either side).
FATIGUE = 0.3
#: Cost of one spare IP spent on support (IPs within the activation reserve are not spent).
IP_COST = 0.08

_CODE = re.compile(r"^(F?)(R|\d+)?$")

#: The classic one-word CRT codes (attacker losses, defender losses or hexes), read when a cell
#: has no ``/``: NE no effect, AL/AR/AE attacker loses a step / retreats / is eliminated,
#: DR/DRL/DE the defender retreats / loses a step and retreats / is eliminated, EX an exchange.
CLASSIC: dict[str, tuple[float, float]] = {
    "NE": (0.0, 0.0), "AL": (1.0, 0.0), "AR": (0.5, 0.0), "AE": (2.0, 0.0), "DR": (0.0, 1.0),
    "DL": (0.0, 1.0), "DRL": (0.0, 2.0), "DLR": (0.0, 2.0), "DE": (0.0, 3.0), "EX": (1.0, 1.0)}


def side_value(code: str) -> tuple[float, float]:
    """(losses or hexes of retreat, fatigue 0/1) of one side's half of a CRT cell: ``-`` (0, 0),
    ``F`` (0, 1), ``R`` (1, 0), ``2`` (2, 0), ``F1`` (1, 1), ``FR`` (1, 1); unknown codes (0, 0)."""
    code = code.strip()
    if code in ("", "-"):
        return 0.0, 0.0
    m = _CODE.match(code)
    if not m:
        return 0.0, 0.0
    fatigue = 1.0 if m.group(1) else 0.0
    rest = m.group(2)
    if rest is None:
        return 0.0, fatigue
    return (1.0 if rest == "R" else float(rest)), fatigue


def expected_value(answer: Mapping[str, Any], weight: float = 1.0) -> float | None:
    """The attacker's expected gain from an ``attack`` answer's ``outcomes``: per roll, the
    defender's losses/hexes times ``DEFENDER_STEP * weight`` plus fatigue, less the attacker's
    losses times ``ATTACKER_STEP`` and fatigue, weighted by the roll's probability. None when the
    answer has no readable outcomes."""
    outcomes = answer.get("outcomes") or ()
    total, seen = 0.0, 0.0
    for o in outcomes:
        result = str(o.get("result") or "")
        if "/" in result:
            att, dfn = result.split("/", 1)
            (a_loss, a_fat), (d_loss, d_fat) = side_value(att), side_value(dfn)
        elif result.upper() in CLASSIC:
            a_loss, d_loss = CLASSIC[result.upper()]
            a_fat = d_fat = 0.0
        else:
            continue
        try:
            p = float(Fraction(str(o.get("probability"))))
        except (ValueError, ZeroDivisionError):
            continue
        total += p * ((DEFENDER_STEP * d_loss + FATIGUE * d_fat) * weight - ATTACKER_STEP * a_loss - FATIGUE * a_fat)
        seen += p
    return total if seen > 0.5 else None


def odds_value(answer: Mapping[str, Any]) -> float | None:
    """Effective odds of an attack answer: the column as a ratio plus half a point per net DRM
    (None if the column is not an ``a:d`` ratio)."""
    column = str(answer.get("column") or "")
    try:
        a, d = (float(x) for x in column.split(":"))
    except ValueError:
        return None
    return a / d + 0.5 * int((answer.get("drm") or {}).get("net") or 0)


def spare_ips(state: Any, side: str) -> int:
    """IPs ``side`` may spend on combat support now: its IPs less one per own HQ (``class: hq``)
    on the map not yet ``activated`` (never below 0; 0 for a game without IPs)."""
    try:
        ips = int(state.data.track("ip", side))
    except (AttributeError, KeyError, TypeError, ValueError):
        return 0
    waiting = sum(1 for u in state.data.units
                  if u.get("side") == side and u.get("class") == "hq" and u.get("hex")
                  and not u.get("activated") and not u.get("oos"))
    return max(0, ips - waiting)


def support_options(listed: Sequence[Action], spare: int,
                    net: Callable[[Action], int | None]) -> list[Action]:
    """The attacks to judge: for each (hex, attackers) of ``listed`` (the legal attacks, which
    offer support 0 and the most the side has), support 0 and the amounts up to min(most, spare)
    that buy whole DRMs, filled into the same action (a template filling, docs/actions.md).
    ``net(action)`` is the attack's net DRM (None if refused): the IPs per DRM are found as the
    first amount that raises it, then only its multiples are offered, up to the amount where the
    net DRM stops rising (its cap)."""
    most: dict[tuple[Any, ...], tuple[Action, int]] = {}
    for a in listed:
        key = (a.kind, a.get("hex"), tuple(a.get("with") or ()), a.get("stack"))
        s = int(a.get("support") or 0)
        if key not in most or s > most[key][1]:
            most[key] = (a, max(s, most[key][1] if key in most else 0))
    out: list[Action] = []
    for a, top in most.values():
        def filled(k: int, a: Action = a) -> Action:
            return Action.make(a.kind, a.side, **{**dict(a.params), "support": k})
        base = filled(0)
        out.append(base)
        limit = min(top, spare)
        last = net(base)
        if last is None or limit <= 0:
            continue
        step = next((k for k in range(1, limit + 1) if (net(filled(k)) or last) > last), None)
        k = step
        while step and k is not None and k <= limit:
            now = net(filled(k))
            if now is None or now <= last:
                break
            out.append(filled(k))
            last, k = now, k + step
    return out
