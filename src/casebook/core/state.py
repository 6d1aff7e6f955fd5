"""The game state: the whole position of a game as plain data.

A :class:`GameState` holds exactly what a position document holds (``docs/positions.md``): turn,
weather, phase/step, phasing side, first player, the game's tracks (each under its own name), units with
their hex and status flags, markers, control, pending reinforcements, removed units, settings, the
RNG state and the next trace sequence number. :meth:`GameState.from_dict` / :meth:`to_dict` use the
position document shape, so a save *is* a position file.

Reading is free (properties return read-only views). Every change goes through a method, which is
what plugins use. A state never holds a half-applied action: run an action inside
:meth:`GameState.transaction`; if it raises, the state (and any trace or journal passed in) is put
back exactly as it was.

The kernel names no game: the sides and tracks are the game's vocabulary's (docs/content-format.md,
"Vocabulary"), attached with :meth:`GameState.declare` (the engine does it); rules about them (who
may spend what) live in plugins and rule scripts. A track is read with :meth:`GameState.track`
and changed with :meth:`GameState.add_track`, checked against its declared bounds.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from casebook.core.errors import PositionError, Problem
from casebook.core.state_changes import _VERSIONS, HEX_RE, StateChanges, _copy, _plain, _unit_key

__all__ = ["GameState", "Journal", "TrackBound", "TOP_LEVEL_KEYS", "SAVE_MARK", "HEX_RE"]

#: Keys of a position document, in the order :meth:`GameState.to_dict` writes them.
TOP_LEVEL_KEYS: tuple[str, ...] = (
    "kind", "format", "game", "provenance", "scenario", "map", "turn", "weather", "phase", "step",
    "phasing", "first_player", "units", "markers", "control",
    "pending", "removed", "settings", "plugin_state", "rng", "trace_seq", "players",
)
#: A save file's mark (its first key, written by the tools' saves): the file's, not the state's —
#: read and dropped.
SAVE_MARK = "save"
_FIXED = frozenset((*TOP_LEVEL_KEYS, SAVE_MARK))
#: Where the tracks go among :data:`TOP_LEVEL_KEYS` (after ``first_player``).
_TRACKS_AT = TOP_LEVEL_KEYS.index("units")
#: Keys written only when set (``None`` = absent).
_OPTIONAL = frozenset({"provenance", "scenario", "map", "weather", "phase", "step", "phasing",
                       "first_player", "players"})
#: Lists of records whose ``None`` fields count as absent (pydantic dumps them).
_RECORD_LISTS = frozenset({"units", "markers", "pending", "removed"})


class Journal(Protocol):
    """Anything rolled back with a state: a :class:`~casebook.core.trace.Trace`, a hook-call list."""

    def __len__(self) -> int: ...


@dataclass(frozen=True)
class TrackBound:
    """A track's resolved bounds: ``depth`` (number of keys), ``low``, ``high`` (None: unbounded)
    and the cases that set them."""

    track: str
    low: int
    high: int | None
    cases: tuple[str, ...] = ()
    depth: int = 0


class GameState(StateChanges):
    """The mutable state of one game (see the module docstring).

    Build with :meth:`from_dict` (from a position document or ``model.model_dump()`` of the
    validating loader) or :meth:`clone`; compare with ``==`` (by :meth:`to_dict`).
    """

    def __init__(self, game: str) -> None:
        #: the game's sides and the resolved bounds of its tracks (:meth:`declare`), or None
        self._sides: tuple[str, ...] | None = None
        self._bounds: Mapping[str, TrackBound] | None = None
        #: a number unique to this state's content: every change (and a rollback) draws a new one
        self._version = next(_VERSIONS)
        #: lazily built lookups of units by id and by hex (dropped on every structural change)
        self._ix: tuple[Any, ...] | None = None
        self._pickled: dict[str, tuple[Any, bytes]] = {}
        #: read-only views of the units for :attr:`units` (live: rebuilt only when units are
        #: removed or the state rolled back; an added unit is appended)
        self._unit_views: tuple[Mapping[str, Any], ...] | None = None
        self._d: dict[str, Any] = {
            "kind": "position", "format": 1, "game": game, "provenance": None, "scenario": None,
            "map": None, "turn": 1, "weather": None, "phase": None, "step": None,
            "phasing": None, "first_player": None,
            "units": [], "markers": [], "control": {}, "pending": [], "removed": [],
            "settings": {}, "plugin_state": {}, "rng": {"seed": 0, "state": None}, "trace_seq": 0,
            "players": None,
        }

    # ------------------------------------------------------------------ plain data in and out
    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, file: str = "<position>",
                  sides: Sequence[str] | None = None,
                  tracks: Mapping[str, TrackBound] | None = None) -> GameState:
        """A state from a position document (plain dict). Draws no random numbers.

        Keys with value ``None`` count as absent (so a pydantic ``model_dump()`` loads too).
        ``sides`` and ``tracks`` (the game's, resolved bounds) are :meth:`declare`'d; a top-level
        key that is not the format's is a track: one of ``tracks`` when given, else any int or
        mapping. Raises :class:`PositionError` listing every problem: wrong kind/format, missing
        game, unknown top-level keys, units without ``id``/``counter``, duplicate unit ids.
        Deep validation (types, hexes on the map, counter ids) is ``casebook.content.position``'s job.
        """
        problems: list[Problem] = []

        def bad(key: str, msg: str) -> None:
            problems.append(Problem(file, 0, 0, key, msg))

        if d.get("kind", "position") != "position":
            bad("kind", f"expected 'position', got {d.get('kind')!r}")
        if d.get("format", 1) != 1:
            bad("format", f"expected 1, got {d.get('format')!r}")
        if not isinstance(d.get("game"), str):
            bad("game", "required: the game id (the pack's id)")
        for key in d:
            if key not in _FIXED and not (key in tracks if tracks is not None
                                          else isinstance(d[key], (int, Mapping, type(None)))):
                bad(str(key), "unknown key")
        seen: set[str] = set()
        for i, unit in enumerate(d.get("units") or []):
            unit_key = _unit_key(unit) if isinstance(unit, Mapping) else None
            if unit_key is None:
                bad(f"units.{i}", "a unit needs an 'id' or a 'counter'")
            elif unit_key in seen:
                bad(f"units.{i}", f"duplicate unit id {unit_key!r}")
            else:
                seen.add(unit_key)
        if problems:
            raise PositionError(problems)
        state = cls(d["game"])
        for key in d:
            if d.get(key) is not None and key != SAVE_MARK:
                value = d[key]
                state._d[key] = _plain(value) if key in _RECORD_LISTS else copy.deepcopy(value)
        if tracks is not None or sides is not None:
            state.declare(sides or (), tracks or {})
        state._d["rng"].setdefault("seed", 0)
        state._d["rng"].setdefault("state", None)
        return state

    def to_dict(self) -> dict[str, Any]:
        """The state as a position document (deep copy, keys in :data:`TOP_LEVEL_KEYS` order, the
        tracks after ``first_player`` in their declared order; unset optional keys omitted).
        ``GameState.from_dict(s.to_dict()) == s``."""
        d = self._d
        names = self._track_names()
        order = [*TOP_LEVEL_KEYS[:_TRACKS_AT], *names, *TOP_LEVEL_KEYS[_TRACKS_AT:]]
        return {k: copy.deepcopy(d[k]) for k in order
                if not (k in _OPTIONAL and d[k] is None) and not (k == "plugin_state" and not d[k])}

    def _track_names(self) -> list[str]:
        names = [k for k in self._d if k not in _FIXED]
        if self._bounds:
            declared = list(self._bounds)
            names.sort(key=lambda n: declared.index(n) if n in declared else len(declared))
        return names

    @property
    def declared(self) -> bool:
        """Whether the game's sides and tracks are attached (:meth:`declare`)."""
        return self._bounds is not None

    def declare(self, sides: Sequence[str], tracks: Mapping[str, TrackBound]) -> None:
        """Attach the game's ``sides`` (the vocabulary's, in order) and the resolved bounds of its
        ``tracks`` (:func:`casebook.content.tracks.track_bounds`); a declared track the state lacks
        starts empty (0, or ``{}`` when kept by keys). Changes nothing the rules see."""
        self._sides = tuple(sides) or None
        self._bounds = tracks
        for name, bound in tracks.items():
            if self._d.get(name) is None:
                self._d[name] = {} if bound.depth else 0

    def clone(self) -> GameState:
        """An independent copy."""
        other = GameState(self.game)
        other._sides, other._bounds = self._sides, self._bounds
        other._d = _copy(self._d)
        other._ix = None
        other._version = self._version  # same content: derived maps computed for it still hold
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (f"GameState(game={self.game!r}, turn={self.turn}, phase={self.phase!r}, "
                f"step={self.step!r}, units={len(self._d['units'])})")

    # ------------------------------------------------------------------ transactions
    @contextmanager
    def transaction(self, *journals: Any) -> Iterator[GameState]:
        """Run an action all-or-nothing.

        ``with state.transaction(trace): ...`` — if the block raises, the state is restored to
        what it was on entry and every journal (anything with ``len()`` and ``truncate(n)``, or a
        plain ``list``) is cut back to its length on entry; the exception propagates
        (typically :class:`~casebook.core.errors.IllegalActionError`). Nests.
        """
        saved = _copy(self._d)
        lengths = [len(j) for j in journals]
        try:
            yield self
        except BaseException:
            self._d = saved
            self._ix = None
            self._unit_views = None
            self._version = next(_VERSIONS)
            for journal, n in zip(journals, lengths):
                if isinstance(journal, list):
                    del journal[n:]
                else:
                    journal.truncate(n)
            raise

    @property
    def version(self) -> int:
        """A number identifying this content of the state: any change through a method draws a
        new one (trace numbering and the dice generator's position excepted), so derived maps
        (ZOC, supply) can be cached per version (``casebook.script.engine.Ctx.memo``)."""
        return self._version

    def touch(self) -> None:
        """Draw a new :attr:`version` without changing anything: for a change the state cannot
        see (a test double's answers, say) that must invalidate caches."""
        self._version = next(_VERSIONS)

    # ------------------------------------------------------------------ read-only views
    game = property(lambda self: self._d["game"], doc="The game id.")
    turn = property(lambda self: self._d["turn"], doc="The current Game-Turn (int >= 1).")
    phase = property(lambda self: self._d["phase"], doc="Current phase id (None: not started).")
    step = property(lambda self: self._d["step"], doc="Current step id of that phase.")
    phasing = property(lambda self: self._d["phasing"], doc="The phasing side, or None.")
    first_player = property(lambda self: self._d["first_player"],
                            doc="The first player this turn (0.7.1.3), or None.")
    trace_seq = property(lambda self: self._d["trace_seq"], doc="Next trace sequence number.")

    @property
    def weather(self) -> Mapping[str, str] | None:
        """``{"temperature": …, "ground": …}`` or None before the first weather phase."""
        w = self._d["weather"]
        return None if w is None else MappingProxyType(w)

    @property
    def scenario(self) -> Any:
        """The scenario block (plain data, deep copy) or None."""
        return copy.deepcopy(self._d["scenario"])

    @property
    def scenario_id(self) -> str | None:
        """The scenario block's ``id`` (no copy of the block: read at every rule evaluation)."""
        sc = self._d["scenario"]
        found = sc.get("id") if isinstance(sc, Mapping) else None
        return None if found is None else str(found)

    @property
    def map(self) -> Any:
        """The inline map (plain data, deep copy) or None (= the pack's map)."""
        return copy.deepcopy(self._d["map"])

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides of the game: the declared ones (:meth:`declare`); undeclared, the units' (sorted)
        when they show two, else the keys of the first track kept by side (a mapping of ints)."""
        if self._sides:
            return self._sides
        found = tuple(sorted({u["side"] for u in self._d["units"] if "side" in u}))
        if len(found) < 2:
            for name in self._track_names():
                value = self._d[name]
                if isinstance(value, dict) and value and all(isinstance(v, int) for v in value.values()):
                    return tuple(value)
        return found

    def other_side(self, side: str) -> str:
        """The opponent of ``side``; ``ValueError`` unless there are exactly two sides."""
        sides = self.sides
        if len(sides) != 2 or side not in sides:
            raise ValueError(f"cannot tell the opponent of {side!r} among sides {sides}")
        return sides[1] if side == sides[0] else sides[0]

    def track(self, name: str, *keys: str) -> int:
        """The value of track ``name`` at ``keys`` (as declared: ``state.track("supply_points",
        "blue")``; a single counter takes none); 0 where unset, and for a track the game does not
        declare (a shared rules area reads a track some games lack: it has none of it; changing
        one is a ``KeyError``, :meth:`add_track`). ``ValueError`` for too few or too many keys."""
        value = self._d.get(name)
        if value is None:
            return 0
        for key in keys:
            if not isinstance(value, dict):
                raise ValueError(f"track {name!r} is kept by fewer keys than {keys}")
            value = value.get(key)
            if value is None:  # unset at this key (e.g. no RPs of a side yet): 0
                return 0
        if isinstance(value, dict):
            raise ValueError(f"track {name!r} is kept by more keys than {keys}")
        return value

    def tracks(self) -> Mapping[str, Any]:
        """Every track of the state: name -> its value (an int, or nested mappings by its keys;
        a deep copy), in declared order."""
        return MappingProxyType({n: copy.deepcopy(self._d[n]) for n in self._track_names()})

    def _bound(self, name: str) -> TrackBound | None:
        if self._bounds is None:
            return None
        try:
            return self._bounds[name]
        except KeyError:
            raise KeyError(f"no track {name!r} in this game (tracks: {', '.join(self._bounds) or 'none'})") from None

    @property
    def units(self) -> tuple[Mapping[str, Any], ...]:
        """All units on the map, in order, as read-only mappings (the same tuple until units are
        added or removed: hot loops ask for it thousands of times a step; the views are live)."""
        views = self._unit_views
        if views is None:
            views = self._unit_views = tuple(MappingProxyType(u) for u in self._d["units"])
        return views

    def unit(self, uid: str) -> Mapping[str, Any]:
        """The unit with ``id`` (or ``counter``) ``uid``; ``KeyError`` if not on the map."""
        try:
            return self._index()[0][uid]
        except KeyError:
            raise KeyError(f"no unit {uid!r} on the map") from None

    def has_unit(self, uid: str) -> bool:
        return uid in self._index()[0]

    def units_at(self, hex_: str) -> tuple[Mapping[str, Any], ...]:
        """The units in hex ``hex_`` (a stack), in order."""
        return self._index()[1].get(hex_, ())

    def _index(self) -> tuple[dict[str, Mapping[str, Any]], dict[str, tuple[Mapping[str, Any], ...]],
                              dict[str, dict[str, Any]]]:
        """Read-only views of the units by id and by hex, and the records by id (rebuilt after
        a unit changes: a view shows its record live)."""
        if self._ix is None:
            by_id: dict[str, Mapping[str, Any]] = {}
            raw: dict[str, dict[str, Any]] = {}
            by_hex: dict[str, list[Mapping[str, Any]]] = {}
            for u in self._d["units"]:
                view = MappingProxyType(u)
                key = _unit_key(u)
                if key is not None and key not in raw:
                    raw[key] = u
                    by_id[key] = view
                by_hex.setdefault(u.get("hex"), []).append(view)
            self._ix = (by_id, {h: tuple(us) for h, us in by_hex.items()}, raw)
        return self._ix

    @property
    def markers(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(MappingProxyType(m) for m in self._d["markers"])

    def control(self, hex_: str) -> str | None:
        """The side that controls ``hex_``, if recorded."""
        return self._d["control"].get(hex_)

    @property
    def pending(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(MappingProxyType(p) for p in self._d["pending"])

    @property
    def removed(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(MappingProxyType(r) for r in self._d["removed"])

    def setting(self, name: str, default: Any = None) -> Any:
        """An interpretation switch (interpretations register), or ``default``."""
        return self._d["settings"].get(name, default)

    @property
    def rng(self) -> Mapping[str, Any]:
        """``{"seed": int, "state": int | None}`` — see :mod:`casebook.core.dice`."""
        return MappingProxyType(self._d["rng"])
