"""Checks of compiled rule scripts beyond names and types: facts the callers never give (errors)
and lines that can never fire or are always overridden (warnings).

**Inputs.** ``facts.yaml`` declares under ``inputs:`` the facts the callers of each quantity or
permission give. A line may read those, the standard facts (``provider: engine`` / ``setting``)
and facts with a ``default:``; a line that reads anything else would fail at run time on every
call, so :func:`check_inputs` refuses it (``file:line:column``, caret, did-you-mean). A quantity
used by another is evaluated with its user's facts, so it is held to its users' inputs as well.

**Lines that cannot matter.** :func:`lint_rules` decides, for conditions that read only ``bool``
and ``enum`` facts, by trying every combination of the facts the condition actually reads
(lazily: a fact is branched on when a line first reads it; at most :data:`BUDGET` evaluations
per question, else no verdict), whether a line can ever fire, whether a ``first`` line is always
decided before it, whether a forbid is always overridden, and whether a permit can fire together
with a forbid it does not override (the forbid wins: the permit names none of its cases).
Conditions that read numbers, text, collections or other quantities are not judged.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any

from casebook.core.errors import Problem

from . import ast as A
from .facts import FactSchema
from .parser import caret_context
from .quantities import PermissionCode, QuantityCode, RuleCode
from .values import Env

__all__ = ["check_inputs", "lint_rules", "literal_problems", "satisfiable", "BUDGET", "UNKNOWN"]

#: Most evaluations one satisfiability question may take before giving no verdict.
BUDGET = 4096
#: :func:`satisfiable`'s answer when the condition reads something it cannot enumerate.
UNKNOWN = object()

Owner = tuple[str, str]  # ("quantity", name) | ("permission", action)
Cond = Callable[[Any, Any], Any]


def _problem(lines: Mapping[str, list[str]], loc: A.Loc, key: str, message: str, width: int = 1) -> Problem:
    src = lines.get(loc.file, [])
    text = src[loc.line - 1] if 0 < loc.line <= len(src) else ""
    return Problem(loc.file, loc.line, loc.column, key, message, caret_context(text, loc.column, width) if text else "")


def _suggest(word: str, choices: Collection[str]) -> str:
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


def check_inputs(schema: FactSchema, reads: Sequence[tuple[Owner, str, A.Loc]], uses: Mapping[str, set[str]],
                 perm_uses: Mapping[str, set[str]], lines: Mapping[str, list[str]],
                 where: Mapping[Owner, A.Loc]) -> tuple[list[Problem], list[Problem]]:
    """``(errors, warnings)``: every fact read (``reads``: owner, fact, where) that the owner's
    callers never give, directly or through a quantity it uses (``uses``: quantity -> quantities
    its lines name; ``perm_uses``: action -> quantities); and a warning per quantity or
    permission whose inputs are not declared, and per ``inputs:`` entry naming neither."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    by_owner: dict[Owner, list[tuple[str, A.Loc]]] = {}
    for owner, fact, loc in reads:
        by_owner.setdefault(owner, []).append((fact, loc))
    from .triggers import EVENTS  # an event's inputs are the engine's, a line or not

    names = {n for _, n in where} | set(EVENTS)
    for name, (line, col) in schema.inputs_at.items():
        if name not in names:
            warnings.append(Problem(schema.file, line, col, f"inputs.{name}", "no quantity or permission "
                                    f"`{name}` in the scripts" + _suggest(name, names)))
    seen: set[tuple[str, int, int, str]] = set()
    for owner, loc in where.items():
        kind, name = owner
        given = schema.given(name)
        if given is None:
            warnings.append(_problem(lines, loc, name, f"the facts the callers of {kind} `{name}` give are not "
                                     "declared (facts.yaml `inputs:`): what its lines read is not checked"))
            continue
        todo = list(uses.get(name, ()) if kind == "quantity" else perm_uses.get(name, ()))
        reach: list[Owner] = [owner]
        while todo:
            q = todo.pop()
            if ("quantity", q) not in reach:
                reach.append(("quantity", q))
                todo.extend(uses.get(q, ()))
        for o in reach:
            for fact, at in by_owner.get(o, ()):
                key = (at.file, at.line, at.column, name)
                if fact in given or key in seen:
                    continue
                seen.add(key)
                via = "" if o == owner else f" (through quantity `{o[1]}`)"
                errors.append(_problem(lines, at, o[1], f"`{fact}` is never given to {kind} `{name}`{via}: its "
                                       f"callers give {', '.join(sorted(schema.inputs[name])) or 'no facts'} "
                                       "and the standard facts (facts.yaml `inputs:`)"
                                       + _suggest(fact, given), len(fact)))
    return errors, warnings


def literal_problems(left: A.Expr, rights: Sequence[A.Expr],
                     domains: Mapping[str, Collection[str]]) -> list[tuple[A.Loc, str]]:
    """A quoted value compared with a fact or function whose values the pack knows (``domains``:
    ``scenario_id`` -> the manifest's scenarios, ``town_name`` -> the map's towns) that is none of
    them: ``(where, message)`` each, with a did-you-mean."""
    key = left.id if isinstance(left, A.Name) else left.fn if isinstance(left, A.Call) else None
    known = domains.get(key) if key is not None else None
    if known is None:
        return []
    shown = "`" + str(key) + ("(…)`" if isinstance(left, A.Call) else "`")
    values = sorted(f'"{v}"' for v in known if v)
    listed = ", ".join(values) if len(values) <= 8 else f"{len(values)} values"
    return [(r.loc, f"\"{r.value}\" is not a value {shown} takes (the pack's: {listed})"
             + _suggest(r.value, known))
            for r in rights if isinstance(r, A.Str) and r.value not in known]


