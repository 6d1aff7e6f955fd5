"""Exit codes as documented (issue #19): 130 for an interrupted batch with its JSON written, 130
for a play stopped by Ctrl-C and 143 by SIGTERM (its outputs written), 1 for bad input; and
``python -m casebook.tools`` never imports a stray ``casebook/`` folder of the working directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _secutil import run

import casebook.tools.batch as batch_mod

ROOT = Path(__file__).resolve().parents[2]


def test_a_batch_interrupted_before_any_game_finishes_exits_130_with_its_json(tmp_path, monkeypatch):
    def interrupt_at_once(specs, backend=None, on_done=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(batch_mod, "run_batch", interrupt_at_once)
    out = tmp_path / "b.json"
    code, text = run("batch", "battle_for_moscow", "--games", "3", "--workers", "1", "--quiet", "--json", out)
    assert code == 130, text
    assert "interrupted: 0 of 3 games finished" in text and "no game finished" in text
    doc = json.loads(out.read_text())
    assert doc["interrupted"] is True and doc["arms"][0]["records"] == []


def _casebook() -> str:
    exe = Path(sys.executable).with_name("casebook")
    return str(exe) if exe.exists() else "casebook"


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_play_stopped_by_a_signal_exits_non_zero_and_writes_its_outputs(tmp_path, signum, code):
    # the child gets the default SIGINT disposition: a suite started in the background (nohup, a CI
    # runner without job control) passes SIGINT ignored to its children, and Python then installs no
    # KeyboardInterrupt handler — the play would rightly ignore Ctrl-C, as nohup asks
    proc = subprocess.Popen([_casebook(), "play", "moscow41", "campaign", "--out", str(tmp_path), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        proc.stdout.readline()  # the play has begun (its account is being printed)
        time.sleep(1.0)
        proc.send_signal(signum)
        rest, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, rest
    assert "Interrupted" in rest and (tmp_path / "final.yaml").is_file() and (tmp_path / "trace.jsonl").is_file()


def test_python_m_does_not_import_a_casebook_folder_of_the_working_directory(tmp_path):
    evil = tmp_path / "casebook" / "plugins"
    evil.mkdir(parents=True)
    (evil / "__init__.py").write_text("open('OWNED', 'w').write('code from the working directory ran')\n")
    scenario = ROOT / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "casebook.tools", "ask", str(scenario), "weather"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "OWNED").exists()


def test_bad_input_exits_1_with_one_line(tmp_path):
    trace = tmp_path / "t.jsonl"
    trace.write_text('{"seq": 0, "turn": 1, "phase": null, "step": null, "side": null, "kind": "setup", "cas')
    # replay and explain name the cut line as such (tests/test_rough_edges.py)
    for args, words in ((("replay", trace), "the line is cut short"), (("explain", trace, "0"), "the line is cut short")):
        code, out = run(*args)
        assert code == 1 and out.startswith(f"{trace}:1: ") and words in out, out
        assert len(out.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [
    ["play", "nosuchgame"], ["batch", "nosuchgame"], ["serve", "nosuchgame"], ["lint", "nosuchgame"],
    ["cases", "nosuchgame"], ["provenance", "nosuchgame"], ["rules", "check", "nosuchgame"],
    ["render", "nosuchgame", "-o", "x.svg"], ["mapfit", "nosuchgame", "--check"],
])
def test_an_unknown_game_is_a_usage_error_exit_2_in_every_command(args):
    """One convention (click's): a GAME that is neither an installed game nor a path exits 2 with
    the installed games named (``play nosuchgame`` exited 1 while ``batch`` exited 2)."""
    code, text = run(*args)
    assert code == 2, text
    assert "no game 'nosuchgame': expected an installed game id (battle_for_moscow, kestrel_pass, moscow41" in text


def test_a_folder_that_is_no_pack_is_a_content_error_exit_1(tmp_path):
    code, text = run("lint", tmp_path)
    assert code == 1 and "not a content pack" in text, text
