"""Moscow '41 German infantry breakdown (13.0): the wiring left to the game.

The breakdown and recombination themselves are the shared area ``area_breakdown``
(src/casebook/areas/breakdown.py) configured by ``games/moscow41/rules/breakdown.rules``::

    german: breakdown unit=g-6id                       # Command or Movement Step (13.0B-D)
    german: recombine into=g-6id units=g-ir-01,g-ir-02,g-ir-03    # Command Step (13.0E-F)

This plugin hands a division broken down during its movement on to the movement plugin's
bookkeeping (13.0C): its regiments take its place in the stack being moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.core.hooks import hookimpl
from casebook.games.moscow41.plugins._movement_state import replace_units

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "casebook_units_replaced"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["breakdown_mp_cost"]}

#: question -> usage line, for `casebook ask` (none)
QUESTIONS: dict[str, str] = {}


@hookimpl
@implements("13.0C")
def casebook_units_replaced(ctx: Any, old: str, new: Sequence[str], mp_cost: int) -> None:
    """13.0C: broken down at any point of its move, the division's regiments go on with its MPs
    left less ``mp_cost`` (``breakdown_mp_cost``: none) and, once it has moved, count as moved
    (9.1D) — the movement plugin's ``replace_units``."""
    replace_units(ctx, old, new, mp_cost)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.breakdown``: the plugin keeps no state (the broken-down divisions are the
    ``area_breakdown`` record); any record here is refused."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
