"""Moscow '41 scenario victory conditions (18.0-18.2), private to ``victory``.

The scenario block of the position (``games/moscow41/scenarios/*.yaml``, ``scenario.victory``)
says which conditions apply; this module reads it:

- ``kind: points`` (the Campaign Game, 18.2.3): 17.0-17.4 at the end of the last turn;
- per-side lists of conditions (the October Blitz, 18.1.3): ``control_count`` (control at least
  ``at_least`` of ``hexes``; at the end, or at any moment with the setting
  ``blitz_towns_when: instant``), ``enter`` (a combat unit of the side in a Moscow hex or in the
  hexes of town ``town``: an instant win, 18.1.3B), ``otherwise`` (the side wins at the end if
  the other side did not, 18.1.3C). A condition ``when: script`` is decided by a rule-script line
  (18.1.3D: ``when action ends … end the game`` in rules/victory.rules, carried out by the game
  driver); this module skips it, and the entry names the goal for the planning bot.

A result is ``{"winner", "level", "reason", "cases", "condition"}``; it is kept in
``plugin_data("victory")["result"]`` so ``casebook_game_result`` can report it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.content.cases import implements
from casebook.core.hexgrid import hex_label
from casebook.games.moscow41.plugins._victory_points import PLUGIN, is_combat_unit, moscow_hexes, vp_answer

__all__ = ["victory_block", "conditions", "target_hexes", "instant_result", "end_result",
           "stored_result", "store_result", "reaction_refusal"]


def victory_block(ctx: Any) -> Mapping[str, Any] | None:
    """The scenario's ``victory`` block, or None (no scenario: no victory conditions)."""
    scenario = ctx.state.scenario or {}
    block = scenario.get("victory")
    return block if isinstance(block, Mapping) else None


def conditions(ctx: Any, when: str) -> list[tuple[str, Mapping[str, Any]]]:
    """(side, condition) pairs of the block whose ``when`` is ``when`` (``instant`` / ``end``),
    in the block's order; a ``control_count`` is instant under ``blitz_towns_when: instant``;
    ``when: script`` is never returned (a rule-script line decides it)."""
    block = victory_block(ctx) or {}
    out = []
    for side in ("german", "soviet"):
        for cond in block.get(side) or []:
            moment = cond.get("when", "end")
            if cond.get("kind") == "control_count":
                moment = ctx.state.setting("blitz_towns_when", "end")
            if moment == when:
                out.append((side, cond))
    return out


def target_hexes(ctx: Any, cond: Mapping[str, Any]) -> list[str]:
    """The hexes an ``enter`` condition names: the Moscow hexes, or those of town ``town``."""
    if cond.get("target") == "moscow":
        return moscow_hexes(ctx)
    name = cond.get("town")
    return sorted(hex_label(h) for h, t in ctx.board.towns().items() if t.get("name") == name)


def _met(ctx: Any, side: str, cond: Mapping[str, Any]) -> str | None:
    """Why ``cond`` of ``side`` is met now (a sentence), or None."""
    kind = cond.get("kind")
    if kind == "enter":
        for h in target_hexes(ctx, cond):
            units = [u for u in ctx.state.units_at(h) if u.get("side") == side and is_combat_unit(u)]
            if units:
                uid = units[0].get("id", units[0].get("counter"))
                return f"{side} combat unit {uid} entered {h}"
        return None
    if kind == "control_count":
        held = [h for h in cond.get("hexes", []) if ctx.state.control(h) == side]
        if len(held) >= int(cond.get("at_least", len(cond.get("hexes", [])))):
            return f"{side} controls {len(held)} of {', '.join(cond.get('hexes', []))}: {', '.join(held)}"
        return None
    return None


@implements("18.1.3B")
def instant_result(ctx: Any) -> dict[str, Any] | None:
    """The instant win the position shows now, if any (18.1.3B: a German combat unit in a Moscow
    hex; a ``when: script`` condition such as 18.1.3D is the rule script's), as a result dict."""
    for side, cond in conditions(ctx, "instant"):
        why = _met(ctx, side, cond)
        if why:
            return {"winner": side, "level": "automatic", "reason": why,
                    "cases": [str(cond.get("case", "18.0"))], "condition": cond.get("id")}
    return None


@implements("18.0", "18.1.2", "18.1.3A", "18.1.3C", "18.2.2", "18.2.3")
def end_result(ctx: Any) -> dict[str, Any] | None:
    """The result at the end of the scenario's last turn (18.1.2: 4 turns, 18.2.2: 31 turns, as
    ``scenario.last_turn``): the Blitz's end conditions (18.1.3A, else 18.1.3C), or the VPs and
    level of 17.0-17.4 in the Campaign Game (18.2.3). None without a victory block."""
    block = victory_block(ctx)
    if block is None:
        return None
    if block.get("kind") == "points":
        vp = vp_answer(ctx)
        return {"winner": vp["winner"], "level": vp["level"],
                "reason": (f"German {vp['german']['vp']} VP, Soviet {vp['soviet']['vp']} VP: "
                           f"difference {vp['difference']}"),
                "cases": list(dict.fromkeys(["18.2.3", *vp["cases"]])), "condition": "points",
                "vp": {"german": vp["german"]["vp"], "soviet": vp["soviet"]["vp"]}}
    ends = conditions(ctx, "end") + conditions(ctx, "instant")
    for side, cond in ends:
        why = _met(ctx, side, cond)
        if why:
            return {"winner": side, "level": "victory", "reason": why,
                    "cases": [str(cond.get("case", "18.0"))], "condition": cond.get("id")}
    for side, cond in ends:
        if cond.get("kind") == "otherwise":
            other = "german" if side == "soviet" else "soviet"
            return {"winner": side, "level": "victory",
                    "reason": f"the {other} conditions were not fulfilled",
                    "cases": [str(cond.get("case", "18.0"))], "condition": cond.get("id")}
    return None


def stored_result(ctx: Any) -> dict[str, Any] | None:
    """The result recorded in plugin_data, if the game is over."""
    return (ctx.state.plugin_data(PLUGIN) or {}).get("result")


def store_result(ctx: Any, result: Mapping[str, Any], source: str) -> None:
    """Record ``result`` in plugin_data (once) and in the trace."""
    data = ctx.state.plugin_data(PLUGIN) or {}
    if data.get("result"):
        return
    data["result"] = dict(result)
    ctx.state.set_plugin_data(PLUGIN, data)
    ctx.record("victory", result.get("cases", ()), dict(result), source=source)


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
    verdict = ctx.permission("reaction_step", {"scenario_id": str(scenario.get("id", "")),
                                               "turn": ctx.state.turn})
    if verdict.value:
        return None
    return f"the Soviets cannot perform a Reaction Step on Turn {ctx.state.turn} of the Campaign Game"
