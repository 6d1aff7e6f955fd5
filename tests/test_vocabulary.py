"""A game's vocabulary (casebook.content.vocabulary): sides, unit classes and sizes, weather and marker
kinds come from the manifest, and counters, scenarios and positions are checked against it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from casebook.content.loader import load_pack
from casebook.content.vocabulary import choice_problem
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


def _supply_pack(tmp_path: Path) -> Path:
    """The mini pack with sides blue/red and a track of its own, ``supply_points`` per side 0..12,
    in place of the IP track."""
    pack = _copy(tmp_path)
    _rename_sides(pack, {"german": "blue", "soviet": "red"})
    manifest = pack / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        'ip: {keys: [side], provenance: "reconstructed: a test track"}',
        'supply_points: {keys: [side], low: 0, high: 12, provenance: "reconstructed: a test track"}'),
        encoding="utf-8")
    scenario = pack / "scenarios" / "skirmish.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace(
        "ip: {blue: 10, red: 5}", "supply_points: {blue: 3, red: 0}"), encoding="utf-8")
    return pack


def test_a_pack_declares_its_own_track_lints_loads_and_round_trips_a_save(tmp_path):
    import pytest

    from casebook.content.position import dump_save
    from casebook.content.savecheck import load_save
    from casebook.core.errors import PositionError
    from casebook.script.engine import Engine, state_from_position

    pack = _supply_pack(tmp_path)
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 0, out.output
    engine = Engine.load(pack)
    assert list(engine.pack.vocabulary.tracks) == ["supply_points"]
    state = engine.declare(state_from_position(engine.pack.scenario("skirmish")))
    assert (state.track("supply_points", "blue"), state.track("supply_points", "red")) == (3, 0)
    assert state.add_track("supply_points", 9, "blue") == 12
    with pytest.raises(ValueError, match="supply_points.blue would go above 12"):
        state.add_track("supply_points", 1, "blue")
    with pytest.raises(ValueError, match="would go below 0"):
        state.add_track("supply_points", -1, "red")
    with pytest.raises(KeyError, match="no track 'ip' in this game"):
        state.add_track("ip", 1, "blue")
    assert dict(state.tracks()) == {"supply_points": {"blue": 12, "red": 0}}
    text = dump_save(state.to_dict())
    assert "\nsupply_points: {blue: 12, red: 0}\n" in text
    again = load_save(text, engine)
    assert dump_save(engine.declare(state_from_position(again)).to_dict()) == text
    save = tmp_path / "save.yaml"
    save.write_text(text.replace("supply_points:", "supply_point:").replace("red: 0}", "red: 13}"), encoding="utf-8")
    with pytest.raises(PositionError) as exc:
        load_save(save, engine)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("supply_points:"))
    assert f"save.yaml:{line}:1: supply_point: unknown key 'supply_point'" in str(exc.value)
    assert "(did you mean 'supply_points'?)" in str(exc.value)
    save.write_text(text.replace("red: 0}", "red: 13}"), encoding="utf-8")
    with pytest.raises(PositionError, match="supply_points.red: 13 is above the track's maximum 12"):
        load_save(save, engine)


def test_a_track_key_outside_its_declaration_is_located_with_a_suggestion(tmp_path):
    pack = _supply_pack(tmp_path)
    scenario = pack / "scenarios" / "skirmish.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("{blue: 3, red: 0}", "{blue: 3, rde: -1}"),
                        encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert "supply_points.rde: expected 'blue' or 'red', got 'rde' (did you mean 'red'?)" in out.output


def test_unit_flags_come_from_the_vocabulary(tmp_path):
    """A game's own unit statuses (Moscow '41's guards, hedgehog, scattered) are the vocabulary's
    ``unit_flags``: a declared flag loads, an undeclared key is located with a suggestion, a flag
    that is not a bool is refused."""
    pack = _copy(tmp_path)
    scenario = pack / "scenarios" / "skirmish.yaml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("hex: \"0505\"}", "hex: \"0505\", hedgehog: true}"), encoding="utf-8")
    assert CliRunner().invoke(cli, ["lint", str(pack)]).exit_code == 0
    unit = load_pack(pack).scenario("skirmish").units[3]
    assert (unit.id, unit.model_extra) == ("s-x1", {"hedgehog": True})
    scenario.write_text(text.replace("hex: \"0505\"}", "hex: \"0505\", hedgehgo: true, guards: 1}"), encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert "units.3.hedgehgo: unknown key 'hedgehgo': not a field of a unit nor a unit flag this game declares " \
           "(unit_flags: guards, hedgehog, scattered) (did you mean 'hedgehog'?)" in out.output
    assert "units.3.guards: unknown key 'guards', or a unit flag: expected true or false, got 1" in out.output
    manifest = pack / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("unit_flags: [guards, hedgehog, scattered]",
                                                                       "unit_flags: [guards]"), encoding="utf-8")
    scenario.write_text(text.replace("hex: \"0505\"}", "hex: \"0505\", hedgehog: true}"), encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1 and "units.3.hedgehog: unknown key 'hedgehog': not a field" in out.output


def test_a_map_s_named_hex_sets_come_from_the_vocabulary(tmp_path):
    """The map's ``moscow:`` list is a hex set the game declares (``hex_sets: [moscow]``): the
    board answers ``hex_set("moscow")``; an undeclared top-level map key is located with a
    suggestion."""
    from casebook.content.packcache import pack_board
    from casebook.core.hexgrid import parse_hex

    pack = _copy(tmp_path)
    map_file = pack / "map.yaml"
    map_file.write_text(map_file.read_text(encoding="utf-8") + 'moscow: ["0505"]\n', encoding="utf-8")
    assert CliRunner().invoke(cli, ["lint", str(pack)]).exit_code == 0
    board = pack_board(load_pack(pack))
    assert board.hex_set("moscow") == {parse_hex("0505")} and board.hex_set("capital") == frozenset()
    map_file.write_text(map_file.read_text(encoding="utf-8").replace("moscow:", "moskow:"), encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", str(pack)])
    assert out.exit_code == 1
    assert "moskow: unknown key 'moskow': not a key of a map nor a hex set this game declares " \
           "(hex_sets: moscow) (did you mean 'moscow'?)" in out.output
