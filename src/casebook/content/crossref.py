"""Cross-references of a pack's tables and facts to its counters, vocabulary and map (issue #14
item 6: lint catches what a modder breaks), run by :func:`casebook.content.schema_pack.check_cross_file`.

The conventions checked (docs/content-format.md, "Records tables"):

- a records table keyed by ``unit`` (``key: unit``, e.g. ``unit_steps``) has one row for every
  counter of the counter mix and no row for a unit the mix lacks;
- a records field ``side`` names a side of the vocabulary (or ``any`` / ``both``, the words
  tables use for "either side");
- a records field ``hex`` (or of type ``hex``) names a hex on the map;
- the result codes of the CRT (table ``crt``: its ``values:`` and every cell) each have a row of
  the records table ``crt_results`` (keyed by ``result``), and each row is a code of the CRT;
- a rule-script fact (``rules/facts.yaml``) named ``side`` or ``…_side`` of type ``enum`` lists
  sides of the vocabulary, at the top level or as a field of a records fact;
- every terrain id of the map is a value of the ``terrain`` enum of the ``map_hexes`` records
  fact, if ``rules/facts.yaml`` declares one (a line ``when terrain(hex) is hills`` is refused
  for a terrain the enum lacks, while play would still meet it on the map);
- every other enum fact named ``terrain`` or ``…_terrain`` (``defender_terrain``, top level or a
  field of a records fact) lists the values of that ``map_hexes.terrain`` enum, no more and no
  fewer (a terrain added to the map's enum alone could not be named by a combat line:
  docs/modding.md, recipes 32 and 36).

:func:`map_terrain_problems` checks a position's inline ``map:`` the same way when the position
is loaded (and against the rows of the Terrain Effects Chart and its kin, as lint checks the
pack's map: :func:`casebook.content.schema_pack.check_cross_file`).

Each problem is at its ``file:line:column`` with a "did you mean".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from casebook.content.schema import did_you_mean
from casebook.core.errors import ContentError, Problem

__all__ = ["crossref_problems", "map_terrain_problems", "SIDE_WORDS"]

Locate = Callable[[tuple], tuple[str, int, int]]
#: The words a table's ``side`` field may hold besides a side id.
SIDE_WORDS = ("any", "both")
#: The CRT table, the records table of what each of its codes does, and that table's key.
_CRT, _RESULTS, _RESULT_KEY = "crt", "crt_results", "result"


def _p(locate: Locate, kp: tuple, message: str) -> Problem:
    from casebook.content.yamlio import dotted

    f, line, col = locate(kp)
    return Problem(f, line, col, dotted(kp), message)


def _one_of(value: Any, allowed: list[str], what: str) -> str | None:
    if value in allowed:
        return None
    hint = did_you_mean(value, allowed) if isinstance(value, str) else ""
    return f"{value!r} is not {what} ({', '.join(allowed)}){hint}"


def _records(st: Any, pack: Any) -> Iterator[tuple[Path, dict[str, Any]]]:
    """(path, data) of each valid records file of the manifest's ``tables:``."""
    for rel in pack.manifest.get("tables") or []:
        path = pack.dir / rel
        data = st.data.get(path)
        if path in st.valid and isinstance(data, dict) and data.get("kind") == "records":
            yield path, data


def _hex_labels(pack: Any) -> set[str] | None:
    """The labels of every hex on the map; None when the map does not build (reported there)."""
    from casebook.content.mapdata import BoardError, grid_from
    from casebook.core.hexgrid import hex_label

    try:
        return {hex_label(h) for h in grid_from(pack.map).hexes()}
    except (BoardError, ValueError, TypeError, AttributeError):
        return None


