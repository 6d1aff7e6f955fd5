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
