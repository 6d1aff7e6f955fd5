"""Checks of a save (a position resumed in play) that need the loaded engine: refused whole.

A shared save is untrusted input. :func:`save_problems` lists, all at once, every problem of a
position document that the schema alone cannot see:

- ``rng``: ``seed`` an int >= 0, ``state`` null or an int in ``[0, 2**64)`` (the PCG32 state,
  :mod:`casebook.core.dice`);
- every track declared by the game's vocabulary, by its declared keys, within its bounds
  (:mod:`casebook.content.tracks`; a bound may be a rule-script quantity's ``at most``);
- ``plugin_state``: one entry per plugin of the pack (or the driver), each a mapping, checked
  against the schema its plugin declares (a module attribute ``STATE_SCHEMA``, a ``TypedDict``
  read by pydantic in strict mode: unknown keys, wrong types and negative counts refused);
- units given by ``counter:`` reference alone are expanded by :func:`casebook.content.position`
  (``load_position``); :func:`save_problems` refuses a unit that still has no ``id``/``side``.

``locate(key_path) -> (file, line, column)`` places each problem (a save read from a file) or
gives ``(file, 0, 0)``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Annotated, Any

from pydantic import ConfigDict, StringConstraints, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from casebook.content.tracks import track_problems
from casebook.core.errors import Problem

__all__ = ["save_problems", "rng_problems", "turn_problems", "TRACE_SLOT", "TraceLink", "DriverRecord", "trace_digest",
            "StandingRecord", "plugin_state_problems", "state_schema", "state_slots", "is_save", "load_save",
           "Locate", "RNG_MAX", "first_player_of", "first_player_problems", "weather_phase", "weather_problems"]

Locate = Callable[[tuple], tuple[str, int, int]]
#: Largest PCG32 state (64 bits).
RNG_MAX = (1 << 64) - 1
#: plugin_state keys the kernel itself keeps: the game driver's bookkeeping (src/casebook/core/play.py)
#: and the link of a save to the trace written beside it (:data:`TRACE_SLOT`).
TRACE_SLOT = "trace"
#: ... and the pack a save was played on (casebook.tools.saves.pack_identity).
PACK_SLOT = "pack"
KERNEL_SLOTS = ("driver", TRACE_SLOT, PACK_SLOT)


class StandingRecord(TypedDict):
    """``plugin_state.driver.standing``: a standing pass (``pass until=loop``) in force — who took
    it, on which turn, in which phase and loop of steps, citing which cases
    (:func:`casebook.core.standing.standing_record`)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    side: str
    turn: int
    phase: str
    steps: list[str]
    cases: list[str]


class DriverRecord(TypedDict, total=False):
    """``plugin_state.driver`` of a save: the game driver's step bookkeeping, the standing pass in
    force (None once it lapsed) and the declared result (written by :class:`casebook.core.play.State`)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    started: bool
    acted: bool
    standing: StandingRecord | None
    result: dict[str, Any]


class PackLink(TypedDict):
    """``plugin_state.pack`` of a save: the game id, folder and content SHA-256 of its pack."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    id: str
    folder: str
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class TraceLink(TypedDict):
    """``plugin_state.trace`` of a save written with its trace beside it (``SAVE.trace.jsonl``):
    the SHA-256 (hex) of that file's bytes, so a resumed play never continues an edited trace."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


def trace_digest(data: bytes) -> str:
    """The :class:`TraceLink` digest of a trace file's bytes."""
    return hashlib.sha256(data).hexdigest()


