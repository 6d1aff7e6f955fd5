"""Fit real geography to a printed hex grid: an affine transform lat/lon -> sheet coordinates.

The Moscow '41 map is not available; the rulebook prints six hexes (18.1.3A: Kalinin 3733,
Volokolamsk 2733, Mozhaisk 2032, Maloyaroslavets 1435, Kaluga 0833; 0.2.3.3A: 3111). This module
fits a least-squares affine transform from the towns' coordinates to the **sheet** coordinates of
the printed hexes' centres (the grid's own geometry, via :class:`~casebook.core.grid.Grid`,
not the raw XXYY numbers), then snaps any point to the hex whose centre is nearest (the hex that
contains it). :mod:`casebook.tools.mapgen` uses it to build the map.

Inputs are projected first: ``(lat, lon * cos(lat))`` in degrees (an equirectangular
projection, so an east-west degree shrinks northward as on the ground). :func:`fit_similarity`
instead projects about the printed towns' mean point (``(lat, (lon - lon0) * cos(lat0))``, true to
scale in both directions there) and fits only a scale, a rotation and a shift, so a hex measures
the same ground distance north-south and east-west even when the printed points, lying nearly on
one meridian, leave the east-west scale of a general affine fit undetermined.

Units: sheet coordinates are in hex sizes (centre to corner = 1); residuals are reported in hexes
(1 hex = the distance between adjacent hex centres = sqrt(3) sizes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, hex_label
from casebook.tools import sheet

__all__ = ["Affine", "Residual", "project", "local_project", "fit_affine", "fit_similarity", "hex_at",
           "residuals", "HEX"]

HEX = math.sqrt(3.0)
"""Distance between the centres of adjacent hexes, in hex sizes."""

_SIZE = 1.0


def project(lat: float, lon: float) -> tuple[float, float]:
    """Local equirectangular projection: ``(lat, lon * cos(lat))`` in degrees."""
    return (lat, lon * math.cos(math.radians(lat)))


def local_project(lat: float, lon: float, origin: tuple[float, float]) -> tuple[float, float]:
    """Equirectangular projection about ``origin = (lat0, lon0)``: ``(lat, (lon - lon0) * cos(lat0))``.

    Degrees in, degrees out; one unit is about 111.2 km in both directions near the origin.
    """
    return (lat, (lon - origin[1]) * math.cos(math.radians(origin[0])))


@dataclass(frozen=True)
class Affine:
    """``x = ax0*u + ax1*v + ax2``, ``y = ay0*u + ay1*v + ay2`` with ``(u, v) = project(lat, lon)``.

    ``(x, y)`` are sheet coordinates of :func:`casebook.tools.sheet.center` with ``size = 1``.
    With ``origin``
    (``(lat0, lon0)``, degrees) ``(u, v) = local_project(lat, lon, origin)`` instead.
    """

    ax: tuple[float, float, float]
    ay: tuple[float, float, float]
    origin: tuple[float, float] | None = None

    def apply(self, lat: float, lon: float) -> tuple[float, float]:
        """Sheet coordinates ``(x, y)`` of a point given in degrees."""
        u, v = project(lat, lon) if self.origin is None else local_project(lat, lon, self.origin)
        return (
            self.ax[0] * u + self.ax[1] * v + self.ax[2],
            self.ay[0] * u + self.ay[1] * v + self.ay[2],
        )

    def km_per_hex(self) -> tuple[float, float]:
        """Ground kilometres per hex step ``(north-south, east-west)``: a rough scale for reports."""
        # one degree of latitude ~ 111.2 km; one projected degree of longitude ~ 111.2 km too
        det = self.ax[0] * self.ay[1] - self.ax[1] * self.ay[0]
        # inverse columns: d(u,v)/dx and d(u,v)/dy
        dudx, dvdx = self.ay[1] / det, -self.ay[0] / det
        dudy, dvdy = -self.ax[1] / det, self.ax[0] / det
        return (111.2 * 1.5 * math.hypot(dudx, dvdx), 111.2 * HEX * math.hypot(dudy, dvdy))


def _solve3(m: list[list[float]], b: list[float]) -> list[float]:
    """Solve an n x n linear system (3 or 4 here) by Gaussian elimination with partial pivoting."""
    n = len(b)
    a = [row[:] + [bb] for row, bb in zip(m, b)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(a[r][i]))
        if abs(a[p][i]) < 1e-12:
            raise ValueError("the printed points are collinear: the affine fit is undetermined")
        a[i], a[p] = a[p], a[i]
        for r in range(n):
            if r != i:
                f = a[r][i] / a[i][i]
                for c in range(i, n + 1):
                    a[r][c] -= f * a[i][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit_affine(grid: Grid, points: Sequence[tuple[float, float, Hex]]) -> Affine:
    """Least-squares affine transform taking each ``(lat, lon)`` to the centre of its ``Hex``.

    Needs at least three points not on one line; raises ValueError otherwise.
    """
    if len(points) < 3:
        raise ValueError(f"an affine fit needs at least 3 printed points, got {len(points)}")
    rows = [(*project(lat, lon), 1.0) for lat, lon, _ in points]
    targets = [sheet.center(grid, h, _SIZE) for _, _, h in points]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    bx = [sum(r[i] * t[0] for r, t in zip(rows, targets)) for i in range(3)]
    by = [sum(r[i] * t[1] for r, t in zip(rows, targets)) for i in range(3)]
    return Affine(tuple(_solve3(ata, bx)), tuple(_solve3(ata, by)))  # type: ignore[arg-type]


def fit_similarity(grid: Grid, points: Sequence[tuple[float, float, Hex]]) -> Affine:
    """Least-squares similarity (scale, rotation, shift; no shear) taking ``(lat, lon)`` to hex centres.

    Projects about the points' mean (:func:`local_project`), so the scale is the same ground
    distance a hex in every direction. Needs at least two distinct points; raises ValueError otherwise.
    """
    if len(points) < 2:
        raise ValueError(f"a similarity fit needs at least 2 printed points, got {len(points)}")
    origin = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    rows: list[list[float]] = []
    rhs: list[float] = []
    for lat, lon, h in points:
        u, v = local_project(lat, lon, origin)
        cx, cy = sheet.center(grid, h, _SIZE)
        rows += [[u, -v, 1.0, 0.0], [v, u, 0.0, 1.0]]  # x = a*u - b*v + c, y = b*u + a*v + d
        rhs += [cx, cy]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(4)] for i in range(4)]
    atb = [sum(r[i] * t for r, t in zip(rows, rhs)) for i in range(4)]
    a, b, c, d = _solve3(ata, atb)
    return Affine((a, -b, c), (b, a, d), origin)


def hex_at(grid: Grid, x: float, y: float) -> Hex:
    """The hex (on or off the map) whose centre is nearest to sheet point ``(x, y)`` (size 1).

    Only flat-top layouts are supported (raises ValueError otherwise). Ties go to the lower label.
    """
    if not grid.layout.flat:
        raise ValueError("hex_at supports flat-top layouts only")
    col0 = grid.first_col + round((x - 1.0) / 1.5)
    best: tuple[float, Hex] | None = None
    for col in (col0 - 1, col0, col0 + 1):
        shift = 0.5 if (col & 1) == grid.layout.shifted_parity else 0.0
        row0 = grid.first_row + round(y / HEX - 0.5 - shift)
        for row in (row0 - 1, row0, row0 + 1):
            h = Hex(col, row)
            cx, cy = sheet.center(grid, h, _SIZE)
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0] - 1e-12:
                best = (d, h)
    assert best is not None
    return best[1]


@dataclass(frozen=True)
class Residual:
    """How far the fit puts a printed town from its printed hex.

    ``dx``/``dy``: sheet offset from the printed hex's centre (hexes; x = sheet right = north on
    Moscow '41, y = sheet down = east); ``distance`` its length (hexes); ``snapped`` the label the
    fit gives; ``exact`` whether it equals ``printed``.
    """

    name: str
    printed: str
    snapped: str
    dx: float
    dy: float

    @property
    def distance(self) -> float:
        return math.hypot(self.dx, self.dy)

    @property
    def exact(self) -> bool:
        return self.printed == self.snapped


def residuals(
    grid: Grid, affine: Affine, printed: Sequence[tuple[str, float, float, Hex]]
) -> list[Residual]:
    """Residual of every printed ``(name, lat, lon, hex)`` under ``affine``."""
    out = []
    for name, lat, lon, h in printed:
        x, y = affine.apply(lat, lon)
        cx, cy = sheet.center(grid, h, _SIZE)
        snapped = hex_at(grid, x, y)
        out.append(
            Residual(name, hex_label(h), _label(snapped), (x - cx) / HEX, (y - cy) / HEX)
        )
    return out


def _label(h: Hex) -> str:
    try:
        return hex_label(h)
    except ValueError:
        return f"({h.col},{h.row})"
