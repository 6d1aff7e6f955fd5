"""Shared rules area ``formation``, the other half of ``fieldworks`` (same :class:`~casebook.areas.fieldworks.Works`
names, same record): a formation a stack takes (a flag on its units and a marker in its hex)
that pins it, and the moves refused to a unit in it, that left it or that had a work built in
its hex this turn. It names no side, marker, flag or track of a game and holds no case id (the
game's configuration and rule lines give them).

- :func:`formation_refusals`, :func:`apply_formation`, :func:`formation_offers`,
  :func:`formation_facts`: an activated stack of ``formation_side`` that has not moved or
  attacked (permission ``formation``, facts ``side``, ``activated``, ``moved_or_attacked`` and
  ``left_fact``: it left the formation in this player phase; ``formed_fact``, when it leaves:
  it took the formation in this player phase) takes the ``formation_flag`` and a
  ``formation_marker``; a flagged unit cannot move, one that left the formation is asked the
  permission ``move_after_formation`` (:func:`move_refusals`, which also pins a unit that had a
  work built in its hex this turn, ``builders``).
- :func:`march_facts`, :func:`march_offers`: the stack that left the formation may force march
  (``march_kind``) right after, until another unit moves, attacks or leaves a formation.

Record (``plugin_data(<plugin>)``): ``acted`` / ``formed`` / ``unhedged`` / ``marchable`` /
``marched`` (unit -> "turn:phase" it moved or attacked / took the formation / left it / may force
march / force marched);
``builders`` is the works' (:func:`casebook.areas.fieldworks.build_work`). Public API: the
functions of ``__all__``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casebook.core.actions import Action
from casebook.core.hooks import Refusal

from .fieldworks import Works, data, forbidding, has_marker, phase_stamp, save

__all__ = ["note_acted", "acted", "action_units", "formation_stack", "formation_refusals", "apply_formation",
           "formation_offers", "formation_facts", "march_facts", "march_offers", "move_refusals"]


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
        mv = ctx.state.plugin_data("movement") or {}  # the stack that moved, not those it joined
        moving = set(mv.get("moved", [])) | set((mv.get("current") or {}).get("units", []))
        units = [u for u in units if u in moving] if moving else units
    if units:
        rec = data(ctx, w)
        rec.setdefault("acted", {}).update({u: phase_stamp(ctx) for u in units})
        save(ctx, w, rec)


def _note_march(ctx: Any, w: Works, action: Action) -> None:
    """After a move, attack or force march: the stack that left the formation force marched
    (its units move to the record ``marched``), or another acted first (it no longer may)."""
    rec = data(ctx, w)
    if not rec.get("marchable"):
        return
    open_ = _left_now(ctx, w, rec["marchable"], "marchable")
    if action.kind == w.march_kind and open_ and set(open_) <= set(action_units(ctx, action)):
        rec.setdefault("marched", {}).update({u: phase_stamp(ctx) for u in open_})
    del rec["marchable"]
    save(ctx, w, rec)


def acted(ctx: Any, w: Works, units: Iterable[str]) -> bool:
    """Whether any of ``units`` moved or attacked in this player phase (the record ``acted`` and
    the movement plugin's published ``moved`` / ``current``), once per state version."""
    found = ctx.memo.get("fieldworks.acted")
    if found is None:
        now = phase_stamp(ctx)
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
    the permission ``formation`` (facts ``side``, ``activated``: every unit of the side in the
    hex is — to leave: every unit in the formation there —, ``moved_or_attacked``,
    ``left_fact`` and, named, ``formed_fact``: true only when leaving a formation taken in this
    player phase — the activation that formed it)."""
    hex_, remove = action.get("stack"), bool(action.get("remove"))
    if ctx.state.phasing != action.side or ctx.state.step not in (w.remove_steps if remove else w.form_steps):
        return [Refusal(w.texts["steps"], w.cases["form"])]
    units = formation_stack(ctx, w, hex_, remove) if isinstance(hex_, str) else []
    if not units:
        what = w.texts["in_formation"] if remove else w.texts["not_in_formation"]
        return [Refusal(w.texts["stack"].format(what=what, hex=hex_), w.cases["form"])]
    whole = [u for u in ctx.state.units_at(hex_)  # the stack forming (or in) the formation, not a part
             if u.get("side") == w.formation_side and (not remove or u.get(w.formation_flag))]
    facts = {"side": action.side, "activated": all(u.get("activated") for u in whole),
             "moved_or_attacked": acted(ctx, w, units),
             w.left_fact: bool(_left_now(ctx, w, units))}
    if w.formed_fact:
        facts[w.formed_fact] = remove and bool(_left_now(ctx, w, units, "formed"))
    return forbidding(ctx, w.formation, facts)


def _left_now(ctx: Any, w: Works, units: Iterable[str], key: str = "unhedged") -> list[str]:
    """Those of ``units`` the record ``key`` notes in this player phase (``unhedged``: they left
    the formation; ``marchable``: they did and nothing moved since; ``marched``: they then
    force marched; ``formed``: they took the formation)."""
    now, rec = phase_stamp(ctx), data(ctx, w).get(key, {})
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
        rec.setdefault("unhedged", {}).update({u: phase_stamp(ctx) for u in units})
        rec["marchable"] = {u: phase_stamp(ctx) for u in units}  # its move just completed: it may force march
    else:
        if not has_marker(ctx, w.formation_marker, hex_):
            ctx.state.add_marker(w.formation_marker, hex_)
        if w.formed_fact:  # it leaves the formation only in a later activation
            now = phase_stamp(ctx)  # earlier phases' entries are dropped: they no longer matter
            rec["formed"] = {**{u: t for u, t in rec.get("formed", {}).items() if t == now}, **dict.fromkeys(units, now)}
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
        left = [u for u, when in rec.get("unhedged", {}).items() if when == phase_stamp(ctx) and u in units]
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
