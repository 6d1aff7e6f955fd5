"""Moscow '41 movement, part 1: the ``casebook_move_cost`` answer (9.2, 4.6A) and movement
allowances (9.1A, 9.3, 9.7, 9.8B, 4.3D, 4.5C, 5.7B), with the supply a moving stack needs.

Private helper of :mod:`casebook.games.moscow41.plugins.movement`. The MP costs themselves are the
shared :mod:`casebook.areas.terrain_costs` over the game's ``move_cost`` script and TEC tables
(``tec``, ``tec_hexside``, ``tec_prohibited``, ``zoc_chart``); a unit's chart row is the ZOC area's
``chart_row`` (interpretation hq-movement-class).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.areas._zoc_map import chart_row as move_class
from casebook.areas.movement import slowest_ma
from casebook.areas.terrain_costs import entry_ways, step_cost, weather
from casebook.content.cases import implements
from casebook.core.errors import QuestionError
from casebook.script.factlines import FactLines, lines_of

__all__ = ["units_of", "move_class", "is_supplied", "move_cost", "movement_allowance"]


def units_of(ctx: Any, ids: Sequence[str]) -> list[Mapping[str, Any]]:
    """The unit records of ``ids``; QuestionError naming an unknown unit."""
    out = []
    for uid in ids:
        try:
            out.append(ctx.state.unit(uid))
        except KeyError:
            raise QuestionError(f"no unit {uid!r} on the map") from None
    if not out:
        raise QuestionError("no units given")
    return out


def is_supplied(ctx: Any, uid: str) -> bool:
    """Whether ``uid`` traces supply at this instant (5.6A): the supply plugin's answer, else the
    absence of an OOS marker. Kept per state version with its lines (``ctx.memo_kept``): every
    event of the version that reads it names the supply lines behind it."""
    def compute() -> bool:
        ans = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
        return bool(ans["in_supply"]) if ans is not None else not ctx.state.unit(uid).get("oos")

    return bool(ctx.memo_kept(("movement.supplied", uid), compute))


@implements("9.2A", "9.2B", "4.6A")
def move_cost(ctx: Any, units: Sequence[str], from_hex: str, to_hex: str, mode: str) -> dict[str, Any]:
    """MP for the stack ``units`` to enter adjacent ``to_hex`` from ``from_hex`` (hook
    ``casebook_move_cost``): ``{"mp": int | None, "via": "terrain"|"road"|"trail", "terrain",
    "feature", "cases"}``. Terrain of the hex entered plus the hexside crossed (9.2A-B), TEC
    column by the ground (4.1B-4.5E), Arctic +1 (4.6A); a road or trail lowers the cost only when
    moving through its hexside. ``mode`` ``"supply"`` uses the same costs (5.2B-C 8-MP paths).
    Raises QuestionError for unknown units or hexes that are not adjacent.
    """
    classes = frozenset(move_class(ctx, u) for u in units_of(ctx, units))
    try:
        mp, via, feature = step_cost(ctx, classes, from_hex, to_hex)
    except ValueError as exc:
        raise QuestionError(f"{from_hex} -> {to_hex}: {exc}") from None
    cases = ["9.2A"]
    if feature is not None:
        cases.append("9.2B")
    if weather(ctx)[0] == "arctic":
        cases.append("4.6A")
    if mp is None:
        cases.append("9.2C")
    terrain = dict((v, t) for t, _, v in entry_ways(ctx, from_hex, to_hex)).get(via)
    return {"mp": mp, "via": via, "terrain": terrain, "feature": feature, "cases": cases}


@implements("9.0B", "9.1A", "9.3", "9.7", "9.8B", "9.6A", "5.7B")
def movement_allowance(ctx: Any, units: Sequence[str], mode: str, *,
                       supplied: Mapping[str, bool] | None = None) -> dict[str, Any]:
    """The MA in MP of the stack ``units`` for ``mode`` (hook ``casebook_movement_allowance``):
    ``{"ma", "max_hexes", "unit", "cases", "terms"}``; the slowest unit decides (9.1C).

    The ``ma`` script: printed MA (9.1A), halved for reaction before weather and supply (9.7),
    halved in Mud/Drying (4.3D) and Deep Snow (4.5C) and when out of supply (5.7B), cumulative
    and rounded down but never below ¼ of the printed MA (9.3). ``force-march`` is a second
    allotment equal to the first (9.6A); ``unactivated`` moves one hex (9.8B: ``max_hexes`` 1).
    ``supplied`` overrides the supply at this instant (9.6B: a force march keeps the status the
    move began with). Modes: hq, stack, reaction, unactivated, force-march, supply.
    """
    temperature, ground = weather(ctx)

    def facts(u: Mapping[str, Any]) -> FactLines:  # the supply's lines lent to 5.7B's line when it fires
        uid = u.get("id") or u.get("counter")
        sup, lines = (supplied[uid], ()) if supplied is not None and uid in supplied else lines_of(ctx, lambda: is_supplied(ctx, uid))
        return FactLines({"printed_ma": int(u.get("ma", 0)), "reaction": mode == "reaction", "ground": ground,
                          "supplied": sup}, {"supplied": lines})

    ma, uid, q, terms = slowest_ma(ctx, units_of(ctx, units), facts)  # 9.1C: the slowest unit decides
    cases = list(q.cases)
    if mode == "force-march":
        cases.append("9.6A")
        terms.append({"text": "second allotment equal to the first", "amount": str(ma),
                      "cases": ["9.6A"], "source": "games/moscow41/plugins/_movement_costs.py"})
    max_hexes = None
    if mode == "unactivated":
        max_hexes = 1
        cases.append("9.8B")
        terms.append({"text": "unactivated units move one hex", "amount": "1 hex",
                      "cases": ["9.8B"], "source": "games/moscow41/plugins/_movement_costs.py"})
    return {"ma": ma, "max_hexes": max_hexes, "unit": uid, "temperature": temperature,
            "ground": ground, "cases": cases, "terms": terms}
