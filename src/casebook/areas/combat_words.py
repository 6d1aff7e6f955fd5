"""The words of a combat's DRM limit, shared by the `combat` area's assessment (``casebook ask …
attack``'s ``drm.limit``, the support warnings of the answer and of the ``combat`` event) and the
play's account (:mod:`casebook.tools.account`), so that both say the same thing.

Moscow '41 10.4.5C: "The total adjusted DRM can never be greater than +4 or less than -4. This
limit applies after calculations have been completed." — a game's limit is a bound line
(``clamp``/``at least``/``at most``) of its DRM quantity; :func:`bound_cases` finds the cases of the
one that changed the sum.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["BOUND_KINDS", "bound_cases", "limit_words", "signed", "wasted_drm"]

#: The kinds of a quantity's bound lines (src/casebook/script/quantities.py).
BOUND_KINDS = frozenset({"clamp", "at_least", "at_most"})


def signed(n: Any) -> str:
    """A DRM with its sign: ``+5``, ``-2``, ``0``."""
    return f"+{n}" if isinstance(n, (int, float)) and n > 0 else str(n)


def bound_cases(lines: Iterable[Any]) -> tuple[str, ...]:
    """The cases of the bound lines that changed a quantity's sum (an Explanation's ``lines``:
    kind ``clamp``/``at_least``/``at_most``, fired), e.g. ``("10.4.5C",)``; () when none did."""
    return tuple(dict.fromkeys(c for ln in lines if ln.kind in BOUND_KINDS and ln.fired for c in ln.cases))


def limit_words(raw: Any, net: Any, cases: Sequence[str] = ()) -> str:
    """``DRM +5 limited to +4 (10.4.5C)``: a DRM sum ``raw`` that its limit (the bound's ``cases``)
    made ``net``."""
    return f"DRM {signed(raw)} limited to {signed(net)}" + (f" ({', '.join(cases)})" if cases else "")


def wasted_drm(who: str, bought: int, raw: int, net: int) -> int:
    """How many of the ``bought`` DRMs of ``who``'s support (``attacker``: in its favour, plus;
    ``defender``: minus) the limit takes away: those the net DRM would keep without them. Above
    the upper limit (``raw > net``) the attacker's beyond it (``raw - net`` at most) and all the
    defender's; below the lower, the mirror. 0 when the limit changed nothing (``raw == net``)."""
    if bought <= 0 or raw == net:
        return 0
    if (raw > net) == (who == "attacker"):
        return min(bought, abs(raw - net))
    return bought
