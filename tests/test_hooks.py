"""Hook specs and the plugin manager: resolution by registered name only, check_pending, call records."""

from __future__ import annotations

import importlib.metadata

import pytest

from casebook.content.plugins import make_plugin_manager, resolve_plugin
from casebook.core.errors import ContentError
from casebook.core.hooks import SPECS_GROUP, Refusal, Specs, hookimpl


class Weather:
    """A tiny plugin: owns the weather step."""

    @hookimpl
    def casebook_decider(self, step):
        return "chance" if step == "temperature" else None

    @hookimpl
    def casebook_legal_actions(self, step):
        return [{"do": "roll"}] if step == "temperature" else []

    @hookimpl
    def casebook_validate_action(self, action):
        return [] if action.get("do") == "roll" else [Refusal("not a weather action", ())]


class Movement:
    """A second tiny plugin: owns movement, refuses moves into enemy hexes (8.1A as an example)."""

    @hookimpl
    def casebook_decider(self, step):
        return "german" if step == "movement" else None

    @hookimpl
    def casebook_legal_actions(self, ctx, step):
        return [{"do": "move", "to": "0304"}] if step == "movement" else []

    @hookimpl
    def casebook_validate_action(self, action):
        if action.get("to") == "0305":
            return [Refusal("enemy-occupied hex", ("8.1A",), "movement")]
        return []

    @hookimpl
    def casebook_apply_action(self, action):
        return {"moved": action["to"]} if action.get("do") == "move" else None


def _pm():
    pm = make_plugin_manager([], extra={"weather": Weather(), "movement": Movement()})
    pm.record_calls()
    return pm


def test_firstresult_hook_records_which_plugin_answered() -> None:
    pm = _pm()
    assert pm.hook.casebook_decider(ctx=None, phase="p", step="movement") == "german"
    assert pm.hook.casebook_decider(ctx=None, phase="p", step="temperature") == "chance"
    first, second = pm.calls
    assert first.hook == "casebook_decider" and first.answered_by == ("movement",)
    assert second.answered_by == ("weather",)
    assert pm.hook.casebook_apply_action(ctx=None, action={"do": "move", "to": "0304"},
                                         trace=None) == {"moved": "0304"}
    assert pm.calls[-1].answered_by == ("movement",) and pm.calls[-1].called == ("movement",)


def test_list_hooks_collect_every_plugin_in_registration_order() -> None:
    pm = _pm()
    # pluggy calls the last registered first; implementations take fewer arguments than the spec
    actions = pm.hook.casebook_legal_actions(ctx=None, phase="p", step="movement")
    assert actions == [[{"do": "move", "to": "0304"}], []]
    assert pm.calls[-1].called == ("movement", "weather")
    refusals = [r for rs in pm.hook.casebook_validate_action(ctx=None,
                                                             action={"do": "move", "to": "0305"}) for r in rs]
    assert [(r.reason, r.cases) for r in refusals] == [("enemy-occupied hex", ("8.1A",)),
                                                       ("not a weather action", ())]


def test_a_raising_hook_is_recorded_with_its_error() -> None:
    class Broken:
        @hookimpl
        def casebook_answer(self, question):
            raise RuntimeError("boom")

    pm = make_plugin_manager([], extra={"broken": Broken()})
    pm.record_calls()
    with pytest.raises(RuntimeError):
        pm.hook.casebook_answer(ctx=None, question="q", args=[], options={})
    assert pm.calls[-1].error == "RuntimeError('boom')"


def test_unknown_hook_is_refused_by_check_pending_naming_the_plugin() -> None:
    class Typo:
        @hookimpl
        def casebook_legal_moves(self, ctx):
            return []

    with pytest.raises(ContentError, match=r"plugin 'typo'.*casebook_legal_moves"):
        make_plugin_manager([], extra={"typo": Typo()})


def test_plugin_names_resolve_only_to_registered_plugins() -> None:
    with pytest.raises(ContentError) as info:
        make_plugin_manager(["os.path", "no_such_plugin", "../evil", 3], file="content/x/game.yaml")
    text = str(info.value)
    assert [p.key for p in info.value.problems] == ["plugins.0", "plugins.1", "plugins.2", "plugins.3"]
    assert "'os.path' is not a plain name" in text and "unknown plugin 'no_such_plugin'" in text
    assert "content/x/game.yaml" in text
    with pytest.raises(LookupError):
        resolve_plugin("sys")                       # a real module, but not casebook.games.moscow41.plugins.sys


#: The hooks the core's driver and the ask/query tools call: the only specs the core declares.
LIFECYCLE = {"casebook_setup", "casebook_step_start", "casebook_decider", "casebook_legal_actions",
             "casebook_action_templates", "casebook_step_end", "casebook_validate_action",
             "casebook_apply_action", "casebook_after_action", "casebook_game_result", "casebook_turn_end",
             "casebook_facts", "casebook_answer"}


def _area_spec_classes() -> list[type]:
    return [ep.load() for ep in importlib.metadata.entry_points(group=SPECS_GROUP)]


def test_the_core_specifies_only_the_lifecycle_and_query_hooks() -> None:
    assert {n for n in dir(Specs) if n.startswith("casebook_")} == LIFECYCLE


def test_the_areas_specify_their_own_hooks_and_every_manager_has_them() -> None:
    """The area hooks come from the entry points of group casebook.hookspecs (one class per area);
    a manager with no plugin answering them still has them, and asking gives None."""
    names = {n for cls in _area_spec_classes() for n in dir(cls) if n.startswith("casebook_")}
    assert {"casebook_zoc", "casebook_zoc_map", "casebook_zoc_sources", "casebook_combat", "casebook_combat_loss",
            "casebook_supply", "casebook_command", "casebook_stacking", "casebook_move_cost",
            "casebook_movement_allowance", "casebook_move_cases", "casebook_movers", "casebook_units_replaced",
            "casebook_weather_effects", "casebook_stacking_note"} == names
    assert not names & LIFECYCLE
    pm = make_plugin_manager([])
    assert pm.hook.casebook_zoc(ctx=None, hex="0101", side="blue") is None
    assert pm.hook.casebook_zoc_sources(ctx=None, side="blue") == []


def test_every_spec_documents_its_return_rule() -> None:
    specs = [getattr(cls, n) for cls in (Specs, *_area_spec_classes()) for n in dir(cls) if n.startswith("casebook_")]
    assert len(specs) >= 24
    for spec in specs:
        assert "Return: " in spec.__doc__ and "Fires: " in spec.__doc__, spec.__name__
        firstresult = spec.casebook_spec.get("firstresult")
        assert ("firstresult" in spec.__doc__) == bool(firstresult), spec.__name__


def test_plugins_never_share_state_through_the_manager() -> None:
    pm = _pm()
    assert set(pm.modules) == {"weather", "movement"}
    assert repr(pm.get_plugin("weather")) == "<plugin weather>"


def test_recorded_calls_are_bounded():
    """The manager keeps only the last CALLS_KEPT calls (a whole game makes millions)."""
    from casebook.content.plugins import CALLS_KEPT, make_plugin_manager

    pm = make_plugin_manager([])
    pm.hook.casebook_decider(ctx=None, phase="p", step="s")
    assert len(pm.calls) == 0                                   # off by default: it costs every call
    pm.record_calls()
    for _ in range(CALLS_KEPT + 5):
        pm.hook.casebook_decider(ctx=None, phase="p", step="s")
    assert len(pm.calls) == CALLS_KEPT
    assert pm.calls[-1].hook == "casebook_decider"
