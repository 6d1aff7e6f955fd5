"""A config entry written short — ``events.rebuilt: [rebuild]`` where config/replacements.yaml
wants ``[trace event kind, source]`` (12.3B-C: the rebuild's event) — is refused at its
file:line:column naming the entry, what it holds and what is missing (it said "missing required
key 1"); the pack is refused whole, as every content error."""

from __future__ import annotations

import pytest

from casebook.core.errors import ContentError
from casebook.script.engine import Engine
from tests._pack_edits import copy_edited, lint_errors


@pytest.mark.case("12.3B")
def test_12_3B_a_short_event_entry_names_the_entry_and_the_missing_item(tmp_path):
    pack = copy_edited(tmp_path, "config/replacements.yaml",
                       ("rebuilt: [rebuild, reinforcement.apply_rebuild]", "rebuilt: [rebuild]"))
    path = pack / "config" / "replacements.yaml"
    line = next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "rebuilt: [rebuild]" in ln)
    out = lint_errors(pack)
    assert f"{path}:{line}:3: events.rebuilt: [rebuild] has 1 item, 2 expected (item 2 is missing)" in out
    assert "missing required key" not in out
    with pytest.raises(ContentError):
        Engine.load(pack)
