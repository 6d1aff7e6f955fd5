"""The units layer of the map SVG (:mod:`casebook.tools.render`): counters, stacks, markers and an
optional front line; and the subtitle of a position (its turn, phase and step by their names).

A hex holds one counter, smaller than the hex and drawn between the hex number (above it) and a
town's name (below it), so neither is hidden:

- the counter shown is the stack's strongest unit (then its first HQ); the others are the edges
  of counters behind it, and a badge at its top right gives the number of units in the stack;
- markers of the stack's units are tags at the counter's left: ``F`` fatigued (11.1), ``OOS`` out
  of supply (5.5A), ``L1``–``L3`` the most losses of a unit (11.3), ``R`` reserve (0.7.3.3B);
- the front line (``front=True``) is drawn on the hexsides between hexes nearer one side's units
  and hexes nearer the other's or as near to both (within :data:`FRONT_REACH` hexes). It is a picture of the
  position, not a rule of the game: no case defines it, and the legend says so.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import drawsvg as draw

from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, HexSide, parse_hex

__all__ = ["draw_units", "draw_front", "front_sides", "step_subtitle", "side_styles", "COUNTER", "FRONT_REACH", "MARKERS",
           "SIDE_PALETTE"]

#: counter side as a fraction of the hex size S (centre to corner); the hex is S·√3 high
COUNTER = 0.9
#: hexes from a side's nearest unit within which a hex still belongs to the front picture
FRONT_REACH = 4
#: marker tag -> (unit field, label) in drawing order
MARKERS = (("fatigued", "F"), ("oos", "OOS"), ("losses", "L"), ("reserve", "R"))
_CLASS_MARK = {"infantry": "X", "armor": "O", "mechanized": "OX", "cavalry": "/", "hq": "HQ",
               "remnant": "R", "ski": "S", "paratroop": "P"}


def _r(v: float) -> float:
    return round(v, 2)


def _text(d: draw.Drawing, text: str, size: float, x: float, y: float, **kw: Any) -> None:
    d.append(draw.Text(text, _r(size), _r(x), _r(y), **kw))


def _top(units: list[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The unit shown on top of a stack: the strongest combat unit, else the first."""
    combat = [u for u in units if u.get("class") != "hq"]
    return max(combat, key=lambda u: (u.get("strength") or 0)) if combat else units[0]


def _tags(units: list[Mapping[str, Any]]) -> list[str]:
    tags = []
    for field, label in MARKERS:
        if field == "losses":
            most = max((int(u.get("losses") or 0) for u in units), default=0)
            if most:
                tags.append(f"L{most}")
        elif any(u.get(field) for u in units):
            tags.append(label)
    return tags


def draw_units(d: draw.Drawing, centre: Any, size: float, units: Iterable[Mapping[str, Any]],
               colours: Mapping[str, Any]) -> None:
    """Counters of ``units`` (mappings with ``hex``, ``side``, ``class``, ``strength``, ``ma``,
    ``name``/``id`` and the marker fields) on the sheet; ``centre(Hex)`` gives a hex centre in px,
    ``size`` is S in px, ``colours`` the render colour table (``side.<side>`` = (fill, ink),
    ``marker.<field>``, ``badge``)."""
    stacks: dict[str, list[Mapping[str, Any]]] = {}
    for u in units:
        if u.get("hex"):
            stacks.setdefault(u["hex"], []).append(u)
    side = size * COUNTER
    for label in sorted(stacks):
        stack = stacks[label]
        x0, y0 = centre(parse_hex(label))
        top = _top(stack)
        fill, ink = colours.get(f"side.{top.get('side', '')}", ("#dddddd", "#000000"))
        x, y = x0 - side / 2, y0 - side / 2 + size * 0.06
        for k in range(min(len(stack) - 1, 2), 0, -1):  # the edges of the counters behind
            d.append(draw.Rectangle(_r(x + 1.6 * k), _r(y - 1.6 * k), _r(side), _r(side), fill=fill,
                                    stroke=ink, stroke_width=0.5, rx=1.0, class_="stacked"))
        d.append(draw.Rectangle(_r(x), _r(y), _r(side), _r(side), fill=fill, stroke=ink, stroke_width=0.8,
                                rx=1.2, class_="counter"))
        _text(d, _CLASS_MARK.get(str(top.get("class", "")), "?"), size * 0.26, x + side / 2, y + side * 0.58,
              fill=ink, text_anchor="middle", font_weight="bold")
        name = str(top.get("name") or top.get("id", ""))
        _text(d, name, size * (0.2 if len(name) < 9 else 0.16), x + side / 2, y + size * 0.24, fill=ink,
              text_anchor="middle")
        values = (f"r{top.get('radius', '?')} {top.get('ma', '?')}" if top.get("class") == "hq"
                  else f"{top.get('strength', '?')}-{top.get('ma', '?')}")
        _text(d, values, size * 0.28, x + side / 2, y + side - size * 0.08, fill=ink, text_anchor="middle",
              font_weight="bold")
        if len(stack) > 1:
            bx, by = x + side, y
            d.append(draw.Circle(_r(bx), _r(by), _r(size * 0.22), fill=colours["badge"], stroke=ink,
                                 stroke_width=0.6, class_="stack-count"))
            _text(d, str(len(stack)), size * 0.28, bx, by + size * 0.1, fill=ink, text_anchor="middle",
                  font_weight="bold")
        for i, tag in enumerate(_tags(stack)):
            field = next(f for f, lab in MARKERS if tag.startswith(lab))
            w, h = size * (0.2 + 0.14 * len(tag)), size * 0.26
            tx, ty = x - w - 0.8, y + i * (h + 0.8)
            d.append(draw.Rectangle(_r(tx), _r(ty), _r(w), _r(h), fill=colours[f"marker.{field}"], stroke=ink,
                                    stroke_width=0.4, rx=0.8, class_=f"marker-{field}"))
            _text(d, tag, size * 0.2, tx + w / 2, ty + h * 0.78, fill="white" if field != "fatigued" else ink,
                  text_anchor="middle", font_weight="bold")


