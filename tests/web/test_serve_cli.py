"""The ``casebook serve`` command: it prints its loopback address and serves the page; bad options
are refused with a one-line message before anything is served."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

from click.testing import CliRunner

from casebook.tools.cli import cli


def test_serve_prints_a_loopback_address_and_serves_the_game(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "casebook.tools", "serve", "battle_for_moscow",
                             "--player", "soviet=human"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("Casebook serves battle_for_moscow campaign (german=bot:greedy, soviet=human) at "
                               "http://127.0.0.1:"), line + proc.stderr.read() if proc.poll() is not None else line
        url = line.rsplit(" at ", 1)[1].strip()
        with urllib.request.urlopen(url + "api/state", timeout=30) as r:
            state = json.load(r)
        assert state["players"] == {"german": "bot:greedy", "soviet": "human"}
        with urllib.request.urlopen(url, timeout=30) as r:
            assert b'<script src="/static/app.js">' in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_refuses_an_unknown_side_and_a_save_outside_the_served_folder(tmp_path):
    runner = CliRunner()
    bad = runner.invoke(cli, ["serve", "battle_for_moscow", "--player", "blue=human"])
    assert bad.exit_code == 2 and "battle_for_moscow has no side blue (sides: german, soviet)" in bad.output
    kind = runner.invoke(cli, ["serve", "battle_for_moscow", "--player", "german=wizard"])
    assert kind.exit_code == 2 and "expected one of human, bot:random, bot:greedy, bot:planner" in kind.output
    outside = runner.invoke(cli, ["serve", "battle_for_moscow", "--load", "/etc/hostname", "--root", str(tmp_path)])
    assert outside.exit_code == 1 and "/etc/hostname: outside the served folders" in outside.output


def _kestrel_save(tmp_path):
    """A Kestrel Pass save (its trace beside it) that recorded bots on both sides."""
    from casebook.core.game import Game
    from casebook.tools.saves import write_save

    state = Game.load("kestrel_pass", "meeting").new_initial_state(1)
    state.data.set_players({"blue": "bot:greedy", "red": "bot:random"})
    write_save(state, tmp_path / "kp.yaml")
    return tmp_path / "kp.yaml"


def test_serve_load_takes_the_game_and_players_from_the_save_as_play_load_does(tmp_path):
    from casebook.tools.cmd_serve import build_session

    save = _kestrel_save(tmp_path)
    session = build_session(None, None, {}, load="kp.yaml", root=tmp_path)  # no GAME: the save's
    assert (session.game.engine.pack.id, session.game.scenario) == ("kestrel_pass", "meeting")
    assert session.players == {"blue": "bot:greedy", "red": "bot:random"}  # as the save recorded
    named = build_session(None, None, {"red": "human"}, load=str(save), root=tmp_path)
    assert named.players == {"blue": "bot:greedy", "red": "human"}  # --player overrides a side
    wrong = CliRunner().invoke(cli, ["serve", "moscow41", "--load", str(save), "--root", str(tmp_path)])
    assert wrong.exit_code == 2 and "is a save of 'kestrel_pass', not of 'moscow41'" in wrong.output


def test_serve_load_of_a_position_without_a_scenario_labels_it_by_its_file(tmp_path):
    """A fresh user's report (session 19): ``serve --load`` of a hand-made position (no ``scenario:``,
    docs/examples/attack.yaml) called it "October Blitz". The page, its map title and serve's first line
    now say what the position says: no scenario, so ``position attack.yaml``; a save of a scenario keeps
    its name (``meeting``)."""
    import shutil
    from pathlib import Path

    from starlette.testclient import TestClient

    from casebook.tools.cmd_serve import build_session
    from casebook.tools.web.app import make_app

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "attack.yaml"
    assert "scenario:" not in example.read_text(encoding="utf-8")
    shutil.copy(example, tmp_path / "attack.yaml")
    session = build_session(None, None, {"german": "human"}, load="attack.yaml", root=tmp_path)
    assert session.label == "position attack.yaml"
    client = TestClient(make_app(session))
    assert client.get("/api/state").json()["scenario"] == "position attack.yaml"
    assert "Moscow '41 — position attack.yaml" in client.get("/api/board").json()["svg"]
    assert build_session(None, None, {}, load=str(_kestrel_save(tmp_path)), root=tmp_path).label == "meeting"
