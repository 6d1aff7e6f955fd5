"""Moscow '41 rules plugin `command` (2.0-2.2, 2.5, 8.0-8.4, 0.7.3.1, 0.7.3.8).

Owner of the steps ``command`` (0.7.3.1: activate one HQ with the stacks in its command radius,
or one stack on its own with a Reserve marker) and ``recovery`` (0.7.3.8: spend IPs to remove
fatigue; at its end Activation markers come off all units of both sides). Answers
``casebook_command`` and ``casebook ask … command UNIT``; publishes the fact ``in_command``.

Plugin data ``command``: ``{"done": bool, "activated_by": {unit: HQ}}`` — something was
activated in this Command Step (one HQ or one stack per step, 2.1A, 2.2A; the loop of 0.7.3.6
brings the next step), and which HQ activated each unit this turn (10.4.2B; cleared with the
Activation markers, 0.7.3.8B).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.areas import activation as act
from casebook.content.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hooks import hookimpl
from casebook.games.moscow41.plugins import _command_steps as steps
from casebook.games.moscow41.plugins._area_config import command_paths
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed

__all__ = ["REQUIRES", "CONFIG", "STATE_SCHEMA", "QUESTIONS", "command_answer", "clear_activation", "activated_by"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["hq_activation_limit", "hq_support_limit", "ip_cost"]}
#: The configs it reads (src/casebook/content/packconfig.py): config/command.yaml.
CONFIG = {"command": steps.CommandConfig}

#: question -> usage line, for `casebook ask` (see docs/ask/command.md)
QUESTIONS: dict[str, str] = {"command": "command UNIT — is the unit in command, of which HQs (8.0-8.4)"}

_KINDS = ("activate-hq", "activate-stack", "recover")


@implements("0.7.3.8B", "2.0", "8.2B", "8.2C")
def clear_activation(ctx: Any) -> list[str]:
    """Remove the Activation (and Reserve) markers from all units of both sides and flip the HQs
    back (0.7.3.8B; 2.0: until then an activated unit cannot be used again): the activation
    area's. Activation is a marker on the unit, not a position: a unit that left its HQ's radius
    stays activated and may still overrun and attack (8.2B-C). Returns the unit ids cleared."""
    return act.clear_activation(command_paths(ctx), ctx)


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    if step == "command":
        data = dict(ctx.state.plugin_data("command") or {})
        data["done"] = False
        ctx.state.set_plugin_data("command", data)


@hookimpl
def casebook_decider(ctx: Any, phase: str, step: str) -> str | None:
    """The phasing side decides in the Command and Recovery Steps (0.7.3.1A, 0.7.3.8A); once a
    Command Step has its activation, nobody (the step ends)."""
    if step not in ("command", "recovery"):
        return None
    if step == "command" and act.done(command_paths(ctx), ctx):
        return "none"
    return act.step_side(command_paths(ctx), ctx) if ctx.state.phasing else "none"


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Any]:
    side = ctx.state.phasing
    if step not in ("command", "recovery") or not side:
        return []
    if step == "command" and act.done(command_paths(ctx), ctx):
        return []
    return steps.legal(ctx, step, side)


@hookimpl
def casebook_action_templates(ctx: Any, phase: str, step: str) -> list[Any]:
    """The Command Step's choice of stacks for each activatable HQ (0.7.3.1B)."""
    side = ctx.state.phasing
    if step != "command" or not side or act.done(command_paths(ctx), ctx):
        return []
    return steps.templates(ctx, step, side)


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Any]:
    if action.kind not in _KINDS:
        return []
    return steps.refusals(ctx, action)


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    if action.kind not in _KINDS:
        return None
    return steps.apply(ctx, action)


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """The Activation markers come off at the end of the step the ``remove_activation_markers``
    lines allow (command.rules: the Recovery Step, 0.7.3.8B)."""
    if memo_allowed(ctx, "remove_activation_markers", {"ending_step": step}):
        clear_activation(ctx)


def command_answer(ctx: Any, uid: str) -> dict[str, Any]:
    """Whether ``uid`` is in command, of which HQs (the command area's answer: 8.0-8.1, 8.3.1B,
    8.3.2B; an HQ is always in command, 8.1C, 8.0B; a panzer regiment is in command of any German
    HQ, 2.2D, but only a mechanized one can activate it, 2.2C). KeyError if not on the map."""
    return command_paths(ctx).answer(ctx, uid)


def activated_by(ctx: Any, unit: str) -> str | None:
    """The HQ whose activation activated ``unit`` this turn (10.4.2B "the activating HQ"), or
    None (not activated, or activated on its own: 2.2A, 2.4)."""
    return act.activated_by(command_paths(ctx), ctx, unit)


@hookimpl
def casebook_command(ctx: Any, unit: str) -> dict[str, Any] | None:
    """:func:`command_answer`, plus ``"activated_by": HQ`` for a unit activated by an HQ."""
    if not ctx.state.has_unit(unit) or not ctx.state.unit(unit).get("hex"):
        return None
    answer = command_answer(ctx, unit)
    hq = activated_by(ctx, unit)
    return answer if hq is None else {**answer, "activated_by": hq}


@hookimpl
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """``in_command`` of a unit id (8.0A)."""
    if not isinstance(subject, str) or not ctx.state.has_unit(subject) \
            or not ctx.state.unit(subject).get("hex"):
        return None
    answer = command_answer(ctx, subject)
    return {"in_command": {"value": answer["in_command"], "cases": answer["cases"]}}


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Any) -> Any:
    if question != "command":
        return None
    if len(args) != 1:
        raise QuestionError("usage: command UNIT")
    if not ctx.state.has_unit(args[0]) or not ctx.state.unit(args[0]).get("hex"):
        from casebook.content.schema import did_you_mean  # as reach's and why's unknown units

        raise QuestionError(f"command: no unit {args[0]!r} on the map"
                            + did_you_mean(args[0], [u["id"] for u in ctx.state.units if u.get("hex")]))
    return casebook_command(ctx, args[0])


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.command``: whether the Command Step's activations are done, and which HQ
    activated each unit this turn (10.4.2B)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    done: bool
    activated_by: dict[str, str]
