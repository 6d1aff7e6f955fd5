"""Which pack a game id names (docs/ask.md, "Which pack"): a position's or save's ``game:`` is the
pack folder above the file, else the installed game — never a folder of that name in the working
directory by accident (session 17, a fresh user's report: ``cd packs`` holding an edited
``moscow41/`` made ``ask`` answer from it, silently). A GAME argument naming both a folder there
and an installed game reads the folder and says so (``note:`` on standard error)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.content.loader import find_pack, installed_games
from casebook.tools.cli import cli

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture
def shadowed(tmp_path, monkeypatch):
    """A working directory holding a broken folder ``kestrel_pass/`` (a manifest of one key) and,
    elsewhere, the Kestrel Pass scenario as a position file."""
    work = tmp_path / "packs"
    (work / "kestrel_pass").mkdir(parents=True)
    (work / "kestrel_pass" / "game.yaml").write_text("id: kestrel_pass\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(GAMES / "kestrel_pass" / "scenarios" / "meeting.yaml", elsewhere / "meeting.yaml")
    monkeypatch.chdir(work)
    return elsewhere / "meeting.yaml"


def test_a_bare_game_id_is_the_installed_game_even_with_a_folder_of_that_name_here(shadowed):
    assert find_pack("kestrel_pass") == installed_games()["kestrel_pass"]
    assert find_pack("./kestrel_pass") == Path("./kestrel_pass")  # named as a folder: the folder
    assert find_pack(Path("kestrel_pass")) == Path("kestrel_pass")


def test_ask_reads_a_positions_game_on_the_installed_pack_not_the_folder_here(shadowed):
    r = CliRunner().invoke(cli, ["ask", str(shadowed), "victory"])
    assert r.exit_code == 0, r.output  # the broken ./kestrel_pass would fail to load
    assert "note:" not in r.output


def test_lint_of_a_folder_shadowing_an_installed_game_says_which_it_read(shadowed):
    r = CliRunner().invoke(cli, ["lint", "kestrel_pass"])
    assert r.exit_code == 1  # the broken folder, not the installed game
    installed = installed_games()["kestrel_pass"]
    assert (f"note: reading the folder ./kestrel_pass (in the working directory), not the installed game "
            f"kestrel_pass ({installed}); name that folder to read the installed one") in r.output
    ok = CliRunner().invoke(cli, ["lint", str(installed)])
    assert ok.exit_code == 0 and "note:" not in ok.output, ok.output


def test_no_note_when_no_installed_game_has_the_folders_name(tmp_path, monkeypatch):
    shutil.copytree(GAMES / "kestrel_pass", tmp_path / "kp", ignore=shutil.ignore_patterns("golden", "__pycache__"))
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["lint", "kp"])
    assert r.exit_code == 0 and "note:" not in r.output and r.output.startswith("kp: ok — game kestrel_pass"), r.output


def test_ask_game_help_reads_a_folder_here_as_every_game_argument_does_and_says_so(shadowed):
    """``ask GAME --help`` lists GAME's questions: a folder here named as an installed game is read
    as by ``lint GAME`` (the folder, with the ``note:``), not the installed game silently."""
    r = CliRunner().invoke(cli, ["ask", "kestrel_pass", "--help"])
    installed = installed_games()["kestrel_pass"]
    assert r.exit_code == 0, r.output
    assert (f"note: reading the folder ./kestrel_pass (in the working directory), not the installed game "
            f"kestrel_pass ({installed}); name that folder to read the installed one") in r.output
    assert "(its game could not be loaded:" in r.output      # the broken folder, not the installed game
    ok = CliRunner().invoke(cli, ["ask", str(installed), "--help"])
    assert ok.exit_code == 0 and "note:" not in ok.output and "Questions of Kestrel Pass (kestrel_pass)" in ok.output


def test_a_folder_here_that_is_no_pack_does_not_shadow_the_installed_game(tmp_path, monkeypatch):
    """Session 18, a fresh user's report: an empty ``./moscow41`` made ``ask moscow41 --help`` print
    the generic help and ``lint moscow41`` answer "did you mean 'moscow41'?". A folder without
    ``game.yaml`` is no pack: the bare id is the installed game, with a note saying why."""
    (tmp_path / "kestrel_pass").mkdir()
    monkeypatch.chdir(tmp_path)
    installed = installed_games()["kestrel_pass"]
    note = (f"note: ./kestrel_pass (in the working directory) is no pack (no game.yaml in it): reading the "
            f"installed game kestrel_pass ({installed}); name the folder ./kestrel_pass to read it")
    r = CliRunner().invoke(cli, ["lint", "kestrel_pass"])
    assert r.exit_code == 0 and note in r.output and "did you mean" not in r.output, r.output
    h = CliRunner().invoke(cli, ["ask", "kestrel_pass", "--help"])
    assert h.exit_code == 0 and note in h.output and "Questions of Kestrel Pass (kestrel_pass)" in h.output, h.output
    named = CliRunner().invoke(cli, ["lint", "./kestrel_pass"])  # named as a folder: the folder, and what it lacks
    assert named.exit_code == 1 and "did you mean" not in named.output, named.output
    assert "no game.yaml in the folder ./kestrel_pass: not a content pack" in named.output
