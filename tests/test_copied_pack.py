"""A designer's copied and edited pack is the one the tools use: `ask` on a position inside it
reads its charts, `play` runs it, and `replay --pack` re-executes a game played from it (the
installed game would diverge, and replay says how to name the pack)."""

from __future__ import annotations

import json
import re
import shutil

from click.testing import CliRunner

from casebook.tools.cli import cli as main

BFM = "content/battle_for_moscow"


def _copy_with_all_de(repo_root, tmp_path):
    """The Battle for Moscow pack copied, every CRT cell turned into DE (defender eliminated)."""
    pack = tmp_path / "bfm"
    shutil.copytree(repo_root / BFM, pack)
    crt = pack / "tables" / "crt.yaml"
    text = crt.read_text(encoding="utf-8")
    head, cells = text.split("cells:", 1)
    crt.write_text(head + "cells:" + re.sub(r"\b(AL|DRL|DR|EX|NE)\b", "DE", cells), encoding="utf-8")
    return pack


def test_ask_play_and_replay_use_the_copied_pack(repo_root, tmp_path, monkeypatch):
    monkeypatch.chdir(repo_root)
    pack = _copy_with_all_de(repo_root, tmp_path)
    run = CliRunner().invoke
    ask = ["attack", "0304", "--with", "g-ix,g-xl-pz", "--json"]

    installed = json.loads(run(main, ["ask", f"{BFM}/scenarios/campaign.yaml", *ask]).output)
    copied = run(main, ["ask", str(pack / "scenarios" / "campaign.yaml"), *ask])
    assert copied.exit_code == 0, copied.output
    assert [o["result"] for o in installed["outcomes"]] == ["DR", "DR", "DR", "EX", "EX", "DRL"]
    assert [o["result"] for o in json.loads(copied.output)["outcomes"]] == ["DE"] * 6

    out = tmp_path / "out"
    played = run(main, ["play", str(pack), "--out", str(out), "--quiet"])
    assert played.exit_code == 0, played.output
    trace = str(out / "trace.jsonl")
    wrong = run(main, ["replay", trace])
    assert wrong.exit_code == 1 and "--pack DIR" in wrong.output
    right = run(main, ["replay", trace, "--pack", str(pack)])
    assert right.exit_code == 0, right.output
    assert "replayed identically" in right.output
    other = run(main, ["replay", trace, "--pack", str(repo_root / "content" / "moscow41")])
    assert other.exit_code == 1 and "a pack of 'moscow41'" in other.output


def test_play_refuses_an_unknown_scenario_as_a_usage_error():
    r = CliRunner().invoke(main, ["play", "battle_for_moscow", "blitz"])
    assert r.exit_code == 2
    assert "has no scenario 'blitz' (scenarios: campaign)" in r.output
