"""``casebook lint PACK_DIR``: validate a content pack and list every problem at once.

Loads the pack (:func:`casebook.content.loader.load_pack`): every file against its schema, the
errata overlays, the cross-file checks and every scenario position (its victory block against the
schema its victory plugin declares); compiles the game's rule scripts (as ``casebook rules check``
does) and checks that the tables, quantities and permissions each listed plugin requires are there
(:mod:`casebook.content.requires`). Exit 0 with a one-line summary (its files and values are
those ``casebook provenance`` counts: the manifest's files and its ``config:`` files), or exit 1 with every
problem as ``file:line:col: key.path: message`` and a count line.
"""

from __future__ import annotations

from typing import Any

import click

from casebook.content.loader import display_path, load_pack
from casebook.core.errors import ContentError, ScriptSyntaxError
from casebook.tools.cli import game_argument

__all__ = ["lint", "pack_problems"]


@click.command("lint")
@click.argument("pack_dir", callback=game_argument)
@click.pass_context
def lint(ctx: click.Context, pack_dir: str) -> None:
    """Validate the content pack PACK_DIR (a directory with game.yaml, or an installed game id)."""
    pack, rules, problems = pack_problems(pack_dir)
    if problems:
        for problem in problems:
            click.echo(str(problem))
        n = len(problems)
        if rules is None and pack is None and _foundation_failed(pack_dir, problems):
            click.echo("(rule scripts not checked: they are compiled against the files above; fix those first)")
        click.echo(f"{display_path_or(pack_dir)}: {n} error{'s' if n != 1 else ''}")
        ctx.exit(1)
    from casebook.tools.cmd_provenance import config_infos

    files = (*pack.files, *config_infos(pack.dir))  # as `casebook provenance` counts them
    n_values = sum(sum(f.counts.values()) for f in files)
    click.echo(
        f"{display_path(pack.dir)}: ok — game {pack.id}, {len(files)} files, {n_values} values, "
        f"{len(pack.counters)} counters, {len(pack.tables) + len(pack.records)} tables, "
        f"{len(pack.scenarios)} scenario(s), {len(pack.errata)} errata patch(es) applied, "
        f"{len(rules.quantities)} rule quantities and {len(rules.permissions)} permissions compiled"
    )


def pack_problems(pack_dir: str) -> tuple[Any, Any, list[Any]]:
    """(pack, compiled rules, problems) of the pack ``pack_dir`` as ``lint`` checks it: the pack
    load, the rule scripts, each plugin's requirements; every problem once. The pack or the
    rules are None when they failed to load (their problems say why)."""
    from casebook.script import compile_pack, find_rule_pack

    problems: list[Any] = []
    pack = None
    try:
        pack = load_pack(pack_dir)
    except ContentError as exc:
        problems += exc.problems
    rules = None
    if pack is None and _foundation_failed(pack_dir, problems):
        return pack, rules, _distinct(problems)  # the scripts' errors would only echo it
    try:
        rules = compile_pack(find_rule_pack(pack.dir if pack is not None else pack_dir))
    except (ContentError, ScriptSyntaxError) as exc:
        problems += exc.problems
    if pack is not None and rules is not None:  # the tables and scripts each listed plugin needs
        from casebook.content.requires import pack_requirement_problems

        problems += pack_requirement_problems(pack, rules)
    return pack, rules, _distinct(problems)


def _foundation_failed(pack_dir: str, problems: list) -> bool:
    """Whether a file the rule scripts are compiled against failed to load: the manifest (missing
    or unusable), or the sequence or case index it names. Their ids (phases and steps, cases)
    would then be "unknown" in every script line naming them, so the
    scripts are not compiled (``lint`` says so) until the file is fixed (#14 item 6.8)."""
    from pathlib import Path

    from casebook.content.loader import find_pack

    try:
        root = find_pack(pack_dir).resolve()
    except ContentError:  # no manifest: its scripts would only echo it (a bare folder: "not a content pack")
        return (Path(pack_dir) / "rules").is_dir() or (Path(pack_dir) / "cases.yaml").is_file()
    manifest = read_manifest_keys(root)
    if manifest is None:
        return True
    names = [manifest.get("sequence"), manifest.get("cases", "cases.yaml")]
    base = {(root / "game.yaml").resolve()} | {(root / str(n)).resolve() for n in names if isinstance(n, str)}
    return any(p.file and (Path(p.file).resolve() in base or Path(root / p.file).resolve() in base) for p in problems)


def read_manifest_keys(root: Any) -> dict[str, Any] | None:
    """The manifest of the pack folder ``root`` as a mapping, or None when it is unreadable."""
    from casebook.content.loader import read_pack_file

    doc, probs = read_pack_file(root / "game.yaml")
    return doc.data if doc is not None and not probs and isinstance(doc.data, dict) else None


def _distinct(problems: list) -> list:
    """Each problem once: the pack load and the rule-script loader read some files (the manifest,
    the tables) both, and name them relative or absolute."""
    from pathlib import Path

    seen: set[tuple] = set()
    out = []
    for p in problems:
        where = Path(p.file).resolve() if p.file and Path(p.file).exists() else p.file
        key = (where, p.line, p.column, p.key, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def display_path_or(name: str) -> str:
    """A pack argument as printed: its display path when it is a directory, else as given."""
    from pathlib import Path

    return display_path(Path(name)) if Path(name).is_dir() else name
