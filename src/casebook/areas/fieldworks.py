"""Shared rules area ``fieldworks``: points a side gains on a track and spends on markers, and
works that protect a hex in combat and are destroyed when the enemy enters them. A library the
game's plugin calls with its own names (:class:`Works`, e.g. a side's fortification points,
Fortification markers and another side's defensive formation); it names no side, marker, flag
or track of a game and holds no case id (the game's configuration and rule lines give them).
The formation a stack takes and the moves refused to it (or to a builder) are the other half,
:mod:`casebook.areas.formation`, with the same :class:`Works` and record; it imports this
module, never the reverse.

- Points (:func:`collect_points`, :func:`expire_points`): each of the track's ``point_kinds``
  gains the quantity ``income`` (fact ``kind_fact``: the kind); what the permission ``save``
  forbids keeping is lost at the end of the step.
- Works (:func:`has_marker`, :func:`printed_protecting` / :func:`printed_facing`,
  :func:`work_info`, :func:`destroy_entered`): a ``marker`` stands in its hex, a printed work
  (the map's faced hexside ``fortification``) until a ``destroyed_marker`` stands there; the
  permission ``destroy`` and the quantity ``destroyed`` decide their destruction. Whether they
  protect in an attack is ``casebook.areas.worksites`` (the combat area's lines; ``helps_attacker``).

Record (``plugin_data(<plugin>)``): ``builders`` (unit -> turn: it had a work built in its hex,
read by :func:`casebook.areas.formation.move_refusals`). Public API: :class:`Works` and the
functions of ``__all__``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casebook.content.packconfig import CitedCase, config_model, texts
from casebook.content.packrefs import FactRef, MarkerRef, PermissionRef, QuantityRef, SideRef, StepRef, TrackRef
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

__all__ = ["Works", "WORKS_CONFIG", "data", "save", "phase_stamp", "has_marker", "collect_points", "expire_points", "payment",
           "TEXTS", "build_work", "printed_protecting", "printed_facing", "work_info", "entered_hexes",
           "destroy_entered", "forbidding"]


#: Refusal name -> the ``{fields}`` its text fills in: exactly a config's ``texts:`` (lint checks).
TEXTS = {"steps": (), "stack": ("what", "hex"), "in_formation": (), "not_in_formation": (),
         "pinned": ("units",), "spent": ("units",), "builder": ("units",)}


@dataclass(frozen=True)
class Works:
    """A game's names. ``plugin`` (its plugin-data key); points: ``track``, ``point_kinds``,
    ``kind_fact``, ``income`` (quantity), ``save`` (permission), ``points_side``; works:
    ``marker``, ``destroyed_marker``, ``builder_side`` (whose units in a hex keep it from
    destruction), the permissions ``helps_attacker``, ``destroy`` and quantity
    ``destroyed`` (``removed`` or another value: a ``destroyed_marker`` is placed); formation:
    ``formation_side``, ``formation_flag``, ``formation_marker``, ``form_steps`` /
    ``remove_steps``, permissions ``formation`` and ``move_after_formation`` (its fact
    ``left_fact``: the unit left the formation; ``formed_fact``, if named: the stack took the
    formation in this player phase, given to ``formation`` when it is asked to leave it); actions:
    ``move_kinds``, ``attack_kinds``, ``march_kind``, ``advance_kind``; ``cases``: event or
    refusal name -> the cases it cites; ``texts``: :data:`TEXTS`; ``events``: event -> (kind, source)."""

    plugin: str
    track: TrackRef
    point_kinds: tuple[str, ...]
    kind_fact: FactRef
    income: QuantityRef
    save: PermissionRef
    points_side: SideRef
    marker: MarkerRef
    destroyed_marker: MarkerRef
    builder_side: SideRef
    helps_attacker: str
    destroy: str
    destroyed: str
    formation_side: SideRef
    formation_flag: str
    formation_marker: MarkerRef
    form_steps: tuple[StepRef, ...]
    remove_steps: tuple[StepRef, ...]
    formation: str
    move_after_formation: str
    left_fact: str
    move_kinds: tuple[str, ...]
    attack_kinds: tuple[str, ...]
    march_kind: str
    advance_kind: str
    formed_fact: str = ""
    cases: Mapping[str, tuple[CitedCase, ...]] = field(default_factory=dict)
    texts: texts(TEXTS) = field(default_factory=dict)  # type: ignore[valid-type]
    events: Mapping[str, tuple[str, str]] = field(default_factory=dict)


#: The strict model of a game's ``Works`` as YAML (a config file, :mod:`casebook.content.packconfig`).
WORKS_CONFIG = config_model(Works)


def data(ctx: Any, w: Works) -> dict[str, Any]:
    """The plugin's record (a copy-on-write dict: :func:`save` it back)."""
    return ctx.state.plugin_data(w.plugin) or {}


