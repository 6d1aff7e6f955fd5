"""``casebook provenance GAME_OR_DIR [--json]``: where the values of a pack come from.

Counts every scalar value of every file by its effective provenance (docs/content-format.md):
``rulebook`` (stated in the rulebook text), ``errata``, ``reconstructed`` (authored here) and
``untagged`` (no provenance: an error). Exit 1 when any value is untagged. The files are those
the manifest names (tables, errata, scenarios, …) and its ``config:`` files (kind ``config``:
the names, texts and cited cases of the pack's areas and plugins), each counted the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from casebook.content.loader import find_pack, scan_pack
from casebook.content.pack import FileInfo
from casebook.content.provenance import SOURCES, count_provenance
from casebook.tools.cli import game_argument

__all__ = ["provenance", "config_infos"]

_COLUMNS = (*SOURCES, "untagged")


def config_infos(pack_dir: Path) -> tuple[FileInfo, ...]:
    """Provenance counts of the readable ``config:`` files of the manifest at ``pack_dir``
    (confined to the pack folder, read under the YAML policy; an unreadable one is the load's
    problem, reported as for any file), in the manifest's order."""
    from casebook.content.confine import confined_path
    from casebook.content.yamlio import read_yaml

    manifest, _ = read_yaml(pack_dir / "game.yaml")
    files = manifest.data.get("config") if manifest is not None and isinstance(manifest.data, dict) else None
    out = []
    for rel in (files.values() if isinstance(files, dict) else ()):
        path = confined_path(pack_dir, rel)[0] if isinstance(rel, str) else None
        doc, problems = read_yaml(path) if path is not None and path.is_file() else (None, [])
        if path is not None and doc is not None and not problems:
            out.append(FileInfo(path, "config", count_provenance(doc.data).as_dict()))
    return tuple(out)


@click.command("provenance")
@click.argument("game_or_dir", callback=game_argument)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
def provenance(ctx: click.Context, game_or_dir: str, as_json: bool) -> None:
    """Count rulebook / errata / reconstructed / untagged values per file of GAME_OR_DIR."""
    pack_dir = find_pack(game_or_dir)
    infos = scan_pack(pack_dir) + config_infos(pack_dir)
    rows: list[dict[str, Any]] = []
    for info in infos:
        try:
            rel = info.path.resolve().relative_to(pack_dir.resolve()).as_posix()
        except ValueError:
            rel = str(info.path)
        rows.append({"file": rel, "kind": info.kind, **{c: info.counts[c] for c in _COLUMNS}})
    totals = {c: sum(r[c] for r in rows) for c in _COLUMNS}
    if as_json:
        click.echo(json.dumps({"files": rows, "totals": totals}, indent=2))
    else:
        width = max([len(r["file"]) for r in rows] + [5])
        head = f"{'file':<{width}}  {'kind':<15}" + "".join(f"{c:>15}" for c in _COLUMNS)
        click.echo(head)
        for r in rows:
            click.echo(f"{r['file']:<{width}}  {r['kind']:<15}" + "".join(f"{r[c]:>15}" for c in _COLUMNS))
        click.echo(f"{'total':<{width}}  {'':<15}" + "".join(f"{totals[c]:>15}" for c in _COLUMNS))
    from casebook.content.loader import load_pack
    from casebook.core.errors import ContentError

    try:
        load_pack(pack_dir)
    except ContentError as exc:  # files that do not load are not counted above: say so, fail
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        click.echo(f"{exc.summary}: the counts above leave out what could not be read", err=True)
        ctx.exit(1)
    if totals["untagged"]:
        if not as_json:
            click.echo(f"{totals['untagged']} untagged value(s): every value needs a provenance", err=True)
        ctx.exit(1)