class _Branch(Exception):
    def __init__(self, name: str) -> None:
        self.name = name


class _Unknown(Exception):
    pass


class _Probe(Mapping[str, Any]):
    """Facts of one partial assignment: an unassigned ``bool``/``enum`` fact asks for a branch."""

    def __init__(self, assign: Mapping[str, Any], schema: FactSchema) -> None:
        self.assign = assign
        self.schema = schema

    def __getitem__(self, name: str) -> Any:
        if name in self.assign:
            return self.assign[name]
        t = self.schema.facts.get(name)
        if t is not None and t.kind in ("bool", "enum"):
            raise _Branch(name)
        raise _Unknown(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self.assign)

    def __len__(self) -> int:
        return len(self.assign)


def satisfiable(test: Callable[[Env], bool], schema: FactSchema) -> dict[str, Any] | None | object:
    """An assignment of the facts ``test`` reads that makes it true, ``None`` if there is none,
    or :data:`UNKNOWN` (it reads a number, text, collection or quantity, or the budget ran out)."""
    budget = [BUDGET]

    def domain(name: str) -> tuple[Any, ...]:
        t = schema.facts[name]
        return (False, True) if t.kind == "bool" else t.values

    def search(assign: dict[str, Any]) -> dict[str, Any] | None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Unknown("budget")
        try:
            return assign if test(Env(_Probe(assign, schema), None, None)) else None
        except _Branch as b:
            for v in domain(b.name):
                found = search({**assign, b.name: v})
                if found is not None:
                    return found
            return None

    try:
        return search({})
    except (_Unknown, AttributeError, TypeError, KeyError):
        return UNKNOWN


def _fires(cond: Cond | None) -> Callable[[Env], bool]:
    return (lambda env: True) if cond is None else (lambda env: bool(cond(env, None)))


def _example(found: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in found.items()) or "always"


def lint_rules(quantities: Mapping[str, QuantityCode], permissions: Mapping[str, PermissionCode],
               schema: FactSchema, lines: Mapping[str, list[str]]) -> list[Problem]:
    """Warnings for lines that never fire, are always decided or overridden by others, and permits
    that can fire with a forbid they do not override (each at the line's first character)."""
    out: list[Problem] = []

    def warn(code: RuleCode, key: str, message: str) -> None:
        file, _, line = code.source.rpartition(":")
        n = int(line or 0)
        src = lines.get(file, [])
        text = src[n - 1] if 0 < n <= len(src) else ""
        out.append(_problem(lines, A.Loc(file, n, len(text) - len(text.lstrip()) + 1), key, message))

    for name, q in quantities.items():
        earlier: list[Callable[[Env], bool]] = []
        for t in q.terms:
            members = t.members or (t,)
            for m in members:
                if m.cond is None:
                    continue
                if satisfiable(_fires(m.cond), schema) is None:
                    warn(m.code, name, "this line never fires: no situation satisfies its condition")
            if q.mode == "first" and not t.members:
                mine = _fires(t.cond)
                before = tuple(earlier)
                def decides_first(e: Any, mine: Any = mine, before: Any = before) -> bool:
                    return bool(mine(e)) and not any(b(e) for b in before)

                if before and satisfiable(decides_first, schema) is None:
                    warn(t.code, name, "this line never decides: an earlier line of this `first` quantity "
                                       "always fires first")
                earlier.append(mine)
        for b in q.bounds:
            if b.cond is not None and satisfiable(_fires(b.cond), schema) is None:
                warn(b.code, name, "this bound never applies: no situation satisfies its condition")
    for action, p in permissions.items():
        conds = [_fires(c) for _, _, c in p.lines]
        for i, (verdict, code, cond) in enumerate(p.lines):
            if cond is not None and satisfiable(conds[i], schema) is None:
                warn(code, action, f"this {verdict} line never fires: no situation satisfies its condition")
                continue
            if verdict != "forbid":
                continue
            by = tuple(conds[j] for j in p.overridden_by[i])
            alone = (lambda e, f=conds[i], by=by: f(e) and not any(g(e) for g in by))
            if by and satisfiable(alone, schema) is None:
                warn(code, action, "this forbid never takes effect: whenever it fires, a permit overriding it "
                     "fires too (" + ", ".join(p.lines[j][1].source for j in p.overridden_by[i]) + ")")
            for j, (v, pcode, _) in enumerate(p.lines):
                if v != "permit" or j in p.overridden_by[i]:
                    continue
                def fire_together(e: Any, i: int = i, j: int = j, conds: Any = conds) -> bool:
                    return bool(conds[i](e) and conds[j](e))

                both = satisfiable(fire_together, schema)
                if isinstance(both, dict):
                    warn(pcode, action, f"this permit and the forbid at {code.source} can both fire "
                         f"({_example(both)}): the forbid wins, as the permit names none of its cases "
                         f"({', '.join(code.cases)}); write `over {code.cases[0]}` to make it an exception")
    return out
