"""Cell checks of ``kind: table`` and row checks of ``kind: records`` (docs/content-format.md).

A table's ``cells`` nest in the order of its ``dims`` and hold every combination of dim values,
no more; each cell is a value of the table's ``value`` type or ``{value: v, provenance: "..."}``, and one
of the table's ``values:`` when it declares them (e.g. the result codes of a CRT).
A records file's ``fields`` give each row's typed fields: ``int``, ``float``, ``str``, ``bool``,
``hex``, ``list[<type>]``, ``<type>?`` (optional) or a mapping of sub-fields; its optional
``values: {field: [..]}`` restricts a top-level field (or each item of a list field) to a set.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from typing import Any

from casebook.content.schema_base import parse_provenance
from casebook.content.yamlio import dotted
from casebook.core.errors import Problem

__all__ = ["check_table", "check_records", "check_type", "cell_value"]

Locate = Callable[[tuple], tuple[str, int, int]]
_BASIC = {"int", "float", "str", "bool", "hex", "facts"}
_NAMES = {"int": "an integer", "float": "a number", "str": "a string", "bool": "true or false",
          "hex": "a hex label like '0303'", "facts": "a mapping of fact names to values"}


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    return repr(v) if isinstance(v, str) else str(v)


def _problem(locate: Locate, path: tuple, message: str) -> Problem:
    f, line, col = locate(path)
    return Problem(f, line, col, dotted(path), message)


def check_type(spec: str, value: Any) -> str | None:
    """``None`` if ``value`` is of the basic type ``spec`` (int | float | str | bool | hex | facts:
    a mapping of rule-script fact names to values, any YAML under them), else a message
    "expected an integer, got 'seven'"."""
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
        "hex": isinstance(value, str) and re.fullmatch(r"[0-9]{4}", value) is not None,
        "facts": isinstance(value, dict) and all(isinstance(k, str) for k in value),
    }[spec]
    return None if ok else f"expected {_NAMES[spec]}, got {_show(value)}"


def _not_one_of(value: Any, allowed: list[Any], what: str) -> str | None:
    """``None`` if ``value`` is in ``allowed``, else "'DX' is not one of <what>: AL, DR (did you mean 'DR'?)"."""
    if any(type(value) is type(a) and value == a for a in allowed):
        return None
    hint = difflib.get_close_matches(str(value), [str(a) for a in allowed], n=1)
    more = f" (did you mean {hint[0]!r}?)" if hint else ""
    return f"{_show(value)} is not one of {what}: {', '.join(_show(a) for a in allowed)}{more}"


def _check_allowed(allowed: Any, vtype: str | None, path: tuple, locate: Locate, out: list[Problem]) -> list[Any] | None:
    """The declared ``values:`` list if usable, after reporting declared values of the wrong type."""
    if not isinstance(allowed, list) or not allowed:
        return None  # absent, or a shape error the model reports
    for i, a in enumerate(allowed):
        msg = check_type(vtype, a) if vtype is not None else None
        if msg:
            out.append(_problem(locate, path + (i,), msg))
    return allowed


def cell_value(cell: Any) -> Any:
    """The value of a cell, unwrapping ``{value: v, provenance: ...}``."""
    if isinstance(cell, dict) and "value" in cell:
        return cell["value"]
    return cell


def check_table(data: dict[str, Any], locate: Locate) -> list[Problem]:
    """Every problem of a table's cells: missing or extra combinations, wrong value types."""
    dims = [d for d in data.get("dims", []) if isinstance(d, dict) and isinstance(d.get("values"), list)]
    if len(dims) != len(data.get("dims", [])):
        return []  # shape errors are reported by the model
    vtype = data.get("value") if data.get("value") in ("int", "float", "str", "bool") else None
    problems: list[Problem] = []
    allowed = _check_allowed(data.get("values"), vtype, ("values",), locate, problems)
    names = [d.get("name") for d in dims]
    for i, d in enumerate(dims):
        if names.count(d.get("name")) > 1:
            problems.append(_problem(locate, ("dims", i, "name"), f"duplicate dim name {d.get('name')!r}"))
        seen: set[Any] = set()
        for j, v in enumerate(d["values"]):
            if (type(v), v) in seen:
                problems.append(_problem(locate, ("dims", i, "values", j), f"duplicate value {_show(v)}"))
            seen.add((type(v), v))

    def walk(node: Any, depth: int, path: tuple) -> None:
        if depth == len(dims):
            _check_cell(node, path)
            return
        dim = dims[depth]
        if not isinstance(node, dict):
            problems.append(_problem(locate, path, f"expected a mapping by {dim.get('name')!r}, got {_show(node)}"))
            return
        for v in dim["values"]:
            if v not in node:
                problems.append(_problem(locate, path, f"missing cell {dim.get('name')}={_show(v)}"))
        for k, child in node.items():
            if k not in dim["values"]:
                hint = difflib.get_close_matches(str(k), [str(v) for v in dim["values"]], n=1)
                more = f" (did you mean {hint[0]!r}?)" if hint else ""
                problems.append(_problem(locate, path + (k,), f"{_show(k)} is not a value of dim {dim.get('name')!r}{more}"))
                continue
            walk(child, depth + 1, path + (k,))

    def _check_cell(cell: Any, path: tuple) -> None:
        if isinstance(cell, dict):
            extra = set(cell) - {"value", "provenance"}
            if "value" not in cell or extra:
                problems.append(_problem(locate, path, "a cell is a value or {value: v, provenance: \"...\"}"))
                return
            if "provenance" in cell:
                try:
                    parse_provenance(cell["provenance"]) if isinstance(cell["provenance"], str) else None
                except ValueError as exc:
                    problems.append(_problem(locate, path + ("provenance",), str(exc)))
            path, cell = path + ("value",), cell["value"]
        msg = check_type(vtype, cell) if vtype is not None else None
        if msg is None and allowed is not None:
            msg = _not_one_of(cell, allowed, "the table's values")
        if msg:
            problems.append(_problem(locate, path, msg))

    if isinstance(data.get("cells"), dict) and dims:
        walk(data["cells"], 0, ("cells",))
    return problems


