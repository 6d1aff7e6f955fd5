"""Battle for Moscow rules plugin ``bfm_victory``: who wins at the end of turn 7 (BM1.2, BM10.1,
BM10.2) — the one part of the victory rules the shared ``area_victory`` cannot say (two editions
chosen by a setting, one counting the cities besides Moscow).

Who holds a city is the shared ``area_control``'s (the last side to occupy it, BM10.1; its
``gain_control`` line in ``rules/victory.rules``). The setting ``victory_rule`` (interpretation
victory-edition) chooses the original rule (BM10.1: whoever last occupied Moscow wins) or the later
editions' (BM10.2: the Germans win holding Moscow; the Soviets win holding Moscow and one other
city; otherwise a draw). Answers ``casebook ask … victory``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.areas.victory import last_turn
from casebook.content.cases import implements
from casebook.content.schema_base import HexLabel, Model
from casebook.core.hexgrid import hex_label
from casebook.core.hooks import hookimpl

__all__ = ["STATE_SCHEMA", "VICTORY_SCHEMA", "QUESTIONS", "verdict"]

QUESTIONS = {"victory": "victory — who holds Moscow and the cities, and who would win now (BM10.1, BM10.2)",
             # this game's words for the questions of the shared areas (listed last: these lines win in ask --help)
             "reach": "reach UNIT [--as movement|panzer_movement|rail_movement] — the hexes UNIT can end its move "
                      "in, with the path and MP (BM5.1-BM5.5, BM6.2)",
             "retreat": "retreat UNIT — the legal retreat paths of UNIT, best first, or why it would be eliminated "
                        "(BM8.6A-B)",
             "attack": "attack HEX --with UNIT,UNIT… [--roll N] — odds, column shifts and every outcome of an "
                       "attack (BM8.1-BM8.5)",
             "zoc": "zoc HEX [--for UNIT] — the enemy ZOC in HEX: who exerts it, and its effect on moves, "
                    "communication and retreats (BM6.1-BM6.3, BM9.4, BM8.6B)"}
PLUGIN = "bfm_victory"


class VictoryBlock(Model):
    """The scenario's ``victory:`` block (BM10.1, BM10.2): the edition's ``rule`` and the
    ``hexes`` whose holder wins (Moscow); the rule in force is the setting ``victory_rule``."""

    rule: Literal["original", "later"] = "original"
    hexes: list[HexLabel] = []


#: The scenario's ``victory:`` block (checked by ``casebook lint``, src/casebook/content/requires.py).
VICTORY_SCHEMA = VictoryBlock


@implements("BM10.1", "BM10.2")
def verdict(ctx: Any) -> dict[str, Any]:
    """Who wins if the game ended now: ``{"winner", "level", "reason", "cases", "moscow",
    "cities"}`` under the setting ``victory_rule`` (original, or later)."""
    moscow = [hex_label(h) for h in sorted(ctx.board.hex_set("moscow"))]
    holder = {ctx.state.control(h) for h in moscow}
    owner = holder.pop() if len(holder) == 1 else None
    cities = {hex_label(h): ctx.state.control(hex_label(h)) for h in sorted(ctx.board.towns())}
    rule = ctx.state.setting("victory_rule", "original")
    if rule == "later":
        others = [h for h, s in cities.items() if s == "soviet" and h not in moscow]
        if owner == "german":
            winner, reason = "german", "the Germans hold Moscow (BM10.2)"
        elif owner == "soviet" and others:
            winner, reason = "soviet", f"the Soviets hold Moscow and {len(others)} other cities (BM10.2)"
        else:
            winner, reason = None, "neither side meets its condition: a draw (BM10.2)"
        cases = ["BM10.2"]
    else:
        winner = owner
        reason = (f"the {owner.capitalize()}s last occupied Moscow (BM10.1)" if owner
                  else "Moscow has no holder (BM10.1)")
        cases = ["BM10.1"]
    return {"winner": winner, "level": "victory" if winner else "draw", "reason": reason, "cases": cases,
            "rule": rule, "moscow": {h: ctx.state.control(h) for h in moscow}, "cities": cities}


# ------------------------------------------------------------------------------------- hooks
@implements("BM1.1", "BM1.2")
@hookimpl
def casebook_turn_end(ctx: Any, turn: int) -> None:
    """BM1.2: the game ends after the last turn of the scenario (turn 7 of the seven, BM1.1)."""
    last = last_turn(ctx)
    if last is not None and turn >= last:
        ctx.state.set_plugin_data(PLUGIN, {"final": True})


@hookimpl
def casebook_game_result(ctx: Any) -> dict[str, Any] | None:
    if not (ctx.state.plugin_data(PLUGIN) or {}).get("final"):
        return None
    v = verdict(ctx)
    return {"winner": v["winner"], "level": v["level"], "reason": v["reason"], "cases": ["BM1.2", *v["cases"]]}


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question != "victory":
        return None
    return verdict(ctx)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.bfm_victory``: ``final`` once the last turn's verdict is due (BM10)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    final: bool
