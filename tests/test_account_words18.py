"""The play account as a fresh user read it (session 18): a combat whose DRM terms add up past the
game's limit says the limit and its case on the combat's line (Moscow '41 10.4.5C: "The total
adjusted DRM can never be greater than +4 or less than -4"), not only ``explain``; ``quit`` with
nothing done since the last summary prints no empty turn-summary header."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.trace import Event
from casebook.tools.account import Narrator
from casebook.tools.cli import cli as main

RULES = Path("games/moscow41/rules")


def _combat(terms: list[int], drm: int, roll: int) -> Event:
    """A German attack's ``combat`` event as Moscow '41 records it: its DRM terms, the net DRM
    and the rule lines that made it (combat.rules:31 the ``clamp -4 to +4 by 10.4.5C`` line)."""
    return Event(seq=27, turn=3, phase="first_player", step="combat", side="german", kind="combat",
                 cases=("10.0D",), data={
                     "attackers": ["g-11pz-15"], "defenders": ["s-32a"], "attack_strength": 12, "defense_strength": 4,
                     "column": "3:1", "hex": "0415", "kind": "attack", "attacker_side": "german", "roll": roll,
                     "modified_roll": roll + drm, "result": "-/2", "drm": drm,
                     "terms": [{"case": "10.4.1A", "value": v, "source": "combat.rules:16"} for v in terms],
                     "lines": [{"source": "combat.rules:16", "cases": ["10.4.1A"]},
                               {"source": "combat.rules:31", "cases": ["10.4.5C"]}]})


@pytest.mark.case("10.4.5C")
def test_10_4_5C_the_account_line_shows_the_drm_limited_to_plus_4_with_its_case():
    """Terms +2, +1, +2 (support=3 beside the armor DRM) add up to +5; the DRM applied is +4."""
    assert (RULES / "combat.rules").read_text().splitlines()[30].strip() == "clamp -4 to +4 by 10.4.5C"
    line = Narrator(rules_dir=RULES).lines([_combat([2, 1, 2], 4, 7)])[1]
    assert "roll 7, DRM +5 limited to +4 (10.4.5C) → 11: -/2" in line
    below = Narrator(rules_dir=RULES).lines([_combat([2, 1], 3, 7)])[1]
    assert "roll 7, DRM +3 → 10: -/2" in below and "limited" not in below  # within the limit: as before



def test_quit_with_nothing_done_since_the_summary_prints_no_empty_summary():
    narrator = Narrator(rules_dir=RULES)
    narrator.lines([_combat([2], 2, 7)])
    assert narrator.summary()[0] == "--- Turn 3 summary"
    assert narrator.summary() == []  # nothing since: no header
    narrator.lines([Event(seq=30, turn=3, phase="first_player", step="combat", side="german", kind="advance")])
    assert narrator.summary() == []  # only bookkeeping since


def test_quit_at_once_after_loading_a_save_prints_no_turn_summary(tmp_path):
    """``play --load`` of a save at the German's turn, then ``quit`` at once: no "--- Turn 1 summary"."""
    save = tmp_path / "start.yaml"
    args = ["play", "moscow41", "october-blitz", "--player", "german=human", "--player", "soviet=bot:greedy",
            "--out", str(tmp_path / "out"), "--quiet"]
    r = CliRunner().invoke(main, args, input=f"save {save}\nquit\n")
    assert r.exit_code == 0, r.output
    assert "summary" not in r.output
    r = CliRunner().invoke(main, ["play", "--load", str(save), "--player", "german=human", "--out",
                                  str(tmp_path / "out2"), "--quiet"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "Game left unfinished." in r.output and "summary" not in r.output


def test_quit_at_once_after_loading_a_mid_turn_save_does_not_repeat_its_turn_summary(tmp_path):
    """Session 18, a fresh user's report: ``play --load`` of a save made after a decision, then
    ``quit`` at once, printed that turn's summary again (the one printed when the save was left).
    Nothing was played since the load: no summary; a decision played after it: the turn's summary."""
    save = tmp_path / "mid.yaml"
    humans = ["--player", "german=human", "--player", "soviet=human", "--quiet"]
    r = CliRunner().invoke(main, ["play", "moscow41", "october-blitz", *humans, "--out", str(tmp_path / "out")],
                           input=f"pass\nsave {save}\nquit\n")
    assert r.exit_code == 0, r.output
    assert "--- Turn 1 summary\n    german: 1 pass" in r.output  # left mid-turn: the turn so far
    load = ["play", "--load", str(save), *humans]
    r = CliRunner().invoke(main, [*load, "--out", str(tmp_path / "out2")], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "Game left unfinished." in r.output and "summary" not in r.output
    r = CliRunner().invoke(main, [*load, "--out", str(tmp_path / "out3")], input="pass\nquit\n")
    assert r.exit_code == 0, r.output
    assert "--- Turn 1 summary\n    german: 2 pass" in r.output  # played on: the turn's summary, as ever
