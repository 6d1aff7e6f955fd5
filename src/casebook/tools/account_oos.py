"""The units out of supply, per side, as the account follows the trace: the turn summary's ``out of
supply`` line (a fresh user's check, session 19: the account's supply line stopped after 8 names
and the turn summary had no OOS line, so an encirclement could not be seen without asking unit by
unit). Split from :mod:`casebook.tools.account` (at its 400 lines).

The events followed are the supply marking's (``oos-marking``: Moscow '41's 5.5A–5.5D, data
``marked`` / ``restored`` / ``eliminated`` unit ids, the event's side the units' side), the units
that leave the map (eliminated in a ``combat-results``, ``combat-loss``, ``eliminated`` or
``force-march-fatigue`` event; a ``withdrawal``'s unit; a remnant spent by a replacement, data
``remnant``; the game's own removals, :func:`leaving_kinds`) and the counters that take a unit's place with its flags (a combat loss's
``remnant``: 11.3D; a ``breakdown``'s regiments; a ``recombine``'s division when every regiment
was out of supply). The units already out of supply where the trace begins (a position file or a
save played without its trace: the ``oos`` flag) come from the ``setup`` event that holds the
position (:func:`casebook.tools.saves.start_trace`), or from :meth:`OosTally.start`.
The batch timeline (:mod:`casebook.tools.batch_timeline`) reads the ``oos`` flags of the state
instead; a whole-game test checks that both name the same units at every turn's end."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from casebook.tools.saves import START_FIELD

__all__ = ["OosTally", "OOS_KIND", "leaving_kinds"]

#: The event kind that marks and restores units' supply (its data: lists of unit ids).
OOS_KIND = "oos-marking"


class OosTally:
    """side -> the ids of its units out of supply now (in the order they were marked)."""

    def __init__(self, leaving: Mapping[str, str] | None = None) -> None:
        self.units: dict[str, list[str]] = {}
        #: event kind -> the data key naming the unit(s) it takes off the map (a game's own kinds)
        self.leaving = {"withdrawal": "unit", **(leaving or {})}
        self._taken: list[tuple[Any, dict[str, list[str]]]] = []  # (event, the lists before it changed them)

    def start(self, units: Iterable[Mapping[str, Any]]) -> None:
        """Add the units already out of supply where the trace begins (each a state's unit:
        ``id``, ``side`` and the ``oos`` flag; e.g. ``state.data.units``)."""
        for u in units:
            if u.get("oos"):
                self._change(str(u.get("side")), [str(u.get("id"))], [])

    def see(self, event: Any, undo: bool = False) -> None:
        """Follow one trace event; ``undo``: take it back with everything seen after it (play's
        ``undo``, the account's ``forget``: the lists as they were before it)."""
        if undo:
            i = next((i for i in range(len(self._taken) - 1, -1, -1) if self._taken[i][0] == event), None)
            if i is not None:
                before = self._taken[i][1]
                self.units = {side: list(before.get(side, [])) for side in {*before, *self.units}}
                del self._taken[i:]
            return
        before = {side: list(units) for side, units in self.units.items()}
        data = event.data if isinstance(event.data, Mapping) else {}
        held = data.get(START_FIELD) if event.kind == "setup" else None  # a play resumed from a position
        if isinstance(held, Mapping) and isinstance(held.get("units"), list):
            self.start(u for u in held["units"] if isinstance(u, Mapping))
        if event.kind == OOS_KIND and event.side:
            self._change(str(event.side), _ids(data.get("marked")), _ids(data.get("restored")) + _ids(data.get("eliminated")))
        for old, new in _replacements(event.kind, data, self.units):
            side = next((s for s, units in self.units.items() if old in units), None)
            if side is not None:
                units = self.units[side]
                units[units.index(old):units.index(old) + 1] = [u for u in new if u not in units]
        gone = set(_removed(event.kind, data))
        if event.kind in self.leaving:
            value = data.get(self.leaving[event.kind])
            gone |= {str(value)} if isinstance(value, str) else set(_ids(value))
        if gone:
            for units in self.units.values():
                units[:] = [u for u in units if u not in gone]
        if self.units != before:
            self._taken.append((event, before))

    def _change(self, side: str, add: Iterable[str], remove: Iterable[str]) -> None:
        units = self.units.setdefault(side, [])
        gone = set(remove)
        units[:] = [u for u in units if u not in gone] + [u for u in add if u not in units]

    def lines(self) -> list[str]:
        """``    out of supply: german 2 (g-6pz, g-7pz); soviet none`` — every unit, no cut — or
        nothing when no unit was ever out of supply."""
        if not self.units:
            return []
        sides = [f"{s} {len(u)} ({', '.join(u)})" if u else f"{s} none" for s, u in sorted(self.units.items())]
        return [f"    out of supply: {'; '.join(sides)}"]


def _ids(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _losses(effects: Any) -> Iterable[Mapping[str, Any]]:
    """Each unit's loss among ``effects`` (the effect itself, or the loss inside it)."""
    for effect in effects if isinstance(effects, list) else ():
        if isinstance(effect, Mapping) and effect.get("unit") is not None:
            inner = effect.get("loss")
            yield {**(inner if isinstance(inner, Mapping) else effect), "unit": effect["unit"]}


def _removed(kind: str, data: Mapping[str, Any]) -> list[str]:
    """The ids of the units an event of ``kind`` takes off the map for good."""
    if kind in ("combat-results", "force-march-fatigue"):
        return [str(e["unit"]) for e in _losses(data.get("effects")) if e.get("effect") == "eliminated"
                or ("remnant" in e and not e.get("remnant"))]
    if kind in ("combat-loss", "eliminated"):
        effect = data.get("effect", "eliminated")
        return [str(data.get("unit"))] if effect == "eliminated" or "remnant" in data else []
    if kind == "recombine" or isinstance(data.get("remnant"), str):  # a remnant spent (replaced, rebuilt)
        return _ids(data.get("regiments")) if kind == "recombine" else [str(data["remnant"])]
    return []


def _replacements(kind: str, data: Mapping[str, Any], oos: Mapping[str, list[str]]) -> list[tuple[str, list[str]]]:
    """(unit id, the ids that take its place with its flags) of an event of ``kind`` (``oos``: the
    lists now; a recombined division is out of supply when all its regiments were)."""
    if kind in ("combat-results", "combat-loss"):
        return [(str(e["unit"]), [str(e["remnant"])]) for e in _losses(data.get("effects") or [data])
                if e.get("remnant")]
    if kind == "breakdown":
        return [(str(data.get("division")), _ids(data.get("regiments")))]
    regiments = _ids(data.get("regiments"))
    if kind == "recombine" and regiments and any(set(regiments) <= set(units) for units in oos.values()):
        return [(regiments[0], [str(data.get("division"))])]
    return []


def leaving_kinds(pack: Any) -> dict[str, str]:
    """The pack's own event kinds that take units off the map (:attr:`OosTally.leaving`): the
    shared area ``unit_points``' removals (config ``unit_points``: ``disbanded``, data ``unit``;
    ``unsupplied``, data ``units`` — Moscow '41's remnants removed out of supply, 16.1B); {} when
    the pack has no such config."""
    from casebook.areas.unit_points import TALLY_CONFIG
    from casebook.content.packconfig import read_config

    if "unit_points" not in (pack.manifest.get("config") or {}):
        return {}
    config, _ = read_config(pack, "unit_points", TALLY_CONFIG)
    if config is None:
        return {}
    return {str(config.disbanded[0]): "unit", str(config.unsupplied[0]): "units"}
