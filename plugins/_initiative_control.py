"""Town control and town IPs (1.1A-D), for :mod:`casebook.plugins.initiative` only."""

from __future__ import annotations

from typing import Any

from casebook.kernel.cases import implements
from casebook.kernel.hexgrid import hex_label

__all__ = ["town_values", "towns_held", "update_control"]

_SRC = "casebook.plugins.initiative"


@implements("1.1A", "1.1C")
def town_values(ctx: Any) -> dict[str, dict[str, Any]]:
    """Hex label -> ``{"town", "ip"}`` for every town that earns IPs (1.1A), each Moscow hex on
    its own (1.1C). The Initiative Chart (records ``initiative_chart``) is authoritative over the
    map (0.2.2.10); a position with its own inline map is its own chart (its towns' ``ip``;
    reconstructed: test and scenario maps carry their towns' values)."""
    if ctx.state.map:
        return {hex_label(h): {"town": t.get("name"), "ip": int(t.get("ip") or 0)}
                for h, t in ctx.board.towns().items() if t.get("ip")}
    return {row["hex"]: {"town": row.get("town"), "ip": int(row["ip"])}
            for row in ctx.records("initiative_chart")}


def towns_held(ctx: Any, side: str) -> list[dict[str, Any]]:
    """The towns ``side`` controls (``state.control``), each ``{"hex", "town", "ip"}``, in hex
    order (1.1A)."""
    return [{"hex": h, **v} for h, v in sorted(town_values(ctx).items()) if ctx.state.control(h) == side]


def _town_hexes(ctx: Any) -> list[str]:
    hexes = set(town_values(ctx))
    hexes.update(hex_label(h) for h in ctx.board.towns())
    return sorted(hexes)


@implements("1.1B")
def update_control(ctx: Any) -> list[dict[str, Any]]:
    """Give each town or city hex occupied by units of one side only to that side (1.1B: a
    friendly unit occupies it, or was the last to; enemy ZOCs have no effect, so none is
    asked). Hexes without units keep their last controller. Returns the changes, each
    ``{"hex", "side", "was"}``, and records a ``control`` event for each."""
    changes = []
    for h in _town_hexes(ctx):
        sides = {u.get("side") for u in ctx.state.units_at(h)} - {None}
        if len(sides) != 1:
            continue
        (side,) = sides
        was = ctx.state.control(h)
        if was == side:
            continue
        ctx.state.set_control(h, side)
        change = {"hex": h, "side": side, "was": was}
        changes.append(change)
        ctx.record("control", ("1.1B",), change, source=f"{_SRC}.update_control", side=side)
    if changes:
        ctx.changed()
    return changes
