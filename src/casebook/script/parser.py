"""Parse rule scripts into the AST, reporting every syntax error of a file at once.

The LALR parser is built once from ``rules.lark`` (beside this module) and cached. A file is split
into its top-level statements (lines starting in column 1 with ``quantity``, ``forbid`` or
``permit``); each statement is parsed on its own with the original line numbers, so one mistake
does not hide the next. Syntax errors carry ``file:line:column``, the source line with a caret
(lark's ``get_context``), a plain-words diagnosis (``match_examples``) and what was expected.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casebook.core.errors import Problem, ScriptSyntaxError

from .ast import Statement

if TYPE_CHECKING:  # lark is imported when a script is parsed, not when parses come from the cache
    from lark import Lark
    from lark.exceptions import UnexpectedInput

__all__ = ["parser", "parse_script", "parse_file", "caret_context", "MAX_SCRIPT_CHARS", "MAX_LINE_CHARS",
           "MAX_NUMBER_CHARS", "MAX_TREE_DEPTH", "MAX_STATEMENT_LINES"]

GRAMMAR = Path(__file__).with_name("rules.lark")

_STATEMENT_START = re.compile(r"^(quantity|forbid|permit)\b", re.MULTILINE)

#: Diagnoses for common mistakes, matched against the parser state (lark ``match_examples``).
_EXAMPLES: dict[str, list[str]] = {
    "a term needs its case: write `by <case>` after the amount": [
        "quantity q = sum\n  +2 when x\n",
        "quantity q = sum\n  +2\n",
        "forbid move when x\n",
        "forbid move\n",
    ],
    "a case id is expected after `by` (like 10.4.5C)": [
        "quantity q = sum\n  +2 by when x\n",
        "quantity q = sum\n  +2 by x\n",
        "forbid move by x\n",
    ],
    "the condition after `when` is incomplete": [
        "quantity q = sum\n  +2 by 1.1 when\n",
        "quantity q = sum\n  +2 by 1.1 when x is\n",
        "quantity q = sum\n  +2 by 1.1 when x and\n",
        "quantity q = sum\n  +2 by 1.1 when any x has\n",
        "quantity q = sum\n  +2 by 1.1 when x >\n",
        "forbid move by 1.1 when\n",
        "forbid move by 1.1 when x >\n",
        "forbid move by 1.1 when x is\n",
        "forbid move by 1.1 when x and\n",
    ],
    "a quantity starts `quantity <name> = sum|product|min|max|first`": [
        "quantity q sum\n",
        "quantity q =\n",
        "quantity = sum\n",
        "quantity q = total\n",
    ],
    "a `most severe` group must be closed by `end`": [
        "quantity q = sum\n  most severe by 1.1\n  +1 by 1.1\n",
    ],
    "`distance` takes two hexes: `distance(<hex>, <hex>)` (or `distance to nearest(<units> …)`)": [
        "quantity q = sum\n  +2 by 1.1 when distance(x) > 1\n",
        "quantity q = sum\n  distance(x) by 1.1\n",
        "forbid move by 1.1 when distance(x) > 1\n",
    ],
    "a list of values is written in brackets: `[mud, drying]`": [
        "quantity q = sum\n  +2 by 1.1 when x in mud\n",
        "quantity q = sum\n  +2 by 1.1 when x in (mud)\n",
    ],
}

def _variants(examples: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each quantity example also with a header case and after an earlier term: lark compares parser
    states including the stack depth, which those change."""
    head = "quantity q = sum\n"
    out: dict[str, list[str]] = {}
    for label, texts in examples.items():
        more = []
        for t in texts:
            more.append(t)
            if t.startswith(head):
                body = t[len(head):]
                for h in (head, "quantity q = sum by 1.1\n"):
                    for before in ("", "  +1 by 1.1\n", "  +1 by 1.1\n  +1 by 1.1\n"):
                        more.append(h + before + body)
        out[label] = list(dict.fromkeys(more))
    return out


_EXAMPLES = _variants(_EXAMPLES)

