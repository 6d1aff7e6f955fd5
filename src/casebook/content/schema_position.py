"""Schema of the position document (docs/positions.md): scenarios, saves and test positions.

The model checks shape only; :mod:`casebook.content.position` resolves ``counter:`` references
and checks everything that needs the pack (hexes on the map, phase/step ids, settings).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, field_validator

from casebook.content.schema_base import HexLabel, Model, Scalar, Side, Slug, UnitClass, UnitSize
from casebook.content.schema_content import MapBody
from casebook.content.schema_plan import BotPlan

__all__ = [
    "Position",
    "Unit",
    "Weather",
    "Marker",
    "Pending",
    "Removed",
    "ScenarioInfo",
    "Rng",
    "UNIT_FLAGS",
    "COUNTER_FIELDS",
    "counter_fields",
]

#: Status flags of a unit on the map that every game has (bools, default false); a game's own are
#: its vocabulary's ``unit_flags`` (extra keys of a :class:`Unit`, casebook.content.vocabulary).
UNIT_FLAGS = ("fatigued", "oos", "activated", "reserve")
#: Fields a ``counter:`` reference takes from the pack's counter mix (then overridden), besides
#: the game's unit flags a counter may print (:func:`counter_fields`).
COUNTER_FIELDS = (
    "id", "name", "side", "class", "size", "strength", "ma", "radius", "limit", "mechanized",
    "division", "type",
)


def counter_fields(vocabulary: Any) -> tuple[str, ...]:
    """The fields a unit takes from its counter: :data:`COUNTER_FIELDS` and the unit flags of
    ``vocabulary`` (a :class:`casebook.content.vocabulary.Vocabulary`)."""
    return COUNTER_FIELDS + tuple(vocabulary.unit_flags)


def _check_player(text: str) -> str:
    if text != "human" and not re.fullmatch(r"bot:[a-z][a-z0-9_]*", text):
        raise ValueError(f"expected 'human' or 'bot:<kind>' (e.g. 'bot:planner'), got {text!r}")
    return text


PlayerName = Annotated[str, AfterValidator(_check_player)]

class ScenarioInfo(Model):
    id: Slug
    name: str
    first_turn: int = Field(ge=1)
    last_turn: int = Field(ge=1)
    description: str | None = None
    victory: dict[str, Any] = {}
    #: the scenario's plan for the bots (casebook.content.schema_plan): guidance, not a rule
    bot_plan: BotPlan | None = None


class Weather(Model):
    temperature: Slug  # the game's vocabulary: temperatures
    ground: Slug       # the game's vocabulary: grounds


class Unit(Model):
    """One unit on the map: strength in strength points, ``ma`` in MP, ``radius`` in hexes. Its
    other keys are the game's unit flags (bools; checked against the vocabulary's ``unit_flags``)."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True, populate_by_name=False)
    __pydantic_extra__: dict[str, bool] = Field(init=False)

    id: str = Field(min_length=1)
    counter: str | None = None
    name: str | None = None
    type: str | None = None
    side: Side
    class_: UnitClass = Field(alias="class")
    size: UnitSize | None = None
    strength: int | None = Field(None, ge=0)
    ma: int | None = Field(None, ge=0)
    radius: int | None = Field(None, ge=0)
    limit: int | None = Field(None, ge=0)
    mechanized: bool = False
    division: str | None = None
    hex: HexLabel | None = None
    losses: int = Field(0, ge=0, le=3)
    fatigued: bool = False
    oos: bool = False
    activated: bool = False
    reserve: bool = False


class Marker(Model):
    kind: Slug  # the game's vocabulary: markers
    hex: HexLabel


class Pending(Model):
    unit: str
    turn: int = Field(ge=1)
    area: str | None = None


class Removed(Model):
    unit: str
    reason: Literal["eliminated", "withdrawn", "rebuilding"]
    turn: int | None = Field(None, ge=1)


class Rng(Model):
    """The dice: ``seed`` (int >= 0), the PCG32 ``state`` (null before the first roll, else an
    int in [0, 2**64); src/casebook/core/dice.py) and ``fixed``: faces (1-6) the next dice show."""

    seed: int = Field(ge=0)
    state: int | None = Field(None, ge=0, le=(1 << 64) - 1)
    #: faces (1-6) the next dice show, one per die, before the generator is asked (src/casebook/core/dice.py)
    fixed: list[int] = Field(default_factory=list)

    @field_validator("fixed")
    @classmethod
    def _faces(cls, v: list[int]) -> list[int]:
        bad = [f for f in v if isinstance(f, bool) or not 1 <= f <= 6]
        if bad:
            raise ValueError(f"fixed dice faces must be 1-6, got {bad}")
        return v


class Position(Model):
    """A whole position; equality is value equality (``load(dump(p)) == p``). Its other top-level
    keys are the game's tracks (extra fields here; checked against the vocabulary's declaration by
    :func:`casebook.content.tracks.track_problems`)."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True, populate_by_name=False)

    #: the save format's mark, the first key of every save ``play`` and the browser write
    #: (tools/saves.write_save): a save whose tail is lost is refused whole (``truncated save``)
    save: Literal[1] | None = None
    kind: Literal["position"]
    format: Literal[1]
    game: Slug
    scenario: ScenarioInfo | None = None
    map: MapBody | None = None
    turn: int = Field(1, ge=1)
    weather: Weather | None = None
    phase: str | None = None
    step: str | None = None
    phasing: Side | None = None
    first_player: Side | None = None
    units: list[Unit] = []
    markers: list[Marker] = []
    control: dict[HexLabel, Side] = {}
    pending: list[Pending] = []
    removed: list[Removed] = []
    settings: dict[str, Scalar] = {}
    #: plugin name -> that plugin's private plain data (e.g. a combat awaiting a decision)
    plugin_state: dict[str, Any] = {}
    #: who plays each side (``human`` or ``bot:<kind>``), written by ``play``; the bot kinds are the
    #: tools' (``play`` refuses an unknown one when it resumes the save); before
    #: ``rng`` and ``trace_seq``, the save's required last keys, so a save cut at its last line is refused
    players: dict[Side, PlayerName] | None = None
    rng: Rng | None = None
    trace_seq: int = Field(0, ge=0)
