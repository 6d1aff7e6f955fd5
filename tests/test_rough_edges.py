"""The rough edges a fresh user hit (issue #18, session 7): each a one-line answer or a behaviour
that replay, play and the other commands share — traces cut or corrupt, the pack a trace names,
a broken pack's render, paths in messages, a hand-made position's trace. Those of asking and
playing (distances, ``--rolls``, why a move is refused, a game's help, undo, serve) are in
tests/test_rough_edges_play.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security._secutil import run

ROOT = Path(__file__).resolve().parents[1]
KP_GOLDEN = ROOT / "games" / "kestrel_pass" / "golden" / "meeting-greedy-seed1.jsonl"


# ------------------------------------------------------------------ replay --partial, a cut anywhere
@pytest.mark.parametrize("lines", [2, 5, 16, 35])
def test_replay_partial_accepts_a_cut_inside_the_game_work_after_a_decision(tmp_path, lines):
    """Cut after an action event, before the moves and control changes it brings (seq 2 is the
    move of the action at seq 1): refused without --partial, naming file:line; accepted with it."""
    cut = tmp_path / "t.jsonl"
    cut.write_text("".join(KP_GOLDEN.read_text().splitlines(keepends=True)[:lines]))
    code, out = run("replay", cut)
    assert code == 1 and f"t.jsonl:{lines}: the trace is incomplete" in out and "--partial" in out, out
    assert len(out.strip().splitlines()) == 1
    code, out = run("replay", "--partial", cut)
    assert code == 0 and f"{lines} events replayed identically; the trace is incomplete" in out, out


def cut_in_line_16(tmp_path: Path) -> Path:
    """The Kestrel Pass golden trace cut in the middle of its line 16 (15 whole events before)."""
    cut = tmp_path / "t.jsonl"
    lines = KP_GOLDEN.read_text().splitlines(keepends=True)
    text = "".join(lines[:15]) + lines[15][: len(lines[15]) // 2]
    assert text.count("\n") == 15 and not text.endswith("\n")
    cut.write_text(text)
    return cut


def test_replay_of_a_trace_cut_in_the_middle_of_a_line(tmp_path):
    """The trace cut in the middle of line 16. One line, file:line, no JSON parser's words;
    --partial replays the 15 complete events."""
    cut = cut_in_line_16(tmp_path)
    code, out = run("replay", cut)
    assert code == 1 and out.strip().splitlines() == [
        f"{cut}:16: the line is cut short (not a whole event); the trace stops in the middle of line 16 "
        "(--partial replays up to the last complete event)"], out
    code, out = run("replay", "--partial", cut)
    assert code == 0 and "15 events replayed identically" in out and "line 16 was cut short and left out" in out, out


@pytest.mark.parametrize("command", [("explain", "{cut}", "3"), ("explain", "{cut}", "3", "--json"), ("cases", "{cut}")])
def test_explain_and_cases_of_a_trace_cut_in_the_middle_of_a_line_say_so_in_one_line(tmp_path, command):
    """What replay says of a cut line, explain and cases TRACE say too: one file:line message, exit 1,
    no JSON parser's words (before: 'Unterminated string starting at: line 1 column …')."""
    cut = cut_in_line_16(tmp_path)
    code, out = run(*(a.format(cut=cut) for a in command))
    assert code == 1 and out.strip().splitlines() == [
        f"{cut}:16: the line is cut short (not a whole event); the trace stops in the middle of line 16"], out


def test_explain_of_the_whole_trace_still_explains_the_event(tmp_path):
    """The same 15 lines with a whole last line (no newline after it) are a trace: explain reads it."""
    whole = tmp_path / "t.jsonl"
    whole.write_text("".join(KP_GOLDEN.read_text().splitlines(keepends=True)[:15]).rstrip("\n"))
    code, out = run("explain", whole, 14)
    lines = out.splitlines()  # no pack beside it: the installed game is read, and a note says so
    assert code == 0 and lines[0].startswith("note: no pack folder of kestrel_pass") and lines[1].startswith("event 14 · turn "), out


def test_replay_of_a_corrupt_line_that_is_not_the_last_is_still_refused(tmp_path):
    lines = KP_GOLDEN.read_text().splitlines(keepends=True)
    lines[3] = lines[3][:40] + "\n"
    bad = tmp_path / "t.jsonl"
    bad.write_text("".join(lines[:20]))
    code, out = run("replay", "--partial", bad)
    assert code == 1 and f"{bad}:4: " in out and "Traceback" not in out, out


# ------------------------------------------------------------------ the pack of a trace outside the repo
@pytest.fixture
def copied_game(tmp_path):
    """A copy of Kestrel Pass under a new game id (kp_copy) in tmp/pack, and a short play of it
    written to tmp/out (trace.jsonl and final.yaml, which records the pack folder)."""
    import shutil

    from casebook.tools.cmd_play import run_play

    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    for f in (pack / "game.yaml", pack / "scenarios" / "meeting.yaml"):
        f.write_text(f.read_text().replace("kestrel_pass", "kp_copy"))
    run_play(str(pack), "meeting", {"blue": ("bot", "greedy"), "red": ("bot", "greedy")}, 1, tmp_path / "out",
             max_actions=4, echo=lambda s: None, progress=False)
    return pack, tmp_path / "out" / "trace.jsonl"


