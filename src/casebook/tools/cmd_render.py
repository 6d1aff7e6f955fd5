"""``casebook render GAME [--scenario ID | --position FILE] -o OUT.svg``: draw the map as SVG.

GAME is a game id (``moscow41``) or a pack directory. The map is the pack's ``map.yaml`` (read
directly when the pack has no ``game.yaml`` yet). ``--scenario`` draws the units of a scenario of
the pack, ``--position`` those of a position file (its inline ``map:`` if it has one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from casebook.content.loader import find_pack, is_bare
from casebook.content.yamlio import load_yaml
from casebook.core.errors import ContentError, Problem
from casebook.tools.cli import game_argument
from casebook.tools.render import render_svg

__all__ = ["render", "map_and_units"]

def _pack_dir(game: str) -> Path:
    p = Path(game)
    if p.is_dir() and not is_bare(game):  # a bare id is the installed game (the GAME argument says ./ID for a folder)
        return p
    return find_pack(game)


def _vocabulary(game: str) -> Any:
    """The game's vocabulary (sides with their names and counter colours, map ``styles``), an
    empty one for a folder without a readable ``game.yaml``."""
    from casebook.content.vocabulary import Vocabulary, vocabulary_of

    manifest = _pack_dir(game) / "game.yaml"
    data = load_yaml(manifest).data if manifest.is_file() else None
    return vocabulary_of(data) if isinstance(data, dict) else Vocabulary()


def _load_position(path: Path, pack_dir: Path) -> dict[str, Any]:
    """A position as plain data: validated by the position loader when the pack loads, else raw."""
    if (pack_dir / "game.yaml").is_file():
        from casebook.content.loader import load_pack
        from casebook.content.position import load_position, position_to_dict

        return position_to_dict(load_position(path, pack=load_pack(pack_dir)))
    data = load_yaml(path).data
    if not isinstance(data, dict):
        raise ContentError([Problem(str(path), 1, 1, "", "a position is a mapping")])
    # no manifest yet: resolve `counter:` references from the pack's counters.yaml, if any
    counters: dict[str, Any] = {}
    if (pack_dir / "counters.yaml").is_file():
        counters = {c["id"]: c for c in load_yaml(pack_dir / "counters.yaml").data.get("units") or []}
    units = []
    for u in data.get("units") or []:
        ref = counters.get(u.get("counter", ""), {})
        units.append({**ref, **{k: v for k, v in u.items() if k != "counter"}})
    return {**data, "units": units}


def _scenario_path(pack_dir: Path, scenario: str) -> Path:
    """The file of the pack's scenario ``scenario``: the manifest's ``scenarios:`` entry (a pack
    without a manifest: ``scenarios/<id>.yaml``). A scenario the pack has not is a usage error
    listing those it has, as ``play`` says it."""
    manifest = load_yaml(pack_dir / "game.yaml").data if (pack_dir / "game.yaml").is_file() else None
    listed = manifest.get("scenarios") if isinstance(manifest, dict) else None
    if isinstance(listed, dict):
        if scenario not in listed:
            raise click.BadParameter(f"{pack_dir.name} has no scenario {scenario!r} (scenarios: "
                                     f"{', '.join(map(str, listed))})", param_hint="--scenario")
        return pack_dir / str(listed[scenario])
    path = pack_dir / "scenarios" / f"{scenario}.yaml"
    if not path.is_file():
        raise ContentError([Problem(str(path), 0, 0, "", f"no scenario {scenario!r} in {pack_dir}")])
    return path


def _same_game(path: Path, pack_dir: Path) -> None:
    """A position of another game than the pack's is refused in one line (not as hundreds of
    unknown counters and hexes)."""
    manifest = load_yaml(pack_dir / "game.yaml").data if (pack_dir / "game.yaml").is_file() else None
    data = load_yaml(path).data
    game = manifest.get("id") if isinstance(manifest, dict) else None
    other = data.get("game") if isinstance(data, dict) else None
    if game and isinstance(other, str) and other != game:
        raise ContentError([Problem(str(path), 1, 1, "game", f"this position is for game {other!r}, the pack is "
                                                             f"{game!r} (render {other} --position {path})")])


def map_and_units(game: str, scenario: str | None = None, position: str | None = None
                  ) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """The map (plain data), the units to draw and a title, for the command's arguments."""
    pack_dir = _pack_dir(game)
    map_data = load_yaml(pack_dir / "map.yaml").data
    name = pack_dir.name
    if (pack_dir / "game.yaml").is_file():
        name = str(load_yaml(pack_dir / "game.yaml").data.get("name", name))
    units: list[dict[str, Any]] = []
    title = f"{name}: map"
    path: Path | None = None
    if scenario:
        path = _scenario_path(pack_dir, scenario)
    elif position:
        path = Path(position)
        _same_game(path, pack_dir)
    if path is not None:
        pos = _load_position(path, pack_dir)
        units = [dict(u) for u in pos.get("units") or []]
        if pos.get("map"):
            map_data = pos["map"]
        scen = pos.get("scenario") or {}
        title = f"{name}: {scen.get('name', path.stem)}, turn {pos.get('turn', 1)}"
    return map_data, units, title


