"""The one small error hierarchy of Casebook.

Every error a user can cause is a :class:`CasebookError` subclass, so the command line can print it
cleanly and exit 1. Each class says what was wrong and where:

- :class:`ContentError` — content (YAML packs, position files) failed to load or validate; carries
  *all* :class:`Problem` s of one load, each with ``file:line:column``, the key path and what was
  expected (developers' guide, rule 7).
- :class:`PositionError` — a position file (scenario, save, test position) is invalid; a
  ``ContentError`` so it carries the same problem list. A bad position is refused whole.
- :class:`ScriptSyntaxError` — a rule script failed to parse or compile; carries its problems too.
- :class:`IllegalActionError` — an action refused by the rules; names the cases that forbid it. The
  state it was tried on is unchanged.
- :class:`QuestionError` — a rules question (``casebook ask``) that cannot be answered as asked: an
  unknown unit or question, a hex off the map, a malformed argument.

Paths in messages follow one convention (:func:`shown_path`): relative to the current directory
when the file is inside it, else absolute — however the path was given or found.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "shown_path",
    "Problem",
    "CasebookError",
    "ContentError",
    "PositionError",
    "ScriptSyntaxError",
    "IllegalActionError",
    "QuestionError",
]


def shown_path(path: str | os.PathLike[str]) -> str:
    """``path`` as messages show it: relative to the current directory when it lies inside it,
    else absolute. A name that is no path (``<save>``, a game id: relative and not existing) is
    returned as given."""
    text = os.fspath(path)
    if not text or text.startswith("<") or (not os.path.isabs(text) and not os.path.exists(text)):
        return text
    full = Path(text).resolve()
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):  # outside the current directory (or it is gone)
        return str(full)


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one place in a file.

    ``file`` is the path as given to the loader; ``line`` and ``column`` are 1-based (0 when
    unknown); ``key`` is the dotted key path inside the document (``units.3.strength``), empty
    for a whole-file problem; ``message`` says what was expected; ``context`` is optional extra
    text printed under the message (a source line with a caret, a suggestion).
    """

    file: str
    line: int
    column: int
    key: str
    message: str
    context: str = field(default="", compare=False)

    def location(self) -> str:
        """``file:line:column`` (``file`` alone when the position is unknown); the file as
        :func:`shown_path` shows it."""
        file = shown_path(self.file)
        if self.line <= 0:
            return file
        return f"{file}:{self.line}:{self.column}"

    def __str__(self) -> str:
        key = f" {self.key}:" if self.key else ""
        text = f"{self.location()}:{key} {self.message}"
        if self.context:
            text += "\n" + self.context
        return text


class CasebookError(Exception):
    """Base of every error a user of Casebook can cause."""


class _ProblemsError(CasebookError):
    """An error that carries every problem found, sorted by file and position."""

    def __init__(self, problems: Iterable[Problem], summary: str | None = None) -> None:
        self.problems: tuple[Problem, ...] = tuple(sorted(problems))
        self.summary = summary or self._default_summary()
        super().__init__(self.render())

    def _default_summary(self) -> str:
        n = len(self.problems)
        return f"{n} error{'s' if n != 1 else ''}"

    def render(self) -> str:
        """All problems, one per line (with their context lines), then the summary line."""
        lines = [str(p) for p in self.problems]
        lines.append(self.summary)
        return "\n".join(lines)


class ContentError(_ProblemsError):
    """Content failed to load or validate; ``problems`` lists every error of the load at once."""


class PositionError(ContentError):
    """A position file (scenario, save, test position) is invalid and was refused whole."""


class ScriptSyntaxError(_ProblemsError):
    """A rule script failed to parse or compile; ``problems`` lists every error of the file(s)."""


class IllegalActionError(CasebookError):
    """An action refused by the rules.

    ``action`` is the action as written (notation), ``cases`` the case ids that forbid it, and
    ``reason`` a short human sentence. The state the action was tried on is left unchanged.
    """

    def __init__(self, action: str, cases: Sequence[str], reason: str) -> None:
        self.action = action
        self.cases: tuple[str, ...] = tuple(cases)
        self.reason = reason
        cited = ", ".join(self.cases) if self.cases else "no case"
        super().__init__(f"illegal action {action!r}: {reason} ({cited})")


class QuestionError(CasebookError):
    """A rules question that cannot be answered as asked (unknown unit, hex off the map, bad
    argument); the message says what was wrong and what was expected."""
