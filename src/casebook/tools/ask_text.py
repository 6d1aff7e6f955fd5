"""The readable text form of an ``ask`` answer (``casebook ask`` without ``--json``, and ``ask``
at the play prompt): short lines, never raw YAML.

- a scalar is ``key: value`` (``yes``/``no``, ``—`` for none);
- a list of scalars is one line (a long list is cut with its count); a ``path`` is joined by ``→``
  and a long one shown by both ends, as is each path of a list of them (``paths``: a retreat's);
- a mapping of scalars (``hexes: {hex: MP}``) is one line of ``key value`` pairs; a long one of
  hexes and MP spent (``reach``'s ``hexes`` and ``pass_only``) is given in full, one line per MP
  amount, the most first (the farthest a stack reaches: session 19's user saw 16 rear hexes by id);
- a list of mappings is a table (a header and one aligned row per item), except DRM and script
  terms (``case``, ``value``, ``source``), one per line with the case's title and the rule-script
  condition that gave it (:func:`casebook.tools.account.term_words`);
- a nested mapping is a heading and its lines indented;
- the answer's ``cases`` come last, on one line, then its ``lines``: each rule-script or table
  line that fired, as ``file:line  cases  text``.

The words come from the loaded game (:func:`render_answer` takes the engine); the JSON form
(``--json``) is the answer itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from casebook.tools.account import term_words

__all__ = ["render_answer", "line_words", "LONG"]

#: Items shown of a long list or mapping before "… (N in all)".
LONG = 16
_PAD = "  "
#: keys whose lists are paths of hexes (joined by →, long ones shown by both ends)
_PATHS = frozenset({"path", "route_path", "line", "hexes_path"})
#: keys whose lists are lists of paths (one path a line, each as a ``path``)
_PATH_LISTS = frozenset({"paths"})
#: keys whose mappings are hex -> MP spent (``reach``): a long one in full, grouped by MP, most first
_BY_AMOUNT = frozenset({"hexes", "pass_only"})


def _is_amount(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _scalar(v: Any) -> str:
    if v is None:
        return "—"
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _cut(items: list[str], total: int) -> str:
    return "" if total <= len(items) else f" … ({total} in all)"


def _is_term(item: Any) -> bool:
    return isinstance(item, Mapping) and "case" in item and "value" in item and set(item) <= {
        "case", "value", "source", "text", "cases", "from"}


def _are_lines(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(v, Mapping) and "source" in v and "text" in v for v in value)


def line_words(lines: Sequence[Mapping[str, Any]], pad: str = "") -> list[str]:
    """The script lines of an answer or refusal, one a line: ``file:line  cases  text``."""
    width = max(len(str(ln["source"])) for ln in lines) if lines else 0
    return [f"{pad}{str(ln['source']).ljust(width)}  {', '.join(map(str, ln.get('cases', ())))}  {ln['text']}"
            for ln in lines]


def _path_words(value: Any) -> str:
    """A path of hexes as a player reads it: ``0101 → 0102`` (a long one by both ends)."""
    items = [_scalar(v) for v in value]
    if len(items) > LONG:  # both ends of a long path: where it starts and where it arrives
        items = items[:LONG - 4] + ["…"] + items[-3:]
    count = f" ({len(value)} hexes)" if len(value) > LONG else ""
    return f"{' → '.join(items) or '—'}{count}"


class _Writer:
    def __init__(self, titles: Mapping[str, str], rules_dir: Path | None) -> None:
        self.titles = titles
        self.rules_dir = rules_dir
        self.out: list[str] = []

    def mapping(self, data: Mapping[str, Any], depth: int) -> None:
        for key, value in data.items():
            if key == "cases" and depth == 0:
                continue
            if key == "lines" and depth == 0 and _are_lines(value):
                continue
            self.item(str(key), value, depth)
        if depth == 0 and data.get("cases"):
            self.out.append(f"cases: {', '.join(map(str, data['cases']))}")
        if depth == 0 and _are_lines(data.get("lines")):
            self.out.append("lines:")
            self.out.extend(line_words(data["lines"], _PAD))

    def item(self, key: str, value: Any, depth: int) -> None:
        pad = _PAD * depth
        if _is_scalar(value):
            self.out.append(f"{pad}{key}: {_scalar(value)}")
        elif key in _BY_AMOUNT and len(value) > LONG and all(_is_amount(v) for v in value.values()):
            self.out.append(f"{pad}{key}: {len(value)} in all, by MP spent (the farthest first):")
            for amount in sorted(set(value.values()), reverse=True):  # every hex, one line per amount
                self.out.append(f"{pad}{_PAD}{amount}: {', '.join(str(k) for k, v in value.items() if v == amount)}")
        elif isinstance(value, Mapping) and all(_is_scalar(v) for v in value.values()):
            pairs = [f"{k} {_scalar(v)}" for k, v in list(value.items())[:LONG]]
            self.out.append(f"{pad}{key}: {', '.join(pairs) or '—'}{_cut(pairs, len(value))}")
        elif isinstance(value, Mapping):
            self.out.append(f"{pad}{key}:")
            self.mapping(value, depth + 1)
        elif isinstance(value, (list, tuple)) and all(_is_scalar(v) for v in value) and key in _PATHS:
            self.out.append(f"{pad}{key}: {_path_words(value)}")
        elif (isinstance(value, (list, tuple)) and value and key in _PATH_LISTS
              and all(isinstance(v, (list, tuple)) and all(_is_scalar(x) for x in v) for v in value)):
            self.out.append(f"{pad}{key}:")
            self.out.extend(f"{pad}{_PAD}{_path_words(v)}" for v in value[:LONG])
            if len(value) > LONG:
                self.out.append(f"{pad}{_PAD}… ({len(value)} in all)")
        elif isinstance(value, (list, tuple)) and all(_is_scalar(v) for v in value):
            shown = [_scalar(v) for v in value[:LONG]]
            self.out.append(f"{pad}{key}: {', '.join(shown) or '—'}{_cut(shown, len(value))}")
        elif isinstance(value, (list, tuple)) and all(_is_term(v) for v in value):
            self.out.append(f"{pad}{key}:")
            for term in value:
                self.out.append(f"{pad}{_PAD}{term_words(term, self.titles, self.rules_dir)}")
        elif isinstance(value, (list, tuple)) and all(isinstance(v, Mapping) for v in value):
            self.table(key, list(value), depth)
        else:
            self.out.append(f"{pad}{key}:")
            for v in value:
                if isinstance(v, Mapping):
                    self.mapping(v, depth + 1)
                else:
                    self.out.append(f"{pad}{_PAD}{_scalar(v)}")

    def table(self, key: str, rows: list[Mapping[str, Any]], depth: int) -> None:
        pad = _PAD * depth
        self.out.append(f"{pad}{key}: {len(rows)}")
        columns: list[str] = []
        for row in rows:
            columns += [k for k in row if k not in columns]
        cells = [[self.cell(row.get(c), c in _PATHS) for c in columns] for row in rows[:LONG * 2]]
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
        self.out.append(pad + _PAD + "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip())
        for r in cells:
            self.out.append(pad + _PAD + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if len(rows) > len(cells):
            self.out.append(f"{pad}{_PAD}… ({len(rows)} in all)")

    @staticmethod
    def cell(v: Any, path: bool = False) -> str:
        if _is_scalar(v):
            return _scalar(v)
        if path and isinstance(v, (list, tuple)) and all(_is_scalar(x) for x in v):
            return _path_words(v)
        if isinstance(v, Mapping):
            return " ".join(f"{k} {_scalar(x) if _is_scalar(x) else '…'}" for k, x in v.items()) or "—"
        items = [_scalar(x) if _is_scalar(x) else "…" for x in v[:6]]
        return ", ".join(items) + ("…" if len(v) > 6 else "") if items else "—"


def render_answer(answer: Mapping[str, Any], engine: Any = None) -> str:
    """``answer`` (a ``casebook_answer`` dict) as readable lines; ``engine`` (optional) gives the
    case titles and the rule scripts that put DRM terms into words."""
    titles: dict[str, str] = {}
    rules_dir = None
    if engine is not None:
        titles = {cid: str(c.get("title", "")) for cid, c in engine.pack.cases.items()}
        rules_dir = engine.pack.rules_dir
    writer = _Writer(titles, rules_dir)
    writer.mapping(answer, 0)
    return "\n".join(writer.out)