def save(ctx: Any, w: Works, rec: Mapping[str, Any]) -> None:
    ctx.state.set_plugin_data(w.plugin, dict(rec) or None)
    ctx.changed()


def phase_stamp(ctx: Any) -> str:
    """This player phase, as the records note it: ``"turn:phase"``."""
    return f"{ctx.state.turn}:{ctx.state.phase}"


def forbidding(ctx: Any, permission: str, facts: Mapping[str, Any]) -> list[Refusal]:
    """A refusal per ``forbid`` line of ``permission`` that fired and no permit overrides."""
    verdict = ctx.permission(permission, facts)
    return [Refusal(ctx.rules.forbid_reason(ln, permission), tuple(ln.cases), source=ln.source)
            for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]


def has_marker(ctx: Any, kind: str, hex_: str) -> bool:
    """Whether a ``kind`` marker stands in ``hex_`` (markers indexed once per state version)."""
    found = ctx.memo.get("fieldworks.markers")
    if found is None:
        found = ctx.memo["fieldworks.markers"] = frozenset((m.get("kind"), m.get("hex")) for m in ctx.state.markers)
    return (kind, hex_) in found


def collect_points(ctx: Any, w: Works) -> dict[str, int]:
    """Each kind of points gains the quantity ``income``, added to what the permission ``save``
    kept. Records the event ``collected`` (``{"new", "total", "lines"}``). Returns the totals."""
    new: dict[str, int] = {}
    lines: list[dict[str, Any]] = []
    for kind in w.point_kinds:
        e = ctx.quantity(w.income, {w.kind_fact: kind})
        new[kind] = int(e.value)
        lines += ctx.fired_lines(e)
        kept = ctx.state.track(w.track, kind) if ctx.allowed(w.save, {w.kind_fact: kind}) else 0
        ctx.state.add_track(w.track, kept + new[kind] - ctx.state.track(w.track, kind), kind)
    ctx.changed()
    out = {kind: ctx.state.track(w.track, kind) for kind in w.point_kinds}
    row = {"turn": ctx.state.turn, **new} if any(new.values()) else {}
    kind, source = w.events["collected"]
    ctx.record(kind, w.cases["collected"], {"new": row, "total": out, "lines": lines}, source=source,
               side=w.points_side)
    return out


def expire_points(ctx: Any, w: Works) -> int:
    """Points of a kind the permission ``save`` forbids keeping are lost (event ``lost``, one a
    kind). Returns the number lost."""
    lost = 0
    for kind in w.point_kinds:
        n = ctx.state.track(w.track, kind)
        if n and not ctx.allowed(w.save, {w.kind_fact: kind}):
            ctx.state.add_track(w.track, -n, kind)
            ctx.changed()
            ctx.record(w.events["lost"][0], w.cases["lost"], {kind: n}, source=w.events["lost"][1])
            lost += n
    return lost


def payment(ctx: Any, w: Works, order: Iterable[str], permits: Mapping[str, str], facts: Mapping[str, Any],
            cost: int) -> dict[str, int] | None:
    """How ``cost`` points are paid: kind by kind in ``order``, a kind named in ``permits`` only
    where its permission allows it (facts ``facts``); None if there are not enough."""
    paid: dict[str, int] = {}
    left = cost
    for kind in order:
        usable = kind not in permits or ctx.allowed(permits[kind], facts)
        paid[kind] = min(ctx.state.track(w.track, kind) if usable else 0, left)
        left -= paid[kind]
    return None if left > 0 else paid


