"""Hex-grid geometry of a printed hex map: labels, offset <-> cube coordinates, neighbours,
distance and hexsides; the printed map as a whole (its size, compass directions and edges, lines
and sheet coordinates) is :class:`casebook.core.grid.Grid`.

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

:meth:`casebook.core.grid.Grid.direction` names them by compass, honouring the grid's ``north`` (where north is on
the sheet: ``up``, ``right``, ``down`` or ``left``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

__all__ = [
    "Layout", "Hex", "parse_hex", "hex_label", "Cube", "to_cube", "from_cube", "neighbours",
    "distance", "HexSide", "hexside", "NORTHS", "EDGES", "COMPASS",
]

NORTHS: tuple[str, ...] = ("up", "right", "down", "left")
"""Where north can be on the sheet; index * 90 is the clockwise rotation of north from sheet-up."""

EDGES: tuple[str, ...] = ("north", "east", "south", "west")
"""Compass names of the four map edges."""

COMPASS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""Compass names :meth:`casebook.core.grid.Grid.direction` can return."""


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
