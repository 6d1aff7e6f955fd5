"""Validation of content documents against their schemas, with readable located problems.

:func:`validate` picks the model of a document's ``kind:`` (see :data:`KIND_MODELS`), validates
strictly, and turns every pydantic error into a :class:`~casebook.core.errors.Problem` naming
``file:line:column`` of the offending key, the dotted key path and what was expected
("expected an integer, got 'seven'"; "unknown key 'strenght' (did you mean 'strength'?)").
Tables and records get their cells / rows checked too (:mod:`casebook.content.schema_tables`).
The models live in :mod:`casebook.content.schema_content` and :mod:`casebook.content.schema_position`.
"""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, Union

from pydantic import BaseModel, ValidationError

from casebook.content.schema_base import *  # noqa: F403  (re-export)
from casebook.content.schema_base import __all__ as _base_all
from casebook.content.schema_content import *  # noqa: F403
from casebook.content.schema_content import (
    CasesFile,
    CountersFile,
    ErrataFile,
    GameFile,
    GazetteerFile,
    InterpretationsFile,
    MapFile,
    RecordsFile,
    SequenceFile,
    TableFile,
)
from casebook.content.schema_content import __all__ as _content_all
from casebook.content.schema_position import *  # noqa: F403
from casebook.content.schema_position import Position
from casebook.content.schema_position import __all__ as _position_all
from casebook.content.schema_tables import check_records, check_table
from casebook.content.yamlio import YamlDoc, dotted
from casebook.core.errors import Problem

__all__ = [
    "KIND_MODELS",
    "Locator",
    "validate",
    "validate_model",
    "convert_errors",
    "describe",
    "did_you_mean",
    *_base_all,
    *_content_all,
    *_position_all,
]

#: kind -> model of the whole file.
KIND_MODELS: dict[str, type[BaseModel]] = {
    "game": GameFile,
    "cases": CasesFile,
    "sequence": SequenceFile,
    "map": MapFile,
    "counters": CountersFile,
    "table": TableFile,
    "records": RecordsFile,
    "position": Position,
    "errata": ErrataFile,
    "interpretations": InterpretationsFile,
    "gazetteer": GazetteerFile,
}

#: Maps a key path to ``(file, line, column)``; the default locator is the document's.
Locator = Callable[[tuple], tuple[str, int, int]]

_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "string_type": "a string",
    "float_type": "a number",
    "bool_type": "true or false",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "list_type": "a list",
    "tuple_type": "a list",
    "frozen_set_type": "a list",
    "set_type": "a list",
    "none_required": "null",
}


_M = typing.TypeVar("_M", bound=BaseModel)