def _parse_spec(spec: Any) -> tuple[str, bool] | dict[str, Any] | None:
    """``(basic-or-list spec, optional)`` or a dict of sub-fields, or None if invalid."""
    if isinstance(spec, dict):
        return spec
    if not isinstance(spec, str):
        return None
    optional = spec.endswith("?")
    base = spec[:-1] if optional else spec
    m = re.fullmatch(r"list\[(\w+)\]", base)
    if base in _BASIC or (m and m.group(1) in _BASIC):
        return base, optional
    return None


def _check_fields_spec(fields: dict[str, Any], path: tuple, locate: Locate, out: list[Problem]) -> None:
    for name, spec in fields.items():
        parsed = _parse_spec(spec)
        if parsed is None:
            out.append(_problem(locate, path + (name,),
                                f"unknown field type {_show(spec)}; use int, float, str, bool, hex, facts, list[<type>], "
                                "<type>? or a mapping"))
        elif isinstance(parsed, dict):
            _check_fields_spec(parsed, path + (name,), locate, out)


def _check_row(row: Any, fields: dict[str, Any], path: tuple, locate: Locate, out: list[Problem],
               allowed: dict[str, list[Any]] | None = None) -> None:
    if not isinstance(row, dict):
        out.append(_problem(locate, path, f"expected a mapping of fields, got {_show(row)}"))
        return
    for key in row:
        if key != "provenance" and key not in fields:
            hint = difflib.get_close_matches(str(key), list(fields), n=1)
            more = f" (did you mean {hint[0]!r}?)" if hint else ""
            out.append(_problem(locate, path + (key,), f"unknown field {key!r}{more}"))
    if isinstance(row.get("provenance"), str):
        try:
            parse_provenance(row["provenance"])
        except ValueError as exc:
            out.append(_problem(locate, path + ("provenance",), str(exc)))
    for name, spec in fields.items():
        parsed = _parse_spec(spec)
        if parsed is None:
            continue
        if isinstance(parsed, dict):
            if name not in row:
                out.append(_problem(locate, path, f"missing field {name!r}"))
            else:
                _check_row(row[name], parsed, path + (name,), locate, out)
            continue
        base, optional = parsed
        if name not in row or row[name] is None:
            if not optional:
                out.append(_problem(locate, path, f"missing field {name!r}"))
            continue
        value = row[name]
        if base.startswith("list["):
            if not isinstance(value, list):
                out.append(_problem(locate, path + (name,), f"expected a list, got {_show(value)}"))
                continue
            for i, item in enumerate(value):
                msg = check_type(base[5:-1], item)
                if msg is None and allowed and name in allowed:
                    msg = _not_one_of(item, allowed[name], f"the values of {name!r}")
                if msg:
                    out.append(_problem(locate, path + (name, i), msg))
        else:
            msg = check_type(base, value)
            if msg is None and allowed and name in allowed:
                msg = _not_one_of(value, allowed[name], f"the values of {name!r}")
            if msg:
                out.append(_problem(locate, path + (name,), msg))


def _records_values(values: Any, fields: dict[str, Any], locate: Locate, out: list[Problem]) -> dict[str, list[Any]]:
    """The usable ``values: {field: [..]}`` of a records file; a field that is not a top-level
    basic (or list) field is reported."""
    if not isinstance(values, dict):
        return {}
    usable: dict[str, list[Any]] = {}
    for name, allowed in values.items():
        parsed = _parse_spec(fields.get(name)) if name in fields else None
        if not isinstance(parsed, tuple):
            hint = difflib.get_close_matches(str(name), list(fields), n=1)
            more = f" (did you mean {hint[0]!r}?)" if hint else ""
            out.append(_problem(locate, ("values", name), f"values for {name!r}: not a field with a basic or list type{more}"))
            continue
        base = parsed[0][5:-1] if parsed[0].startswith("list[") else parsed[0]
        checked = _check_allowed(allowed, base, ("values", name), locate, out)
        if checked is not None:
            usable[name] = checked
    return usable


def check_records(data: dict[str, Any], locate: Locate) -> list[Problem]:
    """Every problem of a records file: bad field types, rows of the wrong shape, duplicate keys."""
    out: list[Problem] = []
    fields = data["fields"]
    _check_fields_spec(fields, ("fields",), locate, out)
    key = data.get("key")
    if isinstance(key, str) and key not in fields:
        out.append(_problem(locate, ("key",), f"key {key!r} is not one of the fields{''.join('') }"))
    allowed = _records_values(data.get("values"), fields, locate, out)
    rows = data.get("rows")
    if not isinstance(rows, list):
        return out
    seen: dict[Any, int] = {}
    for i, row in enumerate(rows):
        _check_row(row, fields, ("rows", i), locate, out, allowed)
        if isinstance(key, str) and isinstance(row, dict) and key in row:
            k = row[key]
            if isinstance(k, (str, int, float, bool)):
                if k in seen:
                    out.append(_problem(locate, ("rows", i, key), f"duplicate {key} {_show(k)} (also row {seen[k]})"))
                seen.setdefault(k, i)
    return out
