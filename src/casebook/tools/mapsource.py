"""Read and check the map sources of a pack: ``gazetteer.yaml`` and ``geography.yaml``.

``gazetteer.yaml`` (kind ``gazetteer``, docs/content-format.md) lists towns with coordinates and
the rulebook-printed hexes. ``geography.yaml`` (kind ``geography``) holds the grid declaration
and the features as real coordinates::

    grid: {layout: flat-top-even-q, north: right, first: {column: 1, row: 3},
           size: {columns: 40, rows: 54}, must_include: [{hex: "3111"}]}
    waypoints: {Borodino: [55.52, 35.82]}          # named points that are not towns
    rivers:   [{name: Volga, major: true, course: [Rzhev, Zubtsov, [56.72, 35.40], Kalinin]}]
    canals:   [{name: ..., course: [...]}]          # along hexsides, like rivers
    roads / trails / rails: [{name: ..., course: [...]}]   # through hexsides
    regions:  [{terrain: forest, name: ..., outline: [[lat, lon], ...]}]
    moscow:   {points: [Moscow, [55.83, 37.62]]}    # every hex holding a point is a Moscow hex
    fortifications: [{name: Mozhaisk Line, line: [Volokolamsk, Mozhaisk], facing: west}]
    entry_areas: {A: {edge: south, road: Bryansk road, width: 3}}

A point is a gazetteer town name, a waypoint name, or ``[lat, lon]`` in degrees. Every problem of
both files is reported at once as ``file:line:column: key: message`` (:class:`ContentError`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from casebook.content.yamlio import YamlDoc, read_yaml
from casebook.core.errors import ContentError, Problem
from casebook.core.grid import Grid
from casebook.core.hexgrid import EDGES, Hex, parse_hex

__all__ = ["Town", "Sources", "load_sources", "FEATURES_ALONG", "FEATURES_THROUGH", "FACINGS"]

FEATURES_ALONG = ("rivers", "canals")
"""Features drawn along hexsides (the hexside itself carries them)."""
FEATURES_THROUGH = ("roads", "trails", "rails")
"""Features running through hexsides from hex centre to hex centre."""

FACINGS = {"north": ("N", "NE", "NW"), "east": ("E", "NE", "SE"), "south": ("S", "SE", "SW"),
           "west": ("W", "NW", "SW")}
"""Compass directions (Grid.direction) of the hexsides a fortification facing ... protects against."""


@dataclass(frozen=True)
class Town:
    """A gazetteer town: ``lat``/``lon`` in degrees; ``kind`` city | town; ``ip`` in IPs."""

    name: str
    lat: float
    lon: float
    kind: str
    ip: int
    source: str


@dataclass(frozen=True)
class Sources:
    """Checked map sources: the two documents, the towns, the printed hexes and the grid."""

    gazetteer: YamlDoc
    geography: YamlDoc
    towns: tuple[Town, ...]
    printed: dict[str, Hex]
    grid: Grid
    must_include: tuple[Hex, ...]
    fit: str = "affine"

    def point(self, item: Any) -> tuple[float, float]:
        """``(lat, lon)`` of a checked point (town name, waypoint name or pair)."""
        if isinstance(item, str):
            for t in self.towns:
                if t.name == item:
                    return (t.lat, t.lon)
            lat, lon = self.geography.data["waypoints"][item]
            return (float(lat), float(lon))
        return (float(item[0]), float(item[1]))


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def load_sources(pack: Path) -> Sources:
    """Read ``pack/gazetteer.yaml`` and ``pack/geography.yaml``; raise ContentError with all problems."""
    problems: list[Problem] = []
    gdoc, p1 = read_yaml(pack / "gazetteer.yaml")
    geo, p2 = read_yaml(pack / "geography.yaml")
    problems += p1 + p2
    if gdoc is None or geo is None:
        raise ContentError(problems)
    towns = _check_gazetteer(gdoc, problems)
    printed = _check_printed(gdoc, towns, problems)
    grid, must = _check_grid(geo, problems)
    names = {t.name for t in towns}
    _check_geography(geo, names, problems)
    if problems or grid is None:
        raise ContentError(problems)
    fit = (geo.data.get("grid") or {}).get("fit", "affine") if isinstance(geo.data, dict) else "affine"
    if fit not in ("affine", "similarity"):
        raise ContentError([geo.problem(("grid", "fit"), f"fit must be affine or similarity, not {fit!r}")])
    return Sources(gdoc, geo, tuple(towns), printed, grid, tuple(must), fit)


def _check_gazetteer(doc: YamlDoc, problems: list[Problem]) -> list[Town]:
    d = doc.data if isinstance(doc.data, dict) else {}
    if d.get("kind") != "gazetteer":
        problems.append(doc.problem(("kind",), "expected kind: gazetteer", value=True))
    towns: list[Town] = []
    seen: set[str] = set()
    for i, t in enumerate(d.get("towns") or []):
        path = ("towns", i)
        if not isinstance(t, dict):
            problems.append(doc.problem(path, "a town is a mapping {name, lat, lon, kind, ip, source}"))
            continue
        bad = [k for k in ("name", "lat", "lon", "kind", "ip", "source") if k not in t]
        if bad:
            problems.append(doc.problem(path, f"missing key(s): {', '.join(bad)}"))
            continue
        if not (_num(t["lat"]) and _num(t["lon"])):
            problems.append(doc.problem(path + ("lat",), "lat and lon must be numbers (degrees)"))
        elif t["kind"] not in ("city", "town"):
            problems.append(doc.problem(path + ("kind",), "kind must be city or town", value=True))
        elif not isinstance(t["ip"], int) or isinstance(t["ip"], bool) or t["ip"] < 0:
            problems.append(doc.problem(path + ("ip",), "ip must be a whole number >= 0", value=True))
        elif t["name"] in seen:
            problems.append(doc.problem(path + ("name",), f"duplicate town {t['name']!r}", value=True))
        else:
            seen.add(t["name"])
            towns.append(Town(str(t["name"]), float(t["lat"]), float(t["lon"]), t["kind"],
                              t["ip"], str(t["source"])))
    if not towns:
        problems.append(doc.problem(("towns",), "the gazetteer lists no towns"))
    return towns


def _check_printed(doc: YamlDoc, towns: list[Town], problems: list[Problem]) -> dict[str, Hex]:
    d = doc.data if isinstance(doc.data, dict) else {}
    names = {t.name for t in towns}
    out: dict[str, Hex] = {}
    for name, label in (d.get("printed") or {}).items():
        if name == "provenance":
            continue
        path = ("printed", name)
        if name not in names:
            problems.append(doc.problem(path, f"printed town {name!r} is not in towns"))
            continue
        try:
            out[name] = parse_hex(label)
        except ValueError as exc:
            problems.append(doc.problem(path, str(exc), value=True))
    if len(out) < 3:
        problems.append(doc.problem(("printed",), "need at least 3 printed town hexes for the fit"))
    return out


def _check_grid(doc: YamlDoc, problems: list[Problem]) -> tuple[Grid | None, list[Hex]]:
    d = doc.data if isinstance(doc.data, dict) else {}
    if d.get("kind") != "geography":
        problems.append(doc.problem(("kind",), "expected kind: geography", value=True))
    g = d.get("grid")
    if not isinstance(g, dict):
        problems.append(doc.problem(("grid",), "missing grid: {layout, north, first, size}"))
        return None, []
    layout: Any = g.get("layout")  # Grid refuses a missing or unknown layout (ValueError)
    try:
        grid = Grid(layout, g["size"]["columns"], g["size"]["rows"],
                    g.get("first", {}).get("column", 1), g.get("first", {}).get("row", 1),
                    g.get("north", "up"))
    except (KeyError, TypeError, ValueError) as exc:
        problems.append(doc.problem(("grid",), f"bad grid: {exc}"))
        return None, []
    if not grid.layout.flat:
        problems.append(doc.problem(("grid", "layout"), "mapfit supports flat-top layouts only"))
    must: list[Hex] = []
    for i, m in enumerate(g.get("must_include") or []):
        try:
            h = parse_hex(m["hex"])
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(doc.problem(("grid", "must_include", i), f"bad hex: {exc}"))
            continue
        if not grid.contains(h):
            problems.append(doc.problem(("grid", "must_include", i),
                                        f"hex {m['hex']} is off the map ({grid.describe()})"))
        must.append(h)
    return grid, must


def _check_point(doc: YamlDoc, path: tuple, item: Any, names: set[str], problems: list[Problem]) -> None:
    if isinstance(item, str):
        if item not in names:
            problems.append(doc.problem(path, f"unknown place {item!r}: not a gazetteer town or waypoint",
                                        value=True))
    elif not (isinstance(item, list) and len(item) == 2 and all(_num(v) for v in item)):
        problems.append(doc.problem(path, "a point is a town/waypoint name or [lat, lon]", value=True))


def _check_geography(doc: YamlDoc, towns: set[str], problems: list[Problem]) -> None:
    d = doc.data if isinstance(doc.data, dict) else {}
    waypoints = d.get("waypoints") or {}
    for name, v in waypoints.items():
        _check_point(doc, ("waypoints", name), v, set(), problems)
        if name in towns:
            problems.append(doc.problem(("waypoints", name), "a waypoint may not repeat a town name"))
    names = towns | set(waypoints)
    for key in FEATURES_ALONG + FEATURES_THROUGH:
        for i, f in enumerate(d.get(key) or []):
            course = f.get("course") if isinstance(f, dict) else None
            if not isinstance(course, list) or len(course) < 2:
                problems.append(doc.problem((key, i), "needs name and a course of 2+ points"))
                continue
            for j, item in enumerate(course):
                _check_point(doc, (key, i, "course", j), item, names, problems)
    for i, r in enumerate(d.get("regions") or []):
        if not isinstance(r, dict) or r.get("terrain") not in ("forest", "swamp"):
            problems.append(doc.problem(("regions", i), "a region needs terrain: forest | swamp"))
            continue
        for j, item in enumerate(r.get("outline") or []):
            _check_point(doc, ("regions", i, "outline", j), item, names, problems)
    for j, item in enumerate((d.get("moscow") or {}).get("points") or []):
        _check_point(doc, ("moscow", "points", j), item, names, problems)
    for i, f in enumerate(d.get("fortifications") or []):
        if f.get("facing") not in FACINGS:
            problems.append(doc.problem(("fortifications", i, "facing"), "facing must be north|east|south|west"))
        for j, item in enumerate(f.get("line") or []):
            _check_point(doc, ("fortifications", i, "line", j), item, names, problems)
    roads = {f.get("name") for k in FEATURES_THROUGH for f in d.get(k) or [] if isinstance(f, dict)}
    for area, spec in (d.get("entry_areas") or {}).items():
        if not isinstance(spec, dict) or spec.get("edge") not in EDGES or spec.get("road") not in roads:
            problems.append(doc.problem(("entry_areas", area),
                                        "an entry area is {edge: north|east|south|west, road: <a road name>, width: N}"))