def _record_rows(path: Path, data: dict[str, Any], pack: Any, loc: Locate, hexes: set[str] | None) -> list[Problem]:
    out: list[Problem] = []
    fields = data.get("fields") or {}
    sides = list(pack.vocabulary.side_ids)
    counters = list(pack.counters)
    rows = [(i, r) for i, r in enumerate(data.get("rows") or []) if isinstance(r, dict)]
    for i, row in rows:
        if "side" in fields and sides and isinstance(row.get("side"), str):
            side = row["side"]
            if side not in sides and side not in SIDE_WORDS:
                out.append(_p(loc, ("rows", i, "side"), f"{side!r} is not a side of the vocabulary (sides: "
                              f"{', '.join(sides)}; or {' / '.join(SIDE_WORDS)}){did_you_mean(side, [*sides, *SIDE_WORDS])}"))
        for name, spec in fields.items():
            if (name == "hex" or spec in ("hex", "hex?")) and hexes is not None and isinstance(row.get(name), str) \
                    and row[name] not in hexes:
                out.append(_p(loc, ("rows", i, name), f"hex {row[name]!r} is not on the map"))
    if data.get("key") == "unit" and counters:
        have = {r.get("unit") for _, r in rows}
        for i, row in rows:
            if isinstance(row.get("unit"), str) and row["unit"] not in pack.counters:
                out.append(_p(loc, ("rows", i, "unit"), f"no counter {row['unit']!r} in the counter mix"
                              f"{did_you_mean(row['unit'], counters)}"))
        missing = [c for c in counters if c not in have]
        if missing:
            out.append(_p(loc, ("rows",), f"no row for counter(s) {', '.join(missing)} (table {data.get('id')!r} "
                          "is keyed by unit: every counter of the counter mix needs a row)"))
    return out


def _crt_codes(st: Any, pack: Any) -> list[str]:
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict) and set(node) <= {"value", "provenance"} and "value" in node:
            node = node["value"]
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, str) and node not in out:
            out.append(node)

    table = pack.tables.get(_CRT)
    if table is None:
        return out
    for rel in pack.manifest.get("tables") or []:
        data = st.data.get(pack.dir / rel)
        if isinstance(data, dict) and data.get("id") == _CRT and data.get("kind") == "table":
            for v in data.get("values") or []:
                if isinstance(v, str) and v not in out:
                    out.append(v)
    if not out:  # declared values: a cell outside them is the table's own problem
        walk(table.cells)
    return out


def _crt_results(st: Any, pack: Any, located: Callable[[Path], Locate]) -> list[Problem]:
    found = [(p, d) for p, d in _records(st, pack) if d.get("id") == _RESULTS and d.get("key") == _RESULT_KEY]
    codes = _crt_codes(st, pack)
    if not found or not codes:
        return []
    path, data = found[0]
    loc = located(path)
    rows = [(i, r) for i, r in enumerate(data.get("rows") or []) if isinstance(r, dict)]
    have = [r.get(_RESULT_KEY) for _, r in rows]
    out: list[Problem] = []
    missing = [c for c in codes if c not in have]
    for i, row in rows:
        code = row.get(_RESULT_KEY)
        if code not in codes:  # a renamed row: the one code left without a row is the likely meaning
            hint = did_you_mean(code, codes) or (f" (did you mean {missing[0]!r}?)" if len(missing) == 1 else "")
            out.append(_p(loc, ("rows", i, _RESULT_KEY), f"{code!r} is not a result code of table {_CRT!r} "
                          f"({', '.join(codes)}){hint}"))
    if missing:
        out.append(_p(loc, ("rows",), f"no row for the {_CRT} result code(s) {', '.join(missing)} (every code of "
                      f"table {_CRT!r} needs a row; rolling one would stop the game)"))
    return out


def _facts_doc(pack: Any) -> Any:
    """The pack's ``rules/facts.yaml`` read (a YAML document with ``facts:``), or None."""
    from casebook.content.confine import inside
    from casebook.content.loader import display_path
    from casebook.content.yamlio import read_yaml

    path = pack.rules_dir / "facts.yaml"
    if not path.is_file() or not inside(pack.rules_dir, path):
        return None
    doc, probs = read_yaml(path, file=display_path(path))
    if doc is None or probs or not isinstance(doc.data, dict) or not isinstance(doc.data.get("facts"), dict):
        return None  # the rule-script loader reports it
    return doc


