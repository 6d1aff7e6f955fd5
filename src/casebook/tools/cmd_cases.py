"""``casebook cases GAME [--json] [--tests DIR] [--status S]`` — case coverage of a game.

For every leaf case of kind rule or errata in the game's case index: which code implements it,
which tests test it, and its status:

- ``missing`` — neither; ``implemented`` — code only; ``tested`` — tests only; ``done`` — both.

*Implemented by* gathers, without running any game:

1. plugins named in the manifest's ``plugins:`` list (imported as ``casebook.plugins.<name>`` or
   the entry point of that name), then every module of the :mod:`casebook.plugins` package — their
   functions declare cases with :func:`casebook.content.cases.implements`;
2. rule scripts: the game's scripts are compiled (:func:`casebook.script.compile_pack`) and
   each quantity / permission is listed with the cases its lines cite (``rules:<name>``); and
   anything the compiler registered with :func:`casebook.content.cases.register_cases`;
3. errata overlay patches of the pack (``errata:<file>``), each citing its case, and the
   sequence of play's phases, steps and loops (``sequence:<file>``: the kernel's machine runs them).

*Cited by* (``cited_by``): the pack's config files naming the case (``config:<file>``,
:func:`casebook.content.packconfig.config_citations`); a citation implements nothing.

*Tested by* comes from a static scan of the tests folder (:func:`casebook.content.cases.scan_tests`):
``@pytest.mark.case(...)`` marks and test names like ``test_9_6C_...``. Nothing is run.
Problems found on the way (a plugin that fails to import, scripts that do not compile, marks
naming unknown cases) are printed as warnings on stderr; they do not stop the report.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from casebook.content.cases import REGISTRY, STATUSES, CaseIndex, coverage, scan_tests
from casebook.core.errors import CasebookError, shown_path
from casebook.tools.case_data import data_cases, table_cases
from casebook.tools.cli import game_argument

__all__ = ["cases", "pack_of", "gather_implemented", "gather_report", "default_tests_dir", "implemented_in", "SOURCE_KINDS"]

#: What a source of ``implemented_by`` is, by its prefix; anything else is a Python function.
SOURCE_KINDS = {"area": "python", "rules": "script", "table": "table", "errata": "errata", "sequence": "data",
                "scenario": "data"}


def implemented_in(sources: list[str]) -> list[str]:
    """The kinds of what implements a case, sorted: ``script`` (a rule-script line cites it),
    ``table`` (a chart a script looks up cites it: ``rulebook:``/``errata:`` provenance),
    ``errata`` (an overlay patch), ``data`` (the sequence of play, a scenario) and ``python``
    (a plugin function marked ``@implements``). ``["python"]`` alone: a modder cannot change
    the case without code (issue #15 counts these)."""
    return sorted({SOURCE_KINDS.get(s.split(":", 1)[0], "python") if ":" in s else "python"
                   for s in sources})


def default_tests_dir() -> Path | None:
    """``./tests`` if it exists, else the ``tests`` folder of the source checkout, else None."""
    here = Path("tests")
    if here.is_dir():
        return here
    checkout = Path(__file__).resolve().parent.parent / "tests"
    return checkout if checkout.is_dir() else None


def _manifest(pack_dir: Path) -> dict[str, Any]:
    path = pack_dir / "game.yaml"
    if not path.is_file():
        return {}
    from casebook.content.yamlio import load_yaml

    data = load_yaml(path).data
    return data if isinstance(data, dict) else {}


def _pack_dir(game: str) -> Path:
    from casebook.content.loader import find_pack

    return find_pack(game)


def _import_plugins(manifest: dict[str, Any], warnings: list[str]) -> None:
    from casebook.content.plugins import resolve_plugin

    packages: dict[str, None] = {}
    for name in manifest.get("plugins") or []:
        try:
            module = resolve_plugin(name)
        except Exception as exc:  # report, keep counting the rest
            warnings.append(f"plugin {name!r}: {exc}")
            continue
        if getattr(module, "__package__", None):
            packages[module.__package__] = None
    # the plugins' helper modules (``_combat_odds`` …): every module of the packages they live in
    for package_name in packages:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            try:
                importlib.import_module(info.name)
            except Exception as exc:
                warnings.append(f"plugin module {info.name}: failed to import: {exc!r}")


def _script_cases(game: str, warnings: list[str]) -> dict[str, list[str]]:
    """case -> ``rules:<quantity or permission>`` for the game's compiled rule scripts.

    Seam: uses ``casebook.script.find_rule_pack`` / ``compile_pack`` and
    ``RuleSet.cases_cited()``; a game without scripts contributes nothing.
    """
    try:
        from casebook.script import RuleSet, compile_pack, find_rule_pack
    except ImportError:
        return {}
    try:
        pack = find_rule_pack(game)
        if not pack.files:
            return {}
        rules = compile_pack(pack)
    except CasebookError as exc:
        warnings.append(f"rule scripts not counted: {exc}".splitlines()[0])
        return {}
    out: dict[str, list[str]] = {}
    read = rules.tables_read | _plugin_tables(pack.pack_dir)
    for case, tables in table_cases(pack.pack_dir, list(_manifest(pack.pack_dir).get("tables") or []), read, warnings).items():
        out.setdefault(case, []).extend(tables)
    parts = [(f"rules:{n}", RuleSet({n: q}, {}, rules.schema)) for n, q in rules.quantities.items()]
    parts += [(f"rules:{a}", RuleSet({}, {a: p}, rules.schema)) for a, p in rules.permissions.items()]
    parts += [(f"rules:when {e.replace('_', ' ')}", RuleSet({}, {}, rules.schema, triggers={e: ts}))
              for e, ts in rules.triggers.items()]
    for source, part in parts:
        for case in part.cases_cited():
            out.setdefault(case, []).append(source)
    return out


def _plugin_tables(pack_dir: Path) -> frozenset[str]:
    """The table ids the manifest's plugins declare they read (a module's ``TABLES``: the shared
    areas' ``crt_results``, ``victory_hexes`` …): their values are rules in data too."""
    from casebook.content.plugins import resolve_plugin

    out: set[str] = set()
    for name in _manifest(pack_dir).get("plugins") or []:
        try:
            out.update(str(t) for t in getattr(resolve_plugin(name), "TABLES", ()))
        except Exception:  # an unknown plugin is reported by _import_plugins
            continue
    return frozenset(out)


def _prefix(case: str) -> str:
    """The game prefix of a case id (``BM`` of ``BM8.3``; empty for ``10.4.5C``)."""
    return case[:len(case) - len(case.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))]


