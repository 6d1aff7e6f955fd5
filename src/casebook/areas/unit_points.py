"""Shared rules area ``unit_points``: units a side gives up for points on a track, and the
markers those points buy leaving the map. A library the game's plugin calls with its own names
(:class:`Tally`, e.g. a side's broken units turned into irregular forces); it names no side,
class, track or marker of a game and holds no case id (the game's configuration and lines give
them).

- In its ``step`` the side may remove any of its units of ``unit_class`` on the map (one action
  ``<action> unit=ID`` each, :func:`offers` / :func:`refusal` / :func:`disband`); at the step's
  end those that cannot trace supply (``casebook_supply``; without an answer, the ``oos`` flag)
  are removed too (:func:`remove_unsupplied`), and the track gains the quantity ``points`` of
  the fact ``count_fact`` (the units removed in the step, :func:`award_points`); the tally is
  kept in ``plugin_data(<plugin>)["removed_remnants"]`` between the two.
- A marker leaves the map when the ``unit enters hex`` triggers of the game's scripts say so
  for a hex the acting side entered (:func:`remove_entered`), and at the end of a side's half
  turn when the permission ``keep_<marker>`` forbids keeping it (:func:`remove_unkept`).

Public API: :class:`Tally` and the functions of ``__all__``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casebook.content.packconfig import CitedCase, config_model
from casebook.content.packrefs import ClassRef, FactRef, MarkerRef, QuantityRef, SideRef, StepRef, TrackRef
from casebook.core.actions import Action
from casebook.script.effects import unit_entered

__all__ = ["Tally", "TALLY_CONFIG", "markers", "offers", "refusal", "disband", "remove_unsupplied", "award_points",
           "remove_entered", "remove_unkept", "marker_answer"]


@dataclass(frozen=True)
class Tally:
    """A game's names: ``plugin`` (its plugin-data key), ``side``, ``unit_class``, ``step`` and
    ``action`` (who removes what, when, by which action), ``track``, ``points`` (the quantity of
    the points gained) and ``count_fact`` (its fact: the units removed); ``cases_disband`` and
    ``cases_unsupplied`` (what a removal by the action / for want of supply applies); the events
    recorded: ``(kind, source)`` of a removal by the action (``disbanded``), of the unsupplied
    removals (``unsupplied``) and of the points (``awarded``)."""

    plugin: str
    side: SideRef
    unit_class: ClassRef
    step: StepRef
    action: str
    track: TrackRef
    points: QuantityRef
    count_fact: FactRef
    cases_disband: tuple[CitedCase, ...]
    cases_unsupplied: tuple[CitedCase, ...]
    disbanded: tuple[str, str]
    unsupplied: tuple[str, str]
    awarded: tuple[str, str]
    #: the markers the side places and what removes them (:func:`remove_entered`,
    #: :func:`remove_unkept`): the marker kind, the action kinds whose units remove one they
    #: enter (others count as ``other``), the cases and the ``(kind, source)`` of those events
    marker: MarkerRef = ""
    entering_kinds: frozenset[str] = frozenset()
    entered_cases: tuple[CitedCase, ...] = ()
    entered: tuple[str, str] = ("", "")
    unkept: tuple[str, str] = ("", "")


#: The strict model of a game's ``Tally`` as YAML (a config file, :mod:`casebook.content.packconfig`).
TALLY_CONFIG = config_model(Tally)


def _uid(u: Any) -> str:
    return str(u.get("id", u.get("counter")))


def markers(ctx: Any, kind: str) -> list[str]:
    """Hexes of the markers of ``kind`` in play."""
    return [m["hex"] for m in ctx.state.markers if m.get("kind") == kind]


def offers(ctx: Any, cfg: Tally, side: str | None, step: str) -> list[Action]:
    """In ``cfg.step`` of ``cfg.side``: one ``cfg.action`` per unit of the side and class."""
    if side != cfg.side or step != cfg.step:
        return []
    return [Action.make(cfg.action, side, unit=_uid(u)) for u in ctx.state.units
            if u.get("side") == side and u.get("class") == cfg.unit_class]


def refusal(ctx: Any, cfg: Tally, action: Any) -> tuple[str, tuple[str, ...]] | None:
    """``(reason, cases)`` when ``action`` (a ``cfg.action``) removes anything but a unit of the
    side and class in the step; None when it may."""
    uid = str(action.get("unit", ""))
    unit = ctx.state.unit(uid) if ctx.state.has_unit(uid) else {}
    if (action.side != cfg.side or unit.get("class") != cfg.unit_class or unit.get("side") != cfg.side
            or ctx.state.step != cfg.step):
        return f"{uid} is not a {cfg.side} {cfg.unit_class} in the {cfg.step} step", cfg.cases_disband
    return None


def _tally(ctx: Any, cfg: Tally, n: int) -> int:
    rec = ctx.state.plugin_data(cfg.plugin) or {}
    rec["removed_remnants"] = int(rec.get("removed_remnants", 0)) + n
    ctx.state.set_plugin_data(cfg.plugin, rec)
    return rec["removed_remnants"]


def disband(ctx: Any, cfg: Tally, uid: str) -> dict[str, Any]:
    """Remove unit ``uid``, counted for points: ``{"unit", "removed_this_step", "cases"}``."""
    ctx.state.remove_unit(uid, "eliminated")
    out = {"unit": uid, "removed_this_step": _tally(ctx, cfg, 1), "cases": list(cfg.cases_disband)}
    kind, source = cfg.disbanded
    ctx.record(kind, out["cases"], out, source=source, side=cfg.side)
    return out


def remove_unsupplied(ctx: Any, cfg: Tally) -> list[str]:
    """Remove every unit of the side and class that cannot trace supply, counting them."""
    gone = []
    for u in [dict(u) for u in ctx.state.units if u.get("side") == cfg.side and u.get("class") == cfg.unit_class]:
        answer = ctx.hook.casebook_supply(ctx=ctx, unit=_uid(u))
        if bool(u.get("oos")) if answer is None else not answer.get("in_supply"):
            ctx.state.remove_unit(_uid(u), "eliminated")
            gone.append(_uid(u))
    if gone:
        _tally(ctx, cfg, len(gone))
        kind, source = cfg.unsupplied
        ctx.record(kind, cfg.cases_unsupplied, {"units": gone}, source=source, side=cfg.side)
    return gone


def award_points(ctx: Any, cfg: Tally) -> int:
    """The track gains quantity ``cfg.points`` of the units removed in the step; the tally starts
    again. Returns the points gained."""
    rec = ctx.state.plugin_data(cfg.plugin) or {}
    n = int(rec.pop("removed_remnants", 0))
    gained = int(ctx.value(cfg.points, {cfg.count_fact: n}))
    if gained:
        ctx.state.add_track(cfg.track, gained)
    ctx.state.set_plugin_data(cfg.plugin, rec or None)
    if n:
        q = ctx.rules.quantities.get(cfg.points)
        kind, source = cfg.awarded
        ctx.record(kind, tuple(q.code.cases) if q is not None else (),
                   {cfg.unit_class + "s": n, "points": gained, "track": ctx.state.track(cfg.track)},
                   source=source, side=cfg.side)
    return gained


def remove_entered(ctx: Any, kind: str, action: Any, action_kind: str, cases: tuple[str, ...],
                   event: tuple[str, str]) -> list[str]:
    """After ``action``: fire the game's ``unit enters hex`` triggers (as ``action_kind``) for each
    marker of ``kind`` whose hex the action's units entered (its path) or stand in now; records
    ``event`` (kind, source) with ``cases`` for the hexes whose marker a trigger removed."""
    here = markers(ctx, kind)
    if not here:
        return []
    entered = set(action.values_of("path", "to", "hex", "into"))
    standing = {u["hex"] for u in ctx.state.units if u.get("side") == action.side and "hex" in u}
    cleared = [h for h in here if (h in entered or h in standing)
               and any(e["arg"] == kind for e in unit_entered(ctx, h, action.side, action_kind))]
    if cleared:
        ctx.record(event[0], cases, {"hexes": cleared}, source=event[1], side=action.side)
    return cleared


def remove_unkept(ctx: Any, kind: str, side: str, event: tuple[str, str]) -> list[str]:
    """At the end of ``side``'s half turn remove every marker of ``kind`` the permission
    ``keep_<kind>`` (facts ``side``, ``half_turn_ended``) forbids keeping; records ``event``
    (kind, source) with the forbidding lines' cases."""
    cleared: list[str] = []
    cases: tuple[str, ...] = ()
    for h in markers(ctx, kind):
        verdict = ctx.permission(f"keep_{kind}", {"side": side, "half_turn_ended": True})
        if not verdict.value:
            ctx.state.remove_marker(kind, h)
            cleared.append(h)
            cases = tuple(verdict.cases)
    if cleared:
        ctx.record(event[0], cases, {"hexes": cleared}, source=event[1])
    return cleared


def marker_answer(ctx: Any, kind: str, track: str, action_kind: str, side: str, hex_: str | None = None) -> dict[str, Any]:
    """What a side's track buys now: ``{"points": the track, "markers": [hexes of ``kind``],
    "placeable": [hexes play offers an ``action_kind`` for], "verdict": {"hex", "allowed",
    "refusals"} (with ``hex_``: every validator of the action, as play judges it)}``. Asked about
    ``hex_``, the listing names no line (``ctx.apart(recorded=False)``): the verdict names those
    that decided for ``hex_``."""
    with ctx.apart(recorded=hex_ is None):
        offered = [a for acts in ctx.hook.casebook_legal_actions(ctx=ctx, phase=ctx.state.phase or "",
                                                                 step=ctx.state.step or "") for a in acts or ()]
    out: dict[str, Any] = {"points": ctx.state.track(track), "markers": markers(ctx, kind),
                           "placeable": [a.get("hex") for a in offered if a.kind == action_kind]}
    if hex_ is not None:
        action = Action.make(action_kind, side, hex=hex_)
        refusals = [{"reason": r.reason, "cases": list(r.cases)}
                    for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in (rs or ())]
        out["verdict"] = {"hex": hex_, "allowed": not refusals, "refusals": refusals}
    return out
