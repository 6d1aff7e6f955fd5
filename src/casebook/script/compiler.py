"""Compile a game's rule scripts into a :class:`RuleSet` — or report every error at once.

``compile_scripts`` parses every script, checks every name against the facts declaration, every
case id against the game's case index and (when given) every table id, rejects cycles between
quantities, and compiles each statement to closures. All problems of all files are raised together
as one :class:`~casebook.core.errors.ScriptSyntaxError`; nothing is half-compiled.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from typing import Any

from casebook.content.packcache import cached_parse_script
from casebook.core.errors import Problem, ScriptSyntaxError

from . import ast as A
from .checks import check_inputs, lint_rules
from .exprs import ExprCompiler
from .facts import FactSchema, FactType
from .offers import OfferCode, compile_offer
from .parser import caret_context
from .quantities import BoundCode, PermissionCode, QuantityCode, RuleCode, TermCode
from .ruleset import RuleSet, _suggest
from .triggers import TriggerCode, compile_trigger
from .values import ANY, NUM

__all__ = ["compile_scripts", "compile_files"]


class _Builder:
    def __init__(self, sources: Sequence[tuple[str, str]], schema: FactSchema,
                 cases: Collection[str] | None, tables: Collection[str] | None,
                 world: Mapping[str, Any] | None = None) -> None:
        self.schema = schema
        #: the pack's sides and tracks, which trigger effects name (:mod:`casebook.script.triggers`)
        self.world = world
        self.cases = set(cases) if cases is not None else None
        self.lines = {file: text.split("\n") for file, text in sources}
        self.problems: list[Problem] = []
        self.statements: list[A.Statement] = []
        for file, text in sources:
            stmts, probs = cached_parse_script(text, file)  # parse_script, cached (src/casebook/content/packcache.py)
            self.statements.extend(stmts)
            self.problems.extend(self._case_hint(p) for p in probs)
        self.qtypes: dict[str, FactType] = {}
        for s in self.statements:
            if isinstance(s, A.Quantity):
                self.qtypes.setdefault(s.name, self._value_type(s, report=False))
        self.ex = ExprCompiler(schema, self.qtypes, tables, self.lines)
        self.ex.domains = (world or {}).get("domains") or {}

    def _case_hint(self, p: Problem) -> Problem:
        """A parser's ``not a case id: `6.0AB``` with the closest case of the index (``6.0A``)."""
        if not (self.cases and p.message.startswith("not a case id: ")):
            return p
        word = p.message.removeprefix("not a case id: `").rstrip("`")
        same = [c for c in self.cases if c.upper() == word.upper()]  # 5.2b: 5.2B
        head = sorted((c for c in self.cases if word.startswith(c)), key=len)[-1:]  # 6.0AB: 6.0A
        hint = f"; did you mean `{(same or head)[0]}`?" if same or head else _suggest(word, self.cases)
        return replace(p, message=p.message + " — " + hint[2:]) if hint else p

    def _value_type(self, q: A.Quantity, report: bool = True) -> FactType:
        if q.value_of is None:
            return NUM
        t = self.schema.facts.get(q.value_of)
        if t is not None and t.provider == "sequence" and t.kind != "enum":
            return ANY  # a step or phase with no sequence file at hand (a rules folder alone): unchecked
        if t is None or t.kind != "enum":
            if report:
                enums = [n for n, f in self.schema.facts.items() if f.kind == "enum"]
                self.ex.error(q.name_loc, f"`{q.value_of}` is not an enum fact; the values of a "
                              "quantity are given as `: <enum fact>`" + _suggest(q.value_of, enums))
            return ANY
        return t

    def text(self, loc: A.Loc) -> str:
        src = self.lines.get(loc.file, [])
        return src[loc.line - 1].split("#")[0].strip() if 0 < loc.line <= len(src) else ""

    def code(self, cases: tuple[A.CaseRef, ...], loc: A.Loc) -> RuleCode:
        for c in cases:
            if self.cases is not None and c.id not in self.cases:
                self.ex.error(c.loc, f"unknown case `{c.id}` (not in the game's case index)"
                              + _suggest(c.id, self.cases), len(c.id))
        return RuleCode(tuple(c.id for c in cases), loc.source(), self.text(loc))

    # -- statements ----------------------------------------------------------------------------
    def quantity(self, q: A.Quantity) -> QuantityCode:
        ex = self.ex
        ex.key = q.name
        ex.owner = ("quantity", q.name)
        vtype = self._value_type(q)
        numeric = q.value_of is None
        base = base_code = rounding = None
        terms: list[TermCode] = []
        bounds: list[BoundCode] = []
        uses: set[str] = set()

        def amount(expr: A.Expr):
            c = ex.number(expr) if numeric else ex.compile(expr, expect=vtype)
            if not numeric and c.type.kind not in ("enum", "str", "any"):
                ex.error(expr.loc, f"`{q.name}` takes values of `{q.value_of}`: one of "
                         + ", ".join(vtype.values))
            uses.update(c.uses)
            return c.fn

        def term(t: A.Term) -> TermCode:
            if t.times and q.mode != "product":
                ex.error(t.loc, f"`×` marks a multiplier, but `{q.name}` is a {q.mode}")
            cond = None
            if t.cond is not None:
                cc = ex.condition(t.cond)
                uses.update(cc.uses)
                cond = cc.fn
            return TermCode(self.code(t.cases, t.loc), cond, amount(t.amount))

        for item in q.items:
            if isinstance(item, A.Term):
                terms.append(term(item))
            elif isinstance(item, A.Group):
                if q.mode == "first" or not numeric:
                    ex.error(item.loc, "a `most severe` group needs a sum, product, min or max quantity")
                if not item.terms:
                    ex.error(item.loc, "an empty `most severe` group")
                members = tuple(term(t) for t in item.terms)
                terms.append(TermCode(self.code(item.cases, item.loc), None, None, members))
            elif isinstance(item, A.Base):
                if base is not None:
                    ex.error(item.loc, f"`{q.name}` already has a start value")
                base, base_code = amount(item.expr), self.code(item.cases, item.loc)
            elif isinstance(item, A.Rounding):
                if rounding is not None:
                    ex.error(item.loc, f"`{q.name}` already has a `round` line")
                if not numeric:
                    ex.error(item.loc, "only a number can be rounded")
                rounding = (item.mode, self.code(item.cases, item.loc))
            elif isinstance(item, A.Bound):
                if not numeric:
                    ex.error(item.loc, "only a number can be bounded")
                lo = hi = cond = None
                if item.low is not None:
                    c = ex.number(item.low)
                    lo = c.fn
                    uses.update(c.uses)
                if item.high is not None:
                    c = ex.number(item.high)
                    hi = c.fn
                    uses.update(c.uses)
                if item.cond is not None:
                    c = ex.condition(item.cond)
                    cond = c.fn
                    uses.update(c.uses)
                bounds.append(BoundCode(item.kind, self.code(item.cases, item.loc), lo, hi, cond))
        if base is None and q.mode in ("min", "max", "first") and not getattr(q, "partial", False):
            ex.error(q.name_loc, f"a `{q.mode}` quantity needs an `otherwise <value> by <case>` line",
                     len(q.name))
        self.uses[q.name] = uses
        return QuantityCode(q.name, q.mode, self.code(q.cases, q.loc), base, base_code, tuple(terms),
                            rounding, tuple(bounds))

    def _cycle(self) -> list[tuple[str, str]] | None:
        """A cycle of quantities using each other (``networkx.find_cycle``'s edges, so the message
        names the same cycle), or None. The stdlib sorter first says whether there is one: a
        pack without a cycle (every loadable one) needs no networkx."""
        try:
            TopologicalSorter({a: set(bs) for a, bs in self.uses.items()}).prepare()
            return None
        except CycleError:
            import networkx as nx

            return list(nx.find_cycle(nx.DiGraph([(a, b) for a, bs in self.uses.items() for b in bs])))

    def _track_facts(self) -> None:
        """Each ``provider: track`` fact names a track of the vocabulary and its keys' values
        (unchecked without the pack's world)."""
        tracks = (self.world or {}).get("tracks")
        if tracks is None:
            return
        for name, t in self.schema.facts.items():
            if t.provider != "track":
                continue
            line, col = t.of_at
            declared = tracks.get(t.of)
            msg = None
            if declared is None:
                msg = (f"unknown track `{t.of}` (the vocabulary's tracks: {', '.join(tracks) or 'none'})"
                       + _suggest(t.of, tracks))
            elif len(declared) != len(t.keys):
                msg = (f"track `{t.of}` is kept by {len(declared)} key(s) ({', '.join(map(str, declared)) or 'none'}); "
                       f"`keys:` gives {len(t.keys)}")
            else:
                for k, d in zip(t.keys, declared):
                    allowed = (self.world or {}).get("sides", ()) if d == "side" else d
                    if k not in allowed:
                        msg = f"track `{t.of}`: `{k}` is not a key ({', '.join(allowed)})" + _suggest(k, allowed)
            if msg:
                try:
                    text = Path(self.schema.file).read_text(encoding="utf-8").split("\n")[line - 1] if line else ""
                except OSError:
                    text = ""
                self.problems.append(Problem(self.schema.file, line, col, f"facts.{name}.of", msg,
                                             caret_context(text, col, len(t.of)) if text else ""))

    def build(self) -> RuleSet:
        quantities: dict[str, QuantityCode] = {}
        perms: dict[str, list] = {}
        self.uses: dict[str, set[str]] = {}
        self.perm_uses: dict[str, set[str]] = {}
        where: dict[str, A.Loc] = {}
        triggers: dict[str, list[TriggerCode]] = {}
        offers: list[OfferCode] = []
        self.quantity_names = {s.name for s in self.statements if isinstance(s, A.Quantity)}
        for s in self.statements:
            if isinstance(s, A.Quantity):
                if s.name in where:
                    self.ex.key = s.name
                    self.ex.error(s.name_loc, f"quantity `{s.name}` is already defined at {where[s.name]}",
                                  len(s.name))
                    self.quantity(s)  # still check it, for its own errors
                    continue
                if s.name in self.schema.facts:
                    self.ex.key = s.name
                    self.ex.error(s.name_loc, f"`{s.name}` is a fact; a quantity needs another name",
                                  len(s.name))
                where[s.name] = s.name_loc
                quantities[s.name] = self.quantity(s)
            elif isinstance(s, A.Trigger):
                triggers.setdefault(s.event, []).append(compile_trigger(self, s))
            elif isinstance(s, A.Offer):
                if any(o.action == s.action for o in offers):
                    self.ex.key = s.action
                    self.ex.error(s.action_loc, f"action `{s.action}` is offered twice", len(s.action))
                offers.append(compile_offer(self, s))
                for rule in offers[-1].rules:  # its require/forbid lines: the action's forbid lines
                    perms.setdefault(s.action, []).append(("forbid", rule.code, rule.cond))
            else:
                self.ex.key = s.action
                self.ex.owner = ("permission", s.action)
                if s.action not in self.schema.actions:
                    self.ex.error(s.action_loc, f"unknown action `{s.action}`"
                                  + _suggest(s.action, self.schema.actions), len(s.action))
                cond = None
                if s.cond is not None:
                    cc = self.ex.condition(s.cond)
                    cond = cc.fn
                    self.perm_uses.setdefault(s.action, set()).update(cc.uses)
                code = self.code(s.cases, s.loc)
                if s.over:
                    code = replace(code, over=self.code(s.over, s.loc).cases)
                perms.setdefault(s.action, []).append((s.verdict, code, cond))
        cycle = self._cycle()
        if cycle:
            names = [a for a, _ in cycle] + [cycle[0][0]]
            loc = where[names[0]]
            src = self.lines.get(loc.file, [""])
            self.problems.append(Problem(loc.file, loc.line, loc.column, names[0],
                                         "quantities depend on each other in a cycle: "
                                         + " → ".join(names),
                                         caret_context(src[loc.line - 1], loc.column)))
        owners: dict[tuple[str, str], A.Loc] = {("quantity", n): loc for n, loc in where.items()}
        for s in self.statements:
            if isinstance(s, A.Permission):
                owners.setdefault(("permission", s.action), s.action_loc)
            elif isinstance(s, A.Trigger):
                owners.setdefault(("trigger", s.event), s.event_loc)
            elif isinstance(s, A.Offer):
                owners.setdefault(("permission", s.action), s.action_loc)
        self._track_facts()
        errors, warnings = check_inputs(self.schema, self.ex.reads, self.uses, self.perm_uses, self.lines, owners)
        problems = self.problems + self.ex.problems + errors
        if problems:
            raise ScriptSyntaxError(problems)
        permissions = {a: PermissionCode(a, tuple(ls)) for a, ls in perms.items()}
        for a, p in permissions.items():
            forbid_cases = {c for v, code, _ in p.lines if v == "forbid" for c in code.cases}
            for _, code, _ in p.lines:
                for c in code.over:
                    if c not in forbid_cases:
                        file, _, line = code.source.rpartition(":")
                        problems.append(Problem(file, int(line), 1, a, f"`over {c}`: no forbid line of `{a}` "
                                                f"cites {c}" + _suggest(c, forbid_cases)))
        if problems:
            raise ScriptSyntaxError(problems)
        warnings += lint_rules(quantities, permissions, self.schema, self.lines)
        return RuleSet(quantities, permissions, self.schema, frozenset(self.ex.looked_up), tuple(warnings),
                       {e: tuple(ts) for e, ts in triggers.items()}, tuple(offers),
                       _line_reads(self.ex.reads, self.ex.field_reads, self.schema))


