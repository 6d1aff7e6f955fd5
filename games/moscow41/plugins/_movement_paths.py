"""Moscow '41 movement, part 2: path legality (9.0A, 9.1A, 9.2C, 7.2, 7.3, 9.8B), reach by
Dijkstra over the board graph (the shared areas' ``zoc_reach``), and rail paths (9.9I).

Private helper of :mod:`casebook.games.moscow41.plugins.movement`. Hexes are printed labels (``"0303"``). A
:class:`Mover` is a stack about to move with its budget; :func:`step` is the one rule for entering the next hex,
used by :func:`reach` (every destination, canonical cheapest path) and :func:`check_path` (a given path, hex by
hex, saying where and why it stops). :func:`movement_config`: config/movement.yaml, the searches' and the
plugin's cases and texts (what each key means: the file's comments; the ``{fields}`` each text fills: below)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import create_model

from casebook.areas._movement_reach import MovementCites, Step, zoc_reach, zoc_step, zoc_walk
from casebook.areas.terrain_costs import (
    added_fluid_cost,
    enemy_hexes,
    fluid_binding,
    kept_search,
    step_cost,
    step_table,
    table_row,
    zoc_effects,
    zoc_lines,
    zoc_lookup,
)
from casebook.content.cases import implements
from casebook.content.packconfig import Cases, Cites, config_reader, messages, reasons, texts

__all__ = ["REFUSALS", "FORBIDDEN", "VERDICTS", "EVENTS", "ANSWERS", "MovementConfig", "movement_config", "Mover", "Step", "step",
           "reach", "search", "check_path", "neighbours"]

REFUSALS = {"not_step": ("kind", "side", "step"), "no_unit": ("side", "hex"), "not_with_stack": ("units", "hex"), "unit_twice": ("unit",),
            "no_path": (), "ended_spent": ("hex",), "ended_stopped": ("hex",), "not_adjacent_enemy": ("target", "hex"),
            "tec_prohibits": ("target",), "no_force_march": (), "rail_capacity": ("left", "counted"),
            "rail_blocked": ("why",), "no_rail_path": ("stack", "to"), "no_react_unit": ("side", "hex"),
            "react_cost": ("cost", "ip"), "rail_attack": ("units",), "pending_result": (), "no_combat": ()}
FORBIDDEN = {"reserve": ("unit",), "foot": (), "start": ("side", "hex"), "overrun_step": (),
             "overrun": ("target", "cost", "terrain", "left"), "force_march": (), "rail": (), "react_step": ()}
VERDICTS = {"overrun_unit": ("unit",), "force_march_unit": (), "react_unit": ("unit",)}
EVENTS = ("drop_off", "reserve", "overrun_pending", "overrun_advanced", "overrun_stopped", "force_march", "rail",
          "rail_hq", "react", "react_result", "react_marked")
ANSWERS = ("cost", "hexside", "reach", "pass_only", "fluid", "path_choice", "rail_choice", "moved_by_rail", "rail_attack")


class MovementConfig(MovementCites):
    """config/movement.yaml: the searches' cases and the plugin's refusals and events."""

    refusals: messages(*REFUSALS, fills=REFUSALS)  # type: ignore[valid-type]
    forbidden: reasons(FORBIDDEN)  # type: ignore[valid-type]
    verdicts: texts(VERDICTS)  # type: ignore[valid-type]
    events: create_model("MovementEvents", __base__=Cites, **dict.fromkeys(EVENTS, (Cases, ...)))  # type: ignore[valid-type]
    answers: create_model("MovementAnswers", __base__=Cites, **dict.fromkeys(ANSWERS, (Cases, ...)))  # type: ignore[valid-type]


movement_config = config_reader("movement", MovementConfig)


@dataclass(frozen=True)
class Mover:
    """A stack about to move: its ``units``, ``side``, hex ``start``, TEC rows ``classes``,
    ZOC treatment ``zoc`` (locking/fluid/none), MP ``budget`` left in this allotment, ``fresh``
    (nothing spent yet in this allotment: 9.2C applies), ``max_hexes`` (1 for unactivated
    movement, 9.8B) and ``at_start`` (the start of its movement: 7.2 lets it leave an EZOC)."""

    units: tuple[str, ...]
    side: str
    start: str
    classes: frozenset[str]
    zoc: str
    budget: int
    fresh: bool = True
    max_hexes: int | None = None
    at_start: bool = True


def neighbours(ctx: Any, hex_: str) -> tuple[str, ...]:
    """On-map neighbours of ``hex_`` as labels, in label order (the board's table)."""
    return ctx.board.label_neighbours(hex_)


@implements("9.0A", "9.1A", "9.2C", "7.2", "7.3")
def step(ctx: Any, m: Mover, a: str, b: str, spent: int, hexes: int, zmap: Any = None) -> Step:
    """May stack ``m``, in ``a`` after ``spent`` MP and ``hexes`` hexes, enter ``b``? The shared
    :func:`~casebook.areas._movement_reach.zoc_step` with this game's costs and cases: contiguous
    hexes only (9.0A); never an enemy-occupied hex (only an overrun, 9.5A); not beyond
    ``max_hexes`` (9.8B); locking ZOCs (7.2; interpretation locking-ezoc-to-ezoc), fluid ones +1
    MP from EZOC to EZOC (7.3; once however many enemy units exert a ZOC, 7.0F); the TEC cost must
    fit the MPs left (9.1A) unless it is the first hex of an allotment, entered by spending all MPs (9.2C)."""
    says = movement_config(ctx)

    def enter(x: str, y: str, fluid: bool) -> tuple[int | None, tuple[str, ...]]:
        cost, _via, feature = step_cost(ctx, m.classes, x, y, fluid=fluid and zoc_effects(ctx, m.side, y))
        return cost, (*says.answers["cost"], *(says.answers["hexside"] if feature else ()),
                      *(fluid_binding(ctx, m.classes, m.side, x, y) if fluid else ()))  # 7.3: its lines

    return zoc_step(a, b, spent, hexes, near=neighbours(ctx, a), enter=enter,
                    zmap=zoc_lookup(ctx, m.side) if zmap is None else zmap, enemy=enemy_hexes(ctx, m.side),
                    budget=m.budget, max_hexes=m.max_hexes, zoc=m.zoc,
                    same_only=ctx.state.setting("locking_ezoc_to_ezoc", "any") == "same_unit",
                    fresh=m.fresh, at_start=m.at_start, cites=says.walk)


@implements("9.0A", "9.1A", "9.2C", "7.2", "7.3", "9.8B")
def reach(ctx: Any, m: Mover) -> dict[str, dict[str, Any]]:
    """Every hex ``m`` can end its move in, by Dijkstra (heapq) over MP spent: label ->
    ``{"mp", "path", "spent_all", "stop"}`` with the canonical cheapest path (ties broken by
    label order) excluding the start; the start itself is not listed.

    The search (:func:`search`) applies :func:`step`'s rules and cases from tables; its result is
    kept by the mover and the setting it reads (the shared
    :func:`~casebook.areas.terrain_costs.kept_search`), so treat it as read-only."""
    same_only = ctx.state.setting("locking_ezoc_to_ezoc", "any") == "same_unit"
    return kept_search(ctx, m.side, (m, same_only), lambda zmap, enemy: search(ctx, m, zmap, enemy, same_only))


@implements("9.0A", "9.1A", "9.2C", "7.2", "7.3", "9.8B")
def search(ctx: Any, m: Mover, zmap: Any, enemy: frozenset[str], same_only: bool) -> dict[str, dict[str, Any]]:
    """The Dijkstra of :func:`reach` (uncached): :func:`step`'s verdicts from tables, the same
    order and tie-breaks — the shared area's :func:`~casebook.areas._movement_reach.zoc_reach`
    over the MP table of :func:`~casebook.games.moscow41.plugins._movement_costs.step_table`.
    ``zmap``: hex -> enemy unit ids exerting a ZOC there (absent: none)."""
    classes = m.classes
    table = step_table(ctx, classes)
    return zoc_reach(m.start, lambda a: table.get(a) or table_row(ctx, table, classes, a), zmap, enemy,
                     budget=m.budget, max_hexes=m.max_hexes, zoc=m.zoc, same_only=same_only, fresh=m.fresh,
                     at_start=m.at_start, stops=movement_config(ctx).stops, more=added_fluid_cost(ctx, classes, m.zoc))


def check_path(ctx: Any, m: Mover, path: list[str]) -> dict[str, Any]:
    """Walk ``path`` (hexes after the start) hex by hex (the shared
    :func:`~casebook.areas._movement_reach.zoc_walk` of :func:`step`): ``{"legal", "mp_spent",
    "mp_left", "stops_at", "spent_all", "steps": [{"hex", "cost", "cases"}], "cases"}``; an illegal
    path also has ``"refused": {"hex", "reason", "cases"}`` (where and why it stops: 9.8B, 9.2C, 7.2)."""
    zmap = zoc_lookup(ctx, m.side)
    zoc_lines(ctx, m.side, (m.start, *path))  # the lines behind the EZOCs of the hexes walked (7.2, 7.3)
    return zoc_walk(m.start, path, lambda a, b, spent, hexes: step(ctx, m, a, b, spent, hexes, zmap),
                    budget=m.budget, max_hexes=m.max_hexes, cites=movement_config(ctx).walk)
