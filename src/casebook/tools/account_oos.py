"""The units out of supply, per side, as the account follows the trace: the turn summary's ``out of
supply`` line (a fresh user's check, session 19: the account's supply line stopped after 8 names
and the turn summary had no OOS line, so an encirclement could not be seen without asking unit by
unit). Split from :mod:`casebook.tools.account` (at its 400 lines).

The events followed are the supply marking's (``oos-marking``: Moscow '41's 5.5A–5.5D, data
``marked`` / ``restored`` / ``eliminated`` unit ids, the event's side the units' side) and the
eliminations the account counts as losses (a unit eliminated leaves the list). A unit already out
of supply when the trace began (a position file played without its trace) is not known."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["OosTally", "OOS_KIND"]

#: The event kind that marks and restores units' supply (its data: lists of unit ids).
OOS_KIND = "oos-marking"


class OosTally:
    """side -> the ids of its units out of supply now (in the order they were marked)."""

    def __init__(self) -> None:
        self.units: dict[str, list[str]] = {}

    def see(self, event: Any, undo: bool = False) -> None:
        """Follow one trace event (``undo``: take it back, as the account's ``forget``)."""
        data = event.data if isinstance(event.data, Mapping) else {}
        if event.kind == OOS_KIND and event.side:
            marked, off = _ids(data.get("marked")), _ids(data.get("restored")) + _ids(data.get("eliminated"))
            self._change(str(event.side), off if undo else marked, marked if undo else off)
        elif not undo:
            for side, loss in _eliminations(event):
                self._change(side, [], [loss])

    def _change(self, side: str, add: Iterable[str], remove: Iterable[str]) -> None:
        units = self.units.setdefault(side, [])
        gone = set(remove)
        units[:] = [u for u in units if u not in gone] + [u for u in add if u not in units]

    def lines(self) -> list[str]:
        """``    out of supply: german 2 (g-6pz, g-7pz); soviet none`` — every unit, no cut — or
        nothing when no unit was ever marked."""
        if not self.units:
            return []
        sides = [f"{s} {len(u)} ({', '.join(u)})" if u else f"{s} none" for s, u in sorted(self.units.items())]
        return [f"    out of supply: {'; '.join(sides)}"]


def _ids(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _eliminations(event: Any) -> list[tuple[str, str]]:
    """(side, unit id) of each unit ``event`` eliminates, as the account's losses read them."""
    from casebook.tools.account import combat_losses

    if event.kind == "combat-results":
        pairs = combat_losses(event.data)
    elif event.kind in ("combat-loss", "eliminated") and event.side:
        pairs = [(str(event.side), f"{event.data.get('unit')} {event.data.get('effect', 'eliminated')}")]
    else:
        return []
    return [(side, loss.rsplit(" ", 1)[0]) for side, loss in pairs if loss.endswith(" eliminated") or "remnant" in loss]
