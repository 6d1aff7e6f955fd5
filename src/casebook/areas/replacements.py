"""Shared rules area ``replacements`` (a library a game's reinforcement plugin calls): points that
remove combat losses from units, collected per turn from the game's turn track and kept on a
track up to a limit; a friendly remnant stacked with a unit used instead of a point; and units
eliminated earlier rebuilt around a remnant for points, returning some turns later. Every
number and verdict is a line of the game's rule scripts (e.g. Moscow '41's
``rules/reinforcement.rules``), the names and the cases of events and refusals are those of the
:class:`Replacements` the game passes (e.g. Moscow '41's, read from its config file
``config/replacements.yaml`` by the strict model :data:`REPLACEMENTS_CONFIG`).

What the area asks of the game, by name:

- the track ``track`` (keys: side, then the point kinds — the kinds are the track's
  declaration in the vocabulary) and records ``schedule`` (a row per turn, field ``turn``; under
  each side a mapping whose field ``track`` gives the new points by kind);
- quantity ``rp_limit``: the most points of one kind a side keeps;
- permission ``assign_rp`` (facts ``rp_kind``: a kind or the remnant class, ``unit_class``,
  ``losses``, ``supplied``, ``in_command``, ``reinforcements_placed``): who may receive a point;
  permission ``replacement_removes_fatigue`` (no facts): a point also removes fatigue;
- permission ``rebuild`` (facts ``side``, ``unit_class``, ``supplied``, ``in_command``,
  ``in_ezoc``, ``reinforcements_placed``): which remnant may be rebuilt around; permission
  ``rebuild_as`` (facts ``side``, ``unit_class``, ``unit_size``, ``counter_strength`` and the
  game's ``counter_facts``): which eliminated counter may return; quantities ``rebuild_rp_cost``
  (points of kind ``rebuild_kind``) and ``rebuild_delay_dice`` (the dice rolled for the turns
  until the unit returns: it is put on ``state.pending``, to enter as a reinforcement without
  an entry area).

Actions (the game's kinds ``assign`` and ``rebuild``): ``<assign> unit=U <track>=KIND``,
``<assign> unit=U from=REMNANT``, ``<rebuild> unit=REMNANT into=UNIT``.

Public API: :class:`Replacements` (its YAML model :data:`REPLACEMENTS_CONFIG`, the cases and
events :class:`ReplacementCases`, :class:`ReplacementEvents`), :func:`kinds`, :func:`collect`, :func:`assign_facts`,
:func:`assign_refusals`, :func:`assign_actions`, :func:`apply_assign`, :func:`rebuildable`,
:func:`rebuild_choices`, :func:`rebuild_refusals`, :func:`rebuild_actions`,
:func:`apply_rebuild`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Strict

from casebook.content.packconfig import Cases, Cites, config_model
from casebook.content.packrefs import ClassRef, FactRef, TrackRef
from casebook.core.actions import Action
from casebook.core.hooks import Refusal

from . import _reinforcement_probe as q
from ._roll_lines import roll_naming
from ._zoc_cites import line_cases

__all__ = ["receipt", "Replacements", "ReplacementCases", "ReplacementEvents", "REPLACEMENTS_CONFIG",
           "kinds", "collect", "assign_facts", "assign_refusals", "assign_actions", "apply_assign",
           "rebuildable", "rebuild_choices", "rebuild_refusals", "rebuild_actions", "apply_rebuild"]


class ReplacementCases(Cites):
    """The cases each event and refusal of the area cites, as a game configures them: events
    ``collected``, ``replaced`` (``from_remnant`` added for a remnant used), ``rebuilt``; refusals
    ``no_unit``, ``rebuild_no_unit``, ``not_remnant``, ``kind``, ``empty``, ``not_rebuildable``,
    ``rebuild_cost`` (exactly these keys: a misspelt one is a located content error)."""

    collected: Cases
    replaced: Cases
    from_remnant: Cases
    rebuilt: Cases
    no_unit: Cases
    rebuild_no_unit: Cases
    not_remnant: Cases
    kind: Cases
    empty: Cases
    not_rebuildable: Cases
    rebuild_cost: Cases


#: An event's ``[kind, source]`` (a YAML list of two names).
Event = Annotated[tuple[str, str], Strict(False)]


class ReplacementEvents(Cites):
    """Each event's trace kind and source: ``collected``, ``replaced``, ``rebuilt``."""

    collected: Event
    replaced: Event
    rebuilt: Event


