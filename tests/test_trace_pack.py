"""``explain`` and ``cases`` read the pack a trace was played on, and say when they cannot be sure
(issue #14 item 6, found tried as a designer would): a trace moved away from its pack and save is
read with the installed game *and a note saying so*; a pack edited since the game gives a warning
(the save beside the trace records the pack's SHA-256); a ``--pack`` of another game is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli

GAMES = Path(__file__).resolve().parents[1] / "games"


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A greedy Kestrel Pass game played on a copy of the pack: (pack copy, out folder)."""
    root = tmp_path_factory.mktemp("kp")
    pack = root / "kp"
    shutil.copytree(GAMES / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    out = root / "out"
    r = _run("play", pack, "--player", "blue=greedy", "--player", "red=greedy", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    return pack, out


def test_explain_of_a_trace_beside_its_save_on_an_unchanged_pack_warns_of_nothing(played):
    _, out = played
    r = _run("explain", out / "trace.jsonl", 3)
    assert r.exit_code == 0 and "warning" not in r.output and "note:" not in r.output, r.output


def test_explain_and_cases_of_a_trace_moved_away_say_they_read_the_installed_game(played, tmp_path):
    _, out = played
    moved = tmp_path / "trace.jsonl"
    shutil.copy(out / "trace.jsonl", moved)
    for args in (("explain", moved, 3), ("cases", moved)):
        r = _run(*args)
        assert r.exit_code == 0, r.output
        assert "note: no pack folder of kestrel_pass is above" in r.output
        assert "reading the installed kestrel_pass" in r.output and "--pack DIR" in r.output


def test_explain_and_cases_warn_when_the_pack_was_edited_after_the_game(played, tmp_path):
    pack, out = played
    game = tmp_path / "kp"
    shutil.copytree(pack, game)
    shutil.copytree(out, tmp_path / "out")
    saved = (tmp_path / "out" / "final.yaml").read_text(encoding="utf-8")
    (tmp_path / "out" / "final.yaml").write_text(saved.replace(str(pack), str(game)), encoding="utf-8")
    assert _run("explain", tmp_path / "out" / "trace.jsonl", 3).output.count("warning") == 0
    with (game / "rules" / "victory.rules").open("a", encoding="utf-8") as f:
        f.write("# edited after the game\n")
    for args in (("explain", tmp_path / "out" / "trace.jsonl", 3), ("cases", tmp_path / "out" / "trace.jsonl")):
        r = _run(*args)
        assert r.exit_code == 0, r.output
        assert f"was played on the pack in {game}" in r.output and "differs now" in r.output, r.output


def test_cases_refuses_a_pack_of_another_game(played):
    _, out = played
    r = _run("cases", out / "trace.jsonl", "--pack", GAMES / "moscow41")
    assert r.exit_code == 1 and "is a pack of 'moscow41'" in r.output and "is of 'kestrel_pass'" in r.output
    r = _run("cases", "kestrel_pass", "--pack", GAMES / "battle_for_moscow")
    assert r.exit_code == 1 and "is a pack of 'battle_for_moscow', not of 'kestrel_pass'" in r.output
    assert _run("cases", "kestrel_pass", "--pack", GAMES / "kestrel_pass").exit_code == 0