def _line_reads(reads: Sequence[tuple[Any, str, A.Loc]], field_reads: Sequence[tuple[Any, str, A.Loc]],
                schema: FactSchema) -> dict[str, frozenset[str]]:
    """``file:line`` -> the facts read on that line (from the checker's ``reads``), and each field
    of a collection's records it reads as ``collection.field`` (``attackers.supplied``: a fact's
    lines given per field, :class:`~casebook.script.factlines.FactLines`)."""
    out: dict[str, set[str]] = {}
    for _, fact, loc in reads:
        out.setdefault(loc.source(), set()).add(fact)
    named = {id(t): n for n, t in schema.facts.items() if t.kind == "records"}
    for record, name, loc in field_reads:
        if id(record) in named:
            out.setdefault(loc.source(), set()).add(f"{named[id(record)]}.{name}")
    return {k: frozenset(v) for k, v in out.items()}


def compile_scripts(sources: Sequence[tuple[str, str]], schema: FactSchema,
                    cases: Collection[str] | None = None,
                    tables: Collection[str] | None = None,
                    world: Mapping[str, Any] | None = None) -> RuleSet:
    """Compile scripts given as ``(file name, text)`` pairs into one :class:`RuleSet`.

    ``schema``: the game's facts declaration; ``cases``: the case index ids (``None``: unchecked);
    ``tables``: known table ids (``None``: unchecked); ``world``: ``{"sides": [...], "tracks":
    {name: keys}}`` for trigger effects (``None``: unchecked). Raises :class:`ScriptSyntaxError` carrying
    every syntax, name, type, case and cycle problem of all the files at once.
    """
    return _Builder(sources, schema, cases, tables, world).build()