def _problem(locate: Locate, kp: tuple, message: str) -> Problem:
    file, line, col = locate(kp)
    return Problem(file, line, col, ".".join(map(str, kp)), message)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def rng_problems(rng: Any, locate: Locate) -> list[Problem]:
    """Problems of a position's ``rng`` (absent is fine: a fresh game)."""
    if rng is None:
        return []
    if not isinstance(rng, Mapping):
        return [_problem(locate, ("rng",), "expected a mapping {seed: N, state: N or null, fixed: [faces]}")]
    out = [_problem(locate, ("rng", k), "unknown key") for k in rng if k not in ("seed", "state", "fixed")]
    fixed = rng.get("fixed", [])  # the faces given by --rolls not yet used (docs/positions.md)
    if not isinstance(fixed, list) or not all(_int(f) and f >= 1 for f in fixed):
        out.append(_problem(locate, ("rng", "fixed"), f"expected a list of die faces (ints >= 1), got {fixed!r}"))
    seed, state = rng.get("seed", 0), rng.get("state")
    if not _int(seed) or seed < 0:
        out.append(_problem(locate, ("rng", "seed"), f"the seed must be an int >= 0, got {seed!r}"))
    if state is not None and (not _int(state) or not 0 <= state <= RNG_MAX):
        out.append(_problem(locate, ("rng", "state"),
                            f"the generator state must be null or an int in [0, 2**64), got {state!r}"))
    return out


def _module(plugin: str) -> Any:
    from casebook.content.plugins import resolve_plugin

    try:
        return resolve_plugin(plugin)
    except LookupError:
        return None


@lru_cache(maxsize=64)
def state_schema(plugin: str) -> TypeAdapter | None:
    """The pydantic adapter of the ``STATE_SCHEMA`` plugin ``plugin`` declares (None if none)."""
    schema: Any
    if plugin == TRACE_SLOT:
        schema = TraceLink
    elif plugin == PACK_SLOT:
        schema = PackLink
    elif plugin in KERNEL_SLOTS:
        schema = DriverRecord
    else:
        schema = getattr(_module(plugin), "STATE_SCHEMA", None)
    return None if schema is None else TypeAdapter(schema)


def state_slots(plugins: tuple[str, ...]) -> dict[str, str]:
    """``plugin_state`` key -> plugin name: each plugin's ``STATE_KEY`` (default: its name), and
    the kernel's own slots."""
    slots = {name: name for name in KERNEL_SLOTS}
    for name in plugins:
        slots.setdefault(str(getattr(_module(name), "STATE_KEY", name)), name)
    return slots


def plugin_state_problems(plugin_state: Any, plugins: tuple[str, ...], locate: Locate) -> list[Problem]:
    """Problems of ``plugin_state``: every key a plugin's slot (of the pack's ``plugins`` or the
    kernel's), every value a mapping matching its plugin's declared schema."""
    if plugin_state is None:
        return []
    if not isinstance(plugin_state, Mapping):
        return [_problem(locate, ("plugin_state",), "expected a mapping plugin name -> its record")]
    slots = state_slots(plugins)
    out: list[Problem] = []
    for key, record in plugin_state.items():
        kp = ("plugin_state", key)
        if key not in slots:
            out.append(_problem(locate, kp, f"no plugin keeps {key!r} in this game (slots: {', '.join(slots)})"))
            continue
        if not isinstance(record, Mapping):
            out.append(_problem(locate, kp, "a plugin's record is a mapping"))
            continue
        adapter = state_schema(slots[key])
        if adapter is None:
            continue
        try:
            adapter.validate_python(dict(record), strict=True)
        except ValidationError as exc:
            for err in exc.errors()[:20]:
                loc = tuple(err.get("loc", ()))
                out.append(_problem(locate, kp + loc, err.get("msg", "invalid")))
    return out


def save_problems(data: Mapping[str, Any], engine: Any, locate: Locate) -> list[Problem]:
    """Every problem :mod:`casebook.content.position` cannot see in a save played on ``engine``:
    the RNG, the tracks' bounds, each plugin's stored state, units without ``id`` or ``side``."""
    out = rng_problems(data.get("rng"), locate)
    out += turn_problems(data, engine.pack, locate)
    out += first_player_problems(data, engine.pack, locate)
    from casebook.content.schema_position import Position

    vocab = engine.pack.vocabulary
    out += track_problems(data, vocab.tracks, vocab.side_ids, locate, fixed=Position.model_fields,
                          rules=engine.rules)
    plugins = tuple(engine.pack.manifest.get("plugins") or ())
    out += plugin_state_problems(data.get("plugin_state"), plugins, locate)
    units = data.get("units")
    for i, u in enumerate(units if isinstance(units, list) else []):
        if isinstance(u, Mapping) and ("id" not in u or "side" not in u):
            what = "a counter: reference that was not expanded" if "counter" in u else "a unit"
            out.append(_problem(locate, ("units", i), f"{what}: a unit of a save needs its id and side "
                                "(load the file with casebook.content.position.load_position, which expands "
                                "counter: references from the pack's counter mix)"))
    return out


