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

from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import parse_hex
from casebook.core.hooks import Refusal, hookimpl
from casebook.script.effects import unit_entered

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "MARKER", "markers", "enemy_distance", "disband",
           "remove_oos_remnants", "award_points", "remove_markers_entered",
           "remove_all_markers", "casebook_legal_actions", "casebook_validate_action",
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
MARKER = "partisan"
FAR = 999
RECOVERY_STEP = "recovery"
#: German movement actions (16.3B)
MOVEMENT_KINDS = frozenset({"move", "force-march", "rail-move", "react-move"})


def _phasing(ctx: Any, phase: str) -> str | None:
    if ctx.state.phasing:
        return ctx.state.phasing
    first = ctx.state.first_player
    if first is None:
        return None
    return first if phase.startswith("first") else ctx.state.other_side(first)


def _uid(u: Any) -> str:
    return str(u.get("id", u.get("counter")))


def markers(ctx: Any) -> list[str]:
    """Hexes of the Partisan markers in play (16.1D)."""
    return [m["hex"] for m in ctx.state.markers if m.get("kind") == MARKER]


@implements("16.2")
def enemy_distance(ctx: Any, hex_: str, side: str = "soviet") -> int:
    """Hexes from ``hex_`` to the nearest unit of ``side``'s enemy (16.2), the rule-script
    quantity ``partisan_enemy_distance`` (999 if none). ValueError if ``hex_`` is no hex label."""
    parse_hex(hex_)
    return int(ctx.value("partisan_enemy_distance", {"hex": hex_, "side": side}))


def _tally(ctx: Any, n: int) -> int:
    rec = ctx.state.plugin_data(PLUGIN) or {}
    rec["removed_remnants"] = int(rec.get("removed_remnants", 0)) + n
    ctx.state.set_plugin_data(PLUGIN, rec)
    return rec["removed_remnants"]


@implements("16.1A", "16.1B")
def disband(ctx: Any, uid: str) -> dict[str, Any]:
    """Remove Soviet remnant ``uid`` in the Recovery Step, counted for partisan points (16.1B)."""
    ctx.state.remove_unit(uid, "eliminated")
    total = _tally(ctx, 1)
    out = {"unit": uid, "removed_this_step": total, "cases": ["16.1A", "16.1B"]}
    ctx.record("remnant-disbanded", out["cases"], out, source="partisans.disband", side="soviet")
    return out


@implements("16.1B")
def remove_oos_remnants(ctx: Any) -> list[str]:
    """16.1B (5.5B): remove every Soviet remnant that cannot trace supply (the supply plugin's
    verdict; without one, the ``oos`` flag), counting them for partisan points."""
    gone = []
    for u in [dict(u) for u in ctx.state.units if u.get("side") == "soviet" and u.get("class") == "remnant"]:
        answer = ctx.hook.casebook_supply(ctx=ctx, unit=_uid(u))
        oos = bool(u.get("oos")) if answer is None else not answer.get("in_supply")
        if oos:
            ctx.state.remove_unit(_uid(u), "eliminated")
            gone.append(_uid(u))
    if gone:
        _tally(ctx, len(gone))
        ctx.record("remnants-oos-removed", ("16.1B", "5.5B"), {"units": gone},
                   source="partisans.remove_oos_remnants", side="soviet")
    return gone


@implements("16.1B", "16.1D")
def award_points(ctx: Any) -> int:
    """End of the Soviet Recovery Step: one Partisan Track point per three remnants removed in
    it (rule ``partisan_points_gained``: fractions are lost); the tally starts again. Points stay
    on the track from turn to turn (16.1D). Returns the points gained."""
    rec = ctx.state.plugin_data(PLUGIN) or {}
    n = int(rec.pop("removed_remnants", 0))
    gained = int(ctx.value("partisan_points_gained", {"remnants_disbanded": n}))
    if gained:
        ctx.state.add_track("partisans", gained)
    ctx.state.set_plugin_data(PLUGIN, rec or None)
    if n:
        ctx.record("partisan-points", ("16.1B",), {"remnants": n, "points": gained,
                                                  "track": ctx.state.track("partisans")},
                   source="partisans.award_points", side="soviet")
    return gained


def _removed(ctx: Any, side: str) -> tuple[str, ...]:
    """The cases of the ``forbid keep_partisan`` lines that fire at the end of ``side``'s half of
    the turn (partisans.rules: 16.3C), or () when the markers stay."""
    verdict = ctx.permission("keep_partisan", {"side": side, "half_turn_ended": True})
    return () if verdict.value else tuple(verdict.cases)