@dataclass(frozen=True, kw_only=True)
class Replacements:
    """A game's names for the area. ``track``: the points' track; ``schedule``: the records of
    new points per turn; ``assign`` / ``rebuild``: the action kinds; ``remnant_class``: the unit
    class of a remnant; ``rebuild_kind``: the kind of points a rebuild spends; ``counter_facts``:
    fact of ``rebuild_as`` -> counter field (given as a bool); ``points`` / ``track_title``: how
    refusals name the points and the track. ``cases``: the cases each event and refusal cites
    (:class:`ReplacementCases`); ``events``: key -> (event kind, source) (:class:`ReplacementEvents`)."""

    track: TrackRef
    schedule: str
    assign: str
    rebuild: str
    remnant_class: ClassRef
    rebuild_kind: str
    counter_facts: Mapping[FactRef, str] = field(default_factory=dict)
    points: str = "points"
    track_title: str = "track"
    cases: ReplacementCases
    events: ReplacementEvents


#: The strict model of a game's ``Replacements`` as YAML (a config file, :mod:`casebook.content.packconfig`).
REPLACEMENTS_CONFIG = config_model(Replacements)


def kinds(ctx: Any, r: Replacements) -> tuple[str, ...]:
    """The point kinds: the named keys of track ``r.track``'s declaration (() if it has none)."""
    decl = ctx.pack.vocabulary.tracks.get(r.track)
    return next((k for k in (decl.keys if decl is not None else ()) if isinstance(k, tuple)), ())


def _record(ctx: Any, r: Replacements, key: str, cases: tuple[str, ...], data: dict[str, Any],
            side: str | None = None) -> None:
    kind, source = r.events[key]
    if side is None:
        ctx.record(kind, cases, data, source=source)
    else:
        ctx.record(kind, cases, data, source=source, side=side)


def receipt(ctx: Any, r: Replacements, side: str) -> dict[str, Any]:
    """This turn's points of ``side`` as :func:`collect` adds them, changing nothing:
    ``{"new": {kind: n}, "total": {kind: n}, "limit", "row"}`` — the points of records
    ``r.schedule``'s row of the turn (``<side>.<track>``, ``row`` None without one), each
    kind's total kept up to quantity ``rp_limit`` (never lowered)."""
    rows = [row for row in ctx.records(r.schedule) if row.get("turn") == ctx.state.turn]
    new = (rows[0].get(side) or {}).get(r.track, {}) if rows else {}
    limit = ctx.value("rp_limit", {})
    out = {}
    named = kinds(ctx, r)
    new = {k: v for k, v in new.items() if k in named}  # the points, never the cell's provenance
    for kind in named:
        have = ctx.state.track(r.track, side, kind)
        out[kind] = max(have, min(have + int(new.get(kind, 0)), limit))
    return {"new": dict(new), "total": out, "limit": limit, "row": rows[0] if rows else None}


def collect(ctx: Any, r: Replacements, side: str) -> dict[str, int]:
    """Add this turn's points of ``side`` (:func:`receipt`). Returns the new totals per kind.
    Changes the state."""
    got = receipt(ctx, r, side)
    out = got["total"]
    for kind, target in out.items():
        ctx.state.add_track(r.track, target - ctx.state.track(r.track, side, kind), side, kind)
    ctx.changed()
    _record(ctx, r, "collected", r.cases["collected"], {"side": side, "new": got["new"], "total": out,
                                                         "limit": got["limit"]})
    return out


def assign_facts(ctx: Any, uid: str, kind: str) -> dict[str, Any]:
    """The facts of permission ``assign_rp`` for unit ``uid`` and point ``kind``."""
    u = ctx.state.unit(uid)
    return {"rp_kind": kind, "unit_class": u.get("class"), "losses": u.get("losses", 0),
            "supplied": q.supplied(ctx, uid), "in_command": q.in_command(ctx, uid),
            "reinforcements_placed": bool(q.data(ctx).get("placed"))}


def _own(ctx: Any, uid: Any, side: str) -> bool:
    return isinstance(uid, str) and ctx.state.has_unit(uid) and ctx.state.unit(uid).get("side") == side


