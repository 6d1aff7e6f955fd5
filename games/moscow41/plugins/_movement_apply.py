"""Moscow '41 movement, part 5: applying the (already checked) movement actions.

Private helper of :mod:`casebook.games.moscow41.plugins.movement`. Every change goes through ``GameState``
methods; every effect is recorded in the trace with its cases.
"""

from __future__ import annotations

from typing import Any

from casebook.areas.moving_stack import mark_moved, move_lines
from casebook.areas.rail import counted as rail_counted
from casebook.areas.rail import railhead_reach
from casebook.areas.results import awaiting as results_pending  # 10.0F: a result awaits a choice
from casebook.areas.terrain_costs import enemy_hexes, ezoc, step_cost, zoc_treatment
from casebook.content.cases import implements
from casebook.core.errors import IllegalActionError
from casebook.games.moscow41.plugins._movement_costs import is_supplied, move_class, movement_allowance
from casebook.games.moscow41.plugins._movement_paths import check_path, movement_config
from casebook.games.moscow41.plugins._movement_state import (
    MODE,
    current_mover,
    data,
    eligible_stacks,
    finish_current,
    save,
    start_current,
)

__all__ = ["APPLY", "after_overrun", "finish_overrun", "results_pending"]


def _cases(ctx: Any, event: str) -> list[str]:  # config/movement.yaml's ``events``
    return list(movement_config(ctx).events[event])


def _place(ctx: Any, units: list[str], hex_: str) -> None:
    for u in units:
        ctx.state.move_unit(u, hex_)
    ctx.changed()


@implements("9.0A", "9.1C", "9.1E", "9.4D", "9.8B")
def _move(ctx: Any, action: Any, d: dict[str, Any], step: str) -> dict[str, Any]:
    """Move the stack along the path; a subset of the stack being moved drops the rest off,
    whose movement ends (9.1E); ``reserve=true`` marks the stack Reserve when it completes its
    move (9.4D); an unactivated stack's one hex ends its move (9.8B)."""
    hex_ = action.get("stack")
    given = list(action.get("units") or ())
    cur = d.get("current")
    if cur and cur["hex"] == hex_ and (not given or set(given) <= set(cur["units"])):
        units = given or list(cur["units"])
        dropped = [u for u in cur["units"] if u not in units]
        if dropped:
            # 9.1E (movement.rules, move_after_drop_off): units dropped off end their movement
            if not ctx.allowed("move_after_drop_off", {}):
                mark_moved(d, dropped)
            cur["units"] = units
            ctx.record("drop-off", _cases(ctx, "drop_off"), {"units": dropped, "hex": hex_}, source="movement.move",
                       side=action.side)
    else:
        units = given or [u["id"] for u in ctx.state.units_at(hex_) if u["id"] in _eligible(ctx, step, action.side, d, hex_)]
        cur = start_current(ctx, d, units, hex_, MODE[step])
    m = current_mover(ctx, cur, units)
    res = check_path(ctx, m, list(action.get("path")))
    ma = movement_allowance(ctx, units, cur["mode"])["cases"]  # the lines of its MA (at its start) and path, as why's
    dest = res["stops_at"]
    _place(ctx, units, dest)
    last = res["steps"][-1] if res["steps"] else None
    locked = set(movement_config(ctx).walk["locking"])  # the last hex entered a locking EZOC: movement ends
    cur.update(hex=dest, spent=cur["spent"] + res["mp_spent"], hexes=cur["hexes"] + len(res["steps"]),
               spent_all=bool(res["spent_all"]), stopped=bool(last and locked & set(last["cases"])))
    ctx.record("move", res["cases"], {"units": units, "from": hex_, "path": list(action.get("path")), "mp_spent": res["mp_spent"],
               "mp_left": cur["budget"] - cur["spent"], **move_lines(ctx, [*ma, *res["cases"]])}, source="movement.move", side=action.side)
    if action.get("reserve"):
        for u in units:
            ctx.state.update_unit(u, reserve=True)
        ctx.record("reserve", _cases(ctx, "reserve"), {"units": units}, source="movement.move", side=action.side)
    if cur["mode"] == "unactivated":
        finish_current(ctx, d)
    save(ctx, d)
    return {"units": units, "hex": dest, "mp_spent": res["mp_spent"],
            "mp_left": cur["budget"] - cur["spent"], "cases": res["cases"]}


def _eligible(ctx: Any, step: str, side: str, d: dict[str, Any], hex_: str) -> list[str]:
    return eligible_stacks(ctx, step, side, d, hex_).get(hex_, [])


