"""Moscow '41 movement, part 3: the movement bookkeeping kept in the state (plugin data
``movement``), who may move now, and the stack being moved.

Private helper of :mod:`casebook.games.moscow41.plugins.movement`. The plugin data is plain data::

    {"moved": [unit ids that finished moving this player phase],
     "current": {"units", "hex", "spent", "budget", "mode", "supplied", "spent_all",
                 "stopped", "hexes", "allotment", "rail"} | absent,
     "react": [units activated for reaction movement], "rail_units": n, "rail_hq": bool,
     "railed": [units moved by rail this phase]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.areas import force_march, moving_stack
from casebook.areas.terrain_costs import weather, zoc_treatment
from casebook.content.cases import implements
from casebook.games.moscow41.plugins._movement_costs import is_supplied, move_class, movement_allowance
from casebook.games.moscow41.plugins._movement_paths import Mover, movement_config
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed

__all__ = [
    "PLUGIN", "STEPS", "MODE", "data", "save", "decider", "eligible_stacks", "mover",
    "current_mover", "finish_current", "fatigue_roll", "uid", "replace_units",
]

PLUGIN = "movement"
#: The steps this plugin owns -> the movement mode of their stacks.
MODE = {"movement": "stack", "reaction_movement": "reaction", "unactivated_movement": "unactivated"}
STEPS = frozenset(MODE)
#: the plugin data's own books besides ``moved`` and ``current``: units activated for reaction
#: (0.7.3.4), units railed this phase and the rail capacity used (9.9A-E), an HQ railed (9.9G)
_DEFAULTS = {"react": [], "railed": [], "rail_units": 0, "rail_hq": False}


def uid(unit: Mapping[str, Any]) -> str:
    return unit.get("id") or unit.get("counter")


def data(ctx: Any) -> dict[str, Any]:
    """The movement plugin data with defaults filled in (a copy; the shared
    :func:`casebook.areas.moving_stack.book`: units of the moving stack eliminated or displaced
    meanwhile, by an overrun's results, drop out of it; one with none left has ended its move, 9.1D)."""
    return moving_stack.book(ctx, PLUGIN, _DEFAULTS)


def save(ctx: Any, d: dict[str, Any]) -> None:
    moving_stack.save(ctx, PLUGIN, d)


@implements("0.7.3.2A", "0.7.3.4A", "0.7.3.7")
def decider(ctx: Any, step: str) -> str | None:
    """Who moves in ``step``: the script quantity ``movement_side`` (movement.rules: the phasing
    side in Movement and Unactivated Movement, 0.7.3.2A, 0.7.3.7; the non-phasing side in
    Reaction Movement, 0.7.3.4A); None outside the movement steps or with no phasing side."""
    phasing = ctx.state.phasing
    if step not in STEPS or phasing is None:
        return None
    return str(ctx.memo_kept(("movement.decider", step, phasing), lambda: str(ctx.value("movement_side", {
        "movement_step": step, "non_phasing_side": ctx.state.other_side(phasing)}))))


@implements("9.4A", "9.4B", "9.8A", "9.7")
def eligible_stacks(ctx: Any, step: str, side: str, d: Mapping[str, Any], hex_: str | None = None,
                    only: Sequence[str] = ()) -> dict[str, list[str]]:
    """Hex -> ids of ``side``'s units that may start a move now in ``step``, label order: those
    the ``start_move`` lines of movement.rules allow (activated units in Movement, 9.4A; units
    activated for reaction in Reaction Movement, 0.7.3.4A; never-activated units in Unactivated
    Movement, 9.8A; none that already moved this phase, 9.1D), less the stack being moved.
    ``hex_``: that hex alone (its units ``only``, if given), naming the lines that decided for
    them (an action's stack); else the whole side, naming none (an event names the lines of the
    units it is about)."""
    if hex_ is None:
        with ctx.apart():
            return _eligible(ctx, step, side, d, ctx.state.units)
    units = ctx.state.units_at(hex_)
    return _eligible(ctx, step, side, d, [u for u in units if uid(u) in only] if only else units)


def _eligible(ctx: Any, step: str, side: str, d: Mapping[str, Any], units: Any) -> dict[str, list[str]]:
    moved = set(d["moved"])
    busy = set((d.get("current") or {}).get("units", ()))
    react = set(d["react"])
    out: dict[str, list[str]] = {}
    verdicts: dict[tuple[bool, bool, bool], bool] = {}  # the facts -> the verdict, 8 at most
    for u in units:
        i = uid(u)
        if u.get("side") != side or not u.get("hex") or i in busy:
            continue
        key = (bool(u.get("activated")), i in react, i in moved)
        ok = verdicts.get(key)
        if ok is None:
            ok = verdicts[key] = memo_allowed(ctx, "start_move", {
                "movement_step": step, "activated": key[0], "reacting": key[1], "moved_this_phase": key[2]})
        if ok:
            out.setdefault(u["hex"], []).append(i)
    return dict(sorted(out.items()))


def mover(ctx: Any, units: list[str], hex_: str, mode: str) -> tuple[Mover, dict[str, Any]]:
    """A fresh :class:`Mover` for ``units`` in ``hex_`` and its MA answer (9.1A, 9.3, 9.7, 9.8B)."""
    ma = movement_allowance(ctx, units, mode)
    return _stack_mover(ctx, units, hex_, ma["ma"], fresh=True, max_hexes=ma["max_hexes"], at_start=True), ma


def _stack_mover(ctx: Any, units: Sequence[str], hex_: str, budget: int, **flags: Any) -> Mover:
    us = [ctx.state.unit(u) for u in units]
    classes = frozenset(move_class(ctx, u) for u in us)
    return Mover(tuple(units), us[0].get("side", ""), hex_, classes, zoc_treatment(ctx, classes), budget, **flags)


def current_mover(ctx: Any, cur: Mapping[str, Any], units: list[str] | None = None) -> Mover:
    """The :class:`Mover` continuing the stack being moved (budget = MPs left)."""
    return _stack_mover(ctx, list(units or cur["units"]), cur["hex"], cur["budget"] - cur["spent"],
                        fresh=cur["spent"] == 0, max_hexes=1 if cur["mode"] == "unactivated" else None,
                        at_start=cur["hexes"] == 0 and cur["allotment"] == 1)


def start_current(ctx: Any, d: dict[str, Any], units: list[str], hex_: str, mode: str) -> dict[str, Any]:
    """Begin moving a new stack: the previous one's movement is over (9.1D, 0.7.3.2B)."""
    finish_current(ctx, d)
    ma = movement_allowance(ctx, units, mode)
    return moving_stack.begin(d, units, hex_, ma["ma"], mode=mode, supplied={u: is_supplied(ctx, u) for u in units},
                              spent_all=False, stopped=False, hexes=0, allotment=1, rail=False)


@implements("9.1B", "9.1D", "0.7.3.2B")
def finish_current(ctx: Any, d: dict[str, Any]) -> None:
    """End the stack being moved: its unused MPs are lost (9.1B), it cannot move again this
    activation (9.1D); a force march ends with its fatigue roll (9.6C, 0.7.3.2B)."""
    cur, units = moving_stack.end(ctx, d)
    if cur and cur.get("allotment") == 2 and units:
        fatigue_roll(ctx, units, cur.get("supplied") or {})


@implements("13.0C")
def replace_units(ctx: Any, old: str, new: Sequence[str], mp_cost: int = 0) -> None:
    """Units ``new`` take the place of unit ``old`` in this phase's movement bookkeeping (a
    division broken down during its movement, 13.0C): in the stack being moved they go on with
    its MPs left less ``mp_cost`` (none left below zero), and they count as moved, reacting or
    railed where it did. Changes the state only when ``old`` is in the bookkeeping."""
    moving_stack.replace_unit(ctx, PLUGIN, ("moved", "react", "railed"), old, new, mp_cost, flags=("supplied",))


@implements("9.6C", "9.6D", "9.6E", "9.6F", "9.6B")
def fatigue_roll(ctx: Any, units: list[str], supplied: Mapping[str, bool]) -> dict[str, Any]:
    """The force march fatigue roll (9.6C), the shared :func:`casebook.areas.force_march.fatigue_roll`:
    one die plus the ``force_march_drm`` script (Mud −3, Snow −2, Deep Snow −3, Arctic −4 most
    severe, OOS −2 — the supply the move began with, 9.6B); a modified 1 or less (9.6C) applies
    ``force_march_fatigue`` to every force-marching unit of the stack (9.6D): fatigued, a loss if
    already fatigued (11.1D), a Soviet remnant eliminated (9.6E), at once (9.6F). Returns
    ``{"roll", "drm", "modified", "fatigued": bool, "effects", "cases"}``."""
    temperature, ground = weather(ctx)
    facts = {"ground": ground, "temperature": temperature, "supplied": all(supplied.get(u, True) for u in units)}
    return force_march.fatigue_roll(ctx, units, facts, fails_at=1, cites=movement_config(ctx).fatigue,
                                    source="movement.fatigue_roll")
