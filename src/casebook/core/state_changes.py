"""The changes of a game state (:class:`StateChanges`, the half of
:class:`~casebook.core.state.GameState` that writes): every method a plugin changes a position
with — turn, weather, sequence position, tracks, units, markers, control, pending and removed
units, settings, plugin records, players, the dice position and the trace numbering.

Every change that the rules see draws a new :attr:`~casebook.core.state.GameState.version`
(the derived-map caches are keyed by it); unit lookups are kept right by the methods themselves.
"""

from __future__ import annotations

import copy
import functools
import itertools
import pickle
import re
from collections.abc import Mapping
from collections.abc import Mapping as _AbcMapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from casebook.core.state import TrackBound

__all__ = ["StateChanges", "HEX_RE"]

#: A printed hex label: column then row, two digits each (``"0303"``).
HEX_RE = re.compile(r"[0-9]{4}\Z")  # ASCII digits only, as parse_hex (str.isdigit takes "１２３４")
#: Version numbers: every state content gets a new one (:attr:`GameState.version`).
_VERSIONS = itertools.count(1)


def _unit_key(unit: Mapping[str, Any]) -> str | None:
    key = unit.get("id", unit.get("counter"))
    return key if isinstance(key, str) else None


def _copy(value: Any) -> Any:
    """A deep copy of position data (plain dicts, lists, scalars): a pickle round trip, about five
    times faster than ``copy.deepcopy`` on a whole state (taken before every action); anything
    pickle cannot take falls back to ``deepcopy``."""
    try:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(value)


