"""Moscow '41 rules plugin `results`: applying combat results (11.0-11.4, 10.6).

It wraps ``casebook_combat`` (the `combat` plugin rolls and reads the CRT; this plugin applies
the cell) with the shared results procedure (``casebook.areas._results_stages``: fatigue and
its negation for 1 IP, 11.1; attacker losses, the defender's choice of retreat and/or losses,
11.0B, 11.2; remnants, 11.3; HQs in combat, 10.6; the advance after combat, 11.4), configured
by :func:`setup` (``config/results.yaml``): the cases of its steps that no line of results.rules states, and the hedgehog
that ignores an R (14.4C). What a result does is read from the rule scripts (results.rules,
initiative.rules). Inside a combat step and in an overrun (9.5A) the deciding side chooses
(actions ``negate-fatigue``, ``take-losses``, ``retreat``, ``advance``, held pending in
``plugin_state.results``; while one waits, its choices are the only legal actions, 10.0F); a
result applied otherwise follows the procedure's policy (an overrun's advance always does:
"the overrunning stack must advance", 9.5B). This module reads the CRT cell notation (11.0A).
"""

from __future__ import annotations

from typing import Any

from casebook.areas._results_losses import apply_loss
from casebook.areas._results_retreat import RESULTS_CONFIG, ResultsSetup, retreat_question
from casebook.areas._results_stages import (
    STATE_SCHEMA,
    apply_choice,
    choice_templates_now,
    choices,
    decider_side,
    run_stages,
    start_stages,
    validate_choice,
)
from casebook.content.cases import implements
from casebook.content.packconfig import config_reader
from casebook.core.errors import QuestionError
from casebook.core.hooks import hookimpl

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "CONFIG", "setup", "retreat_answer", "apply_outcome", "parse_result"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["ip_cost"]}

QUESTIONS = {"retreat": "retreat UNIT --hexes N [--path HEX,…] — the legal retreat paths by priority and the "
                        "losses for hexes not retreated; with --path, whether that path is legal (11.2, 7.5)"}
_PLUGIN = "results"
_KINDS = ("negate-fatigue", "take-losses", "retreat", "advance")

#: The configs it reads (src/casebook/content/packconfig.py): config/results.yaml, the cases of
#: the steps no results.rules line states and the hedgehog that lets a stack ignore an R (14.4C).
CONFIG = {"results": RESULTS_CONFIG}
setup = config_reader("results", RESULTS_CONFIG, ResultsSetup)


@implements("11.0A", "11.0B")
def parse_result(text: str) -> dict[str, dict[str, Any]]:
    """A CRT cell ``"F1/R"`` as ``{"attacker": {"fatigue", "retreat", "number"}, "defender": …}``:
    before the slash the attacker's result, after it the defender's (11.0A); ``F`` fatigue, ``R``
    a retreat of one hex, a number n losses (attacker) or n hexes of retreat and/or losses
    (defender), ``-`` no effect (11.0B). ValueError on anything else."""
    parts = str(text).split("/")
    if len(parts) != 2:
        raise ValueError(f"CRT result {text!r}: expected 'attacker/defender'")
    out = {}
    for who, part in zip(("attacker", "defender"), parts):
        part = part.strip()
        rest = "" if part == "-" else part
        entry = {"fatigue": "F" in rest, "retreat": "R" in rest, "number": 0}
        digits = rest.replace("F", "").replace("R", "")
        if digits:
            if not digits.isdigit():
                raise ValueError(f"CRT result {text!r}: unknown {who} result {part!r}")
            entry["number"] = int(digits)
        out[who] = entry
    return out


@implements("10.0F")
def apply_outcome(ctx: Any, outcome: dict[str, Any], interactive: bool) -> dict[str, Any]:
    """Apply the CRT result of ``outcome`` (from the combat plugin) to the state, all of it
    before any other combat (10.0F); decisions are left pending when ``interactive``
    (``outcome["pending"]`` is then True)."""
    record = start_stages(ctx, outcome, parse_result(outcome["result"]))
    return run_stages(ctx, setup(ctx), record, interactive, outcome)


@hookimpl(wrapper=True)
def casebook_combat(ctx, attackers, hex, kind, support):
    outcome = yield
    if outcome is None or "result" not in outcome:
        return outcome
    # asked of the players in the Combat and Reaction Attacks Steps, and in an overrun (9.5A: "a
    # normal combat is resolved"): the movement area goes on once the choices are made
    interactive = bool((ctx.state.plugin_data("combat") or {}).get("interactive")) or kind == "overrun"
    return apply_outcome(ctx, outcome, interactive)


@hookimpl(tryfirst=True)
def casebook_decider(ctx, phase, step):
    return decider_side(ctx)


@hookimpl
def casebook_legal_actions(ctx, phase, step):
    return choices(ctx, setup(ctx))


@implements("10.0F")
@hookimpl(wrapper=True, specname="casebook_legal_actions")
def only_result_choices(ctx, phase, step):
    """10.0F "Immediately apply the results of the combat": while a result awaits a player's
    choice (an overrun's in the Movement Step too), its choices are the only legal actions."""
    lists = yield
    return [choices(ctx, setup(ctx))] if decider_side(ctx) else lists


@hookimpl(wrapper=True, specname="casebook_action_templates")
def only_result_templates(ctx, phase, step):
    """10.0F: while a result awaits a choice, only its templates are offered."""
    lists = yield
    return [choice_templates_now(ctx, setup(ctx))] if decider_side(ctx) else lists


@hookimpl
def casebook_validate_action(ctx, action):
    return validate_choice(ctx, setup(ctx), action)


@hookimpl
def casebook_action_templates(ctx, phase, step):
    """Who takes the F or the losses, who advances and where (``_results_choices``); a listing,
    whose lines are no refusal's."""
    with ctx.apart(recorded=False):
        return choice_templates_now(ctx, setup(ctx))


@hookimpl
def casebook_apply_action(ctx, action):
    if action.kind not in _KINDS:
        return None
    return apply_choice(ctx, setup(ctx), action)


def retreat_answer(ctx: Any, uid: str, hexes: int, path: list[str] | None = None) -> dict[str, Any]:
    """``retreat UNIT --hexes N [--path …]`` (the shared ``retreat_question``: 11.2, 7.5)."""
    return retreat_question(ctx, setup(ctx), uid, hexes, path)


@hookimpl
def casebook_answer(ctx, question, args, options):
    if question != "retreat":
        return None
    if len(args) != 1:
        raise QuestionError("usage: " + QUESTIONS["retreat"])
    hexes = options.get("hexes", 1)
    if not isinstance(hexes, int) or hexes < 0:
        raise QuestionError(f"retreat: --hexes must be a whole number >= 0, got {hexes!r}")
    path = options.get("path")
    if path is not None and (not isinstance(path, list) or not all(isinstance(h, str) for h in path)):
        raise QuestionError(f"retreat: --path must be hexes HEX,HEX…, got {path!r}")
    return retreat_answer(ctx, args[0], hexes, path)


@hookimpl
def casebook_combat_loss(ctx, unit, cases):
    """A combat loss outside a combat result (11.1D: a fatigued unit fatigued again), applied as a
    combat loss is (11.3, ``apply_loss``) and recorded."""
    effect = apply_loss(ctx, unit)
    effect = {**effect, "cases": [*cases, *effect["cases"]]}
    ctx.record("combat-loss", effect["cases"], effect, source="results.casebook_combat_loss")
    ctx.changed()
    return effect
