"""docs/porting.md §9 states how many lines of Python Battle for Moscow still writes (its two
plugins with ``__init__.py``): the number is measured here, not remembered (session 17: it said
318 against 332 on disk)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_porting_doc_states_the_battle_for_moscow_plugin_lines_on_disk():
    measured = sum(len(p.read_text(encoding="utf-8").splitlines())
                   for p in (ROOT / "games" / "battle_for_moscow" / "plugins").glob("*.py"))
    stated = re.search(r"Battle for Moscow keeps two plugins \(([\d,]+) lines with `__init__.py`",
                       (ROOT / "docs" / "porting.md").read_text(encoding="utf-8"))
    assert stated is not None and int(stated.group(1).replace(",", "")) == measured
