"""Moscow '41 movement, part 6: the legal actions of the movement steps, deterministic and
small (one ``move`` per reachable destination with its canonical cheapest path, not every path).

Private helper of :mod:`casebook.games.moscow41.plugins.movement`.
"""

from __future__ import annotations

from typing import Any

from casebook.areas import rail
from casebook.areas.terrain_costs import enemy_hexes
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.games.moscow41.plugins._movement_actions import check, foot_facts, react_cost
from casebook.games.moscow41.plugins._movement_paths import neighbours, reach
from casebook.games.moscow41.plugins._movement_state import (
    MODE,
    STEPS,
    current_mover,
    data,
    decider,
    eligible_stacks,
    mover,
)
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed

__all__ = ["legal_actions", "destinations", "rail_moves", "mover_refusals"]


def _overstacked(ctx: Any, hex_: str, units: list[str]) -> bool:
    """6.2B: a move may not end overstacked (the stacking plugin's verdict; False without one).
    Kept for the state version with its lines (``ctx.memo_kept``): every stack's destinations
    ask about the same occupied hexes."""
    def compute() -> bool:
        # the units already there (not the movers themselves) plus the movers: an overstacked
        # stack may not end its move overstacked in an empty hex either
        here = [u["id"] for u in ctx.state.units_at(hex_) if u["id"] not in units]
        ans = ctx.hook.casebook_stacking(ctx=ctx, hex=hex_, units=here + list(units))
        return bool(ans and ans.get("overstacked"))

    return bool(ctx.memo_kept(("movement.overstacked", hex_, tuple(units)), compute))


def _may_end(ctx: Any, hex_: str, units: list[str]) -> bool:
    """Whether ``units`` may end a move in ``hex_``: the ``end_move_overstacked`` line of
    stacking.rules (6.2B: never voluntarily overstacked) on the stacking plugin's verdict."""
    return memo_allowed(ctx, "end_move_overstacked", {"hex_overstacked": _overstacked(ctx, hex_, units),
                                                       "overrun": False})


@implements("9.0A", "6.2B")
def destinations(ctx: Any, m: Any) -> dict[str, dict[str, Any]]:
    """The hexes stack ``m`` may end a move in now: its :func:`reach` (terrain, ZOC, MPs) less
    those where it would end overstacked (6.2B); label -> ``{"mp", "path", …}`` (read-only)."""
    units = list(m.units)
    return {dest: r for dest, r in reach(ctx, m).items() if _may_end(ctx, dest, units)}


def _moves(ctx: Any, side: str, hex_: str, m: Any, units: list[str] | None = None) -> list[Action]:
    """A ``move`` per destination; ``units`` names the movers when the hex also holds the stack
    being moved, so the action cannot be read as that stack's continuation (9.1D). Only those
    every validator accepts (:func:`_validated`: a unit in hedgehog formation cannot move, 14.4C)."""
    return _validated(ctx, [Action.make("move", side, stack=hex_, path=r["path"], units=units)
                            for r in destinations(ctx, m).values()], list(m.units))


def _validated(ctx: Any, actions: list[Action], movers: list[str] | None = None) -> list[Action]:
    """``actions`` (the moves of one stack) less those a validator refuses, asked with their
    ``movers`` named (the units the move takes, not every unit in the hex) — the other areas'
    refusals of the movers (14.4C: a unit in hedgehog formation cannot move; 14.4A-B: one that
    removed its marker only force marches; 14.1D: a builder stays), as ``why`` judges a typed
    move. Those refusals concern the movers, not the path (this area's :func:`reach` walked it):
    the first action is asked, and each of the others only when it is refused."""
    def refused(a: Action) -> bool:
        return any(ctx.hook.casebook_validate_action(ctx=ctx, action=_asked(a, movers)))

    if not actions or not refused(actions[0]):
        return actions
    return [a for a in actions[1:] if not refused(a)]


def _asked(a: Action, movers: list[str] | None) -> Action:
    """``a`` with its ``movers`` named (the units the move takes, not every unit in the hex)."""
    return a if movers is None or a.get("units") else Action.make(a.kind, a.side, **dict(a.args), units=movers)


def mover_refusals(ctx: Any, m: Any, path: list[str]) -> list[Any]:
    """What the other areas refuse the movers of stack ``m`` moving along ``path`` (14.4C: a unit
    in hedgehog formation cannot move; 14.4A-B; 14.1D: a builder stays): every validator's
    refusals of the ``move`` play would take, less this area's own :func:`check` (the path, the
    step, the MPs: ``ask reach`` / ``move`` answer those themselves, in any step). The same
    question :func:`_validated` asks of the moves play lists."""
    a = _asked(Action.make("move", m.side, stack=m.start, path=list(path)), list(m.units))
    own = check(ctx, a)
    return [r for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=a) for r in (rs or ()) if r not in own]


