"""Battle for Moscow rules plugin ``bfm_movement``: the panzer movement, rail movement and
movement phases (BM4.1B, BM4.1D, BM4.2B, BM4.2D; BM5.1-BM5.5), and stacking at the end of each phase (BM7.1).

Numbers and verdicts come from ``games/battle_for_moscow/rules/movement.rules`` (``move_cost``, ``ma``,
``max_hexes``, ``stacking_limit``, permissions ``move`` and ``rail_move``); enemy ZOCs are asked of
``casebook_zoc`` (the shared ``zoc`` plugin, BM6.1-BM6.3). Actions: ``move stack=HEX path=HEX,…`` (one
unit: Battle for Moscow stacks one unit a hex) and ``rail-move stack=HEX to=HEX``; ``pass`` ends
the phase. Answers ``casebook ask … reach UNIT``.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.core.actions import Action
from casebook.core.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal, hookimpl

__all__ = ["STATE_SCHEMA", "REQUIRES", "QUESTIONS", "reach", "rail_reach", "in_ezoc", "overstack_check"]
#: What the pack must hold for this plugin (src/casebook/core/requires.py).
REQUIRES = {"quantities": ["ma", "max_hexes", "move_cost", "stacking_limit"]}

QUESTIONS = {"reach": "reach UNIT [--as movement|panzer_movement|rail_movement] — the hexes UNIT "
                      "can end its move in, with the path and MP (BM5.1-BM5.5, BM6.2)"}
PLUGIN = "bfm_movement"
STEPS = ("panzer_movement", "rail_movement", "movement")


def _weather(ctx: Any) -> dict[str, str]:
    w = ctx.state.weather or {}
    return {"temperature": w.get("temperature", "warm"), "ground": w.get("ground", "dry")}


def in_ezoc(ctx: Any, hex_: str, side: str) -> bool:
    """An enemy ZOC covers ``hex_`` for ``side`` (BM6.1; asked of ``casebook_zoc``)."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    if answer is not None:
        return bool(answer.get("exerted_by"))
    return any(u.get("side") != side for n in ctx.board.neighbours(parse_hex(hex_))
               for u in ctx.state.units_at(hex_label(n)))


def _enemy(ctx: Any, hex_: str, side: str) -> bool:
    return any(u.get("side") != side for u in ctx.state.units_at(hex_))


def _record(ctx: Any) -> dict[str, Any]:
    rec = ctx.state.plugin_data(PLUGIN) or {}
    key = f"{ctx.state.turn}:{ctx.state.phase}:{ctx.state.step}"
    if rec.get("key") != key:
        rec = {"key": key, "moved": []}
    return rec


def _facts(ctx: Any, unit: Mapping[str, Any], step: str, by_rail: bool = False) -> dict[str, Any]:
    return {**_weather(ctx), "side": unit["side"], "unit_class": unit.get("class", "infantry"),
            "printed_ma": int(unit.get("ma") or 0), "movement_step": step, "by_rail": by_rail}


