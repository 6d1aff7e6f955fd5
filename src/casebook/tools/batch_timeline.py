"""A batch game's timeline: who holds the places that matter, and the losses, turn by turn.

The places are read from the pack, never named here: the hexes the scenario's victory conditions
name (``hexes`` of a ``control_count`` condition, the ``target`` hex set or ``town`` of an
``enter`` condition: e.g. Moscow '41's five towns of 18.1.3A, Moscow's hexes of 18.1.3B, Smolensk
of 18.1.3D) and every map town with ``ip`` > 0. :class:`Timeline` takes one snapshot per turn,
when the turn marker has advanced past it (so the position the next turn's first decision sees;
for the game's last turn, the final position): per place the controlling side (``None``:
nobody), per side the units eliminated so far (``removed`` entries with reason ``eliminated``)
and their strength points (each unit's ``strength`` field as last seen on the map, else its
counter's for a unit that entered and fell between two snapshots: the printed strength, loss
markers not subtracted), the ids eliminated in that turn, and the units on the map with the
``oos`` flag (out of supply; at the start too: a position may begin with units out of supply;
the account's turn summary names the same units, :mod:`casebook.tools.account_oos`). A division
that breaks down into a remnant (reason ``rebuilding``) is not counted; the remnant, when eliminated, is (11.3D); ``removed_ids`` lists
the ids taken off in that turn for another reason (reason -> ids: ``rebuilding``, ``withdrawn``).

:func:`summarize_timelines` reads the records' timelines: per place, in how many games it
changed hands (its controller at some turn's end differs from the start) and the median turn it
first did; per side, the median units and strength points eliminated by the last turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import median
from typing import Any

__all__ = ["Timeline", "places", "summarize_timelines"]


def places(state: Any) -> list[dict[str, Any]]:
    """The places a timeline follows, in hex-label order: ``{"hex", "name", "why"}`` with
    ``why`` the case ids of the victory conditions that name the hex and/or ``"ip N"`` (a town
    earning N IPs). ``name`` is the map's town name, else the condition's printed name, else
    the hex set's name."""
    from casebook.areas.scenario_victory import sides, target_hexes, victory_block
    from casebook.core.hexgrid import hex_label

    ctx = state.ctx()
    towns = {hex_label(h): t for h, t in ctx.board.towns().items()}
    found: dict[str, dict[str, Any]] = {}

    def add(hex_: str, why: str, name: str | None = None) -> None:
        entry = found.setdefault(hex_, {"hex": hex_, "name": towns.get(hex_, {}).get("name") or name or hex_,
                                        "why": []})
        if why not in entry["why"]:
            entry["why"].append(why)

    block = victory_block(ctx) or {}
    for side in sides(ctx):
        for cond in block.get(side) or []:
            if not isinstance(cond, Mapping):
                continue
            case = str(cond.get("case") or cond.get("id") or "victory")
            if cond.get("kind") == "control_count":
                names = list(cond.get("names") or [])
                for i, h in enumerate(cond.get("hexes") or []):
                    add(str(h), case, names[i] if i < len(names) else None)
            elif cond.get("kind") == "enter":
                for h in target_hexes(ctx, cond):
                    add(h, case, str(cond.get("town") or cond.get("target")))
    for h, town in towns.items():
        if int(town.get("ip") or 0) > 0:
            add(h, f"ip {town['ip']}")
    return [found[h] for h in sorted(found)]


