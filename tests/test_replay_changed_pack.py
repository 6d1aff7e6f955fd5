"""``casebook replay TRACE --pack DIR`` of a trace played on a pack whose files changed since
(issue #15; session 16's fresh-user check: replay said "events differ" and no more): at a
divergence replay adds what ``explain`` warns of, by the same helper (``cmd_explain.pack_hint``):
the lines the recorded events name that the pack no longer holds as recorded, and the lines of
the differing event that cite the same cases at another place now.

Kestrel Pass's meeting, greedy, seed 1 (its golden trace): event 34 is the first combat's roll,
naming ``combat.rules:15`` (``otherwise 1d6 by KP8.4``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli

GAMES = Path(__file__).resolve().parent.parent / "games"


def _replay(tmp_path: Path, top: str) -> tuple[int, str, Path]:
    pack = tmp_path / "kp"
    shutil.copytree(GAMES / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    trace = tmp_path / "t.jsonl"
    shutil.copy(GAMES / "kestrel_pass" / "golden" / "meeting-greedy-seed1.jsonl", trace)
    rules = pack / "rules" / "combat.rules"
    rules.write_text(top + rules.read_text(encoding="utf-8"), encoding="utf-8")
    out = CliRunner().invoke(cli, ["replay", str(trace), "--pack", str(pack)])
    return out.exit_code, out.output, pack


@pytest.mark.case("KP8.4")
def test_KP8_4_replay_on_a_pack_whose_lines_moved_says_which(tmp_path):
    # four comment lines on top: line 15 is now `forbid attack by KP8.2C  when odds_below_table`,
    # the die's line (KP8.4) line 19
    code, output, pack = _replay(tmp_path, "# a house note\n" * 4)
    assert code == 1
    lines = output.splitlines()
    assert lines[0] == "seq 34: events differ"
    assert lines[3:] == [
        f"  hint: the trace names lines the pack in {pack} no longer holds as the trace recorded them "
        "(seq 34: combat.rules:15 cites KP8.2C now, the trace recorded KP8.4): the pack changed since the game "
        "was played",
        "  hint: event 34's lines moved: combat.rules:15 (KP8.4) is combat.rules:19 now"]


@pytest.mark.case("KP8.4")
def test_KP8_4_replay_on_a_pack_as_played_adds_no_hint(tmp_path):
    code, output, _ = _replay(tmp_path, "")
    assert code == 0 and "hint" not in output and "events replayed identically" in output
