"""``python -m casebook.tools`` runs the ``casebook`` command.

``casebook`` is a namespace package, and ``python -m`` puts the working directory first on the
import path: a folder ``casebook/plugins/`` in the working directory would be imported instead of
the installed plugins (code from wherever the command is run). So the working directory is taken
off the path before anything else of Casebook is imported; the ``casebook`` console script never
had it there (SECURITY.md).
"""

import os
import sys


def _drop_working_directory() -> None:
    """Remove the working directory (``''`` or its absolute path) from ``sys.path``, unless the
    installed Casebook itself lives there (then it is the real package, not a stray folder)."""
    cwd = os.path.realpath(os.getcwd())
    here = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path[:] = [p for p in sys.path
                   if not (p in ("", ".") or os.path.realpath(p) == cwd) or here == cwd]


_drop_working_directory()

from casebook.tools.cli import main  # noqa: E402  (after the path is made safe)

main()
