"""Build the map (kind ``map``) and the Initiative Chart (kind ``records``) from the map sources.

Steps (all deterministic; the output is byte-identical on every run):

1. fit an affine transform on the printed towns (:mod:`casebook.tools.mapfit`) and check that each
   snaps to its printed hex (18.1.3A) and that the ``must_include`` hexes (3111, 0.2.3.3A) are on
   the map;
2. place every gazetteer town on its hex; Moscow is every hex holding a ``moscow.points`` point
   (each controlled separately, 1.1C);
3. rivers and canals run **along** hexsides: each leg between course points is the cheapest path
   on the graph of hex corners (networkx Dijkstra), an edge costing more the further it is from
   the leg, so the river keeps to its course; towns on a river snap to a corner of their hex;
4. roads, trails and rails run **through** hexsides: the hex line (``Grid.line``) between the hexes
   of consecutive course points; parts off the map are dropped;
5. forest/swamp regions: a hex whose centre lies inside an outline gets that terrain;
6. fortification lines: the hex line through the listed towns; each hexside of a line hex facing
   the given compass side (towards a hex not on the line) gets ``fortification: {protects: hex}``;
7. entry areas: the on-map hex where the named road first enters across the given edge, widened
   along the edge; railheads: towns with a rail hexside (9.9I).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import networkx as nx

from casebook.core.errors import ContentError
from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, hex_label
from casebook.tools.mapfit import Affine, Residual, fit_affine, fit_similarity, hex_at, residuals
from casebook.tools.mapsource import FACINGS, FEATURES_ALONG, FEATURES_THROUGH, Sources
from casebook.tools.sheet import center, side_segment
from casebook.tools.sheet import direction as hex_direction
from casebook.tools.sheet import line as hex_line

__all__ = ["Placement", "MapBuild", "build_map"]

_FLAG = {"rivers": "river", "canals": "canal", "roads": "road", "trails": "trail", "rails": "rail"}
_STEP = 0.25  # densifying step along a course, in hex sizes


@dataclass(frozen=True)
class Placement:
    """Where the fit puts a gazetteer town: ``hex`` (maybe off the map) and ``on_map``."""

    name: str
    kind: str
    ip: int
    hex: Hex
    on_map: bool
    offset: float  # distance from the hex centre, in hexes


@dataclass(frozen=True)
class MapBuild:
    """Everything :func:`build_map` computed: the fit, placements and the two output documents."""

    grid: Grid
    affine: Affine
    residuals: tuple[Residual, ...]
    placements: tuple[Placement, ...]
    moscow: tuple[Hex, ...]
    map_data: dict[str, Any]
    chart_data: dict[str, Any]


def _lab(h: Hex) -> str:
    return hex_label(h)


def build_map(src: Sources) -> MapBuild:
    """Fit, place and build; raise ContentError if a printed hex is not reproduced."""
    grid, geo = src.grid, src.geography.data
    byname = {t.name: t for t in src.towns}
    printed = [(n, byname[n].lat, byname[n].lon, h) for n, h in src.printed.items()]
    fit = fit_similarity if src.fit == "similarity" else fit_affine
    affine = fit(grid, [(lat, lon, h) for _, lat, lon, h in printed])
    res = tuple(residuals(grid, affine, printed))
    wrong = [r for r in res if not r.exact]
    if wrong:
        raise ContentError([src.gazetteer.problem(
            ("printed", r.name), f"the fit puts {r.name} in {r.snapped}, not the printed {r.printed}")
            for r in wrong])

    def sheet(item: Any) -> tuple[float, float]:
        return affine.apply(*src.point(item))

    placements = []
    for t in src.towns:
        x, y = affine.apply(t.lat, t.lon)
        h = hex_at(grid, x, y)
        cx, cy = center(grid, h, 1.0)
        placements.append(Placement(t.name, t.kind, t.ip, h, grid.contains(h),
                                    math.hypot(x - cx, y - cy) / math.sqrt(3)))
    moscow: list[Hex] = []
    for p in (geo.get("moscow") or {}).get("points") or []:
        h = hex_at(grid, *sheet(p))
        if h not in moscow:
            moscow.append(h)

    sides: dict[tuple[Hex, Hex], dict[str, Any]] = {}
    corner_graph = _corner_graph(grid)
    for key in FEATURES_ALONG:
        for f in geo.get(key) or []:
            flag = "major_river" if f.get("major") else _FLAG[key]
            for side in _along(grid, corner_graph, [sheet(p) for p in f["course"]]):
                sides.setdefault(side, {})[flag] = True
    paths: dict[str, list[Hex]] = {}
    for key in FEATURES_THROUGH:
        for f in geo.get(key) or []:
            path = _through(grid, [hex_at(grid, *sheet(p)) for p in f["course"]])
            paths[f["name"]] = path
            for a, b in zip(path, path[1:]):
                if grid.contains(a) and grid.contains(b):
                    sides.setdefault(_pair(a, b), {})[_FLAG[key]] = True
    for feats in sides.values():
        if feats.get("major_river"):
            feats.pop("river", None)
    fort_prov: dict[tuple[Hex, Hex], str] = {}
    for f in geo.get("fortifications") or []:
        line = _through(grid, [hex_at(grid, *sheet(p)) for p in f["line"]])
        on_line = set(line)
        how = f.get("description") or "-".join(str(p) for p in f["line"]) + f", facing {f['facing']}"
        cite = str(f.get("provenance", "")).split(":", 1)[-1].strip()
        for h in line:
            for n in grid.neighbours(h):
                if n not in on_line and hex_direction(grid, h, n) in FACINGS[f["facing"]]:
                    sides.setdefault(_pair(h, n), {})["fortification"] = {"protects": _lab(h)}
                    fort_prov[_pair(h, n)] = f"reconstructed: the {f['name']} ({cite}) along {how}"

    terrain: dict[str, str] = {}
    outlines = [(r["terrain"], [sheet(p) for p in r["outline"]]) for r in geo.get("regions") or []]
    for h in grid.hexes():
        c = center(grid, h, 1.0)
        for name, poly in outlines:
            if _inside(c, poly):
                terrain[_lab(h)] = name

    town_hexes: dict[Hex, dict[str, Any]] = {}
    for p in placements:
        if not p.on_map or p.name == "Moscow":
            continue
        if p.hex in town_hexes:
            raise ContentError([src.gazetteer.problem(("towns",), f"{p.name} and {town_hexes[p.hex]['name']} "
                                                      f"both fall in hex {_lab(p.hex)}")])
        town_hexes[p.hex] = {"name": p.name, "kind": p.kind, "ip": p.ip}
    for h in moscow:
        if h in town_hexes:
            raise ContentError([src.geography.problem(
                ("moscow",), f"Moscow hex {_lab(h)} holds {town_hexes[h]['name']}")])
        town_hexes[h] = {"name": "Moscow", "kind": "city", "ip": byname["Moscow"].ip}
    printed_hexes = set(src.printed.values())
    towns_out: dict[str, Any] = {}
    for h in sorted(town_hexes):
        entry = dict(town_hexes[h])
        if h in printed_hexes:
            entry["provenance"] = ("reconstructed: kind and ip; the fit reproduces the hex printed "
                                   "in 18.1.3A")
        towns_out[_lab(h)] = entry
    railheads = sorted({h for (a, b), f in sides.items() if f.get("rail") for h in (a, b)} & set(town_hexes))

    entry_areas: dict[str, list[str]] = {}
    for area, spec in sorted((geo.get("entry_areas") or {}).items()):
        entry_areas[area] = [_lab(h) for h in _entry_area(grid, paths[spec["road"]], spec, src, area)]

    hexsides = []
    for (a, b) in sorted(sides):
        item: dict[str, Any] = {"hexes": [_lab(a), _lab(b)]}
        item.update(sorted(sides[(a, b)].items()))
        if "fortification" in item:
            item["provenance"] = fort_prov[(a, b)]
        hexsides.append(item)
    map_data = {
        "kind": "map",
        "format": 1,
        "provenance": f"reconstructed: geography, {src.fit} fit on the printed hexes (casebook mapfit)",
        "layout": grid.layout.value,
        "north": grid.north,
        "size": {"columns": grid.columns, "rows": grid.rows},
        "first": {"column": grid.first_col, "row": grid.first_row},
        "terrain": {"default": "clear", **dict(sorted(terrain.items()))},
        "hexsides": hexsides,
        "towns": towns_out,
        "moscow": [_lab(h) for h in moscow],
        "railheads": [_lab(h) for h in railheads],
        "entry_areas": entry_areas,
    }
    chart = _chart(town_hexes)
    return MapBuild(grid, affine, res, tuple(placements), tuple(moscow), map_data, chart)


def _chart(town_hexes: dict[Hex, dict[str, Any]]) -> dict[str, Any]:
    """The Initiative Chart: every placed town whose gazetteer ``ip`` is above 0 (1.1A: only the
    listed towns earn IPs), sorted by name then hex; the values are the gazetteer's data."""
    rows = [{"hex": _lab(h), "town": t["name"], "kind": t["kind"], "ip": t["ip"]}
            for h, t in sorted(town_hexes.items(), key=lambda ht: (ht[1]["name"], ht[0])) if t["ip"] > 0]
    return {
        "kind": "records",
        "format": 1,
        "id": "initiative_chart",
        "title": "Initiative Chart: IPs for controlling cities and towns (1.1A; the chart, not the map, "
                 "is authoritative, 0.2.2.10)",
        "provenance": "reconstructed: the towns of gazetteer.yaml with ip above 0, at their ip (1.1A: only the "
                      "listed towns earn IPs, each its value; rebuilt at the scale of 1.3B's worked example; the "
                      "reasons are the gazetteer's provenance and each town's source; docs/moscow41-pack.md)",
        "key": "hex",
        "fields": {"hex": "hex", "town": "str", "kind": "str", "ip": "int"},
        "rows": rows,
    }


