"""Positions: one document format for scenarios, saved games and test positions (docs/positions.md).

:func:`load_position` reads a position (a file path or YAML/JSON text), resolves its pack (from
``game:`` when not given), its map (inline ``map:`` or the pack's) and its ``counter:``
references (fields from the pack's counter mix, overridden by the unit's own keys), validates it
and returns a frozen :class:`~casebook.content.schema_position.Position`. A bad position is
refused whole: :class:`~casebook.core.errors.PositionError` lists every problem (unknown unit
class, hex off the map, duplicate unit ids, unknown counter, bad weather, unknown phase, ...).
:func:`dump_position` is the exact inverse: ``load_position(dump_position(p)) == p``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

from casebook.content.confine import is_game_id
from casebook.content.position_checks import counter_state_problems, off_map, scenario_problems, victory_board_problems
from casebook.content.provenance import PatchError, apply_patch
from casebook.content.schema import describe, did_you_mean, validate_model
from casebook.content.schema_pack import undot
from casebook.content.schema_position import Position, counter_fields
from casebook.content.tracks import track_problems
from casebook.content.yamlio import YamlDoc, dotted, dump_yaml, read_yaml
from casebook.core.errors import PositionError, Problem

__all__ = ["load_position", "check_scenario", "position_to_dict", "dump_position", "dump_save", "effective_map",
           "pack_dir_near", "Position"]

Locate = Callable[[tuple], tuple[str, int, int]]


def _p(locate: Locate, kp: tuple, message: str) -> Problem:
    f, line, col = locate(kp)
    return Problem(f, line, col, dotted(kp), message)


def pack_dir_near(game: str, near: str | Path | None) -> Path | None:
    """The folder of the pack of ``game`` that a position file at ``near`` belongs to: the
    nearest folder above it holding a ``game.yaml`` with that id (a copied or edited pack), or
    None (then the installed game is meant)."""
    if near is None:
        return None
    for parent in Path(near).resolve().parents:
        gy = parent / "game.yaml"
        if gy.is_file():
            doc, _ = read_yaml(gy)
            if doc is not None and isinstance(doc.data, dict) and doc.data.get("id") == game:
                return parent
    return None


def _find_pack_for(game: str, near: Path | None) -> Any:
    """The pack of ``game``: a ``game.yaml`` with that id above ``near``, else the installed one."""
    from casebook.content.loader import find_pack, load_pack
    from casebook.core.errors import ContentError

    here = pack_dir_near(game, near)
    if here is not None:
        return load_pack(here)
    try:
        return load_pack(find_pack(game))
    except ContentError as exc:
        if any("no content pack here" in p.message for p in exc.problems):
            return None
        raise


def _resolve_counters(data: dict[str, Any], pack: Any, locate: Locate, out: list[Problem]) -> tuple[dict[str, Any], set[int], set[str]]:
    """A copy of ``data`` whose ``counter:`` units carry the counter mix fields, the indices of
    units whose counter could not be resolved, and the key paths taken from the counter mix
    (their problems are the counter mix's, reported there)."""
    units = data.get("units")
    bad: set[int] = set()
    inherited: set[str] = set()
    if not isinstance(units, list):
        return data, bad, inherited
    resolved = []
    for i, u in enumerate(units):
        if isinstance(u, dict) and "counter" in u:
            cid = u["counter"]
            mix = pack.counters if pack is not None else {}
            if pack is None:
                bad.add(i)
                out.append(_p(locate, ("units", i, "counter"), "a counter: reference needs the game's pack"))
            elif not isinstance(cid, str) or cid not in mix:
                bad.add(i)
                hint = did_you_mean(cid, mix) if isinstance(cid, str) else ""
                out.append(_p(locate, ("units", i, "counter"), f"unknown counter {describe(cid)}{hint}"))
            else:
                base = {k: mix[cid][k] for k in counter_fields(pack.vocabulary) if k in mix[cid]}
                inherited.update(f"units.{i}.{k}" for k in base if k not in u)
                u = {**base, **u}  # a game's unit flag is written only where set (a save keeps what it has)
        resolved.append(u)
    return {**data, "units": resolved}, bad, inherited


def _board(map_data: Any, base: tuple, locate: Locate, out: list[Problem]) -> Any:
    from casebook.content.mapdata import BoardError, board_from_map

    try:
        return board_from_map(map_data)
    except BoardError as exc:
        out += [_p(locate, base + undot(map_data, k), m) for k, m in exc.problems]
        return None


def _semantic(pos: Position, data: dict[str, Any], pack: Any, locate: Locate) -> list[Problem]:
    out: list[Problem] = []
    if pack is not None and pos.game != pack.id:
        out.append(_p(locate, ("game",), f"this position is for game {pos.game!r}, the pack is {pack.id!r}"))
    seen: dict[str, int] = {}
    for i, u in enumerate(pos.units):
        if u.id in seen:
            out.append(_p(locate, ("units", i, "id"), f"duplicate unit id {u.id!r} (also units.{seen[u.id]})"))
        seen.setdefault(u.id, i)
    if pos.map is not None:
        board = _board(data["map"], ("map",), locate, out)
        if pack is not None:  # a terrain the TEC or the facts lack, at its line (as lint: crossref.py)
            from casebook.content.crossref import map_terrain_problems

            out += map_terrain_problems(pack, data["map"].get("terrain"), locate)
    elif pack is not None and pack.map:
        from casebook.content.packcache import pack_board

        try:
            board = pack_board(pack)  # the pack's board, built once (src/casebook/content/packcache.py)
        except Exception:
            board = _board(pack.map, ("map",), locate, [])
    else:
        board = None
        out.append(_p(locate, (), "no map: give an inline map: or a game whose pack has one"))
    if board is not None:
        grid = board.grid

        def on_map(label: str | None, kp: tuple) -> None:
            if label is not None and (why := off_map(label, grid)) is not None:  # "１２３４": parse_hex's words
                out.append(_p(locate, kp, why))

        for i, u in enumerate(pos.units):
            on_map(u.hex, ("units", i, "hex"))
        for i, m in enumerate(pos.markers):
            on_map(m.hex, ("markers", i, "hex"))
        for label in pos.control:
            on_map(label, ("control", label))
        out += victory_board_problems(data.get("scenario"), board, locate)  # lint and load
    if pos.scenario is not None and pos.scenario.first_turn > pos.scenario.last_turn:
        out.append(_p(locate, ("scenario", "last_turn"),
                      f"last_turn {pos.scenario.last_turn} is before first_turn {pos.scenario.first_turn}"))
    if pack is not None:
        out += _against_pack(pos, pack, locate)
    return out


def _vocabulary(data: dict[str, Any], pack: Any, locate: Locate, skip: Collection[str]) -> list[Problem]:
    """Sides, unit classes and sizes, weather and marker kinds of the raw position ``data`` against
    the game's vocabulary (also when the schema finds other problems: all are listed at once);
    keys in ``skip`` (units whose counter is unknown, fields taken from the counter mix) are not."""
    from casebook.content.vocabulary import vocabulary_of, vocabulary_problems

    out: list[Problem] = []

    def report(kp: tuple[Any, ...], msg: str) -> None:
        key = ".".join(map(str, kp))
        if not any(key == s or key.startswith(s + ".") for s in skip):
            out.append(_p(locate, kp, msg))

    def items(key: str) -> list[tuple[int, Any]]:
        value = data.get(key)
        return list(enumerate(value)) if isinstance(value, list) else []

    units = [(("units", i), u) for i, u in items("units") if isinstance(u, dict)]
    markers = [(("markers", i, "kind"), m.get("kind")) for i, m in items("markers") if isinstance(m, dict)]
    sides: list[tuple[tuple[Any, ...], Any]] = [((k,), data.get(k)) for k in ("phasing", "first_player")]
    if isinstance(data.get("control"), dict):
        sides += [(("control", h), s) for h, s in data["control"].items()]
    weather = data.get("weather") if isinstance(data.get("weather"), dict) else None
    if isinstance(data.get("map"), dict):
        from casebook.content.vocabulary import map_key_problems

        map_key_problems(pack.vocabulary, data["map"], report, ("map",))
    from casebook.content.schema_position import Unit

    vocabulary_problems(vocabulary_of(pack.manifest), units, report, weather=weather,
                        markers=[(kp, k) for kp, k in markers if isinstance(k, str)],
                        sides=[(kp, s) for kp, s in sides if isinstance(s, str)],
                        unit_fields={f.alias or name for name, f in Unit.model_fields.items()})
    return out


def _against_pack(pos: Position, pack: Any, locate: Locate) -> list[Problem]:
    out: list[Problem] = []
    phases = {ph.get("id"): ph for ph in pack.sequence.get("phases") or [] if isinstance(ph, dict)}
    if pos.phase is not None and phases and pos.phase not in phases:
        out.append(_p(locate, ("phase",), f"unknown phase {pos.phase!r}{did_you_mean(pos.phase, phases)}"))
    if pos.step is not None and phases:
        phase = phases.get(pos.phase) if pos.phase else next(iter(phases.values()))
        steps = [s.get("id") for s in (phase or {}).get("steps") or [] if isinstance(s, dict)]
        if phase is not None and pos.step not in steps:
            out.append(_p(locate, ("step",), f"{pos.step!r} is not a step of phase {phase.get('id')!r}{did_you_mean(pos.step, steps)}"))
    settings = {i["setting"]["name"]: i["setting"] for i in pack.interpretations.values() if isinstance(i.get("setting"), dict)}
    for name, value in pos.settings.items():
        if name not in settings:
            out.append(_p(locate, ("settings", name), f"unknown setting {name!r}{did_you_mean(name, settings)}"))
        elif value not in settings[name].get("choices", []):
            out.append(_p(locate, ("settings", name), f"expected one of {settings[name]['choices']}, got {describe(value)}"))
    known = set(pack.counters) | {u.id for u in pos.units}
    lists: tuple[tuple[str, Sequence[Any]], ...] = (("pending", pos.pending), ("removed", pos.removed))
    for key, items in lists:
        for i, item in enumerate(items):
            if pack.counters and item.unit not in known:
                out.append(_p(locate, (key, i, "unit"), f"unknown unit {item.unit!r}{did_you_mean(item.unit, known)}"))
    return out


def _raw_semantic(data: dict[str, Any], pack: Any, locate: Locate) -> list[Problem]:
    """The pack checks of :func:`_semantic` on raw data (used when the schema refused it):
    hexes of units, markers and control on the map, the phase and step ids."""
    out: list[Problem] = []
    board = _board(pack.map, ("map",), locate, []) if pack is not None and pack.map else None
    if isinstance(data.get("map"), dict):
        board = _board(data["map"], ("map",), locate, [])
    if board is not None:
        from casebook.core.hexgrid import parse_hex
        from casebook.core.state import HEX_RE

        def on_map(label: Any, kp: tuple) -> None:
            if isinstance(label, str) and HEX_RE.match(label) and not board.grid.contains(parse_hex(label)):
                out.append(_p(locate, kp, f"hex {label} is off the map ({board.grid.describe()})"))

        for key in ("units", "markers"):
            items = data.get(key)
            for i, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict):
                    on_map(item.get("hex"), (key, i, "hex"))
        control = data.get("control")
        for label in control if isinstance(control, dict) else ():
            on_map(label, ("control", label))
        out += victory_board_problems(data.get("scenario"), board, locate)
    if pack is not None:
        phases = {ph.get("id"): ph for ph in pack.sequence.get("phases") or [] if isinstance(ph, dict)}
        phase, step = data.get("phase"), data.get("step")
        if isinstance(phase, str) and phases and phase not in phases:
            out.append(_p(locate, ("phase",), f"unknown phase {phase!r}{did_you_mean(phase, phases)}"))
        elif isinstance(step, str) and phases:
            ph = phases.get(phase) if isinstance(phase, str) else next(iter(phases.values()))
            steps = [x.get("id") for x in (ph or {}).get("steps") or [] if isinstance(x, dict)]
            if ph is not None and step not in steps:
                out.append(_p(locate, ("step",), f"{step!r} is not a step of phase {ph.get('id')!r}"
                              f"{did_you_mean(step, steps)}"))
    return out


