"""Shared rules area ``area_movement``: unit-by-unit movement over MP costs, configured by the
game's rule scripts (e.g. Battle for Moscow BM5-BM7, the third game's own cases).

The area acts in the sequence's movement steps: a step whose id is ``movement`` or ends in
``_movement``; the step ``rail_movement`` moves along rail hexsides instead. In a movement step
each unit of the phasing side may move once (actions ``move stack=HEX path=HEX,…``, one unit a
stack; ``rail-move stack=HEX to=HEX``; ``pass`` ends the step). It holds no case id: every
number, verdict and citation comes from the game's lines (``games/<game>/rules/*.rules``):

- quantities ``ma`` (the MA; its cases are cited by every move), ``move_cost`` (MP to enter a
  hex, fact ``hex_terrain``), ``max_hexes`` (hexes a move may enter), ``stacking_limit`` (units
  of a side a hex may hold at the end of a step; the excess is eliminated, weakest first);
- permissions ``move`` and ``rail_move`` (who may move in the step: facts ``side``,
  ``unit_class``, ``printed_ma``, ``movement_step``, ``by_rail``, the weather), ``enter_enemy_hex``
  and ``move_again`` (forbid them to keep units out of enemy hexes and to one move a step),
  ``leave_ezoc`` (cited: a unit leaves an enemy ZOC freely), ``move_on_in_ezoc`` for
  ``zoc_kind: locking`` (the shared ``zoc`` area's: entering an enemy ZOC ends a move where it
  forbids), ``rail_into_ezoc`` (forbid: rail movement never enters an enemy ZOC) and
  ``rail_move_in_mud`` (cited by rail answers).

Public API (other areas call it directly): :func:`reach`, :func:`rail_reach`, :func:`in_ezoc`,
:func:`overstack_check`. Answers ``casebook ask … reach UNIT``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.content.tablelines import reads_apart
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal, hookimpl
from casebook.script.factlines import borrow

from ._movement_walk import path_refusal
from ._zoc_cites import effect_cases, line_cases
from .search import breadth_first, cheapest_paths, path_to

__all__ = ["STATE_SCHEMA", "REQUIRES", "STEPS", "ACTIONS", "QUESTIONS", "is_movement_step", "reach", "rail_reach", "in_ezoc",
           "overstack_check", "legal_moves", "stack_for", "slowest_ma", "path_hexes"]
#: What the pack must hold for this area (src/casebook/content/requires.py).
REQUIRES = {"quantities": ["ma", "max_hexes", "move_cost", "stacking_limit"]}

QUESTIONS = {"reach": "reach UNIT [--as STEP] — the hexes UNIT can end its move in, with the path and MP "
                      "(STEP: one of the game's movement steps)"}
PLUGIN = "area_movement"
RAIL_STEP = "rail_movement"


def is_movement_step(step: str | None) -> bool:
    """Whether the area moves units in sequence step ``step`` (``movement``, ``*_movement``)."""
    return bool(step) and (step == "movement" or str(step).endswith("_movement"))


#: The sequence steps this area moves units in: ``movement`` and every ``*_movement`` (a
#: predicate; content/requires.py checks each step of the sequence has an actor).
STEPS = is_movement_step
#: The action kinds this area offers only in its STEPS (a `why` of one elsewhere names them).
ACTIONS = ("move",)


def _steps(ctx: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s.id for p in ctx.engine.sequence.phases for s in p.steps if is_movement_step(s.id)))


def _weather(ctx: Any) -> dict[str, str]:
    w = ctx.state.weather or {}
    return {"temperature": w.get("temperature", "warm"), "ground": w.get("ground", "dry")}


def in_ezoc(ctx: Any, hex_: str, side: str) -> bool:
    """An enemy ZOC covers ``hex_`` for ``side`` (asked of ``casebook_zoc``, the shared ``zoc``
    area; without it, any enemy unit adjacent)."""
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


def _neighbours(ctx: Any) -> Any:
    return lambda here: [hex_label(n) for n in ctx.board.neighbours(parse_hex(here))]


def _room(ctx: Any, hex_: str, side: str, mover: str | None = None) -> bool:
    """A move may end in ``hex_``: fewer friendly units there than ``stacking_limit``."""
    here = [u for u in ctx.state.units_at(hex_) if u["id"] != mover]
    return len(here) < int(ctx.value("stacking_limit", {"side": side}))


def reach(ctx: Any, uid: str, step: str = "movement") -> dict[str, dict[str, Any]]:
    """Every hex unit ``uid`` may end a move in during ``step``: ``{hex: {"path": [hexes entered],
    "mp": MP spent}}``, hex labels sorted.

    MPs up to quantity ``ma``, each hex costing ``move_cost``, at most ``max_hexes`` hexes;
    never into an enemy-occupied hex where ``enter_enemy_hex`` is forbidden; entering an enemy
    ZOC ends the move (``move_on_in_ezoc``), leaving one is free; friendly units may be passed
    through, a move ends only where ``stacking_limit`` leaves room. The cases are the game's
    (the lines of those quantities and permissions)."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    facts = _facts(ctx, unit, step)
    ma, max_hexes = int(ctx.value("ma", facts)), int(ctx.value("max_hexes", facts))
    no_enemy = not ctx.allowed("enter_enemy_hex", facts)
    stop = not ctx.allowed("move_on_in_ezoc", {"zoc_kind": "locking"})

    def cost(here: str, there: str) -> int | None:
        if no_enemy and _enemy(ctx, there, side):
            return None
        return int(ctx.value("move_cost", {**facts, "hex_terrain": ctx.board.hex(parse_hex(there)).terrain}))

    found = cheapest_paths(start, _neighbours(ctx), cost, budget=ma, max_hexes=max_hexes,
                           stops=lambda h: stop and in_ezoc(ctx, h, side))
    return {h: {"path": path_to(found, h), "mp": found[h][0]} for h in sorted(found)
            if h != start and not _enemy(ctx, h, side) and _room(ctx, h, side)}