@click.command("render")
@click.argument("game", callback=game_argument)
@click.option("--scenario", help="Draw the units of this scenario of the game (an id).")
@click.option("--position", type=click.Path(exists=True, dir_okay=False), help="Draw this position's units.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="SVG file to write.")
@click.option("--front", is_flag=True, help="Draw the front line between the sides' units (a picture, not a rule).")
def render(game: str, scenario: str | None, position: str | None, output: str, front: bool = False) -> int:
    """Draw the map of GAME (and a scenario's or position's units) as an SVG file. A pack that
    does not pass ``casebook lint`` is refused with its problems (exit 1), no file written."""
    if scenario and position:
        raise click.UsageError("give --scenario or --position, not both")
    if (_pack_dir(game) / "game.yaml").is_file():  # a pack: checked as lint checks it
        from casebook.tools.cmd_lint import pack_problems

        problems = pack_problems(game)[2]
        if problems:
            raise ContentError(problems)
    map_data, units, title = map_and_units(game, scenario, position)
    markers: list[dict[str, Any]] = []
    when = ""
    if scenario or position:
        pack_dir = _pack_dir(game)
        path = _scenario_path(pack_dir, scenario) if scenario else Path(str(position))
        pos = _load_position(path, pack_dir)
        markers = [dict(m) for m in pos.get("markers") or []]
        from casebook.content.loader import load_pack
        from casebook.content.sequence_data import sequence_from_dict
        from casebook.tools.render_units import step_subtitle

        pack = load_pack(pack_dir)
        sequence = sequence_from_dict(pack.sequence, file=str(pack.dir / pack.manifest["sequence"]))
        turn = int(pos.get("turn") or 1)
        # a scenario (no phase yet) is drawn as set up, before its first turn's sequence of play begins
        when = (step_subtitle(sequence, turn, pos.get("phase"), pos.get("step")) if pos.get("phase")
                else f"turn {turn} · set-up") + ". "
    north = map_data.get("north", "up")
    source = str(map_data.get("provenance") or "")  # the map's own provenance: rulebook / reconstructed: how
    subtitle = when + (f"Map: {source}." if source else "") + (f" North is to the {north}." if north != "up" else "")
    vocabulary = _vocabulary(game)
    svg = render_svg(map_data, units, title=title, subtitle=subtitle.strip(), markers=markers, front=front,
                     sides=vocabulary.sides, styles=vocabulary.styles)
    Path(output).write_text(svg, encoding="utf-8")
    drawn = sum(1 for u in units if u.get("hex"))  # render_svg draws only the units with a hex
    off = len(units) - drawn
    click.echo(f"wrote {output} ({drawn} units drawn" + (f"; {off} off the map)" if off else ")"))
    return 0
