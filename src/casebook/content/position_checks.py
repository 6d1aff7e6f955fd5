"""Checks of a position against its pack beyond the schema (:mod:`casebook.content.position` runs
them on every load, so ``play --load``, ``serve``'s load, ``ask`` and ``lint`` refuse the same files):

- :func:`victory_hexes`: the hexes a scenario's ``victory`` and ``bot_plan`` blocks name, each to be on the map;
- :func:`scenario_problems`: the ``victory`` block against its plugins' schemas, and each ``bot_plan``
  objective's ``side`` against the game's sides, ``classes`` against its unit classes and ``town`` against the map's town in its hex
  (casebook.content.schema_plan: a plan naming Vyazma on the wrong hex is refused, not followed);
- :func:`counter_state_problems`: a unit that says it is a counter of the mix (``counter: ID``, as
  every save's unit does) cannot be stronger or faster than that counter, nor of another side
  (a remnant that replaced a unit carries its own counter) — a save
  edited by hand to give units strength 99 is refused whole (guide rule 7: bad input, clear error,
  nothing lost), each problem at its ``file:line:column`` and key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from casebook.core.errors import Problem

__all__ = ["counter_state_problems", "victory_hexes", "scenario_problems"]

Locate = Callable[[tuple], tuple[str, int, int]]
#: Unit fields that can fall below the counter's printed value in play (a step loss) but never rise above it.
AT_MOST_PRINTED = ("strength", "ma")
#: Unit fields that are always the counter's.
AS_PRINTED = ("side",)


def counter_state_problems(units: Any, pack: Any, locate: Locate, skip: tuple[str, ...] = ()) -> list[Problem]:
    """Every problem of ``units`` (a position's raw ``units`` list, ``counter:`` references
    resolved) against the counter mix of ``pack``: a field of :data:`AT_MOST_PRINTED` above the
    counter's, a field of :data:`AS_PRINTED` unlike it. Units without ``counter:`` (a test
    position's ad-hoc units) and the key paths in ``skip`` (problems reported elsewhere) are not checked."""
    out: list[Problem] = []
    mix = getattr(pack, "counters", None) or {}
    for i, unit in enumerate(units if isinstance(units, list) else []):
        if not isinstance(unit, Mapping) or not isinstance(unit.get("counter"), str) or f"units.{i}" in skip:
            continue
        counter = mix.get(unit["counter"])
        if not isinstance(counter, Mapping):
            continue  # an unknown counter: reported by the load
        for key in (*AT_MOST_PRINTED, *AS_PRINTED):
            have, printed = unit.get(key), counter.get(key)
            if have is None or printed is None or have == printed:
                continue
            numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (have, printed))
            if key in AT_MOST_PRINTED and numbers and have < printed:
                continue
            how = "is above" if key in AT_MOST_PRINTED and numbers else "differs from"
            file, line, col = locate(("units", i, key))
            out.append(Problem(file, line, col, f"units.{i}.{key}", f"unit {unit.get('id', unit['counter'])!r}: "
                               f"{key} {have!r} {how} {printed!r}, the value on its counter {unit['counter']!r} "
                               "(a unit's state never exceeds or changes its counter's: was the file edited?)"))
    return out


def victory_hexes(scenario: Any) -> Iterator[tuple[tuple, str]]:
    """``(key path, label)`` of every hex a position's ``scenario`` block names in its ``victory``:
    each string of a ``hexes`` list and each ``hex`` string, at any depth (checked against the map
    by the position's load and so by lint, each at its ``file:line:column``). Nothing for a
    scenario that is not a mapping."""
    if isinstance(scenario, Mapping):
        yield from _hexes_in(scenario.get("victory"), ("scenario", "victory"))
        yield from _hexes_in(scenario.get("bot_plan"), ("scenario", "bot_plan"))


def scenario_problems(scenario: Any, pack: Any, locate: Locate, inline_map: Any = None) -> list[Problem]:
    """Every problem of a position's ``scenario`` block against ``pack`` beyond the schema: its
    ``victory`` block against the plugins' schemas (casebook.content.requires.victory_problems), and
    each ``bot_plan`` objective naming a side or a unit class the game lacks or a ``town`` that is not the map's town in
    its ``hex`` (the towns of ``inline_map``, the position's ``map:``, else of the pack's map), each at its
    ``file:line:column``. Nothing for a scenario that is not a mapping."""
    from casebook.content.requires import victory_problems

    if not isinstance(scenario, Mapping):
        return []
    out = victory_problems(scenario.get("victory"), pack.manifest.get("plugins") or (), locate)
    plan = scenario.get("bot_plan")
    objectives = plan.get("objectives") if isinstance(plan, Mapping) else None
    board = inline_map if isinstance(inline_map, Mapping) else getattr(pack, "map", None)
    towns = board.get("towns") if isinstance(board, Mapping) else None
    towns = towns if isinstance(towns, Mapping) else {}
    sides = pack.vocabulary.side_ids
    for i, obj in enumerate(objectives if isinstance(objectives, list) else []):
        if not isinstance(obj, Mapping):
            continue
        base = ("scenario", "bot_plan", "objectives", i)
        side, town, label = obj.get("side"), obj.get("town"), obj.get("hex")
        if isinstance(side, str) and sides and side not in sides:
            file, line, col = locate(base + ("side",))
            out.append(Problem(file, line, col, ".".join(map(str, base + ("side",))),
                               f"unknown side {side!r} (sides: {', '.join(sides)})"))
        known = pack.vocabulary.unit_classes
        classes = obj.get("classes")
        for j, c in enumerate(classes if isinstance(classes, list) else []):
            if isinstance(c, str) and known and c not in known:
                file, line, col = locate(base + ("classes", j))
                out.append(Problem(file, line, col, ".".join(map(str, base + ("classes", j))),
                                   f"unknown unit class {c!r} (classes: {', '.join(known)})"))
        if isinstance(town, str) and isinstance(label, str):
            there = towns.get(label)
            name = there.get("name") if isinstance(there, Mapping) else None
            if str(name or "").lower() != town.lower():
                file, line, col = locate(base + ("town",))
                where = f"the map's town there is {name!r}" if name else "the map has no town there"
                out.append(Problem(file, line, col, ".".join(map(str, base + ("town",))),
                                   f"town {town!r} is not in hex {label}: {where}"))
    return out


def _hexes_in(node: Any, base: tuple) -> Iterator[tuple[tuple, str]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "hexes" and isinstance(value, list):
                yield from ((base + (key, i), h) for i, h in enumerate(value) if isinstance(h, str))
            elif key == "hex" and isinstance(value, str):
                yield base + (key,), value
            else:
                yield from _hexes_in(value, base + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _hexes_in(value, base + (i,))
