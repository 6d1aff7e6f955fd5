"""``State.peek`` of a listed choice (issue #16, session 16): the driver has found the action among
the position's legal actions, so the results area applies it without listing every retreat again
(``ctx.listed``); the copy is the one the full check gives, and an unlisted choice is still refused
naming its cases (11.2: the listed retreats), the position unchanged."""

from __future__ import annotations

import pytest

from casebook.areas import _results_stages
from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.script.ctx import Ctx
from tests.test_bots_guard_moscow import _overrun


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _seen(state) -> tuple:
    return state.data.to_dict(), [e.to_dict() if hasattr(e, "to_dict") else e for e in state.trace]


def test_peek_of_each_listed_retreat_is_the_copy_the_full_check_gives(blitz, monkeypatch):
    """The overrun of 2242 at 3:2 (die 2): the 133rd's retreats and the losses to stay, each peeked
    with the listed shortcut and again with ``ctx.listed`` ignored (every retreat listed again)."""
    state = _overrun(blitz, "s-133rd")
    listed = state.legal_actions()
    assert len(listed) == 7 and {a.kind for a in listed} == {"retreat"}  # 3 of 2 hexes, 3 of 1, stay
    made = []
    retreats = _results_stages._retreats
    monkeypatch.setattr(_results_stages, "_retreats", lambda *a: made.append(a) or retreats(*a))
    fast = [_seen(state.peek(a)) for a in listed]
    assert made == []  # the peeks listed no retreat again
    monkeypatch.setattr(Ctx, "listed", property(lambda self: None, lambda self, value: None))
    full = [_seen(state.peek(a)) for a in listed]
    assert len(made) == 7 and fast == full
    moved = [d for (d, _), a in zip(fast, listed) if a.get("path")]
    assert moved and all(u["hex"] != "2242" for d in moved for u in d["units"] if u.get("id") == "s-133rd")


def test_11_2_peek_refuses_an_unlisted_retreat_naming_its_cases_state_unchanged(blitz):
    state = _overrun(blitz, "s-133rd")
    before = _seen(state)
    unlisted = Action.make("retreat", "soviet", path=["2242"], losses=0)  # into its own hex: no retreat
    assert unlisted not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.peek(unlisted)
    assert err.value.cases == ("11.2A",) and "a retreat goes hex by hex" in err.value.reason
    assert _seen(state) == before
    assert state.why_not(unlisted)[0] == err.value.cases


def test_11_2_a_choice_other_than_the_one_the_driver_checked_is_listed_again(blitz):
    """``ctx.listed`` vouches for one action: the results area lists the choices again for any other
    and refuses one not among them, nothing applied."""
    state = _overrun(blitz, "s-133rd")
    copy = state.clone()
    ctx = copy._ctx(event_lines=False)
    ctx.listed = state.legal_actions()[0]
    unlisted = Action.make("retreat", "soviet", path=["2242"], losses=0)
    before = copy.data.to_dict()
    with pytest.raises(IllegalActionError) as err:
        copy.game.engine.hook.casebook_apply_action(ctx=ctx, action=unlisted)
    assert err.value.reason == "no pending combat result offers this choice" and err.value.cases
    assert copy.data.to_dict() == before