def _map_fact_terrain(st: Any, pack: Any, doc: Any, located: Callable[[Path], Locate]) -> list[Problem]:
    """Every terrain id of the map against the ``terrain`` enum of the ``map_hexes`` fact."""
    map_path = pack.dir / str(pack.manifest.get("map", "map.yaml"))
    board = st.data.get(map_path)
    terrain = board.get("terrain") if isinstance(board, dict) else None
    enum = _doc_terrain_enum(doc)
    if not isinstance(terrain, dict) or map_path not in st.docs or enum is None:
        return []  # no map read (missing or broken: the loader reports it), or no enum declared
    return _enum_terrain(enum, terrain, located(map_path), ("terrain",))


def _doc_terrain_enum(doc: Any) -> tuple[list[str], str] | None:
    """The values of the ``terrain`` enum of the ``map_hexes`` fact of facts.yaml ``doc`` and
    where they are written (``file:line:column``); None if it declares no such enum."""
    decl = doc.data["facts"].get("map_hexes")
    field = ((decl.get("fields") or {}) if isinstance(decl, dict) else {}).get("terrain")
    if not isinstance(field, dict) or field.get("type") != "enum":
        return None
    line, col = doc.where(("facts", "map_hexes", "fields", "terrain", "values"))
    return [str(v) for v in field.get("values") or []], f"{doc.file}:{line}:{col}"


def _schema_terrain_enum(pack: Any) -> tuple[list[str], str] | None:
    """As :func:`_doc_terrain_enum`, from the pack's compiled facts declaration
    (:func:`casebook.script.pack.pack_facts`: read once per pack, not per position); None if
    the pack declares no such enum or its declaration does not load (the rule scripts' loader
    reports that)."""
    from casebook.content.loader import display_path
    from casebook.script.pack import pack_facts

    try:
        schema = pack_facts(pack)
    except ContentError:
        return None
    decl = schema.facts.get("map_hexes") if schema is not None else None
    field = decl.fields.get("terrain") if decl is not None else None
    if field is None or field.kind != "enum":
        return None
    line, col = field.values_at
    return list(field.values), f"{display_path(pack.rules_dir / 'facts.yaml')}:{line}:{col}"


def _enum_terrain(enum: tuple[list[str], str], terrain: Mapping[str, Any], locate: Locate,
                  base: tuple) -> list[Problem]:
    """The terrain ids of a map's ``terrain:`` mapping (key path ``base``) that the ``terrain``
    enum of the ``map_hexes`` fact (its values and where they are written) lacks."""
    allowed, at = enum
    out: list[Problem] = []
    for label, tid in terrain.items():
        if label != "provenance" and isinstance(tid, str) and tid not in allowed:
            out.append(_p(locate, (*base, label),
                          f"terrain {tid!r} is not a value of the fact map_hexes.terrain "
                          f"({', '.join(allowed)}) at {at}: add it there"))
    return out


def map_terrain_problems(pack: Any, terrain: Any, locate: Locate, base: tuple = ("map", "terrain")) -> list[Problem]:
    """The problems of a position's inline map ``terrain:`` mapping (``default`` and label ->
    terrain id, at key path ``base``) against ``pack``: a terrain id that is not a row of each of
    the pack's tables indexed by ``terrain`` (the Terrain Effects Chart: play would fail on it,
    unlocated) or not a value of the ``map_hexes.terrain`` enum of its facts.yaml (rule lines
    could not name it; the enum is the pack's compiled declaration, no file is read for it).
    Empty for a map without terrain ids."""
    if not isinstance(terrain, dict):
        return []
    out: list[Problem] = []
    for table in sorted(pack.tables.values(), key=lambda t: t.id):
        known = sorted(str(v) for name, values in table.dims if name == "terrain" for v in values)
        if not known:
            continue
        for label, tid in terrain.items():
            if label != "provenance" and isinstance(tid, str) and tid not in known:
                out.append(_p(locate, (*base, label), f"terrain {tid!r} is not a row of table {table.id!r} "
                              f"({', '.join(known)}){did_you_mean(tid, known)}"))
    enum = _schema_terrain_enum(pack)
    return out + (_enum_terrain(enum, terrain, locate, base) if enum is not None else [])


