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

from casebook.areas.terrain_costs import zoc_treatment
from casebook.content.cases import implements
from casebook.core.dice import roll
from casebook.core.trace import Trace
from casebook.games.moscow41.plugins._movement_costs import is_supplied, move_class, movement_allowance
from casebook.games.moscow41.plugins._movement_paths import Mover
from casebook.games.moscow41.plugins._rule_refusals import decided, memo_allowed

__all__ = [
    "PLUGIN", "STEPS", "MODE", "data", "save", "decider", "eligible_stacks", "mover",
    "current_mover", "finish_current", "fatigue_roll", "uid", "replace_units",
]

PLUGIN = "movement"
#: The steps this plugin owns -> the movement mode of their stacks.
MODE = {"movement": "stack", "reaction_movement": "reaction", "unactivated_movement": "unactivated"}
STEPS = frozenset(MODE)
#: A ``fatigue_effect`` value -> the word of the trace's ``effects``.
_EFFECT_WORD = {"fatigue": "fatigued"}


def uid(unit: Mapping[str, Any]) -> str:
    return unit.get("id") or unit.get("counter")


def data(ctx: Any) -> dict[str, Any]:
    """The movement plugin data with defaults filled in (a copy)."""
    d = ctx.state.plugin_data(PLUGIN) or {}
    d.setdefault("moved", [])
    d.setdefault("react", [])
    d.setdefault("railed", [])
    d.setdefault("rail_units", 0)
    d.setdefault("rail_hq", False)
    cur = d.get("current")
    if cur and cur.get("units"):
        # units of the moving stack eliminated or displaced meanwhile (an overrun's results) drop
        # out of it; a stack with none left has ended its move (9.1D)
        here = [u for u in cur["units"] if ctx.state.has_unit(u) and ctx.state.unit(u).get("hex") == cur["hex"]]
        if len(here) != len(cur["units"]):
            cur = dict(cur, units=here)
            d["current"] = cur if here else None
    return d


def save(ctx: Any, d: dict[str, Any]) -> None:
    ctx.state.set_plugin_data(PLUGIN, d)
    ctx.changed()


@implements("0.7.3.2A", "0.7.3.4A", "0.7.3.7")
def decider(ctx: Any, step: str) -> str | None:
    """Who moves in ``step``: the script quantity ``movement_side`` (movement.rules: the phasing
    side in Movement and Unactivated Movement, 0.7.3.2A, 0.7.3.7; the non-phasing side in
    Reaction Movement, 0.7.3.4A); None outside the movement steps or with no phasing side."""
    phasing = ctx.state.phasing
    if step not in STEPS or phasing is None:
        return None
    key = ("movement.decider", step, phasing)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = str(ctx.value("movement_side", {
            "movement_step": step, "non_phasing_side": ctx.state.other_side(phasing)}))
    return found


@implements("9.4A", "9.4B", "9.8A", "9.7")
def eligible_stacks(ctx: Any, step: str, side: str, d: Mapping[str, Any]) -> dict[str, list[str]]:
    """Hex -> ids of ``side``'s units that may start a move now in ``step``, label order: those
    the ``start_move`` lines of movement.rules allow (activated units in Movement, 9.4A; units
    activated for reaction in Reaction Movement, 0.7.3.4A; never-activated units in Unactivated
    Movement, 9.8A; none that already moved this phase, 9.1D), less the stack being moved."""
    moved = set(d["moved"])
    busy = set((d.get("current") or {}).get("units", ()))
    react = set(d["react"])
    out: dict[str, list[str]] = {}
    for u in ctx.state.units:
        i = uid(u)
        if u.get("side") != side or not u.get("hex") or i in busy:
            continue
        if memo_allowed(ctx, "start_move", {"movement_step": step, "activated": bool(u.get("activated")),
                                            "reacting": i in react, "moved_this_phase": i in moved}):
            out.setdefault(u["hex"], []).append(i)
    return dict(sorted(out.items()))


def mover(ctx: Any, units: list[str], hex_: str, mode: str) -> tuple[Mover, dict[str, Any]]:
    """A fresh :class:`Mover` for ``units`` in ``hex_`` and its MA answer (9.1A, 9.3, 9.7, 9.8B)."""
    ma = movement_allowance(ctx, units, mode)
    us = [ctx.state.unit(u) for u in units]
    classes = frozenset(move_class(ctx, u) for u in us)
    side = us[0].get("side", "")
    return Mover(tuple(units), side, hex_, classes, zoc_treatment(ctx, classes), ma["ma"],
                 fresh=True, max_hexes=ma["max_hexes"], at_start=True), ma


def current_mover(ctx: Any, cur: Mapping[str, Any], units: list[str] | None = None) -> Mover:
    """The :class:`Mover` continuing the stack being moved (budget = MPs left)."""
    units = list(units or cur["units"])
    us = [ctx.state.unit(u) for u in units]
    classes = frozenset(move_class(ctx, u) for u in us)
    return Mover(tuple(units), us[0].get("side", ""), cur["hex"], classes, zoc_treatment(ctx, classes),
                 cur["budget"] - cur["spent"], fresh=cur["spent"] == 0,
                 max_hexes=1 if cur["mode"] == "unactivated" else None,
                 at_start=cur["hexes"] == 0 and cur["allotment"] == 1)


