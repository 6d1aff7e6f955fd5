"""The saved shape of a combat result being applied (``plugin_state.results``) by the shared
results procedure (:mod:`._results_stages`, which re-exports :data:`STATE_SCHEMA`); read by
src/casebook/content/savecheck.py."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

__all__ = ["STATE_SCHEMA"]


class _Combat(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    hex: str
    attackers: list[str]
    defenders: list[str]
    attacker_side: str
    defender_side: str
    kind: str
    result: str


class _Stage(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    type: str
    who: str
    side: str
    units: list[str]
    n: Annotated[int, Field(ge=0)]
    number: Annotated[int, Field(ge=0)]
    forced: bool
    hq_alone: bool
    eliminated: bool
    mandatory: bool


class _Crt(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    odds: str
    roll: int


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.results``: a combat result being applied, its stages still to run (the
    first awaiting a player's choice), the effects so far."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    combat: _Combat
    queue: list[_Stage]
    effects: list[dict[str, Any]]
    retreated: Annotated[int, Field(ge=0)]
    retreat_by: list[int | bool]
    advance_done: bool
    cleared: bool
    crt: _Crt
