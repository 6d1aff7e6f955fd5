"""The ``file:line`` of a table row or cell a number was read from (issue #15, deliverable 3).

A rule line that fired is cited as ``{"source": "combat.rules:15", "cases": [...], "text": ...}``;
a value looked up in a chart (``kind: table``) or a records table (``kind: records``) is cited
in the same shape, by :meth:`TableLines.cell` / :meth:`TableLines.row`::

    {"source": "tables/crt.yaml:24", "cases": ["10.4.5C", "11.0B"], "text": '"3:2": {-2: "F1/-", …}'}

- ``source`` is the file the value actually came from, relative to the pack folder, and the line
  of the cell's key (a chart written one row per line, as a CRT, gives the row's line; a chart
  written one cell per line, the cell's). When an errata overlay (the manifest's ``errata:``)
  set that cell or added that row, the line is the patch's line in the erratum file.
- ``cases`` are the file's own: the cell's or row's ``provenance`` (``rulebook: 7.0B``), else
  the table's (a ``reconstructed:`` provenance cites the cases of the pack's case index its text
  names), an erratum's ``case``.
- ``text`` is the line as written (surrounding blanks removed).

Lines are read once per loaded pack (:attr:`casebook.content.pack.Pack.table_lines`) and each
cited cell is kept, so asking again costs a dict lookup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Container, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from casebook.content.schema_base import CASE_ID, cited_cases
from casebook.content.yamlio import YamlDoc, read_yaml

__all__ = ["TableLines", "line_text_at", "cited_at", "reading_tables", "reads_apart", "cells_read", "cite_again", "read_line",
           "cite_tables"]

_ID_LINE = re.compile(r"""^id:\s*["']?([^"'#\s]+)""", re.M)
_CASE_IN_TEXT = re.compile(rf"(?<![\w.]){CASE_ID}(?![\w])")


class TableLines:
    """Finds and keeps the cited line of table cells, records rows (and other pack files' lines) of one loaded pack."""

    def __init__(self, pack: Any) -> None:
        self.pack = pack
        self._files: dict[str, tuple[str, YamlDoc | None]] | None = None  # table id -> (rel, doc)
        self._texts: dict[str, list[str]] = {}
        self._kept: dict[tuple[Any, ...], dict[str, Any] | None] = {}
        self._patches: dict[str, list[tuple[Path, int, Mapping[str, Any]]]] = {}
        self._docs: dict[str, YamlDoc | None] = {}

    # ------------------------------------------------------------------------------ public
    def doc(self, rel: str) -> YamlDoc | None:
        """Pack file ``rel`` as written (no errata), parsed once per loaded pack; None if unreadable."""
        if rel not in self._docs:
            self._docs[rel] = read_yaml(Path(self.pack.dir) / rel, file=rel)[0]
        return self._docs[rel]

    def cell(self, table_id: str, **coords: Any) -> dict[str, Any] | None:
        """The line of the chart ``table_id`` cell at ``coords`` (one keyword per dim); None when
        the pack has no such table or cell."""
        key = ("cell", table_id, *coords.items())
        if key not in self._kept:
            self._kept[key] = self._cell(table_id, coords)
        return self._kept[key]

    def row(self, table_id: str, row: Mapping[str, Any], field: Sequence[str] = ()) -> dict[str, Any] | None:
        """The line of ``row`` (a row of the records table ``table_id``, as the pack holds it);
        None when it is not one of its rows. With ``field`` (the keys down to the one value read,
        e.g. ``(side, "ip")``) the cases are those of the provenance nearest that value: of the
        mapping under ``row`` holding it (a side's ``{provenance: "rulebook: <case>", …}`` of one
        turn of a Turn Track), else the row's, else the table's."""
        rows = self.pack.records.get(table_id) or []
        index = next((i for i, r in enumerate(rows) if r is row), None)
        if index is None:
            index = next((i for i, r in enumerate(rows) if r == row), None)
        if index is None:
            return None
        key = ("row", table_id, index, *field)
        if key not in self._kept:
            self._kept[key] = self._row(table_id, index, rows[index], tuple(field))
        return self._kept[key]

    # ------------------------------------------------------------------------------ lookups
    def _cell(self, table_id: str, coords: Mapping[str, Any]) -> dict[str, Any] | None:
        table = self.pack.tables.get(table_id)
        if table is None:
            return None
        try:
            values = [coords[name] for name, _ in table.dims]
        except KeyError:
            return None
        path = ("cells", *values)
        patched = self._patch(table_id, path)
        if patched is not None:
            return patched
        rel, doc = self._source(table_id)
        if doc is None:
            return None
        line, _ = doc.where(path)
        node: Any = doc.data.get("cells") if isinstance(doc.data, dict) else None
        for v in values:
            node = node.get(v) if isinstance(node, dict) else None
        own = node.get("provenance") if isinstance(node, dict) else None
        heads = [doc.where(path[:k])[0] for k in range(2, len(path))]  # rows written on lines above
        return self.line(rel, line, self._cases(own if isinstance(own, str) else table.provenance),
                           [h for h in dict.fromkeys(heads) if h != line])

    def _row(self, table_id: str, index: int, row: Mapping[str, Any], field: tuple[str, ...] = ()) -> dict[str, Any] | None:
        rel, doc = self._source(table_id)
        if doc is None:
            return None
        rows = doc.data.get("rows") if isinstance(doc.data, dict) else None
        original = rows if isinstance(rows, list) else []
        for epath, i, patch in self._errata(rel):  # a row an erratum added or changed
            if self._patched_row(patch, row):
                return self._erratum(epath, i, patch)
        at = next((j for j, r in enumerate(original) if r == row), None)
        if at is None:
            return None
        line, _ = doc.where(("rows", at))
        own, node = row.get("provenance"), row  # type: Any, Any
        for key in field:  # the provenance nearest the value read (its own, when a mapping)
            node = node.get(key) if isinstance(node, Mapping) else None
            own = node.get("provenance") if isinstance(node, Mapping) and isinstance(node.get("provenance"), str) else own
        prov = own if isinstance(own, str) else (doc.data.get("provenance") if isinstance(doc.data, dict) else None)
        return self.line(rel, line, self._cases(prov))

    @staticmethod
    def _patched_row(patch: Mapping[str, Any], row: Mapping[str, Any]) -> bool:
        path = list(patch.get("path") or [])
        if "add" in patch and path == ["rows"]:
            return isinstance(patch["add"], dict) and all(row.get(k) == v for k, v in patch["add"].items())
        if "set" in patch and len(path) >= 2 and path[0] == "rows" and isinstance(path[1], dict):
            return all(row.get(k) == v for k, v in path[1].items())
        return False

    def _patch(self, table_id: str, path: tuple[Any, ...]) -> dict[str, Any] | None:
        """The last erratum that set the cell at ``path`` (or a part of it, or all of it)."""
        rel, _ = self._source(table_id)
        for epath, i, patch in self._errata(rel):
            if "set" not in patch:
                continue
            ppath = tuple(patch.get("path") or ())
            n = min(len(ppath), len(path))
            if ppath[:n] == path[:n] and n >= 2:
                return self._erratum(epath, i, patch)
        return None

    def _targets(self, patch: Mapping[str, Any], rel: str) -> bool:
        return bool(rel) and Path(str(patch.get("file", ""))).as_posix().lstrip("./") == rel

    def _erratum(self, epath: Path, index: int, patch: Mapping[str, Any]) -> dict[str, Any] | None:
        rel = self._rel(epath)
        doc, _ = read_yaml(epath, file=rel)
        if doc is None:
            return None
        op = next((k for k in ("set", "add", "remove") if k in patch), None)
        line, _ = doc.where(("patches", index, op) if op else ("patches", index))
        case = patch.get("case")
        return self.line(rel, line, [str(case)] if case else self._cases(doc.data.get("provenance")))

    # ------------------------------------------------------------------------------ files
    def _rel(self, path: Path) -> str:
        try:
            return Path(path).resolve().relative_to(Path(self.pack.dir).resolve()).as_posix()
        except ValueError:
            return Path(path).name

    def _source(self, table_id: str) -> tuple[str, YamlDoc | None]:
        """The file (relative to the pack folder) the manifest lists for ``table_id``, parsed
        (only that file: the others' ``id:`` lines are matched in their text)."""
        if self._files is None:
            self._files = {}
            for rel in self.pack.manifest.get("tables") or []:
                path = Path(self.pack.dir) / str(rel)
                try:
                    found = _ID_LINE.search(path.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError):
                    continue
                if found:
                    self._files.setdefault(found.group(1), (self._rel(path), None))
        rel, doc = self._files.get(table_id, ("", None))
        if rel and doc is None:
            doc, _ = read_yaml(Path(self.pack.dir) / rel, file=rel)
            if doc is None or not isinstance(doc.data, dict) or str(doc.data.get("id")) != table_id:
                return "", None
            self._files[table_id] = (rel, doc)
        return rel, doc

    def _errata(self, rel: str) -> list[tuple[Path, int, Mapping[str, Any]]]:
        """The errata patches of the pack that target the file ``rel``, last first (kept)."""
        if rel not in self._patches:
            self._patches[rel] = [e for e in reversed(self.pack.errata) if self._targets(e[2], rel)]
        return self._patches[rel]

    def line(self, rel: str, line: int, cases: list[str], heads: Sequence[int] = ()) -> dict[str, Any]:
        """``{"source": "REL:LINE", "cases": cases, "text": the line as written}`` (each file read once
        per pack); ``heads``: lines of the enclosing keys, put before the text (``"infantry": "dry":
        "locking"`` for a chart written one cell a line)."""
        if rel not in self._texts:
            try:
                self._texts[rel] = (Path(self.pack.dir) / rel).read_text(encoding="utf-8").split("\n")
            except (OSError, UnicodeDecodeError):
                self._texts[rel] = []
        lines = self._texts[rel]
        text = " ".join(lines[n - 1].strip() for n in [*heads, line] if 0 < n <= len(lines))
        return {"source": f"{rel}:{line}", "cases": cases, "text": text}

    def _cases(self, provenance: Any) -> list[str]:
        """The cases a provenance cites; for a ``reconstructed:`` one, the case ids of the
        pack's case index its text names."""
        if not isinstance(provenance, str):
            return []
        found = cited_cases(provenance)
        if found:
            return found
        return list(dict.fromkeys(m.group(0) for m in _CASE_IN_TEXT.finditer(provenance)
                                  if m.group(0) in self.pack.cases))


def line_text_at(pack_dir: Path, rel: str, line: int) -> str:
    """The text a table line ``rel:line`` (relative to ``pack_dir``) is cited with: the line as
    written, after the lines of its enclosing keys when it is a cell of a chart written one cell
    a line (what ``casebook explain`` prints for a trace event's table line)."""
    path = Path(pack_dir) / rel
    doc, _ = read_yaml(path, file=rel)
    heads: list[int] = []
    if doc is not None:
        found = [p for p, (n, _) in doc.positions.items() if n == line and p[:1] == ("cells",)]
        if found:
            deepest = max(found, key=len)
            heads = [doc.where(deepest[:k])[0] for k in range(2, len(deepest))]
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return ""
    return " ".join(lines[n - 1].strip() for n in [*dict.fromkeys(h for h in heads if h != line), line]
                    if 0 < n <= len(lines))


def cited_at(pack_dir: Path, rel: str, line: int, known: Container[str] = (),
             recorded: Collection[str] = ()) -> list[str] | None:
    """The cases the pack file ``rel`` (relative to ``pack_dir``) cites at ``line`` now, as
    :class:`TableLines` cites a line — a chart cell's (its ``dims`` deep) or records row's own
    ``provenance``, else the file's (a ``reconstructed:`` one: the ids of it in ``known``, the
    pack's case index); an erratum's ``case``; a scenario's victory condition's ``case`` — or None
    when no cell, row, erratum or condition is written at that line (a comment, a blank, a row head
    whose cells follow, a header key). What ``casebook explain`` compares with the cases a trace
    recorded for the line (``cmd_explain.changed_line``). Several cells written on one line (a
    row of a chart in one flow mapping: a TEC row's Dry cell cites 9.2A, its Mud cell 4.3E) and a
    row read for one field (the provenance nearest it, :meth:`TableLines.row`'s ``field``) cite
    different cases at one line: when ``recorded`` is what one of them cites, those are returned."""
    doc, _ = read_yaml(Path(pack_dir) / rel, file=rel)
    data = doc.data if doc is not None else None
    if doc is None or not isinstance(data, dict):
        return None
    depth = 1 + len(data.get("dims") or ()) if isinstance(data.get("dims"), list) else 2

    def entry(p: tuple[Any, ...]) -> tuple[Any, ...] | None:  # the cell, row, patch or condition at p
        if p[:2] == ("scenario", "victory"):
            return p[:4] if len(p) >= 4 and isinstance(p[3], int) else None
        if p[:1] == ("cells",):
            return p[:depth] if len(p) >= depth else None
        return p[:2] if len(p) >= 2 and p[0] in ("rows", "patches") and isinstance(p[1], int) else None

    at = [e for p, (n, _) in doc.positions.items() if n == line and (e := entry(p)) is not None]
    if not at:
        return None

    def cases(prov: str) -> list[str]:
        return cited_cases(prov) or list(dict.fromkeys(m.group(0) for m in _CASE_IN_TEXT.finditer(prov) if m.group(0) in known))

    def cited(entry: tuple[Any, ...]) -> list[list[str]]:  # what the entry cites; then its fields' provenances
        here: Any = data
        for key in entry:
            here = here.get(key) if isinstance(here, dict) else here[key] if isinstance(here, list) else None
        if isinstance(here, dict) and isinstance(here.get("case"), str) and entry[0] != "cells":
            return [[here["case"]]]
        own = here.get("provenance") if isinstance(here, dict) else None
        prov = own if isinstance(own, str) else data.get("provenance")
        nested = [v for k, v in _walk(here) if k == "provenance" and isinstance(v, str)] if entry[0] == "rows" else []
        return [cases(prov) if isinstance(prov, str) else [], *map(cases, nested)]

    # a line of several cells (a chart row written on one line) or a row read for one field: the
    # cases recorded, when one of them cites those; else the deepest entry's own
    found = [c for e in sorted(dict.fromkeys(at), key=len, reverse=True) for c in cited(e)]
    return next((c for c in found if recorded and set(c) == set(recorded)), found[0])


def _walk(node: Any) -> Iterator[tuple[Any, Any]]:
    """Every ``(key, value)`` of the mappings nested in ``node`` (itself not included)."""
    for value in node.values() if isinstance(node, dict) else ():
        if isinstance(value, dict):
            yield from value.items()
            yield from _walk(value)


@contextmanager
def reading_tables() -> Iterator[list[tuple[str, tuple[tuple[str, Any], ...]]]]:
    """Collect every chart cell read (:meth:`casebook.content.pack.Table.lookup`, a rule
    script's ``lookup``/``table`` term included) while the block runs, as ``(table id,
    coordinates)``, and every records row a ``table T[…].field`` term selected, as ``(table id,
    row, "file.rules:line")``; nested blocks share the outer list. One process-wide collector: ``ask``
    answers one question at a time; a block :func:`reads_apart` (``Ctx.apart``, ``Ctx.kept``)
    keeps its reads out of it."""
    from casebook.content.pack import Table
    from casebook.script.tablerows import ROW_READS

    if Table.reads is not None:
        yield Table.reads
        return
    reads: list[tuple[str, tuple[tuple[str, Any], ...]]] = []
    Table.reads = reads
    ROW_READS[0] = reads  # type: ignore[assignment]  # a records row selected: (table id, row)
    try:
        yield reads
    finally:
        Table.reads = ROW_READS[0] = None


@contextmanager
def reads_apart() -> Iterator[list[tuple[Any, ...]] | None]:
    """Run the block with the chart cells and records rows it reads kept out of the running
    :func:`reading_tables` collector and gathered in a list of their own, yielded (None when no
    collector runs: nothing is gathered). The rules of rule lines (docs/rule-language.md, "Which
    lines an event names"): ``Ctx.apart`` drops that list (a board-wide search's cells are no
    answer's); ``Ctx.kept`` keeps it beside the value and gives it back at every read
    (:func:`cite_again`), so a cold or a warm cache cites the same cells."""
    from casebook.content.pack import Table
    from casebook.script.tablerows import ROW_READS

    outer = Table.reads
    if outer is None:
        yield None
        return
    rows = ROW_READS[0]
    mine: list[tuple[Any, ...]] = []
    Table.reads = mine
    if rows is outer:  # the collector's own list (an evaluation's nested rows list stays)
        ROW_READS[0] = mine
    try:
        yield mine
    finally:
        Table.reads = outer
        if rows is outer:
            ROW_READS[0] = rows


@contextmanager
def cells_read(collect: bool = False) -> Iterator[list[tuple[Any, ...]] | None]:
    """Run the block with the chart cells and records rows it reads gathered in a list of their
    own, yielded, as :func:`reads_apart` (kept out of a running :func:`reading_tables`
    collector; give them back with :func:`cite_again` if they decided the answer). With no
    collector running: with ``collect`` (an event collects its lines: play, where no ``ask``
    collects cells) a collector of the block's own is started, else nothing is gathered (None)."""
    from casebook.content.pack import Table

    if collect and Table.reads is None:
        with reading_tables() as reads:
            yield reads
        return
    with reads_apart() as reads:
        yield reads


def read_line(pack: Any, read: tuple[Any, ...]) -> dict[str, Any] | None:
    """The line (:class:`TableLines`) of one read a collector gathered: ``(table id,
    coordinates)`` a chart cell, ``(table id, row, …)`` a records row; None when not found."""
    table, at = read[0], read[1]
    return pack.table_lines.row(table, at) if isinstance(at, Mapping) else pack.table_lines.cell(table, **dict(at))


def cite_again(reads: Sequence[tuple[Any, ...]] | None) -> None:
    """Give the running :func:`reading_tables` collector the cells and rows a kept value read
    when it was made (:func:`reads_apart`)."""
    from casebook.content.pack import Table

    if reads and Table.reads is not None:
        Table.reads.extend(reads)


def cite_tables(pack: Any, answer: dict[str, Any], reads: list[tuple[str, tuple[tuple[str, Any], ...]]],
                deciding: Callable[[Any, list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
    """Append to ``answer["lines"]`` (after its rule lines) the table lines it names in
    ``table_lines`` (an area's, removed) and those of the cells ``reads`` (:func:`reading_tables`)
    of a table a deciding rule line looks up (its text holds ``lookup T(`` or ``table T[``), or
    that ``deciding`` (``casebook.tools.cmd_ask.deciding_lines``) keeps: citing a case the answer cites."""
    said = [ln.get("text", "") for ln in answer.get("lines", ())]
    named = {t for t, *_ in reads if any(f"lookup {t}(" in x or f"table {t}[" in x for x in said)}
    once = {(t, id(c) if isinstance(c, Mapping) else c): (t, c) for t, c, *_ in reads}.values()
    read = [(t, read_line(pack, (t, c))) for t, c in once]
    found = [*answer.pop("table_lines", ()), *[ln for t, ln in read if ln is not None and t in named],
             *deciding(answer, [ln for t, ln in read if ln is not None and t not in named])]
    rows = list({ln["source"]: ln for ln in found if ln not in answer.get("lines", ())}.values())
    if rows:
        answer["lines"] = [*answer.get("lines", ()), *rows]

