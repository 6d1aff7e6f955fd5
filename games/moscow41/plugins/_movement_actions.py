"""Moscow '41 movement, part 4: checking and applying the movement actions.

Private helper of :mod:`casebook.games.moscow41.plugins.movement`. Kinds (notation of src/casebook/core/actions.py):

- ``move stack=HEX path=H,H… [units=U,…] [reserve=true]`` — move a stack (or continue the stack
  being moved; a subset of it drops the others off, 9.1E);
- ``overrun stack=HEX hex=HEX`` — overrun the adjacent enemy stack (9.5);
- ``force-march stack=HEX`` — a second MP allotment for the stack just moved (9.6);
- ``rail-move stack=HEX to=HEX [units=U,…]`` — Soviet rail movement (9.9);
- ``react stack=HEX [units=U,…]`` — activate a stack for reaction movement (2.4, 0.7.3.4).

:func:`check` returns the refusals (empty: legal); :func:`apply` re-checks and applies.
"""

from __future__ import annotations

from typing import Any

from casebook.areas import rail
from casebook.areas._reinforcement_probe import in_command  # casebook_command's verdict, True unanswered
from casebook.areas._zoc_moves import locking_refusals
from casebook.areas.terrain_costs import enemy_hexes, step_cost
from casebook.content.cases import implements
from casebook.core.errors import IllegalActionError
from casebook.core.hooks import Refusal
from casebook.games.moscow41.plugins._movement_apply import APPLY
from casebook.games.moscow41.plugins._movement_costs import is_supplied, move_class, movement_allowance
from casebook.games.moscow41.plugins._movement_paths import check_path, movement_config, neighbours
from casebook.games.moscow41.plugins._movement_state import (
    MODE,
    STEPS,
    current_mover,
    data,
    decider,
    eligible_stacks,
    mover,
    uid,
)
from casebook.games.moscow41.plugins._rule_refusals import refusals
from casebook.script import AskedFacts

__all__ = ["KINDS", "refused", "check", "apply", "move_mover", "in_command", "react_units", "react_cost", "foot_facts",
           "individually_activated", "unhedged_stack", "unhedged_after", "movers"]

KINDS = frozenset({"move", "overrun", "force-march", "rail-move", "react"})
_SRC = "movement"


def refused(ctx: Any, key: str, **fields: Any) -> list[Refusal]:
    """The refusal ``key`` of config/movement.yaml (``refusals``: its text and cases)."""
    says = movement_config(ctx).refusals[key]
    return [Refusal(says.format(**fields), says.cases, source=_SRC)]


def _forbid(ctx: Any, permission: str, facts: dict[str, Any], key: str, **fields: Any) -> list[Refusal]:
    """The refusal of the ``permission`` lines that forbid, worded by config/movement.yaml's
    ``forbidden[key]`` (a text, or case -> text)."""
    reason = movement_config(ctx).forbidden[key]
    text = reason.format(**fields) if isinstance(reason, str) else {c: t.format(**fields) for c, t in reason.items()}
    return refusals(ctx, permission, facts, text, _SRC)


def _verdict(ctx: Any, verdict: Any, key: str, **fields: Any) -> list[Refusal]:
    """A refused permission ``verdict``: config/movement.yaml's ``verdicts[key]``, the fired lines' cases."""
    text = movement_config(ctx).verdicts[key].format(**fields)
    return [Refusal(text, tuple(c for ln in verdict.lines if ln.fired for c in ln.cases), source=_SRC)]


def _stack(ctx: Any, action: Any, d: dict[str, Any], step: str) -> tuple[list[str], bool, list[Refusal]]:
    """``(units, continuing, refusals)`` for the ``stack``/``units`` arguments."""
    hex_ = action.get("stack")
    given = list(action.get("units") or ())
    twice = [u for i, u in enumerate(given) if u in given[:i]]
    if twice:  # a unit moves once in its stack (9.1C) and counts once for stacking (6.2B)
        return [], False, refused(ctx, "unit_twice", unit=twice[0])
    cur = d.get("current")
    if cur and cur["hex"] == hex_ and (not given or set(given) <= set(cur["units"])) and \
            action.kind in ("move", "overrun"):
        return (given or list(cur["units"])), True, []
    here = eligible_stacks(ctx, step, action.side, d, hex_, given).get(hex_, [])
    units = given or here
    if not units:  # the start_move lines that forbid the side's first unit there (9.4A, 9.1D …), else whose units move
        u = next((uid(x) for x in ctx.state.units_at(hex_) if x.get("side") == action.side), "")
        facts = {"movement_step": step, "activated": bool(u and ctx.state.unit(u).get("activated")), "reacting": u in d["react"],
                 "moved_this_phase": u in d["moved"], "non_phasing_side": ctx.state.other_side(ctx.state.phasing)}
        return [], False, (u and _forbid(ctx, "start_move", facts, "start", side=action.side, hex=hex_)) or [Refusal(
            movement_config(ctx).refusals["no_unit"].format(side=action.side, hex=hex_), ctx.quantity("movement_side", facts).cases, _SRC)]
    bad = [u for u in units if u not in here]
    if bad:
        return [], False, refused(ctx, "not_with_stack", units=", ".join(bad), hex=hex_)
    return units, False, []