def _first_player(pos: Position, pack: Any, locate: Locate) -> tuple[Position, list[Problem]]:
    """``pos`` with the ``first_player`` its ``phasing`` gives (:func:`first_player_of`), or the
    problem of a phase that needs one no field names."""
    from casebook.content.savecheck import first_player_of, first_player_problems

    fields = {k: v for k in ("phase", "phasing", "first_player") if (v := getattr(pos, k)) is not None}
    first = first_player_of(fields, pack)
    if first is not None:
        return pos.model_copy(update={"first_player": first}), []
    return pos, first_player_problems(fields, pack, locate)


Extra = Callable[[dict[str, Any], Locate], list[Problem]]


def _validate(doc: YamlDoc, data: Any, pack: Any, locate: Locate,
              extra: Extra | None = None) -> tuple[Position | None, list[Problem]]:
    if not isinstance(data, dict):
        return None, [_p(locate, (), f"expected a position mapping (kind: position), got {describe(data)}")]
    out: list[Problem] = []
    if data.get("kind") != "position":
        out.append(_p(locate, ("kind",), f"expected kind 'position', got {describe(data.get('kind'))}"))
        return None, out
    resolved, bad, inherited = _resolve_counters(data, pack, locate, out)
    pos, probs = validate_model(Position, resolved, locate)
    skip = tuple(f"units.{i}" for i in bad)  # their counter problem says it all
    out += [p for p in probs if p.key not in inherited
            and not any(p.key == s or p.key.startswith(s + ".") for s in skip)]
    if pack is not None:
        state = counter_state_problems(resolved.get("units"), pack, locate, skip)  # naming the unit, it replaces
        out = [p for p in out if p.key not in {s.key for s in state}]  # the schema's bare problem at its key
        out += _vocabulary(resolved, pack, locate, (*skip, *inherited)) + state
        vocab = pack.vocabulary
        out += track_problems(resolved, vocab.tracks, vocab.side_ids, locate, fixed=Position.model_fields)
        out += scenario_problems(resolved.get("scenario"), pack, locate, resolved.get("map"))
    if pos is not None:
        out += _semantic(pos, resolved, pack, locate)
        pos, probs = _first_player(pos, pack, locate)
        out += probs
    else:  # the schema failed: still list what the raw data shows (every problem at once)
        out += [p for p in _raw_semantic(resolved, pack, locate) if p not in out]
    if extra is not None:
        out += [p for p in extra(resolved, locate) if p not in out]

    return (pos if not out else None), out


