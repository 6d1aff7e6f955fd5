"""Compatibility re-export: Moscow '41's reinforcement entry and withdrawals (12.0B-12.1E, 12.4)
are the shared ``reinforcement`` area (src/casebook/areas/reinforcement.py, configured by
rules/reinforcement.rules); ``_paratroops_drop`` (another plugin's module) still imports
:func:`due_turn` from here. Delete once that import names the area."""

from casebook.areas.reinforcement import due_turn

__all__ = ["due_turn"]
