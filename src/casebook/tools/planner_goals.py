"""What the planning bot plays for, read from the pack: the scenario's victory block and the map.

:func:`goals_for` turns a scenario's ``victory:`` block (whatever game it belongs to) into plain
:class:`Goals`, without naming a game, a side or a town:

- **hold** — hexes whose control decides the game (``hexes:`` lists, a ``town:`` by name, a
  ``target:`` naming one of the map's hex sets, points per town from ``vp_per_ip`` terms, points
  per capital hex: :func:`capital_hexes`, the sets and hexes the victory block names), with a
  weight: what holding (or denying) each is worth. Control objectives are shared: the side that must take a hex and the
  side that must keep it both want to stand on it;
- **counts** — a condition won by holding ``at_least`` N of its hexes ("three of these five"):
  the side whose condition it is plays for the N most reachable of them as a set
  (:mod:`casebook.tools.planner_aims`);
- **strike** — per side, hexes whose mere entry wins at once (``when: instant`` or ``kind:
  enter``): that side wants to reach them, the other to guard them;
- **plan** — the scenario's ``bot_plan`` objectives, when it has the block (:mod:`casebook.tools.planner_plan`);
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
from casebook.tools.planner_plan import PlanAim, plan_aims

__all__ = ["Goals", "CountGoal", "goals_for", "capital_hexes", "non_combat", "non_combat_of", "HOLD_WEIGHT", "TOWN_WEIGHT"]

#: Weight of a hex a control condition names (a town of "three of these five").
HOLD_WEIGHT = 6.0
#: Weight of an ordinary town per IP (or per town where the map prints no IPs).
TOWN_WEIGHT = 0.5


@dataclass(frozen=True)
class CountGoal:
    """A condition won by holding ``at_least`` of ``hexes`` (in the victory block's order); ``side``
    is whose condition it is (None: a condition outside any side's key, anyone's)."""

    side: str | None
    hexes: tuple[str, ...]
    at_least: int


@dataclass(frozen=True)
class Goals:
    """The objectives of one scenario: ``hold`` hex label -> weight (both sides), ``strike`` side
    -> hex labels whose entry wins at once for that side, ``sides`` the game's sides."""

    hold: Mapping[str, float]
    strike: Mapping[str, frozenset[str]]
    sides: tuple[str, ...]
    capital: frozenset[str] = field(default_factory=frozenset)
    counts: tuple[CountGoal, ...] = ()
    #: the scenario's ``bot_plan`` objectives (planner_plan; guidance, not a rule): () without the block
    plan: tuple[PlanAim, ...] = ()

    def guard(self, side: str) -> frozenset[str]:
        """The hexes ``side`` must keep the enemy out of: the other sides' strike hexes."""
        return frozenset(h for s, hexes in self.strike.items() if s != side for h in hexes)

    def keeps(self) -> frozenset[str]:
        """The capital hexes no side's entry wins at once: hexes whose control alone decides the game
        at its end (Battle for Moscow's Moscow, BM10.1: who last occupied it). A side standing on one
        does not leave it empty (the planner's filter, :func:`casebook.tools.bots_guard.empties`):
        the enemy walks in and takes it back (session 16: 10 of the 11 German planner's lost games)."""
        return frozenset(h for h in self.capital if not any(h in hexes for hexes in self.strike.values()))

    def targets(self, side: str) -> dict[str, float]:
        """Hex label -> weight of every objective ``side`` plays for (hold and its own strike
        hexes, which are worth the game)."""
        out = dict(self.hold)
        for h in self.strike.get(side, ()):
            out[h] = out.get(h, 0.0) + 4.0 * HOLD_WEIGHT
        return out


def _town_hexes(board: Any, name: str) -> list[str]:
    return [hex_label(h) for h, t in board.towns().items() if str(t.get("name", "")).lower() == name.lower()]


def capital_hexes(board: Any, victory: Any = None) -> frozenset[str]:
    """The capital hexes the victory block names: the map's hex sets a condition names by ``target:``
    or holds its ``vp_per_hex`` under (``moscow: {vp_per_hex: 5}``), and the ``hexes:`` of its
    conditions without ``at_least`` (a hex that decides alone, as Battle for Moscow's Moscow hex);
    none without a victory block. No set is guessed from the map alone (session 14: the map's only
    hex set was taken for the capital)."""
    sets: Mapping[str, Any] = getattr(board, "hex_sets", None) or {}
    found: set[str] = set()

    def named(name: Any) -> None:
        if isinstance(name, str) and name in sets:
            found.update(hex_label(h) for h in board.hex_set(name))

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            named(node.get("target"))
            if node.get("at_least") is None:
                found.update(str(h) for h in node.get("hexes") or () if isinstance(h, (str, int)))
            for key, value in node.items():
                if isinstance(value, Mapping) and value.get("vp_per_hex"):
                    named(key)
                if isinstance(value, (Mapping, list)):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(victory)
    return frozenset(found)


def _target_hexes(board: Any, target: str) -> list[str]:
    """The hexes a condition's ``target`` names: the map's hex set of that name; none otherwise
    (``town``...)."""
    sets: Mapping[str, Any] = getattr(board, "hex_sets", None) or {}
    if target in sets:
        return [hex_label(h) for h in sorted(board.hex_set(target))]
    return []


def _condition_hexes(board: Any, cond: Mapping[str, Any]) -> list[str]:
    """The hexes one victory condition names: ``hexes``, ``town`` (by name), ``target`` (a hex set
    of the map by name)."""
    found: list[str] = [str(h) for h in cond.get("hexes") or () if isinstance(h, (str, int))]
    if cond.get("town"):
        found += _town_hexes(board, str(cond["town"]))
    if cond.get("target"):
        found += _target_hexes(board, str(cond["target"]))
    return found


def _walk(board: Any, node: Any, owner: str | None, sides: tuple[str, ...], hold: dict[str, float],
          strike: dict[str, set[str]], counts: list[CountGoal], capital: frozenset[str]) -> None:
    """Collect objectives from a victory block, recursively (conditions under a side's key
    belong to that side; anything else to both)."""
    if isinstance(node, Mapping):
        for side in sides:
            if side in node:
                _walk(board, node[side], side, sides, hold, strike, counts, capital)
        instant = node.get("when") == "instant" or node.get("kind") == "enter"
        hexes = _condition_hexes(board, node)
        if hexes and instant:
            for s in ([owner] if owner else sides):
                strike.setdefault(s, set()).update(hexes)
        elif hexes:
            for h in hexes:
                hold[h] = max(hold.get(h, 0.0), HOLD_WEIGHT)
            n = node.get("at_least")
            if isinstance(n, int) and not isinstance(n, bool) and 0 < n < len(set(hexes)):
                counts.append(CountGoal(owner, tuple(dict.fromkeys(hexes)), n))
        if node.get("vp_per_ip"):  # points for every town by its IPs
            per = float(node["vp_per_ip"])
            for h, t in board.towns().items():
                label = hex_label(h)
                hold[label] = max(hold.get(label, 0.0), per * float(t.get("ip") or 1))
        if node.get("vp_per_hex"):  # points per capital hex
            for label in sorted(capital):
                hold[label] = max(hold.get(label, 0.0), float(node["vp_per_hex"]) * 2.0)
        for key, value in node.items():
            if key not in sides and isinstance(value, (Mapping, list)):
                _walk(board, value, owner, sides, hold, strike, counts, capital)
    elif isinstance(node, list):
        for item in node:
            _walk(board, item, owner, sides, hold, strike, counts, capital)


def goals_for(scenario: Mapping[str, Any] | None, board: Any, sides: Iterable[str]) -> Goals:
    """The :class:`Goals` of a scenario (its position's ``scenario`` mapping, with ``victory``)
    on ``board``; towns of the map are background objectives (all there is without a victory block)."""
    sides = tuple(sides)
    hold: dict[str, float] = {}
    strike: dict[str, set[str]] = {}
    counts: list[CountGoal] = []
    victory = (scenario or {}).get("victory")
    capital = capital_hexes(board, victory)
    if victory:
        _walk(board, victory, None, sides, hold, strike, counts, capital)
    for h, t in board.towns().items():
        label = hex_label(h)
        hold.setdefault(label, TOWN_WEIGHT * float(t.get("ip") or 1))
    return Goals(hold=hold, strike={s: frozenset(v) for s, v in strike.items()}, sides=sides, capital=capital,
                 counts=tuple(counts), plan=plan_aims(scenario))


def non_combat(scenario: Mapping[str, Any] | None) -> frozenset[str]:
    """The unit classes that are no combat units, for the bots: HQs and the classes the scenario's
    victory block names in ``non_combat`` (the rules' own list; e.g. Moscow '41's remnants, 11.3D:
    a remnant does not count as a combat unit, so it is no garrison of a guard hex)."""
    victory = (scenario or {}).get("victory")
    named = victory.get("non_combat") if isinstance(victory, Mapping) else None
    return frozenset({"hq", *(str(c) for c in named or ())})


def non_combat_of(state: Any) -> frozenset[str]:
    """:func:`non_combat` of ``state``'s scenario, read once per position version (``data.scenario``
    is a deep copy at every read: per unit it was most of a planner turn, session 14)."""
    cache = state.__dict__.setdefault("_bot_non_combat", {})
    key = state.data.version
    found: frozenset[str] | None = cache.get(key)
    if found is None:
        if len(cache) > 256:
            cache.clear()
        found = cache[key] = non_combat(state.data.scenario)
    return found
