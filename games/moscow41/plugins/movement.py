"""Moscow '41 rules plugin ``movement`` (9.0–9.9, 2.4, 0.7.3.2, 0.7.3.4, 0.7.3.7): MP costs and
movement allowances for everyone, path legality with ZOCs, reach, and the Movement, Reaction
Movement and Unactivated Movement steps (move, overrun, force march, rail, reaction).

Hooks answered: ``casebook_move_cost``, ``casebook_movement_allowance`` (queries);
``casebook_decider``, ``casebook_legal_actions``, ``casebook_validate_action``,
``casebook_apply_action``, ``casebook_step_start``, ``casebook_step_end`` for steps
``movement``, ``reaction_movement``, ``unactivated_movement``; ``casebook_facts`` (rail moves,
9.9J-K); ``casebook_answer`` for ``reach`` and ``move``. Asks: ``casebook_zoc``,
``casebook_supply``, ``casebook_command``, ``casebook_stacking``, ``casebook_combat``.
The pieces live in ``plugins/_movement_*.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.areas import terrain_costs as terrain
from casebook.areas._movement_reach import case_order
from casebook.areas.movement import path_hexes, stack_for
from casebook.areas.moving_stack import mark_moved, path_templates
from casebook.areas.rail import capacity_left, rail_templates
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hooks import Refusal, hookimpl
from casebook.games.moscow41.plugins import _movement_actions as actions
from casebook.games.moscow41.plugins import _movement_costs as costs
from casebook.games.moscow41.plugins import _movement_questions as questions
from casebook.games.moscow41.plugins._movement_apply import finish_overrun, results_pending
from casebook.games.moscow41.plugins._movement_legal import destinations, legal_actions, mover_refusals
from casebook.games.moscow41.plugins._movement_paths import MovementConfig, Mover, check_path, movement_config, reach
from casebook.games.moscow41.plugins._movement_state import (
    MODE,
    STEPS,
    data,
    decider,
    finish_current,
    mover,
    save,
    uid,
)
from casebook.script import AskedFacts

__all__ = ["REQUIRES", "CONFIG", "ACTIONS", "STATE_SCHEMA", "QUESTIONS", "reach_answer", "move_answer", "stack_for", "rail_attack_allowed"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": ["tec_prohibited", "zoc_chart"],
            "quantities": ["force_march_drm", "ip_cost", "ma", "move_cost", "rail_capacity", "tec_column", "zoc_column"]}
#: The configs it reads (src/casebook/content/packconfig.py): config/movement.yaml, the cases
#: the movement searches and the force march roll cite, the plugin's refusals and events.
CONFIG = {"movement": MovementConfig}
ACTIONS = tuple(sorted(actions.KINDS))  # made only in STEPS: `ask why` names those (tools/ask_why.py step_note)

#: question -> usage line, for `casebook ask` (see docs/ask/reach.md, docs/ask/move.md)
QUESTIONS: dict[str, str] = {
    "reach": "reach STACK [--as hq|stack|reaction|unactivated|force-march] — hexes a stack can "
             "reach and the MP spent (9.0-9.3, 7.2-7.3, 9.7, 9.8)",
    "move": "move STACK HEX HEX … [--as …] — is this path legal, MP spent and left, where and why "
            "it stops (9.0-9.2, 7.2-7.3)",
    **questions.QUESTIONS,
}
_MODES = ("hq", "stack", "reaction", "unactivated", "force-march")


def _mover(ctx: Any, stack: str, mode: str) -> tuple[Mover, dict[str, Any]]:
    if mode not in _MODES:
        raise QuestionError(f"--as must be one of {', '.join(_MODES)}, got {mode!r}")
    hex_, units = stack_for(ctx, stack)
    m, ma = mover(ctx, units, hex_, mode)
    return (replace(m, at_start=False) if mode == "force-march" else m), ma  # 9.6A: not the start of its move


@implements("9.0A", "9.2C", "7.2", "7.3")
def reach_answer(ctx: Any, stack: str, mode: str = "stack") -> dict[str, Any]:
    """``reach STACK``: ``{"stack", "units", "mode", "ma", "zoc", "hexes": {hex: mp_spent},
    "stops": {hex: case}, "pass_only": {hex: mp_spent}, "cases"}`` — every hex the stack can end
    a move in this allotment (the destinations play offers as ``move`` actions:
    :func:`~casebook.games.moscow41.plugins._movement_legal.destinations`), with the MP spent on the cheapest
    path; ``stops`` marks hexes where movement must end (7.2 locking EZOC, 9.2C all MPs spent,
    9.8B one hex); ``pass_only`` the hexes it may enter but not end in, overstacked (6.2B). When
    another area refuses the movers any move (14.4C hedgehog, 14.1D builder: :func:`mover_refusals`,
    as play's listed moves), nothing is reachable and ``refused`` lists ``{"reason", "cases"}``.
    Its lines name the TEC cells of each listed hex's cheapest path, not of the search's other hexes."""
    m, ma = _mover(ctx, stack, mode)
    r = reach(ctx, m)
    ends = destinations(ctx, m)
    says = movement_config(ctx).answers
    cases = set(ma["cases"]) | set(says["reach"])
    refused = mover_refusals(ctx, m, next(iter(ends.values()))["path"]) if ends else []
    if refused:
        cases |= {c for x in refused for c in x.cases}
        return {"stack": m.start, "units": list(m.units), "mode": mode, "ma": ma["ma"], "zoc": m.zoc,
                "hexes": {}, "stops": {}, "pass_only": {},
                "refused": [{"reason": x.reason, "cases": list(x.cases)} for x in refused],
                "cases": sorted(cases, key=case_order)}
    for v in ends.values():  # the TEC cells of each path listed (the search's own are read apart)
        for a, b in zip((m.start, *v["path"]), v["path"]):
            terrain.step_cost(ctx, m.classes, a, b)
    stops = {h: v["stop"] for h, v in ends.items() if v["stop"]}
    cases |= set(stops.values())
    passing = {h: v["mp"] for h, v in r.items() if h not in ends}
    if passing:
        cases |= set(says["pass_only"])
    if m.zoc == "fluid" and any(terrain.ezoc(ctx, h, m.side) for h in r):
        cases |= set(says["fluid"])
    return {"stack": m.start, "units": list(m.units), "mode": mode, "ma": ma["ma"], "zoc": m.zoc,
            "hexes": {h: v["mp"] for h, v in ends.items()}, "stops": stops, "pass_only": passing,
            "cases": sorted(cases, key=case_order)}


def move_answer(ctx: Any, stack: str, path: Sequence[str], mode: str | None = None) -> dict[str, Any]:
    """``move STACK HEX …``: ``{"stack", "units", "mode", "ma", "legal", "mp_spent", "mp_left",
    "stops_at", "steps": [{"hex", "cost", "cases"}], "cases"}`` (+ ``"refused": {"hex",
    "reason", "cases"}`` when illegal: where and why, e.g. 7.2; at the start hex when another area
    refuses the movers, 14.4C, 14.1D). ``mode`` None in a movement step of the stack's side:
    play's verdict on ``move stack=… path=…`` — every validator, the path walked by play's mover
    (:func:`~casebook.games.moscow41.plugins._movement_actions.move_mover`: the stack being moved
    with its MPs left); else the path as a move of ``mode`` (default ``stack``) walks it, with
    the other areas' refusals of the movers (:func:`mover_refusals`)."""
    if not path:
        raise QuestionError("usage: move STACK HEX HEX …")
    units, step = stack_for(ctx, stack)[1], ctx.state.step
    played = mode is None and step in STEPS and decider(ctx, step) == ctx.state.unit(units[0]).get("side")
    m, ma = _mover(ctx, stack, MODE[step] if played else mode or "stack")
    path = path_hexes(ctx, m.start, path)
    action = Action.make("move", m.side, stack=m.start, path=path, units=units if ctx.state.has_unit(stack) else None)
    walker = actions.move_mover(ctx, action, data(ctx), step)[0] if played else m  # None: refused before the path
    res = check_path(ctx, walker or m, path)
    res.pop("spent_all", None)
    refused = ([x for xs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for x in xs or ()] if played
               else mover_refusals(ctx, m, path) if res["legal"] else [])
    if refused:  # play's refusal: its reasons and cases, where the path stops (else at the start hex)
        res |= {"legal": False, "refused": {"hex": res.get("refused", {}).get("hex", m.start) if walker else m.start,
                                            "reason": "; ".join(x.reason for x in refused),
                                            "cases": list(dict.fromkeys(c for x in refused for c in x.cases))}}
    units = (ctx.hook.casebook_movers(ctx=ctx, action=action) if played else None) or list(m.units)
    return {"stack": m.start, "units": list(units), "mode": MODE[step] if played else mode or "stack",
            "ma": ma["ma"], **res, "cases": sorted({*res["cases"], *ma["cases"], *(c for x in refused for c in x.cases)},
                                                   key=case_order)}


# -- query hooks ------------------------------------------------------------------------------
@hookimpl
def casebook_move_cost(ctx: Any, units: Sequence[str], from_hex: str, to_hex: str, mode: str) -> dict[str, Any]:
    return costs.move_cost(ctx, units, from_hex, to_hex, mode)


@hookimpl
def casebook_movement_allowance(ctx: Any, units: Sequence[str], mode: str) -> dict[str, Any]:
    return costs.movement_allowance(ctx, units, mode)


@hookimpl
@implements("9.9J", "9.9K")
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """For a unit moved by rail this phase: ``moved_by_rail`` (9.9J: no further move, no force
    march) and ``rail_attack_allowed`` (9.9K: it may attack this phase if in command there)."""
    if not isinstance(subject, str) or subject not in data(ctx)["railed"]:
        return None
    cites = movement_config(ctx).answers
    return {"moved_by_rail": {"value": True, "cases": list(cites["moved_by_rail"])},
            "rail_attack_allowed": {"value": rail_attack_allowed(ctx, subject), "cases": list(cites["rail_attack"])}}


@implements("9.9K")
def rail_attack_allowed(ctx: Any, uid: str) -> bool:
    """9.9K: "A unit moving into an EZOC by rail can attack in the same phase, if the unit is in
    command at the destination hex" — False for a unit railed this phase that stands in an EZOC
    and is out of command there; True otherwise."""
    if uid not in data(ctx)["railed"] or not ctx.state.has_unit(uid):
        return True
    unit = ctx.state.unit(uid)
    if not unit.get("hex"):
        return True
    # the `attack_after_rail` line of movement.rules (EZOC and command asked only if it reads them)
    return ctx.allowed("attack_after_rail", AskedFacts({"moved_by_rail": True}, {
        "in_ezoc": lambda: bool(terrain.ezoc(ctx, unit["hex"], unit["side"])),
        "in_command": lambda: actions.in_command(ctx, uid)}))


def _rail_attack_refusals(ctx: Any, action: Any) -> list[Refusal]:
    if action.kind != "attack":
        return []
    ids = action.get("with") or ()
    bad = [u for u in ((ids,) if isinstance(ids, str) else ids) if not rail_attack_allowed(ctx, u)]
    if not bad:
        return []
    return actions.refused(ctx, "rail_attack", units=", ".join(bad))


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question not in QUESTIONS:
        return None
    mode = options.get("as") or None
    arity = {"rail": 1, "overrun": 2, "reach": 1}.get(question)
    if (len(args) != arity) if arity else len(args) < 2:
        raise QuestionError("usage: " + QUESTIONS[question])
    if question == "rail":
        return questions.rail_answer(ctx, *stack_for(ctx, args[0]))
    if question == "overrun":
        return questions.overrun_answer(ctx, *stack_for(ctx, args[0]), args[1])
    if question == "reach":
        return reach_answer(ctx, args[0], mode or "stack")
    return move_answer(ctx, args[0], list(args[1:]), mode)


# -- steps --------------------------------------------------------------------------------------
@hookimpl
def casebook_decider(ctx: Any, phase: str, step: str) -> str | None:
    return decider(ctx, step)


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Any]:
    if results_pending(ctx):  # 10.0F: an overrun's result is applied before the stack moves on
        return []
    return legal_actions(ctx, step)