@implements("16.3B", "16.3D")
def remove_markers_entered(ctx: Any, action: Any) -> list[str]:
    """16.3B: after an action, the rule scripts' ``unit enters hex`` triggers (partisans.rules:
    a German movement action removes the marker of a hex a German unit enters) for every marker
    hex the action's units entered (the path) or stand in now; removed markers are gone (16.3D).
    Returns the hexes cleared."""
    here = markers(ctx)
    if not here:
        return []
    entered = set(action.values_of("path", "to", "hex", "into"))
    standing = {u["hex"] for u in ctx.state.units if u.get("side") == action.side and "hex" in u}
    kind = action.kind if action.kind in MOVEMENT_KINDS or action.kind == "overrun" else "other"
    cleared = []
    for h in here:
        if (h in entered or h in standing) and any(
                e["arg"] == MARKER for e in unit_entered(ctx, h, action.side, kind)):
            cleared.append(h)
    if cleared:
        ctx.record("partisan-removed", ("16.3B", "16.3D"), {"hexes": cleared},
                   source="partisans.remove_markers_entered", side=action.side)
    return cleared


@implements("16.3D")
def remove_all_markers(ctx: Any, side: str = "german") -> list[str]:
    """At the end of ``side``'s half of the turn remove every Partisan marker the rule scripts
    do not keep (16.3C: the German half); a removed marker must be bought again (16.3D)."""
    cleared, cases = [], ()
    for h in markers(ctx):
        why = _removed(ctx, side)
        if why:
            ctx.state.remove_marker(MARKER, h)
            cleared.append(h)
            cases = why
    if cleared:
        ctx.record("partisan-removed", cases, {"hexes": cleared}, source="partisans.remove_all_markers")
    return cleared


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    """Soviet Recovery Step: ``disband-remnant`` per remnant (``place-partisan`` is a declared
    action: the ``declared_actions`` plugin lists it)."""
    if _phasing(ctx, phase) != "soviet":
        return []
    if step == RECOVERY_STEP:
        return [Action.make("disband-remnant", "soviet", unit=_uid(u)) for u in ctx.state.units
                if u.get("side") == "soviet" and u.get("class") == "remnant"]
    return []


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """Refuse a ``disband-remnant`` of anything but a Soviet remnant in the Recovery Step (16.1B)."""
    if action.kind == "disband-remnant":
        uid = str(action.get("unit", ""))
        unit = ctx.state.unit(uid) if ctx.state.has_unit(uid) else {}
        if (action.side != "soviet" or unit.get("class") != "remnant" or unit.get("side") != "soviet"
                or ctx.state.step != RECOVERY_STEP):
            return [Refusal(f"{uid} is not a Soviet remnant in the Recovery Step", ("16.1A", "16.1B"), PLUGIN)]
    return []


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    """Apply ``disband-remnant``."""
    if action.kind == "disband-remnant":
        return disband(ctx, str(action.get("unit")))
    return None


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    """16.3B: a German movement action removes the markers whose hexes its units entered
    (permission ``keep_partisan``)."""
    remove_markers_entered(ctx, action)


@hookimpl(tryfirst=True)
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """End of a Recovery Step: the Soviet one removes OOS remnants and awards partisan points
    (16.1B); the German one ends the German half of the turn and removes every marker (16.3C).
    Runs before the supply plugin's OOS marking (tryfirst), so OOS remnants and voluntary
    disbandments count together (5.5C: "these can be combined")."""
    if step != RECOVERY_STEP:
        return
    side = _phasing(ctx, phase)
    if side == "soviet":
        remove_oos_remnants(ctx)
        award_points(ctx)
    if side is not None:
        remove_all_markers(ctx, side)  # 16.3C in partisans.rules: the German half only


@implements("16.1C", "16.1D", "16.2", "16.3A")
def partisans_answer(ctx: Any, hex_: str | None = None) -> dict[str, Any]:
    """``partisans [HEX]``: ``{"points" (Partisan Track, 16.1D), "markers": [hexes, each a Soviet ZOC,
    16.3A], "placeable": [hexes play offers a ``place-partisan`` for now], "verdict": {"hex",
    "allowed", "enemy_distance", "refusals"} (with HEX), "cases"}`` — ``placeable`` and ``verdict``
    are play's: its legal actions and every validator of the ``place-partisan`` action."""
    offered = [a for acts in ctx.hook.casebook_legal_actions(ctx=ctx, phase=ctx.state.phase or "",
                                                             step=ctx.state.step or "") for a in acts or ()]
    out: dict[str, Any] = {
        "points": ctx.state.track("partisans"), "markers": markers(ctx),
        "placeable": [a.get("hex") for a in offered if a.kind == "place-partisan"],
        "cases": ["16.1C", "16.1D", "16.2", "16.3A"]}
    if hex_ is not None:
        action = Action.make("place-partisan", "soviet", hex=hex_)
        refusals = [{"reason": r.reason, "cases": list(r.cases)}
                    for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in (rs or ())]
        try:
            distance = enemy_distance(ctx, hex_)
        except ValueError:
            raise QuestionError(f"partisans: {hex_!r} is not a hex label") from None
        out["verdict"] = {"hex": hex_, "allowed": not refusals, "enemy_distance": distance, "refusals": refusals}
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
