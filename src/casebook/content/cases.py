"""The case registry: which cases a game has, which code implements them and which tests test them.

- :class:`CaseIndex` — a pack's ``cases.yaml`` (id → kind, leaf, title).
- :func:`implements` — decorator by which a plugin function declares the cases it implements;
  :func:`register_cases` — the same for rule scripts (the script compiler calls it with a source
  like ``"games/<game>/rules/weather.rules:12"``). Both fill :data:`REGISTRY`.
- :func:`scan_tests` — a *static* AST scan of a tests folder (no test is run or imported): a test
  tests the cases of its ``@pytest.mark.case("9.6C", …)`` marks (on the function, its class or the
  module's ``pytestmark``) and the case its name starts with (``test_9_6C_…``, ``test_0_7_3_6_…``).
- :func:`coverage` — per leaf case of kind rule/errata: implemented by, tested by, status.

Only exact ids count: a mark or declaration naming a section (``9.6``) does not cover its lettered
leaves (``9.6A``…); declare the leaves.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from casebook.core.errors import ContentError, Problem

__all__ = [
    "CaseInfo", "CaseIndex", "CaseRegistry", "REGISTRY", "implements", "register_cases",
    "TestScan", "scan_tests", "coverage", "CASE_ID", "COUNTED_KINDS", "STATUSES",
]

#: A case id: numbers joined by dots, optionally a capital letter and a number after it
#: (``9.6C``, ``0.2.3.3A``, ``14.4D2``); the part paragraphs carry a prefix (``P1A``).
CASE_ID = re.compile(r"^(?:[A-Z]{1,2})?\d+(?:\.\d+)*(?:[A-Z]\d*)?$")
#: Case kinds that ``casebook cases`` counts (leaf cases only).
COUNTED_KINDS = ("rule", "errata")
#: Coverage statuses: neither, implemented only, tested only, both.
STATUSES = ("missing", "implemented", "tested", "done")
_TEST_NAME = re.compile(r"^test_((?:[A-Z]{1,2})?\d+(?:_\d+)*(?:[A-Z]\d*)?)(?:_|$)")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class CaseInfo:
    """One entry of a case index."""

    id: str
    kind: str
    leaf: bool
    title: str


class CaseIndex(Mapping[str, CaseInfo]):
    """A game's case index, in rulebook order (a read-only mapping id → :class:`CaseInfo`)."""

    def __init__(self, entries: Iterable[CaseInfo]) -> None:
        self._cases: dict[str, CaseInfo] = {c.id: c for c in entries}

    @classmethod
    def from_data(cls, data: Any, *, file: str = "cases.yaml") -> CaseIndex:
        """From plain data: a ``kind: cases`` document (``{"cases": [...]}``), its list, or
        ``Pack.cases`` (id → mapping). Raises :class:`ContentError` listing every bad entry."""
        if isinstance(data, Mapping) and "cases" in data:
            data = data["cases"]
        if isinstance(data, Mapping):
            data = [{"id": k, **v} for k, v in data.items()]
        problems: list[Problem] = []
        entries: list[CaseInfo] = []
        for i, e in enumerate(data or []):
            if not isinstance(e, Mapping) or not CASE_ID.match(str(e.get("id", ""))):
                problems.append(Problem(file, 0, 0, f"cases.{i}", f"not a case entry: {e!r}"))
                continue
            entries.append(CaseInfo(str(e["id"]), str(e.get("kind", "")), bool(e.get("leaf")),
                                    str(e.get("title", ""))))
        if problems:
            raise ContentError(problems)
        return cls(entries)

    @classmethod
    def load(cls, path: str | Path) -> CaseIndex:
        """Read a ``cases.yaml`` safely (``casebook.content.yamlio``)."""
        from casebook.content.yamlio import load_yaml

        doc = load_yaml(path)
        return cls.from_data(doc.data, file=doc.file)

    @classmethod
    def for_game(cls, game: str | Path) -> CaseIndex:
        """The index of a game id (``mini``) or pack directory: the manifest's ``cases:`` file
        when a ``game.yaml`` is there, else the pack's ``cases.yaml``. ContentError if none."""
        pack = _pack_dir(game)
        path = pack / "cases.yaml"
        manifest = pack / "game.yaml"
        if manifest.is_file():
            from casebook.content.yamlio import load_yaml

            data = load_yaml(manifest).data
            if isinstance(data, Mapping) and isinstance(data.get("cases"), str):
                from casebook.content.confine import confined_path

                confined, why = confined_path(pack, data["cases"])
                if confined is None:
                    raise ContentError([Problem(str(manifest), 0, 0, "cases", why or "refused path")])
                path = confined
        if not path.is_file():
            raise ContentError([Problem(str(path), 0, 0, "", "no case index (cases.yaml) here")])
        return cls.load(path)

    def __getitem__(self, case_id: str) -> CaseInfo:
        return self._cases[case_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cases)

    def __len__(self) -> int:
        return len(self._cases)

    def leaves(self, kinds: Iterable[str] = COUNTED_KINDS) -> list[CaseInfo]:
        """The leaf cases of the given kinds, in rulebook order."""
        wanted = set(kinds)
        return [c for c in self._cases.values() if c.leaf and c.kind in wanted]


def _pack_dir(game: str | Path) -> Path:
    from casebook.content.loader import find_pack

    return find_pack(game)