@hookimpl
@implements("9.0A", "9.9A", "9.9E", "9.9I")
def casebook_action_templates(ctx: Any, phase: str, step: str) -> list[Any]:
    """The player's choice of a move's path (9.0A: "a path of contiguous hexes"; one ``move`` is
    listed per destination, along its cheapest path): for each stack a listed ``move`` starts
    from, a template whose ``path`` is any path, judged by the validators as a listed move is
    (``ask … move`` answers with the same verdict). The choice of which units of a stack move by
    rail, and where (9.9A: "can move up to three combat units by rail"): for each stack a listed ``rail-move`` starts from, a template
    whose ``units`` are any of its units (combat units up to the capacity left; HQs free, 9.9E)
    and ``to`` any railhead its rail path reaches (9.9I). The validators judge a filling (capacity,
    rail path, 6.2B stacking at the railhead). A listing: its lines are no refusal's."""
    if results_pending(ctx):
        return []
    with ctx.apart(recorded=False):
        listed = legal_actions(ctx, step)
        says = movement_config(ctx).answers
        out = path_templates(listed, "H,H… the hexes entered in order: any path", says["path_choice"])  # 9.0A
        if not any(a.kind == "rail-move" for a in listed):
            return out
        limit = f"at most {capacity_left(ctx, data(ctx)['rail_units'])} combat unit(s), HQs free"  # 9.9A-E
        return out + rail_templates(ctx, listed, limit, says["rail_choice"])


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Any]:
    """The movement actions' checks; for an ``attack``, 9.9K (units railed into an EZOC)."""
    if action.kind in actions.KINDS and results_pending(ctx):
        return actions.refused(ctx, "pending_result")
    return actions.check(ctx, action) + _rail_attack_refusals(ctx, action)


