"""The pending decisions of one combat result, for a game whose CRT cells give each side a
fatigue result, a number and a forced retreat (a helper of the shared results procedure, not a
plugin): fatigue and its negation, the attacker's losses, the defender's retreat and/or losses,
the advance after combat.

A result becomes a queue of stages kept in ``plugin_state.results`` (:data:`STATE_SCHEMA`);
:func:`run_stages` applies them in order, asking the deciding side (interactive: the stage is
left pending and its choices are the actions offered) or following :func:`policy`. The game's
lines read: ``ip_cost`` (fact ``ip_use: negate_fatigue``) and permission ``negate_fatigue``
(facts ``supplied``, ``in_command``, ``fatigue_source``), paid from the ``ip`` track;
``retreat_hexes`` (facts ``result_number``, ``result_retreat``); ``choose_retreat_length``
(fact ``result_retreat``: forbidden, the defender retreats the full distance);
``advance_from_combat`` (fact ``hex_cleared``); the lines of :mod:`._results_losses` and
:mod:`._results_retreat`. The cases of the effects no line states come from the game's
:class:`~._results_retreat.ResultsSetup` (``cites``: ``fatigue_negated``, ``hq_alone``,
``retreat``, ``retreat_hq``, ``advance``, ``results``, ``no_choice``).

A CRT cell reaches :func:`start_stages` parsed: ``{"attacker": {"fatigue", "retreat",
"number"}, "defender": {…}}`` (the game reads its own notation). Public API:
:func:`start_stages`, :func:`run_stages`, :func:`choices`, :func:`choice_templates_now`,
:func:`refusals_now`, :func:`apply_choice`, :func:`decider_side`, :func:`policy`,
:data:`MAX_PATHS`, :data:`STATE_SCHEMA`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.core.hooks import Refusal

from ._combat_crt import crt_lines
from ._results_choices import allocate_losses, fatigue_choice, stack_fits
from ._results_choices import refusals as choice_refusals
from ._results_choices import templates as choice_templates
from ._results_losses import distribute_losses, fatigue_unit, is_hq, steps_left
from ._results_retreat import MAX_PATHS, ResultsSetup, advance_paths, leave_hold, may_advance, retreat_options
from ._results_schema import STATE_SCHEMA

__all__ = ["start_stages", "run_stages", "choices", "choice_templates_now", "refusals_now", "apply_choice",
           "decider_side", "retreat_note", "policy", "validate_choice", "MAX_PATHS", "STATE_KEY", "STATE_SCHEMA"]

#: The plugin_state key of the result being applied.
STATE_KEY = "results"


def _alive(ctx: Any, ids: Any) -> list[str]:
    return [u for u in ids if ctx.state.has_unit(u)]


def _supplied(ctx: Any, uid: str) -> bool:
    a = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
    return True if a is None else bool(a.get("in_supply", True))


def _in_command(ctx: Any, uid: str) -> bool:
    a = ctx.hook.casebook_command(ctx=ctx, unit=uid)
    return True if a is None else bool(a.get("in_command", True))


def can_negate(ctx: Any, side: str, units: list[str]) -> bool:
    """Whether ``side`` may spend the IPs to negate a combat fatigue result on ``units``: the
    cost (``ip_cost`` for negate_fatigue) is on its ``ip`` track and every unit is allowed
    (permission ``negate_fatigue``: supplied and in command at the instant of combat)."""
    cost = ctx.value("ip_cost", {"ip_use": "negate_fatigue", "side": side})
    if ctx.state.track("ip", side) < cost or not units:
        return False
    return all(ctx.permission("negate_fatigue", {"supplied": _supplied(ctx, u), "in_command": _in_command(ctx, u),
                                                 "fatigue_source": "combat"}).value for u in units)


def _fatigue_target(ctx: Any, attackers: list[str]) -> list[str]:
    """The attacking unit a fatigue result falls on by the owner's default: an unfatigued
    combat unit, the one with most losses left, then the strongest."""
    units = [ctx.state.unit(a) for a in attackers if not is_hq(ctx.state.unit(a))]
    if not units:
        return []
    best = sorted(units, key=lambda u: (bool(u.get("fatigued")), -steps_left(ctx, u), -int(u.get("strength") or 0),
                                        u["id"]))
    return [best[0]["id"]]


def start_stages(ctx: Any, outcome: Mapping[str, Any], parsed: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The queue of stages for the CRT cell ``outcome["result"]`` (``parsed``): attacker fatigue,
    defender fatigue, attacker losses, the defender's retreat/losses, then the advance. A stack
    of HQs alone retreats on any result, at least one hex."""
    a, d = parsed["attacker"], parsed["defender"]
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
                      "n": int(ctx.value("retreat_hexes", {"result_number": d["number"],
                                                           "result_retreat": d["retreat"]})),
                      "forced": not ctx.allowed("choose_retreat_length", {"result_retreat": d["retreat"]}),
                      "number": d["number"], "hq_alone": False})
    return {"combat": {k: outcome[k] for k in ("hex", "attackers", "defenders", "attacker_side",
                                                 "defender_side", "kind", "result")},
            "queue": queue, "effects": [], "retreated": 0,  # the facts of retreat_hexes, named at the end
            **({"retreat_by": [d["number"], d["retreat"]]} if d["retreat"] or d["number"] else {}),
            **({"crt": {"odds": str(outcome["odds"]), "roll": int(outcome["modified_roll"])}}  # the cell read
               if outcome.get("odds") is not None and outcome.get("modified_roll") is not None else {})}