def movers(ctx: Any, action: Any) -> list[str] | None:
    """The units a movement ``action`` moves now (``casebook_movers``): its ``units=``, else the
    stack being moved or the units of its hex that may move (9.1D, 9.4A, 9.8A), those activated
    for a reaction (0.7.3.4A); None for another kind or outside its step."""
    step = ctx.state.step
    if action.kind not in KINDS or step not in STEPS or decider(ctx, step) != action.side:
        return None
    d = data(ctx)
    if action.kind == "react":
        return react_units(ctx, action, d)
    cur = d.get("current")
    if action.kind == "force-march":  # 14.4B: the stack that just removed its marker there, else the one moved
        moved = list(cur["units"]) if cur and cur["hex"] == action.get("stack") else []
        return unhedged_after(ctx, action, d, step, bool(moved)) or moved
    units, _cont, bad = _stack(ctx, action, d, step)
    return [] if bad else units


def individually_activated(ctx: Any, uid: str) -> bool:
    """``uid`` is activated, and not by an HQ (the ``activated_by`` of ``casebook_command``; 9.4B)."""
    if not ctx.state.unit(uid).get("activated"):
        return False
    answer = ctx.hook.casebook_command(ctx=ctx, unit=uid)
    return not (answer or {}).get("activated_by")


@implements("9.4A", "9.9G", "9.1C", "9.1E", "9.4D")
def move_mover(ctx: Any, action: Any, d: dict[str, Any], step: str) -> tuple[Any, list[Refusal]]:
    """``(mover, refusals)`` of a ``move`` in ``step``: the :class:`Mover` play walks its path
    with (the stack being moved, with its MPs left, or a fresh one of the step's mode), or None
    and the refusals of everything but the path (the stack, 9.4D reserve, 9.9G on foot, a move
    that ended: 9.2C, 7.2). ``ask move`` walks a path with the same mover (play's verdict)."""
    units, cont, bad = _stack(ctx, action, d, step)
    if bad:
        return None, bad
    if action.get("reserve"):  # 9.4D (movement.rules, mark_reserve_on_move): only an individually activated stack
        for u in units:
            bad = _forbid(ctx, "mark_reserve_on_move", {"individually_activated": individually_activated(ctx, u)},
                          "reserve", unit=u)
            if bad:
                return None, bad
    if not action.get("path"):
        return None, refused(ctx, "no_path")
    if cont:
        cur = d["current"]
        if cur["stopped"] or cur["spent_all"]:
            return None, refused(ctx, "ended_spent" if cur["spent_all"] else "ended_stopped", hex=cur["hex"])
        return current_mover(ctx, cur, units), []
    if step == "movement":
        for u in units:
            bad = _forbid(ctx, "move_on_foot", foot_facts(ctx, d, u), "foot")
            if bad:
                return None, bad
    return mover(ctx, units, action.get("stack"), MODE[step])[0], []


def _check_move(ctx: Any, action: Any, d: dict[str, Any], step: str) -> list[Refusal]:
    m, bad = move_mover(ctx, action, d, step)
    if bad:
        return bad
    res, walk = check_path(ctx, m, list(action.get("path"))), movement_config(ctx).walk
    if res["legal"] or set(res["refused"]["cases"]) <= {*walk["ezoc_stop"], *walk["ezoc_to_ezoc"]} and locking_refusals(
            ctx, m.side, m.start, list(action.get("path")), [ctx.state.unit(u) for u in m.units]):
        return []  # legal, or a 7.2 stop the zoc area refuses too: said once, by its refusal (the EZOCs' units)
    hex_, reason, cases = res["refused"]["hex"], res["refused"]["reason"], tuple(res["refused"]["cases"])
    if set(walk["short"]) <= set(cases):  # MPs short: the MA decided too (5.7B's halving, 4.3D's), as a move's event
        cases += tuple(movement_allowance(ctx, list(m.units), MODE[step] if m.at_start else d["current"]["mode"])["cases"])
    return [Refusal(reason if str(reason).startswith(str(hex_)) else f"{hex_}: {reason}",  # the hex said once
                    tuple(dict.fromkeys(cases)), source=_SRC)]


