"""``play --load`` of a file that is no save — an empty file, a mapping without ``game:`` — is
refused as ``ask`` refuses it: the position's located problems, exit 1 (session 16's fresh-user
trial: play exited 2 with "game: must be a game id …, got None")."""

from __future__ import annotations

from tests.test_position_fields import run


def test_play_load_of_an_empty_file_says_what_ask_says(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    said = f"{empty}:1:1: expected a position mapping (kind: position), got null"
    code, out = run("ask", empty, "vp")
    assert code == 1 and out.splitlines()[0] == said, out
    code, out = run("play", "--load", empty, "--quiet", "--out", tmp_path / "out")
    assert code == 1 and out.splitlines()[0] == said and "must be a game id" not in out, out


def test_play_load_of_a_save_without_game_lists_every_missing_key(tmp_path):
    nogame = tmp_path / "nogame.yaml"
    nogame.write_text("kind: position\nturn: 1\n", encoding="utf-8")
    code, out = run("play", "--load", nogame, "--quiet", "--out", tmp_path / "out")
    assert code == 1 and out.splitlines()[:2] == [f"{nogame}:1:1: missing required key 'format'",
                                                  f"{nogame}:1:1: missing required key 'game'"], out