def _holds(ctx: Any, setup: ResultsSetup, units: list[str]) -> bool:
    """A unit of the stack carries, or its hex holds a marker of, one of ``setup.hold_marks``."""
    if not units or not setup.hold_marks:
        return False
    marks = setup.hold_marks
    hex_ = ctx.state.unit(units[0]).get("hex")
    return any(ctx.state.unit(u).get(m) for u in units for m in marks) or any(
        m.get("kind") in marks and m.get("hex") == hex_ for m in ctx.state.markers)


def _options(ctx: Any, setup: ResultsSetup, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> list[Action]:
    """The actions a stage offers its deciding side (bounded, deterministic)."""
    c = rec["combat"]
    side = stage.get("side", c["attacker_side"])
    if stage["type"] == "fatigue":
        declined = Action.make("negate-fatigue", side, negate=False)
        if not can_negate(ctx, side, _alive(ctx, stage["units"])):
            return [declined]  # asked only for the attacker's choice of the unit
        return [Action.make("negate-fatigue", side, negate=True), declined]
    if stage["type"] == "attacker_losses":
        return [Action.make("take-losses", side)]  # the default order; a template names the units
    if stage["type"] == "defender":
        if ctx.event_lines is None:  # a look-ahead or a query (no event's lines): once per version —
            key = ("results.retreats", c["hex"], side, tuple(c["defenders"]), tuple(c["attackers"]),
                   *(stage.get(k) for k in ("n", "forced", "number", "hq_alone")))  # a bot peeks at each
            return list(ctx.memo_kept(key, lambda: _retreats(ctx, setup, c, stage, side)))  # listed one
        return _retreats(ctx, setup, c, stage, side)
    if stage["type"] == "advance":
        movers = [u for u in _alive(ctx, c["attackers"]) if may_advance(ctx, setup, u)]
        out = [Action.make("advance", side, hold=True)]
        paths = advance_paths(ctx, side, c["hex"], rec.get("retreated", 0), stage["eliminated"])
        longest = max(len(p) for p in paths)
        for p in [paths[0]] + [p for p in paths if len(p) == longest and p != paths[0]][:MAX_PATHS]:
            fit = stack_fits(ctx, p[-1], movers)  # the listed advance names exactly who enters
            if fit:
                out.append(Action.make("advance", side, path=p, **{"with": fit}))
        return out
    return []


def _retreats(ctx: Any, setup: ResultsSetup, c: Mapping[str, Any], stage: Mapping[str, Any], side: str) -> list[Action]:
    """The retreat choices of a defender stage (:func:`_options`)."""
    units = _alive(ctx, c["defenders"])
    out: list[Action] = []
    lengths = [stage["n"]] if stage["forced"] else list(range(stage["n"], -1, -1))
    for r in lengths:
        for o in retreat_options(ctx, setup, units, c["hex"], side, r, c["attackers"])[:MAX_PATHS]:
            losses = stage["n"] - r + o["losses"]
            out.append(Action.make("retreat", side, path=o["path"] or None, losses=losses))
    if stage["forced"] and not stage["hq_alone"] and stage.get("number", 0) == 0 and _holds(ctx, setup, units):
        out.append(Action.make("retreat", side, losses=0, hold=True))  # the stack ignores the retreat
    return list(dict.fromkeys(out))


def policy(ctx: Any, setup: ResultsSetup, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> Action | None:
    """The default choice of a stage, for bots and results applied at once: negate fatigue
    whenever allowed; the defender takes the option with the fewest losses, retreating as far
    as it must (a holding stack ignores a retreat); the attackers advance into the cleared hex
    as far as stacking allows."""
    opts = _options(ctx, setup, rec, stage)
    if not opts:
        return None
    if stage["type"] == "defender":
        return min(opts, key=lambda a: (a.get("losses"), not a.get("hold", False), -len(a.get("path") or ())))
    if stage["type"] == "advance":
        return opts[1] if len(opts) > 1 else opts[0]
    return opts[0]


def _needs_decision(ctx: Any, setup: ResultsSetup, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> bool:
    """Whether the stage asks its side: fatigue it may negate or, for the attacker, a fatigue
    that may fall on more than one unit; attacker losses more than one unit could take; the
    defender's result whenever an option retreats (even a lone path: the side sees where it goes
    and what it overstacks, the ``retreat`` action recording it), else losses more than one unit
    could take; an advance with a choice."""
    attackers = [u for u in _alive(ctx, rec["combat"]["attackers"]) if not is_hq(ctx.state.unit(u))]
    if stage["type"] == "fatigue":
        return can_negate(ctx, stage["side"], _alive(ctx, stage["units"])) or (
            stage.get("who") == "attacker" and len(attackers) > 1)
    if stage["type"] == "attacker_losses":
        return len(attackers) > 1
    if stage["type"] not in ("defender", "advance"):
        return False
    options = _options(ctx, setup, rec, stage)
    if stage["type"] == "defender" and any(a.get("path") for a in options):
        return True  # a retreat is asked even when it is the lone option: the side sees where it goes
    if len(options) > 1 or stage["type"] == "advance" or stage.get("hq_alone"):
        return len(options) > 1
    defenders = [u for u in _alive(ctx, rec["combat"]["defenders"]) if not is_hq(ctx.state.unit(u))]
    return len(defenders) > 1 and any(int(a.get("losses", 0)) > 0 for a in options)


def _apply(ctx: Any, setup: ResultsSetup, rec: dict[str, Any], stage: dict[str, Any], action: Action | None) -> None:
    c, effects = rec["combat"], rec["effects"]
    if stage["type"] == "fatigue":
        units = fatigue_choice(action, _alive(ctx, stage["units"]))
        if action is not None and action.get("negate"):
            cost = ctx.value("ip_cost", {"ip_use": "negate_fatigue", "side": stage["side"]})
            ctx.state.add_track("ip", -cost, stage["side"])
            effects.append({"effect": "fatigue negated", "side": stage["side"], "ips": cost,
                            "cases": list(setup.cases("fatigue_negated"))})
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
                effects.append({"unit": u, "effect": "eliminated", "cases": list(setup.cases("hq_alone"))})
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
            hq = list(setup.cases("retreat_hq")) if any(is_hq(u) for u in survivors) else []
            hq += leave_hold(ctx, setup, [u["id"] for u in survivors], c["hex"])  # no hold kept on a retreat
            effects.append({"effect": "retreat", "units": [u["id"] for u in survivors], "path": path,
                            "cases": [*setup.cases("retreat", ctx), *hq]})
    elif stage["type"] == "advance" and action is not None and not action.get("hold"):
        path = list(action.get("path"))
        movers = stack_fits(ctx, path[-1], _alive(ctx, action.get("with") or ()))
        for u in movers:
            ctx.state.move_unit(u, path[-1])
        effects.append({"effect": "advance", "units": movers, "path": path, "cases": list(setup.cases("advance", ctx))})
    ctx.changed()


def _maybe_queue_advance(ctx: Any, rec: dict[str, Any]) -> None:
    c = rec["combat"]
    if any(s["type"] == "advance" for s in rec["queue"]) or rec.get("advance_done"):
        return
    if not _alive(ctx, c["attackers"]):
        return
    cleared = not ctx.state.units_at(c["hex"])
    if not ctx.allowed("advance_from_combat", {"hex_cleared": cleared}):
        if cleared:
            rec["advance_done"] = rec["cleared"] = True
        return
    eliminated = not any(ctx.state.has_unit(u) for u in c["defenders"]) and rec.get("retreated", 0) == 0
    rec["advance_done"] = True
    rec["cleared"] = cleared
    rec["queue"].append({"type": "advance", "side": c["attacker_side"], "eliminated": eliminated,
                         "mandatory": c["kind"] == "overrun"})


def run_stages(ctx: Any, setup: ResultsSetup, rec: dict[str, Any], interactive: bool,
               outcome: dict[str, Any] | None) -> dict[str, Any]:
    """Apply stages until one needs a decision (interactive: saved pending) or none is left;
    then record the ``combat-results`` event (``cites["results"]``)."""
    while True:
        if not rec["queue"]:
            _maybe_queue_advance(ctx, rec)
            if not rec["queue"]:
                break
        stage = rec["queue"][0]
        if interactive and _needs_decision(ctx, setup, rec, stage) and not stage.get("mandatory"):
            ctx.state.set_plugin_data(STATE_KEY, rec)
            out = dict(outcome or rec["combat"])
            out.update(pending=True, effects=rec["effects"], awaiting=stage["type"], decider=stage.get("side"))
            return out
        needs = _needs_decision(ctx, setup, rec, stage) or stage["type"] in ("defender", "advance")
        _apply(ctx, setup, rec, stage, policy(ctx, setup, rec, stage) if needs else None)
        rec["queue"].pop(0)
    ctx.state.set_plugin_data(STATE_KEY, None)
    if by := rec.get("retreat_by"):  # the event names the lines of its retreat length (11.0B)
        ctx.value("retreat_hexes", {"result_number": by[0], "result_retreat": by[1]})
    if (crt := rec.get("crt")) and ctx.trace is not None:  # and the CRT row its result was read from
        ctx.note_lines(tuple(crt_lines(ctx, crt["odds"], [crt["roll"]], 0)))
    ctx.record("combat-results", list(setup.cases("results")), {"combat": rec["combat"], "effects": rec["effects"]},
               source=f"{setup.plugin}.run_stages")
    out = dict(outcome or rec["combat"])
    out.update(pending=False, effects=rec["effects"], cleared=bool(rec.get("cleared")))
    return out


def _pending(ctx: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    rec = ctx.state.plugin_data(STATE_KEY)
    if not rec or not rec.get("queue"):
        return None
    return rec, rec["queue"][0]


def retreat_note(ctx: Any, action: Action) -> str | None:
    """A listed ``retreat`` of the pending defender stage whose path ends overstacked, in words:
    "overstacks 0305: 6 stacking points, limit 5 (6.2F, 7.5A, 6.2E)" (:func:`overstack_words`); else None."""
    from ._results_retreat import overstack_words

    found = _pending(ctx)
    if found is None or action.kind != "retreat" or not action.get("path") or found[1].get("type") != "defender":
        return None
    over = overstack_words(ctx, _alive(ctx, found[0]["combat"]["defenders"]), action.get("path")[-1])
    return None if over is None else f"overstacks {over[0]} ({', '.join(over[1])})"


def decider_side(ctx: Any) -> str | None:
    """The side whose choice the pending stage awaits, or None."""
    found = _pending(ctx)
    return found[1].get("side") if found else None


def choices(ctx: Any, setup: ResultsSetup) -> list[Action]:
    """The listed choices of the pending stage, or []."""
    found = _pending(ctx)
    return _options(ctx, setup, *found) if found else []


def choice_templates_now(ctx: Any, setup: ResultsSetup) -> list[Any]:
    """The templates of the pending stage (:func:`._results_choices.templates`), or []."""
    found = _pending(ctx)
    if not found:
        return []
    return choice_templates(ctx, setup, *found, _options(ctx, setup, *found))


def refusals_now(ctx: Any, setup: ResultsSetup, action: Action) -> list[Any] | None:
    """The refusals of ``action`` as a filling of one of the pending stage's templates, or None
    when it fills none of them."""
    found = _pending(ctx)
    if not found:
        return None
    if not any(t.matches(action) for t in choice_templates(ctx, setup, *found, _options(ctx, setup, *found))):
        return None
    return choice_refusals(ctx, setup, *found, action)


def apply_choice(ctx: Any, setup: ResultsSetup, action: Action) -> dict[str, Any]:
    """Apply a player's choice for the pending stage (listed, or a filled template that
    :func:`refusals_now` accepts), then run on (interactive). A choice the driver found listed
    (``ctx.listed``, a peek) is not listed again."""
    found = _pending(ctx)
    if not found or (ctx.listed != action and action not in _options(ctx, setup, *found)
                     and refusals_now(ctx, setup, action) != []):
        raise IllegalActionError(str(action), list(setup.cases("no_choice")), "no pending combat result offers this choice")
    rec = found[0]
    _apply(ctx, setup, rec, rec["queue"].pop(0), action)
    return run_stages(ctx, setup, rec, True, None)


#: The choices of a result and the cites of a choice that is not one of those listed.
_CHOICE_CITES = {"negate-fatigue": ("fatigue_negated",), "take-losses": ("loss_order", "loss_eliminated"),
                 "retreat": ("listed_retreat",), "advance": ("advance_path",)}


def validate_choice(ctx: Any, setup: ResultsSetup, action: Action) -> list[Refusal]:
    """The refusals of a choice action (``negate-fatigue``, ``take-losses``, ``retreat``,
    ``advance``): none when it is listed; a filled template's own; else no result awaits it
    (``cites["no_choice"]``) or it is not one of the choices listed."""
    if action.kind not in _CHOICE_CITES:
        return []
    legal = choices(ctx, setup)
    if action in legal:
        return []
    filled = refusals_now(ctx, setup, action)
    if filled is not None:
        return filled
    if not legal:
        return [Refusal(f"no combat result awaits a {action.kind} decision", setup.cases("no_choice"), setup.plugin)]
    cases = tuple(dict.fromkeys(c for k in _CHOICE_CITES[action.kind] for c in setup.cases(k, ctx)))
    return [Refusal(f"{action} is not one of the choices of the pending combat result: "
                    + "; ".join(str(a) for a in legal), cases, setup.plugin)]
