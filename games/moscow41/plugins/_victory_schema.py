"""The schema of a Moscow '41 scenario's ``victory:`` block (17.0-17.4, 18.0-18.2), declared by
the ``victory`` plugin as ``VICTORY_SCHEMA`` and checked by ``casebook lint`` on every scenario
(src/casebook/content/requires.py): an unknown key is located with a did-you-mean, a wrong type or
value named.

Two shapes, as the scenarios print them: the Campaign Game's points (``kind: points`` with the
terrain, Moscow, losses and levels terms of 17.1-17.4, 18.2.3) and a short scenario's conditions
per side (``german:``/``soviet:`` lists: control a number of hexes, enter a target, otherwise;
18.1.3).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from casebook.content.schema_base import CaseId, HexLabel, Model, Slug

__all__ = ["VictoryBlock", "Condition", "TerrainVP", "MoscowVP", "LossesVP", "Levels", "Level"]


class Condition(Model):
    """One victory condition of a side (18.1.3): ``control_count`` (``at_least`` of ``hexes``),
    ``enter`` (a combat ``unit`` enters the ``target``: Moscow or the ``town`` named), ``otherwise``.
    ``when``: at the ``end``, at any ``instant``, or ``script`` (a rule-script line decides it —
    18.1.3D's ``when action ends`` — and the entry only names the goal for the planning bot)."""

    id: Slug | None = None
    case: CaseId = "18.0"  # the plugin cites 18.0 for a condition naming no case
    kind: Literal["control_count", "enter", "otherwise"]
    when: Literal["instant", "end", "script"] = "end"
    hexes: list[HexLabel] = []
    names: list[str] = []
    at_least: int | None = Field(None, ge=0)
    unit: Literal["combat", "any"] | None = None
    target: Literal["moscow", "town"] | None = None
    town: str | None = None


class TerrainVP(Model):
    """17.1: VPs per IP of the towns a side controls (and supplies) at the end."""

    case: CaseId
    vp_per_ip: int = Field(ge=0)
    requires: list[Literal["control", "supply"]] = []
    when: Literal["instant", "end"] = "end"


class MoscowVP(Model):
    """17.2: VPs per Moscow hex a side once took."""

    case: CaseId
    side: Literal["german", "soviet"]
    vp_per_hex: int = Field(ge=0)
    once_per_hex: bool = False


class GermanLosses(Model):
    army_hq: int = Field(ge=0)
    front_hq: int = Field(ge=0)


class SovietLosses(Model):
    division: int = Field(ge=0)
    panzer_division: int = Field(ge=0)


class LossesVP(Model):
    """17.3: VPs a side scores for the enemy units it eliminated."""

    case: CaseId
    german: GermanLosses
    soviet: SovietLosses
    not_losses: list[Literal["withdrawn", "returned_by_replacement"]] = []


class Level(Model):
    min: int = Field(ge=0)
    max: int | None = Field(None, ge=0)
    level: Literal["draw", "marginal", "decisive", "strategic"]


class Levels(Model):
    """17.4: the victory level by the difference of VPs."""

    case: CaseId
    by_difference: list[Level] = Field(min_length=1)


class VictoryBlock(Model):
    """A scenario's ``victory:`` block: points (Campaign) or conditions per side (short scenarios)."""

    kind: Literal["points"] | None = None
    terrain: TerrainVP | None = None
    moscow: MoscowVP | None = None
    losses: LossesVP | None = None
    levels: Levels | None = None
    german: list[Condition] | None = None
    soviet: list[Condition] | None = None
