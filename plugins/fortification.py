"""Moscow '41 rules plugin `fortification` (placeholder: being written).

See plugins/__init__.py for the plugin conventions.
"""

from __future__ import annotations

#: question -> usage line, for `casebook ask` (see docs/ask.md)
QUESTIONS: dict[str, str] = {}
