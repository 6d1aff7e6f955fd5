"""A move names the TEC cells of the path it takes (issue #15, deliverable 3): `ask move` and the
`move` event of play cite the Terrain Effects Chart cell of each hex entered — the cell of the way
the hex was entered by (its terrain, or the road through the hexside crossed) and the hexside's
cell — once each, at the line of the file the value came from, and no cell of a hex the reach or
supply searches merely looked at (9.2A, 9.2B). docs/examples/reach-move.yaml: forest in 0303, a
road through the 0302-0303 hexside, swamp in 0603, a river between 0202 and 0203; Dry ground.
Every expected line number is found by reading the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.content.position import load_position, position_to_dict
from casebook.core.game import Game
from casebook.tools.cli import cli
from casebook.tools.cmd_ask import why_not_lines

ROOT = Path(__file__).resolve().parents[3]
TABLES = ROOT / "games" / "moscow41" / "tables"
POSITION = ROOT / "docs" / "examples" / "reach-move.yaml"


def cell(file: str, key: str, row: str, column: str = "dry") -> str:
    """``tables/FILE:LINE`` of the cell (``key``, ``row``, ``column``) as written: the row's line
    when the row is written on one line, else its column's line below it."""
    lines = (TABLES / file).read_text(encoding="utf-8").splitlines()
    at = next(i for i, t in enumerate(lines) if t == f'  "{key}":')
    at = next(i for i in range(at + 1, len(lines)) if lines[i].startswith(f'    "{row}":'))
    if lines[at].rstrip().endswith(":"):  # written one cell a line
        at = next(i for i in range(at + 1, len(lines)) if lines[i].startswith(f'      "{column}":'))
    else:
        assert f"{column}: " in lines[at]
    return f"tables/{file}:{at + 1}"


def asked_cells(*args: str) -> list[str]:
    out = CliRunner().invoke(cli, ["ask", str(POSITION), "move", *args, "--json"])
    assert out.exit_code == 0, out.output
    answer = json.loads(out.output)
    assert answer["legal"], answer
    sources = [ln["source"] for ln in answer["lines"]]
    assert any(s.startswith("movement.rules:") for s in sources)  # the `lookup tec(` line that read them
    return [s for s in sources if s.startswith("tables/")]


@pytest.fixture(scope="module")
def game():
    return Game.load("moscow41", "october-blitz")


def event_cells(game, action: str, *, g1_at: str = "0202") -> list[str]:
    text = POSITION.read_text(encoding="utf-8").replace('ma: 4, hex: "0202"', f'ma: 4, hex: "{g1_at}"')
    state = game.state_from_dict(position_to_dict(load_position(text, pack=game.engine.pack)))
    state.apply(action)
    move = [e for e in state.trace if e.kind == "move"][-1]
    sources = [ln["source"] for ln in move.data["lines"]]
    assert sources.count("movement.rules:19") == 1  # lookup tec(…), the line that read the cells
    return [s for s in sources if s.startswith("tables/")]


@pytest.mark.case("9.2A")
def test_9_2A_a_one_hex_move_cites_the_cell_of_the_hex_entered_only():
    # g1 (infantry) 0202 -> forest 0303: 2 MP, the forest cell; not the swamp, road or clear cells
    # of the hexes the reach and the supply searches looked at
    assert asked_cells("g1", "0303") == [cell("tec.yaml", "forest", "infantry")]


@pytest.mark.case("9.2A", "9.2B")
def test_9_2B_a_move_along_a_road_cites_the_road_cell_not_the_forest_it_did_not_pay():
    # 0302 (clear, 1 MP) then 0303 through the road hexside 0302-0303: 1 MP by the road (9.2B)
    assert asked_cells("g1", "0302", "0303") == [cell("tec.yaml", "clear", "infantry"),
                                                 cell("tec.yaml", "road", "infantry")]


@pytest.mark.case("9.2A", "9.2B")
def test_9_2B_crossing_a_river_cites_the_hex_and_the_hexside_cells():
    assert asked_cells("g1", "0203") == [cell("tec.yaml", "clear", "infantry"),
                                         cell("tec_hexside.yaml", "river", "infantry")]


@pytest.mark.case("9.2A")
def test_9_2A_a_multi_hex_move_cites_each_cell_once():
    # p1 (armor, MA 8): four clear hexes at 1 MP, then swamp 0603 at 4 MP (a cell written on its own line)
    want = [cell("tec.yaml", "clear", "armor"), cell("tec.yaml", "swamp", "armor")]
    assert want[1] != f"tables/tec.yaml:{int(want[0].split(':')[1])}"
    assert asked_cells("p1", "0204", "0304", "0403", "0503", "0603") == want


@pytest.mark.case("9.2A", "9.2B")
def test_9_2A_move_events_name_the_same_cells_as_ask_move(game):
    assert event_cells(game, "german: move stack=0202 path=0303") == [cell("tec.yaml", "forest", "infantry")]
    assert event_cells(game, "german: move stack=0302 path=0303", g1_at="0302") == [cell("tec.yaml", "road", "infantry")]
    path = "0203,0304,0403,0503,0603"  # the path play offers p1 to 0603
    assert asked_cells("p1", *path.split(",")) == event_cells(game, f"german: move stack=0104 path={path}") == [
        cell("tec.yaml", "clear", "armor"), cell("tec.yaml", "swamp", "armor")]
    # again, every cost now found in the engine's caches: the same cells
    assert event_cells(game, "german: move stack=0202 path=0303") == [cell("tec.yaml", "forest", "infantry")]


