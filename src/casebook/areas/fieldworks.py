"""Shared rules area ``fieldworks``: points a side gains on a track and spends on markers,
works that protect a hex in combat and are destroyed when the enemy enters them, and a
formation a stack takes (a flag on its units and a marker in its hex) that pins it. A library
the game's plugin calls with its own names (:class:`Works`, e.g. a side's fortification points,
Fortification markers and another side's defensive formation); it names no side, marker, flag
or track of a game and holds no case id (the game's configuration and rule lines give them).

- Points (:func:`collect_points`, :func:`expire_points`): each of the track's ``point_kinds``
  gains the quantity ``income`` (fact ``kind_fact``: the kind); what the permission ``save``
  forbids keeping is lost at the end of the step.
- Works (:func:`has_marker`, :func:`printed_protecting` / :func:`printed_facing`,
  :func:`work_info`, :func:`attack_facts`, :func:`destroy_entered`): a ``marker`` protects its hex from every
  direction, a printed work (the map's faced hexside ``fortification``) only across its
  hexside, until a ``destroyed_marker`` stands there; the permissions ``protects``,
  ``helps_attacker``, ``destroy`` and the quantity ``destroyed`` decide.
- Formation (:func:`formation_refusals`, :func:`apply_formation`, :func:`formation_offers`,
  :func:`formation_facts`): an activated stack of ``formation_side`` that has not moved or
  attacked (permission ``formation``) takes the ``formation_flag`` and a ``formation_marker``;
  a flagged unit cannot move, one that left the formation is asked the permission
  ``move_after_formation`` (:func:`move_refusals`, which also pins a unit that had a work built
  in its hex this turn, ``builders``).

Record (``plugin_data(<plugin>)``): ``builders`` (unit -> turn), ``acted`` / ``unhedged`` (unit
-> "turn:phase" it moved or attacked / left the formation). Public API: :class:`Works` and the
functions of ``__all__``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casebook.content.packconfig import CitedCase, config_model, texts
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

__all__ = ["Works", "WORKS_CONFIG", "data", "save", "has_marker", "collect_points", "expire_points", "payment",
           "TEXTS", "build_work", "printed_protecting", "printed_facing", "work_info", "attack_facts", "entered_hexes",
           "destroy_entered", "note_acted", "acted",
           "action_units", "formation_stack", "formation_refusals", "apply_formation", "formation_offers",
           "formation_facts", "march_facts", "march_offers", "move_refusals", "forbidding"]


#: Refusal name -> the ``{fields}`` its text fills in: exactly a config's ``texts:`` (lint checks).
TEXTS = {"steps": (), "stack": ("what", "hex"), "in_formation": (), "not_in_formation": (),
         "pinned": ("units",), "spent": ("units",), "builder": ("units",)}


@dataclass(frozen=True)
class Works:
    """A game's names. ``plugin`` (its plugin-data key); points: ``track``, ``point_kinds``,
    ``kind_fact``, ``income`` (quantity), ``save`` (permission), ``points_side``; works:
    ``marker``, ``destroyed_marker``, ``builder_side`` (whose units in a hex keep it from
    destruction), the permissions ``protects``, ``helps_attacker``, ``destroy`` and quantity
    ``destroyed`` (``removed`` or another value: a ``destroyed_marker`` is placed); formation:
    ``formation_side``, ``formation_flag``, ``formation_marker``, ``form_steps`` /
    ``remove_steps``, permissions ``formation`` and ``move_after_formation`` (its fact
    ``left_fact``: the unit left the formation); actions:
    ``move_kinds``, ``attack_kinds``, ``march_kind``, ``advance_kind``; ``cases``: event or
    refusal name -> the cases it cites; ``texts``: :data:`TEXTS`; ``events``: event -> (kind, source)."""

    plugin: str
    track: str
    point_kinds: tuple[str, ...]
    kind_fact: str
    income: str
    save: str
    points_side: str
    marker: str
    destroyed_marker: str
    builder_side: str
    protects: str
    helps_attacker: str
    destroy: str
    destroyed: str
    formation_side: str
    formation_flag: str
    formation_marker: str
    form_steps: tuple[str, ...]
    remove_steps: tuple[str, ...]
    formation: str
    move_after_formation: str
    left_fact: str
    move_kinds: tuple[str, ...]
    attack_kinds: tuple[str, ...]
    march_kind: str
    advance_kind: str
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


def _now(ctx: Any) -> str:
    return f"{ctx.state.turn}:{ctx.state.phase}"


def forbidding(ctx: Any, permission: str, facts: Mapping[str, Any]) -> list[Refusal]:
    """A refusal per ``forbid`` line of ``permission`` that fired and no permit overrides."""
    verdict = ctx.permission(permission, facts)
    return [Refusal(f"forbidden: {ln.text}", tuple(ln.cases), source=ln.source)
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


def attack_facts(ctx: Any, w: Works, hex_: str, attackers: Iterable[str]) -> dict[str, Any]:
    """Facts of an attack on ``hex_``: ``across_fortification`` per attacker (permission
    ``protects``: facts ``fort_marker``, ``across_printed_hexside``), ``fortified`` (any of
    them) and ``attackers_fortified`` (permission ``helps_attacker``), citing ``cases``."""
    info = work_info(ctx, w, hex_)
    across = {a: ctx.allowed(w.protects, {"fort_marker": info["marker"],
                                          "across_printed_hexside": ctx.state.unit(a).get("hex") in info["printed_from"]})
              for a in attackers}
    return {"across_fortification": {"value": across, "cases": list(w.cases["across"])},
            "fortified": {"value": any(across.values()), "cases": list(w.cases["fortified"])},
            "attackers_fortified": {"value": ctx.allowed(w.helps_attacker, {}), "cases": list(w.cases["helps"])}}


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


def action_units(ctx: Any, action: Action) -> list[str]:
    """The units an action moves or attacks with: ``units=`` / ``with=``, else the side's units
    in ``stack=``."""
    given = action.get("units") or action.get("with")
    if given:
        return list(given)
    stack = action.get("stack")
    return [u["id"] for u in ctx.state.units_at(stack) if u.get("side") == action.side] if stack else []


def note_acted(ctx: Any, w: Works, action: Action) -> None:
    """Remember the units that moved or attacked in this player phase (record ``acted``); a
    stack that left the formation may force march until another acts (records ``marchable``,
    then ``marched``: see :func:`march_facts`)."""
    if action.kind not in (*w.move_kinds, *w.attack_kinds, w.march_kind):
        return
    _note_march(ctx, w, action)
    units = list(action.get("with") or ()) if action.kind in w.attack_kinds else list(action.get("units") or ())
    if not units and action.kind in w.move_kinds:
        path = action.get("path") or (action.get("to"),)
        units = [u["id"] for u in ctx.state.units_at(path[-1]) if u.get("side") == action.side] if path[-1] else []
    if units:
        rec = data(ctx, w)
        rec.setdefault("acted", {}).update({u: _now(ctx) for u in units})
        save(ctx, w, rec)


def _note_march(ctx: Any, w: Works, action: Action) -> None:
    """After a move, attack or force march: the stack that left the formation force marched
    (its units move to the record ``marched``), or another acted first (it no longer may)."""
    rec = data(ctx, w)
    if not rec.get("marchable"):
        return
    open_ = _left_now(ctx, w, rec["marchable"], "marchable")
    if action.kind == w.march_kind and open_ and set(open_) <= set(action_units(ctx, action)):
        rec.setdefault("marched", {}).update({u: _now(ctx) for u in open_})
    del rec["marchable"]
    save(ctx, w, rec)


def acted(ctx: Any, w: Works, units: Iterable[str]) -> bool:
    """Whether any of ``units`` moved or attacked in this player phase (the record ``acted`` and
    the movement plugin's published ``moved`` / ``current``), once per state version."""
    found = ctx.memo.get("fieldworks.acted")
    if found is None:
        now = _now(ctx)
        mine = {u for u, when in data(ctx, w).get("acted", {}).items() if when == now}
        mv = ctx.state.plugin_data("movement") or {}
        moving = set(mv.get("moved", [])) | set((mv.get("current") or {}).get("units", []))
        found = ctx.memo["fieldworks.acted"] = frozenset(mine | moving)
    return not found.isdisjoint(units)


def formation_stack(ctx: Any, w: Works, hex_: str, flagged: bool) -> list[str]:
    """The activated units of ``formation_side`` in ``hex_`` with (or without) the flag."""
    return [u["id"] for u in ctx.state.units_at(hex_) if u.get("side") == w.formation_side
            and u.get("activated") and bool(u.get(w.formation_flag)) == flagged]


def formation_refusals(ctx: Any, w: Works, action: Action) -> list[Refusal]:
    """Why ``<formation> stack=H [remove=true]`` is illegal: not the phasing side in a
    ``form_steps`` (``remove_steps``) step (text ``steps``), no such stack (text ``stack``), or
    the permission ``formation`` (facts ``side``, ``activated``, ``moved_or_attacked``)."""
    hex_, remove = action.get("stack"), bool(action.get("remove"))
    if ctx.state.phasing != action.side or ctx.state.step not in (w.remove_steps if remove else w.form_steps):
        return [Refusal(w.texts["steps"], w.cases["form"])]
    units = formation_stack(ctx, w, hex_, remove) if isinstance(hex_, str) else []
    if not units:
        what = w.texts["in_formation"] if remove else w.texts["not_in_formation"]
        return [Refusal(w.texts["stack"].format(what=what, hex=hex_), w.cases["form"])]
    return forbidding(ctx, w.formation, {"side": action.side, "activated": True,
                                         "moved_or_attacked": acted(ctx, w, units),
                                         w.left_fact: bool(_left_now(ctx, w, units))})


def _left_now(ctx: Any, w: Works, units: Iterable[str], key: str = "unhedged") -> list[str]:
    """Those of ``units`` the record ``key`` notes in this player phase (``unhedged``: they left
    the formation; ``marchable``: they did and nothing moved since; ``marched``: they then
    force marched)."""
    now, rec = _now(ctx), data(ctx, w).get(key, {})
    return [u for u in units if rec.get(u) == now]


def apply_formation(ctx: Any, w: Works, action: Action) -> dict[str, Any]:
    """Form (the flag on the units and a ``formation_marker``) or leave the formation (noted in
    the record ``unhedged``). Event ``formed`` / ``removed``. Returns ``{"stack", "units",
    "formed", "cases"}``."""
    hex_, remove = action.get("stack"), bool(action.get("remove"))
    units = formation_stack(ctx, w, hex_, remove)
    for u in units:
        ctx.state.update_unit(u, **{w.formation_flag: None if remove else True})
    rec = data(ctx, w)
    if remove:
        if has_marker(ctx, w.formation_marker, hex_):
            ctx.state.remove_marker(w.formation_marker, hex_)
        rec.setdefault("unhedged", {}).update({u: _now(ctx) for u in units})
        rec["marchable"] = {u: _now(ctx) for u in units}  # its move just completed: it may force march
    elif not has_marker(ctx, w.formation_marker, hex_):
        ctx.state.add_marker(w.formation_marker, hex_)
    save(ctx, w, rec)
    out = {"stack": hex_, "units": units, "formed": not remove}
    cases = w.cases["removed" if remove else "form"]
    kind, source = w.events["formation"]
    ctx.record(kind, cases, out, source=source, side=action.side)
    return {**out, "cases": list(cases)}


def formation_offers(ctx: Any, w: Works, action: str) -> list[Action]:
    """Every ``action`` (the formation's action kind) :func:`formation_refusals` accepts now;
    only hexes with an activated unit out of (to form) or in (to leave) the formation are asked."""
    out = []
    kinds: dict[str, set[bool]] = {}
    for u in ctx.state.units:
        if u.get("side") == w.formation_side and "hex" in u:
            found = kinds.setdefault(u["hex"], set())
            if u.get("activated"):
                found.add(bool(u.get(w.formation_flag)))
    for hex_ in sorted(kinds):
        for remove in (False, True):
            if remove in kinds[hex_]:
                a = Action.make(action, w.formation_side, stack=hex_, remove=True if remove else None)
                if not formation_refusals(ctx, w, a):
                    out.append(a)
    return out + march_offers(ctx, w)


def march_offers(ctx: Any, w: Works) -> list[Action]:
    """The force march (``march_kind``) of the stack that just left the formation, if no
    validator refuses it (see :func:`march_facts`)."""
    rec = data(ctx, w).get("marchable", {})
    hexes = sorted({ctx.state.unit(u)["hex"] for u in _left_now(ctx, w, rec, "marchable") if ctx.state.has_unit(u)})
    actions = [Action.make(w.march_kind, w.formation_side, stack=h) for h in hexes]
    return [a for a in actions if not any(ctx.hook.casebook_validate_action(ctx=ctx, action=a))]


def formation_facts(ctx: Any, w: Works, uid: str, names: Iterable[str]) -> dict[str, Any]:
    """Each of ``names`` -> whether unit ``uid`` is in the formation (its flag, or the marker in
    its hex), citing ``cases["unit"]``."""
    u = ctx.state.unit(uid)
    flagged = bool(u.get(w.formation_flag)) or has_marker(ctx, w.formation_marker, u.get("hex"))
    return {name: {"value": flagged, "cases": list(w.cases["unit"])} for name in names}


def march_facts(ctx: Any, w: Works, uid: str) -> dict[str, Any]:
    """The fact ``left_fact`` of unit ``uid``: it left the formation in this player phase and
    no unit moved, attacked or left a formation since (the movement that may now force march),
    citing ``cases["removed"]``."""
    return {w.left_fact: {"value": bool(_left_now(ctx, w, (uid,), "marchable")), "cases": list(w.cases["removed"])}}


def move_refusals(ctx: Any, w: Works, action: Action) -> list[Refusal]:
    """Moves and attacks refused: a flagged unit cannot move (text ``pinned``), one that left
    the formation this phase is asked ``move_after_formation`` (facts ``left_fact``,
    ``forced_march``; text ``spent``), one that had a work built in its hex this turn (record
    ``builders``) may neither move nor attack (text ``builder``)."""
    if action.kind not in (*w.move_kinds, *w.attack_kinds, w.march_kind):
        return []
    units = action_units(ctx, action)
    out = []
    if action.kind in w.move_kinds:
        flagged = [u for u in units if ctx.state.has_unit(u) and ctx.state.unit(u).get(w.formation_flag)]
        if flagged:
            out.append(Refusal(w.texts["pinned"].format(units=", ".join(flagged)), w.cases["unit"]))
    rec = data(ctx, w)
    if action.kind in (*w.move_kinds, w.march_kind):
        left = [u for u, when in rec.get("unhedged", {}).items() if when == _now(ctx) and u in units]
        if left:
            marching = action.kind == w.march_kind or len(_left_now(ctx, w, left, "marched")) == len(left)
            verdict = ctx.permission(w.move_after_formation, {w.left_fact: True, "forced_march": marching})
            if not verdict.value:
                out.append(Refusal(w.texts["spent"].format(units=", ".join(left)),
                                   tuple(verdict.cases) or w.cases["form"]))
    builders = [u for u, t in rec.get("builders", {}).items() if t == ctx.state.turn and u in units]
    if builders:
        out.append(Refusal(w.texts["builder"].format(units=", ".join(builders)), w.cases["builder"]))
    return out
