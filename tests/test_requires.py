"""What a pack must hold for the plugins it lists (src/casebook/content/requires.py, issue #14 item 6):
each plugin's ``REQUIRES`` (tables, rule-script quantities) and its ``VICTORY_SCHEMA`` (the
scenario's ``victory:`` block) — reported by ``casebook lint`` at ``file:line:column``, and
``play`` refuses the pack with the same error instead of failing mid-game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.content.requires import requirements_of
from casebook.tools.cli import cli, main

GAMES = Path(__file__).resolve().parent.parent / "games"


def _bfm(tmp_path: Path, name: str = "bfm") -> Path:
    dest = tmp_path / name
    shutil.copytree(GAMES / "battle_for_moscow", dest, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    return dest


def _line(path: Path, text: str) -> int:
    return next(i for i, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in t)


def _lint_and_play(pack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """The output of ``casebook lint PACK`` (exit 1) and of ``casebook play PACK`` through the
    console script's entry point (exit 1, the message on stderr, no traceback)."""
    lint = CliRunner().invoke(cli, ["lint", str(pack)])
    assert lint.exit_code == 1, lint.output
    with pytest.raises(SystemExit) as exc:
        main(["play", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    assert exc.value.code == 1
    return lint.output, capsys.readouterr().err


def test_the_shared_areas_declare_what_they_read():
    assert requirements_of("combat")["tables"] == ("crt",)
    assert "zoc_column" in requirements_of("zoc")["quantities"]
    assert requirements_of("no-such-plugin") == {"tables": (), "quantities": (), "permissions": ()}


def test_a_pack_without_rule_scripts_fails_lint_and_play_refuses_it_with_the_same_error(tmp_path, capsys):
    pack = _bfm(tmp_path)
    shutil.rmtree(pack / "rules")
    for path in [pack / "game.yaml", *sorted((pack / "scenarios").glob("*.yaml"))]:  # not the installed game
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("id: battle_for_moscow", "id: bfm_bare").replace(
            "game: battle_for_moscow", "game: bfm_bare"), encoding="utf-8")
    lint, play = _lint_and_play(pack, tmp_path, capsys)
    line = _line(pack / "game.yaml", "plugins:")
    expected = (f"game.yaml:{line}:1: plugins: the pack has no rule scripts (no rules/ folder, or no *.rules in it; "
                "a pack reads only its own files): plugins zoc, combat, area_movement, area_results need them")
    assert expected in lint and expected in play
    assert "Traceback" not in play


def test_a_missing_table_fails_lint_and_play_refuses_it_with_the_same_error(tmp_path, capsys):
    pack = _bfm(tmp_path)
    manifest = pack / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("  - tables/unit_steps.yaml\n", ""),
                        encoding="utf-8")
    lint, play = _lint_and_play(pack, tmp_path, capsys)
    expected = "plugins.4: plugin 'area_results' needs the table 'unit_steps': the pack has no table 'unit_steps'"
    assert expected in lint and expected in play
    assert f"game.yaml:{_line(manifest, 'plugins:')}:" in lint
    assert "Traceback" not in play


def test_a_scenario_s_victory_block_is_typed_by_its_victory_plugin(tmp_path):
    """Battle for Moscow's (BM10.1) block: a misspelt key and an unknown edition are located.
    (Not marked with the case: Battle for Moscow's case tests live in games/battle_for_moscow/tests/.)"""
    pack = _bfm(tmp_path)
    scenario = pack / "scenarios" / "campaign.yaml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace('    hexes: ["1103"]', '    hexs: ["1103"]').replace("rule: original", "rule: newest"),
                        encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert (f"campaign.yaml:{_line(scenario, 'hexs:')}:5: scenario.victory.hexs: unknown key 'hexs' "
            "(did you mean 'hexes'?)") in out.output
    assert "scenario.victory.rule: expected 'original' or 'later', got 'newest'" in out.output


