"""Explanations: what a rule-script evaluation computed, term by term, with cases and sources.

An :class:`Explanation` is what the trace records and ``casebook explain`` shows: the value, and one
:class:`Line` per script line that took part — the ones that fired *and* the ones that did not,
each with its cases and ``file:line``. Both are frozen and turn into plain data with ``to_dict()``
(fractions become strings such as ``"7/4"``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["Line", "Explanation", "plain", "line_entry", "unique_lines", "forbid_reason"]


def plain(value: Any) -> Any:
    """A value as plain data: integral fractions become ``int``, others ``"n/d"``; rest unchanged."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


def _signed(value: Any) -> str:
    v = plain(value)
    if isinstance(v, bool) or not isinstance(v, int):
        return str(v)
    return f"{v:+d}"


@dataclass(frozen=True)
class Line:
    """One line of a script as it took part in an evaluation.

    ``kind``: ``start | term | group | round | clamp | at_least | at_most | forbid | permit``.
    ``fired``: its condition held (a bound or rounding: it changed the value). ``amount``: the
    term's amount when it fired (``None`` otherwise); for round/bounds the value after the step.
    ``won``: in a most-severe group, the member that applied. ``members``: a group's terms.
    ``note``: a short human remark (e.g. ``"only the most severe applies"``).
    """

    kind: str
    cases: tuple[str, ...]
    source: str
    text: str
    fired: bool
    amount: Any = None
    won: bool = False
    members: tuple[Line, ...] = ()
    note: str = ""
    #: a forbid line that fired but a firing permit overrides (it forbids nothing)
    overridden: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        d: dict[str, Any] = {
            "kind": self.kind,
            "cases": list(self.cases),
            "source": self.source,
            "text": self.text,
            "fired": self.fired,
            "amount": plain(self.amount),
        }
        if self.kind == "group" or self.won:
            d["won"] = self.won
        if self.members:
            d["members"] = [m.to_dict() for m in self.members]
        if self.note:
            d["note"] = self.note
        if self.overridden:
            d["overridden"] = True
        return d


