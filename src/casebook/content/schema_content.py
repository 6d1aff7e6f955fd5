"""Schemas of the pack files (docs/content-format.md): game, cases, sequence, map, counters,
table, records, errata, interpretations, gazetteer.

Only the *shape* is checked here (types, allowed keys and values); what spans files (case ids
exist, hexes are on the map, hexsides adjacent, table cells complete) is checked by
:mod:`casebook.content.loader` and :mod:`casebook.content.schema`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, field_validator, model_validator

from casebook.content.schema_base import (
    CaseId,
    Colour,
    HexLabel,
    Model,
    Scalar,
    Side,
    Slug,
    UnitClass,
    UnitSize,
    _check_provenance,
)

__all__ = [
    "GameFile",
    "CasesFile",
    "CaseEntry",
    "SequenceFile",
    "Phase",
    "Step",
    "Loop",
    "MapBody",
    "MapFile",
    "Hexside",
    "Town",
    "CountersFile",
    "CounterUnit",
    "TableFile",
    "Dim",
    "RecordsFile",
    "ErrataFile",
    "Patch",
    "InterpretationsFile",
    "Interpretation",
    "GazetteerFile",
]


def _check_plugin(name: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):  # as src/casebook/core/hooks.py resolve_plugin: no _helpers
        raise ValueError(f"a plugin is named by a registered name like 'weather', never a path "
                         f"nor a private _module; got {name!r}")
    return name


def _check_relpath(path: str) -> str:
    if path.startswith("/") or "\\" in path:
        raise ValueError(f"expected a path relative to the pack, got {path!r}")
    return path


PluginName = Annotated[str, AfterValidator(_check_plugin)]
RelPath = Annotated[str, AfterValidator(_check_relpath)]


class _File(Model):
    format: Literal[1]


# --- game.yaml --------------------------------------------------------------------------------
class SideEntry(Model):
    """A side of the game's vocabulary: display name, counter colours, map edge (supply/retreat)."""

    name: str
    colour: Colour | None = None
    ink: Colour | None = None
    edge: Literal["north", "east", "south", "west"] | None = None


class TrackEntry(Model):
    """A track of the game's vocabulary (casebook.content.tracks): what it is kept by (``side`` or a
    list of names, outermost first), its bounds (``high``: an int or a script quantity's name)."""

    keys: list[Literal["side"] | list[Slug]] = []
    low: int = 0
    high: int | Slug | None = None

    @model_validator(mode="after")
    def _bounds_in_order(self) -> TrackEntry:
        if isinstance(self.high, int) and self.high < self.low:
            raise ValueError(f"the track's bounds are reversed: low {self.low} is above high {self.high}")
        return self


class MapStyle(Model):
    """How ``casebook render`` (and the browser) draws a terrain id or a named hex set of the map:
    the legend's ``name``, the fill ``colour``, and for a hex set an optional ``label`` written over
    it (e.g. a capital's name)."""

    name: str
    colour: Colour
    label: str | None = None


class VocabularyBlock(Model):
    """The names a game uses (casebook.content.vocabulary): sides, unit classes and sizes, weather
    kinds, marker kinds, tracks and unit flags."""

    sides: dict[Slug, SideEntry] = Field(min_length=1)

    @field_validator("sides")
    @classmethod
    def _two_sides(cls, sides: dict[str, SideEntry]) -> dict[str, SideEntry]:
        if len(sides) != 2:
            raise ValueError(f"a game has exactly two sides (the engine's opponent of a side is the other one); "
                             f"got {len(sides)}: {', '.join(sides)}")
        return sides
    unit_classes: list[Slug] = []
    unit_sizes: list[Slug] = []
    temperatures: list[Slug] = []
    grounds: list[Slug] = []
    markers: list[Slug] = []
    tracks: dict[Slug, TrackEntry] = {}
    unit_flags: list[Slug] = []
    hex_sets: list[Slug] = []
    styles: dict[Slug, MapStyle] = {}


