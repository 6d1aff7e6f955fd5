"""Hook specifications of the shared rules areas: the contracts by which one area asks another
(``ctx.hook.casebook_zoc(ctx=…, hex=…, side=…)``) without importing it. The core declares only the
lifecycle and query hooks (:class:`casebook.core.hooks.Specs`); each class here is the specs of one
area, registered as an entry point of group ``casebook.hookspecs`` (pyproject.toml) and added to
every plugin manager (:func:`casebook.content.plugins.make_plugin_manager`), so a hook is there to ask
even in a game that has no plugin answering it (its answer is then None). An area may move its
class into its own module: only its entry point names the place.

Each docstring is the contract, as in the core's: summary, parameters, ``Return:`` (firstresult or
list) and ``Fires:``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.core.hooks import hookspec

__all__ = ["ZocSpecs", "CombatSpecs", "MovementSpecs", "SupplySpecs", "CommandSpecs", "StackingSpecs", "WeatherSpecs"]


class CombatSpecs:
    """The combat area's hooks: :mod:`casebook.areas.combat` resolves a combat; the plugin owning
    losses applies a loss that is not a combat result."""

    @hookspec(firstresult=True)
    def casebook_combat(self, ctx: Any, attackers: Sequence[str], hex: str, kind: str,
                        support: Mapping[str, int] | None) -> dict[str, Any] | None:
        """Resolve one combat against the stack in ``hex`` by ``attackers`` (unit ids); ``kind``
        is ``"attack"``, ``"reaction"`` or ``"overrun"`` (9.5); ``support`` the IPs each side
        spends (``{"attacker": 2, "defender": 0}``). Rolls with the state's dice, applies the
        result (fatigue, retreats, losses, advance per the plugin's policy or pending decisions)
        and records it.

        Return: firstresult (the combat plugin answers): ``{"odds", "column", "drm", "roll",
        "result", "cases", …}``.
        Fires: from the combat step, reaction attacks, or a move that overruns.
        """

    @hookspec(firstresult=True)
    def casebook_combat_loss(self, ctx: Any, unit: str, cases: Sequence[str]) -> dict[str, Any] | None:
        """Apply one combat loss to ``unit`` that does not come from a combat result (a fatigued
        unit fatigued again by overstacking or a force march, which the rules treat as a combat
        loss): the plugin owning losses applies it as it applies combat losses, records it citing
        ``cases`` with its own, and answers ``{"unit", "effect", "cases"}``.

        Return: firstresult (the plugin owning losses answers); None when no plugin takes losses.
        Fires: inside an action or a step's automatic work (it changes the state).
        """


class ZocSpecs:
    """The ZOC area's hooks (:mod:`casebook.areas.zoc` answers them): the EZOC of a hex, the ZOCs
    no unit projects, the whole ZOC map of a side."""

    @hookspec(firstresult=True)
    def casebook_zoc(self, ctx: Any, hex: str, side: str) -> dict[str, Any] | None:
        """The enemy ZOC in ``hex`` as it affects a unit of ``side``: ``{"hex", "exerted_by":
        [unit ids], "kind": "locking"|"fluid"|"none", "cases"}`` (the ``zoc`` area adds
        ``friendly_combat_unit`` and a ``blocks_*`` key per path the game's lines close; reading the
        answer names none of those lines: a reader of one key reads it with
        ``casebook.areas._zoc_cites.answer_closes``, which names that key's lines).

        Return: firstresult (the ZOC plugin answers).
        Fires: any time (movement, supply, retreat, rail, fortification placement ask it).
        """

    @hookspec
    def casebook_zoc_sources(self, ctx: Any, side: str) -> list[dict[str, Any]] | None:
        """ZOCs against ``side`` that no unit projects into its neighbours: hexes that are a ZOC
        themselves (a marker's hex, a disorganised unit's own hex): ``[{"hex", "id", "cases"}]``
        (``id`` names the source, e.g. ``"marker@2520"``; stable for equal positions).

        Return: a list or None per plugin (list hook); the ZOC plugin adds them to its map.
        Fires: any time (whenever the ZOC map of ``side`` is computed, once per state version).
        """

    @hookspec(firstresult=True)
    def casebook_zoc_map(self, ctx: Any, side: str) -> dict[str, Any] | None:
        """Every enemy ZOC affecting units of ``side`` at once: ``{"key", "exerted_by": {hex:
        (unit ids)}, "cases"}`` and optionally ``"kind"`` (hexes without an EZOC are absent;
        read-only). ``key`` is a hashable value naming everything the map is computed from:
        equal keys, equal maps, so a caller may key its own caches by it across state changes.
        ``kind``, when given, is the ``kind`` ``casebook_zoc`` answers for every hex of the map
        (how the most restricted unit treats an EZOC under the conditions in force, e.g.
        ``"none"`` when no ZOC has an effect): a caller needing only that need not ask hex by hex.

        Return: firstresult (the ZOC plugin answers).
        Fires: any time (path searches ask it once instead of ``casebook_zoc`` per hex).
        """


class SupplySpecs:
    """The supply hook (the game's supply plugin answers; other areas ask it before moving or attacking)."""

    @hookspec(firstresult=True)
    def casebook_supply(self, ctx: Any, unit: str) -> dict[str, Any] | None:
        """Whether ``unit`` is in supply now: ``{"unit", "in_supply", "route", "path", "mp",
        "cases", "blocked"}``.

        Return: firstresult (the supply plugin answers).
        Fires: any time; supply is judged at the instant of moving or attacking.
        """


class CommandSpecs:
    """The command hook (the game's command plugin answers)."""

    @hookspec(firstresult=True)
    def casebook_command(self, ctx: Any, unit: str) -> dict[str, Any] | None:
        """Whether ``unit`` is in command: ``{"unit", "in_command", "hqs": [{"hq", "distance",
        "radius"}], "cases"}``.

        Return: firstresult (the command plugin answers).
        Fires: any time.
        """


class StackingSpecs:
    """The stacking hook (the game's stacking plugin answers; combat, results and the bots ask it)."""

    @hookspec(firstresult=True)
    def casebook_stacking(self, ctx: Any, hex: str, units: Sequence[str] | None) -> dict[str, Any] | None:
        """Stacking in ``hex`` (of ``units`` if given, else the units there now): ``{"hex",
        "points", "limit", "overstacked", "cases"}``.

        Return: firstresult (the stacking plugin answers).
        Fires: any time; legality is judged at the end of a step.
        """

    @hookspec(firstresult=True)
    def casebook_stacking_note(self, ctx: Any, action: Any) -> str | None:
        """A legal ``action`` that leaves a stack overstacked (a retreat into a friendly-occupied
        hex where no other route is open), in words with its cases: ``"overstacks 0305: 6
        stacking points, limit 5 (6.2F, 7.5A, 6.2E)"``; None otherwise.

        Return: firstresult (the results area answers for a retreat).
        Fires: when play lists the actions (it changes nothing).
        """


class MovementSpecs:
    """The movement area's hooks (the movement plugin answers): the MP cost of one hex entered and a stack's MA."""

    @hookspec(firstresult=True)
    def casebook_move_cost(self, ctx: Any, units: Sequence[str], from_hex: str, to_hex: str,
                           mode: str) -> dict[str, Any] | None:
        """The MP cost for ``units`` (one stack) to move from ``from_hex`` into the adjacent
        ``to_hex`` by ``mode`` (``"stack"``, ``"reaction"``, ``"supply"`` …): ``{"mp": number or
        None if prohibited, "cases"}``; terrain, hexside and weather only (no ZOC or stacking).

        Return: firstresult (the movement plugin answers).
        Fires: any time (movement, reach, supply paths, retreat).
        """

    @hookspec(firstresult=True)
    def casebook_movement_allowance(self, ctx: Any, units: Sequence[str], mode: str) -> dict[str, Any] | None:
        """The MA in MP of a stack for ``mode`` after weather and supply: ``{"ma", "cases",
        "terms"}`` (the slowest unit decides).

        Return: firstresult (the movement plugin answers).
        Fires: any time.
        """

    @hookspec(firstresult=True)
    def casebook_movers(self, ctx: Any, action: Any) -> Sequence[str] | None:
        """The ids of the units a movement ``action`` (an :class:`~casebook.core.actions.Action`)
        moves now: its ``units=`` or, when it names none, those the movement rules take (the
        stack being moved, the units of its hex that may move); [] when none may.

        Return: firstresult (the movement plugin answers; None: not a kind it moves, or not now).
        Fires: any time (the stacking area judges the end hex of a move by its movers).
        """

    @hookspec(firstresult=True)
    def casebook_move_cases(self, ctx: Any, action: Any) -> Sequence[str] | None:
        """The cases that decided the MPs of a movement ``action`` play would accept now: those of
        its movers' MA and of each hex its path enters as play walks it (terrain, hexside, ZOC …)
        — what ``ask … why`` of the legal action names the lines of.

        Return: firstresult (the movement plugin answers; None: not a kind it walks, or not now).
        Fires: any time (``ask … why``).
        """

    @hookspec
    def casebook_units_replaced(self, ctx: Any, old: str, new: Sequence[str], mp_cost: int) -> None:
        """Units ``new`` took the place of unit ``old`` on the map (a unit broken down, the shared
        ``area_breakdown``): in this phase's movement bookkeeping they go on with its MPs left less
        ``mp_cost`` and count as moved where it did. Changes the state.

        Return: none (every implementation runs).
        Fires: when a breakdown is applied, during a move or not.
        """


class WeatherSpecs:
    """The weather hook (the game's weather plugin answers)."""

    @hookspec(firstresult=True)
    def casebook_weather_effects(self, ctx: Any) -> dict[str, Any] | None:
        """The weather in force and its effects this turn: ``{"temperature", "ground",
        "effects": [{"effect", "cases"}], "cases"}``.

        Return: firstresult (the weather plugin answers).
        Fires: any time.
        """
