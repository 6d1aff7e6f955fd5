"""One confinement policy (issue #19, "files read outside the pack"): every path a pack, a
position or a trace names resolves inside the pack folder after symlinks, or it is a located
content error; no message echoes a file outside the pack."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from _secutil import run

from casebook.content.confine import confined_path, is_game_id, relpath_problem


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _rel(frm: Path, to: Path) -> str:
    return os.path.relpath(to, frm)


def test_relative_names_that_leave_the_folder_are_refused():
    assert relpath_problem("tables/crt.yaml") is None
    for bad in ("../x.yaml", "tables/../../x", "/etc/passwd", "C:/x", "a\\b", "", "a\x00b"):
        assert relpath_problem(bad) is not None, bad
    assert is_game_id("moscow41") and is_game_id("battle_for_moscow")
    assert not is_game_id("../moscow41") and not is_game_id("/tmp/pack") and not is_game_id(7)


def test_a_symlink_out_of_the_folder_is_refused(tmp_path, secret):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "t.yaml").symlink_to(secret)
    path, why = confined_path(tmp_path / "pack", "t.yaml")
    assert path is None and "outside" in why


def test_lint_refuses_a_table_outside_the_pack_and_never_prints_it(pack_copy, secret):
    _edit(pack_copy / "game.yaml", "tables: [tables/tec.yaml,", f"tables: [{_rel(pack_copy, secret)},")
    code, out = run("lint", pack_copy)
    assert code == 1 and "TOP-SECRET" not in out
    assert "mini/game.yaml:12:" in out and "tables.0" in out and "leave its folder" in out


def test_lint_refuses_a_symlinked_table_that_lives_outside_the_pack(pack_copy, secret):
    (pack_copy / "tables" / "evil.yaml").symlink_to(secret)
    _edit(pack_copy / "game.yaml", "tables: [tables/tec.yaml,", "tables: [tables/evil.yaml, tables/tec.yaml,")
    code, out = run("lint", pack_copy)
    assert code == 1 and "TOP-SECRET" not in out and "tables.0" in out and "outside" in out


@pytest.mark.parametrize("command", [("lint",), ("rules", "check")])
def test_rule_script_paths_out_of_the_pack_are_refused_by_lint_and_rules_check(pack_copy, secret, command):
    _edit(pack_copy / "game.yaml", "rules: []", f'rules: ["../../../../../../..{secret}"]')
    code, out = run(*command, pack_copy)
    assert code == 1 and "TOP-SECRET" not in out and "leave its folder" in out


@pytest.mark.parametrize("command", [("lint",), ("rules", "check")])
def test_an_absolute_rules_dir_is_refused(pack_copy, tmp_path, command):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "facts.yaml").write_text("TOP-SECRET-LINE: 1\n")
    (elsewhere / "x.rules").write_text("TOP-SECRET-LINE\n")
    _edit(pack_copy / "game.yaml", "rules: []", f"rules_dir: {elsewhere}\nrules: [x.rules]")
    code, out = run(*command, pack_copy)
    assert code == 1 and "TOP-SECRET" not in out and "rules_dir" in out


def test_a_scenario_outside_the_pack_is_refused(pack_copy, secret):
    _edit(pack_copy / "game.yaml", "scenarios: {skirmish: scenarios/skirmish.yaml}",
          f"scenarios: {{skirmish: ../{secret.name}}}")
    code, out = run("lint", pack_copy)
    assert code == 1 and "TOP-SECRET" not in out and "scenarios.skirmish" in out


def test_a_positions_game_is_a_game_id_not_a_path(pack_copy, tmp_path):
    pos = tmp_path / "pos.yaml"
    text = (pack_copy / "scenarios" / "skirmish.yaml").read_text().replace("game: mini", f"game: {pack_copy}")
    pos.write_text(text)
    code, out = run("ask", pos, "weather")
    assert code == 1 and "pos.yaml:3:1: game: expected a game id" in out


def test_a_traces_game_is_a_game_id_not_a_path(tmp_path, mini_pack):
    setup = {"seq": 0, "turn": 1, "phase": None, "step": None, "side": None, "kind": "setup", "cases": [],
             "source": "driver", "data": {"game": str(mini_pack), "scenario": "skirmish", "seed": 1}}
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps(setup) + "\n")
    code, out = run("replay", trace)
    assert code == 1 and "t.jsonl:1: setup: game must be a game id" in out


def test_explain_refuses_a_traces_game_that_is_a_path(tmp_path, mini_pack):
    setup = {"seq": 0, "turn": 1, "phase": None, "step": None, "side": None, "kind": "setup", "cases": ["1.4"],
             "source": "driver", "data": {"game": str(mini_pack), "scenario": "skirmish", "seed": 1}}
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps(setup) + "\n")
    code, out = run("explain", trace, "0")
    assert code == 1 and "the setup event's game must be a game id" in out


def test_lint_refuses_a_private_plugin_module_the_engine_would_refuse(pack_copy):
    _edit(pack_copy / "game.yaml", "plugins: []", "plugins: [_combat_odds]")
    code, out = run("lint", pack_copy)
    assert code == 1 and "plugins.0" in out and "private _module" in out
