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


@pytest.fixture
def formed_before(m41):
    """g-6id in hedgehog formation since an earlier activation (its flag, no record of this phase),
    activated again and in the Movement Step: it may remove the marker (14.4A)."""
    game = Game(m41, next(iter(m41.pack.scenarios)))
    text = m41_position("movement", hedgehog=True, first_player="german") + "markers:\n  - {kind: hedgehog, hex: '0303'}\n"
    st = game.state_from_dict(position_to_dict(load_position(text, pack=m41.pack)))
    assert (st.data.step, st.current_player(), st.data.unit("g-6id").get("hedgehog")) == ("movement", "german", True)
    return st


def _refused_unchanged(state, text: str) -> tuple[str, ...]:
    """The cases of the refusal of action ``text`` applied to ``state`` (IllegalActionError),
    the state left unchanged."""
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as err:
        state.apply(text)
    assert state.to_dict() == before
    return err.value.cases


@pytest.mark.case("14.4A")
def test_14_4A_a_hedgehog_is_not_removed_in_the_activation_that_formed_it(state, formed_before):
    """14.4A: "It remains in hedgehog formation until it is activated AGAIN and expends all its MPs
    to remove the marker". Formed in this activation's Command Step, the stack is offered no
    removal in its Movement Step; typed, the removal is refused citing 14.4A by the line of
    fortification.rules, the state unchanged. Control: a hedgehog formed in an earlier activation
    is offered its removal."""
    assert [str(a) for a in state.legal_actions() if a.kind == "hedgehog"] == []
    cases, reason = state.why_not("german: hedgehog stack=0303 remove=true")
    assert cases == ("14.4A",) and "fortification.rules:" in reason
    assert _refused_unchanged(state, "german: hedgehog stack=0303 remove=true") == ("14.4A",)
    assert state.data.unit("g-6id")["hedgehog"] is True
    assert "german: hedgehog remove=true stack=0303" in [str(a) for a in formed_before.legal_actions()]
    from casebook.content.savecheck import plugin_state_problems  # a save keeps the record (STATE_SCHEMA)

    kept = state.to_dict()["plugin_state"]
    assert kept["fortification"]["formed"] == {"g-6id": "5:first_player"}
    assert plugin_state_problems({"fortification": kept["fortification"]}, ("fortification",),
                                 lambda kp: ("save", 0, 0)) == []


@pytest.mark.case("14.4C")
def test_14_4C_a_hedgehog_lists_no_move_and_a_typed_move_is_refused(state):
    assert not [str(a) for a in state.legal_actions() if a.kind == "move"]
    cases, reason = state.why_not("german: move stack=0303 path=0304")
    assert (cases, reason) == (("14.4C",), "in hedgehog formation, cannot move: g-6id")
    assert "14.4C" in _refused_unchanged(state, "german: move stack=0303 path=0304")
    assert state.data.unit("g-6id")["hex"] == "0303"


@pytest.mark.case("14.4A")
def test_14_4A_removing_the_marker_spends_every_mp_no_move_listed(formed_before):
    formed_before.apply("german: hedgehog stack=0303 remove=true")
    assert not formed_before.data.unit("g-6id").get("hedgehog")
    assert not [str(a) for a in formed_before.legal_actions() if a.kind == "move"]
    cases, reason = formed_before.why_not("german: move stack=0303 path=0304")
    assert cases == ("14.4A",) and reason.startswith("spent all MPs removing the Hedgehog marker: g-6id")


def _events(state, kind):
    return [e for e in state.trace._events if e.kind == kind]


@pytest.mark.case("14.4A")
def test_14_4A_a_stack_that_removed_its_marker_does_not_form_again_in_that_activation(formed_before):
    """14.4A: it remains in formation "until it is activated again and expends all its MPs to
    remove the marker"; a unit that forms "cannot have moved" in the activation. Having spent all
    its MPs on the removal, the stack is not offered (nor allowed) a new hedgehog at once."""
    formed_before.apply("german: hedgehog stack=0303 remove=true")
    assert [str(a) for a in formed_before.legal_actions() if a.kind == "hedgehog"] == []
    cases, reason = formed_before.why_not("german: hedgehog stack=0303")
    assert cases == ("14.4A",) and "removed_hedgehog" in reason
    assert "14.4A" in _refused_unchanged(formed_before, "german: hedgehog stack=0303")


@pytest.mark.case("14.4B")
def test_14_4B_a_stack_that_removed_its_marker_is_offered_the_force_march(formed_before):
    """14.4B: "A unit can force march in the same activation that it removes a Hedgehog marker":
    the force march is listed, applies a second allotment equal to the first (9.6A: g-6id's
    printed MA 4 in dry weather, nothing forfeited — the removal spent the first), the stack then
    moves, and the fatigue roll follows its move (9.6C)."""
    formed_before.apply("german: hedgehog stack=0303 remove=true")
    assert "german: force-march stack=0303" in [str(a) for a in formed_before.legal_actions()]
    formed_before.apply("german: force-march stack=0303")
    (march,) = _events(formed_before, "force-march")
    assert (march.data["units"], march.data["ma"], march.data["forfeited"]) == (["g-6id"], 4, 0)
    assert "german: move path=0304 stack=0303" in [str(a) for a in formed_before.legal_actions()]
    assert formed_before.why_not("german: force-march stack=0303")[0] == ("9.6A",)  # once (9.6A)
    formed_before.apply("german: move stack=0303 path=0304")
    assert formed_before.data.unit("g-6id")["hex"] == "0304"
    formed_before.apply("german: pass")
    (roll,) = _events(formed_before, "force-march-fatigue")
    assert roll.data["units"] == ["g-6id"] and "9.6C" in roll.cases


