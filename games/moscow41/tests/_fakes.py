"""Fake plugins for the rules tests: supply, command and ZOC (and, for combat and results, stacking)
answered as configured. Registered last, so pluggy calls them first and they override the real
areas; the Moscow '41 pack, board and compiled scripts are shared with the session engine."""

from __future__ import annotations

from casebook.core.hooks import hookimpl

__all__ = ["FakeAreas", "FakeAreasWithStacking", "engine_with"]


class FakeAreas:
    """Units (or hexes) in ``unsupplied`` are out of supply, in ``out_of_command`` out of command;
    ``zoc[side]`` lists the hexes in an enemy ZOC for that side."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.unsupplied: set[str] = set()
        self.out_of_command: set[str] = set()
        self.zoc: dict[str, set[str]] = {"german": set(), "soviet": set()}
        self.over: set[str] = set()

    @hookimpl
    def casebook_supply(self, ctx, unit):
        u = ctx.state.unit(unit)
        ok = unit not in self.unsupplied and u.get("hex") not in self.unsupplied
        return {"unit": unit, "in_supply": ok, "cases": ["5.2A"]}

    @hookimpl
    def casebook_command(self, ctx, unit):
        return {"unit": unit, "in_command": unit not in self.out_of_command, "cases": ["8.0A"]}

    @hookimpl
    def casebook_zoc(self, ctx, hex, side):
        inside = hex in self.zoc.get(side, set())
        return {"hex": hex, "exerted_by": ["x"] if inside else [],
                "kind": "locking" if inside else "none", "cases": ["7.1A"]}


class FakeAreasWithStacking(FakeAreas):
    """:class:`FakeAreas` that also answers stacking: the hexes in ``over`` are overstacked."""

    @hookimpl
    def casebook_stacking(self, ctx, hex, units):
        return {"hex": hex, "overstacked": hex in self.over, "cases": ["6.0"]}


def engine_with(m41, **extra):
    """The Moscow '41 engine with ``extra`` plugins registered last (cheap: the pack, the board and
    the compiled scripts are shared, only the plugin manager is new)."""
    from casebook.content.plugins import make_plugin_manager
    from casebook.script.engine import Engine

    pm = make_plugin_manager(m41.pack.manifest.get("plugins") or [], extra=extra)
    return Engine(m41.pack, m41.board, m41.rules, pm, m41.sequence)
