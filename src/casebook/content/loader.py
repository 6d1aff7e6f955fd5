"""Loading a content pack: the manifest, every file it names, errata overlays, cross-file checks.

:func:`load_pack` returns a frozen :class:`~casebook.content.pack.Pack` or raises ONE
:class:`~casebook.core.errors.ContentError` listing every problem of the load
(``file:line:column: key.path: message``); a pack is never half-loaded. The format is
docs/content-format.md. Content never executes code: YAML is read safely (:mod:`.yamlio`) and a
manifest names plugins only by registered name (an entry point of group ``casebook.plugins``),
which is looked up, never imported. Installed games are found by id through the entry-point group
``casebook.games`` (id -> the package holding the pack folder).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casebook.content.confine import confined_path, rules_dir_problem
from casebook.content.pack import FileInfo, Pack, Table
from casebook.content.provenance import PatchError, apply_patch, count_provenance
from casebook.content.schema import validate
from casebook.content.schema_pack import check_cross_file, located
from casebook.content.yamlio import YamlDoc, read_yaml
from casebook.core.errors import ContentError, Problem

__all__ = ["find_pack", "is_bare", "load_pack", "scan_pack", "plugin_registered", "installed_games", "display_path",
           "read_pack_file", "default_rules_dir", "resolve_rules_dir",
           "rules_dir_problems", "GAMES_GROUP", "PLUGINS_GROUP"]

#: manifest key -> kind of the file(s) it names
_SINGLE = {"cases": "cases", "sequence": "sequence", "map": "map", "counters": "counters",
           "interpretations": "interpretations", "gazetteer": "gazetteer"}


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when below it (stable messages), else absolute."""
    p = Path(path).resolve()
    try:
        return str(p.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


#: Entry-point groups: installed games (id -> package of the pack folder) and plugins (name -> module).
GAMES_GROUP = "casebook.games"
PLUGINS_GROUP = "casebook.plugins"


def installed_games() -> dict[str, Path]:
    """Every installed game: id -> its pack folder (the directory of the package an entry point of
    group ``casebook.games`` names, holding ``game.yaml``). Nothing is imported but the
    packages' ``__init__`` (docstrings only)."""
    out: dict[str, Path] = {}
    for ep in importlib.metadata.entry_points(group=GAMES_GROUP):
        try:
            spec = importlib.util.find_spec(ep.value)
        except (ImportError, ValueError):
            continue
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        if locations and (Path(locations[0]) / "game.yaml").is_file():
            out.setdefault(ep.name, Path(locations[0]))
    return dict(sorted(out.items()))


def default_rules_dir(pack_dir: Path, game: str) -> Path:
    """A game's rules folder when the manifest names none: the pack's own ``rules/``, whether it
    exists or not. A pack only ever reads its own files (SECURITY.md): a copy without ``rules/``
    has no rule scripts (``lint`` says so), never the installed game's. ``game`` is unused (kept
    for the callers)."""
    del game
    return (pack_dir / "rules").resolve()


def resolve_rules_dir(pack_dir: Path, manifest: Mapping[str, Any]) -> Path:
    """Where a pack's rule scripts live: the manifest's ``rules_dir`` (relative to the pack dir,
    confined by :func:`casebook.content.confine.rules_dir_problem`: a refused one is reported by
    :func:`rules_dir_problems` and the default is used, so nothing outside is read), else
    :func:`default_rules_dir`."""
    game = str(manifest.get("id") or pack_dir.name)
    default = default_rules_dir(pack_dir, game)
    given = manifest.get("rules_dir")
    if given and rules_dir_problem(pack_dir, given, default) is None:
        return (pack_dir / str(given)).resolve()
    return default


def rules_dir_problems(pack_dir: Path, manifest: Mapping[str, Any], doc: YamlDoc | None) -> list[Problem]:
    """The confinement problems of a manifest's ``rules_dir:`` and ``rules:`` entries (located in
    ``doc`` when given): each rule script resolves inside the rules folder after symlinks."""
    out: list[Problem] = []
    file = doc.file if doc is not None else display_path(pack_dir / "game.yaml")

    def problem(kp: tuple, message: str) -> None:
        if doc is not None:
            out.append(doc.problem(kp, message, value=True))
        else:
            out.append(Problem(file, 0, 0, ".".join(map(str, kp)), message))

    game = str(manifest.get("id") or pack_dir.name)
    given = manifest.get("rules_dir")
    if given is not None:
        why = rules_dir_problem(pack_dir, given, default_rules_dir(pack_dir, game))
        if why is not None:
            problem(("rules_dir",), why)
    rules_dir = resolve_rules_dir(pack_dir, manifest)
    rules = manifest.get("rules")
    for i, name in enumerate(rules if isinstance(rules, list) else []):
        _, why = confined_path(rules_dir, name)
        if why is not None:
            problem(("rules", i), why)
    return out


def find_pack(game_or_dir: str | os.PathLike[str]) -> Path:
    """The directory of a pack: a directory holding ``game.yaml``, a ``game.yaml`` path, or the id
    of an installed game (:func:`installed_games`). A bare id (a ``str`` with no path separator,
    as a position's ``game:``) of an installed game is that game even if a folder of that name is
    in the working directory (never read by accident); a folder there is named ``./GAME`` or
    as a ``Path`` (the CLI's GAME argument does so, with a note). Raises ContentError if none is found."""
    p = Path(game_or_dir)
    if p.is_dir() and (p / "game.yaml").is_file() and not (is_bare(game_or_dir) and str(game_or_dir) in installed_games()):
        return p
    if p.is_file() and p.name == "game.yaml":
        return p.parent
    name = str(game_or_dir)
    games = installed_games()
    if name in games:
        return games[name]
    known = ", ".join(games) or "none"
    if p.is_dir():  # a folder, but no pack: say so (never "did you mean" the very name given)
        raise ContentError([Problem(name, 0, 0, "", f"no game.yaml in the folder {name}: not a content pack "
                                    f"(an installed game is named by its bare id: {known})")])
    from casebook.content.schema import did_you_mean

    raise ContentError([Problem(name, 0, 0, "", "no content pack here: expected a directory with game.yaml "
                                f"or an installed game id (installed: {known}){did_you_mean(name, list(games))}")])


def is_bare(game_or_dir: object) -> bool:
    """Whether ``game_or_dir`` is a bare name (a ``str`` without a path separator): a game id
    first (:func:`find_pack`), a folder only when no installed game has that id."""
    return isinstance(game_or_dir, str) and not any(sep and sep in game_or_dir for sep in (os.sep, os.altsep, "/"))


def plugin_registered(name: str) -> bool:
    """Whether ``name`` is a registered plugin: an entry point of group ``casebook.plugins`` has
    that name. Nothing is imported from content. Names are those
    :func:`casebook.content.plugins.resolve_plugin` takes (no private ``_helpers``)."""
    import re

    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        return False
    return any(ep.name == name for ep in importlib.metadata.entry_points(group=PLUGINS_GROUP))


@dataclass
class _Loaded:
    """Working state of one load (mutable; never escapes)."""

    dir: Path
    problems: list[Problem] = field(default_factory=list)
    docs: dict[Path, YamlDoc] = field(default_factory=dict)
    data: dict[Path, Any] = field(default_factory=dict)
    kinds: dict[Path, str] = field(default_factory=dict)
    overrides: dict[Path, dict[tuple, str]] = field(default_factory=dict)
    patch_sites: dict[Path, dict[tuple, tuple[str, int, int]]] = field(default_factory=dict)
    valid: set[Path] = field(default_factory=set)


def read_pack_file(path: Path) -> tuple[YamlDoc | None, list[Problem]]:
    """Read one YAML file of a pack, naming it by :func:`display_path` in problems."""
    return read_yaml(path, file=display_path(path))


def _named_files(manifest: dict[str, Any], doc: YamlDoc, pack_dir: Path, st: _Loaded) -> list[tuple[Path, str | None, tuple]]:
    """(path, expected kind, manifest key path) of every file the manifest names that is
    confined to the pack folder (:mod:`.confine`) and exists; the others are problems."""
    named: list[tuple[str, str | None, tuple]] = []
    for key, single_kind in _SINGLE.items():
        if isinstance(manifest.get(key), str):
            named.append((manifest[key], single_kind, (key,)))
    for key in ("tables", "errata"):
        items = manifest.get(key)
        for i, rel in enumerate(items if isinstance(items, list) else []):
            if isinstance(rel, str):
                named.append((rel, "errata" if key == "errata" else None, (key, i)))
    scenarios = manifest.get("scenarios")
    for sid, rel in (scenarios.items() if isinstance(scenarios, dict) else ()):
        if isinstance(rel, str):
            named.append((rel, "position", ("scenarios", sid)))
    kept: list[tuple[Path, str | None, tuple]] = []
    for rel, kind, kp in named:
        path, why = confined_path(pack_dir, rel)
        if path is None:
            st.problems.append(doc.problem(kp, why or "refused path", value=True))
        elif not path.is_file():
            st.problems.append(doc.problem(kp, f"file not found: {display_path(path)}", value=True))
        else:
            kept.append((path, kind, kp))
    st.problems += rules_dir_problems(pack_dir, manifest, doc)
    return kept


def _apply_errata(st: _Loaded, errata_paths: list[Path]) -> list[tuple[Path, int, Mapping[str, Any]]]:
    applied: list[tuple[Path, int, Mapping[str, Any]]] = []
    for epath in errata_paths:
        doc = st.docs.get(epath)
        data = st.data.get(epath)
        if doc is None or not isinstance(data, dict) or not isinstance(data.get("patches"), list):
            continue
        for i, patch in enumerate(data["patches"]):
            if not isinstance(patch, dict) or not isinstance(patch.get("path"), list) or not patch["path"]:
                continue
            target = (st.dir / str(patch.get("file"))).resolve()
            if target not in {p.resolve() for p in st.data}:
                if target.is_file() and target.is_relative_to(st.dir.resolve()):
                    continue  # a file of the pack with its own YAML problems
                st.problems.append(doc.problem(("patches", i, "file"), f"not a file of this pack: {patch.get('file')!r}", value=True))
                continue
            tpath = next(p for p in st.data if p.resolve() == target)
            op = next((k for k in ("set", "add", "remove") if k in patch), None)
            if op is None:
                continue  # reported by the schema
            try:
                where = apply_patch(st.data[tpath], patch["path"], op, patch.get(op))
            except PatchError as exc:
                st.problems.append(doc.problem(("patches", i, "path", exc.index), f"patch path does not resolve: {exc}"))
                continue
            applied.append((epath, i, patch))
            if op != "remove":
                prov = f"errata: {patch.get('case')}"
                st.overrides.setdefault(tpath, {})[where] = prov
                line, col = doc.where(("patches", i, op))
                st.patch_sites.setdefault(tpath, {})[where] = (doc.file, line, col)
    return applied


def _read(game_or_dir: str | os.PathLike[str]) -> tuple[_Loaded, Path, dict[str, Any], list, list]:
    """Read the manifest and every file it names, validate the errata and apply them.
    Raises ContentError only if the manifest itself is unusable."""
    pack_dir = find_pack(game_or_dir)
    st = _Loaded(pack_dir)
    gpath = pack_dir / "game.yaml"
    gdoc, probs = read_pack_file(gpath)
    st.problems += probs
    if gdoc is None:
        raise ContentError(st.problems)
    manifest_model, probs = validate(gdoc, kind="game")
    st.problems += probs
    if manifest_model is None or not isinstance(gdoc.data, dict):
        raise ContentError(st.problems)
    manifest = gdoc.data
    st.docs[gpath], st.data[gpath], st.kinds[gpath] = gdoc, manifest, "game"
    named = _named_files(manifest, gdoc, pack_dir, st)
    for path, kind, _ in named:
        doc, probs = read_pack_file(path)
        st.problems += probs
        if doc is not None and not probs:  # a file with YAML problems is not checked further
            st.docs[path], st.data[path] = doc, doc.data
            st.kinds[path] = kind or (doc.data.get("kind") if isinstance(doc.data, dict) else None) or "?"
    errata_paths = [p for p, k, _ in named if k == "errata" and p in st.docs]
    valid_errata = []
    for epath in errata_paths:  # errata must be valid before they are applied
        model, probs = validate(st.docs[epath], kind="errata")
        st.problems += probs
        if model is not None:
            valid_errata.append(epath)
    applied = _apply_errata(st, valid_errata)
    return st, gpath, manifest, named, applied


def scan_pack(game_or_dir: str | os.PathLike[str]) -> tuple[FileInfo, ...]:
    """Provenance counts of every readable file of a pack (errata applied), without the full
    validation of :func:`load_pack`, so a pack with untagged values can still be reported.
    Raises ContentError only if the manifest is unusable."""
    st, gpath, _, named, _ = _read(game_or_dir)
    return _file_infos(st, gpath, named)


def _file_infos(st: _Loaded, gpath: Path, named: list) -> tuple[FileInfo, ...]:
    return tuple(
        FileInfo(p, st.kinds.get(p, "?"), count_provenance(st.data[p], st.overrides.get(p)).as_dict())
        for p in [gpath] + [n[0] for n in named] if p in st.data
    )


def load_pack(game_or_dir: str | os.PathLike[str]) -> Pack:
    """Load, patch and validate a whole pack; raise ONE ContentError with every problem.

    Checks: YAML safety and syntax, every file against its schema, errata patches resolve,
    case ids cited exist in the case index, hexes on the map and hexsides adjacent, table and
    records ids unique, plugins registered, rule files exist, every value has provenance,
    and every scenario position (``counter:`` references, hexes, phases).

    A pack that loaded without a problem is kept in the compiled-pack cache
    (:mod:`casebook.content.packcache`, keyed by the hash of every file it depends on).
    """
    from casebook.content.packcache import cached_load

    pack_dir = find_pack(game_or_dir)
    manifest_rules = _rules_dir_guess(pack_dir)
    return cached_load(pack_dir, manifest_rules, lambda: _load_pack_fresh(pack_dir))


def _rules_dir_guess(pack_dir: Path) -> Path | None:
    """The rules folder the pack's scripts are in (for the cache key): the manifest's
    ``rules_dir`` or the default beside the content folder; None when the manifest is unreadable
    (then the load reports it)."""
    import re

    try:
        text = (pack_dir / "game.yaml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found = re.search(r"^rules_dir:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(#.*)?$", text, re.M)
    ident = re.search(r"^id:\s*['\"]?([^'\"#\s]+)", text, re.M)
    manifest = {"rules_dir": found.group(1)} if found else {}
    if ident:
        manifest["id"] = ident.group(1)
    return resolve_rules_dir(pack_dir, manifest)


def _load_pack_fresh(game_or_dir: str | os.PathLike[str]) -> Pack:
    """:func:`load_pack` without the cache."""
    st, gpath, manifest, named, applied = _read(game_or_dir)
    for path, kind, _ in named:
        if path not in st.data or kind in ("errata", "position"):
            continue  # errata were validated in _read; positions by check_scenario
        model, probs = validate(st.docs[path], kind=kind, data=st.data[path], locate=located(st, path))
        st.problems += probs
        if model is not None:
            st.valid.add(path)
    pack = _build(st, gpath, manifest, named, applied)
    st.problems += check_cross_file(st, pack, named)
    if st.problems:
        raise ContentError(st.problems)
    return pack


def _build(st: _Loaded, gpath: Path, manifest: dict[str, Any], named: list, applied: list) -> Pack:
    d = st.dir

    def get(key: str, default: Any) -> Any:
        rel = manifest.get(key)
        data = st.data.get(d / rel) if isinstance(rel, str) else None
        return data if isinstance(data, dict) else default

    tables: dict[str, Table] = {}
    records: dict[str, list[dict[str, Any]]] = {}
    for rel in manifest.get("tables") or []:
        data = st.data.get(d / rel)
        if not isinstance(data, dict):
            continue
        if data.get("kind") == "table" and isinstance(data.get("dims"), list):
            dims = tuple((str(dm.get("name")), tuple(dm.get("values") or ())) for dm in data["dims"]
                         if isinstance(dm, dict))
            tables.setdefault(str(data.get("id")), Table(str(data.get("id")), str(data.get("title")), dims,
                                                         str(data.get("value")), data.get("cells") or {}, data.get("provenance")))
        elif data.get("kind") == "records":
            records.setdefault(str(data.get("id")), list(data.get("rows") or []))
    cases = get("cases", {}).get("cases") or []
    counters = get("counters", {}).get("units") or []
    interps = get("interpretations", {}).get("interpretations") or []
    rules_dir = resolve_rules_dir(d, manifest)
    files = _file_infos(st, gpath, named)
    return Pack(
        dir=d,
        manifest=manifest,
        cases={c["id"]: c for c in cases if isinstance(c, dict) and "id" in c},
        sequence=get("sequence", {}),
        map=get("map", {}),
        counters={u["id"]: u for u in counters if isinstance(u, dict) and "id" in u},
        tables=tables,
        records=records,
        scenarios={sid: d / rel for sid, rel in (manifest.get("scenarios") or {}).items()},
        interpretations={i["id"]: i for i in interps if isinstance(i, dict) and "id" in i},
        rules_dir=rules_dir,
        rule_files=tuple(rules_dir / r for r in manifest.get("rules") or []),
        files=files,
        gazetteer=get("gazetteer", None),
        errata=tuple(applied),
    )
