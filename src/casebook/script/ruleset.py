"""The compiled rules of one game: :class:`RuleSet` (built by
:func:`casebook.script.compiler.compile_scripts`).

Its methods evaluate a quantity (``value``, ``explain``), a permission (``allowed``,
``permission``, ``require``), the triggers of an event (``fire``, ``explain_event``) and a declared
action's cost (``offer_cost``) for a mapping of facts; a fact a line reads but the caller did not
give is a :class:`~casebook.script.values.MissingFactError` naming it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from casebook.core.errors import IllegalActionError, Problem

from .explain import Explanation, forbid_reason
from .facts import FactSchema
from .offers import CostCode, OfferCode
from .quantities import PermissionCode, QuantityCode
from .triggers import TriggerCode, explain_triggers, fire
from .values import Env, MissingFactError

__all__ = ["RuleSet"]



@dataclass(frozen=True)
class RuleSet:
    """The compiled rules of one game.

    ``quantities``: name -> :class:`QuantityCode`; ``permissions``: action -> :class:`PermissionCode`;
    ``schema``: the facts declaration they were checked against. Facts are a mapping of fact name
    to value (collections: a sequence of mappings); ``tables`` maps table id -> an object with
    ``.lookup(**coords)``.
    """

    quantities: Mapping[str, QuantityCode]
    permissions: Mapping[str, PermissionCode]
    schema: FactSchema
    #: table ids some line looks up (``lookup <table>(…)``): their values are rules in data
    tables_read: frozenset[str] = frozenset()
    #: what ``casebook rules check`` warns about (lines that never fire or are always overridden,
    #: quantities whose callers' inputs are not declared): they do not stop the game
    warnings: tuple[Problem, ...] = ()
    #: event -> its triggers in script order (:mod:`casebook.script.triggers`)
    triggers: Mapping[str, tuple[TriggerCode, ...]] = field(default_factory=dict)
    #: the declared actions in script order (:mod:`casebook.script.offers`)
    offers: tuple[OfferCode, ...] = ()
    #: ``file:line`` -> the facts that line reads (:mod:`casebook.script.factlines`: a refusal
    #: borrows the lines that computed a fact its deciding line read)
    line_reads: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def offer_cost(self, cost: CostCode, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
                   standard: Mapping[str, Any] | None = None) -> Any:
        """The amount of an offer's ``cost`` line for ``facts``."""
        return _guard(lambda: cost.amount(self._env(facts, tables, standard), None), cost.track)

    def fire(self, event: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
             standard: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """The effects of the triggers of ``event`` whose condition holds for ``facts``
        (``[{"effect", "arg", "cases", "source", "text"}]``; none when the event has no trigger)."""
        found = self.triggers.get(event)
        if not found:
            return []
        return _guard(lambda: fire(found, self._env(facts, tables, standard)), event)

    def explain_event(self, event: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
                      standard: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every trigger line of ``event`` with whether it fires for ``facts`` (``[{"source",
        "cases", "text", "event", "effect", "arg", "fires"}]``; :func:`~casebook.script.triggers.explain_triggers`)."""
        found = self.triggers.get(event)
        if not found:
            return []
        return _guard(lambda: explain_triggers(found, self._env(facts, tables, standard)), event)

    def _env(self, facts: Mapping[str, Any], tables: Mapping[str, Any] | None,
             standard: Mapping[str, Any] | None = None) -> Env:
        return Env(facts, tables, self, standard)

    def quantity_at(self, source: str) -> str | None:
        """The name of the quantity one of whose lines is at ``source`` (``file:line``, as trace
        events and answers name lines, e.g. ``combat.rules:66`` -> ``loss_shift``); None when no
        quantity's line is there (a permission's, a trigger's, no line)."""
        return self._quantity_lines.get(source)

    @cached_property
    def _quantity_lines(self) -> dict[str, str]:
        return {src: name for name, q in self.quantities.items() for src in q.sources()}

    def _get(self, name: str) -> QuantityCode:
        try:
            return self.quantities[name]
        except KeyError:
            raise KeyError(f"no quantity `{name}`"
                           + _suggest(name, self.quantities)) from None

    def value(self, name: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
              standard: Mapping[str, Any] | None = None) -> Any:
        """The value of quantity ``name`` (fast; no explanation). Raises :class:`MissingFactError`.

        ``standard``: the engine's standard facts (:class:`~casebook.script.standard.StandardFacts`),
        read for a standard fact ``facts`` does not give; every method takes it."""
        q = self._get(name)
        try:
            return q.value_in(Env(facts, tables, self, standard))
        except MissingFactError:
            raise
        except KeyError as exc:
            raise _missing(name, exc) from None

    def explain(self, name: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
                standard: Mapping[str, Any] | None = None) -> Explanation:
        """The value of quantity ``name`` with every line that fired or did not, cases and sources."""
        q = self._get(name)
        return _guard(lambda: q.explain_in(self._env(facts, tables, standard)), name)

    def value_noting(self, name: str, facts: Mapping[str, Any], into: list[dict[str, Any]],
                     entry: Callable[[Any], dict[str, Any]], tables: Mapping[str, Any] | None = None,
                     standard: Mapping[str, Any] | None = None) -> Any:
        """:meth:`explain`'s value, noting into each dict of ``into`` the lines
        ``Engine.note_lines`` would take from the explanation (``QuantityCode.value_noting``)."""
        q = self._get(name)
        try:  # _guard, inlined (a hot path)
            return q.value_noting(Env(facts, tables, self, standard), into, entry)
        except MissingFactError:
            raise
        except KeyError as exc:
            raise _missing(name, exc) from None

    def allowed(self, action: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
                standard: Mapping[str, Any] | None = None) -> bool:
        """Whether ``action`` is allowed (no script line about it: allowed)."""
        p = self.permissions.get(action)
        if p is None:
            return True
        try:  # _guard, inlined (a hot path)
            return p.allowed_in(Env(facts, tables, self, standard))
        except MissingFactError:
            raise
        except KeyError as exc:
            raise _missing(action, exc) from None

    def allowed_noting(self, action: str, facts: Mapping[str, Any], into: list[dict[str, Any]],
                       entry: Callable[[Any], dict[str, Any]], tables: Mapping[str, Any] | None = None,
                       standard: Mapping[str, Any] | None = None) -> bool:
        """:meth:`allowed`, noting into each dict of ``into`` the lines :meth:`permission` would
        show as deciding (``PermissionCode.allowed_noting``)."""
        p = self.permissions.get(action)
        if p is None:
            return True
        try:  # _guard, inlined (a hot path)
            return p.allowed_noting(Env(facts, tables, self, standard), into, entry)
        except MissingFactError:
            raise
        except KeyError as exc:
            raise _missing(action, exc) from None

    def permission_unless_clear(self, action: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
                                standard: Mapping[str, Any] | None = None) -> Explanation | None:
        """:meth:`permission`, or ``None`` when no line about ``action`` fires (allowed, and the
        verdict names no line: nothing for an ask or an event to collect)."""
        p = self.permissions.get(action)
        return None if p is None else _guard(lambda: p.unless_clear_in(self._env(facts, tables, standard)), action)

    def permission(self, action: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
                   standard: Mapping[str, Any] | None = None) -> Explanation:
        """The verdict on ``action`` (``value``: allowed) with every forbid/permit line."""
        p = self.permissions.get(action) or PermissionCode(action, ())
        return _guard(lambda: p.explain_in(self._env(facts, tables, standard)), action)

    def require(self, action: str, facts: Mapping[str, Any], tables: Mapping[str, Any] | None = None,
                notation: str | None = None, standard: Mapping[str, Any] | None = None) -> Explanation:
        """Like :meth:`permission`, but raises :class:`IllegalActionError` (naming the forbidding
        cases and script lines) when the action is not allowed."""
        verdict = self.permission(action, facts, tables, standard)
        if not verdict.value:
            fired = [ln for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]
            cases = [c for ln in fired for c in ln.cases]
            raise IllegalActionError(notation or action, cases, "; ".join(self.forbid_reason(ln, action) for ln in fired))
        return verdict

    def forbid_reason(self, line: Any, action: str = "") -> str:
        """The readable reason of a refusal the forbid ``line`` decided, naming its ``file:line``
        (:func:`casebook.script.explain.forbid_reason`, with this game's facts declaration)."""
        return forbid_reason(line, self.schema, action)

    def cases_cited(self) -> tuple[str, ...]:
        """Every case id any compiled line cites, sorted, without repeats."""
        seen: set[str] = set()
        for q in self.quantities.values():
            seen.update(q.code.cases)
            if q.base_code:
                seen.update(q.base_code.cases)
            if q.rounding:
                seen.update(q.rounding[1].cases)
            for t in q.terms:
                seen.update(t.code.cases)
                for m in t.members:
                    seen.update(m.code.cases)
            for b in q.bounds:
                seen.update(b.code.cases)
        for p in self.permissions.values():
            for _, c, _ in p.lines:
                seen.update(c.cases)
        for ts in self.triggers.values():
            for trig in ts:
                seen.update(trig.code.cases)
        for offer in self.offers:
            for line in offer.all_lines():
                seen.update(line.cases)
        return tuple(sorted(seen, key=_case_key))


def _case_key(case: str) -> tuple:
    parts = []
    for chunk in case.split("."):
        digits = "".join(ch for ch in chunk if ch.isdigit())
        parts.append((int(digits) if digits else 0, chunk[len(digits):]))
    return tuple(parts)


def _guard(fn, name: str):
    try:
        return fn()
    except MissingFactError:
        raise
    except KeyError as exc:
        raise _missing(name, exc) from None


def _missing(name: str, exc: KeyError) -> MissingFactError:
    return MissingFactError(f"evaluating `{name}`: fact or field {exc} was not given")


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""
