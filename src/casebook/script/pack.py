"""Find a game's rule scripts, facts declaration and case index, and compile them.

This reads the two small pack files it needs (``game.yaml``: ``rules_dir``, ``rules``, ``cases``,
``tables``; ``cases.yaml``: the case ids) directly with ruamel.yaml (safe), so it does not depend on
the content loader; :func:`read_manifest` is the one function to swap for ``load_pack`` later.
Without a ``game.yaml`` the defaults apply: ``rules_dir`` ``rules`` (inside the pack), every ``*.rules``
file there in name order, ``cases.yaml`` beside the manifest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from casebook.content.confine import confined_path, inside
from casebook.content.loader import display_path, installed_games, is_bare, resolve_rules_dir, rules_dir_problems
from casebook.content.yamlio import load_yaml, read_yaml
from casebook.core.errors import ContentError, Problem, ScriptSyntaxError, shown_path

from .compiler import compile_files
from .facts import load_facts
from .ruleset import RuleSet
from .tablerows import table_shape

__all__ = ["RulePack", "read_manifest", "find_rule_pack", "compile_pack", "compile_loaded_pack", "world_of",
           "sequence_world", "with_sequence_facts", "pack_facts"]

#: id(pack) -> (the loaded pack, its facts declaration or None): :func:`pack_facts`, read once per pack
_FACTS: dict[int, tuple[Any, Any]] = {}
_FACTS_KEPT = 16


@dataclass(frozen=True)
class RulePack:
    """Where one game's rules live: ``game`` id, ``pack_dir`` (content), ``rules_dir``, the script
    ``files`` in manifest order, ``facts`` (the declaration file), ``cases`` (ids of the case
    index, or ``None`` if the pack has none) and ``tables`` (table ids named by the manifest, or
    ``None`` if it names none)."""

    game: str
    pack_dir: Path
    rules_dir: Path
    files: tuple[Path, ...]
    facts: Path
    cases: frozenset[str] | None = field(repr=False)
    tables: frozenset[str] | None = field(repr=False)
    #: table id -> its shape (:func:`casebook.script.tablerows.table_shape`), for checking
    #: ``table <id>[…].<column>`` terms
    table_shapes: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: what trigger events and effects name (:mod:`casebook.script.triggers`): ``sides`` and
    #: ``tracks`` (name -> its keys) of the manifest's vocabulary, ``phases`` and ``steps`` (ids
    #: of the sequence file, in order); a key is absent when the pack does not say
    world: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: problems of table files that would not read (their ids taken from the raw text): reported
    #: with the scripts' own by :func:`compile_pack`, so a broken table hides no script error
    load_problems: tuple[Problem, ...] = field(default=(), repr=False)


def _load(path: Path) -> Any:
    """The data of one YAML file under the one YAML policy (:mod:`casebook.content.yamlio`: no
    tags, anchors or duplicate keys, bounded depth and size); ContentError listing every problem."""
    return load_yaml(path).data


def read_manifest(pack_dir: Path) -> dict[str, Any]:
    """The keys of ``game.yaml`` this module needs (``{}`` when the pack has no manifest yet)."""
    manifest = pack_dir / "game.yaml"
    if not manifest.is_file():
        return {}
    data = _load(manifest)
    if not isinstance(data, dict):
        raise ContentError([Problem(str(manifest), 1, 1, "", "expected a mapping (kind: game)")])
    return {k: data[k] for k in ("id", "rules_dir", "rules", "cases", "tables", "vocabulary", "sequence", "map",
                                 "scenarios")
            if k in data}


def _pack_dir(game_or_dir: str | Path) -> Path:
    p = Path(game_or_dir)
    games = installed_games()
    if p.is_dir() and not (is_bare(game_or_dir) and str(game_or_dir) in games):  # a bare id: the installed game
        if (p / "game.yaml").is_file() or (p / "cases.yaml").is_file():
            return p
        if (p / "facts.yaml").is_file() or any(p.glob("*.rules")):
            return p.resolve().parent  # a game's rules/ folder: the pack is the folder holding it
        raise ContentError([Problem(str(p), 0, 0, "", "not a content pack (no game.yaml or cases.yaml) "
                                    "nor a rules directory (no facts.yaml or *.rules)")])
    if str(game_or_dir) in games:
        return games[str(game_or_dir)]
    raise ContentError([Problem(str(game_or_dir), 0, 0, "", "no such game or directory (games: "
                                + ", ".join(games) + ")")])


def find_rule_pack(game_or_dir: str | Path) -> RulePack:
    """Locate a game's scripts from a game id (``moscow41``), a pack dir or a rules dir.

    Raises :class:`ContentError` listing every missing file.
    """
    given = Path(game_or_dir)
    pack = _pack_dir(game_or_dir)
    man = read_manifest(pack) if pack.is_dir() else {}
    game = str(man.get("id") or pack.name)
    if given.is_dir() and not (given / "game.yaml").is_file() and not (given / "cases.yaml").is_file():
        rules_dir = given
    else:
        rules_dir = resolve_rules_dir(pack, {"id": game, **man})
    problems: list[Problem] = []
    doc = read_yaml(pack / "game.yaml", file=display_path(pack / "game.yaml"))[0] if man else None
    problems += rules_dir_problems(pack, {"id": game, **man}, doc) if man else []  # located (game.yaml:L:C)
    if "rules" in man:
        rules = man["rules"] if isinstance(man["rules"], list) else []
        files = tuple(p for p in (confined_path(rules_dir, f)[0] for f in rules) if p is not None)
    else:
        files = tuple(f for f in sorted(rules_dir.glob("*.rules")) if confined_path(rules_dir, f.name)[0])
    for f in files:
        if not f.is_file():
            problems.append(Problem(str(pack / "game.yaml"), 0, 0, "rules", f"rule script not found: {f}"))
    facts = rules_dir / "facts.yaml"
    if facts.exists() and not inside(rules_dir, facts):
        problems.append(Problem(str(facts), 0, 0, "", "facts.yaml leads outside the rules folder (a symlink)"))
    elif files and not facts.is_file():
        problems.append(Problem(str(facts), 0, 0, "", "the facts declaration is missing"))
    cases = None
    cases_file, why = confined_path(pack, man.get("cases", "cases.yaml"))
    if why is not None:
        problems.append(Problem(str(pack / "game.yaml"), 0, 0, "cases", why))
    if cases_file is not None and cases_file.is_file():
        data = _load(cases_file)
        entries = data.get("cases") if isinstance(data, dict) else None
        cases = frozenset(str(c["id"]) for c in (entries if isinstance(entries, list) else [])
                          if isinstance(c, dict) and "id" in c)
    tables = None
    shapes: dict[str, Any] = {}
    broken: list[Problem] = []
    if man.get("tables"):
        ids = set()
        for i, t in enumerate(man["tables"] if isinstance(man["tables"], list) else []):
            tf, why = confined_path(pack, t)
            if tf is None:
                problems.append(doc.problem(("tables", i), why or "refused path", value=True) if doc is not None
                                else Problem(str(pack / "game.yaml"), 0, 0, f"tables.{i}", why or "refused path"))
            elif tf.is_file():
                try:
                    data = _load(tf)
                except ContentError as exc:  # the scripts are still checked; its id from the raw text
                    broken += exc.problems
                    found = re.search(r"^id:\s*['\"]?([\w-]+)", tf.read_text(encoding="utf-8", errors="replace"), re.M)
                    data = {"id": found.group(1)} if found else None
                if isinstance(data, dict) and "id" in data:
                    ids.add(str(data["id"]))
                    shape = table_shape(data)
                    if shape is not None:
                        shapes[str(data["id"])] = shape
        tables = frozenset(ids)
    world = _world(pack, man, problems)
    if problems:
        raise ContentError(problems)
    return RulePack(game, pack, rules_dir, files, facts, cases, tables, shapes, world, tuple(broken))


def _world(pack: Path, man: Mapping[str, Any], problems: list[Problem]) -> dict[str, Any]:
    """:func:`world_of` the manifest and its sequence file (read here, confined to the pack)."""
    seq_data = None
    if isinstance(man.get("sequence"), str):
        seq, why = confined_path(pack, man["sequence"])
        if why is not None:
            problems.append(Problem(str(pack / "game.yaml"), 0, 0, "sequence", why))
        elif seq is not None and seq.is_file():
            seq_data = _load(seq)
    world = world_of(man, seq_data)
    mp, why = confined_path(pack, man["map"]) if isinstance(man.get("map"), str) else (None, None)
    if mp is not None and why is None and mp.is_file():
        world["domains"] = {**world.get("domains", {}), "town_name": _town_names(_load(mp))}
    return world


def _town_names(map_data: Any) -> tuple[str, ...]:
    """The names of the map's towns, and ``""`` (``town_name`` of a hex without a town)."""
    towns = map_data.get("towns") if isinstance(map_data, Mapping) else None
    return ("", *sorted({str(t["name"]) for t in (towns.values() if isinstance(towns, Mapping) else ())
                         if isinstance(t, Mapping) and "name" in t}))