def front_sides(grid: Grid, units: Iterable[Mapping[str, Any]], sides: tuple[str, str] = ("german", "soviet"),
                reach: int = FRONT_REACH) -> list[HexSide]:
    """The hexsides of the front picture: between a hex nearer ``sides[0]``'s units and one nearer
    ``sides[1]``'s or as near to both, within ``reach`` hexes of the units (breadth first over the
    grid), so a band of equally near hexes still gives one unbroken line."""
    dist: dict[str, dict[Hex, int]] = {}
    for s in sides:
        start = [parse_hex(u["hex"]) for u in units if u.get("hex") and u.get("side") == s]
        seen = {h: 0 for h in start if grid.contains(h)}
        todo = deque(seen)
        while todo:
            h = todo.popleft()
            if seen[h] >= reach:
                continue
            for n in grid.neighbours(h):
                if n not in seen:
                    seen[n] = seen[h] + 1
                    todo.append(n)
        dist[s] = seen
    a, b = (dist[s] for s in sides)

    def owner(h: Hex) -> int:
        """1 or 2: nearer that side's units; 3: as near to both; 0: out of reach of both."""
        da, db = a.get(h), b.get(h)
        if da is None and db is None:
            return 0
        if db is None or (da is not None and da < db):
            return 1
        if da is None or db < da:
            return 2
        return 3

    out = []
    for h in sorted(a):
        if owner(h) != 1:
            continue
        for n in grid.neighbours(h):
            if owner(n) in (2, 3):  # a band of hexes as near to both lies on the other side
                out.append(HexSide(min(h, n), max(h, n)))
    return sorted(set(out))


def draw_front(d: draw.Drawing, segment: Any, grid: Grid, units: Iterable[Mapping[str, Any]], colour: str) -> int:
    """Draw :func:`front_sides` (``segment(HexSide)`` gives its two end points in px); returns how
    many hexsides were drawn."""
    sides = front_sides(grid, list(units))
    for s in sides:
        p, q = segment(s)
        d.append(draw.Line(_r(p[0]), _r(p[1]), _r(q[0]), _r(q[1]), stroke=colour, stroke_width=3.0,
                           stroke_linecap="round", stroke_dasharray="6,3", stroke_opacity=0.9, class_="front"))
    return len(sides)


def step_subtitle(sequence: Any, turn: int, phase: str | None, step: str | None) -> str:
    """``turn 3 · Initiative Phase (first player) · Step 2: Movement``: the position's phase and
    step by the names the game's sequence of play gives them (ids where it gives none)."""
    parts = [f"turn {turn}"]
    ph = next((p for p in getattr(sequence, "phases", ()) if p.id == phase), None)
    if phase:
        parts.append(ph.name if ph is not None and ph.name else phase)
    st = next((s for s in ph.steps if s.id == step), None) if ph is not None else None
    if step:
        parts.append(st.name if st is not None and st.name else step)
    return " · ".join(parts)


#: Counter (fill, ink) of sides the game's vocabulary gives no colours, in order of appearance.
SIDE_PALETTE = (("#9db4d9", "#10203a"), ("#e0a090", "#3a1010"), ("#b7d39a", "#1f3310"), ("#d8c27a", "#33290a"))


def side_styles(sides: Iterable[Any] = (), units: Iterable[Mapping[str, Any]] = ()) -> dict[str, tuple[str, str, str]]:
    """side id -> (name, fill, ink): from the game's vocabulary (``SideInfo`` records: ``id``,
    ``name``, ``colour``, ``ink``), then any other side the units name, from :data:`SIDE_PALETTE`."""
    out = {s.id: (s.name, s.colour, s.ink) for s in sides}
    for u in units:
        side = u.get("side")
        if isinstance(side, str) and side not in out:
            fill, ink = SIDE_PALETTE[len(out) % len(SIDE_PALETTE)]
            out[side] = (side, fill, ink)
    return out
