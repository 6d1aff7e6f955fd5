"""Sheet (drawing) coordinates of a :class:`~casebook.core.grid.Grid`'s hexes: where a hex's
centre, corners and hexsides fall on the drawn map (x right, y down, in the unit of ``size``).

Used by the renderers (:mod:`casebook.tools.render`, the web views) and the map tools
(:mod:`casebook.tools.mapgen`, :mod:`casebook.tools.mapfit`); no rule asks where a hex is drawn,
so this is tools code, not core geometry. ``size`` is always the centre-to-corner distance.
"""

from __future__ import annotations

import math

from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, HexSide, distance

__all__ = ["center", "corners", "side_segment"]

_SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]


def center(grid: Grid, h: Hex, size: float) -> Point:
    """Sheet coordinates ``(x, y)`` of the centre of ``h`` (x right, y down, same unit as ``size``).

    ``size`` is the centre-to-corner distance. The first column/row is placed so that the
    map's unshifted hexes touch x = 0 and y = 0 (shifted ones sit half a hex further).
    """
    lay = grid.layout
    dc, dr = h.col - grid.first_col, h.row - grid.first_row
    if lay.flat:
        shift = 0.5 if (h.col & 1) == lay.shifted_parity else 0.0
        return (size * (1.0 + 1.5 * dc), size * _SQRT3 * (0.5 + dr + shift))
    shift = 0.5 if (h.row & 1) == lay.shifted_parity else 0.0
    return (size * _SQRT3 * (0.5 + dc + shift), size * (1.0 + 1.5 * dr))


def corners(grid: Grid, h: Hex, size: float) -> list[Point]:
    """The six corners of ``h`` on the sheet, clockwise (y down) starting at the right-hand
    corner (flat-top) or the lower-right corner (pointy-top)."""
    cx, cy = center(grid, h, size)
    start = 0 if grid.layout.flat else 30
    return [
        (cx + size * math.cos(math.radians(start + 60 * i)),
         cy + size * math.sin(math.radians(start + 60 * i)))
        for i in range(6)
    ]


def side_segment(grid: Grid, side: HexSide, size: float) -> tuple[Point, Point]:
    """The two endpoints (sheet coordinates) of the edge shared by the hexes of ``side``.

    Endpoints come in the order of :func:`corners` of ``side.a``. Off-map hexes are allowed;
    raises ValueError when the two hexes are not adjacent.
    """
    if distance(side.a, side.b, grid.layout) != 1:
        raise ValueError(f"hexes {side.a} and {side.b} are not adjacent")
    bx, by = center(grid, side.b, size)
    pts = corners(grid, side.a, size)
    nearest = sorted(range(6), key=lambda i: math.dist(pts[i], (bx, by)))[:2]
    i, j = sorted(nearest)
    return (pts[i], pts[j])