@pytest.mark.case("14.4B", "9.6A")
def test_14_4B_the_force_march_is_declared_before_any_other_unit_moves(m41):
    """9.6A: a force march is announced "before moving any other unit": once another stack has
    moved after the removal, the stack out of hedgehog may no longer force march."""
    game = Game(m41, next(iter(m41.pack.scenarios)))
    text = START.replace("activated: true}", "activated: true, hedgehog: true}") + \
        "  - {counter: g-26id, hex: '0505', activated: true}\nmarkers:\n  - {kind: hedgehog, hex: '0303'}\n"
    st = game.state_from_dict(position_to_dict(load_position(text.replace("step: command", "step: movement"),
                                                             pack=m41.pack)))
    st.apply("german: hedgehog stack=0303 remove=true")
    st.apply("german: move stack=0505 path=0504")
    assert "german: force-march stack=0303" not in [str(a) for a in st.legal_actions()]
    cases, _ = st.why_not("german: force-march stack=0303")
    assert "9.6A" in cases and "14.4B" not in cases


@pytest.mark.case("14.4C")
def test_14_4C_ask_move_and_reach_refuse_a_hedgehog_stack(state, m41):
    """``ask move`` / ``ask reach`` give play's verdict (the validators of the listed moves,
    ``mover_refusals``): a unit in hedgehog formation cannot move (14.4C), so the move is refused
    citing 14.4C and nothing is reachable, with the reason. Control: the same unit without the
    marker reaches hexes and may move to 0304."""
    from casebook.games.moscow41.plugins import movement as mv

    ctx = state.ctx()
    why = ("in hedgehog formation, cannot move: g-6id", ["14.4C"])
    move = mv.move_answer(ctx, "g-6id", ["0304"])
    assert move["legal"] is False and "14.4C" in move["cases"]
    assert (move["refused"]["hex"], move["refused"]["reason"], move["refused"]["cases"]) == ("0303", *why)
    assert state.why_not("german: move stack=0303 path=0304") == (("14.4C",), why[0])
    reach = mv.reach_answer(ctx, "g-6id")
    assert (reach["hexes"], reach["stops"], reach["pass_only"]) == ({}, {}, {})
    assert [(r["reason"], r["cases"]) for r in reach["refused"]] == [why] and "14.4C" in reach["cases"]
    game = Game(m41, next(iter(m41.pack.scenarios)))
    free = game.state_from_dict(position_to_dict(load_position(START.replace("step: command", "step: movement"),
                                                               pack=m41.pack)))
    ctx = free.ctx()
    assert mv.move_answer(ctx, "g-6id", ["0304"])["legal"] is True
    reach = mv.reach_answer(ctx, "g-6id")
    assert reach["hexes"]["0304"] == 1 and "refused" not in reach


@pytest.mark.case("14.4B", "9.6A")
def test_14_4B_the_force_march_after_a_removal_is_the_stack_that_removed_its_marker(m41):
    """14.4B: stack A (g-xii, an HQ) moves into 0303, where stack B (g-6id, in hedgehog formation since an
    earlier activation) then removes its Hedgehog marker: ``force-march stack=0303`` is B's force
    march (it removed the marker; A's move is behind another unit's act, 9.6A), not A's — the
    event names g-6id alone, and the move that follows moves g-6id, not g-xii."""
    game = Game(m41, next(iter(m41.pack.scenarios)))
    text = m41_position("movement", hedgehog=True, first_player="german") + \
        "  - {counter: g-xii, hex: '0302', activated: true}\nmarkers:\n  - {kind: hedgehog, hex: '0303'}\n"
    st = game.state_from_dict(position_to_dict(load_position(text, pack=m41.pack)))
    st.apply("german: move stack=0302 path=0303")
    st.apply("german: hedgehog stack=0303 remove=true")
    assert "german: force-march stack=0303" in [str(a) for a in st.legal_actions()]
    st.apply("german: force-march stack=0303")
    (march,) = _events(st, "force-march")
    assert (march.data["units"], march.data["ma"], march.data["forfeited"]) == (["g-6id"], 4, 0)
    st.apply("german: move stack=0303 path=0304")
    assert (st.data.unit("g-6id")["hex"], st.data.unit("g-xii")["hex"]) == ("0304", "0303")


@pytest.mark.case("14.4A")
def test_14_4A_a_stack_not_all_activated_is_neither_offered_nor_allowed_a_hedgehog(m41):
    """14.4A: "the unit (or stack) must be activated". In the Command Step g-6id is activated and
    g-xii beside it in 0303 is not: the listing offers no hedgehog there and the typed action is
    refused citing 14.4A (the validator and the listing agree), the state unchanged; activated
    too, the stack is offered it and forms it whole."""
    game = Game(m41, next(iter(m41.pack.scenarios)))

    def state(hq_activated):
        text = START + f"  - {{counter: g-xii, hex: '0303', activated: {str(hq_activated).lower()}}}\n"
        return game.state_from_dict(position_to_dict(load_position(text, pack=m41.pack)))

    part = state(False)
    assert [str(a) for a in part.legal_actions() if a.kind == "hedgehog"] == []
    cases, reason = part.why_not("german: hedgehog stack=0303")
    assert cases == ("14.4A",) and "activated" in reason and "fortification.rules:" in reason
    before = part.to_dict()
    with pytest.raises(IllegalActionError):
        part.apply("german: hedgehog stack=0303")
    assert part.to_dict() == before
    whole = state(True)
    assert "german: hedgehog stack=0303" in [str(a) for a in whole.legal_actions()]
    whole.apply("german: hedgehog stack=0303")
    assert [whole.data.unit(u).get("hedgehog") for u in ("g-6id", "g-xii")] == [True, True]
