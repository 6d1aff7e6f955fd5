"""The cases a game gives a shared area for the steps of its procedure that no rule line states
(private helper of the areas): the manifest's ``area_cases:`` block, area -> key -> case ids
(for example Moscow '41's ``combat: {no_target: [10.3A]}``). An area holds no case id of its own:
what it cites comes from the game's lines (:mod:`._zoc_cites`), from this block, or from a
fallback of the game's own lines when the game gives no key (a game with its own numbering).

``casebook cases`` counts every case of the block as implemented by the area's Python
(source ``area:<area>.<key>``, kind python): the procedure is code, the game names its cases.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["given", "given_or"]


def given(ctx: Any, area: str, key: str) -> tuple[str, ...] | None:
    """The cases the game gives for ``key`` of shared area ``area``; None when it gives none."""
    block = (ctx.pack.manifest.get("area_cases") or {}).get(area)
    found = block.get(key) if block else None
    return tuple(str(c) for c in found) if found is not None else None


def given_or(ctx: Any, area: str, key: str, fallback: Callable[[Any], Any]) -> tuple[str, ...]:
    """:func:`given`, else ``fallback(ctx)`` (the cases of the game's own lines)."""
    found = given(ctx, area, key)
    return found if found is not None else tuple(fallback(ctx))
