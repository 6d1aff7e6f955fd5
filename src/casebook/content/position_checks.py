"""Checks of a position against its pack beyond the schema (:mod:`casebook.content.position` runs
them on every load, so ``play --load``, ``serve``'s load, ``ask`` and ``lint`` refuse the same files):

- :func:`victory_hexes`: the hexes a scenario's ``victory`` and ``bot_plan`` blocks name, each to be on the map;
- :func:`victory_board_problems`: those hexes and the ``victory`` block against the map — a hex off it, a hex listed twice in one
  ``hexes`` list, an ``enter`` target or ``town`` the map lacks, a town's name unlike its hex's
  (a misspelt 18.1.3 town, with the map's names and a did-you-mean);
- :func:`off_map`: why a label is no hex of the map (off it, or no label: ``"１２３４"``), or None;
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
from casebook.core.hexgrid import hex_label, parse_hex

__all__ = ["counter_state_problems", "victory_hexes", "victory_board_problems", "off_map", "scenario_problems"]

Locate = Callable[[tuple], tuple[str, int, int]]
#: Unit fields that can fall below the counter's printed value in play (a step loss) but never rise above it.
AT_MOST_PRINTED = ("strength", "ma")
#: Unit fields that are always the counter's.
AS_PRINTED = ("side",)
#: Unit fields at least 1 when the counter prints one: a unit with no strength left is eliminated.
AT_LEAST_ONE = ("strength",)


def counter_state_problems(units: Any, pack: Any, locate: Locate, skip: tuple[str, ...] = ()) -> list[Problem]:
    """Every problem of ``units`` (a position's raw ``units`` list, ``counter:`` references
    resolved) against the counter mix of ``pack``: a field of :data:`AT_MOST_PRINTED` above the
    counter's, a field of :data:`AS_PRINTED` unlike it. Units without ``counter:`` (a test
    position's ad-hoc units) and the key paths in ``skip`` (problems reported elsewhere) are not checked.
    A field of :data:`AT_LEAST_ONE` below 1 (``strength: 0`` or ``-1``) is a problem too, naming the
    unit (the caller drops the schema's bare problem at the same key)."""
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
            name, file_line_col = unit.get("id", unit["counter"]), locate(("units", i, key))
            if key in AT_LEAST_ONE and numbers and have < 1 <= printed:
                out.append(Problem(*file_line_col, f"units.{i}.{key}", f"unit {name!r}: {key} {have!r} is below 1 "
                                   f"(its counter {unit['counter']!r} prints {printed!r}): a unit with no {key} left is "
                                   "eliminated, listed under removed: (was the file edited?)"))
                continue
            if key in AT_MOST_PRINTED and numbers and have < printed:
                continue
            how = "is above" if key in AT_MOST_PRINTED and numbers else "differs from"
            out.append(Problem(*file_line_col, f"units.{i}.{key}", f"unit {name!r}: "
                               f"{key} {have!r} {how} {printed!r}, the value on its counter {unit['counter']!r} "
                               "(a unit's state never exceeds or changes its counter's: was the file edited?)"))
    return out


def off_map(label: Any, grid: Any) -> str | None:
    """Why ``label`` is no hex of ``grid`` (a :class:`casebook.core.hexgrid.HexGrid`): ``"hex 9999 is
    off the map (hexes 0108..4053)"``, or :func:`~casebook.core.hexgrid.parse_hex`'s words for a label
    that is not four ASCII digits (``"１２３４"``: ``str.isdigit`` says yes, the grid no); None when on it."""
    try:
        return None if grid.contains(parse_hex(label)) else f"hex {label} is off the map ({grid.describe()})"
    except ValueError as exc:
        return str(exc)


def victory_board_problems(scenario: Any, board: Any, locate: Locate) -> list[Problem]:
    """Every problem of a position's ``scenario: victory:`` block against ``board`` (a
    :class:`casebook.core.board.Board`, the map it is played on), each at its ``file:line:column``
    and key, with the map's names and a did-you-mean:

    - a hex of a ``hexes`` list or a ``hex`` off the map (a label that is no four-digit label is the
      victory schema's, reported there once);
    - a hex listed twice in one ``hexes`` list ("3 of 5" met by one town twice, 18.1.3A);
    - an ``enter`` condition's ``target`` that is neither ``town`` nor a hex set of the map, its
      ``town`` no town of the map bears (18.1.3B, 18.1.3D: nothing could ever enter it);
    - a ``names`` entry unlike the name of the town at the same place of ``hexes`` (18.1.3A's words
      for the towns): a name no town bears, or another town's.

    Nothing for a scenario or block that is not a mapping (the schema's problems)."""
    import re

    from casebook.content.schema import did_you_mean

    out: list[Problem] = []

    def add(kp: tuple, message: str) -> None:
        out.append(Problem(*locate(kp), ".".join(map(str, kp)), message))

    seen: dict[tuple, int] = {}
    for kp, label in victory_hexes(scenario):
        if not re.fullmatch(r"[0-9]{4}", label):
            continue
        if (why := off_map(label, board.grid)) is not None:
            add(kp, why)
        if kp[-2] == "hexes" and (first := seen.setdefault((*kp[:-1], label), kp[-1])) != kp[-1]:
            add(kp, f"hex {label} is listed twice in {kp[-2]} (also {kp[-2]}.{first}): each hex counts once")
    towns = {hex_label(h): t["name"] for h, t in board.towns().items() if isinstance(t.get("name"), str)}
    names = sorted(set(towns.values()))
    known_towns = f"the map's towns: {', '.join(names)}" if names else "the map has no towns"

    def unknown_town(kp: tuple, name: Any) -> bool:
        if name in names:
            return False
        what = f"unknown town {name!r}{did_you_mean(name, names)}" if isinstance(name, str) else \
            f"expected a town's name, got {name!r}"
        add(kp, f"{what}; {known_towns}")
        return True

    block = scenario.get("victory") if isinstance(scenario, Mapping) else None
    for side, conds in block.items() if isinstance(block, Mapping) else ():
        for i, cond in enumerate(conds if isinstance(conds, list) else ()):
            if not isinstance(cond, Mapping):
                continue
            base = ("scenario", "victory", side, i)
            target = cond.get("target")
            if target == "town":
                unknown_town(base + ("town",), cond.get("town"))
            elif isinstance(target, str) and target not in board.hex_sets:
                sets = ["town", *sorted(board.hex_sets)]
                add(base + ("target",), f"unknown target {target!r}{did_you_mean(target, sets)}: expected 'town' "
                    f"(with town: a town's name) or a hex set of the map: {', '.join(map(repr, sets[1:])) or 'none'}")
            hexes, listed = (v if isinstance(v := cond.get(k), list) else [] for k in ("hexes", "names"))
            for j, name in enumerate(listed):  # a name beside a hex that is no town is the modder's word
                at = towns.get(hexes[j]) if j < len(hexes) and isinstance(hexes[j], str) else None
                if at is not None and at != name and not unknown_town(base + ("names", j), name):
                    add(base + ("names", j), f"{name!r} is not the town at {hexes[j]} (hexes.{j}), {at!r}: "
                        "names follow the order of hexes")
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
