"""Shared rules area `combat`: the combat procedure of a game's scripts and CRT (for
example Moscow '41 10.0-10.7, 2.3, 0.7.3.3, 0.7.3.5; e.g. BM8; KP8).

Owner of the steps ``combat`` (the phasing player attacks with activated and reserve units) and
``reaction_attacks`` (the non-phasing player activates stacks to attack). It answers
``casebook_combat`` (odds, column, DRM, roll, CRT cell; the `results` area applies the cell) and
``casebook ask … attack``. An attack's defender support is a pending decision of the defender
(action ``support``) kept in ``plugin_state.combat``. A roll that notes a unit for a later
promotion (a game's ``note_FLAG`` lines) is :mod:`._combat_notes`; the procedure (``assess``,
``resolve``, ``attack_answer``, re-exported here) is :mod:`._combat_resolve`.

It holds no case id: a step no rule line states cites what the game's manifest gives under
``area_cases: combat:`` (keys ``no_target``, ``not_adjacent``, ``ip_short``, ``support_amount``,
``resolved``, ``combat_event``, ``answer``, …: :mod:`._game_cases`), else the cases heading the
game's own combat lines (a game with its own numbering, e.g. Kestrel Pass).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.areas._combat_listing import (
    attack_actions,
    attacker_templates,
    support_actions,
    support_templates,
    whole_ips,
)
from casebook.areas._combat_notes import (
    apply_raise,
    lapse_notes,
    noted_flags,
    raise_actions,
    raise_flag,
)
from casebook.areas._combat_odds import (
    combat_dice,
    dice_cases,
    rules_define,
)
from casebook.areas._combat_resolve import assess, attack_answer, resolve
from casebook.areas._combat_rules import (
    PLUGIN,
    attack_refusals,
    reaction_cost,
    record,
    save,
    support_allowed,
    support_refused,
)
from casebook.areas._combat_validators import awaited, cited
from casebook.areas._game_cases import STEP_KEYS
from casebook.areas.help import usage_line
from casebook.core.actions import Action
from casebook.core.dice import SIDES
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import parse_hex
from casebook.core.hooks import Refusal, hookimpl

__all__ = ["STATE_SCHEMA", "REQUIRES", "STEPS", "ACTIONS", "QUESTIONS", "HELP_RULES", "HELP_OPTIONS", "assess", "attack_answer", "resolve",
           "AREA_CASES", "defender_support_policy", "raise_actions"]  # assess, attack_answer, resolve: from ._combat_resolve
#: What a pack must hold for this area (src/casebook/content/requires.py): the CRT and the strength
#: and DRM quantities (dice, column shifts, IP costs and the Combat Modifiers Chart are optional).
REQUIRES = {"tables": ["crt"], "quantities": ["combat_strength", "attack_drm", "combat_dice"]}
#: the steps it asks the manifest's ``area_cases: combat:`` for (``casebook lint`` checks the block)
AREA_CASES = STEP_KEYS["combat"]

QUESTIONS = {"attack": "attack HEX --with UNIT,UNIT… [--support A,D] [--overrun] [--roll N] — odds, "
                       "column, DRM terms and every outcome of an attack ({cases})"}
#: The quantities and permissions whose cases the `attack` question's help quotes (the game's own).
HELP_RULES = {"attack": ("combat_strength", "attack_drm", "column_shift", "loss_shift", "combat_dice", "attack",
                         "attack_again", "defend_again")}
#: The options of the `attack` question only some games have, by the rule that gives them.
HELP_OPTIONS = {"attack": {"[--support A,D]": "ip_cost", "[--overrun]": "overrun"}}
_STEPS = {"combat": "attack", "reaction_attacks": "reaction"}
#: The sequence steps this area acts in (content/requires.py checks each step has an actor).
STEPS = tuple(_STEPS)
#: The action kinds this area offers only in its STEPS: a `why` of one elsewhere names those
#: steps and their cases (casebook.tools.cmd_ask.why_not_lines).
ACTIONS = ("attack",)


def defender_support_policy(ctx: Any, attackers: Sequence[str], hex_: str) -> int:
    """The default defender support for bots and overruns: none (IPs are kept for activations)."""
    return 0


@hookimpl
def casebook_combat(ctx, attackers, hex, kind, support):
    sup = dict(support or {})
    if "defender" not in sup:
        sup["defender"] = defender_support_policy(ctx, attackers, hex)
    return resolve(ctx, list(attackers), hex, kind, sup)


# ---------------------------------------------------------------------------- steps and actions
def _pending(ctx: Any) -> dict[str, Any] | None:
    return (ctx.state.plugin_data(PLUGIN) or {}).get("pending")


@hookimpl(tryfirst=True)
def casebook_decider(ctx, phase, step):
    pending = _pending(ctx)
    if pending:
        return pending["defender_side"]
    if (ctx.state.plugin_data("results") or {}).get("queue"):
        return None
    if step == "combat":
        return ctx.state.phasing
    if step == "reaction_attacks" and ctx.state.phasing:
        return ctx.state.other_side(ctx.state.phasing)
    return None


@hookimpl
def casebook_step_start(ctx, phase, step):
    if step in _STEPS:
        rec = record(ctx)
        rec.update(attacked_step=[], defended_step=[])
        rec.pop("pending", None)
        save(ctx, rec)


@hookimpl
def casebook_step_end(ctx, phase, step):
    """At the end of the combat step, the phasing side's units the game's ``mark_reserve`` lines
    permit are marked Reserve (facts ``activated``, ``reserve``, ``attacked``: this phase,
    ``unit_class``; e.g. 0.7.3.3B: activated units that did not attack); notes the game's
    ``keep_FLAG_notes`` lines forbid keeping past a step lapse (:func:`~._combat_notes.lapse_notes`)."""
    lapse_notes(ctx, step)
    code = ctx.rules.permissions.get("mark_reserve")
    if step != "combat" or code is None:
        return  # a game without Reserve markers
    rec = record(ctx)
    attacked = set(rec["attacked_phase"])
    for u in ctx.state.units:
        if u.get("side") == ctx.state.phasing and ctx.allowed("mark_reserve", {
                "activated": bool(u.get("activated")), "reserve": bool(u.get("reserve")),
                "attacked": u["id"] in attacked, "unit_class": u.get("class")}):
            ctx.state.update_unit(u["id"], reserve=True)
    cases = list(dict.fromkeys(c for _, rc, _ in code.lines for c in rc.cases))
    ctx.record("reserve", cases, {}, source="combat.casebook_step_end")


@hookimpl
def casebook_legal_actions(ctx, phase, step):
    pending = _pending(ctx)
    if pending:
        return support_actions(ctx, pending)
    raising = raise_actions(ctx, step)
    if raising is not None:
        return raising
    if step not in _STEPS or (ctx.state.plugin_data("results") or {}).get("queue"):
        return []
    kind = _STEPS[step]
    side = casebook_decider(ctx, phase, step)
    if not side:
        return []
    return attack_actions(ctx, side, kind) + [Action.make("pass", side)]


@hookimpl
def casebook_action_templates(ctx, phase, step):
    """Which units join an attack (10.3A, 6.2D) and the amount of combat support, attacker's or
    defender's (10.4.2A): _combat_listing. A listing: its lines are no refusal's (``ctx.apart``)."""
    with ctx.apart(recorded=False):
        return _templates(ctx, phase, step)


def _templates(ctx, phase, step):
    listed = casebook_legal_actions(ctx, phase, step)
    pending = _pending(ctx)
    out = []
    side = casebook_decider(ctx, phase, step)
    if not pending and step in _STEPS and side and not (ctx.state.plugin_data("results") or {}).get("queue"):
        out += attacker_templates(ctx, side, _STEPS[step], listed)
    if rules_define(ctx, "ip_cost"):
        out += support_templates(ctx, listed, pending)
    return out


@hookimpl
def casebook_validate_action(ctx, action):
    amount = {"attack": "support", "support": "ips"}.get(action.kind)
    if amount and whole_ips(action.get(amount, 0)) is None:
        return [Refusal(f"{amount} must be a whole number of IPs, 0 or more", cited(ctx, "support_amount"), PLUGIN)]
    if action.kind == "attack":
        kind = _STEPS.get(ctx.state.step, "attack")  # 10.0C, 10.0F: the combat before it is not over, first
        return awaited(ctx) + attack_refusals(ctx, action.side, str(action.get("hex")),
                                              list(action.get("with") or ()), kind, int(action.get("support", 0)))
    flag = raise_flag(ctx, action.kind)
    if flag is not None:
        if action not in (raise_actions(ctx, ctx.state.step) or ()):
            cases = noted_flags(ctx)[flag]
            return [Refusal(f"{action.get('unit')} was not noted for {flag}, or a line of raise_{flag} forbids "
                            f"raising it now, or {action.side} lacks the IPs", cases, PLUGIN)]
        return []
    if action.kind == "support":
        pending = _pending(ctx)
        if not pending or action.side != pending["defender_side"]:
            return [Refusal("no attack awaits this side's combat support", cited(ctx, "no_support_awaited"), PLUGIN)]
        ips = int(action.get("ips", 0))
        out = []
        if ips < 0 or ips > ctx.state.track("ip", action.side):
            out.append(Refusal(f"{action.side} has {ctx.state.track('ip', action.side)} IPs", cited(ctx, "ip_short"), PLUGIN))
        if ips:
            verdict = support_allowed(ctx, [u["id"] for u in ctx.state.units_at(pending["hex"])], False)
            if verdict is not None and not verdict.value:
                whys, _ = support_refused(ctx, [u["id"] for u in ctx.state.units_at(pending["hex"])], False)
                out.append(Refusal(f"the defenders must be in supply and in command to receive support: {whys}",
                                   cited(ctx, "support_refused"), PLUGIN))
        return out
    return []


def _resolve_pending(ctx: Any, pending: Mapping[str, Any], defender_ips: int) -> dict[str, Any]:
    rec = record(ctx)
    rec["interactive"] = True
    rec.pop("pending", None)
    save(ctx, rec)
    out = ctx.hook.casebook_combat(ctx=ctx, attackers=pending["attackers"], hex=pending["hex"],
                                   kind=pending["kind"], support={"attacker": pending["attacker_support"],
                                                                  "defender": defender_ips})
    rec = record(ctx)
    rec.pop("interactive", None)
    save(ctx, rec)
    return out


@hookimpl
def casebook_apply_action(ctx, action):
    """``attack`` (reaction cost paid and attackers marked activated in the reaction step; Reserve
    markers removed, 0.7.3.3A), then the defender's ``support`` (10.0C), then the roll."""
    if action.kind == "attack":
        side, hex_ = action.side, str(action.get("hex"))
        attackers = list(action.get("with"))
        kind = _STEPS.get(ctx.state.step, "attack")
        if kind == "reaction":
            ctx.state.add_track("ip", -reaction_cost(ctx, side, attackers), side)
            for a in attackers:
                ctx.state.update_unit(a, activated=True)
        for a in attackers:
            if ctx.state.unit(a).get("reserve"):
                ctx.state.update_unit(a, reserve=None)
        defender = ctx.state.units_at(hex_)[0]["side"]
        pending = {"attackers": attackers, "hex": hex_, "kind": kind, "attacker_support": int(action.get("support", 0)),
                   "attacker_side": side, "defender_side": defender}
        ctx.changed()
        rec = record(ctx)
        rec["pending"] = pending
        save(ctx, rec)
        if len(casebook_legal_actions(ctx, ctx.state.phase, ctx.state.step)) > 1:
            return {"pending": "support", "defender": defender, "attack": pending}
        return _resolve_pending(ctx, pending, 0)
    flag = raise_flag(ctx, action.kind)
    if flag is not None:
        return apply_raise(ctx, action, flag)
    waiting = _pending(ctx) if action.kind == "support" else None
    if waiting is not None:
        return _resolve_pending(ctx, waiting, int(action.get("ips", 0)))
    return None


