"""The words of a combat's DRM limit, shared by the `combat` area's assessment (``casebook ask …
attack``'s ``drm.limit``, the support warnings of the answer and of the ``combat`` event) and the
play's account (:mod:`casebook.tools.account`), so that both say the same thing.

A game's DRM limit (e.g. Moscow '41 10.4.5C: "The total adjusted DRM can never be greater than +4
or less than -4. This limit applies after calculations have been completed.") is a bound line
(``clamp``/``at least``/``at most``) of its DRM quantity; :func:`bound_cases` finds the cases of the
one that changed the sum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = ["BOUND_KINDS", "bound_cases", "limit_words", "shift_terms", "signed", "wasted_drm"]

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


def shift_terms(data: Mapping[str, Any], quantity_at: Callable[[str], str | None]) -> list[dict[str, Any]]:
    """Where a ``combat`` event's ``column_shift`` comes from, as terms (``case``, ``value``,
    ``source``) the account words as it words DRM terms: the event's ``shifts`` that moved the
    column (a game's ``column_shift`` terms, e.g. BM8.3), else its rule ``lines`` that belong to the
    quantity ``loss_shift`` (e.g. Moscow '41 10.3B-C, ``highest(losses of defenders)``), as the
    compiled rule scripts say (``quantity_at``: ``"file:line"`` -> the name of the quantity whose
    line it is, None if none: :meth:`casebook.script.ruleset.RuleSet.quantity_at`). A lone line
    carries the whole shift; of two (both sides' markers) the event keeps only the net, so their
    values are left blank."""
    if data.get("shifts") is not None:
        return [dict(t) for t in data["shifts"] if isinstance(t, Mapping) and t.get("value")]
    found = [ln for ln in data.get("lines") or ()
             if isinstance(ln, Mapping) and quantity_at(str(ln.get("source", ""))) == "loss_shift"]
    value = data.get("column_shift") if len(found) == 1 else ""
    return [{"case": ", ".join(ln.get("cases") or ()), "value": value, "source": ln["source"]} for ln in found]