def build_work(ctx: Any, w: Works, action: Action, explained: Any, paid: Mapping[str, int],
               builder: str | None) -> dict[str, Any]:
    """Pay ``paid`` points (kind -> n), place a ``marker`` in the action's ``hex`` and pin
    ``builder`` for this turn (record ``builders``, see :func:`move_refusals`); ``explained`` is
    the cost quantity's answer. Event ``built`` (with the cost's fired lines). Returns ``{"hex",
    "cost", "paid", "unit", "cases"}`` (``cases["placed"]``, and ``cases["builder"]`` if pinned)."""
    hex_ = action.get("hex")
    for kind, n in paid.items():
        if n:
            ctx.state.add_track(w.track, -n, kind)
    ctx.state.add_marker(w.marker, hex_)
    if builder:
        rec = data(ctx, w)
        rec.setdefault("builders", {})[builder] = ctx.state.turn
        save(ctx, w, rec)
    ctx.changed()
    out = {"hex": hex_, "cost": explained.value, "paid": dict(paid), "unit": builder}
    kind, source = w.events["built"]
    ctx.record(kind, w.cases["built"], {**out, "lines": ctx.fired_lines(explained)}, source=source, side=action.side)
    return {**out, "cases": [*w.cases["placed"], *(w.cases["builder"] if builder else ())]}


def printed_protecting(ctx: Any, w: Works, hex_: str) -> list[str]:
    """Hexes across whose hexside a printed work protects ``hex_`` (the map's faced hexside
    ``fortification``), none once a ``destroyed_marker`` stands in ``hex_``."""
    return [] if has_marker(ctx, w.destroyed_marker, hex_) else list(printed_facing(ctx, hex_))


def printed_facing(ctx: Any, hex_: str) -> tuple[str, ...]:
    """Hexes across whose hexside the map's faced hexside ``fortification`` protects ``hex_``
    (sorted; destroyed or not), kept per state version (``ctx.memo``: no line's collection paused)."""
    kept = ctx.memo.setdefault("fieldworks.facing", {})
    if hex_ not in kept:
        h = parse_hex(hex_)
        faced = [n for n in ctx.board.neighbours(h) if ctx.board.side(h, n).fortification == h]
        kept[hex_] = tuple(sorted(hex_label(n) for n in faced))
    return kept[hex_]


def work_info(ctx: Any, w: Works, hex_: str) -> dict[str, Any]:
    """What protects ``hex_``: ``{"marker": bool, "printed_from": [hexes], "destroyed": bool}``."""
    return {"marker": has_marker(ctx, w.marker, hex_), "printed_from": printed_protecting(ctx, w, hex_),
            "destroyed": has_marker(ctx, w.destroyed_marker, hex_)}


def entered_hexes(action: Action) -> list[str]:
    """The hexes an action enters: its ``path`` / ``to`` / ``into``, an overrun's ``hex``."""
    out: list[str] = []
    for name in ("path", "to", "into"):
        v = action.get(name)
        out += list(v) if isinstance(v, tuple) else [v] if isinstance(v, str) else []
    if action.kind == "overrun" and isinstance(action.get("hex"), str):
        out.append(action.get("hex"))
    return out


def destroy_entered(ctx: Any, w: Works, action: Action) -> list[dict[str, Any]]:
    """After a move or advance, each work in a hex entered that the permission ``destroy``
    lets be destroyed (facts ``side``, ``hex_occupied`` by ``builder_side``,
    ``advance_after_combat``) leaves what the quantity ``destroyed`` says (``removed``: the
    marker goes; else a ``destroyed_marker`` is placed). Event ``destroyed``. Returns them."""
    if action.kind not in (w.advance_kind, *w.move_kinds, w.march_kind):
        return []
    out = []
    for hex_ in dict.fromkeys(entered_hexes(action)):
        marker = has_marker(ctx, w.marker, hex_)
        if not (marker or printed_protecting(ctx, w, hex_)):
            continue
        occupied = any(u.get("side") == w.builder_side for u in ctx.state.units_at(hex_))
        if not ctx.allowed(w.destroy, {"side": action.side, "hex_occupied": occupied,
                                       "advance_after_combat": action.kind == w.advance_kind}):
            continue
        if ctx.value(w.destroyed, {"fort_marker": marker}) == "removed":
            ctx.state.remove_marker(w.marker, hex_)
            out.append({"hex": hex_, "kind": "marker"})
        else:
            ctx.state.add_marker(w.destroyed_marker, hex_)
            out.append({"hex": hex_, "kind": "printed"})
    if out:
        ctx.changed()
        kind, source = w.events["destroyed"]
        ctx.record(kind, w.cases["destroyed"], {"hexes": out}, source=source, side=action.side)
    return out
