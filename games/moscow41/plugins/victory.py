"""Moscow '41 victory (17.0-17.4) and scenarios (18.0-18.2): VPs, levels, instant and end wins.

Hooks: ``casebook_after_action`` (remember Moscow hexes taken, 17.2; record an instant win,
18.1.3B — 18.1.3D is a ``when action ends`` line of ``rules/victory.rules``),
``casebook_turn_end`` (end-of-scenario evaluation at the last turn, 18.1.2/18.2.2),
``casebook_game_result`` (the recorded result), ``casebook_validate_action`` (no Soviet reaction
on Turn 1 of the Campaign Game, 18.2.4B), ``casebook_facts`` (subject ``"scenario"``: the special
rules in force), ``casebook_answer`` (question ``vp``). The scenario's conditions (18.1.3) and the
points verdict (17.0, 17.4, 18.2.3) are the shared area ``scenario_victory``'s
(src/casebook/areas/scenario_victory.py), reading the scenario's ``victory:`` block; the facts of
each side's points are ``_victory_points``'s (17.1-17.3); the numbers are
``games/moscow41/rules/victory.rules``'s.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.areas import scenario_victory as area
from casebook.areas.initiative import town_cases
from casebook.content.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hooks import Refusal, hookimpl
from casebook.games.moscow41.plugins._victory_points import PLUGIN, moscow_taken, side_facts, vp_answer
from casebook.games.moscow41.plugins._victory_schema import VictoryBlock

__all__ = ["REQUIRES", "STATE_SCHEMA", "VICTORY_SCHEMA", "QUESTIONS", "casebook_after_action", "casebook_turn_end", "casebook_game_result",
           "casebook_validate_action", "casebook_facts", "casebook_answer", "remember_moscow",
           "scenario_rules", "reaction_refusal"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": ["initiative_chart"], "quantities": ["victory_level", "victory_points"]}

#: question -> usage line, for `casebook ask` (see docs/ask.md)
QUESTIONS: dict[str, str] = {
    "vp": "vp — both sides' victory points now, term by term, and the victory level (17.0-17.4)",
}

#: The scenario's ``victory:`` block this plugin reads (checked by ``casebook lint``).
VICTORY_SCHEMA = VictoryBlock


@implements("17.2")
def remember_moscow(ctx: Any) -> list[str]:
    """Add the Moscow hexes taken now to ``plugin_data("victory")["moscow_taken"]`` (17.2: the
    5 VP per hex stay even if the hex is lost later, and count once); returns the new ones."""
    return area.remember_taken(ctx, PLUGIN, "moscow_taken", moscow_taken(ctx), "moscow-taken", ("17.2",),
                               "victory.remember_moscow")


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    """After every action: remember Moscow hexes taken (17.2) and record an instant win
    (18.1.3B) in plugin_data."""
    remember_moscow(ctx)
    if area.stored_result(ctx, PLUGIN) is None:
        won = area.instant_result(ctx)
        if won is not None:
            area.store_result(ctx, PLUGIN, won, "victory.casebook_after_action")


@hookimpl
def casebook_turn_end(ctx: Any, turn: int) -> None:
    """At the end of every turn remember Moscow hexes (17.2); at the end of the scenario's last
    turn (``scenario.last_turn``: 4 for the Blitz 18.1.2, 31 for the Campaign 18.2.2) evaluate
    its victory conditions and record the result."""
    remember_moscow(ctx)
    scenario = ctx.state.scenario or {}
    if area.stored_result(ctx, PLUGIN) is not None or area.victory_block(ctx) is None:
        return
    last = scenario.get("last_turn")
    if last is not None and turn >= int(last):
        result = area.end_result(ctx, side_facts)
        if result is not None:
            area.store_result(ctx, PLUGIN, result, "victory.casebook_turn_end")


@hookimpl
def casebook_game_result(ctx: Any) -> dict[str, Any] | None:
    """The result recorded by an instant win or the end-of-scenario evaluation, else None:
    ``{"winner": side or None, "level", "reason", "cases", "condition"}``."""
    return area.stored_result(ctx, PLUGIN)


REACTION_KINDS = frozenset({"react", "react-move"})
REACTION_STEPS = frozenset({"reaction_movement", "reaction_attacks"})


@implements("18.2.4B")
def reaction_refusal(ctx: Any, action: Any) -> str | None:
    """Why ``action`` is a Soviet reaction forbidden on Turn 1 of the Campaign Game (18.2.4B;
    rule script ``reaction_step``), or None. A reaction is a ``react``/``react-move`` action, or
    any Soviet action but ``pass`` in the Reaction Movement or Reaction Attacks step of a German
    player phase (where the Soviets are the reacting side, 0.7.3.4-0.7.3.5)."""
    if action.side != "soviet" or action.kind == "pass":
        return None
    in_reaction_step = ctx.state.step in REACTION_STEPS and ctx.state.phasing != "soviet"
    if action.kind not in REACTION_KINDS and not in_reaction_step:
        return None
    scenario = ctx.state.scenario or {}
    verdict = ctx.permission("reaction_step", {"scenario_id": str(scenario.get("id", "")), "turn": ctx.state.turn})
    if verdict.value:
        return None
    return f"the Soviets cannot perform a Reaction Step on Turn {ctx.state.turn} of the Campaign Game"


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """Refuse a Soviet reaction on Turn 1 of the Campaign Game (18.2.4B)."""
    why = reaction_refusal(ctx, action)
    return [Refusal(why, ("18.2.4B",), source="victory")] if why else []


@implements("18.2.4A", "18.2.4B", "18.1.1", "18.2.1")
def scenario_rules(ctx: Any) -> dict[str, Any]:
    """The scenario in force and its special rules as facts: ``{"scenario": {"value": id,
    "cases"}, "last_turn": …, "turn1_weather": {"value": {"temperature", "ground"}, "cases":
    ["18.2.4A"]}, "soviet_reaction_allowed": {"value": bool, "cases": ["18.2.4B"]}}``. The
    setup (18.1.1, 18.2.1: the Campaign Game setup of the Player Aid Cards) and Turn 1's Warm
    and Dry weather are the scenario file's; the weather plugin keeps them (setting
    ``turn1_weather: fixed``)."""
    scenario = ctx.state.scenario or {}
    sid = str(scenario.get("id", ""))
    allowed = ctx.permission("reaction_step", {"scenario_id": sid, "turn": ctx.state.turn})
    facts: dict[str, Any] = {
        "scenario": {"value": sid or None, "cases": ["18.0"]},
        "last_turn": {"value": scenario.get("last_turn"), "cases": ["18.1.2", "18.2.2"]},
        "soviet_reaction_allowed": {"value": bool(allowed.value), "cases": list(allowed.cases) or ["18.2.4B"]},
    }
    if ctx.state.turn == scenario.get("first_turn", 1) and ctx.state.setting("turn1_weather") == "fixed":
        w = ctx.state.weather or {}
        facts["turn1_weather"] = {"value": {k: w.get(k) for k in ("temperature", "ground")}, "cases": ["18.2.4A"]}
    return facts


@hookimpl
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """Facts for subject ``"scenario"`` (see :func:`scenario_rules`); None otherwise."""
    if subject != "scenario":
        return None
    return scenario_rules(ctx)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Any) -> Any:
    """``casebook ask … vp``: both sides' VPs with their terms, the difference and the level
    (17.0-17.4), plus the result if the game is over; in a scenario of its own conditions (the
    Blitz) each rule-script line that ends the game after an action (18.1.3D), with ``fires``:
    whether it would now."""
    if question != "vp":
        return None
    if args:
        raise QuestionError("usage: vp (no arguments)")
    answer = vp_answer(ctx)
    hexes = [t["hex"] for v in answer.values() if isinstance(v, dict) and "towns" in v for t in v["towns"]]
    answer["cases"] = list(dict.fromkeys([*answer["cases"], *town_cases(ctx, hexes)]))
    answer.update(area.conditions_answer(ctx, "this scenario is decided by the conditions above, not by the "
                                              "17.4 victory levels, which are shown for information"))
    result = area.stored_result(ctx, PLUGIN)
    if result is not None:
        answer["result"] = result
    return answer


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.victory``: the Moscow hexes the Germans have taken (17.2) and the game's
    result once it is over."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    moscow_taken: list[str]
    result: dict[str, Any]