@pytest.mark.case("9.1A", "9.2A")
def test_9_1A_a_refused_step_cites_the_cell_of_the_hex_it_could_not_pay_for():
    # p1: 1 + 3 (forest 0303) + 1 + 1 = 6 of 8 MP; swamp 0603 costs 4 (9.1A)
    out = CliRunner().invoke(cli, ["ask", str(POSITION), "move", "p1", "0203", "0303", "0403", "0503", "0603", "--json"])
    answer = json.loads(out.output)
    assert answer["refused"]["hex"] == "0603" and answer["refused"]["cases"] == ["9.1A", "9.2C", "9.2A"]
    assert [ln["source"] for ln in answer["lines"] if ln["source"].startswith("tables/")] == [
        cell("tec.yaml", "clear", "armor"), cell("tec.yaml", "forest", "armor"), cell("tec.yaml", "swamp", "armor")]


def _why(game, action: str) -> tuple[tuple[str, ...], list[str]]:
    """``ask … why`` (and play's refusal, :func:`why_not_lines`): the cases and line sources."""
    state = game.state_from_dict(position_to_dict(load_position(POSITION.read_text(encoding="utf-8"),
                                                                pack=game.engine.pack)))
    cases, _reason, lines = why_not_lines(state, action)
    return cases, [ln["source"] for ln in lines]


def _asked_lines(*args: str) -> list[str]:
    out = CliRunner().invoke(cli, ["ask", str(POSITION), "move", *args, "--json"])
    return [ln["source"] for ln in json.loads(out.output)["lines"]]


@pytest.mark.case("9.1A", "9.2A", "9.2B")
def test_9_1A_an_mp_shortage_names_the_ma_line_and_the_priced_steps_cells_in_ask_why_and_play(game):
    # p1: 6 of 8 MP spent, swamp 0603 costs 4: the MA line, the TEC column's (Dry, 4.1B: it chose
    # the cells; session 17), the lookup line, the cells of the four steps
    cases, why = _why(game, "german: move stack=0104 path=0203,0303,0403,0503,0603")
    assert cases == ("9.1A", "9.2C", "9.2A")
    assert why == _asked_lines("p1", "0203", "0303", "0403", "0503", "0603") == [
        "movement.rules:7", "weather.rules:33", "movement.rules:19", cell("tec.yaml", "clear", "armor"),
        cell("tec.yaml", "forest", "armor"), cell("tec.yaml", "swamp", "armor")]
    # g1 (MA 4): across the river 0203 (2 MP), 0204, 0304, no MP left for 0404: the river crossed
    # earlier decided it too (its lookup line and hexside cell), not only the MA line
    cases, why = _why(game, "german: move stack=0202 path=0203,0204,0304,0404")
    assert cases == ("9.1A", "9.2C", "9.2A", "9.2B")
    assert why == _asked_lines("g1", "0203", "0204", "0304", "0404") == [
        "movement.rules:7", "weather.rules:33", "movement.rules:19", "movement.rules:20", cell("tec.yaml", "clear", "infantry"),
        cell("tec_hexside.yaml", "river", "infantry")]


@pytest.mark.case("9.2A")
def test_9_2A_ask_reach_cites_the_cells_of_the_cheapest_paths_it_lists():
    # g1 (infantry, MA 4) reaches clear hexes and forest 0303 (by its own hexside, 2 MP); the
    # swamp 0603 is out of reach: not cited, nor the road cell (no listed path takes the road)
    out = CliRunner().invoke(cli, ["ask", str(POSITION), "reach", "g1", "--json"])
    answer = json.loads(out.output)
    assert answer["hexes"]["0303"] == 2 and "0603" not in answer["hexes"]
    assert [ln["source"] for ln in answer["lines"] if ln["source"].startswith("tables/")] == [
        cell("tec.yaml", "clear", "infantry"), cell("tec.yaml", "forest", "infantry")]


@pytest.mark.case("9.2A")
def test_9_2A_explain_prints_the_tec_cell_a_move_event_names(game, tmp_path):
    state = game.state_from_dict(position_to_dict(load_position(POSITION.read_text(encoding="utf-8"),
                                                                pack=game.engine.pack)))
    state.apply("german: move stack=0202 path=0303")
    move = [e for e in state.trace if e.kind == "move"][-1]
    trace = tmp_path / "trace.jsonl"
    trace.write_text(state.trace.dumps(), encoding="utf-8")
    shown = CliRunner().invoke(cli, ["explain", str(trace), str(move.seq), "--pack", str(TABLES.parent)])
    assert shown.exit_code == 0, shown.output
    forest = cell("tec.yaml", "forest", "infantry")
    assert f'{forest}  "forest": "infantry": {{dry: 2, frozen: 2, mud: {{value: 2, provenance: "reconstructed: the Dry value, ' \
        f'4.3E (the Mud column is the Dry, Mud and Frozen Conditions value on the TEC)"}}, snow: 3}}' in shown.output