def test_cases_explain_replay_find_the_pack_a_save_beside_the_trace_records(copied_game):
    pack, trace = copied_game
    code, out = run("cases", trace)
    assert code == 0 and "implemented 41/41" in out, out
    code, out = run("explain", trace, 0)
    assert code == 0 and "setup" in out, out
    code, out = run("replay", trace)
    assert code == 0 and "replayed identically, up to the save" in out, out


def test_a_trace_whose_pack_is_gone_says_to_pass_pack(copied_game, tmp_path):
    pack, trace = copied_game
    moved = pack.rename(tmp_path / "moved")
    for args in (("cases", trace), ("explain", trace, 0), ("replay", trace)):
        code, out = run(*args)
        assert code == 1 and "the game 'kp_copy' is not installed and it was played on " in out, (args, out)
        assert "name the pack folder it was played from: --pack DIR" in out and "Traceback" not in out
    code, out = run("cases", trace, "--pack", moved)
    assert code == 0 and "implemented 41/41" in out, out
    code, out = run("explain", trace, 0, "--pack", moved)
    assert code == 0, out


# ------------------------------------------------------------------ render of a broken pack
def test_render_of_a_broken_pack_exits_1_with_the_lint_problems(tmp_path):
    import shutil

    pack = tmp_path / "kp"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    (pack / "map.yaml").write_text((pack / "map.yaml").read_text() + "  bogus: [1\n")
    code, lint_out = run("lint", pack)
    assert code == 1
    code, out = run("render", pack, "-o", tmp_path / "map.svg")
    assert code == 1 and not (tmp_path / "map.svg").exists()
    problem = next(line for line in lint_out.splitlines() if "map.yaml:" in line)
    assert problem in out and "YAML syntax error" in problem, out
    code, out = run("render", "kestrel_pass", "-o", tmp_path / "ok.svg")
    assert code == 0 and (tmp_path / "ok.svg").is_file(), out


# ------------------------------------------------------------------ one path convention
def test_paths_in_messages_are_relative_inside_the_current_directory_else_absolute(tmp_path, monkeypatch):
    from casebook.core.errors import Problem, shown_path

    inside = tmp_path / "work" / "pack" / "map.yaml"
    inside.parent.mkdir(parents=True)
    inside.write_text("x: 1\n")
    monkeypatch.chdir(tmp_path / "work")
    assert shown_path(inside) == "pack/map.yaml"                       # given absolute, inside
    assert shown_path("pack/map.yaml") == "pack/map.yaml"              # given relative, inside
    assert shown_path("../work/pack/map.yaml") == "pack/map.yaml"
    outside = tmp_path / "other.yaml"
    outside.write_text("x: 1\n")
    assert shown_path("../other.yaml") == str(outside.resolve())       # given relative, outside
    assert shown_path("<save>") == "<save>" and shown_path("moscow41") == "moscow41"  # names, not paths
    assert str(Problem(str(inside), 3, 1, "units.0", "bad")) == "pack/map.yaml:3:1: units.0: bad"


def test_a_content_error_of_a_pack_given_absolute_names_its_files_relative(tmp_path, monkeypatch):
    import shutil

    pack = tmp_path / "kp"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    (pack / "map.yaml").write_text((pack / "map.yaml").read_text() + "  bogus: [1\n")
    monkeypatch.chdir(tmp_path)
    for given in (pack, "kp"):
        code, out = run("lint", given)
        assert code == 1 and out.startswith("kp/map.yaml:") and str(tmp_path) not in out, out


# ------------------------------------------------------------------ a hand-made position's trace replays
HAND_MADE = """kind: position
format: 1
game: kestrel_pass
turn: 2
weather: {temperature: warm, ground: dry}
phase: blue_turn
step: movement
first_player: blue
phasing: blue
units:
  - {counter: b-1, hex: "0304"}
  - {counter: b-4, hex: "0404"}
  - {counter: r-1, hex: "0706"}
  - {counter: r-5, hex: "0806"}
"""


def test_a_play_loaded_from_a_hand_made_position_replays(tmp_path):
    """No trace beside the position: the play's trace starts with a setup event holding the
    position (seq 0, turn 2 as the position says), so replay starts where the play did and
    gives every event again; undo after a later load reaches back to that position."""
    import json

    from casebook.tools.cmd_play import _resume, run_play

    pos = tmp_path / "hand.yaml"
    pos.write_text(HAND_MADE)
    bots = {"blue": ("bot", "greedy"), "red": ("bot", "greedy")}
    run_play(None, None, bots, 1, tmp_path / "a", load=str(pos), max_actions=6, echo=lambda s: None, progress=False)
    first = json.loads((tmp_path / "a" / "trace.jsonl").read_text().splitlines()[0])
    assert first["kind"] == "setup" and first["seq"] == 0 and first["turn"] == 2
    assert first["data"]["position"]["units"][0]["hex"] == "0304" and first["data"]["game"] == "kestrel_pass"
    code, out = run("replay", tmp_path / "a" / "trace.jsonl")
    assert code == 0 and "replayed identically, up to the save" in out, out
    _, state, initial, _ = _resume(None, None, str(tmp_path / "a" / "final.yaml"))
    assert initial is not None and initial.data.turn == 2 and len(state.history) == 6
    assert [u["hex"] for u in initial.data.units][:2] == ["0304", "0404"]
    whole = run_play(None, None, bots, 1, tmp_path / "b", load=str(pos), echo=lambda s: None, progress=False)
    assert whole.is_terminal()
    code, out = run("replay", tmp_path / "b" / "trace.jsonl")
    assert code == 0 and "events replayed identically" in out, out