@implements("BM5.1A", "BM5.1B", "BM5.1C", "BM5.2", "BM5.5A", "BM6.2", "BM6.3", "BM7.1")
def reach(ctx: Any, uid: str, step: str = "movement") -> dict[str, dict[str, Any]]:
    """Every hex unit ``uid`` may end a move in: ``{hex: {"path": [...], "mp": n}}``.

    MPs up to ``ma`` (BM5.1A), each hex costing ``move_cost`` (forest 2, else 1: BM5.1B-C), at most
    ``max_hexes`` hexes (mud: one, BM5.5A); never into an enemy-occupied hex (BM5.2); entering an
    enemy ZOC ends the move (BM6.2), leaving one is free (BM6.3); friendly units may be passed
    through but not stopped on (BM7.1)."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    facts = _facts(ctx, unit, step)
    ma, max_hexes = int(ctx.value("ma", facts)), int(ctx.value("max_hexes", facts))
    best: dict[str, tuple[int, int]] = {start: (0, 0)}
    prev: dict[str, str] = {}
    queue = [(0, 0, start)]
    while queue:
        spent, hexes, here = heapq.heappop(queue)
        if best.get(here) != (spent, hexes) or hexes >= max_hexes:
            continue
        if here != start and in_ezoc(ctx, here, side):
            continue  # BM6.2: a unit entering an enemy ZOC stops
        for n in ctx.board.neighbours(parse_hex(here)):
            label = hex_label(n)
            if _enemy(ctx, label, side):
                continue
            cost = int(ctx.value("move_cost", {**facts, "hex_terrain": ctx.board.hex(n).terrain}))
            key = (spent + cost, hexes + 1)
            if key[0] > ma or key >= best.get(label, (10**9, 0)):
                continue
            best[label], prev[label] = key, here
            heapq.heappush(queue, (key[0], key[1], label))
    out: dict[str, dict[str, Any]] = {}
    for label, (spent, _) in sorted(best.items()):
        if label == start or ctx.state.units_at(label):
            continue
        path, h = [label], label
        while prev[h] != start:
            h = prev[h]
            path.append(h)
        out[label] = {"path": path[::-1], "mp": spent}
    return out


def _on_rail(ctx: Any, hex_: str) -> bool:
    h = parse_hex(hex_)
    return any(ctx.board.side(h, n).rail for n in ctx.board.neighbours(h))


@implements("BM5.4A", "BM5.4B", "BM5.5B")
def rail_reach(ctx: Any, uid: str) -> dict[str, dict[str, Any]]:
    """Hexes a Soviet unit starting on a rail line may reach along it (BM5.4A): any distance over
    rail hexsides, never into an enemy-occupied hex or an enemy ZOC (BM5.4B), ending in an empty
    hex (BM7.1); mud does not limit it (BM5.5B). Empty if the unit is not on a rail line."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    if not _on_rail(ctx, start):
        return {}
    paths: dict[str, list[str]] = {start: []}
    frontier = [start]
    while frontier:
        nxt = []
        for here in frontier:
            h = parse_hex(here)
            for n in ctx.board.neighbours(h):
                label = hex_label(n)
                if label in paths or not ctx.board.side(h, n).rail:
                    continue
                if _enemy(ctx, label, side) or in_ezoc(ctx, label, side):
                    continue
                paths[label] = paths[here] + [label]
                nxt.append(label)
        frontier = nxt
    return {h: {"path": p} for h, p in sorted(paths.items()) if h != start and not ctx.state.units_at(h)}


def _movers(ctx: Any, step: str) -> list[Mapping[str, Any]]:
    side, moved = ctx.state.phasing, set(_record(ctx)["moved"])
    out = []
    for u in ctx.state.units:
        if u.get("side") != side or not u.get("hex") or u["id"] in moved:
            continue
        if step == "rail_movement":
            if ctx.permission("rail_move", _facts(ctx, u, step, True)).value:
                out.append(u)
        elif ctx.permission("move", _facts(ctx, u, step)).value:
            out.append(u)
    return out


def legal_moves(ctx: Any, step: str) -> list[Action]:
    """Every move of a unit that has not moved in this phase, then ``pass``."""
    side = ctx.state.phasing
    out = []
    for u in _movers(ctx, step):
        if step == "rail_movement":
            for h in rail_reach(ctx, u["id"]):
                out.append(Action.make("rail-move", side, stack=u["hex"], to=h))
        else:
            for r in reach(ctx, u["id"], step).values():
                out.append(Action.make("move", side, stack=u["hex"], path=r["path"]))
    return out + [Action.make("pass", side)]


@implements("BM7.1")
def overstack_check(ctx: Any) -> list[str]:
    """BM7.1 at the end of a phase: in a hex holding more units of a side than ``stacking_limit``,
    the units beyond the limit (weakest first) are eliminated (interpretation
    overstack-at-phase-end). Returns the ids eliminated."""
    gone = []
    by_hex: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for u in ctx.state.units:
        if u.get("hex"):
            by_hex.setdefault((u["hex"], u["side"]), []).append(u)
    for (hex_, side), units in sorted(by_hex.items()):
        limit = int(ctx.value("stacking_limit", {"side": side}))
        if len(units) <= limit:
            continue
        ranked = sorted(units, key=lambda u: (-int(u.get("strength") or 0), u["id"]))
        for u in ranked[limit:]:
            ctx.state.update_unit(u["id"], hex=None)
            gone.append(u["id"])
            ctx.record("eliminated", ["BM7.1"], {"unit": u["id"], "hex": hex_, "reason": "overstacked"},
                       source="bfm_movement.overstack_check", side=side)
    return gone


