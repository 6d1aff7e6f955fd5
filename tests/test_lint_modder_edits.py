"""Lint catches what a modder breaks (#14 item 6): the vocabulary's tracks, colours and sides, the
scenario victory block of the shared ``area_victory``, and a did-you-mean for a misspelt plugin,
map edge, victory rule, unit or game — each found by a fresh-user trial on a copied pack that
passed lint and then failed in play. A bad byte in a rule script is located at its line:column."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli, main
from tests._pack_edits import GAMES
from tests._pack_edits import copy_pack as _copy
from tests._pack_edits import edit as _edit
from tests._pack_edits import line_of as _line
from tests._pack_edits import lint_errors as _lint


def test_reversed_track_bounds_fail_lint(tmp_path):
    pack = _copy(tmp_path)
    _edit(pack / "game.yaml", "blue_vp: {low: 0, high: 10", "blue_vp: {low: 5, high: 2")
    assert (f"game.yaml:{_line(pack / 'game.yaml', 'blue_vp: {low')}:5: vocabulary.tracks.blue_vp: the track's "
            "bounds are reversed: low 5 is above high 2") in _lint(pack)


def test_a_scenario_track_below_its_minimum_fails_lint_set_or_unset(tmp_path):
    pack = _copy(tmp_path)
    _edit(pack / "game.yaml", "blue_vp: {low: 0, high: 10", "blue_vp: {low: 2, high: 10")
    assert "meeting.yaml:2:1: track 'blue_vp' is unset (0), below its minimum 2: give it a value" in _lint(pack)
    scenario = pack / "scenarios" / "meeting.yaml"
    _edit(scenario, "\nturn: 1\n", "\nturn: 1\nblue_vp: 1\n")
    assert f"meeting.yaml:{_line(scenario, 'blue_vp: 1')}:1: blue_vp: 1 is below the track's minimum 2" in _lint(pack)


def test_a_side_colour_must_be_a_colour_and_nothing_else_reaches_the_svg(tmp_path):
    pack = _copy(tmp_path)
    manifest = pack / "game.yaml"
    _edit(manifest, 'colour: "#8fb3de"', 'colour: "blueish"')
    _edit(manifest, 'ink: "#4c1010"', 'ink: "#fff\\"/><script>"')
    out = _lint(pack)
    assert (f"game.yaml:{_line(manifest, 'blueish')}:24: vocabulary.sides.blue.colour: not a colour: 'blueish'; "
            "use #rgb, #rrggbb or a CSS colour name (did you mean 'blue'?)") in out
    assert "vocabulary.sides.red.ink: not a colour: '#fff\"/><script>'" in out


def test_a_game_has_exactly_two_sides(tmp_path):
    pack = _copy(tmp_path)
    manifest = pack / "game.yaml"
    _edit(manifest, "    red: {name: Red,", "    green: {name: Green, colour: green}\n    red: {name: Red,")
    assert (f"game.yaml:{_line(manifest, '  sides:')}:3: vocabulary.sides: a game has exactly two sides (the "
            "engine's opponent of a side is the other one); got 3: blue, green, red") in _lint(pack)


def test_the_area_victory_block_is_typed(tmp_path):
    pack = _copy(tmp_path)
    scenario = pack / "scenarios" / "meeting.yaml"
    _edit(scenario, "  victory:\n", "  victory:\n    hexes: 3\n")
    assert f"meeting.yaml:{_line(scenario, 'hexes: 3')}:5: scenario.victory.hexes: unknown key 'hexes'" in _lint(pack)


def test_a_misspelt_plugin_and_map_edge_get_a_did_you_mean(tmp_path):
    pack = _copy(tmp_path)
    manifest = pack / "game.yaml"
    _edit(manifest, "area_movement, area_results", "area_movment, area_results")
    out = _lint(pack)
    _edit(manifest, "edge: west", "edge: wset")
    assert "plugins.2: plugin 'area_movment' is not registered (no entry point 'area_movment' in group " \
           "casebook.plugins) (did you mean 'area_movement'?)" in out
    assert "vocabulary.sides.blue.edge: expected 'north', 'east', 'south' or 'west', got 'wset' " \
           "(did you mean 'west'?)" in _lint(pack)


def test_a_misspelt_battle_for_moscow_victory_rule_gets_a_did_you_mean(tmp_path):
    pack = _copy(tmp_path, "battle_for_moscow")
    scenario = pack / "scenarios" / "campaign.yaml"
    _edit(scenario, "    rule: original", "    rule: orignal")
    assert (f"campaign.yaml:{_line(scenario, 'orignal')}:5: scenario.victory.rule: expected 'original' or 'later', "
            "got 'orignal' (did you mean 'original'?)") in _lint(pack)


def test_a_bad_byte_in_a_rule_script_is_located_in_plain_words(tmp_path):
    pack = _copy(tmp_path)
    script = pack / "rules" / "zoc.rules"
    lines = script.read_bytes().count(b"\n")
    script.write_bytes(script.read_bytes() + b"# caf\xe9 note\n")
    assert (f"zoc.rules:{lines + 1}:6: not UTF-8 text: byte 0xe9 here cannot be read (save the script as UTF-8)"
            in _lint(pack))


def test_a_misspelt_game_and_unit_get_a_did_you_mean(capsys):
    out = CliRunner().invoke(cli, ["lint", "kestrelpass"])
    assert out.exit_code == 2 and "(did you mean 'kestrel_pass'?)" in out.output
    scenario = str(GAMES / "kestrel_pass" / "scenarios" / "meeting.yaml")
    with pytest.raises(SystemExit) as exc:
        main(["ask", scenario, "reach", "b-11"])
    # a question asked wrongly is a usage error of `ask` (exit 2, README "Commands")
    assert exc.value.code == 2 and "no unit 'b-11' on the map (did you mean 'b-1'?)" in capsys.readouterr().err


def test_a_broken_sequence_or_manifest_is_reported_without_the_script_errors_it_causes(tmp_path):
    """Garbage in sequence.yaml, or no game.yaml: one error, not 8+ "unknown fact `blue_turn`" of
    the rule scripts that name its phases."""
    pack = _copy(tmp_path)
    (pack / "sequence.yaml").write_text("kind: sequence\n", encoding="utf-8")
    out = _lint(pack)
    assert "sequence.yaml:1:1: missing required key 'phases'" in out
    assert "unknown fact" not in out and "rule scripts not checked" in out
    assert out.rstrip().endswith(": 2 errors")
    (pack / "game.yaml").unlink()
    out = _lint(pack)
    assert "no game.yaml in the folder" in out and "unknown fact" not in out
    assert out.rstrip().endswith(": 1 error")


@pytest.mark.case("18.1.3A")
def test_18_1_3A_a_victory_town_off_the_map_fails_lint_with_the_other_errors(tmp_path):
    """A fresh user's check (session 19): the first hex of the Blitz's ``three-towns`` (18.1.3A:
    Kalinin 3733) set to 9999 passed lint. Every hex the victory block names is checked against the
    map, at its file:line:column, beside the load's other errors (here a unit off the map too)."""
    pack = _copy(tmp_path, "moscow41")
    scenario = pack / "scenarios" / "october-blitz.yaml"
    _edit(scenario, 'hexes: ["3733"', 'hexes: ["9999"')
    _edit(scenario, '{counter: "g-102id", hex: "4009"}', '{counter: "g-102id", hex: "4099"}')
    out = _lint(pack)
    line = _line(scenario, '"9999"')
    col = scenario.read_text(encoding="utf-8").splitlines()[line - 1].index('"9999"') + 1
    assert (f"october-blitz.yaml:{line}:{col}: scenario.victory.german.0.hexes.0: hex 9999 is off the map "
            "(hexes 0108..4053)") in out
    assert f"october-blitz.yaml:{_line(scenario, '4099')}:" in out and "hex 4099 is off the map" in out
    _edit(scenario, "\nturn: 1\n", '\nturn: "one"\n')  # a schema error: the raw data's checks find it too
    out = _lint(pack)
    assert f"october-blitz.yaml:{line}:{col}: scenario.victory.german.0.hexes.0: hex 9999 is off the map" in out
    assert "turn: expected an integer, got 'one'" in out