def check_scenario(doc: YamlDoc, data: Any, pack: Any, locate: Locate) -> list[Problem]:
    """Every problem of a scenario of ``pack`` (raw data with errata applied)."""
    return _validate(doc, data, pack, locate)[1]


def load_position(path_or_text: str | Path, pack: Any = None, extra: Extra | None = None) -> Position:
    """Load and validate a position from a file path or YAML/JSON text.

    ``pack`` (a :class:`~casebook.content.pack.Pack`) defaults to the pack of the position's
    ``game:`` (a ``game.yaml`` with that id in a folder above the file, else the installed game).
    Errata of the pack that target this file are applied. ``extra(data, locate)`` adds checks
    of its own (a save's: :func:`casebook.content.savecheck.save_problems`), reported with the
    others. Raises :class:`PositionError` listing every problem; the position is refused whole.
    """
    from casebook.content.loader import display_path

    path: Path | None = None
    if isinstance(path_or_text, Path) or ("\n" not in path_or_text and Path(path_or_text).is_file()):
        path = Path(path_or_text)
        doc, problems = read_yaml(path, file=display_path(path))
    else:
        doc, problems = read_yaml("<position>", text=str(path_or_text))
    if doc is None or problems:
        raise PositionError(problems)
    data = doc.data

    def locate(kp: tuple) -> tuple[str, int, int]:
        line, col = doc.where(kp)
        return doc.file, line, col

    if pack is None and isinstance(data, dict) and data.get("game") is not None:
        if not is_game_id(data["game"]):  # a game id, never a path (confine.py)
            raise PositionError([_p(locate, ("game",), f"expected a game id (a pack's id:), got "
                                    f"{describe(data['game'])}: a pack folder is given by option, not here")])
        pack = _find_pack_for(data["game"], path)
        if pack is None:
            raise PositionError([_p(locate, ("game",), f"unknown game {data['game']!r}: no pack found")])
    if pack is not None and path is not None and pack.patches_for(path):
        data = copy.deepcopy(data)
        for epath, i, patch in pack.patches_for(path):
            op = next(k for k in ("set", "add", "remove") if k in patch)
            try:
                apply_patch(data, patch["path"], op, patch.get(op))
            except PatchError as exc:
                raise PositionError([Problem(display_path(epath), 0, 0, f"patches.{i}.path", str(exc))]) from None
    pos, problems = _validate(doc, data, pack, locate, extra)
    if problems or pos is None:
        raise PositionError(problems or [_p(locate, ("units",), "a unit taken from the counter mix is invalid")])
    return pos