# ---------------------------------------------------------------------------- the question
@hookimpl
def casebook_answer(ctx, question, args, options):
    if question != "attack":
        return None
    if len(args) != 1 or not options.get("with"):
        raise QuestionError("usage: " + usage_line(ctx.rules, QUESTIONS["attack"], HELP_RULES["attack"],
                                                       HELP_OPTIONS["attack"]))
    try:
        on_map = ctx.board.contains(parse_hex(args[0]))
    except ValueError as exc:
        raise QuestionError(str(exc)) from None
    if not on_map:
        raise QuestionError(f"hex {args[0]} is off the map ({ctx.board.grid.describe()})")
    roll = options.get("roll")
    if roll is not None:  # a roll the combat dice can show (two dice 2-12, 10.0D; one 1-6, BM8.4)
        dice = combat_dice(ctx)
        if not isinstance(roll, int) or not dice <= roll <= dice * SIDES:
            cases = dice_cases(ctx)
            raise QuestionError(f"--roll {roll!r}: the combat dice ({dice} × d{SIDES}, by "
                                f"{', '.join(cases)}) roll {dice}-{dice * SIDES}")
    return attack_answer(ctx, args[0], list(options["with"]), options.get("support") or (0, 0),
                         bool(options.get("overrun")), roll)


class _PendingAttack(TypedDict):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    attackers: list[str]
    hex: str
    kind: str
    attacker_support: Annotated[int, Field(ge=0)]
    attacker_side: str
    defender_side: str


class STATE_SCHEMA(TypedDict, total=False, extra_items=list[str]):  # type: ignore[call-arg]  # noqa: N801  (PEP 728: mypy does not know extra_items yet; read by core/savecheck.py)
    """``plugin_state.combat``: this phase's attacks and defences (10.1), an attack awaiting the
    defender's support (``pending``), and one list of noted unit ids per flag a game's
    ``note_FLAG`` lines note units for (:mod:`._combat_notes`; key: the flag; any other key
    must be such a list of unit ids too, PEP 728 ``extra_items``)."""

    phase: str
    attacked_phase: list[str]
    attacked_step: list[str]
    defended_step: list[str]
    pending: _PendingAttack
    interactive: bool
