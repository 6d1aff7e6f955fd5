"""``casebook ask … rail STACK`` and ``overrun STACK HEX`` (private to the `movement` plugin): the
answers use the same functions as play — the rail moves play would list (:func:`rail_moves`) and
every validator of the ``overrun`` action — so ``ask`` and play agree.
"""

from __future__ import annotations

from typing import Any

from casebook.areas.rail import capacity_left, counted, railhead_reach
from casebook.areas.terrain_costs import step_cost
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.games.moscow41.plugins._movement_costs import move_class
from casebook.games.moscow41.plugins._movement_legal import rail_moves
from casebook.games.moscow41.plugins._movement_state import MODE, data, mover

__all__ = ["QUESTIONS", "rail_answer", "overrun_answer"]

QUESTIONS: dict[str, str] = {
    "rail": "rail STACK — railheads the stack can reach by rail, the rail capacity left and the "
            "rail moves play offers (9.9)",
    "overrun": "overrun STACK HEX — may the stack overrun HEX now, its MP cost (terrain +1) and the "
               "advance that follows (9.5)",
}


def _refusals(ctx: Any, action: Action) -> list[dict[str, Any]]:
    return [{"reason": r.reason, "cases": list(r.cases)}
            for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in (rs or ())]


@implements("9.9A", "9.9B", "9.9C", "9.9D", "9.9E", "9.9I")
def rail_answer(ctx: Any, hex_: str, units: list[str]) -> dict[str, Any]:
    """``rail STACK``: ``{"stack", "units", "capacity_left" (combat units, 9.9A-D), "combat_units",
    "railheads": {hex: rail path}, "refused": reason or None (9.9I), "offered": [rail-move
    actions play lists now], "refusals": [why the whole stack may not rail now], "cases"}``."""
    side = ctx.state.unit(units[0]).get("side", "")
    d = data(ctx)
    dests, why = railhead_reach(ctx, side, hex_)
    whole = Action.make("rail-move", side, stack=hex_, to=next(iter(sorted(dests)), hex_), units=units)
    return {"stack": hex_, "units": units, "capacity_left": capacity_left(ctx, d["rail_units"]),
            "combat_units": counted(ctx, units), "railheads": {k: dests[k] for k in sorted(dests)}, "refused": why,
            "offered": [str(a) for a in rail_moves(ctx, side, hex_, units, d)], "refusals": _refusals(ctx, whole),
            "cases": ["9.9A", "9.9B", "9.9C", "9.9D", "9.9E", "9.9I"]}


@implements("9.5A", "9.5B", "9.5C")
def overrun_answer(ctx: Any, hex_: str, units: list[str], target: str) -> dict[str, Any]:
    """``overrun STACK HEX``: ``{"stack", "units", "hex", "legal", "refusals", "mp_cost" (the TEC
    cost of entering HEX +1, 9.5A; null where prohibited), "mp_left" (before the overrun),
    "advance", "cases"}`` — ``advance``: a vacated hex must be entered, at no MP cost, and the
    stack may move on and overrun again (9.5B-C). Legality is play's: every validator of the
    ``overrun`` action."""
    side = ctx.state.unit(units[0]).get("side", "")
    if target not in ctx.board.label_neighbours(hex_):
        raise QuestionError(f"overrun: {target} is not adjacent to {hex_}")
    action = Action.make("overrun", side, stack=hex_, hex=target, units=units)
    refusals = _refusals(ctx, action)
    classes = frozenset(move_class(ctx, ctx.state.unit(u)) for u in units)
    cost = step_cost(ctx, classes, hex_, target, overrun=True)[0]
    d = data(ctx)
    cur = d.get("current")
    if cur and cur.get("hex") == hex_ and set(units) <= set(cur.get("units") or ()):
        left = cur["budget"] - cur["spent"]
    else:
        left = mover(ctx, units, hex_, MODE.get(ctx.state.step, "stack"))[0].budget
    return {"stack": hex_, "units": units, "hex": target, "legal": not refusals, "refusals": refusals,
            "mp_cost": cost, "mp_left": left,
            "advance": f"if {target} is vacated the stack must advance into it at no MP cost, then may "
                       f"move on and overrun again with the MPs left (9.5B, 9.5C)",
            # 9.2A-B: the TEC cost of the hex (and hexside) entered, the cost's first term
            "cases": sorted({"9.2A", "9.2B", "9.5A", "9.5B", "9.5C", *(c for r in refusals for c in r["cases"])})}