#: How terminals are named in "expected ..." lists.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "CASE": "a case id",
    "NUMBER": "a number",
    "VULGAR": "a fraction like ½",
    "STRING": "a quoted string",
    "_NL": "end of line",
    "$END": "end of file",
}


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The rule-script LALR parser, built once per process (``propagate_positions=True``)."""
    from lark import Lark

    return Lark.open(str(GRAMMAR), parser="lalr", propagate_positions=True, maybe_placeholders=True)


@lru_cache(maxsize=1)
def _literals() -> dict[str, str]:
    from lark.lexer import PatternStr

    return {t.name: t.pattern.value for t in parser().terminals if isinstance(t.pattern, PatternStr)}


def _expected_words(names: set[str], limit: int = 12) -> str:
    lits = _literals()
    words = set()
    for n in names:
        if n in _TERMINAL_WORDS:
            words.add(_TERMINAL_WORDS[n])
        elif n in lits:
            words.add(f"`{lits[n]}`")
        else:
            words.add(n.lower())
    first = ("`by`", "`when`", "a case id", "end of line", "a name", "a number")
    ordered = sorted(words, key=lambda w: (w not in first, first.index(w) if w in first else 0,
                                           not w.startswith("`"), w))
    if len(ordered) > limit:
        ordered = ordered[:limit] + ["…"]
    return ", ".join(ordered)


def caret_context(source_line: str, column: int, width: int = 1) -> str:
    """The source line indented, with a caret (``^``) under 1-based ``column``."""
    line = source_line.rstrip("\n").replace("\t", " ")
    return f"    {line}\n    {' ' * max(column - 1, 0)}{'^' * max(width, 1)}"


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split a script into top-level statements: (lines before the chunk, chunk text)."""
    starts = [m.start() for m in _STATEMENT_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    out = []
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append((text.count("\n", 0, s), text[s:end]))
    return out


def _syntax_problem(file: str, text: str, err: UnexpectedInput, offset: int = 0) -> Problem:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    diagnosis = None
    try:
        diagnosis = err.match_examples(parser().parse, _EXAMPLES, use_accepts=True)
    except Exception:  # pragma: no cover - a diagnosis is a nicety, never a new failure
        diagnosis = None
    if isinstance(err, UnexpectedCharacters):
        found = f"unexpected character `{text[err.pos_in_stream or 0]}`"
        expected = err.allowed or set()
    elif isinstance(err, UnexpectedEOF):
        found = "unexpected end of file"
        expected = set(err.expected)
    elif isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "_NL":
            found = "unexpected end of line"
        elif tok.type == "$END":
            found = "unexpected end of file"
        else:
            found = f"unexpected `{tok}`"
        expected = set(err.accepts or err.expected)
    else:  # pragma: no cover
        found, expected = str(err), set()
    line, column = err.line, err.column
    if line is None or line < 1:  # end of input: point after the last character
        lines = text.rstrip("\n").split("\n")
        line, column = len(lines), len(lines[-1]) + 1
    message = f"syntax error: {found}"
    if diagnosis:
        message += f"; {diagnosis}"
    if expected:
        message += f" (expected {_expected_words(expected, 6 if diagnosis else 12)})"
    src_lines = text.split("\n")
    src = src_lines[line - 1] if 0 < line <= len(src_lines) else ""
    bad = _bad_case(src, column)
    if bad is not None:  # `4 by 6.0AB`: the word after `by` is no case id (the compiler adds a did-you-mean)
        return Problem(file, line + offset, bad[0], "", f"not a case id: `{bad[1]}`",
                       caret_context(src, bad[0], len(bad[1])))
    return Problem(file, line + offset, column, "", message, caret_context(src, column))


def _bad_case(src: str, column: int) -> tuple[int, str] | None:
    """(column, word) when the syntax error at ``column`` of ``src`` falls in a word of a case
    list (after ``by``/``over``, or a comma of one) that is not a case id (``6.0AB``, ``5.2b``)."""
    code = src.split("#")[0]
    for m in re.finditer(r"\b(?:by|over)\s+((?:[^\s,]+\s*,\s*)*[^\s,]+)", code):
        for w in re.finditer(r"[^\s,]+", m.group(1)):
            start = m.start(1) + w.start() + 1
            if start <= column <= start + len(w.group()) and re.match(r"[A-Z]{0,2}\d", w.group()):
                return start, w.group()
    return None


#: Limits of a rule script (SECURITY.md): characters of a file, of a line, and of a number
#: literal; how deeply a statement's parse tree may nest (a parenthesised or chained expression).
MAX_SCRIPT_CHARS = 1 << 20
MAX_LINE_CHARS = 2000
MAX_NUMBER_CHARS = 24
MAX_TREE_DEPTH = 120
MAX_STATEMENT_LINES = 500
_NUMBER = re.compile(r"\d[\d_.]*")


def _limit_problem(file: str, chunk: str, offset: int) -> Problem | None:
    """A problem if ``chunk`` exceeds a limit (a statement, a line or a number literal too long)."""
    if chunk.count("\n") > MAX_STATEMENT_LINES:
        return Problem(file, offset + 1, 1, "", f"a statement of more than {MAX_STATEMENT_LINES} lines")
    for i, line in enumerate(chunk.split("\n")):
        if len(line) > MAX_LINE_CHARS:
            return Problem(file, offset + i + 1, 1, "", f"a line longer than {MAX_LINE_CHARS} characters")
        code = line.split("#", 1)[0]
        for m in _NUMBER.finditer(code):
            if len(m.group()) > MAX_NUMBER_CHARS:
                return Problem(file, offset + i + 1, m.start() + 1, "",
                               f"a number literal longer than {MAX_NUMBER_CHARS} characters")
    return _paren_problem(file, chunk, offset)


_STRING_OR_COMMENT = re.compile(r'"[^"\n]*"|#[^\n]*')


def _paren_problem(file: str, chunk: str, offset: int) -> Problem | None:
    """A problem if parentheses nest deeper than :data:`MAX_TREE_DEPTH` (they leave no node in the
    parse tree, so :func:`_depth` does not see them: 900 nested pairs passed); strings and comments
    are not counted."""
    depth = 0
    code = _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group()), chunk)
    for pos, ch in enumerate(code):
        if ch == "(":
            depth += 1
            if depth > MAX_TREE_DEPTH:
                line = code.count("\n", 0, pos)
                col = pos - (code.rfind("\n", 0, pos) + 1) + 1
                return Problem(file, offset + line + 1, col, "",
                               f"parentheses nested deeper than {MAX_TREE_DEPTH} levels (split the expression)")
        elif ch == ")":
            depth = max(0, depth - 1)
    return None