class GameFile(_File):
    kind: Literal["game"]
    id: Slug
    name: str
    version: str
    cases: RelPath
    sequence: RelPath
    map: RelPath
    counters: RelPath
    tables: list[RelPath] = []
    scenarios: dict[Slug, RelPath] = {}
    #: question -> the example of it `casebook ask GAME --help` quotes (``why``: an action's notation)
    examples: dict[Slug, str] = {}
    errata: list[RelPath] = []
    interpretations: RelPath | None = None
    gazetteer: RelPath | None = None
    plugins: list[PluginName] = []
    rules_dir: str | None = None
    rules: list[RelPath] = []
    #: a plugin's or area's configuration file by name (:mod:`casebook.content.packconfig`)
    config: dict[Slug, RelPath] = {}
    vocabulary: VocabularyBlock
    #: area -> step -> cases the shared area cites for that step (src/casebook/areas/_game_cases.py)
    area_cases: dict[Slug, dict[Slug, list[CaseId]]] = {}
    #: area -> function -> cases its Python implements for this game (counted by `casebook cases`)
    area_procedures: dict[Slug, dict[Slug, list[CaseId]]] = {}
    #: case -> why only Python implements it, no rule line (printed by `casebook cases`)
    python_only: dict[CaseId, str] = {}


# --- cases.yaml -------------------------------------------------------------------------------
class CaseEntry(Model):
    id: CaseId
    kind: Literal["part", "component", "narrative", "rule", "errata"]
    leaf: bool
    title: str


def _loose_provenance(text: str) -> str:
    if not re.match(r"^(rulebook|errata|reconstructed):\s*\S", text):
        raise ValueError(f"provenance must start with 'rulebook:', 'errata:' or 'reconstructed:', got {text!r}")
    return text


class CasesFile(_File):
    kind: Literal["cases"]
    # the case index is the numbering itself, so its own provenance need not cite a case
    provenance: Annotated[str, AfterValidator(_loose_provenance)] | None = None
    cases: list[CaseEntry]


# --- sequence.yaml ----------------------------------------------------------------------------
class Step(Model):
    id: Slug
    case: CaseId
    name: str | None = None


class Loop(Model):
    from_: Slug = Field(alias="from")
    to: Slug
    case: CaseId


class Phase(Model):
    id: Slug
    case: CaseId
    side: Literal["none", "first", "second"]
    name: str | None = None
    steps: list[Step] = []
    loops: list[Loop] = []


class SequenceFile(_File):
    kind: Literal["sequence"]
    phases: list[Phase] = Field(min_length=1)


# --- map.yaml ---------------------------------------------------------------------------------
class Size(Model):
    columns: int = Field(ge=1, le=99)
    rows: int = Field(ge=1, le=99)


class First(Model):
    column: int = Field(1, ge=0, le=99)
    row: int = Field(1, ge=0, le=99)


class HexsideFortification(Model):
    protects: HexLabel


class Hexside(Model):
    hexes: list[HexLabel] = Field(min_length=2, max_length=2)
    river: bool = False
    major_river: bool = False
    road: bool = False
    trail: bool = False
    rail: bool = False
    canal: bool = False
    fortification: HexsideFortification | None = None


class Town(Model):
    name: str
    kind: Literal["city", "town"]
    ip: int = Field(0, ge=0)


