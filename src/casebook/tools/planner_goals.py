"""What the planning bot plays for, read from the pack: the scenario's victory block and the map.

:func:`goals_for` turns a scenario's ``victory:`` block (whatever game it belongs to) into plain
:class:`Goals`, without naming a game, a side or a town:

- **hold** — hexes whose control decides the game (``hexes:`` lists, a ``town:`` by name, a
  ``target:`` of ``moscow``/the map's capital hexes, points per town from ``vp_per_ip`` terms,
  points per capital hex), with a weight: what holding (or denying) each is worth. Control
  objectives are shared: the side that must take a hex and the side that must keep it both want
  to stand on it;
- **strike** — per side, hexes whose mere entry wins at once (``when: instant`` or ``kind:
  enter``): that side wants to reach them, the other to guard them;
- every town of the map as a small background objective (by its ``ip`` value where the map has
  one), so a pack without a victory block still gives the bot something to play for.

Everything here is a heuristic reading for a bot, not a rule: the rules decide the result
(``casebook_game_result``); the goals only steer the search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casebook.core.hexgrid import hex_label

__all__ = ["Goals", "goals_for", "HOLD_WEIGHT", "TOWN_WEIGHT"]

#: Weight of a hex a control condition names (a town of "three of these five").
HOLD_WEIGHT = 6.0
#: Weight of an ordinary town per IP (or per town where the map prints no IPs).
TOWN_WEIGHT = 0.5


@dataclass(frozen=True)
class Goals:
    """The objectives of one scenario: ``hold`` hex label -> weight (both sides), ``strike`` side
    -> hex labels whose entry wins at once for that side, ``sides`` the game's sides."""

    hold: Mapping[str, float]
    strike: Mapping[str, frozenset[str]]
    sides: tuple[str, ...]
    capital: frozenset[str] = field(default_factory=frozenset)

    def guard(self, side: str) -> frozenset[str]:
        """The hexes ``side`` must keep the enemy out of: the other sides' strike hexes."""
        return frozenset(h for s, hexes in self.strike.items() if s != side for h in hexes)

    def targets(self, side: str) -> dict[str, float]:
        """Hex label -> weight of every objective ``side`` plays for (hold and its own strike
        hexes, which are worth the game)."""
        out = dict(self.hold)
        for h in self.strike.get(side, ()):
            out[h] = out.get(h, 0.0) + 4.0 * HOLD_WEIGHT
        return out


def _town_hexes(board: Any, name: str) -> list[str]:
    return [hex_label(h) for h, t in board.towns().items() if str(t.get("name", "")).lower() == name.lower()]


def _condition_hexes(board: Any, cond: Mapping[str, Any]) -> list[str]:
    """The hexes one victory condition names: ``hexes``, ``town`` (by name), ``target``
    (``moscow``/``capital``: the map's capital hexes)."""
    found: list[str] = [str(h) for h in cond.get("hexes") or () if isinstance(h, (str, int))]
    if cond.get("town"):
        found += _town_hexes(board, str(cond["town"]))
    if str(cond.get("target", "")).lower() in ("moscow", "capital"):
        found += [hex_label(h) for h in sorted(board.hex_set("moscow"))]
    return found


def _walk(board: Any, node: Any, owner: str | None, sides: tuple[str, ...],
          hold: dict[str, float], strike: dict[str, set[str]]) -> None:
    """Collect objectives from a victory block, recursively (conditions under a side's key
    belong to that side; anything else to both)."""
    if isinstance(node, Mapping):
        for side in sides:
            if side in node:
                _walk(board, node[side], side, sides, hold, strike)
        instant = node.get("when") == "instant" or node.get("kind") == "enter"
        hexes = _condition_hexes(board, node)
        if hexes and instant:
            for s in ([owner] if owner else sides):
                strike.setdefault(s, set()).update(hexes)
        elif hexes:
            for h in hexes:
                hold[h] = max(hold.get(h, 0.0), HOLD_WEIGHT)
        if node.get("vp_per_ip"):  # points for every town by its IPs
            per = float(node["vp_per_ip"])
            for h, t in board.towns().items():
                label = hex_label(h)
                hold[label] = max(hold.get(label, 0.0), per * float(t.get("ip") or 1))
        if node.get("vp_per_hex"):  # points per capital hex
            for h in board.hex_set("moscow"):
                label = hex_label(h)
                hold[label] = max(hold.get(label, 0.0), float(node["vp_per_hex"]) * 2.0)
        for key, value in node.items():
            if key not in sides and isinstance(value, (Mapping, list)):
                _walk(board, value, owner, sides, hold, strike)
    elif isinstance(node, list):
        for item in node:
            _walk(board, item, owner, sides, hold, strike)


def goals_for(scenario: Mapping[str, Any] | None, board: Any, sides: Iterable[str]) -> Goals:
    """The :class:`Goals` of a scenario (its position's ``scenario`` mapping, with ``victory``)
    on ``board``; towns of the map are background objectives; with no victory block at all, the
    capital hexes count as hold objectives too."""
    sides = tuple(sides)
    hold: dict[str, float] = {}
    strike: dict[str, set[str]] = {}
    victory = (scenario or {}).get("victory")
    if victory:
        _walk(board, victory, None, sides, hold, strike)
    else:
        for h in board.hex_set("moscow"):
            hold[hex_label(h)] = HOLD_WEIGHT
    for h, t in board.towns().items():
        label = hex_label(h)
        hold.setdefault(label, TOWN_WEIGHT * float(t.get("ip") or 1))
    capital = frozenset(hex_label(h) for h in board.hex_set("moscow"))
    return Goals(hold=hold, strike={s: frozenset(v) for s, v in strike.items()}, sides=sides, capital=capital)
