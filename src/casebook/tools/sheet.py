"""Sheet (drawing) geometry of a :class:`~casebook.core.grid.Grid`: where a hex's centre, corners
and hexsides fall on the drawn map (x right, y down, in the unit of ``size``), the compass
direction of a neighbour as the sheet shows it (:func:`direction`), and the hexes a straight
line drawn across the sheet passes through (:func:`line`, to lay rivers and roads on hexes).

Used by the renderers (:mod:`casebook.tools.render`, the web views) and the map tools
(:mod:`casebook.tools.mapgen`, :mod:`casebook.tools.mapfit`); no rule asks where a hex is drawn,
so this is tools code, not core geometry. ``size`` is always the centre-to-corner distance.
"""

from __future__ import annotations

import math

from casebook.core.grid import Grid
from casebook.core.hexgrid import COMPASS, NORTHS, Cube, Hex, HexSide, distance, from_cube, neighbours, to_cube

__all__ = ["center", "corners", "side_segment", "direction", "line"]

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


# Sheet angle (degrees clockwise from sheet-up) of each neighbour, in the order of
# casebook.core.hexgrid.neighbours (clockwise on the sheet from the top).
_FLAT_ANGLES = (0, 60, 120, 180, 240, 300)
_POINTY_ANGLES = (30, 90, 150, 210, 270, 330)


def _compass(bearing: int) -> str:
    """Compass name of a bearing (degrees clockwise from north, a multiple of 30)."""
    bearing %= 360
    if bearing in (0, 90, 180, 270):
        return COMPASS[bearing // 45]
    return {1: "NE", 2: "SE", 3: "SW", 4: "NW"}[bearing // 90 + 1]


def direction(grid: Grid, a: Hex, b: Hex) -> str:
    """Compass name ("N", "NE", "E", "SE", "S", "SW", "W", "NW") of adjacent ``b`` seen from ``a``.

    Hex directions fall every 60 degrees, so with ``north: up`` flat-top maps give N, NE, SE,
    S, SW, NW and pointy-top maps NE, E, SE, SW, W, NW; other ``north`` values rotate them.
    Raises ValueError if not adjacent.
    """
    lay = grid.layout
    rotation = NORTHS.index(grid.north) * 90
    for angle, n in zip(_FLAT_ANGLES if lay.flat else _POINTY_ANGLES, neighbours(a, lay)):
        if n == b:
            return _compass(angle - rotation)
    raise ValueError(f"hexes {a} and {b} are not adjacent, so {b} has no direction from {a}")


def _cube_round(fq: float, fr: float, fs: float) -> Cube:
    """Nearest cube hex to fractional cube coordinates (redblobgames ``cube_round``)."""
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    else:
        s = -q - r
    return Cube(q, r, s)


def line(grid: Grid, a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b``, both included, each adjacent to the next.

    Cube linear interpolation with rounding (redblobgames "line drawing"); a tiny nudge breaks
    ties where the line runs exactly along a hexside. The nudge is tried in both senses and the
    line that stays on the map is preferred (so a line between on-map hexes along the ragged
    edge of an offset map does not step off it).
    """
    lay = grid.layout
    ca, cb = to_cube(a, lay), to_cube(b, lay)
    n = distance(a, b, lay)
    if n == 0:
        return [a]
    best: list[Hex] = []
    for sign in (1.0, -1.0):
        eps = (1e-6 * sign, 2e-6 * sign, -3e-6 * sign)
        path = []
        for i in range(n + 1):
            t = i / n
            path.append(from_cube(_cube_round(ca.q + (cb.q - ca.q) * t + eps[0],
                                              ca.r + (cb.r - ca.r) * t + eps[1],
                                              ca.s + (cb.s - ca.s) * t + eps[2]), lay))
        if all(grid.contains(h) for h in path) or not best:
            best = path
            if all(grid.contains(h) for h in path):
                break
    return best
