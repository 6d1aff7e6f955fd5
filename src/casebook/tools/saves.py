"""A save and the trace beside it (``SAVE`` and ``SAVE.trace.jsonl``): written together, resumed
together, never one without checking the other.

:func:`write_save` writes the trace, then the save with the SHA-256 of the trace's bytes in
``plugin_state.trace`` (:class:`casebook.core.savecheck.TraceLink`). :func:`resume_trace`, used by
``play --load`` and ``serve --load``, reads the trace beside a save and refuses it — one located
line, exit 1 — when it is not the trace the save was written with (an edited trace was accepted
and failed ``replay`` only later): the digest differs, its setup event names another game,
scenario or seed than the save, or it does not end where the save stands. A save without a
digest (written by hand or before this check) gets the last three checks. Costs one hash of the
trace file, never a replay.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from casebook.core.errors import PositionError, Problem

__all__ = ["write_save", "resume_trace", "trace_path_of"]


def trace_path_of(save: str | Path) -> Path:
    """The trace beside the save ``save``: ``SAVE.trace.jsonl``."""
    return Path(str(save) + ".trace.jsonl")


def write_save(state: Any, path: Path) -> Path:
    """Write ``state``'s trace to ``path.trace.jsonl`` and the save to ``path`` (the canonical form
    of :func:`casebook.core.position.dump_save`) linked to that trace by its digest; returns the
    trace's path."""
    from casebook.core.position import dump_save
    from casebook.core.savecheck import TRACE_SLOT, trace_digest

    trace_path = trace_path_of(path)
    state.trace.write(trace_path)
    data = state.to_dict()
    slots = dict(data.get("plugin_state") or {})
    slots[TRACE_SLOT] = {"sha256": trace_digest(trace_path.read_bytes())}
    data["plugin_state"] = slots
    path.write_text(dump_save(data), encoding="utf-8")
    return trace_path


def resume_trace(save: str | Path, position: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(the trace beside ``save`` — empty if there is none —, ``position`` without its trace link)
    for a save being resumed (``position``: its checked data, ``position_to_dict`` of
    :func:`casebook.core.savecheck.load_save`). Raises PositionError naming the trace file when
    the trace is not the one the save was written with."""
    from casebook.core.savecheck import TRACE_SLOT, trace_digest
    from casebook.core.trace import Trace

    slots = dict(position.get("plugin_state") or {})
    link = slots.pop(TRACE_SLOT, None)
    position = {**position, "plugin_state": slots}
    trace_path = trace_path_of(save)
    if not trace_path.is_file():
        return Trace(), position
    shown = str(trace_path)

    def refuse(message: str) -> PositionError:
        return PositionError([Problem(shown, 0, 0, "", f"{message}; it cannot be continued (move it "
                                      f"away to resume {Path(save).name} without undo past the load)")])

    if isinstance(link, dict) and link.get("sha256") != trace_digest(trace_path.read_bytes()):
        raise refuse(f"not the trace {Path(save).name} was saved with (its SHA-256 differs: edited, "
                     "or from another play)")
    trace = Trace.read(trace_path)
    if len(trace):
        first, last = trace[0], trace[len(trace) - 1]
        if first.kind == "setup":
            scenario = position.get("scenario") if isinstance(position.get("scenario"), dict) else {}
            rng = position.get("rng") if isinstance(position.get("rng"), dict) else {}
            for key, saved in (("game", position.get("game")), ("scenario", scenario.get("id")),
                               ("seed", rng.get("seed"))):
                if saved is not None and first.data.get(key) != saved:
                    raise refuse(f"its setup event has {key} {first.data.get(key)!r}, the save {saved!r}")
        if last.seq + 1 != position.get("trace_seq", 0):
            raise refuse(f"it does not end where {Path(save).name} stands (its last event is {last.seq}, "
                         f"the save's next is {position.get('trace_seq', 0)})")
    return trace, position
