"""Moscow '41 rules plugin `results`: applying combat results (11.0-11.4, 10.6).

It wraps ``casebook_combat`` (the `combat` plugin rolls and reads the CRT; this plugin applies
the cell): fatigue and its negation for 1 IP (11.1), attacker losses, the defender's choice of
retreat and/or losses (11.0B, 11.2), remnants (11.3), HQs in combat (10.6) and the advance after
combat (11.4). Inside a combat step and in an overrun (9.5A) the deciding side chooses (actions
``negate-fatigue``, ``take-losses``, ``retreat``, ``advance``, held pending in
``plugin_state.results``; while one waits, its choices are the only legal actions, 10.0F); a
result applied otherwise follows ``_results_stages.policy`` (an overrun's advance always does:
"the overrunning stack must advance", 9.5B).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hooks import Refusal, hookimpl
from casebook.games.moscow41.plugins._results_losses import apply_loss
from casebook.games.moscow41.plugins._results_retreat import path_refusals, retreat_options
from casebook.games.moscow41.plugins._results_stages import _MAX_PATHS as MAX_PATHS
from casebook.games.moscow41.plugins._results_stages import (
    apply_choice,
    choice_templates_now,
    choices,
    decider_side,
    refusals_now,
    run_stages,
    start_stages,
)

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "retreat_answer", "apply_outcome"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["ip_cost"]}

QUESTIONS = {"retreat": "retreat UNIT --hexes N [--path HEX,…] — the legal retreat paths by priority and the "
                        "losses for hexes not retreated; with --path, whether that path is legal (11.2, 7.5)"}
_PLUGIN = "results"
_KINDS = ("negate-fatigue", "take-losses", "retreat", "advance")


def apply_outcome(ctx: Any, outcome: dict[str, Any], interactive: bool) -> dict[str, Any]:
    """Apply the CRT result of ``outcome`` (from the combat plugin) to the state; decisions are
    left pending when ``interactive`` (``outcome["pending"]`` is then True)."""
    record = start_stages(ctx, outcome)
    return run_stages(ctx, record, interactive, outcome)


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
    return choices(ctx)


@implements("10.0F")
@hookimpl(wrapper=True, specname="casebook_legal_actions")
def only_result_choices(ctx, phase, step):
    """10.0F "Immediately apply the results of the combat": while a result awaits a player's
    choice (an overrun's in the Movement Step too), its choices are the only legal actions."""
    lists = yield
    return [choices(ctx)] if decider_side(ctx) else lists


@hookimpl(wrapper=True, specname="casebook_action_templates")
def only_result_templates(ctx, phase, step):
    """10.0F: while a result awaits a choice, only its templates are offered."""
    lists = yield
    return [choice_templates_now(ctx)] if decider_side(ctx) else lists


@hookimpl
def casebook_validate_action(ctx, action):
    if action.kind not in _KINDS:
        return []
    legal = choices(ctx)
    if action in legal:
        return []
    filled = refusals_now(ctx, action)  # a filled template: its own refusals (_results_choices)
    if filled is not None:
        return filled
    if not legal:
        return [Refusal(f"no combat result awaits a {action.kind} decision", ("10.0F",), _PLUGIN)]
    cases = {"negate-fatigue": ("11.1A", "11.1B"), "take-losses": ("11.0B", "11.3A"), "retreat": ("11.2B", "11.2C"),
             "advance": ("11.4B", "11.4C", "11.4D")}[action.kind]
    return [Refusal(f"{action} is not one of the choices of the pending combat result: "
                    + "; ".join(str(a) for a in legal), cases, _PLUGIN)]


@hookimpl
def casebook_action_templates(ctx, phase, step):
    """Who takes the F or the losses, who advances and where (_results_choices)."""
    return choice_templates_now(ctx)


@hookimpl
def casebook_apply_action(ctx, action):
    if action.kind not in _KINDS:
        return None
    return apply_choice(ctx, action)


@implements("11.2B", "11.2C", "7.5B")
def retreat_answer(ctx: Any, uid: str, hexes: int, path: list[str] | None = None) -> dict[str, Any]:
    """``retreat UNIT --hexes N``: the unit's stack retreating N hexes — every legal path of the
    greatest length possible, best first, with the losses for hexes not retreated (11.2B); the
    attackers are taken to be the adjacent enemy units. The paths are those of the retreat prompt
    (:func:`retreat_options`: no other area's validator refuses them, 6.2F); ``offered`` marks
    the best :data:`MAX_PATHS` the prompt lists as actions. With ``path``, ``"given"`` judges that
    path as the retreat prompt judges a typed ``retreat path=…`` (``path_refusals``):
    ``{"path", "legal", "refusals": [{"reason", "cases"}]}``."""
    try:
        unit = ctx.state.unit(uid)
    except KeyError:
        raise QuestionError(f"retreat: no unit {uid!r} on the map") from None
    if "hex" not in unit:
        raise QuestionError(f"retreat: unit {uid!r} is not on the map")
    stack = [u["id"] for u in ctx.state.units_at(unit["hex"]) if u.get("side") == unit["side"]]
    from casebook.core.hexgrid import hex_label, parse_hex
    adjacent = [u["id"] for n in ctx.board.neighbours(parse_hex(unit["hex"]))
                for u in ctx.state.units_at(hex_label(n)) if u.get("side") != unit["side"]]
    options = retreat_options(ctx, stack, unit["hex"], unit["side"], hexes, adjacent)
    for i, o in enumerate(options):  # the retreat prompt offers the best few of each length
        o["offered"] = i < MAX_PATHS
    out = {"unit": uid, "hex": unit["hex"], "stack": stack, "hexes": hexes,
           "presumed_attackers": adjacent, "options": options,
           "losses": options[0]["losses"] if options else hexes,
           "cases": ["11.2A", "11.2B", "11.2C", "7.5A", "7.5B"]}
    if path is not None:
        found = path_refusals(ctx, stack, unit["hex"], unit["side"], path, hexes, adjacent)
        out["given"] = {"path": list(path), "legal": not found,
                        "refusals": [{"reason": r.reason, "cases": list(r.cases)} for r in found]}
    return out


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
    combat loss is (11.3, :func:`apply_loss`) and recorded."""
    effect = apply_loss(ctx, unit)
    effect = {**effect, "cases": [*cases, *effect["cases"]]}
    ctx.record("combat-loss", effect["cases"], effect, source="results.casebook_combat_loss")
    ctx.changed()
    return effect


class _Combat(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    hex: str
    attackers: list[str]
    defenders: list[str]
    attacker_side: str
    defender_side: str
    kind: str
    result: str


class _Stage(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    type: str
    who: str
    side: str
    units: list[str]
    n: Annotated[int, Field(ge=0)]
    number: Annotated[int, Field(ge=0)]
    forced: bool
    hq_alone: bool
    eliminated: bool
    mandatory: bool


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.results``: a combat result being applied, its stages still to run (the
    first awaiting a player's choice), the effects so far (see ``_results_stages``)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    combat: _Combat
    queue: list[_Stage]
    effects: list[dict[str, Any]]
    retreated: Annotated[int, Field(ge=0)]
    advance_done: bool
    cleared: bool
