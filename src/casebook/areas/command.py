"""HQ command paths, shared by the games whose HQs command the units in their radius: the
game-neutral answer to "is this unit in command, of which HQs", configured by the game's rule
scripts. It holds no case id and names no side: every number, verdict and citation is a line's —

- quantity ``command_path_hexes`` (fact ``command_radius``) — how many hexes a command path of an
  HQ may run (the target's hex counts, the HQ's does not); terrain and weather never count;
- quantity ``hq_support_limit`` (facts ``side``, ``command_limit``, ``command_radius``) — how many
  combats an HQ can support (each HQ entry of an answer);
- permission ``hq_activate_unit`` (facts ``hq_mechanized``, ``unit_class`` and the game's unit
  facts) — whether an HQ may activate a unit (an entry's ``can_activate``);
- permission ``trace_command_path`` (facts ``unit_class`` and the game's unit facts) — whether a
  unit must trace a path to be in command at all (forbidden: in command, e.g. an HQ); an answer
  cites the lines that decide it (the ``forbid`` line, or the ``permit`` lines that fire);
- permissions ``trace_command_through_enemy``, ``trace_command_through_ezoc`` (fact
  ``friendly_combat_unit``) — what a command path may pass (``areas/supply.py`` ``path_blocks``).

A game makes one :class:`CommandPaths` (its HQ class, its unit facts, which friendly units lift
an EZOC) and asks it. Its maps are kept per *key* — every unit's configured fields, the weather,
the settings and the hexes that are a ZOC by themselves — in ``ctx.lasting`` (the last ``keep``),
so a change that moves nothing (an activation, IPs, a new step) keeps them. Each map and answer
goes into that store through ``ctx.kept``: an answer keeps the lines that decided it (those citing
a case it cites, as ``casebook ask command`` names them: the ``trace_command_path``,
``command_path_hexes`` and path-block lines) and every read notes them again, so an event that
reads a unit's command (an activation, a stack refused) names them whatever the store held.
Hexes are :class:`~casebook.core.hexgrid.Hex`; HQs and units are the state's unit mappings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from casebook.core.hexgrid import Hex, parse_hex

from . import supply as area
from .search import path_within

__all__ = ["CommandPaths"]


@dataclass(frozen=True)
class CommandPaths:
    """A game's command configuration (see the module docstring).

    ``fields``: the unit fields the answers depend on (and the game's ZOC hook reads);
    ``opens``: whether a friendly unit lifts an EZOC in its hex; ``unit_facts``: the game's own
    facts of a unit for ``hq_activate_unit`` and ``trace_command_path``; ``hq_class``: the unit
    class of HQs; ``name``: the plugin's name (its caches are named after it); ``command_step``,
    ``recovery_step``: the sequence steps HQs activate and units recover in
    (``casebook.areas.activation``)."""

    fields: tuple[str, ...]
    opens: Callable[[Mapping[str, Any]], bool]
    unit_facts: Callable[[Mapping[str, Any]], Mapping[str, Any]]
    hq_class: str = "hq"
    name: str = "command"
    keep: int = 32
    command_step: str = "command"
    recovery_step: str = "recovery"

    def key(self, ctx: Any, side: str) -> tuple[Any, ...]:
        """Everything ``side``'s command paths and answers depend on."""
        return (side, area.placement(ctx, self.fields), area.weather(ctx), area.settings(ctx),
                area.zoc_sources(ctx, side))

    def store(self, ctx: Any, side: str) -> dict[Any, Any]:
        """The cache of ``side``'s command maps for the current :meth:`key`."""
        return area.side_maps(ctx, side, f"{self.name}.maps", lambda: self.key(ctx, side), self.keep, self.name)

    def hqs(self, ctx: Any, side: str) -> list[Mapping[str, Any]]:
        """The HQs of ``side`` on the map, by id (once per state version)."""
        return list(area.per_version(ctx, (self.name, "hqs", side), lambda: sorted(
            (u for u in ctx.state.units if u.get("side") == side and u.get("class") == self.hq_class and u.get("hex")),
            key=lambda u: u["id"])))

    def may_activate(self, ctx: Any, unit: Mapping[str, Any], hq_mechanized: bool) -> bool:
        """The ``hq_activate_unit`` verdict for ``unit`` and an HQ (mechanized or not), kept per
        engine: a rule script is a pure function of its facts."""
        own = self.unit_facts(unit)
        key = (tuple(sorted(own.items())), hq_mechanized, unit.get("class"))
        return ctx.kept((f"{self.name}.hq_activate_unit",), key, lambda: bool(ctx.permission("hq_activate_unit", {
            **own, "hq_mechanized": hq_mechanized, "unit_class": unit.get("class")}).value))

    def path_hexes(self, ctx: Any, hq: Mapping[str, Any]) -> int:
        """How many hexes a command path of ``hq`` may run: ``command_path_hexes`` for its
        current radius, kept per engine by the radius."""
        radius = int(hq.get("radius") or 0)
        return int(ctx.kept((f"{self.name}.path_hexes",), radius,
                            lambda: int(ctx.value("command_path_hexes", {"command_radius": radius}))))

    def support_limit(self, ctx: Any, hq: Mapping[str, Any]) -> Any:
        """The ``hq_support_limit`` of ``hq``, kept per engine by its facts."""
        key = (hq["side"], int(hq.get("limit") or 0), int(hq.get("radius") or 0))
        return ctx.kept((f"{self.name}.hq_support_limit",), key, lambda: ctx.value(
            "hq_support_limit", {"side": key[0], "command_limit": key[1], "command_radius": key[2]}))

    def blocked(self, ctx: Any, side: str) -> dict[Hex, str]:
        """Hex -> reason for every hex a command path of ``side`` cannot pass: enemy-occupied, or
        in an EZOC without a friendly unit that ``opens`` it, unless the lines allow (enemy hexes
        first, then EZOC hexes, each in hex order; the ZOC asked hex by hex)."""
        return ctx.kept(self.store(ctx, side), "blocked", lambda: area.path_blocks(
            ctx, side, through_enemy="trace_command_through_enemy", through_ezoc="trace_command_through_ezoc",
            opens=self.opens, reasons=("enemy unit", "enemy ZOC"), cache=f"{self.name}.enemy-blocks",
            keep=self.keep, per_hex=True))

    def reach(self, ctx: Any, hq: Mapping[str, Any]) -> dict[Hex, list[Hex]]:
        """Shortest unblocked hex paths from ``hq`` up to its path length (one breadth-first search
        per HQ hex, length and :meth:`key`, kept with the lines of the blocks it read)."""
        return self._reach(ctx, hq["side"], parse_hex(hq["hex"]), self.path_hexes(ctx, hq))

    def _reach(self, ctx: Any, side: str, start: Hex, radius: int) -> dict[Hex, list[Hex]]:
        def make() -> dict[Hex, list[Hex]]:  # the through-enemy lines: an enemy-occupied hex in the radius searched
            blocked, near = self.blocked(ctx, side), ctx.board.grid.distance
            area.met_enemy(ctx, "trace_command_through_enemy",
                           any(v == "enemy unit" and near(start, h) <= radius for h, v in blocked.items()))
            return area.radius_reach(ctx, start, radius, blocked)

        return ctx.kept(self.store(ctx, side), ("reach", start, radius), make)

    def path(self, ctx: Any, hq: Mapping[str, Any], target: Hex) -> list[Hex] | None:
        """The shortest command path from ``hq`` to ``target`` if it is at most
        :meth:`path_hexes` long, else None."""
        return path_within(ctx.board, self.reach(ctx, hq), target, self.path_hexes(ctx, hq))

    def entry(self, ctx: Any, hq: Mapping[str, Any], unit: Mapping[str, Any], distance: int) -> dict[str, Any]:
        """One HQ in a command answer: ``{"hq", "distance" (hexes), "radius", "can_activate",
        "support_limit"}``."""
        return {"hq": hq["id"], "distance": distance, "radius": int(hq.get("radius") or 0),
                "can_activate": self.may_activate(ctx, unit, bool(hq.get("mechanized"))),
                "support_limit": self.support_limit(ctx, hq)}

    def _traced(self, ctx: Any, unit: Mapping[str, Any]) -> tuple[bool, list[str]]:
        """``trace_command_path`` for ``unit``: (must trace, the cases of the deciding lines),
        once per state version; its lines are noted (kept with the answer that asks it)."""
        facts = {**self.unit_facts(unit), "unit_class": unit.get("class", "infantry")}
        key = (self.name, "traced", tuple(sorted(facts.items())))

        def compute() -> tuple[bool, list[str]]:
            e = ctx.permission("trace_command_path", facts)
            return bool(e.value), list(e.cases)

        return ctx.memo_kept(key, compute)

    def answer(self, ctx: Any, uid: str) -> dict[str, Any]:
        """Whether ``uid`` is in command: ``{"unit", "in_command": bool, "hqs": [:meth:`entry`,
        nearest first], "cases"}``. A unit that need not trace (``trace_command_path``
        forbidden) is in command and lists no HQ. KeyError if not on the map. Kept in the side
        store with the lines citing a case it cites (:func:`~casebook.areas.supply.cited`)."""
        unit = ctx.state.unit(uid)
        return ctx.kept(self.store(ctx, unit["side"]), ("answer", uid), lambda: self._answer(ctx, unit),
                        cited=area.cited)

    def _answer(self, ctx: Any, unit: Mapping[str, Any]) -> dict[str, Any]:
        uid = unit["id"]
        must, cases = self._traced(ctx, unit)
        if not must:
            answer = {"unit": uid, "in_command": True, "hqs": [], "cases": cases}
        else:
            target = parse_hex(unit["hex"])
            hqs = []
            distance, col, row = ctx.board.grid.distance, target.col, target.row
            for hq, start, radius in self._hq_hexes(ctx, unit["side"]):
                if abs(start.col - col) > radius or abs(start.row - row) > radius \
                        or distance(start, target) > radius:
                    continue  # a path steps between grid neighbours (column and row change by
                    # one at most), so it is never shorter than the distance: none within reach
                path = path_within(ctx.board, self._reach(ctx, hq["side"], start, radius), target, radius)
                if path is not None:
                    hqs.append(self.entry(ctx, hq, unit, len(path) - 1))
            hqs.sort(key=lambda e: (e["distance"], e["hq"]))
            answer = {"unit": uid, "in_command": bool(hqs), "hqs": hqs, "cases": cases}
        return answer

    def _hq_hexes(self, ctx: Any, side: str) -> list[tuple[Mapping[str, Any], Hex, int]]:
        """``(HQ, its hex, its path length)`` for every HQ of ``side`` by id (once per version)."""
        return area.per_version(ctx, (self.name, "hq-hexes", side), lambda: [
            (hq, parse_hex(hq["hex"]), self.path_hexes(ctx, hq)) for hq in self.hqs(ctx, side)])
