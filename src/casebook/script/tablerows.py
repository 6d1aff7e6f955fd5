"""Tables by row and column: ``table <id>[<key>: <value>, …].<column>``.

A **records** table (``kind: records``: a list of rows with named fields, such as
``tables/ip_costs.yaml``) is read by selecting the one row whose fields equal every key given
and taking its ``column`` field::

    table ip_costs[action: activate_hq, side: german, per: "unsupplied HQ"].ip

A **chart** (``kind: table``: cells by named dimensions) is read with one key per dimension and
no column: ``table tec[terrain: hex_terrain, unit: move_class, column: tec_column]`` (the same
cell as ``lookup tec(…)``).

``casebook rules check`` holds each such term to the table's shape (:func:`table_shape`): the
keys and the column must be fields (dimensions) of the table, a constant key value must occur in
that field, and keys that are all constants must select exactly one row — every mistake reported
where it is written, with a did-you-mean. At run time a selection that matches no row (or more
than one) is a :class:`~casebook.script.values.MissingFactError` naming the table and the keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import ast as A
from .facts import FactType

__all__ = ["TableRows", "table_shape", "ROW_READS"]

#: The records rows a ``table T[…].field`` term selected, ``(table id, row, "file.rules:line")``, while a collector
#: runs (``ROW_READS[0]`` a list: :func:`casebook.content.tablelines.reading_tables`, or
#: :class:`casebook.script.ctx.Ctx` collecting an event's lines) — their file:line is cited.
ROW_READS: list[list[tuple[str, Mapping[str, Any], str]] | None] = [None]

_TYPES = {"int": "int", "bool": "bool", "str": "str"}


def table_shape(data: Any) -> dict[str, Any] | None:
    """The shape of one table file's data (as loaded from YAML): ``{"kind": "records", "fields":
    {name: type}, "rows": [row, …]}`` or ``{"kind": "table", "dims": {name: (value, …)}}``;
    ``None`` when the data is neither."""
    if not isinstance(data, Mapping):
        return None
    if data.get("kind") == "records" and isinstance(data.get("fields"), Mapping):
        rows = [r for r in data.get("rows") or [] if isinstance(r, Mapping)]
        return {"kind": "records", "fields": {str(k): str(v) for k, v in data["fields"].items()},
                "rows": rows}
    if data.get("kind") == "table" and isinstance(data.get("dims"), list):
        dims = {str(d.get("name")): tuple(d.get("values") or ()) for d in data["dims"] if isinstance(d, Mapping)}
        return {"kind": "table", "dims": dims}
    return None


def _selected(rows: list[Mapping[str, Any]], keys: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [row for row in rows if all(row.get(k) == v for k, v in keys.items())]


class _Index:
    """The rows of a records table by the values of ``names`` (speed only: the same rows as
    :func:`_selected`), built once for the table object last read; a key that cannot be hashed
    falls back to the scan."""

    __slots__ = ("names", "table", "rows")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.table: Any = None
        self.rows: dict[tuple[Any, ...], list[Mapping[str, Any]]] | None = None

    def selected(self, table: Any, keys: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        if table is not self.table:
            self.table, self.rows = table, None
            try:
                rows: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
                for row in table:
                    rows.setdefault(tuple(row.get(k) for k in self.names), []).append(row)
                self.rows = rows
            except TypeError:  # an unhashable cell: scan
                pass
        if self.rows is None:
            return _selected(table, keys)
        try:
            return self.rows.get(tuple(keys.values()), [])
        except TypeError:
            return _selected(table, keys)


def _describe(keys: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in keys.items())


class TableRows:
    """Compile method of ``table <id>[…].<column>`` (a base of ``ExprCompiler``, which provides
    ``tables``, ``error``, ``suggest``, ``compile`` and ``looked_up``)."""

    tables: Any
    looked_up: set[str]

    def _row(self, node: A.Row, record: FactType | None, expect: Any) -> Any:
        from .values import ANY, NUM, STR, Compiled, MissingFactError

        table = node.table
        self.looked_up.add(table)
        shapes = self.tables if isinstance(self.tables, Mapping) else {}
        if self.tables is not None and table not in self.tables:
            self.error(node.loc, f"unknown table `{table}`" + self.suggest(table, self.tables), len(table))  # type: ignore[attr-defined]
        shape = shapes.get(table)
        names: Mapping[str, Any] = {}
        if isinstance(shape, Mapping):
            names = shape.get("fields") or shape.get("dims") or {}
        coords = []
        for key, value in node.coords:
            values: tuple[Any, ...] = ()
            if shape is not None and key not in names:
                self.error(getattr(key, "loc", node.loc), f"table `{table}` has no field `{key}` (it has: "  # type: ignore[attr-defined]
                           f"{', '.join(names)})" + self.suggest(key, names), len(key))  # type: ignore[attr-defined]
            elif shape is not None:
                if shape["kind"] == "records":
                    values = tuple(sorted({str(r[key]) for r in shape["rows"] if key in r}))
                else:
                    values = tuple(str(v) for v in names[key])
            want = FactType("enum", values) if values else None
            coords.append((key, value, self.compile(value, record, expect=want)))  # type: ignore[attr-defined]
        vtype = ANY
        if shape is not None and shape["kind"] == "records":
            column = node.column
            if column is None:
                self.error(node.loc, f"say which field of `{table}` to read: `table {table}[…].<field>`")  # type: ignore[attr-defined]
            elif column not in names:
                self.error(getattr(column, "loc", node.loc), f"table `{table}` has no field `{column}` (it has: "  # type: ignore[attr-defined]
                           f"{', '.join(names)})" + self.suggest(column, names), len(column))  # type: ignore[attr-defined]
            else:
                vtype = {"int": NUM, "str": STR}.get(names[column], ANY)
            if all(c.is_const for _, _, c in coords):
                keys = {k: c.const for k, _, c in coords}
                n = len(_selected(shape["rows"], keys))
                if n != 1:
                    self.error(node.loc, f"`{table}[{_describe(keys)}]` selects {n} rows of the table; "  # type: ignore[attr-defined]
                               "the keys must select exactly one")
        elif shape is not None:
            if node.column is not None:
                self.error(node.loc, f"`{table}` is a chart: its cell is read without `.{node.column}`")  # type: ignore[attr-defined]
            missing = [d for d in names if d not in {k for k, _, _ in coords}]
            if missing:
                self.error(node.loc, f"table `{table}` also needs {', '.join(missing)}")  # type: ignore[attr-defined]
        fs = tuple((k, c.fn) for k, _, c in coords)
        uses = frozenset().union(*(c.uses for _, _, c in coords))
        column = node.column
        loc = node.loc
        index = _Index(tuple(k for k, _ in fs))
        where = f"{str(loc.file).replace(chr(92), '/').rsplit('/', 1)[-1]}:{loc.line}"

        def row(e: Any, r: Any) -> Any:
            try:
                t = e.tables[table]
            except KeyError:
                raise MissingFactError(f"table `{table}` was not given ({loc})") from None
            keys = {k: f(e, r) for k, f in fs}
            if hasattr(t, "lookup"):
                return t.lookup(**keys)
            found = index.selected(t, keys)
            if len(found) != 1 or column is None or column not in found[0]:
                raise MissingFactError(f"table `{table}`: [{_describe(keys)}] selects {len(found)} rows "
                                       f"({loc})")
            if ROW_READS[0] is not None:  # the row, and the rule line that selected it
                ROW_READS[0].append((table, found[0], where))
            return found[0][column]
        return Compiled(row, vtype, uses=uses)