@implements("9.5A", "15.3C")
def _overruns(ctx: Any, side: str, hex_: str) -> list[Action]:
    """The overruns offered to the stack in ``hex_``: those no validator refuses — this area's
    :func:`check` first (cheap), then every area's (a scattered paratroop cannot be attacked,
    15.3C …), as ``ask attack --overrun`` judges them."""
    out = []
    for t in neighbours(ctx, hex_):
        if t in enemy_hexes(ctx, side):
            a = Action.make("overrun", side, stack=hex_, hex=t)
            if not check(ctx, a) and not any(ctx.hook.casebook_validate_action(ctx=ctx, action=a)):
                out.append(a)
    return out


@implements("0.7.3.2A", "0.7.3.2B", "0.7.3.4A", "0.7.3.7", "9.8A")
def legal_actions(ctx: Any, step: str) -> list[Action]:
    """The actions of the deciding side in a movement step, deterministic: for the stack being
    moved, its continuations, overruns and force march (right after its move, 0.7.3.2B); for each
    stack that may start moving, a ``move`` per destination, overruns, Soviet rail moves; in
    Reaction Movement, ``react`` per stack (2.4A); ``pass`` last. Unactivated Movement costs no
    IPs (9.8A) and offers no reaction to the opponent (9.8C)."""
    if step not in STEPS:
        return []
    side = decider(ctx, step)
    if side is None:
        return []
    d = data(ctx)
    out: list[Action] = []
    cur = d.get("current")
    if cur and cur["units"]:
        h = cur["hex"]
        if not cur["stopped"] and not cur["spent_all"] and cur["mode"] != "unactivated":
            out += _moves(ctx, side, h, current_mover(ctx, cur))
        if step == "movement" and not cur["spent_all"]:
            out += _overruns(ctx, side, h)
        fm = Action.make("force-march", side, stack=h)
        if step == "movement" and not check(ctx, fm):
            out.append(fm)
    for h, units in eligible_stacks(ctx, step, side, d).items():
        m, _ = mover(ctx, units, h, MODE[step])
        named = sorted(units) if cur and cur["units"] and cur["hex"] == h else None
        out += [a for a in _moves(ctx, side, h, m, named) if not _rail_hq_blocks(d, step, ctx, units)]
        if _overstacked(ctx, h, []):  # 6.2F: an overstack is corrected by moving units out one by one
            for u in units:
                if ctx.state.unit(u).get("class") == "hq":
                    continue
                mu, _ = mover(ctx, [u], h, MODE[step])
                out += [a for a in _moves(ctx, side, h, mu, [u])
                        if not _rail_hq_blocks(d, step, ctx, [u]) and a not in out]
        if step == "movement":
            out += _overruns(ctx, side, h)
        if memo_allowed(ctx, "rail_move", {"side": side, "movement_step": step}):  # 9.9A, 9.9F, 9.9H
            out += rail_moves(ctx, side, h, units, d)
    # 2.4A, 9.4C: with fewer IPs than one unit's activation no stack can react (the check would
    # refuse each for the IPs after asking its supply and command)
    if step == "reaction_movement" and ctx.state.track("ip", side) >= react_cost(ctx, side, [None]):
        seen = set(d["react"])
        stacks: dict[str, list[str]] = {}
        for u in ctx.state.units:
            if u.get("side") == side and u.get("hex") and not u.get("activated") and u["id"] not in seen:
                stacks.setdefault(u["hex"], []).append(u["id"])
        for h in sorted(stacks):
            a = Action.make("react", side, stack=h)
            if not check(ctx, a) and _validated(ctx, [a]):
                out.append(a)
    out.append(Action.make("pass", side))
    return out


@implements("9.9A", "9.9B", "9.9C", "9.9E", "9.9I", "6.2B")
def rail_moves(ctx: Any, side: str, hex_: str, units: list[str], d: dict[str, Any]) -> list[Action]:
    """The ``rail-move`` actions of the stack ``units`` in ``hex_`` (the shared
    :func:`casebook.areas.rail.rail_moves`): to each railhead its rail path reaches (9.9I), the
    whole stack or as many combat units as the rail capacity left this phase (9.9A-D; HQs do not
    count, 9.9E) and the railhead's stacking (6.2B: never ending overstacked) allow."""
    return _validated(ctx, rail.rail_moves(ctx, side, hex_, units, rail.capacity_left(ctx, d["rail_units"]),
                                           lambda dst, us: _may_end(ctx, dst, us)))


def _rail_hq_blocks(d: dict[str, Any], step: str, ctx: Any, units: list[str]) -> bool:
    """9.9G: after an HQ moved by rail, the units it activated may only rail-move (the
    ``move_on_foot`` lines of movement.rules)."""
    return step == "movement" and any(not memo_allowed(ctx, "move_on_foot", foot_facts(ctx, d, u)) for u in units)
