"""``casebook explain TRACE SEQ --pack DIR`` of a trace played on a pack whose files changed since
(issue #15 deliverable 3): a trace event records each line it names by place and cases
(``{"source": "combat.rules:15", "cases": ["KP8.4"]}``), not its text nor the pack's hash, and
explain reads the text from the pack. A moved line is told by the cases it cites now
(``cmd_explain.changed_line``): explain warns on standard error, marks the line and lists it in
``--json``'s ``changed_lines`` — it printed today's line as if it had fired, silently.

Kestrel Pass's meeting, greedy, seed 1 (its golden trace): event 34 is the first combat's roll,
naming ``combat.rules:15`` (``otherwise 1d6 by KP8.4``, the die, KP8.4)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli
from casebook.tools.cmd_explain import _terms, changed_line, line_text

GAMES = Path(__file__).resolve().parent.parent / "games"


def _explain(tmp_path: Path, edit: str | None) -> tuple[dict, str, str]:
    pack = tmp_path / "kp"
    shutil.copytree(GAMES / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    trace = tmp_path / "t.jsonl"
    shutil.copy(GAMES / "kestrel_pass" / "golden" / "meeting-greedy-seed1.jsonl", trace)
    if edit is not None:
        rules = pack / "rules" / "combat.rules"
        rules.write_text(edit + rules.read_text(encoding="utf-8"), encoding="utf-8")
    as_json = CliRunner().invoke(cli, ["explain", str(trace), "34", "--pack", str(pack), "--json"])
    text = CliRunner().invoke(cli, ["explain", str(trace), "34", "--pack", str(pack)])
    assert as_json.exit_code == 0 and text.exit_code == 0, (as_json.output, text.output)
    return json.loads(as_json.stdout), text.stdout, text.stderr


@pytest.mark.case("KP8.4")
def test_KP8_4_explain_on_the_pack_as_played_names_no_changed_line(tmp_path):
    out, text, err = _explain(tmp_path, None)
    assert out["changed_lines"] == [] and err == ""
    assert "combat.rules:15  otherwise 1d6 by KP8.4\n" in text


@pytest.mark.case("KP8.4")
def test_KP8_4_explain_of_a_shifted_rule_line_warns_and_marks_it(tmp_path):
    # four comment lines on top: line 15 is now `forbid attack by KP8.2C  when odds_below_table`
    out, text, err = _explain(tmp_path, "# a house note\n" * 4)
    assert out["changed_lines"] == ["combat.rules:15 cites KP8.2C now, the trace recorded KP8.4"]
    assert "combat.rules:15  forbid attack by KP8.2C  when odds_below_table (changed since the trace)" in text
    assert err.startswith("warning: event 34 of ") and "combat.rules:15 cites KP8.2C now" in err
    # two comment lines on top: line 15 is the comment `# KP8.4: one die, unmodified.`: no line
    out, text, err = _explain(tmp_path / "one", "# a house note\n" * 2)
    assert out["changed_lines"] == ["combat.rules:15 holds no rule or table line now"]


def test_no_line_of_the_golden_traces_reads_as_changed_on_the_shipped_packs():
    """Every line each game's first golden trace names cites, on the shipped pack, the cases the
    trace recorded (no false warning; an attack DRM term's ``case`` string included)."""
    for game in ("moscow41", "battle_for_moscow", "kestrel_pass"):
        pack = GAMES / game
        trace = sorted((pack / "golden").glob("*.jsonl"))[0]
        seen: dict[tuple[str, str], str | None] = {}
        for row in trace.read_text(encoding="utf-8").splitlines():
            for term in _terms(json.loads(row)["data"]):
                source, cases = str(term.get("source", "")), term.get("cases") or term.get("case")
                if ":" in source and (source, str(cases)) not in seen:
                    seen[(source, str(cases))] = changed_line(source, line_text(source, pack / "rules", pack), cases)
        assert len(seen) > 20 and [w for w in seen.values() if w] == [], game