def sequence_world(pack_dir: Path) -> dict[str, Any]:
    """:func:`world_of` the pack folder ``pack_dir`` (its ``game.yaml`` and sequence file);
    ``{}`` when it has no manifest or a broken one (the content loader reports that)."""
    try:
        man = read_manifest(pack_dir)
        return _world(pack_dir, man, []) if man else {}
    except ContentError:
        return {}


def world_of(manifest: Mapping[str, Any], sequence: Any) -> dict[str, Any]:
    """What trigger events and effects may name: ``sides`` and ``tracks`` (name -> its keys) of
    the manifest's vocabulary, ``phases`` and ``steps`` (ids, in order) of the sequence data; a
    malformed or missing part is left out (the content loader reports it)."""
    world: dict[str, Any] = {}
    if isinstance(manifest.get("scenarios"), Mapping):  # ``""``: a position of no scenario
        world["domains"] = {"scenario_id": ("", *map(str, manifest["scenarios"]))}
    vocab = manifest.get("vocabulary")
    if isinstance(vocab, Mapping):
        if isinstance(vocab.get("sides"), Mapping):
            world["sides"] = tuple(str(k) for k in vocab["sides"])
        tracks = vocab.get("tracks") or {}
        if isinstance(tracks, Mapping):
            world["tracks"] = {str(n): tuple(k if isinstance(k, str) else tuple(map(str, k))
                                             for k in ((spec or {}).get("keys") or ()))
                               for n, spec in tracks.items() if spec is None or isinstance(spec, Mapping)}
    phases = sequence.get("phases") if isinstance(sequence, Mapping) else None
    if isinstance(phases, list):
        ph = [p for p in phases if isinstance(p, Mapping) and "id" in p]
        world["phases"] = tuple(dict.fromkeys(str(p["id"]) for p in ph))
        world["steps"] = tuple(dict.fromkeys(str(st["id"]) for p in ph for st in p.get("steps") or []
                                             if isinstance(st, Mapping) and "id" in st))
    return world


