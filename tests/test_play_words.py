"""Player-facing words (session 13, the second fresh-user trial): the turn summary counts every
loss the trace records — inside a combat's results (attack or overrun), a step lost, a unit
eliminated — and the account and ``explain`` print words, never a Python or JSON form."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from casebook.tools.account import narrate_all
from casebook.tools.cli import cli as main
from casebook.tools.cmd_replay import read_whole

BLITZ3 = Path("games/moscow41/golden/october-blitz-random-seed3.jsonl")
BLITZ1 = Path("games/moscow41/golden/october-blitz-greedy-seed1.jsonl")
BFM1 = Path("games/battle_for_moscow/golden/campaign-greedy-seed1.jsonl")


def _summary_of(path: Path, turn: int) -> list[str]:
    text = narrate_all(list(read_whole(path)))
    start = text.index(f"--- Turn {turn} summary")
    end = next(i for i in range(start + 1, len(text)) if not text[i].startswith("    "))
    return text[start + 1:end]


def test_turn_summary_counts_the_losses_of_combat_results():
    """Turn 1 of the seed-3 Blitz: the German attack on 3111 (#474, F1/-: g-ir-10 fatigued and its
    1-loss) and the Soviet attack on 0515 (#1211, 1/F: s-148tb's 1-loss) record their losses only
    among the combat-results effects (golden traces regenerated in session 19: the setup moved)."""
    lines = _summary_of(BLITZ3, 1)
    soviet = next(ln for ln in lines if ln.strip().startswith("soviet:"))
    german = next(ln for ln in lines if ln.strip().startswith("german:"))
    assert "losses: 1 (s-148tb 1-loss)" in soviet
    assert "losses: 1 (g-ir-10 1-loss)" in german


def test_turn_summary_counts_step_losses_and_eliminations():
    """Battle for Moscow records a combat's losses as step-loss and eliminated events."""
    lines = _summary_of(BFM1, 2)
    german = next(ln for ln in lines if ln.strip().startswith("german:"))
    soviet = next(ln for ln in lines if ln.strip().startswith("soviet:"))
    assert "losses: 2 (g-xlvii-pz step loss, g-xlii eliminated)" in german
    assert "losses: 4 (s-19a eliminated, s-50a eliminated, s-20a eliminated, s-13a eliminated)" in soviet


def test_account_prints_flags_and_effects_in_words():
    text = "\n".join(narrate_all(list(read_whole(BLITZ1))))
    for raw in ("True", "False", "{…}", "{'", "'}"):
        assert raw not in text, raw
    assert "weather-fixed: step: temperature; temperature: warm; fixed: yes" in text
    assert ("#1284  german: combat-results: effects: fatigue negated (side german; ips 1) · unit s-149rd: loss "
            "(remnant, replaced by s-rem-01) · unit s-148tb: loss (1-loss), remnant, replaced by s-rem-02") in text


def test_explain_prints_the_data_in_words():
    out = CliRunner().invoke(main, ["explain", str(BLITZ3), "2431"])
    assert out.exit_code == 0, out.output
    assert "combat: (hex: 3012; attackers: s-246rd, s-252rd, s-29a; defenders: g-26id;" in out.output
    assert "effects: unit s-246rd: 1-loss · retreat (units g-26id; path 3113)" in out.output
    data = out.output[out.output.index("  data: "):]
    assert "{" not in data and "[" not in data and '"' not in data