def _plain(value: Any) -> Any:
    """A deep copy with ``None`` values dropped from mappings (unit records and the like)."""
    if isinstance(value, (str, int, float)):  # the common leaves, tested first (a hot path)
        return value
    if isinstance(value, _AbcMapping):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class StateChanges:
    """The changing methods of :class:`~casebook.core.state.GameState` (its base class)."""

    _d: dict[str, Any]
    _ix: tuple[Any, ...] | None
    _pickled: dict[str, tuple[Any, bytes]]
    _unit_views: tuple[Mapping[str, Any], ...] | None
    _version: int

    if TYPE_CHECKING:  # defined by GameState
        @property
        def turn(self) -> int: ...

        def has_unit(self, uid: str) -> bool: ...

        def _index(self) -> tuple[Any, ...]: ...

        def _bound(self, name: str) -> TrackBound | None: ...

    def _find(self, uid: str) -> dict[str, Any]:
        try:
            return self._index()[2][uid]
        except KeyError:
            raise KeyError(f"no unit {uid!r} on the map") from None

    def set_turn(self, turn: int) -> None:
        if not isinstance(turn, int) or turn < 1:
            raise ValueError(f"turn must be an int >= 1, got {turn!r}")
        self._d["turn"] = turn

    def set_weather(self, *, temperature: str | None = None, ground: str | None = None) -> None:
        """Set temperature and/or ground condition (the Weather Display, 0.7.1)."""
        w = dict(self._d["weather"] or {})
        if temperature is not None:
            w["temperature"] = temperature
        if ground is not None:
            w["ground"] = ground
        self._d["weather"] = w

    def set_sequence_position(self, phase: str, step: str, phasing: str | None) -> None:
        """Move to ``phase``/``step`` with ``phasing`` as phasing side (used by the sequence machine)."""
        self._d.update(phase=phase, step=step, phasing=phasing)

    def set_first_player(self, side: str) -> None:
        self._d["first_player"] = side

    def add_track(self, name: str, delta: int, *keys: str) -> int:
        """Add ``delta`` (may be negative) to track ``name`` at ``keys``; returns the new value.
        ``ValueError`` if it would leave the declared bounds (below 0 for an undeclared one; the
        caller checks the rule first), ``KeyError`` for a track the game does not declare."""
        label = ".".join((name, *keys))
        if not isinstance(delta, int) or isinstance(delta, bool):
            raise TypeError(f"{label}: delta must be an int, got {delta!r}")
        bound = self._bound(name)
        if bound is not None and bound.depth != len(keys):
            raise ValueError(f"track {name!r} is kept by {bound.depth} keys, got {keys}")
        holder, key = self._d, name
        for k in keys:
            if not isinstance(holder.get(key), dict):
                holder[key] = {}
            holder, key = holder[key], k
        old = holder.get(key, 0)
        value = old + delta
        low, high = (0, None) if bound is None else (bound.low, bound.high)
        if value < low:
            raise ValueError(f"{label} would go below {low} ({old} {delta:+d})")
        if high is not None and value > high:
            raise ValueError(f"{label} would go above {high} ({old} {delta:+d})")
        holder[key] = value
        return value

    def add_unit(self, unit: Mapping[str, Any]) -> None:
        """Put a unit on the map (plain data as in a position's ``units:`` list)."""
        key = _unit_key(unit)
        if key is None:
            raise ValueError("a unit needs an 'id' or a 'counter'")
        if self.has_unit(key):
            raise ValueError(f"unit {key!r} is already on the map")
        if "hex" in unit:
            self._check_hex(unit["hex"])
        record = _plain(dict(unit))
        self._d["units"].append(record)
        if self._unit_views is not None:
            self._unit_views = (*self._unit_views, MappingProxyType(record))
        if self._ix is not None:  # the new unit joins the lookups (probes add units one by one)
            by_id, by_hex, raw = self._ix
            view = MappingProxyType(record)
            raw[key], by_id[key] = record, view
            by_hex[record.get("hex")] = (*by_hex.get(record.get("hex"), ()), view)

    def update_unit(self, uid: str, **fields: Any) -> None:
        """Set status fields of a unit (``fatigued=True``, ``losses=2``); ``None`` removes a field."""
        unit = self._find(uid)
        for key in ("id", "counter"):
            if key in fields:
                raise ValueError(f"cannot change a unit's {key!r}")
        if fields.get("hex") is not None:
            self._check_hex(fields["hex"])
        for key, value in fields.items():
            if value is None:
                unit.pop(key, None)
            else:
                unit[key] = copy.deepcopy(value)
        if "hex" in fields:
            self._ix = None

    def move_unit(self, uid: str, hex_: str) -> None:
        """Place unit ``uid`` in hex ``hex_`` (a printed label like ``"0304"``)."""
        self.update_unit(uid, hex=hex_)

    def remove_unit(self, uid: str, reason: str, turn: int | None = None) -> Mapping[str, Any]:
        """Take a unit off the map into ``removed`` (reason: eliminated, withdrawn, rebuilding);
        returns its last data."""
        unit = self._find(uid)
        self._d["units"].remove(unit)
        self._unit_views = None
        self._ix = None
        self._d["removed"].append({"unit": uid, "reason": reason,
                                   "turn": self.turn if turn is None else turn})
        return MappingProxyType(unit)

    def add_pending(self, unit: str, turn: int, area: str | None = None) -> None:
        entry: dict[str, Any] = {"unit": unit, "turn": turn}
        if area is not None:
            entry["area"] = area
        self._d["pending"].append(entry)

    def take_pending(self, turn: int) -> list[dict[str, Any]]:
        """Remove and return the pending reinforcements due on ``turn`` (in order)."""
        due = [p for p in self._d["pending"] if p.get("turn") == turn]
        self._d["pending"] = [p for p in self._d["pending"] if p.get("turn") != turn]
        return due

    def add_marker(self, kind: str, hex_: str, **extra: Any) -> None:
        self._check_hex(hex_)
        self._d["markers"].append({"kind": kind, "hex": hex_, **extra})

    def remove_marker(self, kind: str, hex_: str) -> None:
        """Remove one marker of ``kind`` in ``hex_``; ``KeyError`` if there is none."""
        for m in self._d["markers"]:
            if m.get("kind") == kind and m.get("hex") == hex_:
                self._d["markers"].remove(m)
                return
        raise KeyError(f"no {kind} marker in {hex_}")

    def set_control(self, hex_: str, side: str | None) -> None:
        """Record who controls ``hex_`` (None: forget it)."""
        self._check_hex(hex_)
        if side is None:
            self._d["control"].pop(hex_, None)
        else:
            self._d["control"][hex_] = side

    def set_setting(self, name: str, value: Any) -> None:
        self._d["settings"][name] = value

    def plugin_data(self, plugin: str) -> Any:
        """The private plain-data record a plugin keeps in the state under its own name (a
        deep copy; ``None`` if it keeps none) — e.g. a combat awaiting the defender's support."""
        stored = self._d["plugin_state"].get(plugin)
        if stored is None:
            return None
        # the record is pickled once per stored value (set_plugin_data stores a new object and a
        # rollback a new state dict, so the identity test sees every change); each read unpickles
        kept = self._pickled.get(plugin)
        if kept is None or kept[0] is not stored:
            kept = self._pickled[plugin] = (stored, pickle.dumps(stored, pickle.HIGHEST_PROTOCOL))
        return pickle.loads(kept[1])

    def set_plugin_data(self, plugin: str, value: Any) -> None:
        """Store (or, with ``None``, drop) ``plugin``'s private record; it must be plain data
        (dicts, lists, str, int, bool) so it round-trips through a position file."""
        if value is None:
            self._d["plugin_state"].pop(plugin, None)
        else:
            self._d["plugin_state"][plugin] = _plain(_copy(value))

    def set_players(self, players: Mapping[str, str] | None) -> None:
        """Record who plays each side (``{"blue": "human", "red": "bot:random"}``; the
        tools' notation): a save resumed without naming the players keeps them."""
        self._d["players"] = dict(players) if players else None

    @property
    def players(self) -> Mapping[str, str]:
        """Who plays each side, as recorded by :meth:`set_players` (empty if unknown)."""
        return MappingProxyType(dict(self._d.get("players") or {}))

    def set_rng_state(self, value: int) -> None:
        """Store the generator state (used only by :mod:`casebook.core.dice`)."""
        self._d["rng"]["state"] = value

    def set_rng_fixed(self, faces: list[int]) -> None:
        """Store the fixed faces still to be rolled (used only by :mod:`casebook.core.dice`);
        none left drops the key."""
        if faces:
            self._d["rng"]["fixed"] = [int(f) for f in faces]
        else:
            self._d["rng"].pop("fixed", None)

    def next_trace_seq(self) -> int:
        """Return the next trace sequence number and advance the counter (dense numbering)."""
        seq = self._d["trace_seq"]
        self._d["trace_seq"] = seq + 1
        return seq

    @staticmethod
    def _check_hex(hex_: Any) -> None:
        if not isinstance(hex_, str) or not HEX_RE.match(hex_):
            raise ValueError(f"not a hex label (XXYY): {hex_!r}")


def _bumps_version(method: Any) -> Any:
    @functools.wraps(method)
    def wrapper(self: StateChanges, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        finally:
            self._version = next(_VERSIONS)

    return wrapper


# Mutators that change what the rules see (all but trace numbering and the dice position) draw a
# new version; those changing units keep the unit lookups right themselves (add_unit extends
# them, remove_unit and a change of hex drop them, other fields show through the live views).
for _name in [n for n in vars(StateChanges) if n.startswith(("set_", "add_", "update_", "move_", "remove_",
                                                          "take_"))]:
    if _name not in ("set_rng_state", "set_rng_fixed"):
        setattr(StateChanges, _name, _bumps_version(getattr(StateChanges, _name)))
del _name
