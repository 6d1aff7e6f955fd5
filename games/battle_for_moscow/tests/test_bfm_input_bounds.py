"""Bounds on what a Battle for Moscow player or rules lawyer types (#18, the trials): a die roll
its one combat die cannot show, a save's turn past the campaign's seven."""

from __future__ import annotations

import pytest

from tests.test_input_bounds import run

BFM = "games/battle_for_moscow/scenarios/campaign.yaml"


@pytest.mark.case("BM8.4")
def test_BM8_4_battle_for_moscow_combat_is_one_die_so_a_roll_is_1_to_6():
    res = run("ask", BFM, "attack", "0304", "--with", "g-ix,g-xl-pz", "--roll", "7")
    assert res.exit_code == 2 and "--roll 7: the combat dice (1 × d6, by BM8.4) roll 1-6" in res.output  # usage
    res = run("ask", BFM, "attack", "0304", "--with", "g-ix,g-xl-pz", "--roll", "6")
    assert res.exit_code == 0 and "result: roll 6, modified_roll 6, result DRL" in res.output


@pytest.fixture(scope="module")
def bfm_save(tmp_path_factory):
    """A Battle for Moscow save after 6 greedy decisions (scenario ``campaign``, turns 1-7)."""
    from casebook.tools.cmd_play import run_play

    out = tmp_path_factory.mktemp("save") / "out"
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "greedy")}
    run_play("battle_for_moscow", "campaign", players, 1, out, max_actions=6, echo=lambda s: None, progress=False)
    text = (out / "final.yaml").read_text(encoding="utf-8")
    assert "  last_turn: 7\n" in text and "\nturn:" not in text  # turn 1: the default, left out
    return text


@pytest.mark.case("BM1.2")
@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("\nphase:", "\nturn: 999\nphase:", 1), "turn: turn 999 is outside the scenario's turns 1-7"),
    (lambda t: t.replace("\nphase:", "\nturn: 0\nphase:", 1), "turn: turn 0 is outside the scenario's turns 1-7"),
    (lambda t: t.replace("  last_turn: 7\n", "  last_turn: 999\n").replace("\nphase:", "\nturn: 12\nphase:", 1),
     "scenario.last_turn: scenario 'campaign' of battle_for_moscow has last_turn 7, the save says 999"),
])
def test_BM1_2_a_save_cannot_play_past_the_scenarios_seven_turns(tmp_path, bfm_save, edit, message):
    """The campaign is seven turns (BM1.2; scenario ``last_turn: 7``): a save's turn is bounded by
    them, and a save cannot lengthen them; refused by play --load and by ask alike."""
    save = tmp_path / "edited.yaml"
    save.write_text(edit(bfm_save), encoding="utf-8")
    for args in (("play", "--load", save, "--out", tmp_path / "o", "--quiet"), ("ask", save, "zoc", "0303")):
        res = run(*args)
        assert res.exit_code == 1 and message in res.output, res.output
    good = tmp_path / "good.yaml"
    good.write_text(bfm_save.replace("\nphase:", "\nturn: 7\nphase:", 1), encoding="utf-8")
    assert run("ask", good, "zoc", "0303").exit_code == 0