@pytest.mark.case("17.1")
def test_17_1_the_campaign_s_points_block_is_typed(tmp_path):
    """Moscow '41's victory plugin declares both shapes of its block (17.0-17.4, 18.1.3): both
    shipped scenarios pass, a misspelt term is located with a suggestion."""
    from casebook.content.loader import load_pack
    from casebook.content.position import load_position
    from casebook.core.errors import PositionError

    pack = load_pack(GAMES / "moscow41")
    for sid in ("campaign", "october-blitz"):
        assert pack.scenario(sid).scenario.victory
    path = tmp_path / "campaign.yaml"
    path.write_text(pack.scenarios["campaign"].read_text(encoding="utf-8").replace("vp_per_ip: 2", "vp_per_ipp: 2"),
                    encoding="utf-8")
    with pytest.raises(PositionError) as exc:
        load_position(path, pack=pack)
    assert "scenario.victory.terrain.vp_per_ipp: unknown key 'vp_per_ipp' (did you mean 'vp_per_ip'?)" in str(exc.value)


def _copied_pack_with_trace(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of Battle for Moscow whose case index retitles BM4.3A, with the first events of a
    golden trace saved inside it (as ``casebook play`` run there writes ``out/trace.jsonl``)."""
    pack = _bfm(tmp_path)
    cases = pack / "cases.yaml"
    text = cases.read_text(encoding="utf-8")
    title = text.split('id: "BM4.3A"', 1)[1].split('title: "', 1)[1].split('"', 1)[0]
    cases.write_text(text.replace(title, "Retitled in the copy"), encoding="utf-8")
    trace = pack / "out" / "trace.jsonl"
    trace.parent.mkdir()
    lines = (GAMES / "battle_for_moscow" / "golden" / "campaign-greedy-seed1.jsonl").read_text(encoding="utf-8")
    trace.write_text("".join(lines.splitlines(keepends=True)[:6]), encoding="utf-8")
    return pack, trace


def test_explain_reads_the_pack_the_trace_was_played_from(tmp_path):
    pack, trace = _copied_pack_with_trace(tmp_path)
    out = CliRunner().invoke(cli, ["explain", str(trace), "1"])
    assert out.exit_code == 0, out.output
    assert "case BM4.3A: Retitled in the copy" in out.output               # the copy above the trace
    installed = CliRunner().invoke(cli, ["explain", str(trace), "1", "--pack", str(GAMES / "battle_for_moscow")])
    assert "Retitled" not in installed.output and "case BM4.3A: " in installed.output
    other = CliRunner().invoke(cli, ["explain", str(trace), "1", "--pack", str(GAMES / "moscow41")])
    assert other.exit_code == 1 and "is a pack of 'moscow41'; the trace" in other.output


def test_cases_reads_the_pack_of_a_trace_or_position(tmp_path):
    import json

    pack, trace = _copied_pack_with_trace(tmp_path)
    for given in (trace, pack / "scenarios" / "campaign.yaml"):
        out = CliRunner().invoke(cli, ["cases", str(given), "--json"])
        assert out.exit_code == 0, out.output
        rows = {r["case"]: r for r in json.loads(out.output)["cases"]}
        assert rows["BM4.3A"]["title"] == "Retitled in the copy"
    bad = tmp_path / "nothing.yaml"
    bad.write_text("kind: position\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["cases", str(bad)])
    assert out.exit_code == 1 and "names no game" in out.output


@pytest.mark.case("1.4")
def test_1_4_a_track_bound_naming_a_quantity_the_scripts_lack_fails_lint(tmp_path):
    """Moscow '41's IP maximum is the script's ``ip_total … at most 99 by 1.4`` (one source): a
    manifest naming a quantity no script defines is refused at its line, with a suggestion."""
    from casebook.content.requires import track_bound_problems
    from casebook.content.tracks import TrackDecl

    pack = _bfm(tmp_path)
    manifest = pack / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "  hex_sets: [moscow]", "  hex_sets: [moscow]\n  tracks:\n    vp: {high: stacking_limt, provenance: \"reconstructed: a test\"}"),
        encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert (f"game.yaml:{_line(manifest, 'stacking_limt')}:") in out.output
    assert ("vocabulary.tracks.vp.high: the track's maximum is the rule-script quantity 'stacking_limt', "
            "which no rule script defines (did you mean 'stacking_limit'?)") in out.output
    from casebook.script.engine import load_engine

    rules = load_engine("moscow41").rules
    assert track_bound_problems({"ip": TrackDecl("ip", ("side",), 0, "ip_total")}, rules, lambda kp: ("g", 1, 1)) == []
