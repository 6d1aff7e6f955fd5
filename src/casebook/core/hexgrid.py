"""Hex-grid geometry of a printed hex map: labels, offset <-> cube coordinates, neighbours,
distance, hexsides, compass directions and map edges, lines, and sheet (drawing) coordinates.

No game rules live here; this is pure geometry.

Coordinates
-----------
A :class:`Hex` holds the *printed* numbers of a hex: label ``"2032"`` is ``Hex(col=20, row=32)``.
On the sheet, column numbers grow to the right and row numbers grow downward.

The four :class:`Layout` s follow redblobgames' offset coordinates
(https://www.redblobgames.com/grids/hexagons/#coordinates-offset), with the parity taken from the
**printed** number, whatever the first column/row is:

- ``flat-top-even-q``: flat-topped hexes in vertical columns; printed columns 02, 04, ... sit
  half a hex lower than 01, 03, ... (as in most wargame maps).
- ``flat-top-odd-q``: the opposite: odd printed columns sit half a hex lower.
- ``pointy-top-even-r``: pointy-topped hexes in horizontal rows; even printed rows sit half a hex
  to the right.
- ``pointy-top-odd-r``: odd printed rows sit half a hex to the right.

Cube coordinates (``q + r + s == 0``) are computed from the printed numbers directly, so two hexes
have the same cube relation whatever ``first_col``/``first_row`` a :class:`Grid` declares.

Directions
----------
:func:`neighbours` lists the six neighbours clockwise on the sheet starting at the top:

- flat-top: up, up-right, down-right, down, down-left, up-left;
- pointy-top: up-right, right, down-right, down-left, left, up-left.

:meth:`Grid.direction` names them by compass, honouring the grid's ``north`` (where north is on
the sheet: ``up``, ``right``, ``down`` or ``left``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

__all__ = [
    "Layout", "Hex", "parse_hex", "hex_label", "Cube", "to_cube", "from_cube", "neighbours",
    "distance", "HexSide", "hexside", "Grid", "NORTHS", "EDGES", "COMPASS",
]

NORTHS: tuple[str, ...] = ("up", "right", "down", "left")
"""Where north can be on the sheet; index * 90 is the clockwise rotation of north from sheet-up."""

EDGES: tuple[str, ...] = ("north", "east", "south", "west")
"""Compass names of the four map edges."""

COMPASS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""Compass names :meth:`Grid.direction` can return."""


class Layout(str, Enum):
    """How the hexes of a printed map are arranged (see the module docstring)."""

    FLAT_ODD_Q = "flat-top-odd-q"
    FLAT_EVEN_Q = "flat-top-even-q"
    POINTY_ODD_R = "pointy-top-odd-r"
    POINTY_EVEN_R = "pointy-top-even-r"

    @property
    def flat(self) -> bool:
        """True for the flat-topped (column) layouts."""
        return self in (Layout.FLAT_ODD_Q, Layout.FLAT_EVEN_Q)

    @property
    def shifted_parity(self) -> int:
        """Parity (0 even, 1 odd) of the printed column (q) or row (r) numbers shifted by half a hex."""
        return 1 if self in (Layout.FLAT_ODD_Q, Layout.POINTY_ODD_R) else 0


class Hex(NamedTuple):
    """A hex by its printed numbers: ``col`` (the ``XX`` of ``XXYY``) and ``row`` (the ``YY``).

    Ordering is column first, then row: the order of the printed labels. A named tuple, so
    hashing, equality and ordering run in C (searches and maps hash hexes millions of times a
    game); compare hexes with hexes only: ``Hex(1, 2) == (1, 2)`` is true.
    """

    col: int
    row: int

    def __str__(self) -> str:
        try:
            return hex_label(self)
        except ValueError:
            return f"Hex({self.col}, {self.row})"


_LABEL = re.compile(r"[0-9]{4}")


def parse_hex(label: str) -> Hex:
    """Parse a printed four-digit label ``"XXYY"`` (column, then row): ``"2032"`` -> ``Hex(20, 32)``.

    Raises ValueError quoting the input unless it is a string of exactly four ASCII digits.
    """
    found = _PARSED.get(label) if isinstance(label, str) else None
    if found is not None:  # at most 10000 labels: each parsed once (a hot path of every search)
        return found
    if not isinstance(label, str) or not _LABEL.fullmatch(label):
        raise ValueError(
            f"hex label must be four digits XXYY (column, then row), e.g. \"0304\"; got {label!r}"
        )
    found = _PARSED[label] = Hex(int(label[:2]), int(label[2:]))
    _LABELS[found] = label
    return found


