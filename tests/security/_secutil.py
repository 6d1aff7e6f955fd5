"""Helpers of the security tests (issue #19): run the ``casebook`` command in-process exactly as
the console script does (``casebook.tools.cli.main``: its error handling and exit codes)."""

from __future__ import annotations

import contextlib
import io

from casebook.tools.cli import main


def run(*args: object) -> tuple[int, str]:
    """``casebook ARGS`` in-process: (exit code, stdout + stderr). Any exception other than the
    command's own exit escapes, so a traceback fails the test."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        else:  # pragma: no cover - main always exits
            code = 0
    return code, out.getvalue()


def one_line_error(text: str) -> bool:
    """Whether ``text`` reads as an error report, not a traceback."""
    return "Traceback" not in text and text.strip() != ""


