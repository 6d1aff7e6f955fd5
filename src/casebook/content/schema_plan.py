"""Schema of a scenario's optional ``bot_plan:`` block: the operational plan the planning bot follows.

Commercial wargames give their AI a scenario's plan as data ("AI objectives"); a Casebook pack may
too. The block is **bot guidance, not a rule**: the rules never read it, no result depends on it,
and its values are no rulebook values — each block carries a ``provenance`` (``reconstructed:
<history source>``). Shape (docs/positions.md, docs/planner.md)::

    bot_plan:
      provenance: "reconstructed: ..."
      objectives:
        - {side: red, hex: "0812", town: "Ford", by_turn: 2, weight: 2.0, classes: [armor]}

``hex`` is checked on the map and ``town`` (when given) against the map's town in that hex, ``side``
against the game's sides and ``classes`` against its unit classes, each at its ``file:line:column``
(casebook.content.position_checks), by the position's load and so by ``casebook lint``.
"""

from __future__ import annotations

from pydantic import Field, field_validator

from casebook.content.schema_base import HexLabel, Model, Provenance, Side, UnitClass

__all__ = ["PlanObjective", "BotPlan"]


class PlanObjective(Model):
    """One hex ``side``'s spearheads drive for until the end of turn ``by_turn`` (turns, >= 1), at
    ``weight`` (the planner's HOLD_WEIGHTs, > 0 and at most 4, a strike hex's); ``classes``: the unit
    classes it pulls (the game's vocabulary, e.g. a game's armour; absent: every combat unit). ``town``: the map's
    town in ``hex``, by name (a check on the hex); ``note``: why (free text)."""

    side: Side
    hex: HexLabel
    by_turn: int = Field(ge=1)
    weight: float = Field(gt=0, le=4)
    classes: list[UnitClass] | None = Field(None, min_length=1)
    town: str | None = None
    note: str | None = None


class BotPlan(Model):
    """A scenario's plan for the bots: its ``objectives`` (at least one) and its ``provenance``
    (required, ``reconstructed: <how>``: a plan is never a rulebook value; ValueError otherwise)."""

    provenance: Provenance
    objectives: list[PlanObjective] = Field(min_length=1)

    @field_validator("provenance")
    @classmethod
    def _reconstructed(cls, v: str) -> str:
        if not v.startswith("reconstructed:"):
            raise ValueError(f"a bot plan is guidance, not a rule: its provenance must be 'reconstructed: <how>', got {v!r}")
        return v
