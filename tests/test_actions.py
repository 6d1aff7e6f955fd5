"""Actions and their notation: paired format/parse."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casebook.core.actions import Action, format_action, parse_action


def test_notation_round_trips_and_keeps_hexes_as_text():
    a = Action.make("move", "german", stack="2032", path=["2033", "2134"], overrun=False)
    assert format_action(a) == "german: move overrun=false path=2033,2134 stack=2032"
    assert parse_action(str(a)) == a
    assert parse_action("soviet: attack hex=0303 with=s1 support=2") == Action.make(
        "attack", "soviet", hex="0303", **{"with": ["s1"]}, support=2)
    assert parse_action("pass", side="german") == Action.make("pass", "german")


@pytest.mark.parametrize("text", ["", "german:", "german: move stack", "german: move a=1 a=2", "Move x=1"])
def test_malformed_notation_is_refused_quoting_the_text(text):
    with pytest.raises(ValueError, match="expected|missing|twice|not a valid"):
        parse_action(text, side=None)


words = st.from_regex(r"\A[a-z][a-z0-9]{0,6}\Z").filter(lambda w: w not in ("true", "false"))


@given(words, st.sampled_from(["german", "soviet", "chance"]),
       st.dictionaries(st.sampled_from(["n", "roll", "support", "flag", "kind2"]),
                       st.integers(-5, 99) | st.booleans() | words, max_size=3),
       st.lists(st.from_regex(r"\A[0-9]{4}\Z"), min_size=1, max_size=4))
def test_any_action_round_trips(kind, side, args, path):
    a = Action.make(kind, side, path=path, **args)
    assert parse_action(format_action(a)) == a
    assert Action.from_dict(a.to_dict()) == a


def test_values_of_flattens_text_and_list_arguments():
    a = Action.make("move", "german", stack="2032", path=["2033", "2134"], hex="0303")
    assert a.values_of("path", "to", "hex") == ["2033", "2134", "0303"]
    assert a.values_of("to") == []
