"""The pending decisions of one combat result (private to the `results` plugin): fatigue
negation (11.1A-B), the defender's retreat or losses (11.0B, 11.2), the advance (11.4).

A result becomes a queue of stages kept in ``plugin_state.results``; :func:`run_stages` applies
them in order, asking the deciding side (interactive) or following :func:`policy`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.games.moscow41.plugins._results_choices import allocate_losses, fatigue_choice
from casebook.games.moscow41.plugins._results_choices import refusals as choice_refusals
from casebook.games.moscow41.plugins._results_choices import templates as choice_templates
from casebook.games.moscow41.plugins._results_losses import (
    distribute_losses,
    fatigue_unit,
    is_hq,
    parse_result,
    steps_left,
)
from casebook.games.moscow41.plugins._results_retreat import advance_paths, retreat_options

__all__ = ["start_stages", "run_stages", "choices", "choice_templates_now", "refusals_now", "apply_choice",
           "decider_side", "policy"]

_PLUGIN = "results"
_MAX_PATHS = 3  # choices offered per retreat length / advance length (a bound on the action list)


def _alive(ctx: Any, ids: Any) -> list[str]:
    return [u for u in ids if ctx.state.has_unit(u)]


def _supplied(ctx: Any, uid: str) -> bool:
    a = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
    return True if a is None else bool(a.get("in_supply", True))


def _in_command(ctx: Any, uid: str) -> bool:
    a = ctx.hook.casebook_command(ctx=ctx, unit=uid)
    return True if a is None else bool(a.get("in_command", True))


@implements("11.1A", "11.1B")
def can_negate(ctx: Any, side: str, units: list[str]) -> bool:
    """Whether ``side`` may spend the IP to negate a combat fatigue result on ``units``: the cost
    (``ip_cost`` for negate_fatigue) is on its track and every unit is in supply and in command at
    the instant of combat (permission ``negate_fatigue``)."""
    cost = ctx.value("ip_cost", {"ip_use": "negate_fatigue", "side": side})
    if ctx.state.track("ip", side) < cost or not units:
        return False
    return all(ctx.permission("negate_fatigue", {"supplied": _supplied(ctx, u), "in_command": _in_command(ctx, u),
                                                 "fatigue_source": "combat"}).value for u in units)


def _fatigue_target(ctx: Any, attackers: list[str]) -> list[str]:
    """The attacking unit a fatigue result falls on (11.0B: one unit; owner's default: an
    unfatigued combat unit, the strongest, else the one with most losses left)."""
    units = [ctx.state.unit(a) for a in attackers if not is_hq(ctx.state.unit(a))]
    if not units:
        return []
    best = sorted(units, key=lambda u: (bool(u.get("fatigued")), -steps_left(u), -int(u.get("strength") or 0), u["id"]))
    return [best[0]["id"]]


@implements("10.0F", "11.0A", "11.0B", "10.6A")
def start_stages(ctx: Any, outcome: Mapping[str, Any]) -> dict[str, Any]:
    """The queue of stages for the CRT cell ``outcome["result"]``: attacker fatigue, defender
    fatigue, attacker losses, the defender's retreat/losses, then the advance (10.0F: all applied
    before any other combat). An HQ stack without combat units retreats on any result (10.6A)."""
    r = parse_result(outcome["result"])
    a, d = r["attacker"], r["defender"]
    attackers, defenders = list(outcome["attackers"]), list(outcome["defenders"])
    hq_alone = bool(defenders) and all(is_hq(ctx.state.unit(u)) for u in defenders)
    queue: list[dict[str, Any]] = []
    if a["fatigue"]:
        queue.append({"type": "fatigue", "who": "attacker", "side": outcome["attacker_side"],
                      "units": _fatigue_target(ctx, attackers)})
    any_defender_result = d["fatigue"] or d["retreat"] or d["number"] > 0
    if d["fatigue"] and not hq_alone:
        queue.append({"type": "fatigue", "who": "defender", "side": outcome["defender_side"], "units": defenders})
    if a["number"]:
        queue.append({"type": "attacker_losses", "side": outcome["attacker_side"], "n": a["number"]})
    if hq_alone and any_defender_result:
        queue.append({"type": "defender", "side": outcome["defender_side"], "n": max(1, d["number"]),
                      "forced": True, "hq_alone": True})
    elif d["retreat"] or d["number"]:
        queue.append({"type": "defender", "side": outcome["defender_side"],
                      # 11.0B: the hexes of retreat and/or losses (script quantity retreat_hexes)
                      "n": int(ctx.value("retreat_hexes", {"result_number": d["number"],
                                                           "result_retreat": d["retreat"]})),
                      # 11.2A: only a number lets the defender choose to retreat fewer hexes
                      # (results.rules, choose_retreat_length)
                      "forced": not ctx.allowed("choose_retreat_length", {"result_retreat": d["retreat"]}),
                      "number": d["number"], "hq_alone": False})
    return {"combat": {k: outcome[k] for k in ("hex", "attackers", "defenders", "attacker_side",
                                                 "defender_side", "kind", "result")},
            "queue": queue, "effects": [], "retreated": 0}


def _hedgehog(ctx: Any, units: list[str]) -> bool:
    return any(ctx.state.unit(u).get("hedgehog") for u in units) or any(
        m.get("kind") == "hedgehog" and m.get("hex") == ctx.state.unit(units[0]).get("hex")
        for m in ctx.state.markers) if units else False


def _options(ctx: Any, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> list[Action]:
    """The actions a stage offers its deciding side (bounded, deterministic)."""
    c = rec["combat"]
    side = stage.get("side", c["attacker_side"])
    if stage["type"] == "fatigue":
        declined = Action.make("negate-fatigue", side, negate=False)
        if not can_negate(ctx, side, _alive(ctx, stage["units"])):
            return [declined]  # asked only for the attacker's choice of the unit (11.0B)
        return [Action.make("negate-fatigue", side, negate=True), declined]
    if stage["type"] == "attacker_losses":
        return [Action.make("take-losses", side)]  # the default order; a template names the units
    if stage["type"] == "defender":
        units = _alive(ctx, c["defenders"])
        out: list[Action] = []
        if stage["forced"]:  # R (or an HQ alone): retreat the full distance (11.2A, 10.6A)
            lengths = [stage["n"]]
        else:
            lengths = list(range(stage["n"], -1, -1))  # a number: retreat and/or losses (11.0B)
        for r in lengths:
            for o in retreat_options(ctx, units, c["hex"], side, r, c["attackers"])[:_MAX_PATHS]:
                losses = stage["n"] - r + o["losses"]
                out.append(Action.make("retreat", side, path=o["path"] or None, losses=losses))
        if stage["forced"] and not stage["hq_alone"] and stage.get("number", 0) == 0 and _hedgehog(ctx, units):
            out.append(Action.make("retreat", side, losses=0, hold=True))  # 14.4C: ignore R
        return list(dict.fromkeys(out))
    if stage["type"] == "advance":
        movers = _alive(ctx, c["attackers"])
        out = [Action.make("advance", side, hold=True)]
        paths = advance_paths(ctx, side, c["hex"], rec.get("retreated", 0), stage["eliminated"])
        longest = max(len(p) for p in paths)
        for p in [paths[0]] + [p for p in paths if len(p) == longest and p != paths[0]][:_MAX_PATHS]:
            fit = _stack_fits(ctx, p[-1], movers)  # 11.4B: the listed advance names exactly who enters
            if fit:
                out.append(Action.make("advance", side, path=p, **{"with": fit}))
        return out
    return []


def policy(ctx: Any, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> Action | None:
    """The default choice of a stage, for bots and overruns: negate fatigue whenever allowed;
    the defender takes the option with the fewest losses, retreating as far as it must (a
    hedgehog ignores R); the attackers advance into the cleared hex as far as stacking allows."""
    opts = _options(ctx, rec, stage)
    if not opts:
        return None
    if stage["type"] == "defender":
        return min(opts, key=lambda a: (a.get("losses"), not a.get("hold", False), -len(a.get("path") or ())))
    if stage["type"] == "advance":
        return opts[1] if len(opts) > 1 else opts[0]
    return opts[0]


@implements("11.0B", "11.1A")
def _needs_decision(ctx: Any, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> bool:
    """Whether the stage asks its side: fatigue it may negate (11.1A) or, for the attacker, an F
    that may fall on more than one unit (11.0B); attacker losses that more than one unit could
    take (11.0B); the defender's retreat with more than one option or losses more than one unit
    could take; an advance (11.4A)."""
    attackers = [u for u in _alive(ctx, rec["combat"]["attackers"]) if not is_hq(ctx.state.unit(u))]
    if stage["type"] == "fatigue":
        return can_negate(ctx, stage["side"], _alive(ctx, stage["units"])) or (
            stage.get("who") == "attacker" and len(attackers) > 1)
    if stage["type"] == "attacker_losses":
        return len(attackers) > 1
    if stage["type"] not in ("defender", "advance"):
        return False
    options = _options(ctx, rec, stage)
    if len(options) > 1 or stage["type"] == "advance" or stage.get("hq_alone"):
        return len(options) > 1
    defenders = [u for u in _alive(ctx, rec["combat"]["defenders"]) if not is_hq(ctx.state.unit(u))]
    return len(defenders) > 1 and any(int(a.get("losses", 0)) > 0 for a in options)


def _stack_fits(ctx: Any, hex_: str, movers: list[str]) -> list[str]:
    """The movers that may enter ``hex_`` within the stacking limits (11.4B), strongest first."""
    kept: list[str] = []
    for u in sorted(movers, key=lambda u: (-int(ctx.state.unit(u).get("strength") or 0), u)):
        present = [x["id"] for x in ctx.state.units_at(hex_)]
        answer = ctx.hook.casebook_stacking(ctx=ctx, hex=hex_, units=present + kept + [u])
        if answer is None or not answer.get("overstacked"):
            kept.append(u)
    return kept


def _apply(ctx: Any, rec: dict[str, Any], stage: dict[str, Any], action: Action | None) -> None:
    c, effects = rec["combat"], rec["effects"]
    if stage["type"] == "fatigue":
        units = fatigue_choice(action, _alive(ctx, stage["units"]))
        if action is not None and action.get("negate"):
            cost = ctx.value("ip_cost", {"ip_use": "negate_fatigue", "side": stage["side"]})
            ctx.state.add_track("ip", -cost, stage["side"])
            effects.append({"effect": "fatigue negated", "side": stage["side"], "ips": cost, "cases": ["11.1A", "11.1B"]})
            return
        with_combat = any(not is_hq(ctx.state.unit(u)) for u in units)
        for u in units:
            effects.append(fatigue_unit(ctx, u, with_combat))
    elif stage["type"] == "attacker_losses" and action is not None and action.get("units"):
        effects += allocate_losses(ctx, _alive(ctx, c["attackers"]), list(action.get("units")), stage["n"])
    elif stage["type"] == "attacker_losses":
        effects += distribute_losses(ctx, _alive(ctx, c["attackers"]), stage["n"])
    elif stage["type"] == "defender":
        path = list(action.get("path") or ()) if action is not None else []
        losses = action.get("losses", stage["n"]) if action is not None else stage["n"]
        units = _alive(ctx, c["defenders"])
        if stage["hq_alone"] and losses:
            for u in units:
                ctx.state.remove_unit(u, "eliminated")
                effects.append({"unit": u, "effect": "eliminated", "cases": ["10.6A"]})
            units = []
        elif losses and action is not None and action.get("units"):
            effects += allocate_losses(ctx, units, list(action.get("units")), losses)
        elif losses:
            effects += distribute_losses(ctx, units, losses)
        survivors = [u for u in ctx.state.units_at(c["hex"]) if u.get("side") == stage["side"]]
        if path and survivors:
            for u in survivors:
                ctx.state.move_unit(u["id"], path[-1])
            rec["retreated"] = len(path)
            effects.append({"effect": "retreat", "units": [u["id"] for u in survivors], "path": path,
                            "cases": ["11.2A", "11.2B"] + (["10.6B"] if any(is_hq(u) for u in survivors) else [])})
    elif stage["type"] == "advance" and action is not None and not action.get("hold"):
        path = list(action.get("path"))
        movers = _stack_fits(ctx, path[-1], _alive(ctx, action.get("with") or ()))
        for u in movers:
            ctx.state.move_unit(u, path[-1])
        effects.append({"effect": "advance", "units": movers, "path": path, "cases": ["11.4A", "11.4C"]})
    ctx.changed()


def _maybe_queue_advance(ctx: Any, rec: dict[str, Any]) -> None:
    c = rec["combat"]
    if any(s["type"] == "advance" for s in rec["queue"]) or rec.get("advance_done"):
        return
    if not _alive(ctx, c["attackers"]):
        return
    cleared = not ctx.state.units_at(c["hex"])
    # 11.4A (results.rules, advance_from_combat): the attackers may advance when the hex is cleared
    if not ctx.allowed("advance_from_combat", {"hex_cleared": cleared}):
        if cleared:
            rec["advance_done"] = rec["cleared"] = True
        return
    eliminated = not any(ctx.state.has_unit(u) for u in c["defenders"]) and rec.get("retreated", 0) == 0
    rec["advance_done"] = True
    rec["cleared"] = cleared
    rec["queue"].append({"type": "advance", "side": c["attacker_side"], "eliminated": eliminated,
                         "mandatory": c["kind"] == "overrun"})


def run_stages(ctx: Any, rec: dict[str, Any], interactive: bool, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """Apply stages until one needs a decision (interactive: saved pending) or none is left."""
    while True:
        if not rec["queue"]:
            _maybe_queue_advance(ctx, rec)
            if not rec["queue"]:
                break
        stage = rec["queue"][0]
        if interactive and _needs_decision(ctx, rec, stage) and not stage.get("mandatory"):
            ctx.state.set_plugin_data(_PLUGIN, rec)
            out = dict(outcome or rec["combat"])
            out.update(pending=True, effects=rec["effects"], awaiting=stage["type"], decider=stage.get("side"))
            return out
        choice = policy(ctx, rec, stage) if _needs_decision(ctx, rec, stage) or stage["type"] in ("defender", "advance") else None
        _apply(ctx, rec, stage, choice)
        rec["queue"].pop(0)
    ctx.state.set_plugin_data(_PLUGIN, None)
    ctx.record("combat-results", ["10.0F"], {"combat": rec["combat"], "effects": rec["effects"]},
               source="results.run_stages")
    out = dict(outcome or rec["combat"])
    out.update(pending=False, effects=rec["effects"], cleared=bool(rec.get("cleared")))
    return out


def decider_side(ctx: Any) -> str | None:
    rec = ctx.state.plugin_data(_PLUGIN)
    if not rec or not rec.get("queue"):
        return None
    return rec["queue"][0].get("side")


def choices(ctx: Any) -> list[Action]:
    rec = ctx.state.plugin_data(_PLUGIN)
    if not rec or not rec.get("queue"):
        return []
    return _options(ctx, rec, rec["queue"][0])


def choice_templates_now(ctx: Any) -> list[Any]:
    """The templates of the pending stage (``_results_choices.templates``), or []."""
    rec = ctx.state.plugin_data(_PLUGIN)
    if not rec or not rec.get("queue"):
        return []
    stage = rec["queue"][0]
    return choice_templates(ctx, rec, stage, _options(ctx, rec, stage))


def refusals_now(ctx: Any, action: Action) -> list[Any] | None:
    """The refusals of ``action`` as a filling of one of the pending stage's templates, or None
    when it fills none of them."""
    rec = ctx.state.plugin_data(_PLUGIN)
    if not rec or not rec.get("queue"):
        return None
    stage = rec["queue"][0]
    if not any(t.matches(action) for t in choice_templates(ctx, rec, stage, _options(ctx, rec, stage))):
        return None
    return choice_refusals(ctx, rec, stage, action)


def apply_choice(ctx: Any, action: Action) -> dict[str, Any]:
    """Apply a player's choice for the pending stage (listed, or a filled template that
    :func:`refusals_now` accepts), then run on (interactive)."""
    rec = ctx.state.plugin_data(_PLUGIN)
    if not rec or not rec.get("queue") or (action not in _options(ctx, rec, rec["queue"][0])
                                           and refusals_now(ctx, action) != []):
        raise IllegalActionError(str(action), ["10.0F"], "no pending combat result offers this choice")
    _apply(ctx, rec, rec["queue"].pop(0), action)
    return run_stages(ctx, rec, True, None)