def _needs_first(data: Mapping[str, Any], pack: Any) -> tuple[str, str] | None:
    """(phase id, ``first`` or ``second``) when the position's ``phase`` is played by the first or
    second player and ``first_player`` is not given (a position without a phase is not asked: it
    starts where its scenario does)."""
    phases = [ph for ph in ((getattr(pack, "sequence", None) or {}).get("phases") or []) if isinstance(ph, Mapping)]
    if not phases or data.get("first_player") is not None or data.get("phase") is None:
        return None
    phase = next((ph for ph in phases if ph.get("id") == data["phase"]), None)
    side = (phase or {}).get("side")
    return (str(phase["id"]), side) if phase is not None and side in ("first", "second") else None


def first_player_of(data: Mapping[str, Any], pack: Any) -> str | None:
    """The first player a position's phase needs and does not name: its ``phasing`` side in a
    phase of the first player, the other side in one of the second; None if not needed or
    ``phasing`` is not given."""
    needs, sides = _needs_first(data, pack), list(getattr(getattr(pack, "vocabulary", None), "side_ids", ()))
    phasing = data.get("phasing")
    if needs is None or phasing not in sides or len(sides) != 2:
        return None
    return str(phasing) if needs[1] == "first" else next(s for s in sides if s != phasing)


def first_player_problems(data: Mapping[str, Any], pack: Any, locate: Locate) -> list[Problem]:
    """A phase played by the first (second) player whose first player neither ``first_player``
    nor ``phasing`` gives: the problem of ``first_player``, located at ``phase:`` (a play would
    stop at the phase's end, not knowing whose phase comes next)."""
    needs = _needs_first(data, pack)
    if needs is None or first_player_of(data, pack) is not None:
        return []
    sides = ", ".join(getattr(pack.vocabulary, "side_ids", ()))
    file, line, col = locate(("phase",))
    return [Problem(file, line, col, "first_player", f"not given, but phase {needs[0]!r} is played by the "
                    f"{needs[1]} player: add `first_player: SIDE` (or the phase's `phasing: SIDE`; SIDE: {sides})")]


def turn_problems(data: Mapping[str, Any], pack: Any, locate: Locate) -> list[Problem]:
    """A save's ``turn`` within its scenario's turns, and the scenario's turns those of the pack's
    scenario of that id (a save cannot lengthen a game: ``turn: 999`` of a 7-turn scenario was
    accepted). A scenario the pack does not have is bounded by the save's own block."""
    scenario = data.get("scenario")
    if not isinstance(scenario, Mapping):
        return []
    first, last = scenario.get("first_turn"), scenario.get("last_turn")
    out: list[Problem] = []
    sid = scenario.get("id")
    if isinstance(sid, str) and sid in getattr(pack, "scenarios", {}):
        try:
            printed = pack.scenario(sid).scenario
        except Exception:  # the pack's own scenario is the pack's problem (lint), not the save's
            printed = None
        if printed is not None:
            for key, value in (("first_turn", printed.first_turn), ("last_turn", printed.last_turn)):
                if scenario.get(key) != value:
                    out.append(_problem(locate, ("scenario", key), f"scenario {sid!r} of {pack.id} has "
                                        f"{key} {value}, the save says {scenario.get(key)!r}"))
            first, last = printed.first_turn, printed.last_turn
    turn = data.get("turn", first)
    if _int(turn) and _int(first) and _int(last) and not first <= turn <= last:
        out.append(_problem(locate, ("turn",), f"turn {turn} is outside the scenario's turns "
                            f"{first}-{last}"))
    return out


