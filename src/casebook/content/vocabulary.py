"""A game's vocabulary: the sides, unit classes and sizes, weather kinds, marker kinds, tracks and
unit flags it uses.

The core names no game. What a game calls its sides (with their names, counter colours and the
map edge each supplies from or retreats towards, where a rule needs one), its unit classes and
sizes, its temperatures and ground conditions and its marker kinds is declared in the manifest's
``vocabulary:`` block (docs/content-format.md, "Vocabulary")::

    vocabulary:
      sides:
        blue: {name: Blue, colour: "#9db4d9", ink: "#10203a", edge: west}
        red:  {name: Red,  colour: "#e0a090", ink: "#3a1010", edge: east}
      unit_classes: [infantry, armor, hq]
      unit_sizes: [division, corps]
      temperatures: [warm]
      grounds: [dry, mud]
      markers: [fortification]
      tracks:
        supply_points: {keys: [side], low: 0, high: 12, provenance: "reconstructed: the example"}
      unit_flags: [veteran]
      hex_sets: [capital]

Counters, positions and scenarios are checked against it (:func:`vocabulary_problems`): a side,
class, size, weather kind or marker kind it does not list is an error at its ``file:line:column``
with a "did you mean". A list left out (or empty) is not checked. Tracks are
:mod:`casebook.content.tracks`' (a position keeps each at its top level under its name); a unit flag is
a boolean status a unit on the map may carry (``veteran: true``) beside the position format's own
(``fatigued``, ``oos``, ``activated``, ``reserve``: ``schema_position.UNIT_FLAGS``); a hex set is
a named list of hexes the map declares at its top level (``capital: ["0505"]``), read by rules
through ``board.hex_set(name)``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casebook.content.tracks import TrackDecl, tracks_of

__all__ = ["SideInfo", "Vocabulary", "vocabulary_of", "vocabulary_problems", "choice_problem", "map_key_problems"]


@dataclass(frozen=True)
class SideInfo:
    """One side: ``id``, display ``name``, counter ``colour`` and ``ink`` (CSS colours) and the map
    ``edge`` (north/east/south/west) it supplies from or retreats towards, or None."""

    id: str
    name: str
    colour: str = "#dddddd"
    ink: str = "#111111"
    edge: str | None = None


@dataclass(frozen=True)
class Vocabulary:
    """The names a game uses; an empty tuple means "not declared: not checked"."""

    sides: tuple[SideInfo, ...] = ()
    unit_classes: tuple[str, ...] = ()
    unit_sizes: tuple[str, ...] = ()
    temperatures: tuple[str, ...] = ()
    grounds: tuple[str, ...] = ()
    markers: tuple[str, ...] = field(default=())
    tracks: Mapping[str, TrackDecl] = field(default_factory=dict)
    unit_flags: tuple[str, ...] = ()
    hex_sets: tuple[str, ...] = ()
    #: terrain id or hex set -> {"name", "colour", "label"?}: how the map draws it (``styles:``)
    styles: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def side_ids(self) -> tuple[str, ...]:
        """The side ids, in the manifest's order."""
        return tuple(s.id for s in self.sides)

    def side(self, side_id: str) -> SideInfo:
        """The :class:`SideInfo` of ``side_id``; ``KeyError`` naming the known sides."""
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(f"unknown side {side_id!r} (sides: {', '.join(self.side_ids) or 'none declared'})")


def vocabulary_of(manifest: Mapping[str, Any]) -> Vocabulary:
    """The :class:`Vocabulary` of a (validated) manifest mapping; empty when it declares none."""
    v = manifest.get("vocabulary") or {}
    sides = tuple(SideInfo(id=str(sid), name=str(info.get("name") or sid),
                           colour=str(info.get("colour") or SideInfo.colour),
                           ink=str(info.get("ink") or SideInfo.ink), edge=info.get("edge"))
                  for sid, info in (v.get("sides") or {}).items())

    def names(key: str) -> tuple[str, ...]:
        return tuple(str(x) for x in v.get(key) or ())

    styles = {str(k): {f: str(x) for f, x in info.items() if x is not None}
              for k, info in (v.get("styles") or {}).items() if isinstance(info, Mapping)}
    return Vocabulary(sides, names("unit_classes"), names("unit_sizes"), names("temperatures"),
                      names("grounds"), names("markers"), tracks_of(v), names("unit_flags"),
                      names("hex_sets"), styles)


