"""Compatibility re-export: Moscow '41's initiative (1.0-1.4, 0.7.1.3, 0.7.2.1) is the shared
``initiative`` area (src/casebook/areas/initiative.py, configured by rules/initiative.rules);
``_victory_points`` (another plugin's module) still imports :func:`town_values` from here.
Not a plugin (no entry point names it); delete once that import names the area."""

from casebook.areas.initiative import town_values

__all__ = ["town_values"]
