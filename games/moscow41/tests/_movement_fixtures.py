"""Shared fixtures of the movement tests: a fake plugin (supply, command, ZOC by adjacency,
overrun combat) and small inline-map positions."""

from __future__ import annotations

import textwrap

from casebook.core.actions import Action
from casebook.core.hooks import hookimpl

MAP = """\
map:
  layout: flat-top-even-q
  size: {columns: 8, rows: 8}
  terrain: {default: clear, "0303": forest, "0603": swamp}
  hexsides:
    - {hexes: ["0202", "0203"], river: true}
    - {hexes: ["0302", "0303"], road: true}
    - {hexes: ["0106", "0206"], rail: true}
    - {hexes: ["0206", "0306"], rail: true}
    - {hexes: ["0306", "0406"], rail: true}
    - {hexes: ["0406", "0506"], rail: true}
    - {hexes: ["0506", "0606"], rail: true}
  towns:
    "0106": {name: Westgrad, kind: town, ip: 1}
    "0306": {name: Midgrad, kind: town, ip: 1}
    "0606": {name: Ostgrad, kind: town, ip: 1}
"""


class FakeAreas:
    """Supply (units in ``unsupplied`` are OOS), command (``out_of_command``), ZOC (every
    non-HQ enemy unit adjacent exerts one; ``casebook_zoc`` and ``casebook_zoc_map`` alike) and overrun combat
    (``outcome``: "eliminate" removes
    the defenders, "eliminate-and-advance" also moves the attackers in, "hold" leaves them); combats asked are kept in ``combats``."""

    def __init__(self) -> None:
        self.unsupplied: set[str] = set()
        self.out_of_command: set[str] = set()
        self.outcome = "eliminate"
        self.combats: list[dict] = []

    @hookimpl
    def casebook_supply(self, ctx, unit):
        return {"unit": unit, "in_supply": unit not in self.unsupplied, "cases": ["5.2A"]}

    @hookimpl
    def casebook_command(self, ctx, unit):
        return {"unit": unit, "in_command": unit not in self.out_of_command, "cases": ["8.0A"]}

    @hookimpl
    def casebook_zoc(self, ctx, hex, side):
        from casebook.core.hexgrid import hex_label, parse_hex
        near = {hex_label(n) for n in ctx.board.neighbours(parse_hex(hex))}
        who = sorted(u["id"] for u in ctx.state.units
                     if u.get("side") != side and u.get("hex") in near and u.get("class") != "hq")
        return {"hex": hex, "exerted_by": who, "kind": "locking" if who else "none", "cases": ["7.1A"]}

    @hookimpl
    def casebook_zoc_map(self, ctx, side):
        """The same ZOC as :meth:`casebook_zoc`, every hex at once (movement asks this one)."""
        found: dict[str, list[str]] = {}
        for u in ctx.state.units:
            if u.get("side") != side and u.get("hex") and u.get("class") != "hq":
                for n in ctx.board.label_neighbours(u["hex"]):
                    found.setdefault(n, []).append(u["id"])
        key = ("fake", side, tuple((u["id"], u.get("hex"), u.get("side"), u.get("class")) for u in ctx.state.units))
        return {"key": key, "exerted_by": {h: tuple(sorted(ids)) for h, ids in found.items()},
                "cases": ["7.1A"]}

    @hookimpl
    def casebook_combat(self, ctx, attackers, hex, kind, support):
        self.combats.append({"attackers": list(attackers), "hex": hex, "kind": kind, "support": support})
        defenders = [u["id"] for u in ctx.state.units_at(hex)]
        if self.outcome in ("eliminate", "eliminate-and-advance"):
            for u in defenders:
                ctx.state.remove_unit(u, "eliminated")
            defenders = []
        if self.outcome == "eliminate-and-advance":  # as the results plugin does: 11.4 advance
            for u in attackers:
                ctx.state.move_unit(u, hex)
        return {"attackers": list(attackers), "defenders": defenders, "odds": "3:1", "column": "3:1", "drm": 0, "roll": 7,
                "result": "-/-", "cases": ["10.0A"]}


def engine_with(m41, **extra):
    """The loaded engine with ``extra`` plugins registered last (called first), without the
    combat and results plugins (the fake resolves overruns alone)."""
    from casebook.content.plugins import make_plugin_manager
    from casebook.script.engine import Engine

    names = [p for p in m41.pack.manifest.get("plugins") or [] if p not in ("combat", "results")]
    pm = make_plugin_manager(names, extra=extra)
    return Engine(m41.pack, m41.board, m41.rules, pm, m41.sequence)


def position_text(units: str, *, ground: str = "dry", temperature: str = "warm", step: str = "movement",
                  phasing: str = "german", turn: int = 3, extra: str = "") -> str:
    """A position on the 8x8 test map (forest 0303, swamp 0603, river 0202/0203, road 0302/0303,
    rail 0106-0606 through railhead towns 0106, 0306, 0606)."""
    return (f"kind: position\nformat: 1\ngame: moscow41\n{MAP}turn: {turn}\n"
            f"weather: {{temperature: {temperature}, ground: {ground}}}\n"
            f"phase: first_player\nstep: {step}\nphasing: {phasing}\n"
            f"ip: {{german: 10, soviet: 10}}\nunits:\n{textwrap.indent(textwrap.dedent(units).strip(), '  ')}\n"
            f"{extra}")


def act(text: str) -> Action:
    from casebook.core.actions import parse_action
    return parse_action(text)