def _pair(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    return (a, b) if a < b else (b, a)


def _corner_graph(grid: Grid) -> nx.Graph:
    """Graph whose nodes are hex corners and whose edges are the hexsides between on-map hexes."""
    g = nx.Graph()
    for h in grid.hexes():
        for n in grid.neighbours(h):
            if h < n:
                p, q = side_segment(grid, grid.hexside(h, n), 1.0)
                u, v = _node(p), _node(q)
                g.add_edge(u, v, side=(h, n), mid=((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))
    return g


def _node(p: tuple[float, float]) -> tuple[int, int]:
    return (round(p[0] * 1000), round(p[1] * 1000))


def _seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _runs(grid: Grid, pts: list[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """Split a course into on-map runs; each run is its anchors: the first and last on-map samples
    (the course densified every ``_STEP``) and the course's own points between them."""
    runs: list[list[tuple[tuple[float, float], bool]]] = []
    cur: list[tuple[tuple[float, float], bool]] = []
    for a, b in zip(pts, pts[1:]):
        n = max(1, math.ceil(math.dist(a, b) / _STEP))
        for i in range(1 if cur else 0, n + 1):
            t = i / n
            p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if grid.contains(hex_at(grid, *p)):
                cur.append((p, i in (0, n)))
            elif cur:
                runs.append(cur)
                cur = []
    if cur:
        runs.append(cur)
    return [[run[0][0]] + [p for p, own in run[1:-1] if own] + [run[-1][0]] for run in runs]


def _along(grid: Grid, g: nx.Graph, pts: list[tuple[float, float]]) -> list[tuple[Hex, Hex]]:
    """Hexsides along a course: corner-graph paths between consecutive anchors of each run."""
    nodes = sorted(g.nodes)
    out: list[tuple[Hex, Hex]] = []
    for anchors in _runs(grid, pts):
        snapped = [min(nodes, key=lambda n: (n[0] / 1000 - p[0]) ** 2 + (n[1] / 1000 - p[1]) ** 2)
                   for p in anchors]
        for (a, sa), (b, sb) in zip(zip(anchors, snapped), zip(anchors[1:], snapped[1:])):
            if sa == sb:
                continue

            def cost(u: Any, v: Any, d: dict, a=a, b=b) -> float:
                return 1.0 + 4.0 * _seg_dist(d["mid"], a, b) ** 2

            path = nx.dijkstra_path(g, sa, sb, weight=cost)
            for u, v in zip(path, path[1:]):
                side = g.edges[u, v]["side"]
                if side not in out:
                    out.append(side)
    return out


def _through(grid: Grid, hexes: list[Hex]) -> list[Hex]:
    """The hex path through consecutive hexes (Grid.line between each pair), without repeats."""
    path: list[Hex] = []
    for a, b in zip(hexes, hexes[1:]):
        for h in hex_line(grid, a, b):
            if not path or path[-1] != h:
                path.append(h)
    return path


def _inside(p: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    """Point in polygon (even-odd ray casting); ``poly`` is closed implicitly."""
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _entry_area(grid: Grid, path: list[Hex], spec: dict, src: Sources, area: str) -> list[Hex]:
    """The hex where ``path`` crosses ``spec['edge']`` (either way), widened along that edge."""
    edge_hexes = grid.edge_hexes(spec["edge"])
    steps = list(zip(path, path[1:])) + list(zip(path[1:], path))
    for prev, h in steps:
        if not grid.contains(prev) and grid.contains(h) and h in edge_hexes:
            i = edge_hexes.index(h)
            w = int(spec.get("width", 1))
            lo = max(0, i - (w - 1) // 2)
            return edge_hexes[lo:lo + w]
    raise ContentError([src.geography.problem(
        ("entry_areas", area), f"road {spec['road']!r} does not enter the map across the {spec['edge']} edge")])

