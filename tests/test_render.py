"""casebook render: deterministic SVG of the map and of a position's units."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.grid import Grid
from casebook.core.hexgrid import HexSide, parse_hex
from casebook.tools.cmd_render import render
from casebook.tools.render import S, render_svg
from casebook.tools.render_units import front_sides, step_subtitle

PACK = Path(__file__).resolve().parent.parent / "games" / "moscow41"

MINI = {
    "layout": "flat-top-even-q", "north": "up", "size": {"columns": 4, "rows": 4},
    "terrain": {"default": "clear", "0202": "forest", "0303": "swamp"},
    "hexsides": [{"hexes": ["0101", "0102"], "river": True},
                 {"hexes": ["0202", "0203"], "major_river": True, "road": True, "rail": True},
                 {"hexes": ["0302", "0303"], "fortification": {"protects": "0303"}}],
    "towns": {"0202": {"name": "Testgrad", "kind": "city", "ip": 2},
              "0404": {"name": "Moscow", "kind": "city", "ip": 3}},
    "moscow": ["0404"],
    "entry_areas": {"A": ["0101"]},
}
UNITS = [
    {"id": "g1", "name": "7 Pz", "hex": "0203", "side": "german", "class": "armor", "strength": 4, "ma": 8},
    {"id": "g2", "name": "25/7", "hex": "0203", "side": "german", "class": "armor", "strength": 3, "ma": 8},
    {"id": "s1", "name": "252 RD", "hex": "0303", "side": "soviet", "class": "infantry", "strength": 6, "ma": 4},
    {"id": "s2", "name": "off map", "side": "soviet", "class": "infantry", "strength": 1, "ma": 4},
]


def test_render_is_deterministic_and_draws_towns_and_units():
    moscow = {"moscow": {"name": "Moscow", "colour": "#e6b1a3", "label": "MOSCOW"}}  # the pack's style of its hex set
    a = render_svg(MINI, UNITS, title="Mini", styles=moscow)
    assert a == render_svg(MINI, UNITS, title="Mini", styles=moscow)
    assert a.startswith("<?xml") and "<svg" in a
    for text in ("Testgrad", "MOSCOW", "Entry A", "7 Pz", "4-8", "252 RD", "6-4", "Mini"):  # 3-8 is under 4-8
        assert f">{text}<" in a, text
    assert "off map" not in a  # a unit with no hex is not drawn
    assert "random" not in a and "date" not in a.lower()


def test_a_stack_is_one_counter_with_a_count_badge():
    one = render_svg(MINI, UNITS[:1])
    two = render_svg(MINI, UNITS[:2])
    assert two.count(">X<") == one.count(">X<") == 0
    assert two.count('class="counter"') == one.count('class="counter"') == 1
    assert 'class="stack-count"' in two and 'class="stack-count"' not in one
    assert two.count('class="stacked"') == 1  # the edge of the counter behind
    assert ">4-8<" in two and ">3-8<" not in two  # the strongest unit is on top
    assert "badge = units in the hex" in two and "badge = units in the hex" not in one


def _texts(svg: str, cls: str) -> list[tuple[float, float, float, str]]:
    """(font size, x, y, text) of every <text class=cls>."""
    pat = re.compile(r'<text x="([\d.-]+)" y="([\d.-]+)" font-size="([\d.]+)"[^>]*class="' + cls + r'"[^>]*>([^<]*)<')
    return [(float(c), float(a), float(b), t) for a, b, c, t in pat.findall(svg)]


def _rects(svg: str, cls: str) -> list[tuple[float, float, float, float]]:
    pat = re.compile(r'<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"[^>]*class="' + cls + '"')
    return [tuple(map(float, m)) for m in pat.findall(svg)]


def test_hex_numbers_are_readable_on_the_full_map(tmp_path):
    out = tmp_path / "map.svg"
    result = CliRunner().invoke(render, ["moscow41", "--scenario", "october-blitz", "-o", str(out)],
                                standalone_mode=False)
    assert result.exception is None, result.output
    numbers = _texts(out.read_text(encoding="utf-8"), "hex-number")
    assert len(numbers) == 40 * 46  # every hex of the full map (40 columns, 46 rows) is numbered
    assert min(size for size, *_ in numbers) >= 7.0  # px at 100 %: was 3.6


def test_counters_are_smaller_than_the_hex_and_leave_its_number_free():
    svg = render_svg(MINI, UNITS)
    hex_height = S * math.sqrt(3)
    numbers = {t: (x, y) for _, x, y, t in _texts(svg, "hex-number")}
    for _x, _y, w, h in _rects(svg, "counter"):
        assert w < hex_height and h < hex_height and w <= 0.9 * S
    # the counter in 0203 starts below the baseline of the number 0203
    (x, y, w, h), = [r for r in _rects(svg, "counter") if abs(r[0] + r[2] / 2 - numbers["0203"][0]) < 1
                     and r[1] > numbers["0203"][1] - S]
    assert y > numbers["0203"][1]


def test_unit_markers_fatigue_oos_losses_and_reserve_are_drawn():
    marked = [{**UNITS[2], "fatigued": True, "oos": True, "losses": 2, "reserve": True}]
    svg = render_svg(MINI, marked)
    for field, tag in (("fatigued", "F"), ("oos", "OOS"), ("losses", "L2"), ("reserve", "R")):
        assert f'class="marker-{field}"' in svg and f">{tag}<" in svg, field
    assert "OOS: out of supply" in svg  # the legend lists the markers shown
    plain = render_svg(MINI, UNITS[2:3])
    assert "marker-" not in plain and "OOS: out of supply" not in plain


def test_the_front_line_is_optional_and_lies_between_the_sides():
    units = [{"id": "g", "hex": "0101", "side": "german", "class": "infantry", "strength": 1, "ma": 4},
             {"id": "s", "hex": "0104", "side": "soviet", "class": "infantry", "strength": 1, "ma": 4}]
    grid = Grid(layout="flat-top-even-q", columns=4, rows=4)
    sides = front_sides(grid, units)
    assert HexSide(parse_hex("0102"), parse_hex("0103")) in sides  # 0102 is nearer g, 0103 nearer s
    assert all(s.a != parse_hex("0101") and s.b != parse_hex("0104") for s in sides)
    assert 'class="front"' in render_svg(MINI, units, front=True)
    assert 'class="front"' not in render_svg(MINI, units)


def test_the_subtitle_names_the_phase_and_step_from_the_sequence(m41):
    text = step_subtitle(m41.sequence, 2, "weather", "temperature")
    assert text == "turn 2 · Weather Phase · Step 1: Temperature Check"
    assert "first_initiative" not in step_subtitle(m41.sequence, 1, "first_initiative", "replacement_reinforcement")


def test_render_command_writes_the_moscow41_map(tmp_path):
    out = tmp_path / "map.svg"
    result = CliRunner().invoke(render, ["moscow41", "-o", str(out)], standalone_mode=False)
    assert result.exception is None, result.output
    svg = out.read_text(encoding="utf-8")
    for name in ("Kalinin", "Volokolamsk", "Mozhaisk", "Maloyaroslavets", "Kaluga", "Smolensk", "MOSCOW"):
        assert f">{name}<" in svg, name
    again = tmp_path / "again.svg"
    CliRunner().invoke(render, ["moscow41", "-o", str(again)], standalone_mode=False)
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.skipif(not (PACK / "scenarios" / "october-blitz.yaml").is_file(), reason="no scenario yet")
def test_render_scenario_draws_its_units(tmp_path):
    out = tmp_path / "ob.svg"
    result = CliRunner().invoke(render, ["moscow41", "--scenario", "october-blitz", "-o", str(out)],
                                standalone_mode=False)
    assert result.exception is None, result.output
    svg = out.read_text(encoding="utf-8")
    from casebook.content.position import load_position

    # the set-up as played: errata applied (0.2.3.3A puts the 252 RD in 3111, with the 29th Army)
    placed = [u for u in load_position(PACK / "scenarios" / "october-blitz.yaml").units if u.hex]
    hexes = {u.hex for u in placed}
    assert svg.count('class="counter"') == len(hexes)  # one counter per stack
    badges = [int(n) for n in re.findall(r'class="stack-count" />\s*<text[^>]*>(\d+)</text>', svg)]
    assert sum(badges) + (len(hexes) - len(badges)) == len(placed)  # every placed unit is counted
    assert "The October Blitz" in svg
    assert "turn 1 · set-up." in svg  # a scenario has no phase yet: it is drawn as set up (subtitle)


def test_scenario_and_position_are_exclusive(tmp_path):
    pos = tmp_path / "p.yaml"
    pos.write_text("kind: position\n", encoding="utf-8")
    result = CliRunner().invoke(render, ["moscow41", "--scenario", "x", "--position", str(pos), "-o",
                                         str(tmp_path / "o.svg")], standalone_mode=False)
    assert result.exception is not None and "not both" in str(result.exception)


def test_render_of_a_scenario_the_game_has_not_is_a_usage_error_listing_its_scenarios(tmp_path):
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    r = CliRunner().invoke(cli, ["render", "kestrel_pass", "--scenario", "nosuch", "-o", str(tmp_path / "x.svg")])
    assert r.exit_code == 2 and "kestrel_pass has no scenario 'nosuch' (scenarios: meeting)" in r.output
    assert not (tmp_path / "x.svg").exists()


def test_render_of_another_games_position_says_so_in_one_line(tmp_path):
    from pathlib import Path

    from click.testing import CliRunner

    from casebook.tools.cli import cli

    blitz = Path(__file__).resolve().parents[1] / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"
    r = CliRunner().invoke(cli, ["render", "kestrel_pass", "--position", str(blitz), "-o", str(tmp_path / "x.svg")])
    message = str(r.exception)  # a ContentError: `casebook` prints it and exits 1
    assert "this position is for game 'moscow41', the pack is 'kestrel_pass'" in message
    assert message.count("\n") == 1 and not (tmp_path / "x.svg").exists()


def test_the_pack_s_styles_give_the_terrain_fills_and_legend_names(tmp_path):
    """Render colours and legend come from the pack (#14 item 4, found tried as a designer would:
    a new terrain was drawn grey with no legend entry): Kestrel Pass's vocabulary `styles:` names its
    forest 'Forested ridge'; a copy adding a `desert` terrain with a style draws and lists it."""
    import shutil

    from click.testing import CliRunner

    from casebook.tools.cli import cli

    games = Path(__file__).resolve().parents[1] / "games"
    out = tmp_path / "kp.svg"
    assert CliRunner().invoke(cli, ["render", str(games / "kestrel_pass"), "-o", str(out)]).exit_code == 0
    svg = out.read_text(encoding="utf-8")
    assert ">Forested ridge<" in svg and 'fill="#7fa874"' in svg and ">Forest<" not in svg
    pack = tmp_path / "kp"
    shutil.copytree(games / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "tests", "__pycache__"))
    tec = (pack / "tables" / "tec.yaml").read_text(encoding="utf-8")
    (pack / "tables" / "tec.yaml").write_text(tec.replace("values: [clear, forest]", "values: [clear, forest, desert]")
                                              .replace("  forest: 2", "  forest: 2\n  desert: 2"), encoding="utf-8")
    board = (pack / "map.yaml").read_text(encoding="utf-8")
    (pack / "map.yaml").write_text(board.replace("  default: clear", '  default: clear\n  "0101": desert'),
                                   encoding="utf-8")
    manifest = (pack / "game.yaml").read_text(encoding="utf-8")
    styled = manifest.replace("  styles:\n", '  styles:\n    desert: {name: "Sand sea", colour: "#e8d49a"}\n')
    (pack / "game.yaml").write_text(styled, encoding="utf-8")
    r = CliRunner().invoke(cli, ["render", str(pack), "-o", str(tmp_path / "d.svg")])
    assert r.exit_code == 0, (r.output, r.exception)
    drawn = (tmp_path / "d.svg").read_text(encoding="utf-8")
    assert ">Sand sea<" in drawn and 'fill="#e8d49a"' in drawn


def test_a_style_for_no_terrain_or_hex_set_and_a_bad_colour_fail_lint(tmp_path):
    import shutil

    from click.testing import CliRunner

    from casebook.tools.cli import cli

    games = Path(__file__).resolve().parents[1] / "games"
    pack = tmp_path / "kp"
    shutil.copytree(games / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "tests", "__pycache__"))
    manifest = (pack / "game.yaml").read_text(encoding="utf-8")
    (pack / "game.yaml").write_text(manifest.replace("    forest: {name", "    forrest: {name"), encoding="utf-8")
    r = CliRunner().invoke(cli, ["lint", str(pack)])
    assert r.exit_code == 1, r.output
    assert "styles.forrest: 'forrest' is neither a terrain of the map nor a hex set" in r.output
    assert "did you mean 'forest'" in r.output
    (pack / "game.yaml").write_text(manifest.replace('"#efe9cf"', '"sandish"'), encoding="utf-8")
    r = CliRunner().invoke(cli, ["lint", str(pack)])
    assert r.exit_code == 1 and "vocabulary.styles.clear.colour" in r.output, r.output


def test_a_hex_set_is_drawn_with_the_pack_s_style_and_label():
    """Moscow '41's `moscow` hex set: tint, legend name and the MOSCOW label are its vocabulary's
    (the renderer names no game); without a style the set is drawn as plain terrain."""
    from casebook.content.loader import load_pack
    from casebook.tools.render import render_svg

    pack = load_pack("moscow41")
    board = dict(pack.map)
    styled = render_svg(board, styles=pack.vocabulary.styles)
    assert ">MOSCOW<" in styled and "Moscow hex (each controlled separately, 1.1C)" in styled
    plain = render_svg(board, styles={})
    assert ">MOSCOW<" not in plain and "Moscow hex" not in plain
