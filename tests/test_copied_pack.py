"""A designer's copied and edited pack is the one the tools use: `ask` on a position inside it
reads its charts, `play` runs it, and `replay --pack` re-executes a game played from it (the
installed game would diverge, and replay says how to name the pack)."""

from __future__ import annotations

import json
import re
import shutil

from click.testing import CliRunner

from casebook.tools.cli import cli as main

BFM = "games/battle_for_moscow"


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
    found = run(main, ["replay", trace])  # final.yaml beside it records the copied pack's folder
    assert found.exit_code == 0 and "replayed identically" in found.output, found.output
    (out / "final.yaml").rename(out / "kept.yaml")  # without it: the installed game, which differs
    wrong = run(main, ["replay", trace])
    assert wrong.exit_code == 1 and "--pack DIR" in wrong.output
    right = run(main, ["replay", trace, "--pack", str(pack)])
    assert right.exit_code == 0, right.output
    assert "replayed identically" in right.output
    other = run(main, ["replay", trace, "--pack", str(repo_root / "games" / "moscow41")])
    assert other.exit_code == 1 and "a pack of 'moscow41'" in other.output


def test_play_refuses_an_unknown_scenario_as_a_usage_error():
    r = CliRunner().invoke(main, ["play", "battle_for_moscow", "blitz"])
    assert r.exit_code == 2
    assert "has no scenario 'blitz' (scenarios: campaign)" in r.output


def test_a_reading_whose_default_is_changed_in_the_register_is_played(repo_root, tmp_path):
    """A modder changes a reading by editing the interpretations register's ``value`` (no
    Python): a game of the copied pack starts with it (a setting the scenario does not name),
    plays by it, and a saved position without settings resumes with the register's defaults."""
    from casebook.core.game import Game
    pack = tmp_path / "m41"
    shutil.copytree(repo_root / "games" / "moscow41", pack)
    register = pack / "interpretations.yaml"
    text = register.read_text(encoding="utf-8")
    assert "setting: {name: road_bridges, value: bridged," in text
    register.write_text(text.replace("setting: {name: road_bridges, value: bridged,",
                                     "setting: {name: road_bridges, value: river_added,"), encoding="utf-8")
    installed = Game.load("moscow41", "october-blitz").new_initial_state(1)
    copied = Game.load(str(pack), "october-blitz").new_initial_state(1)
    assert installed.data.setting("road_bridges") == "bridged"
    assert copied.data.setting("road_bridges") == "river_added"
    saved = copied.to_dict()
    del saved["settings"]
    resumed = Game.load(str(pack), "october-blitz").state_from_dict(saved)
    assert resumed.data.setting("road_bridges") == "river_added"
    # and it is played by: a road move across a river costs more without the bridge (9.2B)
    ctx_i, ctx_c = installed.ctx(), copied.ctx()
    differs = [(a, b) for a, b in installed.game.engine.board.graph.edges
               if installed.game.engine.board.side(a, b).road and installed.game.engine.board.side(a, b).river]
    assert differs
    from casebook.core.hexgrid import hex_label
    uid = next(u["id"] for u in installed.data.units if u.get("hex") and u["class"] == "infantry")
    a, b = differs[0]

    def cost(ctx):
        return ctx.hook.casebook_move_cost(ctx=ctx, units=[uid], from_hex=hex_label(a),
                                           to_hex=hex_label(b), mode="supply")["mp"]
    assert cost(ctx_c) > cost(ctx_i)
