"""The CRT cell a combat reads and the table line it was read from (private to the `combat` area):
the ``crt`` table (dims ``odds`` × ``roll``) and a game's selectable ``crt_readings`` rows."""

from __future__ import annotations

from typing import Any

__all__ = ["crt_result", "crt_lines"]


def crt_result(ctx: Any, column: str, roll: int, drm: int) -> str:
    """The CRT cell for the ``roll`` modified by the net ``drm`` (10.0D-E); a modified roll
    beyond the table's rows reads the nearest row. A cell with selectable readings (records
    ``crt_readings``: setting, value, odds, roll, result) reads the one the position's setting
    chooses (e.g. Battle for Moscow, interpretation crt-4-1-roll-3)."""
    modified, reading = _crt_cell(ctx, column, roll, drm)
    return str(reading["result"]) if reading is not None else str(ctx.table("crt").lookup(odds=column, roll=modified))


def _crt_cell(ctx: Any, column: str, roll: int, drm: int) -> tuple[int, Any]:
    """The CRT row read for ``roll`` + ``drm`` (clamped) and the ``crt_readings`` row chosen, if any."""
    rows = [int(r) for r in dict(ctx.table("crt").dims)["roll"]]
    modified = max(min(rows), min(max(rows), roll + drm))
    for row in ctx.pack.records.get("crt_readings", ()):
        if str(row["odds"]) == column and int(row["roll"]) == modified \
                and ctx.state.setting(row["setting"]) == row["value"]:
            return modified, row
    return modified, None


def crt_lines(ctx: Any, column: str, rolls: Any, drm: int) -> list[dict[str, Any]]:
    """The table lines the CRT results of ``rolls`` were read from (each once): the ``crt``
    cell's ``file:line`` (its row), a ``crt_readings`` row's, or the erratum that set the cell
    (:class:`casebook.content.tablelines.TableLines`)."""
    out: dict[str, dict[str, Any]] = {}
    for roll in rolls:
        modified, reading = _crt_cell(ctx, column, roll, drm)
        found = (ctx.pack.table_lines.row("crt_readings", reading) if reading is not None
                 else ctx.pack.table_lines.cell("crt", odds=column, roll=modified))
        if found is not None:
            out.setdefault(found["source"], found)
    return list(out.values())
