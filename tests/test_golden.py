"""Golden playthroughs (casebook.tools.golden): each committed trace is replayed byte for byte.

A failure here means the engine plays differently. If that is intended (a rule fix, a documented
ordering), regenerate with ``casebook golden --write``, review the diff, and say why in the commit.
"""

from __future__ import annotations

import pytest

from casebook.tools.golden import GOLDEN, first_difference, golden_dir, play_golden

pytestmark = pytest.mark.golden


def test_golden_files_are_exactly_the_listed_games() -> None:
    games = sorted({g.game for g in GOLDEN})
    on_disk = {f"{game}/{p.name}" for game in games for p in golden_dir(game).glob("*.jsonl")}
    listed = {g.name for g in GOLDEN}
    assert on_disk == listed, f"missing: {sorted(listed - on_disk)}; unused: {sorted(on_disk - listed)}"


def test_golden_covers_every_scenario_with_three_seeds_and_both_bots() -> None:
    from casebook.core.game import Game

    for game in ("moscow41", "battle_for_moscow", "kestrel_pass"):
        pack = Game.load(game).engine.pack  # its first scenario
        for scenario in pack.scenarios:
            mine = [g for g in GOLDEN if g.game == game and g.scenario == scenario]
            assert len({g.seed for g in mine}) >= 3, (game, scenario)
            assert {g.kind for g in mine} == {"greedy", "random"}, (game, scenario)


@pytest.mark.parametrize("spec", GOLDEN, ids=[g.name for g in GOLDEN])
def test_golden_playthrough(spec) -> None:
    expected = spec.path.read_text(encoding="utf-8")
    actual = play_golden(spec)
    assert actual == expected, first_difference(expected, actual)


def test_first_difference_names_the_line() -> None:
    assert first_difference("a\nb\n", "a\nb\n") == ""
    assert "line 2" in first_difference("a\nb\nc\n", "a\nx\nc\n")
    assert "golden has 2 lines, now 1" in first_difference("a\nb\n", "a\n")


def test_the_golden_games_come_from_the_manifests_no_python_to_edit(tmp_path) -> None:
    """A new game folder gets its playthroughs from its manifest's scenarios (issue #14: a port
    touches no Python): a copy of Kestrel Pass with a second scenario lists 2 x 3 games, traced in
    the copy's own golden/ folder."""
    import shutil

    from casebook.tools.golden import RUNS, golden_games

    pack = tmp_path / "kp"
    shutil.copytree(golden_dir("kestrel_pass").parent, pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    shutil.copy(pack / "scenarios" / "meeting.yaml", pack / "scenarios" / "rematch.yaml")
    manifest = (pack / "game.yaml").read_text(encoding="utf-8")
    (pack / "game.yaml").write_text(manifest.replace("  meeting: scenarios/meeting.yaml",
                                                     "  meeting: scenarios/meeting.yaml\n  rematch: scenarios/rematch.yaml"),
                                    encoding="utf-8")
    specs = golden_games({"kestrel_pass": pack}, own_folder=True)
    assert [(g.scenario, g.seed, g.kind) for g in specs] == [(s, seed, kind) for s in ("meeting", "rematch")
                                                              for seed, kind in RUNS]
    assert specs[0].path == pack / "golden" / "meeting-greedy-seed1.jsonl"
    assert RUNS == ((1, "greedy"), (2, "greedy"), (3, "random"))


def test_golden_pack_writes_and_then_compares_a_copied_packs_own_traces(tmp_path) -> None:
    import shutil

    from click.testing import CliRunner

    from casebook.tools.cli import cli

    pack = tmp_path / "kp"
    shutil.copytree(golden_dir("kestrel_pass").parent, pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    first = CliRunner().invoke(cli, ["golden", "--pack", str(pack), "--only", "greedy-seed1"])
    assert first.exit_code == 1 and "new      kestrel_pass/meeting-greedy-seed1.jsonl" in first.output, first.output
    written = CliRunner().invoke(cli, ["golden", "--pack", str(pack), "--only", "greedy-seed1", "--write"])
    assert written.exit_code == 0, written.output
    installed = golden_dir("kestrel_pass") / "meeting-greedy-seed1.jsonl"
    assert (pack / "golden" / "meeting-greedy-seed1.jsonl").read_text() == installed.read_text()
    again = CliRunner().invoke(cli, ["golden", "--pack", str(pack), "--only", "greedy-seed1"])
    assert again.exit_code == 0 and "same     kestrel_pass/meeting-greedy-seed1.jsonl" in again.output


def test_golden_only_matching_nothing_is_a_usage_error() -> None:
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    r = CliRunner().invoke(cli, ["golden", "--only", "nosuch"])
    assert r.exit_code == 2 and "no golden playthrough matches 'nosuch'" in r.output
    assert "battle_for_moscow, kestrel_pass, moscow41" in r.output
