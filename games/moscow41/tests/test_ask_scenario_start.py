"""Issue #15 (session 16): every ``ask`` question of a scenario start (a scenario file: its
``scenario:`` and no step) answers in the state ``casebook play`` begins it in — its setup and
first turn start, the turn-start work done (tools/ask_why.question_state) — as ``why``, ``offer``
and ``reinforcements`` did since session 15; a position at a step, or a hand-made one, as the file
has it."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.script.engine import load_engine
from casebook.tools.cmd_ask import ask_position
from tests._pack_edits import GAMES

BLITZ = GAMES / "moscow41" / "scenarios" / "october-blitz.yaml"


@pytest.mark.case("0.7.2.1B")
def test_0_7_2_1B_ask_income_of_the_blitz_file_counts_the_ips_play_collected_at_turn_1():
    """The file holds `ip: {german: 0, soviet: 0}`; play begins with the German IPs of Turn 1's
    collection on the track (0.7.2.1B), and `ask income` says so: `previous` (the track) and the
    range of a collection now start from them, not from 0."""
    begun = Game(load_engine("moscow41"), "october-blitz").new_initial_state(seed=1)
    collected = begun.data.to_dict()["ip"]["german"]
    assert collected == 28 and begun.data.step == "command"
    answer = ask_position(str(BLITZ), "income", ["german"], {})
    assert answer["previous"] == collected
    assert answer["range"] == [collected + 27, collected + 32]


def test_a_hand_made_position_without_a_step_is_still_answered_as_the_file_has_it():
    text = BLITZ.read_text(encoding="utf-8").split("scenario:\n", 1)
    rest = text[1].split("\nturn: 1\n", 1)[1]  # the scenario block left out: a hand-made position
    answer = ask_position(text[0] + "turn: 1\n" + rest, "income", ["german"], {})
    assert answer["previous"] == 0