def gather_implemented(game: str, warnings: list[str]) -> dict[str, list[str]]:
    """case -> sources implementing it (plugins via the ``implements`` registry, rule scripts,
    errata overlay patches)."""
    _import_plugins(_manifest(_pack_dir(game)), warnings)
    found = REGISTRY.by_case()
    for extra in (_script_cases(game, warnings), data_cases(game, warnings)):
        for case, sources in extra.items():
            found.setdefault(case, []).extend(sources)
    return found


def pack_of(game: str, pack: Path | None = None, warn: Callable[[str], None] | None = None) -> str:
    """``game`` itself (a game id or pack directory), or for a trace (``.jsonl``: its setup event's
    game) or position file (its ``game:``) the pack it was played from
    (:func:`casebook.tools.saves.trace_pack`: ``pack`` if given, a pack folder of that game above
    the file, the folder a save beside it records, else the installed game). ClickException for
    a file that names no game, or a ``pack`` of another game than GAME or the file's; ContentError
    (saying to pass ``--pack``) when no pack is found. ``warn`` is given
    :func:`casebook.tools.saves.trace_pack_warning`'s line when the pack found may not be the one
    the file was played on."""
    from casebook.content.confine import is_game_id
    from casebook.core.errors import shown_path
    from casebook.tools.saves import trace_pack, trace_pack_warning

    path = Path(game)
    if not path.is_file():
        if pack is not None and _game_id(pack) != _game_id(path):
            raise click.ClickException(f"{shown_path(pack)} is a pack of {_game_id(pack)!r}, not of {_game_id(path)!r}")
        return str(pack) if pack is not None else game
    if path.suffix == ".jsonl":
        from casebook.tools.cmd_replay import read_whole

        found = next((e.data.get("game") for e in read_whole(path) if e.kind == "setup"), None)
    else:
        from casebook.content.yamlio import load_yaml

        data = load_yaml(path).data
        found = data.get("game") if isinstance(data, dict) else None
    if not isinstance(found, str) or not is_game_id(found):
        raise click.ClickException(f"{shown_path(path)}: names no game (a trace's setup event or a position's game:)")
    if pack is not None and _game_id(pack) != found:
        raise click.ClickException(f"{shown_path(pack)} is a pack of {_game_id(pack)!r}; {shown_path(path)} is of {found!r}")
    chosen = trace_pack(path, found, pack)
    note = trace_pack_warning(path, found, chosen) if pack is None else None
    if note and warn is not None:
        warn(note)
    return str(chosen)


def _game_id(game: Path) -> str | None:
    """The game id of a game id or pack folder ``game`` (its manifest's ``id:``), None if unreadable."""
    from casebook.content.loader import find_pack
    from casebook.content.yamlio import read_yaml

    try:
        doc, _ = read_yaml(find_pack(str(game)) / "game.yaml")
    except (CasebookError, OSError):
        return None
    found = doc.data.get("id") if doc is not None and isinstance(doc.data, dict) else None
    return found if isinstance(found, str) else None


def _test_folders(game: str, tests_dir: Path | None, own: bool = True) -> list[Path]:
    """Where the tests of ``game`` are: ``tests_dir`` (``--tests``, or ./tests, or the checkout's),
    and the game's own folder (a game is one folder, its tests in ``<pack>/tests/``; the scan
    finds only ``test_*.py`` files, so the pack folder itself is scanned and the ids read
    ``tests/test_….py::…``)."""
    folders = [tests_dir] if tests_dir is not None else []
    if not own:  # ``--tests DIR``: that folder alone
        return folders
    try:
        pack_dir = _pack_dir(game)
    except CasebookError:
        return folders
    if (pack_dir / "tests").is_dir() and all(pack_dir.resolve() not in f.resolve().parents for f in folders):
        folders.append(pack_dir)
    return folders


