"""A verdict asked of many fact sets while an answer records its lines (``ctx.allowed`` under
``recording_lines``, or with an event's lines): ``RuleSet.allowed_noting`` gives the fast verdict
and notes exactly the lines — same entries, same order — that explaining every verdict
(``RuleSet.permission`` + ``Engine.note_lines``) notes, evaluating each line only until noted
(issue #18: ``ask drop`` asks the 15.1D permission of every hex of the map)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

from casebook.script import compile_scripts, facts_from_mapping
from casebook.script.engine import Engine
from casebook.script.explain import line_entry

SCHEMA = facts_from_mapping({
    "kind": "facts", "format": 1,
    "facts": {"ground": {"type": "enum", "values": ["dry", "mud", "snow"]}, "n": {"type": "int"},
              "flag": {"type": "bool"}},
    "actions": {"march": "move again"},
}, "test-facts.yaml")


def rules(text: str):
    return compile_scripts([("t.rules", text)], SCHEMA)

SCRIPT = ("forbid march by 9.8B when flag\n"
          "permit march by 9.6A over 9.8B when n > 5\n"
          "forbid march by 9.9J when ground is snow\n"
          "permit march by 9.9K when n = 9\n"
          "forbid march by 9.9L when ground is mud and \\\n"
          "  n < 3\n")


def _explained(rs, fact_sets):
    """Every verdict explained and its deciding lines noted (the old, slow path)."""
    recorded: dict = {}
    events: dict = {"t.rules:1": {"source": "t.rules:1", "cases": ["9.8B"], "text": "already"}}
    verdicts = []
    for facts in fact_sets:
        e = rs.permission("march", facts)
        for into in (recorded, events):
            Engine.note_lines(SimpleNamespace(_recording=[None]), e, into)
        verdicts.append(bool(e.value))
    return verdicts, recorded, events


def test_allowed_noting_notes_the_lines_explaining_every_verdict_notes():
    rs = rules(SCRIPT)
    grid = [{"flag": f, "n": n, "ground": g}
            for f, n, g in itertools.product((False, True), (1, 6, 9), ("dry", "mud", "snow"))]
    for order in (grid, list(reversed(grid)), grid[5:] + grid[:5]):
        verdicts, recorded, events = _explained(rs, order)
        rec2: dict = {}
        ev2: dict = {"t.rules:1": {"source": "t.rules:1", "cases": ["9.8B"], "text": "already"}}
        fast = [rs.allowed_noting("march", facts, [rec2, ev2], line_entry) for facts in order]
        assert fast == verdicts == [rs.allowed("march", facts) for facts in order]
        assert list(rec2.items()) == list(recorded.items())
        assert list(ev2.items()) == list(events.items())
    # the continued line shows its backslash as " …", as note_lines does
    assert any(v["text"].endswith(" …") for v in recorded.values())


def test_allowed_noting_evaluates_a_line_no_more_once_every_dict_holds_it():
    rs = rules("forbid march by 9.8B when n > 5\n")
    seen: dict = {}
    assert not rs.allowed_noting("march", {"n": 6}, [seen], line_entry)
    assert list(seen) == ["t.rules:1"]
    # noted: the verdict alone is asked (the fast path), a missing fact still raises there
    assert rs.allowed_noting("march", {"n": 1}, [seen], line_entry)
