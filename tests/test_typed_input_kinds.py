"""The "unknown action … did you mean" of play's prompt and serve (src/casebook/tools/typed.py)
knows each game's own kinds, a rule script's declared action too (Kestrel Pass's ``dig-in``,
KP11.2), and names none of another game's."""

from __future__ import annotations

import pytest

from casebook.core.actions import parse_action
from casebook.core.game import Game
from casebook.tools.typed import typed_problem


@pytest.mark.case("KP11.2")
def test_KP11_2_a_misspelt_declared_action_is_suggested_from_the_rule_script():
    state = Game.load("kestrel_pass").new_initial_state(1)
    side = state.current_player()
    assert typed_problem(state, parse_action("dig-inn hex=0101", side=side)) == \
        "unknown action dig-inn; did you mean dig-in? (offered now: move, pass)"


def test_battle_for_moscow_has_no_dig_in_to_suggest():
    state = Game.load("battle_for_moscow").new_initial_state(1)
    side = state.current_player()
    assert typed_problem(state, parse_action("dig-inn hex=0101", side=side)) == \
        "unknown action dig-inn (offered now: move, pass)"
    assert typed_problem(state, parse_action("mvoe stack=0101 path=0102", side=side)) == \
        "unknown action mvoe; did you mean move? (offered now: move, pass)"
