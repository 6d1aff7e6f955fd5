"""A small fake plugin answering supply, command and ZOC for the reinforcement, breakdown and
fortification tests (registered last, so it is called first and overrides the real areas)."""

from __future__ import annotations

from casebook.kernel.hooks import hookimpl


class FakeAreas:
    """Supply / command / ZOC as configured: units (or hexes) listed are out of supply / out of
    command; ``zoc[side]`` lists the hexes that are in an enemy ZOC for that side."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.unsupplied: set[str] = set()
        self.out_of_command: set[str] = set()
        self.zoc: dict[str, set[str]] = {"german": set(), "soviet": set()}

    @hookimpl
    def casebook_supply(self, ctx, unit):
        u = ctx.state.unit(unit)
        ok = unit not in self.unsupplied and u.get("hex") not in self.unsupplied
        return {"unit": unit, "in_supply": ok, "cases": ["5.2A"]}

    @hookimpl
    def casebook_command(self, ctx, unit):
        return {"unit": unit, "in_command": unit not in self.out_of_command, "cases": ["2.3A"]}

    @hookimpl
    def casebook_zoc(self, ctx, hex, side):
        inside = hex in self.zoc.get(side, set())
        return {"hex": hex, "exerted_by": ["x"] if inside else [],
                "kind": "locking" if inside else "none", "cases": ["7.1A"]}


def engine_with(m41, **extra):
    """The loaded Moscow '41 engine with ``extra`` plugins registered last (cheap: the pack, the
    board and the compiled scripts are shared, only the plugin manager is new)."""
    from casebook.kernel.engine import Engine
    from casebook.kernel.hooks import make_plugin_manager

    pm = make_plugin_manager(m41.pack.manifest.get("plugins") or [], extra=extra)
    return Engine(m41.pack, m41.board, m41.rules, pm, m41.sequence)