def with_sequence_facts(schema: Any, world: Mapping[str, Any]) -> Any:
    """``schema`` with each fact declared ``provider: sequence`` (``phase``, ``step``: what
    ``when step ends where phase is … and step is …`` reads) made an enum of the ids of the
    pack's sequence file (0.7 in Moscow '41), so a condition naming a step the sequence does not
    have is refused by ``rules check`` (with a "did you mean")."""
    from dataclasses import replace

    key = {"phase": "phases", "step": "steps"}
    extra = {name: replace(t, kind="enum", values=tuple(world[key[name]]))
             for name, t in schema.facts.items()
             if t.provider == "sequence" and name in key and world.get(key[name])}
    return replace(schema, facts={**schema.facts, **extra}) if extra else schema


def compile_pack(pack: RulePack, relative_to: str | Path | None = None) -> RuleSet:
    """Compile every script of ``pack`` against its facts, case index and tables.

    Raises :class:`ContentError` (bad ``facts.yaml``; a table that would not read, with every
    script problem after it) or :class:`ScriptSyntaxError` (all script problems at once).
    """
    if pack.load_problems:
        try:
            compile_pack(replace(pack, load_problems=()), relative_to)
        except (ContentError, ScriptSyntaxError) as exc:
            raise ContentError([*pack.load_problems, *exc.problems]) from None
        raise ContentError(list(pack.load_problems))
    shown = None
    if relative_to is not None:
        try:
            shown = str(pack.facts.resolve().relative_to(Path(relative_to).resolve()))
        except ValueError:
            shown = None
    if not pack.files:  # a game with no rule scripts at all
        from .compiler import compile_scripts
        from .facts import FactSchema

        return compile_scripts([], FactSchema({}, {}))
    schema = with_sequence_facts(load_facts(pack.facts, shown), pack.world)
    tables: Any = pack.tables
    if tables is not None:  # ids with their shapes: table terms are checked against them
        tables = {t: pack.table_shapes.get(t) for t in tables}
    return compile_files(pack.files, schema, pack.cases, tables, relative_to=relative_to,
                         world=pack.world or None)