@implements("9.5A", "9.5C", "9.5D")
def _check_overrun(ctx: Any, action: Any, d: dict[str, Any], step: str) -> list[Refusal]:
    units, cont, bad = _stack(ctx, action, d, step)
    if bad:
        return bad
    here, target = action.get("stack"), action.get("hex")
    for u in units:
        v = ctx.permission("overrun", {"reaction": step == "reaction_movement",
                                       "unit_class": ctx.state.unit(u).get("class", "infantry")})
        if not v.value:
            return _verdict(ctx, v, "overrun_unit", unit=u)
    if step != "movement":  # 0.7.3.2A, 9.8B: the overrun_attempt lines (the MPs are not asked)
        return _forbid(ctx, "overrun_attempt", {"movement_step": step, "spent_all_mp": False, "overrun_cost": 0,
                                                "mp_left": 0}, "overrun_step")
    if target not in neighbours(ctx, here) or target not in enemy_hexes(ctx, action.side):
        return refused(ctx, "not_adjacent_enemy", target=target, hex=here)
    cur = d["current"] if cont else None
    classes = frozenset(move_class(ctx, ctx.state.unit(u)) for u in units)
    cost = step_cost(ctx, classes, here, target, overrun=True)[0]
    spent_all = bool(cur and cur["spent_all"])
    if cost is None and not spent_all:
        return refused(ctx, "tec_prohibits", target=target)
    left = (cur["budget"] - cur["spent"]) if cur else mover(ctx, units, here, MODE[step])[0].budget
    return _forbid(ctx, "overrun_attempt", {"movement_step": step, "spent_all_mp": spent_all,
                                            "overrun_cost": int(cost or 0), "mp_left": int(left)},
                   "overrun", target=target, cost=cost, terrain=ctx.value("overrun_mp", {}), left=left)


def unhedged_after(ctx: Any, action: Any, d: dict[str, Any], step: str, moved_there: bool) -> list[str]:
    """:func:`unhedged_stack`; when a stack has just moved into the hex (``moved_there``) the
    search is kept out of the event's lines (``ctx.apart``): a force march of the stack moved
    names only its own lines, as before any removal was looked for."""
    if not moved_there:
        return unhedged_stack(ctx, action, d, step)
    with ctx.apart():
        return unhedged_stack(ctx, action, d, step)


def unhedged_stack(ctx: Any, action: Any, d: dict[str, Any], step: str) -> list[str]:
    """14.4B: the units of the stack ``action`` names if every one has just removed its Hedgehog
    marker (spending all its MPs, 14.4A) and nothing moved since (the fortification plugin's fact
    ``removed_hedgehog``); else []."""
    hex_ = action.get("stack")
    units = eligible_stacks(ctx, step, action.side, d, hex_).get(hex_, []) if hex_ else []
    left = [u for u in units if any((part or {}).get("removed_hedgehog", {}).get("value")
                                    for part in ctx.hook.casebook_facts(ctx=ctx, subject=u))]
    return units if units and left == units else []


@implements("9.6A", "9.2C", "9.7", "9.8B", "9.9J", "14.4B")
def _check_force_march(ctx: Any, action: Any, d: dict[str, Any], step: str) -> list[Refusal]:
    cur = d.get("current")
    there = bool(cur) and cur["hex"] == action.get("stack")
    unhedged = unhedged_after(ctx, action, d, step, there)  # 14.4B: it removed its marker after any move there
    after = not unhedged and there and not (cur["hexes"] == 0 and cur["allotment"] == 1)
    if unhedged:  # 14.4B: that stack declares, not the one moved before it
        cur = {"units": unhedged, "allotment": 1, "stopped": False, "spent_all": False, "mode": MODE[step]}
    bad = _forbid(ctx, "declare_force_march", {
        "after_own_move": after, "removed_hedgehog": bool(unhedged),
        "force_marched": bool(cur) and cur["allotment"] != 1,
        "stopped": bool(cur and cur["stopped"]), "spent_all_mp": bool(cur and cur["spent_all"])}, "force_march")
    if bad or not cur:
        return bad or refused(ctx, "no_force_march")
    for u in cur["units"]:
        v = ctx.permission("force_march", {
            "reaction": cur["mode"] == "reaction", "unactivated": cur["mode"] == "unactivated",
            "moved_by_rail": bool(cur.get("rail")), "spent_all_mp": bool(cur["spent_all"]),
            "unit_class": ctx.state.unit(u).get("class", "infantry")})
        if not v.value:
            return _verdict(ctx, v, "force_march_unit")
    return []