class MapBody(Model):
    """A map as in map.yaml, minus kind/format: also the inline ``map:`` of a position. Its other
    keys are the game's named hex sets (lists of labels; the vocabulary's ``hex_sets``)."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True, populate_by_name=False)
    __pydantic_extra__: dict[str, list[HexLabel]] = Field(init=False)

    layout: Literal["flat-top-odd-q", "flat-top-even-q", "pointy-top-odd-r", "pointy-top-even-r"]
    north: Literal["up", "right", "down", "left"] = "up"
    size: Size
    first: First | None = None
    terrain: dict[str, str] = {}
    hexsides: list[Hexside] = []
    towns: dict[HexLabel, Town] = {}
    railheads: list[HexLabel] | None = None
    entry_areas: dict[str, list[HexLabel]] = {}


class MapFile(MapBody, _File):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True, populate_by_name=False)
    __pydantic_extra__: dict[str, list[HexLabel]] = Field(init=False)

    kind: Literal["map"]


# --- counters.yaml ----------------------------------------------------------------------------
class CounterUnit(Model):
    """A counter of the mix; its other keys are the game's unit flags it prints (bools, the
    vocabulary's ``unit_flags``)."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True, populate_by_name=False)
    __pydantic_extra__: dict[str, bool] = Field(init=False)

    id: str = Field(min_length=1)
    name: str
    side: Side
    class_: UnitClass = Field(alias="class")
    size: UnitSize | None = None
    strength: int | None = Field(None, ge=0)
    ma: int | None = Field(None, ge=0)
    radius: int | None = Field(None, ge=0)
    limit: int | None = Field(None, ge=0)
    mechanized: bool | None = None
    division: str | None = None
    entry: int | None = Field(None, ge=0)
    withdraw: bool | int | None = None
    type: str | None = None


class CountersFile(_File):
    kind: Literal["counters"]
    units: list[CounterUnit]


# --- tables -----------------------------------------------------------------------------------
class Dim(Model):
    name: str
    values: list[Scalar] = Field(min_length=1)


class TableFile(_File):
    kind: Literal["table"]
    id: Slug
    title: str
    notes: str | None = None
    dims: list[Dim] = Field(min_length=1)
    value: Literal["int", "float", "str", "bool"]
    values: list[Scalar] | None = Field(default=None, min_length=1)
    cells: dict[Scalar, Any]


class RecordsFile(_File):
    kind: Literal["records"]
    id: Slug
    title: str
    notes: str | None = None
    key: str | None = None
    fields: dict[str, Any] = Field(min_length=1)
    values: dict[str, list[Scalar]] | None = None
    rows: list[dict[str, Any]]


# --- errata -----------------------------------------------------------------------------------
class Patch(Model):
    case: CaseId
    file: RelPath
    path: list[str | int | dict[str, Scalar]] = Field(min_length=1)
    set: Any = None
    add: Any = None
    remove: bool | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _one_operation(self) -> Patch:
        ops = [k for k in ("set", "add", "remove") if k in self.model_fields_set]
        if len(ops) != 1:
            raise ValueError(f"a patch needs exactly one of set / add / remove, got {ops or 'none'}")
        return self


class ErrataFile(_File):
    kind: Literal["errata"]
    patches: list[Patch]


# --- interpretations --------------------------------------------------------------------------
class Setting(Model):
    name: str
    value: Scalar
    choices: list[Scalar] = Field(min_length=1)

    @model_validator(mode="after")
    def _value_in_choices(self) -> Setting:
        if self.value not in self.choices:
            raise ValueError(f"value {self.value!r} is not one of the choices {self.choices}")
        return self


class Interpretation(Model):
    id: Slug
    cases: list[CaseId] = Field(min_length=1)
    question: str
    reading: str
    alternative: str | None = None
    setting: Setting | None = None


class InterpretationsFile(_File):
    kind: Literal["interpretations"]
    interpretations: list[Interpretation] = []


# --- gazetteer --------------------------------------------------------------------------------
class GazetteerTown(Model):
    name: str
    lat: float
    lon: float
    kind: Literal["city", "town"] = "town"
    ip: int | None = None
    hex: HexLabel | None = None
    source: str | None = None


class GazetteerFile(_File):
    kind: Literal["gazetteer"]
    #: town name -> printed hex; may carry its own ``provenance`` (the case that prints them)
    printed: dict[str, HexLabel] = {}

    @field_validator("printed", mode="before")
    @classmethod
    def _printed_provenance(cls, value: Any) -> Any:
        if isinstance(value, dict) and "provenance" in value:
            value = dict(value)
            _check_provenance(value.pop("provenance"))
        return value
    towns: list[GazetteerTown] = []
