"""The schema of a Moscow '41 scenario's ``victory:`` block (17.0-17.4, 18.0-18.2), declared by
the ``victory`` plugin as ``VICTORY_SCHEMA`` and checked by ``casebook lint`` on every scenario
(src/casebook/content/requires.py): an unknown key is located with a did-you-mean, a wrong type or
value named.

Two shapes, as the scenarios print them: the Campaign Game's points (``kind: points`` with the
terrain, Moscow, losses and levels terms of 17.1-17.4, 18.2.3) and a short scenario's conditions
per side (``german:``/``soviet:`` lists: control a number of hexes, enter a target, otherwise;
18.1.3). The conditions and the points verdict are read by the shared area
``casebook.areas.scenario_victory``; the points' numbers are the rule script's (victory.rules),
the terms here are the printed record of them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from casebook.areas.scenario_victory import Condition, ConditionsBlock
from casebook.content.schema_base import CaseId, Model

__all__ = ["VictoryBlock", "TerrainVP", "MoscowVP", "LossesVP", "Levels", "Level"]


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


class VictoryBlock(ConditionsBlock):
    """A scenario's ``victory:`` block: points (Campaign) or conditions per side (short scenarios);
    the shared area's block (``kind``, ``case``, ``non_combat``) with the printed terms of 17.1-17.4
    and the two sides' lists of conditions (the area's :class:`Condition`)."""

    terrain: TerrainVP | None = None
    moscow: MoscowVP | None = None
    losses: LossesVP | None = None
    levels: Levels | None = None
    german: list[Condition] | None = None
    soviet: list[Condition] | None = None
