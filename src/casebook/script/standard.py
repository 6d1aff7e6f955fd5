"""The standard facts: what the engine gives every rule-script evaluation, whoever calls it.

A fact declared in ``facts.yaml`` with ``provider: engine`` is read from the game state — the
turn, the weather, the phasing side, the scenario — and one with ``provider: setting`` is the
interpretation setting of the same name (the position's value, else the register's reading).
A plugin never has to pass them, and a script may read them in every quantity and permission;
facts a plugin passes win over the standard ones of the same name. Any other fact names its
plugin as ``provider:`` and is only there when that plugin's call gives it
(``casebook rules check`` holds the scripts to the declared ``inputs:`` of each call).

:class:`StandardFacts` is a read-only mapping over a live state, looked up only when a line
reads a standard fact the caller did not pass (no copying of facts on the hot path).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

__all__ = ["ENGINE_FACTS", "POSITION_FIELDS", "ENGINE_COLLECTIONS", "KEPT", "STANDARD_PROVIDERS", "StandardFacts",
           "setting_defaults", "keep"]

#: The facts ``provider: engine`` may name, with what each is (the game's facts.yaml gives types).
ENGINE_FACTS: Mapping[str, str] = {
    "turn": "the current Game-Turn (an int from 1)",
    "temperature": "the Temperature of the turn's weather (absent before the first Weather Phase)",
    "ground": "the ground condition of the turn's weather (absent before the first Weather Phase)",
    "phasing_side": "the phasing side (absent outside a player turn)",
    "first_player": "the side that moves first this turn (absent before it is decided)",
    "scenario_id": "the id of the scenario being played (its `scenario: id:`)",
}

#: The position field each engine fact is read from (docs/positions.md): a position that lacks
#: it leaves the fact absent, and a rule reading the fact then names the field to add.
POSITION_FIELDS: Mapping[str, tuple[str, str]] = {
    "turn": ("turn", "turn: 1"),
    "temperature": ("weather", "weather: {temperature: …, ground: …}"),
    "ground": ("weather", "weather: {temperature: …, ground: …}"),
    "phasing_side": ("phasing", "phasing: SIDE"),
    "first_player": ("first_player", "first_player: SIDE"),
}

#: The collections (``type: records``) ``provider: engine`` may name: every record has a ``hex``
#: field (a hex label), so spatial terms (``within``, ``distance to nearest``) apply to them.
ENGINE_COLLECTIONS: Mapping[str, str] = {
    "map_units": "every unit on the map: the unit's own fields (side, class, size, ...) and its hex",
    "map_hexes": "every hex of the map: hex, terrain, town (the town's kind, `none` if no town)",
}

#: The ``provider:`` values whose facts are standard (given to every evaluation): ``track`` reads
#: the track named by ``of:`` (at ``keys:``, for a keyed track), ``markers`` counts the markers of the kind ``of:`` on the map.
STANDARD_PROVIDERS = frozenset({"engine", "setting", "track", "markers"})


class _State(Protocol):
    """What :class:`StandardFacts` reads of a :class:`casebook.core.state.GameState`."""

    @property
    def turn(self) -> int: ...
    @property
    def weather(self) -> Mapping[str, str] | None: ...
    @property
    def phasing(self) -> str | None: ...
    @property
    def first_player(self) -> str | None: ...
    @property
    def scenario(self) -> Any: ...
    def setting(self, name: str, default: Any = None) -> Any: ...


_ABSENT = object()

#: The entries kept per cache (a few state versions' worth): every writer goes through :func:`keep`.
KEPT = 8


def keep(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    """Put ``value`` under ``key`` in a shared cache (:attr:`StandardFacts.cache`), the oldest
    entries going while more than :data:`KEPT` are held (versions only grow); returns ``value``."""
    cache[key] = value
    while len(cache) > KEPT:
        del cache[next(iter(cache))]
    return value


class StandardFacts(Mapping[str, Any]):
    """The standard facts of one live ``state``: the :data:`ENGINE_FACTS` and every setting
    (``defaults``: the register's value of each setting, name -> value). A fact the state does
    not have yet (the weather before the first Weather Phase) is absent: ``KeyError``."""

    __slots__ = ("_state", "_defaults", "_derived", "board", "cache", "hexes")

    def __init__(self, state: _State, defaults: Mapping[str, Any], board: Any = None,
                 derived: Mapping[str, tuple[str, ...]] | None = None,
                 cache: dict[Any, Any] | None = None) -> None:
        self._state = state
        self._defaults = defaults
        #: fact -> (``track`` | ``markers``, the track or marker kind), from facts.yaml
        self._derived = derived or {}
        #: the game's :class:`casebook.core.board.Board` (``None``: no spatial terms)
        self.board = board
        #: derived data of spatial terms, keyed by what they depend on (the state's version); the
        #: engine gives every context of a game the same one (at most :data:`KEPT` entries)
        self.cache: dict[Any, Any] = {} if cache is None else cache
        #: the board's cache of what the map says of each hex (:func:`casebook.script.spatial.hex_facts`)
        self.hexes: dict[str, tuple[str, str, str]] | None = None
        if board is not None:
            from . import spatial

            self.hexes = spatial.hex_facts(board)

    @property
    def version(self) -> Any:
        """The state's content version (:attr:`casebook.core.state.GameState.version`)."""
        return getattr(self._state, "version", None)

    def records(self, name: str, fields: tuple[tuple[str, Any], ...]) -> list[dict[str, Any]]:
        """The engine collection ``name`` (:data:`ENGINE_COLLECTIONS`) as records holding exactly
        ``fields`` (field -> the value when a unit or hex has none), cached per state version.
        ``KeyError`` for another name or without a board."""
        key = ("records", name, fields, self.version, id(self.board))
        out = self.cache.get(key)
        if out is not None:
            return out
        if name == "map_units":
            units = getattr(self._state, "units", ())
            names = [f for f, _ in fields]
            blanks = [d for _, d in fields]
            out = [dict(zip(names, map(u.get, names, blanks))) for u in units if "hex" in u]
        elif name == "map_hexes" and self.board is not None:
            from casebook.core.hexgrid import hex_label

            out = []
            for h in self.board.hexes():
                info = self.board.hex(h)
                town = info.town.get("kind", "town") if info.town else "none"
                rec = {"hex": hex_label(h), "terrain": info.terrain, "town": town}
                out.append({f: rec.get(f, d) for f, d in fields})
        else:
            raise KeyError(name)
        return keep(self.cache, key, out)

    def unit_views(self) -> Any:
        """The position's units as read-only views (``map_units``' records are those with a
        ``hex``, each holding the collection's fields): what ``any``/``all``/``no`` reads instead of
        the records when every field it reads is there (:mod:`casebook.script.aggregates`)."""
        return getattr(self._state, "units", ())

    def __getitem__(self, name: str) -> Any:
        st = self._state
        if name in ENGINE_COLLECTIONS:
            raise KeyError(name)  # read through records(), which knows the declared fields
        value: Any
        if name == "turn":
            value = st.turn
        elif name in ("temperature", "ground"):
            w = st.weather
            value = _ABSENT if w is None else w.get(name, _ABSENT)
        elif name == "phasing_side":
            value = st.phasing
        elif name == "first_player":
            value = st.first_player
        elif name == "scenario_id":
            if hasattr(st, "scenario_id"):  # a GameState: no deep copy of the scenario block
                value = st.scenario_id
            else:
                sc = st.scenario
                value = sc.get("id") if isinstance(sc, Mapping) else None
        elif name in self._derived:
            provider, of, *keys = self._derived[name]
            live: Any = st
            if provider == "track":
                value = live.track(of, *keys)
            else:
                value = len([m for m in live.markers if m.get("kind") == of])
        else:
            value = st.setting(name, self._defaults.get(name, _ABSENT))
        if value is None or value is _ABSENT:
            raise KeyError(name)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter([n for n in [*ENGINE_FACTS, *self._derived, *self._defaults] if n in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, name: object) -> bool:
        try:
            self[str(name)]
        except KeyError:
            return False
        return True


def setting_defaults(interpretations: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """name -> the register's reading (``setting.value``) of every setting of an interpretations
    register (the pack's ``interpretations``: id -> entry)."""
    out: dict[str, Any] = {}
    for entry in interpretations.values():
        spec = entry.get("setting")
        if isinstance(spec, Mapping) and "name" in spec and "value" in spec:
            out[str(spec["name"])] = spec["value"]
    return out
