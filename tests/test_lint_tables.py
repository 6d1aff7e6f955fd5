"""Lint catches what a modder breaks (#14): a CRT cell outside the table's closed set of values, a
map terrain the Terrain Effects Chart has no row for — each at its file:line:column."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from casebook.tools.cli import cli

GAMES = Path(__file__).resolve().parent.parent / "games"


def _copy(tmp_path: Path, game: str) -> Path:
    pack = tmp_path / game
    shutil.copytree(GAMES / game, pack, ignore=shutil.ignore_patterns("golden"))
    return pack


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in t)


def test_11_0B_a_moscow41_crt_cell_outside_the_result_notation_is_refused(tmp_path):
    pack = _copy(tmp_path, "moscow41")
    crt = pack / "tables" / "crt.yaml"
    text = crt.read_text(encoding="utf-8")
    crt.write_text(text.replace('"3:1": {-2: "1/F"', '"3:1": {-2: "1/X"', 1), encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert f"crt.yaml:{_line_of(crt, '1/X')}:" in out.output and "'1/X'" in out.output


def test_a_map_terrain_the_tec_does_not_know_is_refused_with_a_suggestion(tmp_path):
    pack = _copy(tmp_path, "battle_for_moscow")
    map_file = pack / "map.yaml"
    map_file.write_text(map_file.read_text(encoding="utf-8").replace('"0201": forest', '"0201": forrest', 1),
                        encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert (f"map.yaml:{_line_of(map_file, 'forrest')}:3: terrain.0201: terrain 'forrest' is not a row of table "
            "'tec' (clear, forest) (did you mean 'forest'?)") in out.output


def test_a_yaml_error_is_reported_once_though_two_loaders_read_the_file(tmp_path):
    pack = _copy(tmp_path, "battle_for_moscow")
    tec = pack / "tables" / "tec.yaml"
    tec.write_text(tec.read_text(encoding="utf-8") + "kind: table\n  bad: [\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert out.output.count("duplicate key 'kind'") == 1 and out.output.count("YAML syntax error") == 1
    assert out.output.rstrip().endswith(": 2 errors")