@dataclass(frozen=True)
class Explanation:
    """The value of one quantity (or permission) and every line that went into it.

    ``kind`` is ``quantity`` or ``permission``; ``mode`` the combination (``sum``, ``product``,
    ``min``, ``max``, ``first``, or ``permission``); ``value`` the result (``int``, ``Fraction``,
    ``str`` or, for a permission, ``bool`` allowed); ``cases`` the cases of the lines that fired
    (:meth:`deciding`: the lines an event or answer names — not a term adding 0 or multiplying by
    1, not a ``first``'s ``otherwise`` when another line fired; a most-severe group's own cases
    beside its winner's), in order, without repeats.
    """

    name: str
    kind: str
    mode: str
    value: Any
    lines: tuple[Line, ...]

    @property
    def cases(self) -> tuple[str, ...]:
        chosen = {id(line) for line in self.deciding()}  # in line order
        # a group's own case (4.6A "only the most severe applies") decided which member counts: kept before its winner's
        return tuple(dict.fromkeys(c for line in self.lines for ln in (line, *line.members)
                                   if id(ln) in chosen or (ln is line and any(id(m) in chosen for m in line.members))
                                   for c in ln.cases))

    def deciding(self) -> tuple[Line, ...]:
        """The lines that decided the value, in line order (a most-severe group: its winning
        member) — the lines a trace event or an answer names (docs/rule-language.md, "Which lines
        fired"): a line fired when its condition held *and* it made the value what it is. A
        ``sum``'s or ``product``'s ``start`` (its base, even at 0) and the terms that change it (not
        ``+0``, not ``× 1``); the
        one line whose value a ``first`` (its ``otherwise`` only when no other line fires), ``min``
        or ``max`` takes (the first, on a tie); a ``round`` line or bound that changed the value.
        A permission: a refusal's ``forbid`` lines that took effect (not one a permit overrides),
        an allowed action's ``permit`` lines whose condition held."""
        if self.kind == "permission":
            want = "permit" if self.value else "forbid"
            return tuple(ln for ln in self.lines if ln.kind == want and ln.fired and not ln.overridden)
        neutral = {"sum": 0, "product": 1}.get(self.mode)
        values: list[Line] = []
        after: list[Line] = []
        taken: Line | None = None
        for line in self.lines:
            if not line.fired:
                continue
            if line.kind not in ("start", "term", "group"):
                after.append(line)  # a round line or bound that changed the value
                continue
            won = next((m for m in line.members if m.won), line)
            if neutral is not None:
                if line.kind == "start" or line.amount != neutral:  # a start: the base, even at 0
                    values.append(won)
            elif taken is None or self.mode == "first" or (
                    line.amount < taken.amount if self.mode == "min" else line.amount > taken.amount):
                taken = won
        return tuple(values + ([taken] if taken is not None else []) + after)

    def fired(self) -> tuple[Line, ...]:
        """The lines that fired (for a group: the group line itself)."""
        return tuple(line for line in self.lines if line.fired)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): name, kind, mode, value, cases, lines."""
        return {
            "name": self.name,
            "kind": self.kind,
            "mode": self.mode,
            "value": plain(self.value),
            "cases": list(self.cases),
            "lines": [line.to_dict() for line in self.lines],
        }

    def render(self) -> str:
        """A few lines of text: the value, then each line (``✓`` fired, ``·`` did not)."""
        out = [f"{self.name} = {plain(self.value)}  ({self.mode})"]

        def one(line: Line, indent: str) -> None:
            mark = "✓" if line.fired else "·"
            amt = "" if line.amount is None else f"{_signed(line.amount):>5} "
            if line.won:
                mark = "★"
            cases = ", ".join(line.cases)
            note = f"  — {line.note}" if line.note else ""
            out.append(f"{indent}{mark} {amt}{line.kind} by {cases}  [{line.source}]  {line.text}{note}")
            for m in line.members:
                one(m, indent + "    ")

        for line in self.lines:
            one(line, "  ")
        return "\n".join(out)


def line_entry(line: Any) -> dict[str, Any]:
    """A deciding line as recorded: ``{"source": "x.rules:12", "cases": [...], "text": ...}`` (a
    continued line's trailing backslash shown as " …")."""
    text = line.text[:-1].rstrip() + " …" if line.text.endswith("\\") else line.text
    return {"source": line.source, "cases": list(line.cases), "text": text}


def unique_lines(lines: Any) -> list[Any]:
    """``lines`` (line entries ``{"source": "x.rules:12", …}``) with each source once, in the
    order first seen: an answer or event names a line once however often it fired."""
    seen: dict[Any, Any] = {}
    for ln in lines:
        seen.setdefault(ln.get("source") if isinstance(ln, Mapping) else id(ln), ln)
    return list(seen.values())


#: a description's trailing cases ``(14.4A)`` / ``(7.0D, 7.1B)`` or remark ``— asked by …``
_TAIL = re.compile(r"\s*(?:—[^—]*|\([^()]*\d[^()]*\))\s*$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _gist(text: str) -> str:
    """A facts.yaml description without its trailing cases or remarks (the line cites its own)."""
    prev = None
    while prev != text:
        prev, text = text, _TAIL.sub("", text)
    return text.strip()


def forbid_reason(line: Line, schema: Any = None, action: str = "") -> str:
    """The reason a refusal gives for the ``forbid`` line ``line`` that decided it, readable
    without the script: what the action does and what each fact its condition reads means (the
    descriptions of ``schema``, the game's facts.yaml, without their trailing cases), the cases,
    the condition as written and the line's ``file:line``; ``action``: the permission, when the
    line does not name it. E.g. ``put an activated German stack
    into hedgehog formation: forbidden by 14.4A when formed_hedgehog — formed_hedgehog: the stack
    … [games/moscow41/rules/fortification.rules:74]``."""
    text = line.text.strip()
    words = text.split()
    if not action and len(words) > 1 and words[0] == "forbid" and words[1] != "by":
        action = words[1]  # else the caller names it (a declared action's own lines name none)
    actions: Mapping[str, Any] = getattr(schema, "actions", None) or {}
    facts: Mapping[str, Any] = getattr(schema, "facts", None) or {}
    what = _gist(str(actions.get(action) or "")) or action or text
    cond = text.split(" when ", 1)[1].strip() if " when " in text else ""
    read = [n for n in dict.fromkeys(_NAME.findall(cond)) if n in facts and str(getattr(facts[n], "description", ""))]
    meaning = "; ".join(f"{n}: {_gist(facts[n].description)}" for n in read)
    out = f"{what}: forbidden by {', '.join(line.cases)}"
    out += f" when {cond}" if cond else ""
    out += f" — {meaning}" if meaning else ""
    return f"{out} [{line.source}]"