def compile_files(paths: Sequence[str | Path], schema: FactSchema, cases: Collection[str] | None = None,
                  tables: Collection[str] | None = None, relative_to: str | Path | None = None,
                  world: Mapping[str, Any] | None = None) -> RuleSet:
    """Read and compile script files (names shown relative to ``relative_to`` when given)."""
    sources = []
    unreadable: list[Problem] = []
    for p in paths:
        p = Path(p)
        shown = str(p)
        if relative_to is not None:
            try:
                shown = str(p.resolve().relative_to(Path(relative_to).resolve()))
            except ValueError:
                shown = str(p)
        try:
            sources.append((shown, p.read_text(encoding="utf-8")))
        except UnicodeDecodeError as exc:  # located at the bad byte, in plain words
            raw = p.read_bytes()[:exc.start]
            line, col = raw.count(b"\n") + 1, len(raw[raw.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
            unreadable.append(Problem(shown, line, col, "", f"not UTF-8 text: byte 0x{p.read_bytes()[exc.start]:02x} "
                                      "here cannot be read (save the script as UTF-8)"))
        except OSError as exc:  # one located error, never a traceback
            unreadable.append(Problem(shown, 1, 1, "", f"cannot read the script: {exc.strerror or type(exc).__name__}"))
    if unreadable:
        raise ScriptSyntaxError(unreadable)
    return compile_scripts(sources, schema, cases, tables, world)