def hex_label(h: Hex) -> str:
    """The printed label of ``h``: ``Hex(20, 32)`` -> ``"2032"``; inverse of :func:`parse_hex`.

    Raises ValueError if a number is outside 0..99 (it would not print as two digits).
    """
    found = _LABELS.get(h) if type(h) is Hex else None
    if found is not None:
        return found
    if not (0 <= h.col <= 99 and 0 <= h.row <= 99):
        raise ValueError(f"hex ({h.col}, {h.row}) has no four-digit label: numbers must be 0..99")
    found = f"{h.col:02d}{h.row:02d}"
    if type(h) is Hex:
        _LABELS[h] = found
        _PARSED[found] = h
    return found


#: label -> Hex and Hex -> label, filled as labels are met (bounded: 10000 four-digit labels)
_PARSED: dict[str, Hex] = {}
_LABELS: dict[Hex, str] = {}


@dataclass(frozen=True)
class Cube:
    """Cube coordinates of a hex; ``q + r + s == 0`` (checked)."""

    q: int
    r: int
    s: int

    def __post_init__(self) -> None:
        if self.q + self.r + self.s != 0:
            raise ValueError(f"cube coordinates must sum to 0, got {self}")


def _as_layout(layout: Layout | str) -> Layout:
    if isinstance(layout, Layout):
        return layout
    try:
        return Layout(layout)
    except ValueError:
        choices = ", ".join(x.value for x in Layout)
        raise ValueError(f"unknown hex layout {layout!r}; expected one of {choices}") from None


def to_cube(h: Hex, layout: Layout | str) -> Cube:
    """Cube coordinates of the printed hex ``h`` under ``layout`` (redblobgames offset -> cube)."""
    lay = _as_layout(layout)
    if lay.flat:  # columns of the shifted parity sit half a hex lower (redblob odd-q / even-q)
        q, r = h.col, h.row - _half(h.col, lay.shifted_parity)
    else:  # rows of the shifted parity sit half a hex right (redblob odd-r / even-r)
        q, r = h.col - _half(h.row, lay.shifted_parity), h.row
    return Cube(q, r, -q - r)


def _half(n: int, p: int) -> int:
    """Row (or column) correction of redblob's offset conversion for shifted parity ``p``.

    odd shifted (p == 1): (n - (n & 1)) // 2; even shifted (p == 0): (n + (n & 1)) // 2.
    """
    return (n - (n & 1)) // 2 if p == 1 else (n + (n & 1)) // 2


def from_cube(c: Cube, layout: Layout | str) -> Hex:
    """The printed hex at cube ``c`` under ``layout``; inverse of :func:`to_cube`."""
    lay = _as_layout(layout)
    p = lay.shifted_parity
    if lay.flat:
        return Hex(c.q, c.r + _half(c.q, p))
    return Hex(c.q + _half(c.r, p), c.r)


# Cube direction vectors, clockwise on the sheet from the top (see module docstring).
_FLAT_DIRS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_POINTY_DIRS: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
# Sheet angle (degrees clockwise from sheet-up) of each direction above.
_FLAT_ANGLES = (0, 60, 120, 180, 240, 300)
_POINTY_ANGLES = (30, 90, 150, 210, 270, 330)


def neighbours(h: Hex, layout: Layout | str) -> list[Hex]:
    """The six hexes adjacent to ``h``, clockwise on the sheet from the top (module docstring).

    Hexes off any map are included (there is no map here).
    """
    lay = _as_layout(layout)
    c = to_cube(h, lay)
    return [from_cube(Cube(c.q + dq, c.r + dr, -(c.q + dq) - (c.r + dr)), lay) for dq, dr in (_FLAT_DIRS if lay.flat else _POINTY_DIRS)]


def distance(a: Hex, b: Hex, layout: Layout | str) -> int:
    """Distance in hexes between ``a`` and ``b`` (0 for the same hex)."""
    lay = _as_layout(layout)
    p = lay.shifted_parity
    if lay.flat:  # to_cube inlined (this is a hot path): q = col, r = row - half(col)
        dq = a.col - b.col
        dr = (a.row - _half(a.col, p)) - (b.row - _half(b.col, p))
    else:
        dr = a.row - b.row
        dq = (a.col - _half(a.row, p)) - (b.col - _half(b.row, p))
    return max(abs(dq), abs(dr), abs(dq + dr))


@dataclass(frozen=True, order=True)
class HexSide:
    """The side shared by two adjacent hexes, stored as an unordered pair with ``a < b``.

    Build it with :func:`hexside` (which checks adjacency and orders the pair).
    """

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if not self.a < self.b:
            raise ValueError(f"HexSide needs a < b (use hexside()); got {self.a}, {self.b}")

    def __str__(self) -> str:
        return f"{self.a}/{self.b}"


