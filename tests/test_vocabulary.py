"""A game's vocabulary (casebook.core.vocabulary): sides, unit classes and sizes, weather and marker
kinds come from the manifest, and counters, scenarios and positions are checked against it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from casebook.core.content import load_pack
from casebook.core.vocabulary import choice_problem
from casebook.tools.cli import cli

MINI = Path(__file__).parent / "packs" / "mini"


def _copy(tmp_path: Path) -> Path:
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    return pack


def _rename_sides(pack: Path, names: dict[str, str]) -> None:
    for path in pack.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        for old, new in names.items():
            text = re.sub(rf"\b{old}\b", new, text)
        path.write_text(text, encoding="utf-8")


def test_a_game_with_sides_blue_and_red_lints_and_loads(tmp_path):
    pack = _copy(tmp_path)
    _rename_sides(pack, {"german": "blue", "soviet": "red"})
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 0, out.output
    loaded = load_pack(pack)
    assert loaded.vocabulary.side_ids == ("blue", "red")
    assert loaded.vocabulary.side("blue").edge == "west"
    assert {u.side for u in loaded.scenario("skirmish").units} == {"blue", "red"}


def test_a_side_the_vocabulary_does_not_list_is_located_with_a_suggestion(tmp_path):
    pack = _copy(tmp_path)
    counters = pack / "counters.yaml"
    counters.write_text(counters.read_text(encoding="utf-8").replace("side: soviet", "side: sovet", 1), encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    line = next(i for i, t in enumerate(counters.read_text(encoding="utf-8").splitlines(), 1) if "sovet" in t)
    assert f"counters.yaml:{line}:" in out.output
    assert "side: expected 'german' or 'soviet', got 'sovet' (did you mean 'soviet'?)" in out.output


def test_weather_and_marker_kinds_come_from_the_vocabulary(tmp_path):
    pack = _copy(tmp_path)
    scenario = pack / "scenarios" / "skirmish.yaml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("temperature: warm", "temperature: balmy", 1), encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert "weather.temperature: expected 'warm', 'cold' or 'arctic', got 'balmy'" in out.output


def test_choice_problem_lists_the_choices_and_is_silent_when_nothing_is_declared():
    assert choice_problem("armr", ("infantry", "armor")) == \
        "expected 'infantry' or 'armor', got 'armr' (did you mean 'armor'?)"
    assert choice_problem("anything", ()) is None
    assert choice_problem("armor", ("infantry", "armor")) is None


def test_play_takes_players_by_the_game_s_sides_and_names_them_on_a_mistake(tmp_path):
    from casebook.tools.cmd_play import parse_players

    assert parse_players(("soviet=human",)) == {"soviet": ("human", "")}
    out = CliRunner().invoke(cli, ["play", "battle_for_moscow", "--player", "russian=human", "--out", str(tmp_path)])
    assert out.exit_code == 2
    assert "unknown side 'russian'; this game's sides: german, soviet" in out.output


def test_render_colours_and_legend_come_from_the_vocabulary(tmp_path):
    pack = _copy(tmp_path)
    _rename_sides(pack, {"german": "blue", "soviet": "red"})
    manifest = pack / "game.yaml"
    text = manifest.read_text(encoding="utf-8").replace('blue: {name: Germans, colour: "#a8b3ba"',
                                                       'blue: {name: Blue Army, colour: "#1133cc"')
    manifest.write_text(text.replace("red: {name: Soviets", "red: {name: Red Army"), encoding="utf-8")
    svg = tmp_path / "map.svg"
    out = CliRunner().invoke(cli, ["render", str(pack), "--scenario", "skirmish", "-o", str(svg)])
    assert out.exit_code == 0, out.output
    text = svg.read_text(encoding="utf-8")
    assert "Blue Army unit: strength-MA" in text and "Red Army unit: strength-MA" in text and "#1133cc" in text
    assert "German" not in text and "Soviet" not in text
