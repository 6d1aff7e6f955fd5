"""``casebook play --load`` of a save: a finished game says it is over and writes nothing (it
re-wrote the whole account, the trace and every turn's map — ~5 MB for a Moscow '41 Campaign —
each map drawn from the final position); a game resumed keeps the maps of the turns it had played."""

from __future__ import annotations

import json

import pytest
from test_input_bounds import run

from casebook.tools.cmd_play import run_play

GREEDY = {"blue": ("bot", "greedy"), "red": ("bot", "greedy")}


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A whole Kestrel Pass, greedy against greedy (seed 1), played into ``out/``."""
    root = tmp_path_factory.mktemp("finished")
    lines: list[str] = []
    run_play("kestrel_pass", "meeting", dict(GREEDY), 1, root / "out", echo=lines.append, progress=False)
    return root / "out", lines


def test_a_finished_game_loaded_says_who_won_by_which_case_and_writes_nothing(finished, tmp_path, monkeypatch):
    out, played = finished
    before = _files(out)
    monkeypatch.chdir(tmp_path)
    res = run("play", "--load", out / "final.yaml", "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    events = [json.loads(ln) for ln in (out / "trace.jsonl").read_text().splitlines()]
    over = next(e for e in reversed(events) if e["kind"] == "game-over")
    lines = res.output.strip().splitlines()
    assert lines[0] == f"{out / 'final.yaml'}: this game is over — nothing is left to play, nothing is written."
    winner = over["data"]["winner"]
    assert f"*** #{over['seq']} Game over: {winner} wins ({over['data']['level']})" in res.output
    assert over["cases"] and f"[{', '.join(over['cases'])}]" in res.output  # the case that ended it
    assert lines[-1] == next(ln.strip() for ln in played if ln.strip().startswith("Result: "))  # as played
    assert len(lines) <= 4 and "#1 " not in res.output  # not the whole account again
    assert _files(out) == before and list(tmp_path.iterdir()) == []  # nothing written, no out-2/
    assert not (out.parent / "out-2").exists()


def test_a_resumed_game_keeps_the_maps_of_the_turns_it_played(tmp_path):
    """Resumed, the play wrote every earlier turn's map again, drawn from the loaded position."""
    out = tmp_path / "out"
    state = run_play("kestrel_pass", "meeting", dict(GREEDY), 1, out, max_actions=32, echo=lambda s: None,
                     progress=False)
    assert state.data.turn >= 2 and not state.is_terminal()
    maps = {name: data for name, data in _files(out).items() if name.startswith("turn-")}
    assert "turn-01.svg" in maps
    res = run("play", "--load", out / "final.yaml", "--quiet", "--out", out)
    assert res.exit_code == 0 and "Result: " in res.output, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # went on in out/
    after = _files(out)
    for name, data in maps.items():
        if name != f"turn-{state.data.turn:02d}.svg":  # the turn it stopped in is mapped as it ends
            assert after[name] == data, name