# ------------------------------------------------------------------------------------- hooks
@hookimpl
def casebook_decider(ctx: Any, phase: str, step: str) -> str | None:
    return ctx.state.phasing if step in STEPS else None


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Any]:
    return legal_moves(ctx, step) if step in STEPS else []


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Any]:
    if action.kind not in ("move", "rail-move") or ctx.state.step not in STEPS:
        return []
    stack = str(action.get("stack"))
    units = [u for u in ctx.state.units_at(stack) if u.get("side") == action.side]
    if not units:
        return [Refusal(f"no {action.side} unit in {stack}", ("BM5.2",), PLUGIN)]
    uid = units[0]["id"]
    if uid in _record(ctx)["moved"]:
        return [Refusal(f"{uid} already moved in this phase", ("BM5.2",), PLUGIN)]
    step = ctx.state.step
    verdict = ctx.permission("rail_move" if action.kind == "rail-move" else "move",
                             _facts(ctx, units[0], step, action.kind == "rail-move"))
    if not verdict.value:
        return [Refusal(f"{uid} may not move in the {step} phase", tuple(verdict.cases), PLUGIN)]
    if action.kind == "rail-move":
        if step != "rail_movement" or str(action.get("to")) not in rail_reach(ctx, uid):
            return [Refusal(f"{uid} cannot reach {action.get('to')} by rail", ("BM5.4A", "BM5.4B"), PLUGIN)]
        return []
    path = action.get("path") or ()
    path = [path] if isinstance(path, str) else list(path)
    r = reach(ctx, uid, step).get(path[-1] if path else "")
    if r is None:
        return [Refusal(f"{uid} cannot end a move in {path[-1] if path else '?'}: MPs, mud, enemy units, "
                        "enemy ZOC or another unit", ("BM5.1A", "BM5.2", "BM5.5A", "BM6.2", "BM7.1"), PLUGIN)]
    return []


@implements("BM5.1A", "BM5.4A")
@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    if action.kind not in ("move", "rail-move") or ctx.state.step not in STEPS:
        return None
    stack = str(action.get("stack"))
    uid = next(u["id"] for u in ctx.state.units_at(stack) if u.get("side") == action.side)
    if action.kind == "rail-move":
        to, path, cases = str(action.get("to")), rail_reach(ctx, uid)[str(action.get("to"))]["path"], ["BM5.4A"]
    else:
        path = action.get("path")
        path = [path] if isinstance(path, str) else list(path)
        to, cases = path[-1], ["BM5.1A"]
        cases += ["BM6.2"] if in_ezoc(ctx, to, action.side) else []
    ctx.state.move_unit(uid, to)
    rec = _record(ctx)
    rec["moved"] = sorted(set(rec["moved"]) | {uid})
    ctx.state.set_plugin_data(PLUGIN, rec)
    ctx.changed()
    ctx.record("move", cases, {"unit": uid, "from": stack, "path": path}, source=f"{PLUGIN}.apply",
               side=action.side)
    return {"unit": uid, "from": stack, "to": to, "path": path}


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """BM7.1 is judged at the end of every phase (the steps of the sequence of play)."""
    if overstack_check(ctx):
        ctx.changed()


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question != "reach":
        return None
    if len(args) != 1 or not ctx.state.has_unit(args[0]) or not ctx.state.unit(args[0]).get("hex"):
        raise QuestionError("usage: " + QUESTIONS["reach"] + " (UNIT must be on the map)")
    step = options.get("as") or (ctx.state.step if ctx.state.step in STEPS else "movement")
    if step not in STEPS:
        raise QuestionError(f"--as must be one of {', '.join(STEPS)}, got {step!r}")
    unit = ctx.state.unit(args[0])
    hexes = rail_reach(ctx, args[0]) if step == "rail_movement" else reach(ctx, args[0], step)
    facts = _facts(ctx, unit, step, step == "rail_movement")
    ma, mx = ctx.quantity("ma", facts), ctx.quantity("max_hexes", facts)
    allowed = ctx.permission("rail_move" if step == "rail_movement" else "move", facts)
    return {"unit": args[0], "step": step, "allowed": bool(allowed.value), "ma": ma.value,
            "max_hexes": mx.value, "hexes": hexes if allowed.value else {},
            "cases": sorted(set(ma.cases) | set(mx.cases) | set(allowed.cases)
                            | {"BM5.2", "BM6.2", "BM7.1"} | ({"BM5.4A", "BM5.4B"} if step == "rail_movement" else set()))}


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/core/savecheck.py)
    """``plugin_state.bfm_movement``: the units ``moved`` in the step ``key``
    ("turn:phase:step", BM5.1)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    key: str
    moved: list[str]