def gather_report(game: str, tests_dir: Path | None, warnings: list[str], own_tests: bool = True) -> dict[str, Any]:
    """The whole coverage report (see :func:`casebook.content.cases.coverage`) of ``game``."""
    index = CaseIndex.for_game(game)
    implemented = gather_implemented(game, warnings)
    tested: dict[str, list[str]] = {}
    prefixes = {_prefix(c.id) for c in index.leaves()}
    for folder in _test_folders(game, tests_dir, own_tests):
        scan = scan_tests(folder, index)

        def named(test: str, folder: Path = folder) -> str:  # the file as the user finds it, not folder-relative
            file, _, rest = test.partition("::")
            return f"{Path(shown_path(folder / file)).as_posix()}::{rest}"

        for case, tests in scan.tested.items():
            tested.setdefault(case, []).extend(named(t) for t in tests if named(t) not in tested.get(case, []))
        # a case of another game (another id prefix: BM8.3 beside 10.4.5C) is not this game's concern
        warnings += [f"{named(test)}: marks unknown case {case}" for test, case in scan.unknown
                     if _prefix(case) in prefixes]
    prefixes = {_prefix(c.id) for c in index.leaves()}
    unknown_impl = sorted(c for c in implemented if c not in index and _prefix(c) in prefixes)
    if unknown_impl:
        warnings.append(f"implemented cases not in the {game} index: {', '.join(unknown_impl)}")
    report = coverage(index, implemented, tested)
    from casebook.content.packconfig import config_citations

    cited = config_citations(_pack_dir(game), warnings)
    reasons = dict(_manifest(_pack_dir(game)).get("python_only") or {})
    given = bool(reasons)  # a game that gives reasons gives one for each of its Python-only cases
    for row in report["cases"]:
        row["implemented_in"] = implemented_in(row["implemented_by"])
        row["cited_by"] = cited.get(row["case"], [])
        if row["implemented_in"] == ["python"]:  # why no line states it: the manifest's python_only:
            row["python_only_reason"] = reasons.pop(row["case"], None)
            if row["python_only_reason"] is None and given:
                warnings.append(f"{row['case']} is Python-only and the manifest's python_only: gives no reason")
    warnings += [f"python_only: {case} is not Python-only (implemented in script or table)" for case in reasons]
    report["summary"]["python_only"] = sum(1 for r in report["cases"] if r["implemented_in"] == ["python"])
    return report


@click.command("cases")
@click.argument("game", callback=game_argument)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--tests", "tests_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="Tests folder to scan, alone (default: the game's own tests/ and ./tests or the checkout's).")
@click.option("--status", "only", type=click.Choice(STATUSES), default=None,
              help="List only the cases with this status (the summary still counts all).")
@click.option("--pack", type=click.Path(exists=True, file_okay=False, resolve_path=True, path_type=Path), default=None,
              help="For a trace or position file: the pack folder it was played from (default: a pack "
                   "folder above it, the one a save beside it records, else the installed game).")
def cases(game: str, as_json: bool, tests_dir: Path | None, only: str | None, pack: Path | None) -> None:
    """Case coverage of GAME (a game id, a pack directory, or a trace or position file: the pack it
    was played from): per leaf rule/errata case, what implements it, what tests it and its
    status; then `implemented N/T, tested M/T`."""
    game = pack_of(game, pack, warn=lambda note: click.echo(note, err=True))
    warnings: list[str] = []
    report = gather_report(game, tests_dir or default_tests_dir(), warnings, own_tests=tests_dir is None)
    rows = [r for r in report["cases"] if only is None or r["status"] == only]
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    s = report["summary"]
    if as_json:
        click.echo(json.dumps({"cases": rows, "summary": s}, indent=2, ensure_ascii=False))
        return
    width = max((len(r["case"]) for r in rows), default=4)
    for r in rows:
        where = "+".join(r["implemented_in"]) or "-"
        click.echo(f"{r['case']:<{width}}  {r['status']:<11}  {where:<20}  {r['title']}")
        if r["implemented_by"]:
            click.echo(f"{'':<{width}}    implemented by: {', '.join(r['implemented_by'])}")
        if r["tested_by"]:
            click.echo(f"{'':<{width}}    tested by: {', '.join(r['tested_by'])}")
        if r["cited_by"]:
            click.echo(f"{'':<{width}}    cited by: {', '.join(r['cited_by'])}")
        if r.get("python_only_reason"):
            click.echo(f"{'':<{width}}    python-only: {r['python_only_reason']}")
    click.echo(f"implemented {s['implemented']}/{s['total']}, tested {s['tested']}/{s['total']}, "
               f"done {s['done']}/{s['total']}, python-only {s['python_only']}/{s['total']}")
