"""The usage lines of the shared areas' ``ask`` questions, quoting the loaded game's own cases.

A shared area states each question it answers in its module constant ``QUESTIONS`` (question ->
usage line); a line holding ``{cases}`` is completed from the game's rule scripts: the cases its
lines of the quantities and permissions the module's ``HELP_RULES`` names for that question cite
(e.g. Moscow '41's 10.x for ``attack``, Battle for Moscow's BM8.x, Kestrel Pass's KP8.x), so the help
of one game never quotes another's case ranges. An option of the usage line that only some games
have is named in the module's ``HELP_OPTIONS`` (question -> {option text: quantity or permission}):
it is left out for a game whose scripts define no such rule (no ``--support`` without ``ip_cost``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["rule_cases", "usage_line", "module_questions"]


def _case_key(case: str) -> tuple[Any, ...]:
    """Rulebook order: numbers as numbers (``7.5A`` before ``10.0A``), a prefix first (``BM``)."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|\D+", case))


def rule_cases(rules: Any, names: Iterable[str]) -> list[str]:
    """The cases cited by the game's lines of the quantities and permissions ``names`` (those it
    defines), in rulebook order, without repeats. Shapes: ``rules`` a compiled
    :class:`casebook.script.compiler.RuleSet`."""
    from casebook.script.ruleset import RuleSet

    names = list(names)
    part = RuleSet({n: q for n, q in rules.quantities.items() if n in names},
                   {a: p for a, p in rules.permissions.items() if a in names}, rules.schema)
    return sorted(part.cases_cited(), key=_case_key)


def usage_line(rules: Any, usage: str, names: Iterable[str] | None,
               options: Mapping[str, str] | None = None) -> str:
    """``usage`` with ``{cases}`` replaced by the game's cases of ``names`` (:func:`rule_cases`),
    or by ``no rule lines`` when the game's scripts have none; each of ``options`` (option text ->
    rule name) left out when the game's scripts define no such quantity or permission."""
    for text, rule in (options or {}).items():
        if rule not in rules.quantities and rule not in rules.permissions:
            usage = usage.replace(" " + text, "")
    if "{cases}" not in usage:
        return usage
    cases = rule_cases(rules, names or ())
    return usage.replace("{cases}", ", ".join(cases) if cases else "no rule lines")


def module_questions(rules: Any, modules: Iterable[Any]) -> dict[str, str]:
    """question -> usage line for the plugin ``modules`` (in order: a later module's line for the
    same question replaces an earlier one), each completed by :func:`usage_line`."""
    known: dict[str, str] = {}
    for module in modules:
        helps: Mapping[str, Any] = getattr(module, "HELP_RULES", {}) or {}
        options: Mapping[str, Any] = getattr(module, "HELP_OPTIONS", {}) or {}
        for question, usage in (getattr(module, "QUESTIONS", {}) or {}).items():
            known[question] = usage_line(rules, usage, helps.get(question), options.get(question))
    return known