def _on_rail(ctx: Any, hex_: str) -> bool:
    h = parse_hex(hex_)
    return any(ctx.board.side(h, n).rail for n in ctx.board.neighbours(h))


def rail_reach(ctx: Any, uid: str) -> dict[str, dict[str, Any]]:
    """Hexes a unit starting on a rail line may reach along rail hexsides, any distance:
    ``{hex: {"path": [hexes entered]}}``, never into an enemy-occupied hex, nor an enemy ZOC
    where ``rail_into_ezoc`` is forbidden, ending where ``stacking_limit`` leaves room. Empty if
    the unit is not on a rail line."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    if not _on_rail(ctx, start):
        return {}
    no_ezoc = not ctx.allowed("rail_into_ezoc", _facts(ctx, unit, RAIL_STEP, True))

    def enter(here: str, there: str) -> bool:
        if not ctx.board.side(parse_hex(here), parse_hex(there)).rail or _enemy(ctx, there, side):
            return False
        return not (no_ezoc and in_ezoc(ctx, there, side))

    paths = breadth_first(start, _neighbours(ctx), enter)
    return {h: {"path": p[1:]} for h, p in sorted(paths.items())
            if h != start and _room(ctx, h, side)}


def _movers(ctx: Any, step: str) -> list[Mapping[str, Any]]:
    side, rec = ctx.state.phasing, _record(ctx)
    moved = set(rec["moved"]) if not _again(ctx) else set()
    perm, rail = ("rail_move", True) if step == RAIL_STEP else ("move", False)
    return [u for u in ctx.state.units if u.get("side") == side and u.get("hex") and u["id"] not in moved
            and ctx.permission(perm, _facts(ctx, u, step, rail)).value]


def _again(ctx: Any) -> bool:
    return "move_again" in ctx.rules.permissions and ctx.allowed("move_again", {})


def legal_moves(ctx: Any, step: str) -> list[Action]:
    """Every move of a unit that has not moved in this step, then ``pass``."""
    side = ctx.state.phasing
    out = []
    for u in _movers(ctx, step):
        if step == RAIL_STEP:
            out += [Action.make("rail-move", side, stack=u["hex"], to=h) for h in rail_reach(ctx, u["id"])]
        else:
            out += [Action.make("move", side, stack=u["hex"], path=r["path"])
                    for r in reach(ctx, u["id"], step).values()]
    return out + [Action.make("pass", side)]


def overstack_check(ctx: Any) -> list[str]:
    """At the end of a step: in a hex holding more units of a side than ``stacking_limit``, the
    units beyond the limit (weakest first) are eliminated, citing the limit's cases. Returns the
    ids eliminated."""
    gone = []
    by_hex: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for u in ctx.state.units:
        if u.get("hex"):
            by_hex.setdefault((u["hex"], u["side"]), []).append(u)
    for (hex_, side), units in sorted(by_hex.items()):
        limit = ctx.quantity("stacking_limit", {"side": side})
        if len(units) <= int(limit.value):
            continue
        ranked = sorted(units, key=lambda u: (-int(u.get("strength") or 0), u["id"]))
        for u in ranked[int(limit.value):]:
            ctx.state.update_unit(u["id"], hex=None)
            gone.append(u["id"])
            ctx.record("eliminated", list(limit.cases), {"unit": u["id"], "hex": hex_, "reason": "overstacked"},
                       source=f"{PLUGIN}.overstack_check", side=side)
    return gone


def slowest_ma(ctx: Any, units: Sequence[Mapping[str, Any]],
               facts_of: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> tuple[int, str, Any, list[dict[str, Any]]]:
    """``(ma, unit id, explanation, terms)`` of the slowest of ``units`` (records, at least one):
    the least quantity ``ma`` for ``facts_of(unit)`` (the first unit on ties), its explanation
    (kept across changes by the facts, read-only) and the lines that fired as ``{"text",
    "amount", "cases", "source"}``. A fact ``facts_of`` gives with its lines (a
    :class:`~casebook.script.factlines.FactLines`) lends them to the deciding line that read it."""
    best: tuple[int, str, Any, Mapping[str, Any]] | None = None
    for u in units:
        with reads_apart():  # a fact's own search (its supply: ``ask supply`` cites its cells) cites no cell here
            facts = facts_of(u)
        q = ctx.kept(("movement.ma",), tuple(facts.items()), lambda: ctx.quantity("ma", dict(facts)))  # noqa: B023
        if best is None or q.value < best[0]:
            best = (int(q.value), str(u.get("id") or u.get("counter")), q, facts)
    if best is None:
        raise ValueError("slowest_ma needs at least one unit")
    ma, uid, q, facts = best
    borrow(ctx, q, facts)  # the slowest unit's facts' lines its deciding lines read (its supply, 5.7B), "via" them
    return ma, uid, q, [{"text": ln.text.split("  by")[0].strip(), "amount": str(ln.amount),
                         "cases": list(ln.cases), "source": ln.source} for ln in q.lines if ln.fired]


def stack_for(ctx: Any, stack: str) -> tuple[str, list[str]]:
    """``(hex, unit ids)`` for a question's STACK: a unit id (that unit alone) or a hex label (all
    units there, of one side). QuestionError if unknown, off the map, empty or of both sides."""
    if ctx.state.has_unit(stack):
        u = ctx.state.unit(stack)
        if not u.get("hex"):
            raise QuestionError(f"unit {stack!r} is not on the map")
        return u["hex"], [stack]
    try:
        h = parse_hex(stack)
    except ValueError:
        raise QuestionError(f"STACK must be a unit id or a hex label, got {stack!r}") from None
    if not ctx.board.contains(h):
        raise QuestionError(f"hex {stack} is off the map ({ctx.board.grid.describe()})")
    units = [u.get("id") or u.get("counter") for u in ctx.state.units_at(stack)]
    if not units:
        raise QuestionError(f"no units in hex {stack}")
    if len({ctx.state.unit(u).get("side") for u in units}) > 1:
        raise QuestionError(f"hex {stack} holds units of both sides")
    return stack, units



def path_hexes(ctx: Any, start: str, path: Sequence[str]) -> list[str]:
    """The hexes a question's path enters: every label on the map (QuestionError naming the
    first that is not), without a leading ``start`` (a path may be given from the stack's own
    hex); QuestionError when no hex is left to enter."""
    for h in path:
        try:
            if not ctx.board.contains(parse_hex(h)):
                raise QuestionError(f"hex {h} is off the map ({ctx.board.grid.describe()})")
        except ValueError as exc:
            raise QuestionError(str(exc)) from None
    out = list(path)
    if out and out[0] == start:
        out = out[1:]
    if not out:
        raise QuestionError("usage: move STACK HEX HEX … (the hexes to enter, after the stack's own)")
    return out


def _reach_cases(ctx: Any, facts: Mapping[str, Any]) -> list[str]:
    """What a refused or answered move cites: the MA, hex limit, enemy hexes, enemy ZOC, stacking."""
    return list(dict.fromkeys([*ctx.quantity("ma", facts).cases, *line_cases(ctx, ("enter_enemy_hex",)),
                               *ctx.quantity("max_hexes", facts).cases, *effect_cases(ctx, "locking"),
                               *line_cases(ctx, ("leave_ezoc",)),
                               *ctx.quantity("stacking_limit", {"side": facts["side"]}).cases]))


# ------------------------------------------------------------------------------------- hooks
@hookimpl
def casebook_decider(ctx: Any, phase: str, step: str) -> str | None:
    return ctx.state.phasing if is_movement_step(step) else None


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Any]:
    return legal_moves(ctx, step) if is_movement_step(step) else []


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Any]:
    step = ctx.state.step
    if action.kind not in ("move", "rail-move") or not is_movement_step(step):
        return []
    if action.get("stack") is None:  # ``why move`` with no arguments: say what the action takes
        return [Refusal(f"a {action.kind} names the hex of the stack that moves: {action.kind} stack=HEX "
                        + ("to=HEX" if action.kind == "rail-move" else "path=HEX,HEX,…"), (), PLUGIN)]
    stack = str(action.get("stack"))
    once = tuple(line_cases(ctx, ("move_again",)))
    units = [u for u in ctx.state.units_at(stack) if u.get("side") == action.side]
    if not units:
        return [Refusal(f"no {action.side} unit in {stack}", once, PLUGIN)]
    uid = units[0]["id"]
    if uid in _record(ctx)["moved"] and not _again(ctx):
        return [Refusal(f"{uid} already moved in this phase", once, PLUGIN)]
    rail = action.kind == "rail-move"
    facts = _facts(ctx, units[0], step, rail)
    verdict = ctx.permission("rail_move" if rail else "move", facts)
    if not verdict.value:
        return [Refusal(f"{uid} may not move in the {step} phase", tuple(verdict.cases), PLUGIN)]
    if rail:
        if step != RAIL_STEP or str(action.get("to")) not in rail_reach(ctx, uid):
            return [Refusal(f"{uid} cannot reach {action.get('to')} by rail",
                            tuple(line_cases(ctx, ("rail_move", "rail_into_ezoc"))), PLUGIN)]
        return []
    path = action.get("path") or ()
    path = [path] if isinstance(path, str) else list(path)
    side = action.side
    why = path_refusal(ctx, units[0], path, facts, lambda h: _enemy(ctx, h, side),
                       lambda h: _room(ctx, h, side))  # which hex and number refuse it (_movement_walk.py)
    if why is not None:
        return [Refusal(f"{uid} cannot move along {','.join(path)}: {why[0]}", why[1], PLUGIN)]
    if reach(ctx, uid, step).get(path[-1] if path else "") is None:
        return [Refusal(f"{uid} cannot end a move in {path[-1] if path else '?'}: MPs, hex limit, enemy units, "
                        "enemy ZOC or stacking", tuple(_reach_cases(ctx, facts)), PLUGIN)]
    return []


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    if action.kind not in ("move", "rail-move") or not is_movement_step(ctx.state.step):
        return None
    stack = str(action.get("stack"))
    unit = next(u for u in ctx.state.units_at(stack) if u.get("side") == action.side)
    uid = unit["id"]
    if action.kind == "rail-move":
        to = str(action.get("to"))
        path, cases = rail_reach(ctx, uid)[to]["path"], list(line_cases(ctx, ("rail_move",), "forbid"))
    else:
        path = action.get("path")
        path = [path] if isinstance(path, str) else list(path)
        to = path[-1]
        cases = list(ctx.quantity("ma", _facts(ctx, unit, ctx.state.step)).cases)
        cases += list(effect_cases(ctx, "locking")) if in_ezoc(ctx, to, action.side) else []
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
    """Stacking is judged at the end of every step of the sequence of play."""
    if overstack_check(ctx):
        ctx.changed()


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question != "reach":
        return None
    if len(args) != 1 or not ctx.state.has_unit(args[0]) or not ctx.state.unit(args[0]).get("hex"):
        from casebook.content.schema import did_you_mean

        hint = did_you_mean(args[0], [u["id"] for u in ctx.state.units if u.get("hex")]) if len(args) == 1 else ""
        raise QuestionError("usage: " + QUESTIONS["reach"] + " (UNIT must be on the map)"
                            + (f": no unit {args[0]!r} on the map{hint}" if len(args) == 1 else ""))
    steps = _steps(ctx)
    step = options.get("as") or (ctx.state.step if is_movement_step(ctx.state.step) else steps[-1])
    if step not in steps:
        raise QuestionError(f"--as must be one of {', '.join(steps)}, got {step!r}")
    unit, rail = ctx.state.unit(args[0]), step == RAIL_STEP
    hexes = rail_reach(ctx, args[0]) if rail else reach(ctx, args[0], step)
    facts = _facts(ctx, unit, step, rail)
    ma, mx = ctx.quantity("ma", facts), ctx.quantity("max_hexes", facts)
    allowed = ctx.permission("rail_move" if rail else "move", facts)
    rail_cases = line_cases(ctx, ("rail_move", "rail_into_ezoc", "rail_move_in_mud")) if rail else ()
    return {"unit": args[0], "step": step, "allowed": bool(allowed.value), "ma": ma.value,
            "max_hexes": mx.value, "hexes": hexes if allowed.value else {},
            "cases": sorted(set(_reach_cases(ctx, facts)) | set(allowed.cases) | set(rail_cases))}


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.area_movement``: the units ``moved`` in the step ``key`` ("turn:phase:step")."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    key: str
    moved: list[str]