def describe(value: Any) -> str:
    """A value as quoted in messages: ``'seven'``, ``7``, ``a mapping``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    return str(value)


def did_you_mean(word: Any, choices: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or ``""``."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _unwrap(tp: Any) -> Any:
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
            continue
        if origin in (Union, types.UnionType):
            models = [a for a in typing.get_args(tp) if isinstance(a, type) and issubclass(a, BaseModel)]
            if len(models) == 1:
                tp = models[0]
                continue
        return tp


def _field_type(model: type[BaseModel], key: Any) -> Any:
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            return info.annotation
    return None


def _model_at(model: type[BaseModel], loc: Iterable[Any]) -> type[BaseModel] | None:
    """The model class found by following ``loc`` (union tags skipped) from ``model``."""
    tp: Any = model
    for el in loc:
        tp = _unwrap(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            ft = _field_type(tp, el)
            if ft is not None:
                tp = ft
            continue
        origin = typing.get_origin(tp)
        if origin is list and isinstance(el, int):
            tp = typing.get_args(tp)[0]
        elif origin is dict and el != "[key]":
            tp = typing.get_args(tp)[1]
    tp = _unwrap(tp)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _keys_of(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def _walk(data: Any, loc: Iterable[Any]) -> tuple[tuple, bool]:
    """The key path inside ``data`` that ``loc`` points at (union tags dropped), and whether
    the error is about a mapping *key* (pydantic's ``[key]`` marker)."""
    path: list[Any] = []
    cur = data
    for el in loc:
        if el == "[key]":
            return tuple(path), True
        if isinstance(cur, dict) and el in cur:
            path.append(el)
            cur = cur[el]
        elif isinstance(cur, list) and isinstance(el, int) and not isinstance(el, bool) and 0 <= el < len(cur):
            path.append(el)
            cur = cur[el]
    return tuple(path), False


def _missing_item(model: type[BaseModel], loc: tuple, value: list | tuple) -> str:
    """``[rebuild] has 1 item, 2 expected (item 2 is missing)``: a fixed-length list written short
    (its expected length from the field's tuple type, when the model says it)."""
    parent = _unwrap(_model_at(model, loc[:-2]) or model)
    field = _field_type(parent, loc[-2]) if isinstance(parent, type) and issubclass(parent, BaseModel) else None
    items = typing.get_args(_unwrap(field)) if field is not None else ()
    size = len(items) if typing.get_origin(_unwrap(field)) is tuple and Ellipsis not in items else None
    shown = "[" + ", ".join(str(v) for v in value) + "]"
    expected = f", {size} expected" if size else ""
    return (f"{shown} has {len(value)} item{'s' if len(value) != 1 else ''}{expected} "
            f"(item {loc[-1] + 1} is missing)")


def _message(err: Any, model: type[BaseModel], loc: tuple) -> str:
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind == "bool_type" and loc and isinstance(loc[-1], str):
        # an extra key of a model whose extras are a game's flags (a unit's): a misspelt field?
        parent = _model_at(model, loc[:-1])
        if parent is not None and loc[-1] not in _keys_of(parent) and parent.model_config.get("extra") == "allow":
            hint = did_you_mean(loc[-1], _keys_of(parent))
            return f"unknown key {loc[-1]!r}{hint}" if hint else \
                f"unknown key {loc[-1]!r}, or a unit flag: expected true or false, got {describe(value)}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {describe(value)}"
    if kind == "missing" and isinstance(loc[-1], int) and isinstance(value, (list, tuple)):
        return _missing_item(model, loc, value)  # a pair such as [event kind, source] cut short
    if kind == "missing":
        return f"missing required key {loc[-1]!r}"
    if kind == "extra_forbidden":
        parent = _model_at(model, loc[:-1])
        hint = did_you_mean(loc[-1], _keys_of(parent)) if parent else ""
        return f"unknown key {loc[-1]!r}{hint}"
    if kind == "literal_error":
        import re

        hint = did_you_mean(value, re.findall(r"'([^']*)'", str(ctx.get("expected", "")))) if isinstance(value, str) else ""
        return f"expected {ctx.get('expected', 'one of the allowed values')}, got {describe(value)}{hint}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        sign = {"greater_than_equal": ">=", "greater_than": ">", "less_than_equal": "<=", "less_than": "<"}[kind]
        bound = next(iter(ctx.values()), "?")
        return f"expected a value {sign} {bound}, got {describe(value)}"
    if kind == "too_short":
        return f"expected at least {ctx.get('min_length')} item(s), got {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"expected at most {ctx.get('max_length')} item(s), got {ctx.get('actual_length')}"
    if kind in ("value_error", "assertion_error"):
        msg = err["msg"]
        for prefix in ("Value error, ", "Assertion failed, "):
            msg = msg.removeprefix(prefix)
        return msg
    msg = err["msg"]
    return msg[:1].lower() + msg[1:] + f", got {describe(value)}"


def convert_errors(
    exc: ValidationError, model: type[BaseModel], data: Any, locate: Locator, base: tuple = ()
) -> list[Problem]:
    """Pydantic errors as problems; errors of one union at one place are merged into one
    ("expected an integer or a string, got 1.5"). ``base`` prefixes every key path."""
    grouped: dict[tuple, list[tuple[str, str, str]]] = {}
    for err in exc.errors():
        loc = tuple(err["loc"])
        path, is_key = _walk(data, loc)
        msg = _message(err, model, loc)
        if is_key:
            msg = f"key: {msg}"
        kind = "extra_forbidden" if msg.startswith("unknown key") else err["type"]  # a unit's flag key
        grouped.setdefault(path, []).append((kind, msg, repr(err.get("input"))))
    problems: list[Problem] = []
    for path, errs in grouped.items():
        typed = [m for t, m, _ in errs if t in _EXPECTED or t == "literal_error"]
        others = [m for t, m, _ in errs if not (t in _EXPECTED or t == "literal_error")]
        messages = list(dict.fromkeys(others))
        if typed and not others:
            expected = list(dict.fromkeys(m.split(", got ")[0].removeprefix("expected ") for m in typed))
            got = typed[0].rsplit(", got ", 1)[-1]
            messages = [f"expected {' or '.join(expected)}, got {got}"]
        elif typed and len(messages) == 0:
            messages = typed[:1]
        full = base + path
        file, line, col = locate(full)
        for m in messages:
            problems.append(Problem(file, line, col, dotted(full), m))
    return problems


def doc_locator(doc: YamlDoc) -> Locator:
    """The locator of a document: key paths to ``(file, line, column)`` in it."""

    def locate(path: tuple) -> tuple[str, int, int]:
        line, col = doc.where(path)
        return doc.file, line, col

    return locate


def validate_model(
    model: type[_M], data: Any, locate: Locator, base: tuple = ()
) -> tuple[_M | None, list[Problem]]:
    """Validate ``data`` against ``model``; return ``(instance or None, problems)``."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, convert_errors(exc, model, data, locate, base)


def validate(
    doc: YamlDoc, *, kind: str | None = None, data: Any = None, locate: Locator | None = None
) -> tuple[BaseModel | None, list[Problem]]:
    """Validate a whole document by its ``kind:`` (or check it is ``kind`` when given).

    ``data`` replaces ``doc.data`` (errata already applied); ``locate`` overrides where key paths
    point (patched values point into the errata file). Returns ``(model instance or None,
    problems)``; never raises for bad content.
    """
    data = doc.data if data is None else data
    locate = locate or doc_locator(doc)
    file, line, col = locate(())
    if not isinstance(data, dict):
        return None, [Problem(file, line, col, "", f"expected a mapping with kind: and format:, got {describe(data)}")]
    got = data.get("kind")
    if kind is not None and got != kind:
        f, ln, c = locate(("kind",))
        return None, [Problem(f, ln, c, "kind", f"expected kind {kind!r} here, got {describe(got)}")]
    model = KIND_MODELS.get(got) if isinstance(got, str) else None
    if model is None:
        f, ln, c = locate(("kind",))
        hint = did_you_mean(got, KIND_MODELS) if isinstance(got, str) else ""
        return None, [Problem(f, ln, c, "kind", f"unknown kind {describe(got)}{hint}; one of {', '.join(KIND_MODELS)}")]
    instance, problems = validate_model(model, data, locate)
    if got == "table" and isinstance(data.get("dims"), list):
        problems += check_table(data, locate)
    elif got == "records" and isinstance(data.get("fields"), dict):
        problems += check_records(data, locate)
    return (None if problems else instance), problems