def position_to_dict(pos: Position) -> dict[str, Any]:
    """Plain data of a position (defaults and nulls left out; units from a ``counter:`` keep
    every field so they reload identically); a save's mark ``save``, then ``kind``, ``format``, ``game`` first."""
    d = pos.model_dump(by_alias=True, exclude_none=True, exclude_defaults=True)
    if pos.units:
        d["units"] = [
            u.model_dump(by_alias=True, exclude_none=True, exclude_defaults=u.counter is None)
            for u in pos.units
        ]
    head: dict[str, Any] = {k: d.pop(k) for k in ("save", "kind", "format", "game", "provenance") if k in d}
    # the tracks (extra keys) go after first_player, as a state writes them; empty ones are left out
    tracks = {k: d.pop(k) for k in list(d) if k not in Position.model_fields}
    at = list(Position.model_fields).index("units")
    before = {k: d.pop(k) for k in list(d) if list(Position.model_fields).index(k) < at}
    return {**head, **before, **{k: v for k, v in tracks.items() if v not in (0, {})}, **d}


def dump_position(pos: Position) -> str:
    """A position as YAML text; ``load_position(dump_position(p), pack) == p``."""
    return dump_yaml(position_to_dict(pos))


def dump_save(data: Any) -> str:
    """A play's position document (``State.to_dict()``) as the YAML text of a save, in the one
    canonical form of :func:`dump_position` (fields in schema order, defaults left out), so
    save → load → save gives the same bytes. Data the schema refuses is dumped as it is."""
    pos, problems = validate_model(Position, data, lambda kp: ("<save>", 0, 0))
    if pos is None or problems:
        return dump_yaml(data)
    return dump_position(pos)


def effective_map(pos: Position, pack: Any = None) -> dict[str, Any]:
    """The map a position is played on: its inline ``map:`` or the pack's map (plain data)."""
    if pos.map is not None:
        return pos.map.model_dump(by_alias=True, exclude_none=True)
    if pack is None:
        raise ValueError("this position has no inline map: give its pack")
    return dict(pack.map)