def start_current(ctx: Any, d: dict[str, Any], units: list[str], hex_: str, mode: str) -> dict[str, Any]:
    """Begin moving a new stack: the previous one's movement is over (9.1D, 0.7.3.2B)."""
    finish_current(ctx, d)
    ma = movement_allowance(ctx, units, mode)
    d["current"] = {"units": list(units), "hex": hex_, "spent": 0, "budget": ma["ma"], "mode": mode,
                    "supplied": {u: is_supplied(ctx, u) for u in units}, "spent_all": False,
                    "stopped": False, "hexes": 0, "allotment": 1, "rail": False}
    return d["current"]


@implements("9.1B", "9.1D", "0.7.3.2B")
def finish_current(ctx: Any, d: dict[str, Any]) -> None:
    """End the stack being moved: its unused MPs are lost (9.1B), it cannot move again this
    activation (9.1D); a force march ends with its fatigue roll (9.6C, 0.7.3.2B)."""
    cur = d.pop("current", None)
    if not cur:
        return
    units = [u for u in cur["units"] if ctx.state.has_unit(u)]
    if cur.get("allotment") == 2 and units:
        fatigue_roll(ctx, units, cur.get("supplied") or {})
    d["moved"] = sorted(set(d["moved"]) | set(cur["units"]))


@implements("13.0C")
def replace_units(ctx: Any, old: str, new: Sequence[str], mp_cost: int = 0) -> None:
    """Units ``new`` take the place of unit ``old`` in this phase's movement bookkeeping (a
    division broken down during its movement, 13.0C): in the stack being moved they go on with
    its MPs left less ``mp_cost`` (none left below zero), and they count as moved, reacting or
    railed where it did. Changes the state only when ``old`` is in the bookkeeping."""
    raw = ctx.state.plugin_data(PLUGIN)
    if not raw:
        return
    d = dict(raw)
    swap = lambda ids: [n for i in ids for n in ((*new,) if i == old else (i,))]  # noqa: E731
    changed = False
    for key in ("moved", "react", "railed"):
        if old in d.get(key, ()):
            d[key], changed = sorted(swap(d[key])), True
    cur = d.get("current")
    if cur and old in cur.get("units", ()):
        supplied = dict(cur.get("supplied") or {})
        was = supplied.pop(old, True)
        d["current"] = dict(cur, units=swap(cur["units"]), supplied={**supplied, **{n: was for n in new}},
                            spent=min(cur["budget"], cur["spent"] + max(0, mp_cost)))
        changed = True
    if changed:
        save(ctx, d)


@implements("9.6C", "9.6D", "9.6E", "9.6F", "9.6B")
def fatigue_roll(ctx: Any, units: list[str], supplied: Mapping[str, bool]) -> dict[str, Any]:
    """The force march fatigue roll (9.6C): one die plus the ``force_march_drm`` script (Mud −3,
    Snow −2, Deep Snow −3, Arctic −4 most severe, OOS −2 — the supply the move began with,
    9.6B); a modified 1 or less fatigues every force-marching unit of the stack (9.6D), a fatigued
    unit takes a loss instead (11.1D), a Soviet remnant is eliminated (9.6E). Applied at once
    (9.6F). What the failed roll does to each unit is the script quantity ``force_march_fatigue``.
    Returns ``{"roll", "drm", "modified", "fatigued": bool, "cases"}``."""
    temperature, ground = (ctx.state.weather or {}).get("temperature", "warm"), \
        (ctx.state.weather or {}).get("ground", "dry")
    sup = all(supplied.get(u, True) for u in units)
    q = ctx.quantity("force_march_drm", {"ground": ground, "temperature": temperature, "supplied": sup})
    trace = ctx.trace if ctx.trace is not None else Trace()
    die = roll(ctx.state, 1, purpose="force march fatigue", cases=["9.6C"], trace=trace,
               source="movement.fatigue_roll")
    modified = die + int(q.value)
    failed = modified <= 1
    effects = []
    if failed:
        for u in units:
            unit = ctx.state.unit(u)
            effect, cases = decided(ctx, "force_march_fatigue", {
                "fatigued": bool(unit.get("fatigued")), "unit_class": unit.get("class", "infantry")})
            if effect == "eliminated":
                ctx.state.remove_unit(u, "eliminated")
            elif effect == "loss":
                # 11.1D: a combat loss, applied as combat losses are (German steps, Soviet remnant)
                taken = ctx.hook.casebook_combat_loss(ctx=ctx, unit=u, cases=["9.6D", *cases])
                if taken is None:  # no plugin owns losses in this game: count the step here
                    ctx.state.update_unit(u, losses=int(unit.get("losses", 0)) + 1)
            else:
                ctx.state.update_unit(u, fatigued=True)
            effects.append({"unit": u, "effect": _EFFECT_WORD.get(effect, effect), "cases": cases})
        ctx.changed()
    result = {"roll": die, "drm": int(q.value), "modified": modified, "fatigued": failed,
              "effects": effects, "cases": sorted({"9.6C", "9.6F", *q.cases})}
    ctx.record("force-march-fatigue", result["cases"], {"units": units, **result},
               source="movement.fatigue_roll")
    return result