class Timeline:
    """One game's timeline, fed the state after every action (:meth:`after`); cheap between turns
    (an int compare), one snapshot per turn. :meth:`data` is the record's ``timeline``:
    ``{"places": [...], "start": {"control": {hex: side}, "oos": {side: units}}, "turns": [{"turn", "control",
    "eliminated": {side: {"units", "strength"}}, "eliminated_ids": {side: [ids this turn]},
    "removed_ids": {reason: [ids this turn]}, "oos": {side: units}}, ...]}``."""

    def __init__(self, state: Any) -> None:
        self.places = places(state)
        self.hexes = [p["hex"] for p in self.places]
        self.sides = list(state.data.sides)
        self.turn = state.data.turn
        self.turns: list[dict[str, Any]] = []
        self.seen: dict[str, tuple[str, int]] = {}
        # a unit that entered and was eliminated between two snapshots (a reinforcement, a
        # remnant): its counter's side and strength
        self.counters = state.ctx().pack.counters
        self.counted = 0
        self.lost = {s: {"units": 0, "strength": 0} for s in self.sides}
        self._look(state)
        self.start = {"control": {h: state.data.control(h) for h in self.hexes}, "oos": self._oos(state.data)}

    def _look(self, state: Any) -> None:
        for u in state.data.units:
            self.seen[str(u.get("id"))] = (str(u.get("side")), int(u.get("strength") or 0))

    def after(self, state: Any) -> None:
        """Call after each action: snapshots the turn(s) the marker has moved past."""
        if state.data.turn != self.turn:
            self._snap(state, self.turn)
            self.turn = state.data.turn

    def close(self, state: Any, max_turns: int | None = None) -> None:
        """At the game's end or stop: snapshots the current turn unless already taken (a game
        over in its last turn, or stopped mid-turn) or past ``max_turns`` (a ``--max-turns`` stop)."""
        turn = state.data.turn
        if (not self.turns or self.turns[-1]["turn"] < turn) and (max_turns is None or turn <= max_turns):
            self._snap(state, turn)

    def _snap(self, state: Any, turn: int) -> None:
        data = state.data
        new: dict[str, list[str]] = {s: [] for s in self.sides}
        other: dict[str, list[str]] = {}
        removed = data.removed
        for entry in removed[self.counted:]:
            uid = str(entry.get("unit"))
            if entry.get("reason") != "eliminated":
                other.setdefault(str(entry.get("reason")), []).append(uid)
                continue
            counter = self.counters.get(uid) or {}
            side, strength = self.seen.get(uid) or (str(counter.get("side", "?")), int(counter.get("strength") or 0))
            self.lost.setdefault(side, {"units": 0, "strength": 0})
            self.lost[side]["units"] += 1
            self.lost[side]["strength"] += strength
            new.setdefault(side, []).append(uid)
        self.counted = len(removed)
        self.turns.append({"turn": turn, "control": {h: data.control(h) for h in self.hexes},
                           "eliminated": {s: dict(v) for s, v in self.lost.items()},
                           "eliminated_ids": new, "removed_ids": other, "oos": self._oos(data)})
        self._look(state)

    def _oos(self, data: Any) -> dict[str, int]:
        """side -> its units on the map flagged ``oos`` (out of supply, 5.5A)."""
        oos = dict.fromkeys(self.sides, 0)
        for u in data.units:
            if u.get("oos"):
                oos[str(u.get("side"))] = oos.get(str(u.get("side")), 0) + 1
        return oos

    def data(self) -> dict[str, Any]:
        return {"places": self.places, "start": self.start, "turns": self.turns}


def _first_change(timeline: Mapping[str, Any], hex_: str) -> tuple[int | None, str | None]:
    """The turn ``hex_`` first ended a turn under another controller than at the start, and that
    controller (None, None: never)."""
    was = (timeline.get("start") or {}).get("control", {}).get(hex_)
    for snap in timeline.get("turns") or []:
        now = snap["control"].get(hex_)
        if now != was:
            return int(snap["turn"]), now
    return None, None


def summarize_timelines(timelines: Sequence[Mapping[str, Any] | None]) -> dict[str, Any] | None:
    """Plain data over the games' timelines (None: no game has one): ``places`` hex ->
    ``{"name", "why", "games", "changed", "first_turn_median", "taken_by": {side: games},
    "end": {side: games}}`` (``changed``: games where it changed hands; ``taken_by``: who held it
    at its first change; ``end``: who held it at the last snapshot) and ``eliminated_median`` side
    -> ``{"units", "strength"}`` at each game's last snapshot."""
    kept = [t for t in timelines if t and t.get("turns")]
    if not kept:
        return None
    out: dict[str, Any] = {}
    for place in kept[0]["places"]:
        h = place["hex"]
        firsts = [_first_change(t, h) for t in kept]
        turns = [turn for turn, _ in firsts if turn is not None]
        taken: dict[str, int] = {}
        for turn, side in firsts:
            if turn is not None:
                taken[str(side)] = taken.get(str(side), 0) + 1
        end: dict[str, int] = {}
        for t in kept:
            side = str(t["turns"][-1]["control"].get(h))
            end[side] = end.get(side, 0) + 1
        out[h] = {"name": place["name"], "why": place["why"], "games": len(kept), "changed": len(turns),
                  "first_turn_median": median(turns) if turns else None, "taken_by": taken, "end": end}
    sides = sorted({s for t in kept for s in t["turns"][-1]["eliminated"]})
    lost = {s: {k: median([t["turns"][-1]["eliminated"].get(s, {}).get(k, 0) for t in kept])
                for k in ("units", "strength")} for s in sides}
    return {"places": out, "eliminated_median": lost}