@dataclass
class CaseRegistry:
    """Who implements which case: ``source`` (``module.function`` or ``file:line``) → case ids."""

    _by_source: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def register(self, source: str, cases: Iterable[str]) -> None:
        """Declare that ``source`` implements ``cases``; ``ValueError`` for a malformed case id.
        Registering a source again adds to its cases (idempotent)."""
        ids = tuple(cases)
        for c in ids:
            if not isinstance(c, str) or not CASE_ID.match(c):
                raise ValueError(f"{source}: {c!r} is not a case id (like '9.6C')")
        old = self._by_source.get(source, ())
        self._by_source[source] = old + tuple(c for c in ids if c not in old)

    def by_case(self) -> dict[str, list[str]]:
        """case id → sorted sources implementing it."""
        out: dict[str, list[str]] = {}
        for source, ids in self._by_source.items():
            for c in ids:
                out.setdefault(c, []).append(source)
        return {c: sorted(s) for c, s in out.items()}

    def sources(self) -> dict[str, tuple[str, ...]]:
        return dict(self._by_source)

    def unregister(self, source: str) -> None:
        """Forget ``source`` (tests use it to clean up)."""
        self._by_source.pop(source, None)


#: The process-wide registry filled by :func:`implements` and :func:`register_cases`.
REGISTRY = CaseRegistry()


def implements(*case_ids: str) -> Callable[[F], F]:
    """Decorator: the function implements ``case_ids``. Registers ``module.qualname`` in
    :data:`REGISTRY` and sets ``fn.__casebook_cases__``; returns the function unchanged.

    >>> @implements("9.6C")
    ... def force_march_fatigue(state, unit): ...
    """
    if not case_ids:
        raise ValueError("implements() needs at least one case id")

    def deco(fn: F) -> F:
        REGISTRY.register(f"{fn.__module__}.{fn.__qualname__}", case_ids)
        fn.__casebook_cases__ = tuple(case_ids)  # type: ignore[attr-defined]
        return fn

    return deco


def register_cases(source: str, cases: Iterable[str]) -> None:
    """Entry point for the rule-script compiler: ``source`` (``weather.rules:12`` or a rule name)
    implements ``cases``."""
    REGISTRY.register(source, cases)


# ------------------------------------------------------------------------------- test scanning
@dataclass(frozen=True)
class TestScan:
    """Result of :func:`scan_tests`: ``tested`` case → test ids (``path::[Class::]name``);
    ``unknown`` (test id, case) pairs whose case is not in the index (marks only)."""

    __test__ = False  # not a pytest class

    tested: dict[str, list[str]]
    unknown: list[tuple[str, str]]


def _mark_cases(decorators: Iterable[ast.expr]) -> list[str]:
    out: list[str] = []
    for d in decorators:
        if not isinstance(d, ast.Call) or not isinstance(d.func, ast.Attribute) or d.func.attr != "case":
            continue
        owner = d.func.value
        if not ((isinstance(owner, ast.Attribute) and owner.attr == "mark")
                or (isinstance(owner, ast.Name) and owner.id == "mark")):
            continue
        out += [a.value for a in d.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return out


def _module_marks(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                for t in node.targets):
            value = node.value
            items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
            return _mark_cases(items)
    return []


def _name_case(name: str) -> str | None:
    m = _TEST_NAME.match(name)
    return m.group(1).replace("_", ".") if m else None


def scan_tests(root: str | Path, known: Iterable[str] | None = None) -> TestScan:
    """Statically scan ``test_*.py`` files under ``root`` (recursively) for case tests.

    ``known`` — the case ids of the game; a case in a test *name* counts only if known; a case in
    a *mark* that is not known is listed in ``unknown``. Files that fail to parse are skipped
    (pytest reports them). Nothing is imported or run.
    """
    root = Path(root)
    index = set(known) if known is not None else None
    tested: dict[str, list[str]] = {}
    unknown: list[tuple[str, str]] = []
    for path in sorted(root.rglob("test_*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        rel = path.relative_to(root).as_posix()
        module_cases = _module_marks(tree)

        def visit(fn: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str, inherited: list[str]) -> None:
            if not fn.name.startswith("test"):
                return
            test_id = f"{rel}::{prefix}{fn.name}"  # noqa: B023 - called at once, inside the loop
            marks = inherited + _mark_cases(fn.decorator_list)
            cases = list(dict.fromkeys(marks))
            named = _name_case(fn.name)
            if named is not None and (index is None or named in index) and named not in cases:
                cases.append(named)
            for c in cases:
                if index is not None and c not in index:
                    unknown.append((test_id, c))
                    continue
                tested.setdefault(c, []).append(test_id)

        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node, "", module_cases)
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                inherited = module_cases + _mark_cases(node.decorator_list)
                for sub in node.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        visit(sub, f"{node.name}::", inherited)
    return TestScan(tested, unknown)


def coverage(index: CaseIndex, implemented: Mapping[str, Iterable[str]],
             tested: Mapping[str, Iterable[str]]) -> dict[str, Any]:
    """Per leaf rule/errata case of ``index``: ``{"case", "title", "implemented_by", "tested_by",
    "status"}``, plus ``summary``: ``{"total", "implemented", "tested", "done", "missing"}``
    (implemented/tested count a case with at least one implementer/test)."""
    rows = []
    for c in index.leaves():
        impl = sorted(set(implemented.get(c.id, ())))
        tests = sorted(set(tested.get(c.id, ())))
        status = STATUSES[(1 if impl else 0) + (2 if tests else 0)]
        rows.append({"case": c.id, "title": c.title, "implemented_by": impl, "tested_by": tests,
                     "status": status})
    summary = {"total": len(rows),
               "implemented": sum(1 for r in rows if r["implemented_by"]),
               "tested": sum(1 for r in rows if r["tested_by"]),
               "done": sum(1 for r in rows if r["status"] == "done"),
               "missing": sum(1 for r in rows if r["status"] == "missing")}
    return {"cases": rows, "summary": summary}
