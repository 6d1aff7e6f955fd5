"""A unit in hedgehog formation cannot move (14.4C), played through ``State`` as ``casebook play``
and ``ask why`` play it: the Movement Step lists no move of it, a typed move is refused citing
14.4C and the state is unchanged; once the marker is removed (all its MPs spent, 14.4A) it still
lists no move."""

from __future__ import annotations

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from tests.conftest import m41_position

START = m41_position("command", first_player="german")


@pytest.fixture
def state(m41):
    """The position of the fresh-user trial: g-6id activated in the Command Step, then in
    hedgehog formation (14.4A) and in the Movement Step."""
    game = Game(m41, next(iter(m41.pack.scenarios)))
    st = game.state_from_dict(position_to_dict(load_position(START, pack=m41.pack)))
    st.apply("german: hedgehog stack=0303")
    st.apply("german: pass")
    assert (st.data.step, st.current_player(), st.data.unit("g-6id").get("hedgehog")) == ("movement", "german", True)
    return st


@pytest.mark.case("14.4C")
def test_14_4C_a_hedgehog_lists_no_move_and_a_typed_move_is_refused(state):
    assert not [str(a) for a in state.legal_actions() if a.kind == "move"]
    cases, reason = state.why_not("german: move stack=0303 path=0304")
    assert (cases, reason) == (("14.4C",), "in hedgehog formation, cannot move: g-6id")
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        state.apply("german: move stack=0303 path=0304")
    assert "14.4C" in err.value.cases
    assert state.to_dict() == before and state.data.unit("g-6id")["hex"] == "0303"


@pytest.mark.case("14.4A")
def test_14_4A_removing_the_marker_spends_every_mp_no_move_listed(state):
    state.apply("german: hedgehog stack=0303 remove=true")
    assert not state.data.unit("g-6id").get("hedgehog")
    assert not [str(a) for a in state.legal_actions() if a.kind == "move"]
    cases, reason = state.why_not("german: move stack=0303 path=0304")
    assert cases == ("14.4A",) and reason.startswith("spent all MPs removing the Hedgehog marker: g-6id")
