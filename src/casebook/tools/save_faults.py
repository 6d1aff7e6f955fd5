"""What is wrong with a save or position file, in one line a user can act on: a save cut short
(:func:`truncated_save`: the mark ``save: 1`` every save begins with, a trace beside it or a key
only a play writes, without all of :data:`SAVE_KEYS` — rule 7: a corrupt save is refused whole;
:func:`refuse_truncated` is the one check of ``play --load``, ``serve``'s load and ``ask``), or a
hand-edited position without a field the rules read (:func:`missing_field`). Split from
:mod:`casebook.tools.saves` (session 16)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from casebook.core.errors import PositionError, Problem, shown_path
from casebook.core.state import SAVE_MARK
from casebook.tools.saves import trace_path_of

__all__ = ["SAVE_KEYS", "truncated_save", "refuse_truncated", "missing_field"]

#: The keys every save has (:func:`write_save`: a play's ``State.to_dict()``); a position file may
#: leave them out, a save lacking one was cut short (rule 7: a corrupt save is refused whole).
SAVE_KEYS = ("rng", "trace_seq")  # not players: a state's own dump and the browser's saves have none


def missing_field(position: str | Path, exc: Exception, sides: Any = ()) -> PositionError | None:
    """The error to show when a rule read a standard fact (``exc``: a MissingFactError naming it)
    that the position file ``position`` leaves out — e.g. ``phasing_side`` of a hand-edited
    position without ``phasing``: one located line naming the file, the field and what to add
    (``casebook.script.standard.POSITION_FIELDS``). None when ``exc`` is of another kind or the
    file gives the field (the fact is absent for another reason: the original error stands)."""
    from casebook.content.yamlio import read_yaml
    from casebook.script.standard import POSITION_FIELDS

    fact = getattr(exc, "fact", None)
    if not isinstance(fact, str) or fact not in POSITION_FIELDS or "\n" in str(position) or not Path(position).is_file():
        return None
    doc, _ = read_yaml(Path(position))
    raw = doc.data if doc is not None else None
    if doc is None or not isinstance(raw, dict):
        return None
    key, example = POSITION_FIELDS[fact]
    path: tuple[str, ...] = (key,)
    if key == "weather" and isinstance(raw.get(key), dict):
        path = (key, fact)
        lacking = raw[key].get(fact) is None
    else:
        lacking = raw.get(key) is None
    if not lacking:
        return None
    text = str(exc)
    where = text[text.rfind("(") + 1:-1] if text.endswith(")") and "(" in text else ""
    if not sides and isinstance(raw.get("game"), str):
        try:
            from casebook.content.loader import load_pack

            sides = load_pack(raw["game"]).vocabulary.side_ids
        except Exception:  # noqa: BLE001  (only the hint is lost)
            sides = ()
    names = ", ".join(str(s) for s in sides)
    hint = f" (SIDE: {names})" if names and "SIDE" in example else ""
    message = (f"not given, but the rules read it (fact `{fact}`{', ' + where if where else ''}): "
               f"add `{example}`{hint} to the position")
    return PositionError([doc.problem(path, message)])


def refuse_truncated(path: str | Path) -> Any:
    """The YAML data of the file at ``path`` (``load_yaml``'s errors); raises the PositionError of
    :func:`truncated_save` for a save cut short — the one check of ``play --load``
    (:func:`game_of_save`) and the browser's load (tools/web/session.load_state)."""
    from casebook.content.yamlio import load_yaml

    raw = load_yaml(path).data
    if (cut := truncated_save(path, raw)) is not None:
        raise cut
    return raw


def truncated_save(position: str | Path, raw: Any) -> PositionError | None:
    """The error for the file ``position`` (``raw``: its YAML data) when it is a save — a trace
    beside it (:func:`trace_path_of`), or a key only a play writes (the mark ``save: 1`` every save
    begins with since session 16, ``trace_seq``, ``players``, ``plugin_state.trace``) — without
    all of :data:`SAVE_KEYS` (cut short, e.g. at a line
    boundary): one line naming what is missing. ``players`` is not required: a state's own dump
    (``GameState.to_dict``) and the browser's saves have none. None for a complete save, a
    position file (kind ``position`` without those marks may omit them) or text that is not a
    mapping."""
    from casebook.content.savecheck import TRACE_SLOT

    if not isinstance(raw, dict) or "\n" in str(position):
        return None
    slots = raw.get("plugin_state")
    marked = (SAVE_MARK in raw or trace_path_of(position).is_file() or "trace_seq" in raw or "players" in raw
              or (isinstance(slots, dict) and TRACE_SLOT in slots))
    missing = [key for key in SAVE_KEYS if key not in raw]
    if not marked or not missing:
        return None
    return PositionError([Problem(shown_path(position), 0, 0, "", f"truncated save: no {', '.join(missing)} "
                                  "(a save written by play has them all; it cannot be read)")])
