"""Parameterised actions in the driver (src/casebook/core/templates.py): an unlisted action that fills a
template is applied when no validator refuses it, refused with the validators' cases otherwise;
``why`` agrees with ``apply``; bots still see only the listed actions."""

from __future__ import annotations

import pytest

from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.core.hooks import Refusal, hookimpl
from casebook.core.templates import ActionTemplate
from casebook.script.engine import Engine


class Toy:
    """In the movement step the German 1 ID may move to 0304 (listed) or, as a template with a
    free ``path``, to any hex of column 03 but 0305 (an enemy there, case 9.1C)."""

    @hookimpl
    def casebook_decider(self, ctx, step):
        return ctx.state.phasing if step == "movement" else None

    @hookimpl
    def casebook_legal_actions(self, ctx, step):
        if step != "movement" or ctx.state.phasing != "german" or ctx.state.unit("g-1id")["hex"] != "0303":
            return [Action.make("pass", ctx.state.phasing)] if step == "movement" else []
        return [Action.make("move", "german", stack="0303", path=["0304"]), Action.make("pass", "german")]

    @hookimpl
    def casebook_action_templates(self, ctx, step):
        listed = self.casebook_legal_actions(ctx, step)
        return [ActionTemplate.of(a, {"path": "HEX, a hex of column 03"}, ("9.1A",)) for a in listed
                if a.kind == "move"]

    @hookimpl
    def casebook_validate_action(self, ctx, action):
        if action.kind != "move":
            return []
        path = action.get("path") or ()
        if path == ("0305",):
            return [Refusal("0305 holds an enemy unit", ("9.1C",))]
        if len(path) != 1 or not path[0].startswith("03"):
            return [Refusal("one hex of column 03", ("9.1A",))]
        return []

    @hookimpl
    def casebook_apply_action(self, ctx, action):
        if action.kind != "move":
            return None
        ctx.state.move_unit("g-1id", action.get("path")[-1])
        return {"moved": "g-1id"}


@pytest.fixture
def game(mini_pack):
    return Game(Engine.load(mini_pack, extra_plugins={"toy": Toy()}), "skirmish")


def test_a_template_is_shown_but_bots_see_only_the_listed_actions(game):
    state = game.new_initial_state(seed=5)
    assert [str(a) for a in state.legal_actions()] == ["german: move path=0304 stack=0303", "german: pass"]
    [tpl] = state.action_templates()
    assert str(tpl) == "german: move path=<HEX, a hex of column 03> stack=0303"
    assert tpl.to_dict()["example"] == "german: move path=0304 stack=0303" and tpl.cases == ("9.1A",)


def test_a_filled_template_is_legal_when_no_validator_refuses_it(game):
    state = game.new_initial_state(seed=5)
    assert state.why_not("german: move stack=0303 path=0302") == ((), "legal")
    state.apply("german: move stack=0303 path=0302")
    assert state.data.unit("g-1id")["hex"] == "0302"
    assert "german: move path=0302 stack=0303" in [e.data.get("action") for e in state.trace if e.kind == "action"]


def test_a_refused_filling_names_the_validators_cases_and_changes_nothing(game):
    state = game.new_initial_state(seed=5)
    before, events = state.to_dict(), len(state.trace)
    assert state.why_not("german: move stack=0303 path=0305") == (("9.1C",), "0305 holds an enemy unit")
    with pytest.raises(IllegalActionError) as info:
        state.apply("german: move stack=0303 path=0305")
    assert info.value.cases == ("9.1C",)
    # a fixed argument changed, or an argument the template does not free: not an instance
    for text in ("german: move stack=0404 path=0302", "german: move stack=0303 path=0302 units=g-1id"):
        with pytest.raises(IllegalActionError, match="not among the legal actions"):
            state.apply(text)
    assert state.to_dict() == before and len(state.trace) == events


def test_template_matching_is_exact_on_kind_side_and_fixed_arguments():
    listed = Action.make("activate-hq", "german", hq="g-v", stacks=["0405", "0506"])
    tpl = ActionTemplate.of(listed, {"stacks": "HEX,…"})
    assert tpl.matches(listed) and tpl.matches(Action.make("activate-hq", "german", hq="g-v"))
    assert tpl.matches(Action.make("activate-hq", "german", hq="g-v", stacks=["0607"]))
    assert not tpl.matches(Action.make("activate-hq", "german", hq="g-vi", stacks=["0405"]))
    assert not tpl.matches(Action.make("activate-hq", "soviet", hq="g-v"))
    assert not tpl.matches(Action.make("activate-stack", "german", hq="g-v"))


def test_the_human_prompt_shows_the_template_and_why_explains_a_refused_filling(game):
    from casebook.tools.human import HumanPlayer

    state = game.new_initial_state(seed=5)
    said: list[str] = []
    replies = iter(["why move stack=0303 path=0305", "move stack=0303 path=0302"])
    human = HumanPlayer("german", "mini", echo=said.append, read=lambda prompt: next(replies))
    chosen = human.choose(state)
    assert chosen == Action.make("move", "german", stack="0303", path=["0302"])
    assert "       german: move path=<HEX, a hex of column 03> stack=0303" in said
    assert "0305 holds an enemy unit (cases 9.1C)" in said