@implements("9.5A", "9.5B", "9.5C", "9.5D", "9.5E")
def _overrun(ctx: Any, action: Any, d: dict[str, Any], step: str) -> dict[str, Any]:
    """Pay the terrain cost of the defender's hex +1 MP (9.5A), resolve the combat through the
    combat plugin (``casebook_combat``, kind "overrun", no combat support), then advance into the
    vacated hex at no cost (9.5B) and go on moving; if defenders remain the stack stops unless
    it overruns again (9.5D). A stack overruns as often as its MPs pay for (9.5C); a hex may be
    overrun again and again (9.5E)."""
    hex_, target = action.get("stack"), action.get("hex")
    cur = d.get("current")
    if not (cur and cur["hex"] == hex_):
        units = _eligible(ctx, step, action.side, d, hex_)
        cur = start_current(ctx, d, units, hex_, MODE[step])
    units = list(cur["units"])
    classes = frozenset(move_class(ctx, ctx.state.unit(u)) for u in units)
    cost = step_cost(ctx, classes, hex_, target, overrun=True)[0]
    cur["spent"] += int(cost or 0)
    save(ctx, d)
    result = ctx.hook.casebook_combat(ctx=ctx, attackers=units, hex=target, kind="overrun", support=None)
    if result is None:
        says = movement_config(ctx).refusals["no_combat"]
        raise IllegalActionError(str(action), list(says.cases), says.text)
    ctx.changed()
    if result.get("pending"):  # the result awaits the players' choices (11.0B-11.2): finished after them
        cur["overrun"] = {"side": action.side, "start": hex_, "hex": target, "mp": int(cost or 0),
                          "classes": sorted(classes),
                          "combat": {k: result.get(k) for k in ("odds", "roll", "result")}}
        save(ctx, d)
        return {"units": units, "hex": target, "mp": cost, "pending": "combat results", "combat": result,
                "cases": _cases(ctx, "overrun_pending")}
    out = after_overrun(ctx, action.side, d, hex_, target, cost, classes,
                        {k: result.get(k) for k in ("odds", "roll", "result")})
    return {"units": out["units"], "hex": target, "mp": cost, "advanced": out["advanced"], "combat": result,
            "cases": out["cases"]}


@implements("9.5B", "9.5D")
def after_overrun(ctx: Any, side: str, d: dict[str, Any], hex_: str, target: str, cost: Any,
                  classes: frozenset[str], combat: dict[str, Any]) -> dict[str, Any]:
    """The overrun of ``target`` from ``hex_`` by the stack being moved (its movement classes
    ``classes`` before the combat) once the combat result ``combat`` (odds, roll, result) is
    applied: the surviving stack advances into the vacated hex and moves on (9.5B; a locking
    EZOC there stops it), or stops (9.5D). Records the ``overrun`` event."""
    cur = d["current"]
    units = list(cur["units"])
    # survivors: still in the hex overrun from, or already advanced into the vacated hex by the
    # combat results (the move goes on from there with the MPs left, 9.5B-C)
    alive = [u for u in units if ctx.state.has_unit(u) and ctx.state.unit(u).get("hex") in (hex_, target)]
    cur["units"] = alive
    vacated = target not in enemy_hexes(ctx, side)
    advanced = bool(alive) and vacated
    if advanced:
        _place(ctx, alive, target)
        locking = zoc_treatment(ctx, classes) == "locking" and bool(ezoc(ctx, target, side))
        # 9.5B: the advance costs the script's overrun_advance_mp (none: paid with the overrun)
        cur.update(hex=target, hexes=cur["hexes"] + 1, stopped=locking,
                   spent=cur["spent"] + int(ctx.value("overrun_advance_mp", {})))
    else:
        cur["stopped"] = True
    cases = _cases(ctx, "overrun_advanced" if advanced else "overrun_stopped")
    # 9.5A: read again (kept) so the event names the lines of its MP cost: the TEC's, overrun_mp's
    step_cost(ctx, classes, hex_, target, overrun=True), ctx.value("overrun_mp", {})
    ctx.record("overrun", cases, {"units": alive, "hex": target, "mp": cost, "advanced": advanced, "combat": combat},
               source="movement.overrun", side=side)
    if not alive:
        finish_current(ctx, d)
    save(ctx, d)
    return {"units": alive, "hex": target, "mp": cost, "advanced": advanced, "cases": cases}


@implements("9.5B", "9.5D", "10.0F")
def finish_overrun(ctx: Any) -> dict[str, Any] | None:
    """After any action: an overrun whose combat result waited for the players' choices (who
    takes the F or the losses, the defender's retreat: 11.0B-11.2) goes on once the last is made
    (:func:`after_overrun`). None when no overrun waits, or its result is still pending."""
    raw = (ctx.state.plugin_data("movement") or {}).get("current")
    if not raw or not raw.get("overrun") or results_pending(ctx):
        return None
    d = data(ctx)
    d["current"] = cur = raw  # as it was before the result moved or removed its units (data() drops them)
    p = cur.pop("overrun")
    return after_overrun(ctx, p["side"], d, p["start"], p["hex"], p["mp"], frozenset(p["classes"]), p["combat"])


