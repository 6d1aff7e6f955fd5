"""The cases a game gives a shared area for the steps of its procedure that no rule line states
(private helper of the areas): the manifest's ``area_cases:`` block, area -> key -> case ids
(for example Moscow '41's ``combat: {no_target: [10.3A]}``). An area holds no case id of its own:
what it cites comes from the game's lines (:mod:`._zoc_cites`), from this block, or from a
fallback of the game's own lines when the game gives no key (a game with its own numbering).

Each area declares the steps it asks for (:data:`STEP_KEYS`, exported by the area's module as
``AREA_CASES``): ``casebook lint`` refuses a step key of the block the area does not ask for (a
misspelt ``no_targt:`` would otherwise change nothing, silently), and :func:`given` refuses a key
the area asks for without declaring it (a test checks the literal keys of the areas' calls).

``casebook cases`` counts every case of the block as implemented by the area's Python
(source ``area:<area>.<key>``, kind python): the procedure is code, the game names its cases.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["STEP_KEYS", "given", "given_or"]

#: area -> the steps of its procedure it asks the game's ``area_cases:`` for.
STEP_KEYS: dict[str, tuple[str, ...]] = {
    "combat": ("no_target", "no_attacker", "attacker_twice", "no_unit", "not_own_unit", "not_adjacent",
               "not_activated", "reaction_activated", "hq_alone", "reserve_alone", "reaction_refused",
               "ip_short", "ip_short_reaction", "overrun_stacks", "support_amount", "support_most",
               "support_awaited", "result_awaited", "no_support_awaited", "support_refused", "attackers_overstacked",
               "attacker_template", "attacker_support_template", "defender_support_template", "resolved",
               "combat_event", "answer"),
    "zoc": ("in_ezoc", "locking", "retreat_blocked", "temperature_column"),
}


def given(ctx: Any, area: str, key: str) -> tuple[str, ...] | None:
    """The cases the game gives for ``key`` of shared area ``area``; None when it gives none.
    ``LookupError`` when ``area`` does not declare ``key`` in :data:`STEP_KEYS` (an area's bug)."""
    if key not in STEP_KEYS.get(area, ()):
        raise LookupError(f"area {area!r} asks for step {key!r}, not in its STEP_KEYS (areas/_game_cases.py)")
    block = (ctx.pack.manifest.get("area_cases") or {}).get(area)
    found = block.get(key) if block else None
    return tuple(str(c) for c in found) if found is not None else None


def given_or(ctx: Any, area: str, key: str, fallback: Callable[[Any], Any]) -> tuple[str, ...]:
    """:func:`given`, else ``fallback(ctx)`` (the cases of the game's own lines)."""
    found = given(ctx, area, key)
    return found if found is not None else tuple(fallback(ctx))
