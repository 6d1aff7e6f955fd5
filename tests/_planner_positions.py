"""Small inline-map positions for the planner's tests (tests/test_planner*.py): a flat-top map of
clear hexes with a few towns, Moscow '41's steps and units written as position YAML."""

from __future__ import annotations

from typing import Any

from casebook.content.position import load_position, position_to_dict

__all__ = ["state", "inf", "hq", "armor"]

#: the towns of the default test map: label -> name (1 IP each)
TOWNS = {"0606": "Testgrad", "0101": "Rearburg"}


def state(game: Any, units: str, step: str, scenario: str = "", size: int = 8, ip: int = 0,
          phasing: str = "german", towns: dict[str, str] | None = None, control: str = "") -> Any:
    """A Moscow '41 position on a ``size`` × ``size`` clear map, Turn 3, dry; ``scenario`` is an
    optional ``scenario:`` line, ``control`` an optional ``control:`` mapping (YAML flow)."""
    town_map = ", ".join(f'"{h}": {{name: {name}, kind: town, ip: 1}}' for h, name in (towns or TOWNS).items())
    control_line = f"control: {control}" if control else ""
    text = f"""
kind: position
format: 1
game: moscow41
{scenario}
map:
  layout: flat-top-even-q
  size: {{columns: {size}, rows: {size}}}
  terrain: {{default: clear}}
  towns: {{{town_map}}}
{control_line}
turn: 3
weather: {{temperature: warm, ground: dry}}
phase: {"first_player" if phasing == "german" else "second_player"}
step: {step}
phasing: {phasing}
first_player: german
ip: {{german: {ip}, soviet: 0}}
units:
{units}
"""
    pos = load_position(text, pack=game.engine.pack)
    return game.state_from_dict(position_to_dict(pos))


def inf(side: str, uid: str, hex_: str, strength: int, activated: bool = False) -> str:
    """An infantry division (MA 4) as a position's unit line."""
    return (f'  - {{id: {uid}, side: {side}, class: infantry, size: division, strength: {strength}, ma: 4, '
            f'hex: "{hex_}", activated: {str(activated).lower()}}}\n')


def hq(side: str, uid: str, hex_: str, activated: bool) -> str:
    """An HQ (MA 4, radius 3, limit 3, not mechanized) as a position's unit line."""
    return (f'  - {{id: {uid}, side: {side}, class: hq, ma: 4, radius: 3, limit: 3, mechanized: false, '
            f'hex: "{hex_}", activated: {str(activated).lower()}}}\n')


def armor(side: str, uid: str, hex_: str, strength: int, ma: int = 8, activated: bool = True) -> str:
    """An armor division as a position's unit line."""
    return (f'  - {{id: {uid}, side: {side}, class: armor, size: division, strength: {strength}, ma: {ma}, '
            f'hex: "{hex_}", activated: {str(activated).lower()}}}\n')
