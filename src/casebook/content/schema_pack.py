"""Cross-file checks of a content pack (docs/content-format.md), run by
:func:`casebook.content.loader.load_pack` after every file passed its own schema.

Checks: case ids cited (``provenance:``, ``case:``, ``cases:``) exist in the case index; every
value has a provenance; the map builds into a board (hexes on the map, hexsides adjacent);
counter, table / records, phase, step and interpretation ids unique; sequence loops name steps
of their phase; plugins registered; rule files present; every scenario position valid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from casebook.content.provenance import count_provenance
from casebook.content.schema import did_you_mean
from casebook.content.schema_base import cited_cases
from casebook.content.yamlio import dotted
from casebook.core.errors import Problem

__all__ = ["located", "check_cross_file", "undot"]

Locate = Callable[[tuple], tuple[str, int, int]]


def located(st: Any, path: Path) -> Locate:
    """Locator for a pack file: key paths inside a patched value point at the errata patch."""
    doc = st.docs[path]
    sites = st.patch_sites.get(path, {})

    def locate(kp: tuple) -> tuple[str, int, int]:
        for n in range(len(kp), -1, -1):
            if kp[:n] in sites:
                return sites[kp[:n]]
        line, col = doc.where(kp)
        return doc.file, line, col

    return locate


def undot(data: Any, key: str) -> tuple:
    """A dotted key path (``hexsides.3.hexes``) back to a tuple, following ``data``."""
    out: list[Any] = []
    node = data
    for part in key.split(".") if key else []:
        if isinstance(node, list) and part.lstrip("-").isdigit():
            k: Any = int(part)
            node = node[k] if -len(node) <= k < len(node) else None
        elif isinstance(node, dict):
            k = part if part in node else next((x for x in node if str(x) == part), part)
            node = node.get(k)
        else:
            k = part
        out.append(k)
    return tuple(out)


def _p(locate: Locate, kp: tuple, message: str) -> Problem:
    f, line, col = locate(kp)
    return Problem(f, line, col, dotted(kp), message)


def _case_refs(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """(key path, case id) of every case cited below ``node``."""
    if isinstance(node, dict):
        for k, v in node.items():
            kp = path + (k,)
            if k == "provenance" and isinstance(v, str):
                for c in cited_cases(v):
                    yield kp, c
            elif k == "case" and isinstance(v, str):
                yield kp, v
            elif k == "cases" and isinstance(v, list):
                for i, c in enumerate(v):
                    if isinstance(c, str):
                        yield kp + (i,), c
            else:
                yield from _case_refs(v, kp)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _case_refs(v, path + (i,))


def _unique(items: Any, key: str, what: str, locate: Locate, base: tuple) -> list[Problem]:
    seen: set[Any] = set()
    out = []
    for i, item in enumerate(items or []):
        if isinstance(item, dict) and isinstance(item.get(key), (str, int)):
            if item[key] in seen:
                out.append(_p(locate, base + (i, key), f"duplicate {what} {item[key]!r}"))
            seen.add(item[key])
    return out


def _sequence(data: Any, locate: Locate) -> list[Problem]:
    out = _unique(data.get("phases"), "id", "phase id", locate, ("phases",))
    for i, ph in enumerate(data.get("phases") or []):
        if not isinstance(ph, dict):
            continue
        out += _unique(ph.get("steps"), "id", "step id", locate, ("phases", i, "steps"))
        steps = {s.get("id") for s in ph.get("steps") or [] if isinstance(s, dict)}
        for j, loop in enumerate(ph.get("loops") or []):
            for end in ("from", "to"):
                if isinstance(loop, dict) and loop.get(end) not in steps:
                    out.append(_p(locate, ("phases", i, "loops", j, end),
                                  f"{loop.get(end)!r} is not a step of phase {ph.get('id')!r}"))
    return out


def _collect(found: list[tuple[tuple, str]]) -> Any:
    """A ``report(key_path, message)`` that appends to ``found``."""
    return lambda kp, msg: found.append((kp, msg))


def _vocabulary(manifest: Any, counters: Any, loc: Any) -> list[Problem]:
    """The counter mix's sides, classes and sizes against the manifest's vocabulary (checked also
    when the schema refused the file, so that every problem of it is listed at once)."""
    from casebook.content.vocabulary import vocabulary_of, vocabulary_problems

    out: list[Problem] = []
    named = ("side", "class", "size")  # a value that is no string is the schema's problem, said once
    units = [(("units", i), {k: v for k, v in u.items() if k not in named or isinstance(v, str)})
             for i, u in enumerate(counters.get("units") or []) if isinstance(u, dict)]
    from casebook.content.schema_content import CounterUnit

    fields = {f.alias or name for name, f in CounterUnit.model_fields.items()}
    vocabulary_problems(vocabulary_of(manifest), units, lambda kp, msg: out.append(_p(loc, kp, msg)),
                        unit_fields=fields)
    return out


def _map_terrain(st: Any, pack: Any) -> list[Problem]:
    """Every terrain id of the map is a row of each table indexed by ``terrain`` (the Terrain
    Effects Chart and its kin): a terrain the TEC does not know would cost no MP or fail in play."""
    rows: dict[str, tuple[set[Any], Path]] = {}
    for rel in pack.manifest.get("tables") or []:
        data = st.data.get(pack.dir / rel)
        for dim in (data.get("dims") or []) if isinstance(data, dict) else []:
            if isinstance(dim, dict) and dim.get("name") == "terrain" and isinstance(dim.get("values"), list):
                rows[str(data.get("id"))] = (set(dim["values"]), pack.dir / rel)
    map_path = pack.dir / str(pack.manifest.get("map", "map.yaml"))
    terrain = (st.data.get(map_path) or {}).get("terrain") if isinstance(st.data.get(map_path), dict) else None
    if not rows or not isinstance(terrain, dict):
        return []
    loc, out = located(st, map_path), []
    for label, tid in terrain.items():
        if label == "provenance":
            continue
        for table, (known, _) in sorted(rows.items()):
            if tid not in known:
                hint = did_you_mean(tid, sorted(map(str, known))) if isinstance(tid, str) else ""
                out.append(_p(loc, ("terrain", label), f"terrain {tid!r} is not a row of table {table!r} "
                              f"({', '.join(sorted(map(str, known)))}){hint}"))
    return out


def _map_styles(st: Any, pack: Any) -> list[Problem]:
    """Every key of the vocabulary's ``styles:`` is a terrain id (of the map or a ``terrain`` row
    of a table) or one of its ``hex_sets``: a misspelt one would silently draw nothing."""
    manifest = st.data.get(pack.dir / "game.yaml")
    vocab = manifest.get("vocabulary") if isinstance(manifest, dict) else None
    if not isinstance(vocab, dict) or not isinstance(vocab.get("styles"), dict):
        return []
    styles = vocab["styles"]
    known = {str(x) for x in vocab.get("hex_sets") or []}
    for rel in pack.manifest.get("tables") or []:
        data = st.data.get(pack.dir / rel)
        for dim in (data.get("dims") or []) if isinstance(data, dict) else []:
            if isinstance(dim, dict) and dim.get("name") == "terrain" and isinstance(dim.get("values"), list):
                known |= {str(x) for x in dim["values"]}
    board = st.data.get(pack.dir / str(pack.manifest.get("map", "map.yaml")))
    terrain = board.get("terrain") if isinstance(board, dict) else None
    if isinstance(terrain, dict):
        known |= {str(t) for k, t in terrain.items() if k != "provenance"}
    loc = located(st, pack.dir / "game.yaml")
    return [_p(loc, ("vocabulary", "styles", key), f"{key!r} is neither a terrain of the map nor a hex set "
               f"({', '.join(sorted(known))}){did_you_mean(str(key), sorted(known))}")
            for key in styles if str(key) not in known]


def check_cross_file(st: Any, pack: Any, named: list[tuple[Path, str | None, tuple]]) -> list[Problem]:
    """Every cross-file problem of a pack (see module docstring). ``st`` is the loader's working
    state (docs, patched data, validity), ``pack`` the assembled :class:`Pack`."""
    from casebook.content.loader import plugin_registered
    from casebook.content.mapdata import BoardError, board_from_map

    out: list[Problem] = []
    index = set(pack.cases)
    gpath = pack.dir / "game.yaml"
    gloc = located(st, gpath)
    paths = [gpath] + [n[0] for n in named if n[0] in st.data]
    for path in paths:
        data, loc = st.data[path], located(st, path)
        kind = st.kinds.get(path)
        if index and kind != "cases":
            for kp, case in _case_refs(data):
                if case not in index:
                    out.append(_p(loc, kp, f"case {case} is not in the case index"))
        counts = count_provenance(data, st.overrides.get(path))
        if counts.untagged:
            out.append(_p(loc, counts.first_untagged or (),
                          f"untagged value: {counts.untagged} value(s) of this file have no provenance; "
                          "add `provenance:` at the top of the file or on their mapping"))
        if kind == "counters" and isinstance(data, dict):  # with the schema's problems, if any: all at once
            out += _unique(data.get("units"), "id", "counter id", loc, ("units",))
            out += _vocabulary(pack.manifest, data, loc)
        if path not in st.valid:
            continue
        if kind == "sequence":
            out += _sequence(data, loc)
        elif kind == "interpretations":
            out += _unique(data.get("interpretations"), "id", "interpretation id", loc, ("interpretations",))
        elif kind == "map":
            from casebook.content.vocabulary import map_key_problems, vocabulary_of

            found: list[tuple[tuple, str]] = []
            map_key_problems(vocabulary_of(pack.manifest), data, _collect(found))
            out += [_p(loc, kp, msg) for kp, msg in found]
            try:
                board_from_map(data)
            except BoardError as exc:
                out += [_p(loc, undot(data, k), m) for k, m in exc.problems]
    seen_ids: dict[str, Path] = {}
    for rel in (pack.manifest.get("tables") or []):
        data = st.data.get(pack.dir / rel)
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            if data["id"] in seen_ids:
                out.append(_p(located(st, pack.dir / rel), ("id",),
                              f"duplicate table id {data['id']!r} (also in {seen_ids[data['id']].name})"))
            seen_ids.setdefault(data["id"], pack.dir / rel)
    out += _map_terrain(st, pack)
    out += _map_styles(st, pack)
    from casebook.content.crossref import crossref_problems

    out += crossref_problems(st, pack, lambda path: located(st, path))
    for i, name in enumerate(pack.manifest.get("plugins") or []):
        if not plugin_registered(name):
            import importlib.metadata

            known = sorted({ep.name for ep in importlib.metadata.entry_points(group="casebook.plugins")})
            out.append(_p(gloc, ("plugins", i), f"plugin {name!r} is not registered (no entry point {name!r} in "
                          f"group casebook.plugins){did_you_mean(name, known)}"))
    from casebook.content.confine import inside

    for i, rule in enumerate(pack.rule_files):  # one leaving its folder is refused once (rules_dir_problems)
        if not rule.is_file() and inside(pack.rules_dir, rule):
            out.append(_p(gloc, ("rules", i), f"rule file not found: {rule}"))
    from casebook.content.position import check_scenario

    needed = [pack.dir / pack.manifest[k] for k in ("map", "counters", "sequence")]
    if not all(p in st.data for p in needed):
        return out  # scenarios are checked once the map, counter mix and sequence are readable
    for spath in pack.scenarios.values():
        if spath in st.docs:
            out += check_scenario(st.docs[spath], st.data[spath], pack, located(st, spath))
    return out
