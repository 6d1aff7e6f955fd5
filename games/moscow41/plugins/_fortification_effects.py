"""Effects and destruction of fortifications (14.2-14.3), hedgehogs (14.4) and the automatic
fatigue of a scattered paratroop (14.4D2), for ``games/moscow41/plugins/fortification.py``.

Record keys used here (``state.plugin_data("fortification")``): ``acted``: unit -> "turn:phase"
when it moved or attacked in that player phase (14.4A); ``unhedged``: unit -> "turn:phase"
when it removed its Hedgehog marker (14.4A-B); ``scatter_fatigued``: scattered paratroops
already fatigued for their scatter (14.4D2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

from ._fortification_build import data, has_marker, save

__all__ = ["printed_protecting", "fortification_info", "attack_facts", "destroy_entered",
           "MOVE_KINDS", "action_units", "acted", "note_acted", "hedgehog_refusals", "apply_hedgehog",
           "hedgehog_actions", "movement_refusals", "scatter_fatigue"]

#: Actions that move a stack (movement plugin) and those that attack (combat plugin).
MOVE_KINDS = ("move", "overrun", "rail-move", "react", "react-move")
ATTACK_KINDS = ("attack",)


def _now(ctx: Any) -> str:
    return f"{ctx.state.turn}:{ctx.state.phase}"


@implements("14.2A")
def printed_protecting(ctx: Any, hex_: str) -> list[str]:
    """Hexes across whose hexside a printed fortification protects ``hex_`` (its facing, 14.2A),
    none once a Fortification Destroyed marker stands in ``hex_`` (14.3B)."""
    if has_marker(ctx, "fort-destroyed", hex_):
        return []
    h = parse_hex(hex_)
    return sorted(hex_label(n) for n in ctx.board.neighbours(h) if ctx.board.side(h, n).fortification == h)


@implements("14.0", "14.2A", "14.2B", "14.2D")
def fortification_info(ctx: Any, hex_: str) -> dict[str, Any]:
    """What protects ``hex_``: ``{"marker": bool`` (all-round, 14.2B), ``"printed_from": [hexes]``
    (faced, 14.2A), ``"destroyed": bool}``. Fortifications act on combat only, never on ZOCs
    (14.2D): this plugin answers no ZOC question."""
    return {"marker": has_marker(ctx, "fortification", hex_), "printed_from": printed_protecting(ctx, hex_),
            "destroyed": has_marker(ctx, "fort-destroyed", hex_)}


@implements("14.2C")
def attack_facts(ctx: Any, hex_: str, attackers: Iterable[str]) -> dict[str, Any]:
    """Facts of an attack on ``hex_`` by ``attackers`` (unit ids): ``across_fortification`` per
    attacker (permission ``fortification_protects``: a Fortification marker protects from any
    direction, 14.2B; a printed one only across its hexside, 14.2A), ``fortified`` for the
    defending stack (at least part of the attack through a fortification, 14.2A: +1 strength and
    -1 DRM by the rule scripts, 14.2C), and ``attackers_fortified`` (permission
    ``fortification_helps_attacker``: never, 14.2E)."""
    info = fortification_info(ctx, hex_)
    across = {a: ctx.allowed("fortification_protects", {  # 14.2A-B in fortification.rules
                  "fort_marker": info["marker"],
                  "across_printed_hexside": ctx.state.unit(a).get("hex") in info["printed_from"]})
              for a in attackers}
    out_of = ctx.allowed("fortification_helps_attacker", {})  # 14.2E
    return {"across_fortification": {"value": across, "cases": ["14.2A", "14.2B"]},
            "fortified": {"value": any(across.values()), "cases": ["14.2A", "14.2B", "14.2C"]},
            "attackers_fortified": {"value": out_of, "cases": ["14.2E"]}}


def _entered(action: Action) -> list[str]:
    out: list[str] = []
    for name in ("path", "to", "into"):
        v = action.get(name)
        out += list(v) if isinstance(v, tuple) else [v] if isinstance(v, str) else []
    if action.kind == "overrun" and isinstance(action.get("hex"), str):
        out.append(action.get("hex"))
    return out


def destroy_entered(ctx: Any, action: Action) -> list[dict[str, Any]]:
    """After a move or advance, every fortification in a hex entered that the rule scripts let
    be destroyed (permission ``destroy_fortification``, 14.3A: a German unit, no Soviet unit
    there; setting ``fort_destroyed_by``: ``entry`` — any move or advance, the default — or
    ``advance`` — advances after combat only) leaves what quantity ``fortification_destroyed``
    says (14.3B: a marker is removed, a printed one gets a Fortification Destroyed marker).
    Returns what was destroyed."""
    if action.kind not in ("advance", *MOVE_KINDS, "force-march"):
        return []
    out = []
    for hex_ in dict.fromkeys(_entered(action)):
        marker = has_marker(ctx, "fortification", hex_)
        if not (marker or printed_protecting(ctx, hex_)):
            continue
        occupied = any(u.get("side") == "soviet" for u in ctx.state.units_at(hex_))
        if not ctx.allowed("destroy_fortification", {"side": action.side, "hex_occupied": occupied,
                                                     "advance_after_combat": action.kind == "advance"}):
            continue  # 14.3A in fortification.rules
        if ctx.value("fortification_destroyed", {"fort_marker": marker}) == "removed":  # 14.3B
            ctx.state.remove_marker("fortification", hex_)
            out.append({"hex": hex_, "kind": "marker"})
        else:
            ctx.state.add_marker("fort-destroyed", hex_)
            out.append({"hex": hex_, "kind": "printed"})
    if out:
        ctx.changed()
        ctx.record("fortification-destroyed", ("14.3A", "14.3B"), {"hexes": out},
                   source="fortification.destroy_entered", side="german")
    return out


def action_units(ctx: Any, action: Action) -> list[str]:
    """The units an action moves or attacks with: ``units=`` / ``with=``, else the side's units
    in ``stack=``."""
    given = action.get("units") or action.get("with")
    if given:
        return list(given)
    stack = action.get("stack")
    return [u["id"] for u in ctx.state.units_at(stack) if u.get("side") == action.side] if stack else []


def note_acted(ctx: Any, action: Action) -> None:
    """Remember the units that moved or attacked in this player phase (for 14.4A)."""
    if action.kind not in (*MOVE_KINDS, *ATTACK_KINDS, "force-march"):
        return
    units = list(action.get("with") or ()) if action.kind in ATTACK_KINDS else list(action.get("units") or ())
    if not units and action.kind in MOVE_KINDS:
        path = action.get("path") or (action.get("to"),)
        units = [u["id"] for u in ctx.state.units_at(path[-1]) if u.get("side") == action.side] if path[-1] else []
    if units:
        rec = data(ctx)
        rec.setdefault("acted", {}).update({u: _now(ctx) for u in units})
        save(ctx, rec)


def acted(ctx: Any, units: Iterable[str]) -> bool:
    """Whether any of ``units`` moved or attacked in this player phase (this plugin's notes and
    the movement plugin's published ``moved`` / ``current`` record)."""
    return not _acted_now(ctx).isdisjoint(units)


def _acted_now(ctx: Any) -> frozenset[str]:
    """The units that moved or attacked in this player phase (see :func:`acted`), once per
    state version (``ctx.memo``)."""
    found = ctx.memo.get("fortification.acted")
    if found is None:
        now = _now(ctx)
        mine = {u for u, when in data(ctx).get("acted", {}).items() if when == now}
        mv = ctx.state.plugin_data("movement") or {}
        moving = set(mv.get("moved", [])) | set((mv.get("current") or {}).get("units", []))
        found = ctx.memo["fortification.acted"] = frozenset(mine | moving)
    return found


def _stack(ctx: Any, hex_: str, hedged: bool) -> list[str]:
    return [u["id"] for u in ctx.state.units_at(hex_) if u.get("side") == "german"
            and u.get("activated") and bool(u.get("hedgehog")) == hedged]


@implements("14.4A", "14.4B")
def hedgehog_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``hedgehog stack=H [remove=true]`` is illegal: the ``hedgehog`` permission (14.4A: a
    German stack, activated, not moved or attacked in this activation) for forming; for removing,
    an activated stack in hedgehog in its Movement Step (it spends all its MPs, 14.4A)."""
    hex_, remove = action.get("stack"), bool(action.get("remove"))
    if ctx.state.phasing != action.side or ctx.state.step not in (("movement",) if remove else ("command", "movement")):
        return [Refusal("hedgehogs are formed by the phasing player in the Command or Movement Step "
                        "and removed in the Movement Step", ("14.4A",))]
    units = _stack(ctx, hex_, remove) if isinstance(hex_, str) else []
    if not units:
        what = "in hedgehog formation" if remove else "not yet in hedgehog formation"
        return [Refusal(f"no activated German unit {what} in {hex_}", ("14.4A",))]
    facts = {"side": action.side, "activated": True, "moved_or_attacked": acted(ctx, units)}
    verdict = ctx.permission("hedgehog", facts)
    return [Refusal(f"forbidden: {ln.text}", tuple(ln.cases), source=ln.source)
            for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]


@implements("14.4A", "14.4B")
def apply_hedgehog(ctx: Any, action: Action) -> dict[str, Any]:
    """Form (flag ``hedgehog`` on the units and a Hedgehog marker) or remove the hedgehog; a
    stack that removes it has spent all its MPs this activation but may still force march
    (14.4B). Returns ``{"stack", "units", "formed"}``."""
    hex_, remove = action.get("stack"), bool(action.get("remove"))
    units = _stack(ctx, hex_, remove)
    for u in units:
        ctx.state.update_unit(u, hedgehog=None if remove else True)
    rec = data(ctx)
    if remove:
        if has_marker(ctx, "hedgehog", hex_):
            ctx.state.remove_marker("hedgehog", hex_)
        rec.setdefault("unhedged", {}).update({u: _now(ctx) for u in units})
    elif not has_marker(ctx, "hedgehog", hex_):
        ctx.state.add_marker("hedgehog", hex_)
    save(ctx, rec)
    out = {"stack": hex_, "units": units, "formed": not remove}
    ctx.record("hedgehog", ("14.4A", "14.4B") if remove else ("14.4A",), out,
               source="fortification.apply_hedgehog", side=action.side)
    return {**out, "cases": ["14.4A", "14.4B"] if remove else ["14.4A"]}


def hedgehog_actions(ctx: Any, step: str) -> list[Action]:
    """Every ``hedgehog`` action :func:`hedgehog_refusals` accepts now. Only a hex with an
    activated German unit out of (to form) or in (to remove) hedgehog formation can have one, so
    only those are asked about (same actions, fewer questions)."""
    out = []
    kinds: dict[str, set[bool]] = {}
    for u in ctx.state.units:
        if u.get("side") == "german" and "hex" in u:
            found = kinds.setdefault(u["hex"], set())
            if u.get("activated"):
                found.add(bool(u.get("hedgehog")))
    for hex_ in sorted(kinds):
        for remove in (False, True):
            if remove not in kinds[hex_]:
                continue  # _stack(ctx, hex_, remove) is empty: refused (14.4A)
            a = Action.make("hedgehog", "german", stack=hex_, remove=True if remove else None)
            if not hedgehog_refusals(ctx, a):
                out.append(a)
    return out


@implements("14.4C", "14.1D")
def movement_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Moves and attacks refused by this area: a unit in hedgehog formation cannot move (14.4C);
    a unit that removed its Hedgehog marker has spent all its MPs but may force march
    (permission ``move_after_hedgehog``, 14.4A-B); a unit whose hex was fortified this turn outside a city, town or the Moscow ring
    may neither move nor attack (14.1D)."""
    if action.kind not in (*MOVE_KINDS, *ATTACK_KINDS, "force-march"):
        return []
    units = action_units(ctx, action)
    out = []
    if action.kind != "force-march" and action.kind in MOVE_KINDS:
        hedged = [u for u in units if ctx.state.has_unit(u) and ctx.state.unit(u).get("hedgehog")]
        if hedged:
            out.append(Refusal(f"in hedgehog formation, cannot move: {', '.join(hedged)}", ("14.4C",)))
    if action.kind in (*MOVE_KINDS, "force-march"):
        unhedged = [u for u, when in data(ctx).get("unhedged", {}).items() if when == _now(ctx) and u in units]
        if unhedged:  # 14.4A-B in fortification.rules
            verdict = ctx.permission("move_after_hedgehog", {"removed_hedgehog": True,
                                                             "forced_march": action.kind == "force-march"})
            if not verdict.value:
                out.append(Refusal(f"spent all MPs removing the Hedgehog marker: {', '.join(unhedged)}",
                                   tuple(verdict.cases) or ("14.4A",)))
    builders = [u for u, t in data(ctx).get("builders", {}).items() if t == ctx.state.turn and u in units]
    if builders:
        out.append(Refusal(f"stays to build a fortification this turn: {', '.join(builders)}", ("14.1D",)))
    return out


def scatter_fatigue(ctx: Any) -> list[str]:
    """A scattered paratroop (``scattered: true``, 15.3) is automatically fatigued, once per
    scatter, unless the scripts allow ``scattered_unfatigued`` (14.4D2 forbids it); not a
    combat result, so no IPs can negate it (14.4D2). Returns the units fatigued now. Changes
    the state."""
    rec = data(ctx)
    done = set(rec.get("scatter_fatigued", []))
    scattered = {u["id"] for u in ctx.state.units if u.get("scattered")}
    new = sorted(scattered - done)
    fatigued = []
    for uid in new:
        if ctx.allowed("scattered_unfatigued", {}):  # 14.4D2 in fortification.rules forbids it
            continue
        if not ctx.state.unit(uid).get("fatigued"):
            ctx.state.update_unit(uid, fatigued=True)
            fatigued.append(uid)
            ctx.record("fatigue", ("14.4D2",), {"unit": uid, "source": "scatter", "negatable": False},
                       source="fortification.scatter_fatigue", side="soviet")
    if new or done - scattered:
        rec["scatter_fatigued"] = sorted(scattered)
        save(ctx, rec)
    return fatigued
