"""Draw a map (kind ``map``) and optionally a position's units as an SVG, with drawsvg.

The sheet is drawn as printed: column 01 at the left, row ``first`` at the top, whatever the
``north`` of the map; a compass arrow and edge captions say where the compass edges are. Drawn,
bottom to top: terrain fills and the pack's styled hex sets (``styles:`` of its vocabulary), hex
numbers, rivers and canals on hexsides, trails / roads / rail lines, printed fortifications (teeth
toward the attacker), entry areas, towns and cities, units as counters (side colour from the
vocabulary, ``strength-MA``, name; a stack is one counter with a badge), title and legend.

Output is deterministic: same input, same bytes (no timestamps, no random ids; coordinates
rounded to 0.01 px).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import drawsvg as draw

from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, HexSide, hex_label, parse_hex
from casebook.tools import sheet
from casebook.tools.render_units import SIDE_PALETTE, draw_front, draw_units, side_styles

__all__ = ["render_svg", "side_styles", "COLOURS", "DEFAULT_STYLES", "SIDE_PALETTE", "S", "HEX_NUMBER_PX"]

#: The colours the pack does not give (terrain defaults, features, ``marker.<unit field>``), in one table.
COLOURS: dict[str, Any] = {
    "terrain.clear": "#ece6c8", "terrain.forest": "#9cbf86", "terrain.swamp": "#a9c9c3",
    "river": "#2f6fbf", "canal": "#1d4f99", "road": "#b8322a", "trail": "#8a5a2b", "rail": "#222222",
    "fortification": "#6a1b9a", "front": "#e4007c", "badge": "#ffffff",
    "marker.fatigued": "#f2c230", "marker.oos": "#c62828", "marker.losses": "#37474f", "marker.reserve": "#2e7d32",
}
S = 22.0  # hex size (centre to corner), px
#: hex numbers' font size, px (readable at 100%)
HEX_NUMBER_PX = 7.0
MARGIN = 44.0
TOP = 86.0
LEGEND_H = 190.0
#: the legend's three columns and the title need this width even for a small test map
MIN_WIDTH = 860.0
RIVER, CANAL, ROAD, TRAIL, RAIL = (COLOURS[k] for k in ("river", "canal", "road", "trail", "rail"))
FORT = COLOURS["fortification"]
_NORTH_ANGLE = {"up": -90.0, "right": 0.0, "down": 90.0, "left": 180.0}


def _r(v: float) -> float:
    return round(v, 2)


def _grid(m: Mapping[str, Any]) -> Grid:
    first = m.get("first") or {}
    return Grid(m["layout"], m["size"]["columns"], m["size"]["rows"], first.get("column", 1),
                first.get("row", 1), m.get("north", "up"))


class _Sheet:
    """Sheet coordinates of the map drawn with an offset for the margins."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.dx, self.dy = MARGIN, TOP

    def c(self, h: Hex) -> tuple[float, float]:
        x, y = sheet.center(self.grid, h, S)
        return (x + self.dx, y + self.dy)

    def corners(self, h: Hex) -> list[float]:
        return [_r(v) for x, y in sheet.corners(self.grid, h, S) for v in (x + self.dx, y + self.dy)]

    def side(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        p, q = sheet.side_segment(self.grid, HexSide(min(a, b), max(a, b)), S)
        return ((p[0] + self.dx, p[1] + self.dy), (q[0] + self.dx, q[1] + self.dy))

    @property
    def width(self) -> float:
        return S * (1.5 * self.grid.columns + 0.5)

    @property
    def height(self) -> float:
        return S * math.sqrt(3) * (self.grid.rows + 0.5)


def _line(d: draw.Drawing, p: tuple[float, float], q: tuple[float, float], **kw: Any) -> None:
    d.append(draw.Line(_r(p[0]), _r(p[1]), _r(q[0]), _r(q[1]), **kw))


def _text(d: draw.Drawing, text: str, size: float, x: float, y: float, **kw: Any) -> None:
    d.append(draw.Text(text, _r(size), _r(x), _r(y), **kw))


def _halo_text(d: draw.Drawing, text: str, size: float, x: float, y: float, **kw: Any) -> None:
    _text(d, text, size, x, y, stroke="white", stroke_width=_r(size / 3.5), stroke_linejoin="round",
          fill="white", text_anchor="middle", **kw)
    _text(d, text, size, x, y, fill="black", text_anchor="middle", **kw)


#: Styles a pack that declares none gets for the commonest terrain ids (``styles:`` of its vocabulary wins).
DEFAULT_STYLES: dict[str, dict[str, str]] = {
    "clear": {"name": "Clear", "colour": COLOURS["terrain.clear"]},
    "forest": {"name": "Forest", "colour": COLOURS["terrain.forest"]},
    "swamp": {"name": "Swamp", "colour": COLOURS["terrain.swamp"]},
}


def _style(styles: Mapping[str, Mapping[str, str]], key: str) -> dict[str, str]:
    """The style of a terrain id or hex set: the pack's, else :data:`DEFAULT_STYLES`, else grey
    with the id as its name."""
    found = styles.get(key) or DEFAULT_STYLES.get(key)
    return dict(found) if found else {"name": key.replace("_", " ").capitalize(), "colour": "#cccccc"}


def _styled_sets(map_data: Mapping[str, Any], styles: Mapping[str, Mapping[str, str]]) -> dict[str, set[Hex]]:
    """The map's named hex sets that the pack gives a style: set id -> its hexes."""
    return {k: {parse_hex(str(x)) for x in v} for k, v in map_data.items()
            if k in styles and isinstance(v, list) and v}


def render_svg(map_data: Mapping[str, Any], units: Iterable[Mapping[str, Any]] = (), *,
               title: str = "Map", subtitle: str = "", markers: Iterable[Mapping[str, Any]] = (),
               front: bool = False, sides: Iterable[Any] = (),
               styles: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """The SVG text of ``map_data`` (a ``map`` document or an inline position map) with ``units``.

    ``units``: mappings with ``hex`` (label; units without one are skipped), ``side`` (an id of
    the game's vocabulary), ``class``, ``strength`` (strength points), ``ma`` (MP), ``name`` or
    ``id``. ``sides``: the game's vocabulary's sides (``Pack.vocabulary.sides``): counter colours
    and the legend's names (sides it does not give get :data:`SIDE_PALETTE` colours). ``styles``:
    the vocabulary's ``styles:`` (``Pack.vocabulary.styles``), terrain id or hex set -> ``name``,
    ``colour`` (and a hex set's ``label``): fills and legend names; a terrain it does not style
    takes :data:`DEFAULT_STYLES` or grey.
    ``markers``: a position's markers; ``fortification`` markers are drawn as fortified hexes
    (Battle for Moscow prints its fortifications as hexes, BM2.2D). The legend lists only what
    this map and these markers contain. Counters, stacks, unit markers and the front line
    (``front=True``) are drawn by :mod:`casebook.tools.render_units`. Raises ValueError (from the
    hex grid) on a malformed map.
    """
    units = list(units)
    forts = sorted({m["hex"] for m in markers if m.get("kind") == "fortification" and m.get("hex")})
    grid = _grid(map_data)
    sh = _Sheet(grid)
    W, H = max(sh.width + 2 * MARGIN, MIN_WIDTH), TOP + sh.height + 34 + LEGEND_H
    d = draw.Drawing(_r(W), _r(H), font_family="DejaVu Sans, Arial, sans-serif")
    d.append(draw.Rectangle(0, 0, _r(W), _r(H), fill="#f7f3e6"))
    styles = dict(styles or {})
    terrain = dict(map_data.get("terrain") or {})
    terrain.pop("provenance", None)
    default = terrain.pop("default", "clear")
    sets = _styled_sets(map_data, styles)
    set_fill = {h: styles[k]["colour"] for k, hs in sets.items() for h in hs}
    for h in grid.hexes():
        t = terrain.get(hex_label(h), default)
        fill = set_fill.get(h) or _style(styles, str(t))["colour"]
        d.append(draw.Lines(*sh.corners(h), close=True, fill=fill, stroke="#8d8a70", stroke_width=0.4))
        if t == "swamp":
            x, y = sh.c(h)
            for k in (-1, 0, 1):
                _line(d, (x - 4, y + 5 * k), (x + 4, y + 5 * k), stroke="#4f7f78", stroke_width=0.7)
    for h in grid.hexes():
        x, y = sh.c(h)
        _text(d, hex_label(h), HEX_NUMBER_PX, x, y - S * 0.56, fill="#5a5846", text_anchor="middle",
              class_="hex-number")
    _features(d, sh, map_data.get("hexsides") or [])
    _entry_areas(d, sh, map_data.get("entry_areas") or {})
    _fort_hexes(d, sh, forts)
    _towns(d, sh, map_data.get("towns") or {}, {k: (hs, styles[k].get("label")) for k, hs in sets.items()})
    fronts = draw_front(d, lambda hs: sh.side(hs.a, hs.b), grid, units, COLOURS["front"]) if front else 0
    side_styles_ = side_styles(sides, units)
    draw_units(d, sh.c, S, units, {**COLOURS, **{f"side.{k}": (f, i) for k, (_, f, i) in side_styles_.items()}})
    _frame(d, sh, grid, title, subtitle)
    present = _present(map_data, forts) | _unit_legend(units, fronts)
    kinds = [default, *sorted(set(terrain.values()) - {default})]
    areas = [("hex", _style(styles, t)["name"], _style(styles, t)["colour"]) for t in kinds]
    areas += [("hex", styles[k]["name"], styles[k]["colour"]) for k in sets]
    _legend(d, TOP + sh.height + 30, W, present, side_styles_, areas)
    return d.as_svg()


def _present(map_data: Mapping[str, Any], forts: list[str]) -> set[str]:
    """The legend entries this map needs besides its terrain and hex sets (hexside features, towns
    by kind, ...)."""
    out = {"unit"}
    for s in map_data.get("hexsides") or []:
        out |= {k for k in ("river", "major_river", "canal", "road", "trail", "rail") if s.get(k)}
        if s.get("fortification"):
            out.add("fortification")
    out |= {t.get("kind", "town") for t in (map_data.get("towns") or {}).values()}
    if map_data.get("entry_areas"):
        out.add("entry_areas")
    if forts:
        out.add("fort_hex")
    return out


def _unit_legend(units: list[Mapping[str, Any]], fronts: int) -> set[str]:
    """The legend entries of the units layer this picture shows."""
    out: set[str] = {"front"} if fronts else set()
    on_map = [u for u in units if u.get("hex")]
    if len({u["hex"] for u in on_map}) < len(on_map):
        out.add("stack")
    for field in ("fatigued", "oos", "losses", "reserve"):
        if any(u.get(field) for u in on_map):
            out.add(f"marker.{field}")
    return out


def _fort_hexes(d: draw.Drawing, sh: _Sheet, hexes: Iterable[str]) -> None:
    for label in hexes:
        h = parse_hex(label)
        x, y = sh.c(h)
        pts = [_r(x + (px - x) * 0.82) if i % 2 == 0 else _r(y + (px - y) * 0.82)
               for i, px in enumerate(sh.corners(h))]
        d.append(draw.Lines(*pts, close=True, fill="none", stroke=FORT, stroke_width=1.6,
                            stroke_dasharray="3,1.5"))


def _features(d: draw.Drawing, sh: _Sheet, hexsides: Iterable[Mapping[str, Any]]) -> None:
    sides = [(parse_hex(s["hexes"][0]), parse_hex(s["hexes"][1]), s) for s in hexsides]
    for a, b, s in sides:
        if s.get("river") or s.get("major_river") or s.get("canal"):
            p, q = sh.side(a, b)
            if s.get("canal"):
                _line(d, p, q, stroke=CANAL, stroke_width=2.2, stroke_linecap="round")
            else:
                _line(d, p, q, stroke=RIVER, stroke_width=3.2 if s.get("major_river") else 1.6,
                      stroke_linecap="round")
    for a, b, s in sides:
        if s.get("trail") and not (s.get("road") or s.get("rail")):
            _line(d, sh.c(a), sh.c(b), stroke=TRAIL, stroke_width=1.3, stroke_dasharray="3,2")
    for a, b, s in sides:  # a road under a rail line is drawn wider, so it shows on both sides
        if s.get("road"):
            _line(d, sh.c(a), sh.c(b), stroke=ROAD, stroke_width=4.6 if s.get("rail") else 2.2,
                  stroke_linecap="round")
    for a, b, s in sides:
        if s.get("rail"):
            _line(d, sh.c(a), sh.c(b), stroke=RAIL, stroke_width=2.0, stroke_linecap="round")
    for a, b, s in sides:
        if s.get("rail"):
            _line(d, sh.c(a), sh.c(b), stroke="white", stroke_width=0.9, stroke_dasharray="2.5,2.5")
    for a, b, s in sides:
        f = s.get("fortification")
        if f:
            p, q = sh.side(a, b)
            _line(d, p, q, stroke=FORT, stroke_width=2.6, stroke_linecap="round")
            cx, cy = sh.c(parse_hex(f["protects"]))
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            n = math.hypot(mx - cx, my - cy)
            ux, uy = (mx - cx) / n, (my - cy) / n
            for t in (0.25, 0.5, 0.75):
                x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
                _line(d, (x, y), (x + ux * 3.5, y + uy * 3.5), stroke=FORT, stroke_width=1.4)


def _entry_areas(d: draw.Drawing, sh: _Sheet, areas: Mapping[str, list[str]]) -> None:
    for name, labels in sorted(areas.items()):
        hexes = [parse_hex(x) for x in labels]
        for h in hexes:
            d.append(draw.Lines(*sh.corners(h), close=True, fill="#ffb347", fill_opacity=0.45,
                                stroke="#d46a00", stroke_width=1.6))
        xs = [sh.c(h) for h in hexes]
        x = sum(p[0] for p in xs) / len(xs)
        y = sum(p[1] for p in xs) / len(xs)
        _halo_text(d, f"Entry {name}", 8.5, x, y + 3, font_weight="bold")


def _towns(d: draw.Drawing, sh: _Sheet, towns: Mapping[str, Mapping[str, Any]],
           sets: Mapping[str, tuple[set[Hex], str | None]]) -> None:
    """Towns and cities; a town inside a styled hex set with a ``label`` is a dot, the set's label
    written once over its hexes."""
    labelled = {h for hs, label in sets.values() if label for h in hs}
    for label, t in sorted(towns.items()):
        h = parse_hex(label)
        x, y = sh.c(h)
        if h in labelled:
            d.append(draw.Circle(_r(x), _r(y), 2.6, fill="#8b0000", stroke="white", stroke_width=0.8))
            continue
        if t.get("kind") == "city":
            d.append(draw.Rectangle(_r(x - 3.6), _r(y - 3.6), 7.2, 7.2, fill="#c0392b", stroke="black",
                                    stroke_width=0.9))
        else:
            d.append(draw.Circle(_r(x), _r(y), 2.6, fill="black", stroke="white", stroke_width=0.8))
        size = 8.0 if t.get("kind") == "city" else 6.8
        _halo_text(d, t.get("name", ""), size, x, y + S * 0.62 + size * 0.35,
                   font_weight="bold" if t.get("kind") == "city" else "normal")
    for hexes, text in sets.values():
        if text:
            xs = [sh.c(h) for h in sorted(hexes)]
            x = sum(p[0] for p in xs) / len(xs)
            y = sum(p[1] for p in xs) / len(xs)
            _halo_text(d, text, 12.0, x, y + 4, font_weight="bold", letter_spacing=1)


def _frame(d: draw.Drawing, sh: _Sheet, grid: Grid, title: str, subtitle: str) -> None:
    x0, y0, w, h = sh.dx, sh.dy, sh.width, sh.height
    d.append(draw.Rectangle(_r(x0), _r(y0), _r(w), _r(h), fill="none", stroke="#333", stroke_width=1.2))
    _text(d, title, 20, x0, 32, fill="#222", font_weight="bold")
    if subtitle:
        _text(d, subtitle, 9, x0, 50, fill="#444")
    # compass: an arrow pointing north on the sheet
    ang = math.radians(_NORTH_ANGLE[grid.north])
    cx, cy = float(d.width) - MARGIN - 30, 40.0
    tip = (cx + math.cos(ang) * 18, cy + math.sin(ang) * 18)
    tail = (cx - math.cos(ang) * 18, cy - math.sin(ang) * 18)
    _line(d, tail, tip, stroke="#222", stroke_width=2.2)
    left = (tip[0] - math.cos(ang - 0.5) * 7, tip[1] - math.sin(ang - 0.5) * 7)
    right = (tip[0] - math.cos(ang + 0.5) * 7, tip[1] - math.sin(ang + 0.5) * 7)
    d.append(draw.Lines(_r(tip[0]), _r(tip[1]), _r(left[0]), _r(left[1]), _r(right[0]), _r(right[1]),
                        close=True, fill="#222"))
    _text(d, "N", 11, tip[0] + math.cos(ang) * 9, tip[1] + math.sin(ang) * 9 + 4, fill="#222",
          text_anchor="middle", font_weight="bold")
    captions = {}
    for edge in ("north", "east", "south", "west"):
        hexes = grid.edge_hexes(edge)
        captions[edge] = hexes
    notes = {"west": "WEST EDGE", "east": "EAST EDGE", "north": "NORTH EDGE", "south": "SOUTH EDGE"}
    for edge, hexes in captions.items():
        xs = [sh.c(hx) for hx in hexes]
        mx = sum(p[0] for p in xs) / len(xs)
        my = sum(p[1] for p in xs) / len(xs)
        if abs(mx - (x0 + w / 2)) < abs(my - (y0 + h / 2)):   # top or bottom edge
            y = y0 - 6 if my < y0 + h / 2 else y0 + h + 14
            _text(d, notes[edge], 9, x0 + w / 2, y, fill="#333", text_anchor="middle", font_weight="bold")
        else:
            x = x0 - 10 if mx < x0 + w / 2 else x0 + w + 16
            _text(d, notes[edge], 9, x, y0 + h / 2, fill="#333", text_anchor="middle", font_weight="bold",
                  transform=f"rotate(-90 {_r(x)} {_r(y0 + h / 2)})")


def _legend(d: draw.Drawing, y0: float, width: float, present: set[str],
            styles: Mapping[str, tuple[str, str, str]], areas: Sequence[tuple[str, str, str]] = ()) -> None:
    """The legend: ``areas`` first (``("hex", name, colour)`` of the terrain and styled hex sets
    drawn), then the entries of ``present`` in the catalogue's order."""
    x0 = MARGIN
    _text(d, "Legend", 12, x0, y0 + 8, fill="#222", font_weight="bold")
    col, row = 0, 0

    def slot() -> tuple[float, float]:
        return (x0 + col * (width - 2 * MARGIN) / 3, y0 + 26 + row * 19)

    catalogue: list[tuple[str, str, Any]] = [
        *((f"area.{i}", name, ("hex", colour)) for i, (_, name, colour) in enumerate(areas)),
        ("major_river", "Major river (on hexsides)", ("line", dict(stroke=RIVER, stroke_width=3.2))),
        ("river", "River", ("line", dict(stroke=RIVER, stroke_width=1.6))),
        ("canal", "Canal", ("line", dict(stroke=CANAL, stroke_width=2.2))),
        ("road", "Road", ("line", dict(stroke=ROAD, stroke_width=2.0))),
        ("trail", "Trail", ("line", dict(stroke=TRAIL, stroke_width=1.3, stroke_dasharray="3,2"))),
        ("rail", "Rail line", ("rail", None)),
        ("fortification", "Fortification, teeth toward attacker",
         ("line", dict(stroke=FORT, stroke_width=2.6))),
        ("fort_hex", "Fortification hex", ("line", dict(stroke=FORT, stroke_width=1.6, stroke_dasharray="3,1.5"))),
        ("entry_areas", "Entry area (reinforcements)", ("hex", "#ffc77a")),
        ("city", "City", ("city", None)), ("town", "Town", ("town", None)),
        *(("unit", f"{name} unit: strength-MA", ("unit", (fill, ink))) for name, fill, ink in styles.values()),
        ("stack", "Stack: the strongest unit on top, badge = units in the hex", ("badge", None)),
        ("marker.fatigued", "F: fatigued", ("tag", "marker.fatigued")),
        ("marker.oos", "OOS: out of supply", ("tag", "marker.oos")),
        ("marker.losses", "L1-L3: losses taken", ("tag", "marker.losses")),
        ("marker.reserve", "R: in reserve", ("tag", "marker.reserve")),
        ("front", "Front line (drawn: hexes nearer each side's units; not a rule)",
         ("line", dict(stroke=COLOURS["front"], stroke_width=3.0, stroke_dasharray="6,3"))),
    ]
    present = present | {f"area.{i}" for i, _ in enumerate(areas)}
    items = [(label, item) for key, label, item in catalogue if key in present]
    for i, (label, (kind, arg)) in enumerate(items):
        col, row = i % 3, i // 3
        x, y = slot()
        if kind == "hex":
            d.append(draw.Rectangle(_r(x), _r(y - 6), 22, 12, fill=arg, stroke="#8d8a70", stroke_width=0.6))
        elif kind == "line":
            _line(d, (x, y), (x + 22, y), **arg)
        elif kind == "rail":
            _line(d, (x, y), (x + 22, y), stroke=RAIL, stroke_width=2.0)
            _line(d, (x, y), (x + 22, y), stroke="white", stroke_width=0.9, stroke_dasharray="2.5,2.5")
        elif kind == "city":
            d.append(draw.Rectangle(_r(x + 7.4), _r(y - 3.6), 7.2, 7.2, fill="#c0392b", stroke="black",
                                    stroke_width=0.9))
        elif kind == "town":
            d.append(draw.Circle(_r(x + 11), _r(y), 2.6, fill="black"))
        elif kind == "unit":
            fill, ink = arg
            d.append(draw.Rectangle(_r(x + 4), _r(y - 7), 14, 14, fill=fill, stroke=ink, stroke_width=0.8, rx=1.2))
        elif kind == "badge":
            d.append(draw.Circle(_r(x + 11), _r(y), 4.8, fill=COLOURS["badge"], stroke="#222", stroke_width=0.6))
            _text(d, "3", 6.2, x + 11, y + 2.2, fill="#222", text_anchor="middle", font_weight="bold")
        elif kind == "tag":
            d.append(draw.Rectangle(_r(x + 3), _r(y - 5), 16, 10, fill=COLOURS[arg], stroke="#222",
                                    stroke_width=0.4, rx=0.8))
        _text(d, label, 9, x + 30, y + 3, fill="#222")