def foot_facts(ctx: Any, d: dict[str, Any], unit: str) -> dict[str, Any]:
    """The facts of the ``move_on_foot`` lines (9.9G) for ``unit`` in the Movement Step."""
    u = ctx.state.unit(unit)
    return {"rail_hq_moved": bool(d.get("rail_hq")), "unit_class": u.get("class", "infantry"),
            "reserve": bool(u.get("reserve"))}


@implements("9.9A", "9.9B", "9.9C", "9.9D", "9.9E", "9.9F", "9.9H", "9.9I")
def _check_rail(ctx: Any, action: Any, d: dict[str, Any], step: str) -> list[Refusal]:
    bad = _forbid(ctx, "rail_move", {"side": action.side, "movement_step": step}, "rail")
    if bad:
        return bad
    units, _cont, bad = _stack(ctx, action, d, step)
    if bad:
        return bad
    counted = rail.counted(ctx, units)  # 9.9E: HQs do not count
    left = rail.capacity_left(ctx, d["rail_units"])  # 9.9A-D
    if counted > left:
        return refused(ctx, "rail_capacity", left=left, counted=counted)
    dests, why = rail.railhead_reach(ctx, action.side, action.get("stack"))  # 9.9I
    if why:
        return refused(ctx, "rail_blocked", why=why)
    if action.get("to") not in dests:
        return refused(ctx, "no_rail_path", stack=action.get("stack"), to=action.get("to"))
    return []


def react_units(ctx: Any, action: Any, d: dict[str, Any], given: bool = True) -> list[str]:
    """The units of a ``react`` action: those it names (``given``), else its side's unactivated
    units in its hex not yet activated for reaction (0.7.3.4A)."""
    return list(action.get("units") or ()) if given and action.get("units") else [
        uid(u) for u in ctx.state.units_at(action.get("stack")) if u.get("side") == action.side
        and not u.get("activated") and uid(u) not in d["react"]]


def react_cost(ctx: Any, side: str, units: list[str]) -> int:
    """IPs to activate ``units`` for reaction (script ip_cost, interpretation reaction-cost)."""
    per = int(ctx.value("ip_cost", {"ip_use": "reaction", "side": side, "supplied": True}))
    return per * (len(units) if ctx.state.setting("reaction_cost_per", "stack") == "unit" else 1)


@implements("2.4A", "2.4B", "9.4C", "9.8C", "0.7.3.4A")
def _check_react(ctx: Any, action: Any, d: dict[str, Any], step: str) -> list[Refusal]:
    bad = _forbid(ctx, "react_in_step", {"movement_step": step}, "react_step")
    if bad:
        return bad
    hex_ = action.get("stack")
    here = react_units(ctx, action, d, given=False)
    units = react_units(ctx, action, d)
    if not units or any(u not in here for u in units):
        return refused(ctx, "no_react_unit", side=action.side, hex=hex_)
    for u in units:
        # supply and command asked only if a rule line reads them (2.4A: command of a supplied unit)
        v = ctx.permission("reaction_move", AskedFacts(
            {"turn": ctx.state.turn, "side": action.side},
            {"supplied": lambda u=u: is_supplied(ctx, u), "in_command": lambda u=u: in_command(ctx, u)}))
        if not v.value:
            return _verdict(ctx, v, "react_unit", unit=u)
    cost = react_cost(ctx, action.side, units)
    if ctx.state.track("ip", action.side) < cost:
        return refused(ctx, "react_cost", cost=cost, ip=ctx.state.track("ip", action.side))
    return []


_CHECKS = {"move": _check_move, "overrun": _check_overrun, "force-march": _check_force_march,
           "rail-move": _check_rail, "react": _check_react}


def check(ctx: Any, action: Any) -> list[Refusal]:
    """Refusals of a movement ``action`` now (empty: legal); [] for other plugins' kinds."""
    if action.kind not in KINDS:
        return []
    step = ctx.state.step
    if step not in STEPS or decider(ctx, step) != action.side:
        return refused(ctx, "not_step", kind=action.kind, side=action.side, step=step)
    return _CHECKS[action.kind](ctx, action, data(ctx), step)


def apply(ctx: Any, action: Any) -> dict[str, Any] | None:
    """Apply a checked movement action; returns a summary (None for other kinds)."""
    if action.kind not in KINDS:
        return None
    refusals = check(ctx, action)
    if refusals:
        raise IllegalActionError(str(action), [c for r in refusals for c in r.cases], refusals[0].reason)
    return APPLY[action.kind](ctx, action, data(ctx), ctx.state.step)