def _enum_decls(doc: Any, suffix: str) -> Iterator[tuple[tuple, list[Any]]]:
    """(key path, values) of every enum declaration of facts.yaml ``doc`` named ``suffix`` or
    ``…_<suffix>``, at the top level or as a field of a records fact."""
    def walk(decls: Mapping[str, Any], base: tuple) -> Iterator[tuple[tuple, list[Any]]]:
        for name, decl in decls.items():
            if not isinstance(decl, dict):
                continue
            if (name == suffix or str(name).endswith(f"_{suffix}")) and decl.get("type") == "enum":
                values = decl.get("values")
                yield (*base, name), values if isinstance(values, list) else []
            if isinstance(decl.get("fields"), dict):
                yield from walk(decl["fields"], (*base, name, "fields"))
    return walk(doc.data["facts"], ("facts",))


def _doc_locate(doc: Any) -> Locate:
    def locate(kp: tuple) -> tuple[str, int, int]:
        line, col = doc.where(kp)
        return doc.file, line, col
    return locate


def _terrain_enums(doc: Any) -> list[Problem]:
    """The enum facts named ``terrain`` or ``…_terrain`` of facts.yaml ``doc`` (top level or a
    records field) against the ``terrain`` enum of ``map_hexes``: a value it lacks (at the
    value, with a did-you-mean), a value of it left out (at the enum's ``values:``)."""
    enum = _doc_terrain_enum(doc)
    if enum is None:
        return []
    allowed, at = enum
    locate = _doc_locate(doc)
    out: list[Problem] = []
    for kp, raw in _enum_decls(doc, "terrain"):
        if kp == ("facts", "map_hexes", "fields", "terrain"):
            continue  # the map's own enum
        values = [str(v) for v in raw]
        for j, value in enumerate(values):
            if value not in allowed:
                out.append(_p(locate, (*kp, "values", j), f"{value!r} is not a terrain of the fact "
                              f"map_hexes.terrain ({', '.join(allowed)}) at {at}{did_you_mean(value, allowed)}"))
        missing = [v for v in allowed if v not in values]
        if missing:
            out.append(_p(locate, (*kp, "values"), f"lacks {', '.join(map(repr, missing))} of the fact "
                          f"map_hexes.terrain ({', '.join(allowed)}) at {at}: an enum of a terrain "
                          "lists every terrain of the map (add it here too)"))
    return out


def _fact_sides(pack: Any, doc: Any) -> list[Problem]:
    """The side enums of the pack's ``rules/facts.yaml`` against the vocabulary."""
    sides = list(pack.vocabulary.side_ids)
    if not sides:
        return []
    locate = _doc_locate(doc)
    out: list[Problem] = []
    for kp, values in _enum_decls(doc, "side"):
        for j, value in enumerate(values):
            msg = _one_of(value, sides, "a side of the vocabulary")
            if msg:
                out.append(_p(locate, (*kp, "values", j), msg))
    return out


def crossref_problems(st: Any, pack: Any, located: Callable[[Path], Locate]) -> list[Problem]:
    """Every cross-reference problem of the pack (module docstring); ``located(path)`` is the
    locator of a pack file."""
    hexes = _hex_labels(pack)
    out: list[Problem] = []
    for path, data in _records(st, pack):
        out += _record_rows(path, data, pack, located(path), hexes)
    out += _crt_results(st, pack, located)
    doc = _facts_doc(pack)
    if doc is not None:
        out += _fact_sides(pack, doc) + _terrain_enums(doc) + _map_fact_terrain(st, pack, doc, located)
    return out