def hexside(a: Hex, b: Hex, layout: Layout | str) -> HexSide:
    """The hexside between adjacent ``a`` and ``b`` (either order).

    Raises ValueError if they are not adjacent (including ``a == b``).
    """
    if distance(a, b, layout) != 1:
        raise ValueError(f"hexes {a} and {b} are not adjacent, so they share no hexside")
    return HexSide(min(a, b), max(a, b))


def _compass(bearing: int) -> str:
    """Compass name of a bearing (degrees clockwise from north, a multiple of 30)."""
    bearing %= 360
    if bearing in (0, 90, 180, 270):
        return COMPASS[bearing // 45]
    return {1: "NE", 2: "SE", 3: "SW", 4: "NW"}[bearing // 90 + 1]


_SQRT3 = math.sqrt(3.0)


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


@dataclass(frozen=True)
class Grid:
    """A rectangular printed map: ``columns`` x ``rows`` hexes numbered from ``first_col``/``first_row``.

    ``north`` is where north is on the sheet (``up``, ``right``, ``down``, ``left``). With ``up``,
    row ``first_row`` is the north edge and column ``first_col`` the west edge; with ``right``
    (a map whose columns grow northward and rows eastward) the last column is the north edge,
    the first column the south edge, the first row the west edge and the last row the east edge.
    Raises ValueError on a non-positive size, an unknown layout/north, or numbers beyond 99.
    """

    layout: Layout
    columns: int
    rows: int
    first_col: int = 1
    first_row: int = 1
    north: str = "up"

    def __post_init__(self) -> None:
        object.__setattr__(self, "layout", _as_layout(self.layout))
        if self.north not in NORTHS:
            raise ValueError(f"north must be one of {', '.join(NORTHS)}; got {self.north!r}")
        for name in ("columns", "rows", "first_col", "first_row"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"grid {name} must be an integer; got {v!r}")
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"grid size must be at least 1x1; got {self.columns}x{self.rows}")
        if self.first_col < 0 or self.first_row < 0 or self.last_col > 99 or self.last_row > 99:
            raise ValueError(
                f"grid numbers must stay within 00..99 to print as XXYY; got columns "
                f"{self.first_col}..{self.last_col}, rows {self.first_row}..{self.last_row}"
            )

    @property
    def last_col(self) -> int:
        """Printed number of the last (right-most) column."""
        return self.first_col + self.columns - 1

    @property
    def last_row(self) -> int:
        """Printed number of the last (bottom) row."""
        return self.first_row + self.rows - 1

    def hexes(self) -> list[Hex]:
        """Every hex of the map in label order (column, then row)."""
        return [
            Hex(c, r)
            for c in range(self.first_col, self.last_col + 1)
            for r in range(self.first_row, self.last_row + 1)
        ]

    def contains(self, h: Hex) -> bool:
        """True if ``h`` is on the map."""
        return self.first_col <= h.col <= self.last_col and self.first_row <= h.row <= self.last_row

    def _require(self, h: Hex) -> None:
        if not self.contains(h):
            raise ValueError(f"hex {h} is off the map ({self.describe()})")

    def describe(self) -> str:
        """``"hexes 0101..0606"``: the printed extent, for messages."""
        return (
            f"hexes {hex_label(Hex(self.first_col, self.first_row))}.."
            f"{hex_label(Hex(self.last_col, self.last_row))}"
        )

    def neighbours(self, h: Hex) -> list[Hex]:
        """The on-map neighbours of ``h``, in :func:`neighbours` order (clockwise from sheet-top)."""
        return [n for n in neighbours(h, self.layout) if self.contains(n)]

    def distance(self, a: Hex, b: Hex) -> int:
        """Distance in hexes (off-map hexes allowed)."""
        return distance(a, b, self.layout)

    def hexside(self, a: Hex, b: Hex) -> HexSide:
        """The hexside between on-map adjacent ``a`` and ``b``; ValueError if off-map or not adjacent."""
        self._require(a)
        self._require(b)
        return hexside(a, b, self.layout)

    def _rotation(self) -> int:
        return NORTHS.index(self.north) * 90

    def direction(self, a: Hex, b: Hex) -> str:
        """Compass name ("N", "NE", "E", "SE", "S", "SW", "W", "NW") of adjacent ``b`` seen from ``a``.

        Hex directions fall every 60 degrees, so with ``north: up`` flat-top maps give N, NE, SE,
        S, SW, NW and pointy-top maps NE, E, SE, SW, W, NW; other ``north`` values rotate them.
        Raises ValueError if not adjacent.
        """
        lay = self.layout
        for angle, n in zip(_FLAT_ANGLES if lay.flat else _POINTY_ANGLES, neighbours(a, lay)):
            if n == b:
                return _compass(angle - self._rotation())
        raise ValueError(f"hexes {a} and {b} are not adjacent, so {b} has no direction from {a}")

    def _sheet_edge_to_compass(self) -> dict[str, str]:
        """Map sheet edges (top/right/bottom/left) to compass edge names."""
        names = {0: "north", 90: "east", 180: "south", 270: "west"}
        rot = self._rotation()
        return {
            side: names[(angle - rot) % 360]
            for side, angle in (("top", 0), ("right", 90), ("bottom", 180), ("left", 270))
        }

    def edges(self, h: Hex) -> frozenset[str]:
        """The compass map edges ``h`` lies on: a subset of {"north", "south", "east", "west"}.

        A hex lies on an edge when it is in the first/last printed row or column on that side;
        corner hexes lie on two edges; off-map hexes on none.
        """
        if not self.contains(h):
            return frozenset()
        m = self._sheet_edge_to_compass()
        out = set()
        if h.row == self.first_row:
            out.add(m["top"])
        if h.row == self.last_row:
            out.add(m["bottom"])
        if h.col == self.first_col:
            out.add(m["left"])
        if h.col == self.last_col:
            out.add(m["right"])
        return frozenset(out)

    def edge_hexes(self, edge: str) -> list[Hex]:
        """The hexes on compass edge ``edge`` ("north", "south", "east", "west") in label order.

        Raises ValueError for another name.
        """
        if edge not in EDGES:
            raise ValueError(f"map edge must be one of {', '.join(EDGES)}; got {edge!r}")
        return [h for h in self.hexes() if edge in self.edges(h)]

    def line(self, a: Hex, b: Hex) -> list[Hex]:
        """The hexes on the straight line from ``a`` to ``b``, both included, each adjacent to the next.

        Cube linear interpolation with rounding (redblobgames "line drawing"); a tiny nudge breaks
        ties where the line runs exactly along a hexside. The nudge is tried in both senses and the
        line that stays on the map is preferred (so a line between on-map hexes along the ragged
        edge of an offset map does not step off it).
        """
        lay = self.layout
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
                path.append(
                    from_cube(
                        _cube_round(
                            ca.q + (cb.q - ca.q) * t + eps[0],
                            ca.r + (cb.r - ca.r) * t + eps[1],
                            ca.s + (cb.s - ca.s) * t + eps[2],
                        ),
                        lay,
                    )
                )
            if all(self.contains(h) for h in path) or not best:
                best = path
                if all(self.contains(h) for h in path):
                    break
        return best

    def center(self, h: Hex, size: float) -> tuple[float, float]:
        """Sheet coordinates ``(x, y)`` of the centre of ``h`` (x right, y down, same unit as ``size``).

        ``size`` is the centre-to-corner distance. The first column/row is placed so that the
        map's unshifted hexes touch x = 0 and y = 0 (shifted ones sit half a hex further).
        """
        lay = self.layout
        dc, dr = h.col - self.first_col, h.row - self.first_row
        if lay.flat:
            shift = 0.5 if (h.col & 1) == lay.shifted_parity else 0.0
            return (size * (1.0 + 1.5 * dc), size * _SQRT3 * (0.5 + dr + shift))
        shift = 0.5 if (h.row & 1) == lay.shifted_parity else 0.0
        return (size * _SQRT3 * (0.5 + dc + shift), size * (1.0 + 1.5 * dr))

    def corners(self, h: Hex, size: float) -> list[tuple[float, float]]:
        """The six corners of ``h`` on the sheet, clockwise (y down) starting at the right-hand
        corner (flat-top) or the lower-right corner (pointy-top)."""
        cx, cy = self.center(h, size)
        start = 0 if self.layout.flat else 30
        return [
            (cx + size * math.cos(math.radians(start + 60 * i)),
             cy + size * math.sin(math.radians(start + 60 * i)))
            for i in range(6)
        ]

    def side_segment(
        self, side: HexSide, size: float
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two endpoints (sheet coordinates) of the edge shared by the hexes of ``side``.

        Endpoints come in the order of :meth:`corners` of ``side.a``. Off-map hexes are allowed.
        """
        if distance(side.a, side.b, self.layout) != 1:
            raise ValueError(f"hexes {side.a} and {side.b} are not adjacent")
        bx, by = self.center(side.b, size)
        corners = self.corners(side.a, size)
        nearest = sorted(range(6), key=lambda i: math.dist(corners[i], (bx, by)))[:2]
        i, j = sorted(nearest)
        return (corners[i], corners[j])
