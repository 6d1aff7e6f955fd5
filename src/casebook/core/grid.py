"""The printed map as a whole (:class:`Grid`): its size and numbering, where north is, the
map edges. Single-hex geometry (labels, cube coordinates, neighbours, distance, hexsides) is
:mod:`casebook.core.hexgrid`; where a hex is drawn (sheet coordinates, the compass direction
between neighbours, the hexes on a drawn line) is :mod:`casebook.tools.sheet`. No game rules
live here; this is pure geometry.
"""

from __future__ import annotations

from dataclasses import dataclass

from casebook.core.hexgrid import (
    EDGES,
    NORTHS,
    Hex,
    HexSide,
    Layout,
    _as_layout,
    distance,
    hex_label,
    hexside,
    neighbours,
)

__all__ = ["Grid"]


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