def assign_refusals(ctx: Any, r: Replacements, action: Action) -> list[Refusal]:
    """Why ``<assign> unit=U <track>=KIND`` or ``… from=REMNANT`` is illegal: no such unit of the
    side, a remnant not friendly or not stacked with it, an unknown kind, no point of that kind
    left, then the ``forbid assign_rp`` lines that fire."""
    uid, remnant, kind = action.get("unit"), action.get("from"), action.get(r.track)
    st, c = ctx.state, r.cases
    if not _own(ctx, uid, action.side):
        return [Refusal(f"no unit {uid!r} of the {action.side} side on the map", c["no_unit"])]
    if remnant is not None:
        if not _own(ctx, remnant, action.side) or st.unit(remnant).get("class") != r.remnant_class:
            return [Refusal(f"{remnant!r} is not a friendly {r.remnant_class} on the map", c["not_remnant"])]
        if st.unit(remnant).get("hex") != st.unit(uid).get("hex"):
            return [Refusal(f"{r.remnant_class} {remnant} is not stacked with {uid}", c["not_remnant"])]
        kind = r.remnant_class
    elif kind not in kinds(ctx, r):
        return [Refusal(f"{r.track} must be one of {', '.join(kinds(ctx, r))} (or from=<{r.remnant_class}>)",
                        c["kind"])]
    elif st.track(r.track, action.side, kind) < 1:
        return [Refusal(f"no {kind} {r.points} left on the {action.side} {r.track_title}", c["empty"])]
    return q.refusals(ctx, "assign_rp", assign_facts(ctx, uid, kind))


def assign_actions(ctx: Any, r: Replacements, side: str) -> list[Action]:
    """Every legal ``<assign>`` of ``side`` now (units with losses, by kind, then remnants)."""
    out = []
    for u in ctx.state.units:
        if u.get("side") != side or not u.get("losses") or "hex" not in u:
            continue
        for kind in kinds(ctx, r):
            a = Action.make(r.assign, side, unit=u["id"], **{r.track: kind})
            if ctx.state.track(r.track, side, kind) > 0 and not assign_refusals(ctx, r, a):
                out.append(a)
        for rem in ctx.state.units_at(u["hex"]):
            if rem.get("class") == r.remnant_class and rem.get("side") == side:
                a = Action.make(r.assign, side, unit=u["id"], **{"from": rem["id"]})
                if not assign_refusals(ctx, r, a):
                    out.append(a)
    return out


def apply_assign(ctx: Any, r: Replacements, action: Action) -> dict[str, Any]:
    """Remove one combat loss from the unit for one point — fatigue too only where permission
    ``replacement_removes_fatigue`` allows; with ``from=REMNANT`` the remnant leaves play
    instead of a point. Changes the state."""
    st, uid, remnant = ctx.state, action.get("unit"), action.get("from")
    if remnant is not None:
        st.remove_unit(remnant, "rebuilding")
        spent = {"remnant": remnant}
    else:
        st.add_track(r.track, -1, action.side, action.get(r.track))
        spent = {r.track: action.get(r.track)}
    losses = st.unit(uid).get("losses", 0) - 1
    st.update_unit(uid, losses=losses or None)
    if st.unit(uid).get("fatigued") and ctx.allowed("replacement_removes_fatigue", {}):
        st.update_unit(uid, fatigued=None)
    ctx.changed()
    cases = (*r.cases["replaced"], *(r.cases["from_remnant"] if remnant else ()))
    _record(ctx, r, "replaced", cases, {"unit": uid, "losses": losses, **spent}, side=action.side)
    return {"unit": uid, "losses": losses, **spent,
            "cases": [*r.cases["replaced"], *line_cases(ctx, ("replacement_removes_fatigue",))]}


def rebuildable(ctx: Any, r: Replacements, counter: Mapping[str, Any] | None, side: str) -> bool:
    """Whether a counter (counter-mix data) of ``side`` may be rebuilt: permission ``rebuild_as``."""
    if counter is None or counter.get("side") != side:
        return False
    return bool(ctx.allowed("rebuild_as", {
        "side": side, "unit_class": counter.get("class"), "unit_size": counter.get("size") or "none",
        "counter_strength": int(counter.get("strength") or 0),
        **{fact: bool(counter.get(name)) for fact, name in r.counter_facts.items()}}))


