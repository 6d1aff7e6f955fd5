"""The game API driver: decisions, automatic steps, refusals, determinism, save and resume."""

from __future__ import annotations

import pytest

from casebook.core.actions import Action
from casebook.core.dice import roll
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.core.hooks import Refusal, hookimpl
from casebook.script.engine import Engine


class Toy:
    """A toy rules plugin for the mini pack: in the movement step the German 1 ID may move east
    once (a die is rolled for flavour); nothing else is decided."""

    @hookimpl
    def casebook_decider(self, ctx, step):
        return ctx.state.phasing if step == "movement" else None

    @hookimpl
    def casebook_legal_actions(self, ctx, step):
        if step != "movement":
            return []
        side = ctx.state.phasing
        out = [Action.make("pass", side)]
        if side == "german" and ctx.state.unit("g-1id")["hex"] == "0303":
            out.insert(0, Action.make("move", side, stack="0303", path=["0304"]))
        return out

    @hookimpl
    def casebook_validate_action(self, ctx, action):
        if action.kind == "move" and action.get("path") == ("0305",):
            return [Refusal("0305 holds an enemy unit", ("9.1C",))]
        return []

    @hookimpl
    def casebook_apply_action(self, ctx, action):
        if action.kind != "move":
            return None
        roll(ctx.state, dice=1, purpose="flavour", cases=["9.1A"], trace=ctx.trace)
        ctx.state.move_unit("g-1id", action.get("path")[-1])
        return {"moved": "g-1id"}


@pytest.fixture
def game(mini_pack):
    return Game(Engine.load(mini_pack, extra_plugins={"toy": Toy()}), "skirmish")


def test_play_reaches_a_decision_then_runs_to_the_scenario_end(game):
    state = game.new_initial_state(seed=5)
    assert state.current_player() == "german"
    assert [str(a) for a in state.legal_actions()] == ["german: move path=0304 stack=0303", "german: pass"]
    state.apply("german: move stack=0303 path=0304")
    # nothing is left to decide: steps pass automatically until turn 3 (the last) is over
    assert state.is_terminal() and state.current_player() is None and state.legal_actions() == []
    assert state.result()["level"] == "draw" and state.data.unit("g-1id")["hex"] == "0304"
    kinds = [e.kind for e in state.trace]
    assert kinds[0] == "setup" and "roll" in kinds and kinds[-1] == "game-over"
    assert [e.seq for e in state.trace] == list(range(len(state.trace)))


def test_an_illegal_action_is_refused_with_its_cases_and_changes_nothing(game):
    state = game.new_initial_state(seed=5)
    before, events = state.to_dict(), len(state.trace)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action.make("move", "german", stack="0303", path=["0305"]))
    assert info.value.cases == ("9.1C",)
    with pytest.raises(IllegalActionError, match="not among the legal actions"):
        state.apply("soviet: pass")
    with pytest.raises(IllegalActionError):
        state.apply("german: move stack")
    assert state.to_dict() == before and len(state.trace) == events


def test_same_seed_same_trace_and_a_save_resumes_identically(game):
    a, b = game.new_initial_state(seed=9), game.new_initial_state(seed=9)
    saved = a.to_dict()
    a.apply("german: move stack=0303 path=0304")
    b.apply("german: move stack=0303 path=0304")
    assert a.trace.dumps() == b.trace.dumps()
    resumed = game.state_from_dict(saved, trace=type(a.trace)(list(game.new_initial_state(seed=9).trace)))
    resumed.apply("german: move stack=0303 path=0304")
    assert resumed.trace.dumps() == a.trace.dumps() and resumed.to_dict() == a.to_dict()


def test_clone_is_independent(game):
    state = game.new_initial_state(seed=1)
    other = state.clone()
    other.apply(other.legal_actions()[0])
    assert not state.is_terminal() and other.is_terminal()


def test_with_settings_starts_the_scenario_under_other_settings():
    """Game.with_settings: a new Game whose setup carries the settings; the original is unchanged."""
    from casebook.core.game import Game

    base = Game.load("moscow41", "october-blitz")
    other = base.with_settings({"turn1_weather": "rolled"})
    assert other.new_initial_state(1).data.setting("turn1_weather") == "rolled"
    assert base.new_initial_state(1).data.setting("turn1_weather") != "rolled"
