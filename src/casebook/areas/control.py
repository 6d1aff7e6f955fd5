"""Shared rules area ``area_control``: who controls a hex — the ONE "who controls a hex" of the
games that use it (their victory, replacements and combat rules read it through
:func:`controller`).

A town hex of the map (its ``towns``) belongs to the last side to occupy it: control is updated at
set-up and after every action, each change a ``control`` trace event citing the cases of the
game's ``gain_control`` lines (``permit gain_control by …``: the area holds no case id). The
scenario's ``control:`` block gives who holds what at the start.

Public API: :func:`controller`, :func:`controlled_by`, :func:`update_control`.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.core.hexgrid import hex_label
from casebook.core.hooks import hookimpl

from ._zoc_cites import line_cases

__all__ = ["STATE_SCHEMA", "STEPS", "controller", "controlled_by", "update_control"]

PLUGIN = "area_control"
#: The sequence steps this area acts in: none of its own (control changes as units move).
STEPS: tuple[str, ...] = ()


def controller(ctx: Any, hex_: str) -> str | None:
    """The side controlling hex ``hex_`` (a label, ``"1103"``), or None."""
    return ctx.state.control(hex_)


def controlled_by(ctx: Any, side: str, hexes: list[str] | None = None) -> list[str]:
    """The hexes of ``hexes`` (default: every town hex) ``side`` controls, label order."""
    pool = hexes if hexes is not None else [hex_label(h) for h in ctx.board.towns()]
    return sorted(h for h in pool if ctx.state.control(h) == side)


def update_control(ctx: Any) -> list[str]:
    """Give every occupied town hex to its occupant's side; returns the hexes that changed hands
    (label order), each traced as a ``control`` event."""
    changed = []
    towns = ctx.board.towns()
    for h in sorted(towns):
        label = hex_label(h)
        units = ctx.state.units_at(label)
        if units and ctx.state.control(label) != units[0]["side"]:
            side = units[0]["side"]
            ctx.state.set_control(label, side)
            changed.append(label)
            ctx.record("control", list(line_cases(ctx, ("gain_control",))),
                       {"hex": label, "side": side, "city": towns[h].get("name")},
                       source=f"{PLUGIN}.update_control", side=side)
    return changed


# ------------------------------------------------------------------------------------- hooks
@hookimpl
def casebook_setup(ctx: Any) -> None:
    update_control(ctx)


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    if update_control(ctx):
        ctx.changed()


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.area_control``: the area keeps no state (control is the state's own)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
