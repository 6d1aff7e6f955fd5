"""The play prompt as a player meets it (session 13, the second fresh-user trial): a refusal says
the refusal and a one-line hint, not the position and its actions again; an attack typed outside
the combat step says first where attacks are made (the sequence's case); the help reads plainly."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main
from casebook.tools.human import HINT


def _play(tmp_path, typed: str) -> str:
    args = ["play", "moscow41", "october-blitz", "--player", "german=human", "--player", "soviet=bot:greedy",
            "--out", str(tmp_path / "out"), "--quiet"]
    r = CliRunner().invoke(main, args, input=typed + "quit\n")
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.case("0.7.3.3")
def test_0_7_3_3_an_attack_typed_in_a_movement_step_says_the_step_first_and_no_menu_again(tmp_path):
    """Turn 1: the German passes its Command Step (0.7.3.1) into Step 7 (unactivated movement,
    0.7.3.7) and types an attack: the refusal names Step 3 (Combat, 0.7.3.3) before the attack's
    own refusal (10.1A), and the prompt comes back with the hint, not the header and templates."""
    out = _play(tmp_path, "pass\nattack hex=1214 with=g-263id\n")
    refusal = out.split("german> refused: ", 1)[1].splitlines()
    assert refusal[0].startswith("illegal action 'german: attack hex=1214 with=g-263id': attack is made in the "
                                 "combat step (Step 3: Combat, 0.7.3.3)")
    assert refusal[0].endswith("(0.7.3.3, 0.7.3.5, 0.7.3.7, 10.1A, 0.7.3.3A)")
    assert HINT in refusal[:3]
    assert out.count("unactivated_movement · german to decide") == 1  # shown once, not after the refusal


@pytest.mark.case("8.1A")
def test_8_1A_a_refused_activation_and_bad_input_say_the_hint_not_the_menu(tmp_path):
    """Turn 1, the German Command Step: g-ix cannot activate 3809 (8.1A: beyond its radius), an empty ``hq=`` and a
    misspelt kind are refused as input — each says its refusal and the hint; the header and the
    templates are shown once."""
    out = _play(tmp_path, "activate-hq hq=g-ix stacks=3809\nactivate-hq hq= stacks=1213\nmvoe stack=0116\n")
    after = out.split("german> ", 1)[1].splitlines()
    assert after[0].startswith("refused: illegal action 'german: activate-hq hq=g-ix stacks=3809': ")
    assert after[0].endswith("beyond the 3 hexes of its command radius (8.1A, 0.2.4.8)")
    assert after[1].startswith("  lines: command.rules:31 ") and after[2] == HINT
    assert after[3:5] == ["german> refused: hq= is empty: name at least one unit after it, or leave hq= out", HINT]
    assert after[5].startswith("german> refused: unknown action mvoe; did you mean move?") and after[6] == HINT
    assert "error:" not in out and out.count("command · german to decide") == 1
    assert out.count("or type one of these with your own values") == 1


def test_the_help_says_in_plain_words_which_arguments_may_be_left_out(tmp_path):
    out = _play(tmp_path, "help\n")
    assert ("(the side may be left out, and so may an argument when only one listed action matches the rest\n"
            "of what you typed), or a command:") in out
    assert "alike" not in out


@pytest.mark.case("0.7.3.2", "0.7.3.3", "0.7.3.5")
def test_0_7_3_2_an_attack_typed_in_an_activated_movement_step_names_the_step_in_play_why_and_ask(tmp_path):
    """Session 18, a fresh user's report: after activating an HQ (0.7.3.1) the German Movement Step
    (0.7.3.2) offers move, overrun, pass and hedgehog; an attack typed there was "unknown action
    attack". It is refused — by play, by play's ``why`` and by ``casebook ask … why`` alike — naming
    the steps attacks are made in (0.7.3.3, 0.7.3.5) and the step it was typed in."""
    where = ("attack is made in the combat step (Step 3: Combat, 0.7.3.3) or the reaction_attacks step (Step 5: "
             "Reaction Attacks, 0.7.3.5), not in the movement step (0.7.3.2)")
    attack = "attack hex=0415 with=g-11pz-15"
    save = tmp_path / "movement.yaml"
    out = _play(tmp_path, f"activate-hq hq=g-xxxxvi-pz stacks=0316,0215,0315\n{attack}\nwhy {attack}\nsave {save}\n")
    after = out.split(f"german> refused: illegal action 'german: {attack}': ", 1)[1].splitlines()
    assert after[0] == f"{where} (0.7.3.3, 0.7.3.5, 0.7.3.2)" and after[1] == HINT
    assert after[2] == f"german> why german: {attack}:" and after[3] == f"{where} (cases 0.7.3.3, 0.7.3.5, 0.7.3.2)"
    assert "unknown action" not in out
    r = CliRunner().invoke(main, ["ask", str(save), "why", f"german: {attack}", "--json"])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.output)
    assert (answer["step"], answer["reason"], answer["cases"]) == ("movement", where, ["0.7.3.3", "0.7.3.5", "0.7.3.2"])
