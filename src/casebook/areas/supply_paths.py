"""What a side's supply paths may use and pass, for the shared supply area: the game-neutral maps
behind "is this unit in supply", configured by the game's rule scripts, map and vocabulary.

A game's supply plugin makes one :class:`SupplyPaths` (what is its own: the unit fields its
hooks read, which friendly units lift an EZOC, a unit's movement-cost row, the reasons it shows)
and asks it for the maps; the traces over them are :mod:`casebook.areas.supply_trace`. Nothing
here names a side, a game or a case: the rules come from the game's lines —

- ``supply_source`` (facts ``side``, ``source_kind``: ``<edge>_edge`` for the map edge of each
  side of the vocabulary, ``entry_area``, ``friendly_city``; ``area_entered``) — which hexes are
  a side's supply sources, each citing the cases of the lines that say who may use its kind
  (:func:`source_cases`);
- ``use_supply_source`` (facts ``enemy_occupied``, ``in_ezoc``, ``friendly_unit``) — whether a
  source can be used now; an unusable one cites the lines that forbid it;
- the path blocks of :func:`casebook.areas.supply.path_blocks` (``through_enemy``,
  ``through_ezoc`` of the configuration).

A side's maps are kept per *side key* — everything they depend on: where every unit stands and
what it is (the configured fields), the weather, the settings, the Entry Areas entered (the plugin
data ``entered`` of the configured name), who controls the cities and the hexes that are a ZOC by
themselves — in ``ctx.lasting`` (the last ``keep`` keys): an activation, an IP, a marker or a new
step keeps them; any move, loss or weather change makes a new key. Each map goes into the store
through ``ctx.kept``: the rule-script lines that made it (the source, path-block and ZOC verdicts)
are kept beside it and noted again at every read, so an event that reads a unit's supply names
the same lines whatever the store held. Hexes are :class:`~casebook.core.hexgrid.Hex`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casebook.content.packconfig import CitedCase, config_model
from casebook.content.packrefs import ClassRef, PermissionRef
from casebook.core.hexgrid import Hex, hex_label, parse_hex

from . import _supply_search as index_
from . import supply as area
from .search import path_within

__all__ = ["SupplyPaths", "SUPPLY_CONFIG", "SUPPLY_PYTHON", "source_cases"]

#: ``(reason, cases)`` of a hex a path cannot pass.
Reason = tuple[str, tuple[CitedCase, ...]]


def source_cases(ctx: Any, kind: str) -> tuple[str, ...]:
    """The cases of the ``supply_source`` lines that say who may trace supply to a source of
    ``kind``: the ``forbid`` lines that fire for it for some side of the vocabulary (entered or
    not), in script order — read without noting them (a source is cited by the answers that use
    it, not by the event that happens to build the map); kept per board and rules."""
    cache = ctx.lasting("supply.source-cases", id(ctx.rules), pause=False)  # read without noting
    found = cache.get(kind)
    if found is None:
        out: list[str] = []
        for side in ctx.pack.vocabulary.side_ids:
            for entered in (False, True):
                e = ctx.rules.permission("supply_source", {"side": side, "source_kind": kind, "area_entered": entered},
                                         ctx.engine.script_tables, ctx.standard)
                out += [c for ln in e.lines if ln.kind == "forbid" and ln.fired for c in ln.cases]
        found = cache[kind] = tuple(dict.fromkeys(out))
    return found


@dataclass(frozen=True)
class SupplyPaths:
    """A game's supply configuration (see the module docstring).

    ``name``: the plugin's name (its plugin data holds ``entered``; its caches are named after
    it); ``fields``: the unit fields the maps depend on (what the game's hooks read); ``opens``:
    whether a friendly unit lifts an EZOC in its hex (fact ``friendly_combat_unit``);
    ``reasons``: ``(enemy-occupied, EZOC)`` reasons of a blocked hex; ``through_enemy``,
    ``through_ezoc``: the permissions that may let a path pass them; ``row``: the movement-cost
    row of a unit (units of one row move alike); ``fallback``: the MP of a step when no plugin
    answers ``casebook_move_cost`` (None: prohibited); ``hq_class``: the unit class of HQs (whose
    unit field ``radius`` extends supply); ``keep``: how many side keys keep their maps.
    """

    name: str
    fields: tuple[str, ...]
    opens: Callable[[Mapping[str, Any]], bool]
    reasons: tuple[Reason, Reason]
    row: Callable[[Any, Mapping[str, Any]], str]
    fallback: Callable[[Any, Mapping[str, Any], Hex, Hex], float | None]
    hq_class: ClassRef = "hq"
    through_enemy: PermissionRef = "trace_supply_through_enemy"
    through_ezoc: PermissionRef = "trace_supply_through_ezoc"
    keep: int = 48
    _cities: dict[int, list[str]] = field(default_factory=dict, compare=False, repr=False)

    # -- what the maps depend on (the command paths' too: ``areas/supply.py``) --------------
    #: ``(temperature, ground)`` in force (:func:`casebook.areas.supply.weather`)
    weather = staticmethod(area.weather)
    #: every setting in force, once per state version (:func:`casebook.areas.supply.settings`)
    settings = staticmethod(area.settings)

    def entered(self, ctx: Any) -> tuple[str, ...]:
        """The Entry Areas recorded as entered (plugin data ``entered``)."""
        return tuple((ctx.state.plugin_data(self.name) or {}).get("entered", ()))

    def side_key(self, ctx: Any, side: str) -> tuple[Any, ...]:
        """Everything ``side``'s maps depend on (see the module docstring)."""
        cache = ctx.lasting(f"{self.name}.cities", pause=False)  # the board's
        if "cities" not in cache:
            cache["cities"] = [hex_label(h) for h, t in ctx.board.towns().items() if t.get("kind") == "city"]
        control = tuple(ctx.state.control(h) for h in cache["cities"])
        return (side, area.placement(ctx, self.fields), self.weather(ctx), self.settings(ctx), self.entered(ctx),
                control, area.zoc_sources(ctx, side))

    def store(self, ctx: Any, side: str) -> dict[Any, Any]:
        """The cache of ``side``'s maps for the current :meth:`side_key` (the state version's
        memo first: asked hundreds of times per answer set)."""
        return area.side_maps(ctx, side, f"{self.name}.maps", lambda: self.side_key(ctx, side), self.keep, self.name)

    # -- the maps ---------------------------------------------------------------------------
    def blocked(self, ctx: Any, side: str) -> dict[Hex, Reason]:
        """Hex -> (reason, cases) for every hex a path of ``side`` cannot pass: enemy-occupied,
        or in an EZOC without a friendly unit that ``opens`` it (unless the lines allow)."""
        return ctx.kept(self.store(ctx, side), "blocked", lambda: area.path_blocks(
            ctx, side, through_enemy=self.through_enemy, through_ezoc=self.through_ezoc, opens=self.opens,
            reasons=self.reasons, cache=f"{self.name}.enemy-blocks", keep=16,
            fallback_key=(area.placement(ctx, self.fields), self.weather(ctx))))

    def _candidates(self, ctx: Any, side: str) -> dict[Hex, Reason]:
        """Hex -> (why, cases) for every hex the ``supply_source`` lines make a source of ``side``:
        the map edges of the vocabulary's sides, then the Entry Areas, then friendly cities."""
        found: dict[Hex, Reason] = {}

        def kind_ok(kind: str, entered: bool = False) -> tuple[str, ...] | None:
            facts = {"side": side, "source_kind": kind, "area_entered": entered}
            return source_cases(ctx, kind) if area.allowed(ctx, "supply_source", facts) else None

        for edge in dict.fromkeys(s.edge for s in ctx.pack.vocabulary.sides if s.edge):
            cases = kind_ok(f"{edge}_edge")
            if cases is not None:
                cache = ctx.lasting(f"{self.name}.edge", edge, pause=False)  # the board's
                if "hexes" not in cache:
                    cache["hexes"] = ctx.board.edge_hexes(edge)
                for h in cache["hexes"]:
                    found.setdefault(h, (f"{edge} map edge", cases))
        entered = set(self.entered(ctx))
        for name in sorted(ctx.board.entry_areas):
            cases = kind_ok("entry_area", name in entered)
            if cases is not None:
                for h in sorted(ctx.board.entry_areas.get(name, ())):
                    found.setdefault(h, (f"Entry Area {name}, entered by friendly units", cases))
        cases = kind_ok("friendly_city")
        if cases is not None:
            for h, town in ctx.board.towns().items():
                if town.get("kind") == "city" and ctx.state.control(hex_label(h)) == side:
                    found.setdefault(h, (f"friendly city {town.get('name', '')}".strip(), cases))
        return found

    def sources(self, ctx: Any, side: str) -> dict[Hex, tuple[bool, str, tuple[str, ...]]]:
        """Hex -> (usable, why, cases) for every supply source of ``side``; an unusable one (the
        ``use_supply_source`` lines: occupied by an enemy unit, or unoccupied in an EZOC) adds
        the cases of the lines that forbid it."""
        return ctx.kept(self.store(ctx, side), "sources", lambda: self._sources(ctx, side))

    def _sources(self, ctx: Any, side: str) -> dict[Hex, tuple[bool, str, tuple[str, ...]]]:
        by_hex = area.units_by_hex(ctx)
        ezocs = set(area.enemy_blocks(ctx, side, f"{self.name}.enemy-blocks", 16,
                                      (area.placement(ctx, self.fields), self.weather(ctx)))[1])
        out: dict[Hex, tuple[bool, str, tuple[str, ...]]] = {}
        for h, (why, cases) in self._candidates(ctx, side).items():
            units = by_hex.get(h, ())
            enemy = any(u.get("side") != side for u in units)
            facts = {"enemy_occupied": enemy, "in_ezoc": h in ezocs, "friendly_unit": bool(units) and not enemy}
            if area.allowed(ctx, "use_supply_source", facts):
                out[h] = (True, why, cases)
            else:
                bad = "occupied by an enemy unit" if enemy else "unoccupied and in an enemy ZOC"
                forbids = ctx.rules.permission("use_supply_source", facts, ctx.engine.script_tables, ctx.standard).cases
                out[h] = (False, f"{why}: {bad}", (*cases, *forbids))
        return out

    def usable(self, ctx: Any, side: str) -> set[Hex]:
        """The usable supply sources of ``side``."""
        return ctx.kept(self.store(ctx, side), "usable",
                        lambda: {h for h, (ok, _, _) in self.sources(ctx, side).items() if ok})

    def unusable(self, ctx: Any, side: str) -> dict[Hex, Reason]:
        """The unusable supply sources of ``side`` with why."""
        return ctx.kept(self.store(ctx, side), "unusable", lambda: {
            h: (why, cases) for h, (ok, why, cases) in self.sources(ctx, side).items() if not ok})

    def closed(self, ctx: Any, side: str) -> frozenset[int]:
        """Board indices of the blocked hexes a path may end in but not pass: all but usable sources."""
        def make() -> frozenset[int]:
            ix = index_.board_index(ctx).index
            open_sources = self.usable(ctx, side)
            return frozenset(ix[h] for h in self.blocked(ctx, side) if h not in open_sources)
        return ctx.kept(self.store(ctx, side), "closed", make)

    def radius_path(self, ctx: Any, side: str, start: Hex, target: Hex, radius: int) -> list[Hex] | None:
        """The shortest path of hexes from ``start`` (an HQ) to ``target`` of at most ``radius``
        hexes (the target's hex counts, the start's does not) through no blocked hex but its two
        ends; None if there is none. Terrain and weather do not count."""
        reach = ctx.kept(self.store(ctx, side), ("hq-reach", start, radius),
                         lambda: area.radius_reach(ctx, start, radius, self.blocked(ctx, side)))
        return path_within(ctx.board, reach, target, radius)

    def unit_hex(self, ctx: Any, uid: str) -> Hex:
        """The hex of unit ``uid``; KeyError if it is not on the map or has no hex."""
        unit = ctx.state.unit(uid)
        if not unit.get("hex"):
            raise KeyError(f"unit {uid!r} is not on a map hex")
        return parse_hex(unit["hex"])


#: What a game gives in Python (functions, and what the caches depend on); the rest is data.
SUPPLY_PYTHON = ("name", "fields", "opens", "row", "fallback", "keep")
#: The strict model of a ``SupplyPaths``'s data as YAML (a config file, :mod:`casebook.content.packconfig`):
#: the reasons a blocked hex shows and the permissions that may let a path pass.
SUPPLY_CONFIG = config_model(SupplyPaths, python=SUPPLY_PYTHON)