def is_save(data: Any) -> bool:
    """Whether a position document is a save (a play's state: it has ``plugin_state`` or a
    generator ``rng.state``), checked by :func:`save_problems` wherever it is read."""
    if not isinstance(data, Mapping):
        return False
    rng = data.get("rng")
    return bool(data.get("plugin_state")) or (isinstance(rng, Mapping) and rng.get("state") is not None)


def load_save(path_or_text: Any, engine: Any) -> Any:
    """The position at ``path_or_text`` (a file or YAML text) checked whole as a save of
    ``engine``'s game: the position schema and :func:`save_problems` together, every problem at
    once (a :class:`~casebook.core.errors.PositionError`). ``play --load`` and ``ask`` read saves
    through here."""
    from casebook.content.position import load_position

    return load_position(path_or_text, pack=engine.pack, extra=lambda data, locate: save_problems(data, engine, locate)
                         + weather_problems(data, engine.pack, locate))


def _phases(pack: Any) -> list[Mapping[str, Any]]:
    return [ph for ph in ((getattr(pack, "sequence", None) or {}).get("phases") or []) if isinstance(ph, Mapping)]


def _steps(phase: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [st for st in phase.get("steps") or [] if isinstance(st, Mapping)]


def weather_phase(pack: Any) -> tuple[int, int, Mapping[str, Any]] | None:
    """Where the game's sequence of play sets the turn's weather: (phase index, index of the step
    that ends it, the phase or step) for the first phase whose id names weather (its last step),
    else the first step whose id does; None in a game without one (a game whose ground comes
    from its turn record, or that has no weather)."""
    for i, phase in enumerate(_phases(pack)):
        steps = _steps(phase)
        if "weather" in str(phase.get("id")):
            return i, len(steps) - 1, phase
        for j, step in enumerate(steps):
            if "weather" in str(step.get("id")):
                return i, j, step
    return None


def weather_problems(data: Mapping[str, Any], pack: Any, locate: Locate) -> list[Problem]:
    """A position resumed past its turn's weather phase (:func:`weather_phase`) without the weather
    that phase set (each of ``temperature``/``ground`` the game's vocabulary names): the weather
    stays in force the whole turn and the play goes on reading it, so the position is refused,
    located at ``weather:`` (or ``phase:`` when there is none), naming what to add. A position
    without a phase starts where its scenario does and is not asked."""
    found, phase = weather_phase(pack), data.get("phase")
    if found is None or not isinstance(phase, str):
        return []
    at_phase, at_step, where = found
    phases = _phases(pack)
    here = next((i for i, ph in enumerate(phases) if ph.get("id") == phase), None)
    if here is None or here < at_phase:
        return []
    if here == at_phase:
        steps = [st.get("id") for st in _steps(phases[here])]
        step = data.get("step")
        if step not in steps or steps.index(step) <= at_step:
            return []
    vocab = pack.vocabulary
    named = [(k, tuple(v)) for k, v in (("temperature", vocab.temperatures), ("ground", vocab.grounds)) if v]
    weather = data.get("weather")
    lacking = [k for k, _ in named if not isinstance(weather, Mapping) or weather.get(k) is None]
    if not lacking:
        return []
    shape = ", ".join(f"{k}: …" for k, _ in named)
    allowed = "; ".join(f"{k}: {', '.join(v)}" for k, v in named)
    file, line, col = locate(("weather",) if isinstance(weather, Mapping) else ("phase",))
    what = f"{where.get('name') or where.get('id')} ({where.get('case')})" if where.get("case") else \
        str(where.get("name") or where.get("id"))
    return [Problem(file, line, col, "weather", f"{', '.join(lacking)} not given, but phase {phase!r} comes after "
                    f"the {what}, which sets the turn's weather: add `weather: {{{shape}}}` ({allowed})")]
