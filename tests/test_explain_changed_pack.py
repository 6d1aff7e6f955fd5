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

from casebook.content.cases import CaseIndex
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
    assert " names lines the pack in " in err and " no longer holds as the trace recorded them (" in err  # not "lines ."
    # two comment lines on top: line 15 is the comment `# KP8.4: one die, unmodified.`: no line
    out, text, err = _explain(tmp_path / "one", "# a house note\n" * 2)
    assert out["changed_lines"] == ["combat.rules:15 holds no rule or table line now"]


def _explain_m41(tmp_path: Path, seq: int, top: str) -> tuple[dict, str, str]:
    """Event ``seq`` of the Blitz's golden trace (greedy, seed 1) explained on a copy of the pack
    whose tables/tec.yaml has ``top`` put before its first line."""
    pack = tmp_path / "m41"
    shutil.copytree(GAMES / "moscow41", pack, ignore=shutil.ignore_patterns("golden", "__pycache__", "tests"))
    tec = pack / "tables" / "tec.yaml"
    tec.write_text(top + tec.read_text(encoding="utf-8"), encoding="utf-8")
    trace = tmp_path / "t.jsonl"
    shutil.copy(GAMES / "moscow41" / "golden" / "october-blitz-greedy-seed1.jsonl", trace)
    as_json = CliRunner().invoke(cli, ["explain", str(trace), str(seq), "--pack", str(pack), "--json"])
    text = CliRunner().invoke(cli, ["explain", str(trace), str(seq), "--pack", str(pack)])
    assert as_json.exit_code == 0 and text.exit_code == 0, (as_json.output, text.output)
    return json.loads(as_json.stdout), text.stdout, text.stderr


@pytest.mark.case("4.3E")
def test_4_3E_explain_of_a_shifted_table_line_landing_on_half_a_cell_marks_it(tmp_path):
    """Issue #15 (session 16): the Blitz's event 898 (889 before session 19's regeneration) names ``tables/tec.yaml:19``, the clear Mud
    infantry cell citing its own provenance (4.3E). One line put on top: line 19 is the Frozen cell
    beside it (``"frozen": 1``), whose text names no case — it was printed unmarked; it cites the
    table's provenance (9.2A since session 17: the Mud cases are the Mud cells' own), not what the
    trace recorded."""
    out, text, err = _explain_m41(tmp_path, 898, "# a house note\n")
    assert "tables/tec.yaml:19 cites 9.2A now, the trace recorded 4.3E" in out["changed_lines"]
    assert '"clear": "infantry": "frozen": 1 (changed since the trace)' in text
    assert err.startswith("warning: event 898 of ")


@pytest.mark.case("9.2B")
def test_9_2B_explain_of_a_table_line_shifted_onto_a_row_head_marks_it(tmp_path):
    """Event 22 names ``tables/tec.yaml:17`` (the clear Dry infantry cell, 9.2B); one line on top
    puts the row head ``"infantry":`` there — no cell: no table line now."""
    out, text, _ = _explain_m41(tmp_path, 22, "# a house note\n")
    assert "tables/tec.yaml:17 holds no rule or table line now" in out["changed_lines"]
    assert "(changed since the trace)" in text
    out, text, err = _explain_m41(tmp_path / "same", 22, "")  # the pack as played: nothing marked
    assert out["changed_lines"] == [] and "(changed since the trace)" not in text and err == ""


def test_no_line_of_the_golden_traces_reads_as_changed_on_the_shipped_packs():
    """Every line each game's first golden trace names cites, on the shipped pack, the cases the
    trace recorded (no false warning; an attack DRM term's ``case`` string included)."""
    for game in ("moscow41", "battle_for_moscow", "kestrel_pass"):
        pack = GAMES / game
        trace = sorted((pack / "golden").glob("*.jsonl"))[0]
        index = CaseIndex.for_game(pack)  # a table line's reconstructed provenance: the ids it holds
        seen: dict[tuple[str, str], str | None] = {}
        for row in trace.read_text(encoding="utf-8").splitlines():
            for term in _terms(json.loads(row)["data"]):
                source, cases = str(term.get("source", "")), term.get("cases") or term.get("case")
                if ":" in source and (source, str(cases)) not in seen:
                    seen[(source, str(cases))] = changed_line(source, line_text(source, pack / "rules", pack), cases,
                                                              pack, index)
        assert len(seen) > 20 and [w for w in seen.values() if w] == [], game