def _depth(tree: Any) -> int:
    """How deeply a lark tree nests (iterative: never itself a recursion)."""
    deepest, todo = 0, [(tree, 1)]
    while todo:
        node, d = todo.pop()
        deepest = max(deepest, d)
        todo.extend((c, d + 1) for c in getattr(node, "children", ()) if hasattr(c, "children"))
    return deepest


def parse_script(text: str, file: str) -> tuple[tuple[Statement, ...], list[Problem]]:
    """Parse one script's text; returns (statements that parsed, syntax problems).

    ``file`` is the name shown in positions. Statements with a syntax error are left out; the
    caller decides whether to raise (see :func:`parse_file`). A script beyond the limits
    (:data:`MAX_SCRIPT_CHARS`, :data:`MAX_LINE_CHARS`, :data:`MAX_NUMBER_CHARS`,
    :data:`MAX_TREE_DEPTH`) or with a literal the compiler cannot take is a located problem too.
    """
    from lark.exceptions import UnexpectedInput, VisitError

    from ._builder import AstBuilder

    if len(text) > MAX_SCRIPT_CHARS:
        return (), [Problem(file, 1, 1, "", f"a rule script longer than {MAX_SCRIPT_CHARS} characters")]
    if not text.endswith("\n"):
        text += "\n"
    statements: list[Statement] = []
    problems: list[Problem] = []
    for offset, chunk in _chunks(text):
        if not chunk.strip():
            continue
        limit = _limit_problem(file, chunk, offset)
        if limit is not None:
            problems.append(limit)
            continue
        try:
            tree = parser().parse(chunk)
        except UnexpectedInput as err:
            problems.append(_syntax_problem(file, chunk, err, offset))
            statements.extend(_before_error(file, chunk, offset, getattr(err, "line", 0)))
            continue
        except RecursionError:
            problems.append(Problem(file, offset + 1, 1, "", "a statement nested too deeply"))
            continue
        if _depth(tree) > MAX_TREE_DEPTH:
            problems.append(Problem(file, offset + 1, 1, "", f"a statement nested deeper than {MAX_TREE_DEPTH} levels "
                                    "(split the expression)"))
            continue
        try:
            statements.extend(AstBuilder(file, offset).transform(tree))
        except VisitError as err:
            orig = err.orig_exc
            line = getattr(getattr(err, "obj", None), "meta", None)
            where = getattr(line, "line", 1) if line is not None and not getattr(line, "empty", True) else 1
            problems.append(Problem(file, offset + where, 1, "", f"cannot read this statement: {orig}"))
        except RecursionError:
            problems.append(Problem(file, offset + 1, 1, "", "a statement nested too deeply"))
    return tuple(statements), problems


def _before_error(file: str, chunk: str, offset: int, line: Any) -> tuple[Statement, ...]:
    """The statement of ``chunk`` cut before its syntax error at (chunk) ``line``, when that part
    parses alone: compiled for its own errors only (each marked ``partial``: the checks of what the
    rest of the statement may hold, an `otherwise` line, are skipped), so a syntax error hides the
    rest of its statement, not the errors of its earlier lines. None when the error is on the
    statement's first line or the part before it does not parse."""
    from ._builder import AstBuilder

    if not isinstance(line, int) or line <= 1:
        return ()
    head = "\n".join(chunk.split("\n")[: line - 1]) + "\n"
    try:
        tree = parser().parse(head)
        if _depth(tree) > MAX_TREE_DEPTH:
            return ()
        found = tuple(AstBuilder(file, offset).transform(tree))
    except Exception:  # the part before the error is no statement alone: left out, as before
        return ()
    for statement in found:
        object.__setattr__(statement, "partial", True)
    return found


def parse_file(path: str | Path, display: str | None = None) -> tuple[Statement, ...]:
    """Parse a script file; raises :class:`ScriptSyntaxError` with every syntax error of the file."""
    path = Path(path)
    statements, problems = parse_script(path.read_text(encoding="utf-8"), display or str(path))
    if problems:
        raise ScriptSyntaxError(problems)
    return statements
