"""Moscow '41 fortifications (14.0-14.3) and German hedgehogs (14.4).

- FPs: received in the Soviet Replacement and Reinforcement Step (14.1A, 14.1H), normal ones
  saved (14.1F), Moscow ones lost at the end of the step (14.1G).
- ``soviet: build-fort hex=2443 [unit=s-5rd]``: a Fortification marker for ``fort_cost`` FPs
  (14.1B-E; ``games/moscow41/rules/fortification.rules``).
- Effects (14.2): the facts ``fortification`` (a hex), ``fortified`` / ``across_fortification``
  / ``attackers_fortified`` (an attack ``{"hex", "attackers"}``) through ``casebook_facts``; the
  numbers (+1 strength, -1 DRM, 14.2C) are in ``combat.rules``.
- Destruction (14.3): after a German move or advance into an unoccupied fortification.
- ``german: hedgehog stack=0303 [remove=true]`` (14.4A-B); hedgehog units cannot move (14.4C);
  the facts ``hedgehog``, ``hedgehog_ignores_retreat`` of a unit (14.4C).
- A scattered paratroop is fatigued automatically (14.4D2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.areas import formation
from casebook.areas import worksites as ws
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hooks import Refusal, hookimpl
from casebook.core.state import HEX_RE

from . import _fortification_build as build
from . import _fortification_effects as fx

__all__ = ["REQUIRES", "CONFIG", "STATE_SCHEMA", "QUESTIONS", "fortification_answer", "unit_facts"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["fort_cost", "fp_income"]}
#: The configs it reads (src/casebook/content/packconfig.py): config/fieldworks.yaml, worksites.yaml.
CONFIG = {**fx.CONFIG, "worksites": ws.SITES_CONFIG}

#: question -> usage line, for `casebook ask` (see docs/ask.md)
QUESTIONS: dict[str, str] = {
    "fortification": "fortification HEX [--with ATTACKERS] — what fortifies a hex, what building "
                     "one there costs and whether it may be built (14.1-14.2)",
}
_STEP = "replacement_reinforcement"


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    if step == _STEP and ctx.state.phasing == "soviet":
        build.collect_fps(ctx)


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    if step == _STEP and ctx.state.phasing == "soviet":
        build.expire_moscow_fps(ctx)


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    side = ctx.state.phasing
    if step == _STEP and side == "soviet":
        return build.build_actions(ctx, side)
    if side == "german" and step in ("command", "movement"):
        return fx.hedgehog_actions(ctx, step)
    return []


@hookimpl
def casebook_validate_action(ctx: Any, action: Action) -> list[Refusal]:
    if action.kind == "build-fort":
        return build.build_refusals(ctx, action)
    if action.kind == "hedgehog":
        return fx.hedgehog_refusals(ctx, action)
    return fx.movement_refusals(ctx, action)


@hookimpl
def casebook_apply_action(ctx: Any, action: Action) -> Any:
    if action.kind == "build-fort":
        return build.apply_build(ctx, action)
    if action.kind == "hedgehog":
        return fx.apply_hedgehog(ctx, action)
    return None


@hookimpl
def casebook_after_action(ctx: Any, action: Action, result: Any) -> None:
    """After any action: note who moved or attacked (14.4A), destroy fortifications the Germans
    entered (14.3), fatigue newly scattered paratroops (14.4D2)."""
    fx.note_acted(ctx, action)
    fx.destroy_entered(ctx, action)
    fx.scatter_fatigue(ctx)


@implements("14.4C")
def unit_facts(ctx: Any, uid: str) -> dict[str, Any]:
    """Facts of a unit: ``hedgehog`` (in hedgehog formation: -1 DRM when attacked, 14.4C, and
    halved when attacking, 14.4D, both in ``combat.rules``) and ``hedgehog_ignores_retreat`` (it
    may ignore R results, 14.4C) and ``removed_hedgehog`` (it has just removed its marker and
    nothing moved since: the movement plugin lets it declare a force march, 14.4B)."""
    w = fx.works(ctx)
    return {**formation.formation_facts(ctx, w, uid, ("hedgehog", "hedgehog_ignores_retreat")),
            **formation.march_facts(ctx, w, uid)}


@hookimpl
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """A hex label: ``fortification`` (14.2A-B); an attack ``{"hex", "attackers"}``: the 14.2
    attack facts; a unit id: the 14.4C hedgehog facts."""
    if isinstance(subject, Mapping) and isinstance(subject.get("hex"), str) and "attackers" in subject:
        return fx.attack_facts(ctx, subject["hex"], list(subject["attackers"]))
    if isinstance(subject, str) and HEX_RE.match(subject):
        return {"fortification": {"value": fx.fortification_info(ctx, subject),
                                  "cases": ["14.2A", "14.2B", "14.3B"]}}
    if isinstance(subject, str) and ctx.state.has_unit(subject):
        return unit_facts(ctx, subject)
    return None


def fortification_answer(ctx: Any, hex_: str, attackers: list[str] | None = None) -> dict[str, Any]:
    """``casebook ask fortification HEX [--with A,B]``: ``{"hex", "fortification": {"marker",
    "printed_from", "destroyed"}, "build": {"cost", "allowed", "refused": [{"reason", "cases"}]},
    "attack": {...} (with attackers), "fp": {"normal", "moscow"}, "cases"}``. Raises
    QuestionError for a hex off the map."""
    built = build.build_answer(ctx, hex_)  # first: QuestionError for a label that is no hex
    out = {"hex": hex_, "fortification": fx.fortification_info(ctx, hex_), "build": built,
           "fp": {k: ctx.state.track("fp", k) for k in fx.works(ctx).point_kinds},
           "cases": _deciding_cases(ctx, built, attackers)}
    if attackers:
        missing = [a for a in attackers if not ctx.state.has_unit(a)]
        if missing:
            raise QuestionError(f"no such units: {', '.join(missing)}")
        out["attack"] = {k: v["value"] for k, v in fx.attack_facts(ctx, hex_, attackers).items()}
    return out


def _deciding_cases(ctx: Any, built: dict[str, Any], attackers: list[str] | None) -> list[str]:
    """The cases of the lines that decided a fortification answer: the cost's (14.1B), the refusals'
    (else every ``forbid build_fort`` line's, none of which fired), 14.2A-B for an attack."""
    perm = ctx.engine.rules.permissions.get("build_fort")
    build = [c for r in built["refused"] for c in r["cases"]] or [
        c for _, code, _ in (perm.lines if perm is not None else ()) for c in code.cases]
    return list(dict.fromkeys(["14.1B", *build, *(["14.2A", "14.2B"] if attackers else [])]))


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Any) -> Any:
    if question != "fortification":
        return None
    if len(args) != 1:
        raise QuestionError("usage: " + QUESTIONS["fortification"])
    return fortification_answer(ctx, args[0], list(options.get("with") or []) or None)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.fortification``: unit -> the turn it had a fortification built (14.1D),
    unit -> the "turn:phase" it moved or attacked (``acted``), formed a hedgehog (``formed``, 14.4A) or left one
    (``unhedged``) and may force march (``marchable``) or did (``marched``, 14.4B), the scattered paratroops already fatigued (14.4D2)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    builders: dict[str, Annotated[int, Field(ge=1)]]
    acted: dict[str, str]
    formed: dict[str, str]
    unhedged: dict[str, str]
    marchable: dict[str, str]
    marched: dict[str, str]
    scatter_fatigued: list[str]