def choice_problem(value: Any, allowed: Sequence[str]) -> str | None:
    """None when ``value`` is one of ``allowed`` (or nothing is declared); else the message
    ``expected 'a', 'b' or 'c', got 'x' (did you mean 'a'?)``."""
    if not allowed or value in allowed:
        return None
    from casebook.content.schema import describe, did_you_mean

    listed = ", ".join(repr(a) for a in allowed[:-1]) + (" or " if len(allowed) > 1 else "") + repr(allowed[-1])
    hint = did_you_mean(value, allowed) if isinstance(value, str) else ""
    return f"expected {listed}, got {describe(value)}{hint}"


Report = Callable[[tuple[Any, ...], str], None]


def map_key_problems(vocab: Vocabulary, map_data: Mapping[str, Any], report: Report,
                     base: tuple[Any, ...] = ()) -> None:
    """Every top-level key of ``map_data`` that is neither the map format's nor a hex set the
    vocabulary declares, reported at ``(*base, key)`` with a did-you-mean."""
    from casebook.content.mapdata import MAP_KEYS
    from casebook.content.schema import did_you_mean

    for key in map_data:
        if key not in MAP_KEYS and key not in vocab.hex_sets:
            hint = did_you_mean(str(key), [*sorted(MAP_KEYS), *vocab.hex_sets])
            report((*base, key), f"unknown key {key!r}: not a key of a map nor a hex set this game declares "
                   f"(hex_sets: {', '.join(vocab.hex_sets) or 'none'}){hint}")


def vocabulary_problems(vocab: Vocabulary, units: Iterable[tuple[tuple[Any, ...], Mapping[str, Any]]],
                        report: Report, *, weather: Mapping[str, Any] | None = None,
                        markers: Iterable[tuple[tuple[Any, ...], Any]] = (),
                        sides: Iterable[tuple[tuple[Any, ...], Any]] = (),
                        unit_fields: Collection[str] | None = None) -> None:
    """Check names against ``vocab``, calling ``report(key_path, message)`` for each problem:
    ``units`` as ``(key_path, unit mapping)`` (side, class, size; with ``unit_fields``, the keys
    of the format, every other key must be a declared unit flag with a bool value), the
    ``weather`` mapping (temperature, ground), ``markers`` as ``(key_path, kind)`` and other
    ``sides`` as ``(key_path, side)`` (a position's phasing side and control keys)."""
    side_ids = vocab.side_ids
    for path, unit in units:
        fields: Collection[str] = unit_fields or ()
        for key in unit if unit_fields is not None else ():
            if key in fields:
                continue
            if key not in vocab.unit_flags:
                from casebook.content.schema import did_you_mean

                hint = did_you_mean(str(key), [*fields, *vocab.unit_flags])
                if isinstance(unit[key], bool):  # a value of another type: the schema's problem
                    report((*path, key), f"unknown key {key!r}: not a field of a unit nor a unit flag this game "
                           f"declares (unit_flags: {', '.join(vocab.unit_flags) or 'none'}){hint}")
        for key, allowed in (("side", side_ids), ("class", vocab.unit_classes), ("size", vocab.unit_sizes)):
            value = unit.get(key)
            if value is None:
                continue
            msg = choice_problem(value, allowed)
            if msg:
                report((*path, key), msg)
    for key, allowed in (("temperature", vocab.temperatures), ("ground", vocab.grounds)):
        if weather and weather.get(key) is not None:
            msg = choice_problem(weather[key], allowed)
            if msg:
                report(("weather", key), msg)
    for path, kind in markers:
        msg = choice_problem(kind, vocab.markers)
        if msg:
            report(path, msg)
    for path, side in sides:
        msg = choice_problem(side, side_ids)
        if msg:
            report(path, msg)
