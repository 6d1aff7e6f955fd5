"""The cases and lines of an ``ask`` answer agree (issue #15): which of the lines that fired
decided an answer (:func:`deciding_lines`) and the cases they add to it (:func:`cite_lines`),
one step shared by every question (:func:`casebook.tools.cmd_ask.answer_ctx`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["deciding_lines", "cite_lines"]


def _cited(value: Any, out: set[str], depth: int = 0) -> set[str]:
    """Every case id ``value`` (an answer) cites under a ``cases``/``case`` key, at any depth."""
    if depth > 12:
        return out
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("cases", "case") and isinstance(item, (list, tuple, str)):
                out.update([item] if isinstance(item, str) else [c for c in item if isinstance(c, str)])
            elif key != "lines":
                _cited(item, out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _cited(item, out, depth + 1)
    return out


def deciding_lines(answer: Mapping[str, Any], lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines of ``lines`` (every rule-script line that fired while ``answer`` was computed)
    that decided it: those citing a case the answer cites (an attack answer cites its DRM, odds
    and CRT cases, not the ZOC or airdrop-supply lines its searches also fired), and the lines
    that computed a fact one of those read (:func:`casebook.script.factlines.kept_lines`). An
    answer that cites no case keeps every line. An answer that refuses (``"legal": false`` and
    ``"refused": {"cases"}``: ``ask move``'s) is decided by its refusal: the lines of the refusal's
    cases, as ``why`` and play's refusal name them (rule 12) — not the MA's of a path refused for
    a hex not adjacent (9.0A)."""
    from casebook.script.factlines import kept_lines

    refused = answer.get("refused")
    if answer.get("legal") is False and isinstance(refused, Mapping) and refused.get("cases"):
        return kept_lines(lines, refused["cases"])
    cited = _cited(answer, set())
    if not cited:
        return kept_lines(lines, {c for ln in lines for c in ln.get("cases") or ()})
    return kept_lines(lines, cited)  # and the lines of a fact a kept line read (its "via")


def cite_lines(answer: dict[str, Any]) -> None:
    """Add to ``answer["cases"]`` (a list of case ids, made if absent) each case a line of
    ``answer["lines"]`` cites that its top-level ``cases`` (the ``cases:`` a text answer shows)
    lack: an answer's cases include the case of every line it lists (a table cell or fact line that decided a number
    cites its case; README, "lines:" of every answer). Shared by every question's answer."""
    cited = set(answer.get("cases") or ())
    extra = [c for ln in answer.get("lines") or () for c in ln.get("cases") or () if c not in cited]
    if extra:
        answer["cases"] = [*(answer.get("cases") or ()), *dict.fromkeys(extra)]
