"""Fakes for the combat and results tests: supply, command, ZOC and stacking answered as
configured (registered last, so called first, overriding the real areas)."""

from __future__ import annotations

from casebook.kernel.hooks import hookimpl

__all__ = ["FakeAreas", "engine_with"]


class FakeAreas:
    """Units (or hexes) in ``unsupplied`` are out of supply, in ``out_of_command`` out of command;
    ``zoc[side]`` lists the hexes in an enemy ZOC for that side; ``over`` the overstacked hexes."""

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

    @hookimpl
    def casebook_stacking(self, ctx, hex, units):
        return {"hex": hex, "overstacked": hex in self.over, "cases": ["6.0"]}


def engine_with(m41, **extra):
    """The Moscow '41 engine with ``extra`` plugins registered last (pack, board and scripts shared)."""
    from casebook.kernel.engine import Engine
    from casebook.kernel.hooks import make_plugin_manager

    pm = make_plugin_manager(m41.pack.manifest.get("plugins") or [], extra=extra)
    return Engine(m41.pack, m41.board, m41.rules, pm, m41.sequence)