@hookimpl
@implements("9.1A", "9.2A", "9.2B")
def casebook_move_cases(ctx: Any, action: Any) -> list[str] | None:
    """A ``move``'s MA cases (9.1A …) and its path's as play walks it (9.2A-B, 7.2 …); None unwalkable now."""
    step = ctx.state.step
    walker = actions.move_mover(ctx, action, data(ctx), step)[0] if action.kind == "move" and step in STEPS else None
    if walker is None:
        return None
    return [*costs.movement_allowance(ctx, list(walker.units), MODE[step])["cases"],
            *check_path(ctx, walker, list(action.get("path")))["cases"]]


@hookimpl
def casebook_movers(ctx: Any, action: Any) -> list[str] | None:
    return actions.movers(ctx, action)


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    """9.5B-D: an overrun whose result waited for the players' choices goes on after the last."""
    finish_overrun(ctx)


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    return actions.apply(ctx, action)


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    if step == "movement":
        d = data(ctx)
        d["rail_hq"] = False
        save(ctx, d)


@hookimpl
@implements("9.1B", "0.7.3.4B")
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """End of a movement step: the stack being moved finishes (a force march rolls, 9.6C); in
    the Movement Step every activated unit has had its move (unused MPs are lost, 9.1B).
    Recovery (0.7.3.8B): the activation bookkeeping of the phase is dropped."""
    if step in STEPS:
        d = data(ctx)
        finish_current(ctx, d)
        if step == "movement" and ctx.state.phasing:
            mark_moved(d, (uid(u) for u in ctx.state.units
                           if u.get("side") == ctx.state.phasing and u.get("activated")))
        save(ctx, d)
    elif step == "recovery" and ctx.state.plugin_data("movement") is not None:
        ctx.state.set_plugin_data("movement", None)
        ctx.changed()


class _PendingOverrun(TypedDict):
    """An overrun whose combat result awaits the players' choices (``finish_overrun``)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    side: str
    start: str
    hex: str
    mp: Annotated[int, Field(ge=0)]
    classes: list[str]
    combat: dict[str, Any]


class _Current(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    units: list[str]
    hex: str
    spent: Annotated[int, Field(ge=0)]
    budget: Annotated[int, Field(ge=0)]
    mode: str
    supplied: dict[str, bool]
    spent_all: bool
    stopped: bool
    hexes: Annotated[int, Field(ge=0)]
    allotment: Annotated[int, Field(ge=1, le=2)]
    rail: bool
    overrun: _PendingOverrun


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.movement``: the units moved this player phase, the stack being moved
    (``current``, null once it dropped out), reaction and rail bookkeeping (see
    ``_movement_state``)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    moved: list[str]
    current: _Current | None
    react: list[str]
    railed: list[str]
    rail_units: Annotated[int, Field(ge=0)]
    rail_hq: bool