def pack_facts(pack: Any) -> Any:
    """The facts declaration (a :class:`~casebook.script.facts.FactSchema`) of a loaded pack's
    ``rules/facts.yaml``, or None when it has none: read once per pack object (through the
    compiled-pack cache), by its compile or by the first position loaded on it, and kept — a
    later load reads no file for it. Raises :class:`ContentError` for a bad declaration."""
    hit = _FACTS.get(id(pack))
    if hit is not None and hit[0] is pack:
        return hit[1]
    from casebook.content.packcache import cached_file_value

    path = pack.rules_dir / "facts.yaml"
    schema = cached_file_value("facts", path, lambda: load_facts(path)) if path.is_file() else None
    _FACTS[id(pack)] = (pack, schema)
    while len(_FACTS) > _FACTS_KEPT:
        _FACTS.pop(next(iter(_FACTS)))
    return schema


def compile_loaded_pack(pack: Any) -> Any:
    """The compiled rule scripts (a :class:`casebook.script.RuleSet`) of a loaded pack (a
    :class:`casebook.content.pack.Pack`): the script files, case ids and table ids are
    the pack's own (no second reading of its YAML), the facts declaration comes through the
    compiled-pack cache (:mod:`casebook.content.packcache`). A pack whose manifest lists no
    scripts, or names a script that is missing, goes through ``find_rule_pack`` (its messages)."""
    files = pack.rule_files if "rules" in pack.manifest else tuple(sorted(pack.rules_dir.glob("*.rules")))
    facts = pack.rules_dir / "facts.yaml"
    if (not files or not all(f.is_file() for f in files) or not facts.is_file()
            or (not pack.manifest.get("cases") and (pack.dir / "cases.yaml").is_file())):
        rule_pack = find_rule_pack(pack.dir)
        with _errors_named_in_full(rule_pack.rules_dir):
            return compile_pack(rule_pack, relative_to=rule_pack.rules_dir)
    world = world_of(pack.manifest, pack.sequence)  # what trigger lines name: sides, tracks, steps
    if pack.map:
        world["domains"] = {**world.get("domains", {}), "town_name": _town_names(pack.map)}
    schema = with_sequence_facts(pack_facts(pack), world)
    cases = frozenset(pack.cases) if pack.manifest.get("cases") else None
    tables: Any = None
    if pack.manifest.get("tables"):  # ids with their shapes: `table <id>[…]` terms are checked against them
        tables = {t: table_shape({"kind": "table", "dims": [{"name": n, "values": list(v)} for n, v in tab.dims]})
                  for t, tab in pack.tables.items()}
        tables.update({t: table_shape({"kind": "records", "fields": dict.fromkeys(rows[0] if rows else {}, "any"),
                                       "rows": rows}) for t, rows in pack.records.items()})
    # rule lines are named relative to the game's rules folder (``combat.rules:15``) in answers and
    # traces, whatever folder the game is installed or copied to
    with _errors_named_in_full(pack.rules_dir):
        return compile_files(files, schema, cases, tables, relative_to=pack.rules_dir, world=world or None)


@contextmanager
def _errors_named_in_full(rules_dir: Path) -> Iterator[None]:
    """Re-raise a :class:`ScriptSyntaxError` of scripts named relative to ``rules_dir`` (as their
    lines are in answers and traces) with each script named as ``rules check`` names it: its
    path relative to the current folder, or absolute (:func:`shown_path`) — ``play`` and
    ``ask --pack COPY`` printed ``combat.rules:7:26`` without the folder."""
    try:
        yield
    except ScriptSyntaxError as exc:
        raise ScriptSyntaxError([replace(p, file=shown_path(rules_dir / p.file))
                                 if p.file and (rules_dir / p.file).is_file() else p for p in exc.problems],
                                exc.summary) from None