@implements("9.6A", "9.6B", "14.4B")
def _force_march(ctx: Any, action: Any, d: dict[str, Any], step: str) -> dict[str, Any]:
    """A second allotment of MPs equal to the first (9.6A; MPs left from the first are lost),
    with the supply the move began with (9.6B); the fatigue roll follows when the force march
    ends (9.6C, in :func:`finish_current`)."""
    from casebook.games.moscow41.plugins._movement_actions import unhedged_after
    from casebook.games.moscow41.plugins._movement_costs import movement_allowance
    cur = d.get("current")
    there = bool(cur and cur["hex"] == action.get("stack"))
    unhedged = unhedged_after(ctx, action, d, step, there)  # 14.4B: all its MPs went to remove its Hedgehog
    if unhedged or not there:  # marker, after any stack that moved there
        cur = start_current(ctx, d, unhedged, action.get("stack"), MODE[step])
        cur["spent"] = cur["budget"]
    # 9.6B (movement.rules, rejudge_supply_on_force_march): the supply the move began with
    kept = None if ctx.allowed("rejudge_supply_on_force_march", {}) else cur["supplied"]
    if kept is None:
        cur["supplied"] = {u: is_supplied(ctx, u) for u in cur["units"]}
    ma = movement_allowance(ctx, cur["units"], "force-march", supplied=cur["supplied"])
    forfeited = cur["budget"] - cur["spent"]
    cur.update(allotment=2, budget=ma["ma"], spent=0, stopped=False, spent_all=False)
    ctx.record("force-march", cases := _cases(ctx, "force_march"), {"units": cur["units"], "ma": ma["ma"],
               "forfeited": forfeited}, source="movement.force_march", side=action.side)
    save(ctx, d)
    return {"units": cur["units"], "ma": ma["ma"], "forfeited": forfeited, "cases": cases}


@implements("9.9E", "9.9G", "9.9J", "9.9K")
def _rail(ctx: Any, action: Any, d: dict[str, Any], step: str) -> dict[str, Any]:
    """Move the stack by rail to a railhead (9.9I); it spends its entire MA and moves no
    further, nor force marches (9.9J); combat units count against the capacity, HQs do not
    (9.9E); an HQ moved by rail in the Movement Step lets the units it activated move only by
    rail (9.9G). A unit railed into an EZOC may attack this phase if in command there (9.9K;
    published as the fact ``rail_attack_allowed``)."""
    finish_current(ctx, d)
    hex_, dest = action.get("stack"), action.get("to")
    units = list(action.get("units") or ()) or _eligible(ctx, step, action.side, d, hex_)
    path = railhead_reach(ctx, action.side, hex_)[0][dest]
    _place(ctx, units, dest)
    counted = rail_counted(ctx, units)  # 9.9E (movement.rules, rail_units_counted): HQs do not count
    d["rail_units"] = int(d["rail_units"]) + counted
    d["railed"] = sorted(set(d["railed"]) | set(units))
    mark_moved(d, units)
    if step == "movement" and counted < len(units):
        d["rail_hq"] = True
    cases = _cases(ctx, "rail") + (_cases(ctx, "rail_hq") if counted < len(units) else [])
    ctx.record("rail-move", cases, {"units": units, "from": hex_, "to": dest, "path": path,
                                    "capacity_used": d["rail_units"]}, source="movement.rail", side=action.side)
    save(ctx, d)
    return {"units": units, "to": dest, "path": path, "cases": cases}


@implements("2.4A", "0.7.3.4A", "0.7.3.4B")
def _react(ctx: Any, action: Any, d: dict[str, Any], step: str) -> dict[str, Any]:
    """Pay the reaction IPs (2.4A, 0.7.3.4A; interpretation reaction-cost) and mark the stack
    Activated (0.7.3.4B); it then moves with half its MA (9.7)."""
    from casebook.games.moscow41.plugins._movement_actions import react_cost, react_units
    finish_current(ctx, d)
    hex_ = action.get("stack")
    units = react_units(ctx, action, d)
    cost = react_cost(ctx, action.side, units)
    ctx.state.add_track("ip", -cost, action.side)
    # 0.7.3.4B (movement.rules, leave_reacting_unactivated): the reacting units are marked Activated
    marked = not ctx.allowed("leave_reacting_unactivated", {})
    if marked:
        for u in units:
            ctx.state.update_unit(u, activated=True)
    d["react"] = sorted(set(d["react"]) | set(units))
    added = _cases(ctx, "react_marked") if marked else []
    ctx.record("react", _cases(ctx, "react") + added, {"units": units, "hex": hex_, "ip": cost},
               source="movement.react", side=action.side)
    save(ctx, d)
    return {"units": units, "ip": cost, "cases": _cases(ctx, "react_result") + added}


APPLY = {"move": _move, "overrun": _overrun, "force-march": _force_march, "rail-move": _rail, "react": _react}