def rebuild_choices(ctx: Any, r: Replacements, side: str) -> list[str]:
    """Eliminated units of ``side`` that can be rebuilt now (:func:`rebuildable`), not on the map
    and not already pending; sorted."""
    def compute() -> list[str]:
        st = ctx.state
        pending = {p["unit"] for p in st.pending}
        return sorted({row["unit"] for row in st.removed
                       if row.get("reason") == "eliminated" and row["unit"] not in pending
                       and not st.has_unit(row["unit"])
                       and rebuildable(ctx, r, ctx.pack.counters.get(row["unit"]), side)})

    # once per state version (every rebuild verdict of a listing asks), its lines at every read
    return list(ctx.memo_kept(("replacements", r.track, "rebuild-choices", side), compute))


def rebuild_refusals(ctx: Any, r: Replacements, action: Action) -> list[Refusal]:
    """Why ``<rebuild> unit=REMNANT into=UNIT`` is illegal: the ``forbid rebuild`` lines that
    fire, the unit not among :func:`rebuild_choices`, fewer than ``rebuild_rp_cost`` points."""
    st, uid, div = ctx.state, action.get("unit"), action.get("into")
    if not _own(ctx, uid, action.side):
        return [Refusal(f"no unit {uid!r} of the {action.side} side on the map", r.cases["rebuild_no_unit"])]
    u = st.unit(uid)
    out = q.refusals(ctx, "rebuild", {
        "side": action.side, "unit_class": u.get("class"), "supplied": q.supplied(ctx, uid),
        "in_command": q.in_command(ctx, uid), "in_ezoc": q.in_ezoc(ctx, u["hex"], action.side),
        "reinforcements_placed": bool(q.data(ctx).get("placed"))})
    if div not in rebuild_choices(ctx, r, action.side):
        out.append(Refusal(f"{div!r} is not an eliminated unit the rebuild_as lines allow", r.cases["not_rebuildable"]))
    cost = ctx.value("rebuild_rp_cost", {})
    if st.track(r.track, action.side, r.rebuild_kind) < cost:
        out.append(Refusal(f"rebuilding needs {cost} {r.rebuild_kind} {r.points}", r.cases["rebuild_cost"]))
    return out


def rebuild_actions(ctx: Any, r: Replacements, side: str) -> list[Action]:
    """Every legal ``<rebuild>`` of ``side`` now (each remnant on the map, each choice)."""
    out = []
    for u in ctx.state.units:
        if u.get("side") == side and u.get("class") == r.remnant_class and "hex" in u:
            for div in rebuild_choices(ctx, r, side):
                a = Action.make(r.rebuild, side, unit=u["id"], into=div)
                if not rebuild_refusals(ctx, r, a):
                    out.append(a)
    return out


def apply_rebuild(ctx: Any, r: Replacements, action: Action) -> dict[str, Any]:
    """Remove the remnant, spend ``rebuild_rp_cost`` points of ``rebuild_kind``, roll
    ``rebuild_delay_dice`` dice (citing that quantity's cases) and put the unit on
    ``state.pending`` that many turns ahead. Changes the state."""
    st, side = ctx.state, action.side
    st.remove_unit(action.get("unit"), "rebuilding")
    e_cost, e_dice = ctx.quantity("rebuild_rp_cost", {}), ctx.quantity("rebuild_delay_dice", {})
    st.add_track(r.track, -e_cost.value, side, r.rebuild_kind)
    kind, source = r.events["rebuilt"]
    total = roll_naming(ctx, int(e_dice.value), ctx.fired_lines(e_dice) if ctx.trace is not None else [],
                        purpose="rebuild delay", cases=list(ctx.rules.quantities["rebuild_delay_dice"].code.cases),
                        source=source)  # the roll event names the rebuild_delay_dice line
    st.add_pending(action.get("into"), st.turn + total)
    ctx.changed()
    data = {"remnant": action.get("unit"), "division": action.get("into"), "roll": total,
            "turn": st.turn + total, "lines": ctx.fired_lines(e_cost, e_dice)}
    _record(ctx, r, "rebuilt", r.cases["rebuilt"], data, side=side)
    return {**data, "cases": list(r.cases["rebuilt"])}
