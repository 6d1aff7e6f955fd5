"""Reading a game's sequence of play (``sequence.yaml``, content ``kind: sequence``) into the
core's :class:`~casebook.core.sequence.Sequence`, every problem placed at ``file:line:column``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.core.errors import ContentError, Problem
from casebook.core.sequence import SIDES, Loop, Phase, Sequence, Step

__all__ = ["sequence_from_dict"]

_PHASE_KEYS = {"id", "case", "side", "name", "steps", "loops", "provenance"}
_STEP_KEYS = {"id", "case", "name", "provenance"}
_LOOP_KEYS = {"from", "to", "case", "provenance"}
_FILE_KEYS = {"kind", "format", "provenance", "phases"}


def sequence_from_dict(data: Mapping[str, Any], *, file: str = "sequence.yaml", doc: Any = None) -> Sequence:
    """A game's :class:`~casebook.core.sequence.Sequence` from plain data (a ``kind: sequence``
    document, or ``Pack.sequence``).

    ``doc`` is an optional :class:`~casebook.content.yamlio.YamlDoc` of the same data, used to
    place problems at ``file:line:column``. Raises :class:`ContentError` listing every problem:
    unknown keys, missing ids/cases, a bad ``side``, empty phases, duplicate phase or step ids,
    loops naming unknown steps or running backwards.
    """
    problems: list[Problem] = []

    def bad(path: tuple[Any, ...], message: str) -> None:
        if doc is not None:
            problems.append(doc.problem(path, message))
        else:
            problems.append(Problem(file, 0, 0, ".".join(map(str, path)), message))

    def unknown(obj: Mapping[str, Any], allowed: set[str], path: tuple[Any, ...]) -> None:
        for key in obj:
            if key not in allowed:
                bad(path + (key,), f"unknown key (expected one of {sorted(allowed)})")

    def text(obj: Mapping[str, Any], key: str, path: tuple[Any, ...]) -> str:
        value = obj.get(key)
        if not isinstance(value, str) or not value:
            bad(path + (key,), f"required: a non-empty string, got {value!r}")
            return "?"
        return value

    if not isinstance(data, Mapping):
        raise ContentError([Problem(file, 0, 0, "", "a sequence must be a mapping")])
    unknown(data, _FILE_KEYS, ())
    if data.get("kind", "sequence") != "sequence":
        bad(("kind",), f"expected 'sequence', got {data.get('kind')!r}")
    raw_phases = data.get("phases")
    if not isinstance(raw_phases, list) or not raw_phases:
        bad(("phases",), "required: a non-empty list of phases")
        raw_phases = []
    phases: list[Phase] = []
    for i, ph in enumerate(raw_phases):
        at = ("phases", i)
        if not isinstance(ph, Mapping):
            bad(at, "a phase must be a mapping")
            continue
        unknown(ph, _PHASE_KEYS, at)
        if ph.get("side") not in SIDES:
            bad(at + ("side",), f"expected one of {list(SIDES)}, got {ph.get('side')!r}")
        steps: list[Step] = []
        raw_steps = ph.get("steps")
        if not isinstance(raw_steps, list) or not raw_steps:
            bad(at + ("steps",), "required: a non-empty list of steps")
            raw_steps = []
        for j, st in enumerate(raw_steps):
            sat = at + ("steps", j)
            if not isinstance(st, Mapping):
                bad(sat, "a step must be a mapping")
                continue
            unknown(st, _STEP_KEYS, sat)
            step = Step(text(st, "id", sat), text(st, "case", sat), st.get("name"))
            if any(s.id == step.id for s in steps):
                bad(sat + ("id",), f"duplicate step id {step.id!r} in phase {ph.get('id')!r}")
            steps.append(step)
        ids = [s.id for s in steps]
        loops: list[Loop] = []
        for j, lp in enumerate(ph.get("loops") or []):
            lat = at + ("loops", j)
            if not isinstance(lp, Mapping):
                bad(lat, "a loop must be a mapping")
                continue
            unknown(lp, _LOOP_KEYS, lat)
            loop = Loop(text(lp, "from", lat), text(lp, "to", lat), text(lp, "case", lat))
            for key, sid in (("from", loop.start), ("to", loop.end)):
                if sid not in ids:
                    bad(lat + (key,), f"{sid!r} is not a step of phase {ph.get('id')!r}")
            if loop.start in ids and loop.end in ids and ids.index(loop.start) > ids.index(loop.end):
                bad(lat, f"loop runs backwards: {loop.start!r} comes after {loop.end!r}")
            loops.append(loop)
        phase = Phase(text(ph, "id", at), text(ph, "case", at), str(ph.get("side")),
                      tuple(steps), tuple(loops), ph.get("name"))
        if any(p.id == phase.id for p in phases):
            bad(at + ("id",), f"duplicate phase id {phase.id!r}")
        phases.append(phase)
    if problems:
        raise ContentError(problems)
    return Sequence(tuple(phases), data.get("provenance"))
