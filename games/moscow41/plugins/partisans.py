"""Moscow '41 partisans (16.0-16.3): points from remnants, Partisan markers, their effects.

- Soviet Recovery Step: ``soviet: disband-remnant unit=s-rem-03`` removes a remnant (16.1B, "as
  many more as desired"); at the end of the step every remnant that cannot trace supply is removed
  too (16.1B, 5.5B-C) and the Partisan Track gains one point per three removed in that step
  (rule ``partisan_points_gained``; fractions lost). The tally is ``plugin_data("partisans")``.
- Soviet Replacement and Reinforcement Step: ``soviet: place-partisan hex=2520`` buys one marker
  for one point (16.1C) and places it (16.2: not within 5 hexes of a German unit; at most five in
  play, 16.1D) — a declared action of ``games/moscow41/rules/partisans.rules`` (its ``offer``
  block and ``place_partisan`` lines), listed, refused and carried out by the ``declared_actions``
  plugin (src/casebook/script/declared.py), not here.
- Effects: the marker's hex is a Soviet ZOC (16.3A) — the ``marker_zoc`` lines of
  ``games/moscow41/rules/zoc.rules``, read by the ZOC area (``casebook_zoc_sources``), so its
  map (read by supply, command, retreat, movement and ``ask zoc``) holds it; it is removed when a German unit enters its
  hex during a German movement action (16.3B) and at the end of the German half of every turn
  (16.3C); a removed marker is gone and must be bought again (16.3D).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.areas import unit_points
from casebook.content.cases import implements
from casebook.content.packconfig import config_reader
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import parse_hex
from casebook.core.hooks import Refusal, hookimpl

from ._area_config import phasing

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "CONFIG", "tally", "markers", "enemy_distance",
           "remove_markers_entered", "casebook_legal_actions", "casebook_validate_action",
           "casebook_apply_action", "casebook_after_action", "casebook_step_end",
           "partisans_answer", "casebook_answer"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["partisan_marker_cost", "partisan_points_gained"]}

#: question -> usage line, for `casebook ask` (see docs/ask/partisans.md)
QUESTIONS: dict[str, str] = {
    "partisans": "partisans [HEX] — the Partisan Track, the markers in play and their ZOC, where a "
                 "marker may be placed now (16.1-16.3)",
}
PLUGIN = "partisans"
#: the distance of ``partisan_enemy_distance`` when there is no enemy unit (facts.yaml)
FAR = 999


#: The configs it reads (src/casebook/content/packconfig.py): config/unit_points.yaml, Moscow '41's
#: names for the shared area ``unit_points`` (remnants given up for Partisan points, 16.1A-B; the
#: Partisan markers and what removes them, 16.3B-D).
CONFIG = {"unit_points": unit_points.TALLY_CONFIG}
tally = config_reader("unit_points", unit_points.TALLY_CONFIG, unit_points.Tally)


def markers(ctx: Any) -> list[str]:
    """Hexes of the Partisan markers in play (16.1D)."""
    return unit_points.markers(ctx, tally(ctx).marker)


@implements("16.2")
def enemy_distance(ctx: Any, hex_: str, side: str = "soviet") -> int:
    """Hexes from ``hex_`` to the nearest unit of ``side``'s enemy (16.2), the rule-script
    quantity ``partisan_enemy_distance`` (999 if none). ValueError if ``hex_`` is no hex label."""
    parse_hex(hex_)
    return int(ctx.value("partisan_enemy_distance", {"hex": hex_, "side": side}))


@implements("16.3B", "16.3D")
def remove_markers_entered(ctx: Any, action: Any) -> list[str]:
    """16.3B: after an action, the ``unit enters hex`` triggers of partisans.rules (a German
    movement action removes the marker of a hex a German unit enters) for every marker hex the
    action's units entered; a removed marker is gone (16.3D). Returns the hexes cleared."""
    t = tally(ctx)
    kind = action.kind if action.kind in t.entering_kinds else "other"
    return unit_points.remove_entered(ctx, t.marker, action, kind, t.entered_cases, t.entered)


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    """Soviet Recovery Step: ``disband-remnant`` per remnant (``place-partisan`` is a declared
    action: the ``declared_actions`` plugin lists it)."""
    return unit_points.offers(ctx, tally(ctx), phasing(ctx, phase), step)


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """Refuse a ``disband-remnant`` of anything but a Soviet remnant in the Recovery Step (16.1B)."""
    t = tally(ctx)
    why = unit_points.refusal(ctx, t, action) if action.kind == t.action else None
    return [Refusal(why[0], why[1], PLUGIN)] if why else []


@hookimpl
@implements("16.1A", "16.1B")
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    """Apply ``disband-remnant`` (16.1A-B: counted for partisan points)."""
    t = tally(ctx)
    return unit_points.disband(ctx, t, str(action.get("unit"))) if action.kind == t.action else None


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    """16.3B: a German movement action removes the markers whose hexes its units entered."""
    remove_markers_entered(ctx, action)


@hookimpl(tryfirst=True)
@implements("16.1B", "16.1D", "16.3D")
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """End of a Recovery Step: the Soviet one removes OOS remnants and awards partisan points
    (16.1B: one per three, rule ``partisan_points_gained``; they stay on the track, 16.1D); every
    one removes the markers the ``keep_partisan`` lines do not keep (16.3C: the German half; a
    removed marker must be bought again, 16.3D). Runs before the supply plugin's OOS marking
    (tryfirst), so OOS remnants and voluntary disbandments count together (5.5C: "these can be
    combined")."""
    t = tally(ctx)
    if step != t.step:
        return
    side = phasing(ctx, phase)
    if side == t.side:
        unit_points.remove_unsupplied(ctx, t)
        unit_points.award_points(ctx, t)
    if side is not None:
        unit_points.remove_unkept(ctx, t.marker, side, t.unkept)


@implements("16.1C", "16.1D", "16.2", "16.3A")
def partisans_answer(ctx: Any, hex_: str | None = None) -> dict[str, Any]:
    """``partisans [HEX]``: ``{"points" (Partisan Track, 16.1D), "markers": [hexes, each a Soviet ZOC,
    16.3A], "placeable": [hexes play offers a ``place-partisan`` for now], "verdict": {"hex",
    "allowed", "enemy_distance", "refusals"} (with HEX), "cases"}`` — ``placeable`` and ``verdict``
    are play's: its legal actions and every validator of the ``place-partisan`` action."""
    out = unit_points.marker_answer(ctx, tally(ctx).marker, "partisans", "place-partisan", "soviet", hex_)
    verdict = out.pop("verdict", None)
    out["cases"] = ["16.1C", "16.1D", "16.2", "16.3A"]
    if verdict is not None:
        try:
            distance = enemy_distance(ctx, str(hex_))
        except ValueError:
            raise QuestionError(f"partisans: {hex_!r} is not a hex label") from None
        out["verdict"] = {"hex": verdict["hex"], "allowed": verdict["allowed"], "enemy_distance": distance,
                          "refusals": verdict["refusals"]}
    return out


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Any) -> Any:
    """``partisans [HEX]``."""
    if question != "partisans":
        return None
    if len(args) > 1:
        raise QuestionError("usage: " + QUESTIONS["partisans"])
    return partisans_answer(ctx, *args)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.partisans``: the tally of remnants removed (16.1)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    removed_remnants: Annotated[int, Field(ge=0)]
