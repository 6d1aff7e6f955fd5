"""Table rows and cells name the cases that state them (issue #15 item 3, session 17, rows17).

- ``ask income`` and the ``ip-collection`` event name the Turn Track row the bonus was read from
  (1.2: "listed on the TT for each player is the amount of Initiative Bonus"), beside the
  ``track_bonus`` line, as ``ask reinforcements`` names its row; the row cites the provenance
  nearest the value read — Turn 13's German bonus of 17 is 1.3B's worked example (``rulebook:
  1.3B`` on ``german``), the other turns the table's (0.1.1C, 18.2.2).
- Rows that cited no case cite the case that governs them: the terrain rows of the Combat
  Modifiers Chart 10.4B ("Terrain modifiers are applied when the defending unit occupies the
  terrain listed"), the Initiative Chart's rows 1.1A and 1.3B, the Weather Table's 3.0B, 3.0C.
- A TEC cell cites what states it: a Mud cell 4.3E (the Mud column is the Dry value), a Dry,
  Frozen or Snow cell the table's 9.2A, not the Mud cases (4.3E, 4.3D) on any ground.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.areas.initiative import collect_ips
from casebook.content.tablelines import cited_at
from casebook.tools.cli import cli
from casebook.tools.cmd_explain import changed_line
from tests._pack_edits import line_of
from tests.conftest import make_ctx

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "games" / "moscow41"
EXAMPLES = ROOT / "docs" / "examples"
BLITZ = PACK / "scenarios" / "october-blitz.yaml"
TRACK = PACK / "tables" / "turn_track.yaml"


def ask(position: Path, *question: str) -> dict:
    run = CliRunner().invoke(cli, ["ask", str(position), *question, "--json"])
    assert run.exit_code == 0, run.output
    return json.loads(run.output)


def sources(answer: dict) -> list[str]:
    return [ln["source"] for ln in answer["lines"]]


def _row(turn: int) -> str:
    return f"tables/turn_track.yaml:{line_of(TRACK, '{turn: ' + str(turn) + ',')}"


def _collect(m41, side: str, turn: int) -> list[dict]:
    ctx = make_ctx(m41, f"kind: position\nformat: 1\ngame: moscow41\nturn: {turn}\n"
                        "weather: {temperature: warm, ground: dry}\nip: {german: 0, soviet: 0}\n"
                        'control: {"1308": german, "2242": soviet}\n', trace=True)
    collect_ips(ctx, side, die=3)
    [event] = [e for e in ctx.trace if e.kind == "ip-collection"]
    return event.data["lines"]


@pytest.mark.case("1.2", "0.7.2.1A")
def test_1_2_ask_income_names_the_turn_track_row_of_the_bonus():
    got = ask(BLITZ, "income", "german")  # the Blitz begins on Turn 1: the Germans' bonus of 22
    assert (got["track_bonus"], _row(1)) == (22, "tables/turn_track.yaml:23")
    [row] = [ln for ln in got["lines"] if ln["source"].startswith("tables/turn_track.yaml")]
    assert (row["source"], row["cases"]) == ("tables/turn_track.yaml:23", ["0.1.1C", "18.2.2"])
    assert row["text"].startswith('- {turn: 1, date: "1941-10-02"') and "german: {ip: 22," in row["text"]
    assert sources(got).index("initiative.rules:75") < sources(got).index(row["source"])
    assert got["cases"][-2:] == ["0.1.1C", "18.2.2"]  # the row's cases, after the rule lines'
    # the Initiative Chart's rows of the towns held (Roslavl, Smolensk) cite 1.1A and 1.3B
    chart = [ln for ln in got["lines"] if ln["source"].startswith("tables/initiative_chart.yaml")]
    assert [(ln["source"], ln["cases"]) for ln in chart] == [
        ("tables/initiative_chart.yaml:19", ["1.1A", "1.3B"]), ("tables/initiative_chart.yaml:21", ["1.1A", "1.3B"])]


@pytest.mark.case("1.3B", "1.2")
def test_1_3B_the_ip_collection_event_names_the_row_after_the_bonus_line_turn_13_citing_its_example(m41):
    german = _collect(m41, "german", 13)
    at = [ln["source"] for ln in german].index("initiative.rules:75")
    assert german[at + 1] == {"source": _row(13), "cases": ["1.3B"]}  # german: {provenance: "rulebook: 1.3B", ip: 17}
    assert _row(13) == "tables/turn_track.yaml:35"
    soviet = _collect(m41, "soviet", 13)
    at = [ln["source"] for ln in soviet].index("initiative.rules:75")
    assert soviet[at + 1] == {"source": "tables/turn_track.yaml:35", "cases": ["0.1.1C", "18.2.2"]}
    assert {"source": "tables/initiative_chart.yaml:21", "cases": ["1.1A", "1.3B"]} in german  # Smolensk
    assert {"source": "tables/initiative_chart.yaml:13", "cases": ["1.1A", "1.3B"]} in soviet  # Moscow 2242


@pytest.mark.case("1.2")
def test_1_2_no_bonus_line_no_turn_track_row(m41, tmp_path):
    from games.moscow41.tests.test_moved_rules_b import edited

    no_bonus = edited(m41, tmp_path, "initiative.rules", "  track_bonus  by 1.2, 0.7.2.1A\n", "")
    lines = _collect(no_bonus, "german", 5)
    assert not [ln for ln in lines if ln["source"].startswith("tables/turn_track")]
    assert [ln for ln in _collect(m41, "german", 5) if ln["source"].startswith("tables/turn_track")] == [
        {"source": _row(5), "cases": ["0.1.1C", "18.2.2"]}]


@pytest.mark.case("1.3B")
def test_1_3B_explain_judges_a_row_read_for_one_field_by_that_fields_provenance():
    known = {"1.3B", "0.1.1C", "18.2.2"}
    assert cited_at(PACK, "tables/turn_track.yaml", 35, known) == ["0.1.1C", "18.2.2"]
    assert cited_at(PACK, "tables/turn_track.yaml", 35, known, ["1.3B"]) == ["1.3B"]
    text = TRACK.read_text(encoding="utf-8").split("\n")[34]
    assert changed_line(_row(13), text, ["1.3B"], PACK, known) is None
    assert changed_line(_row(13), text, ["0.1.1C", "18.2.2"], PACK, known) is None
    assert changed_line(_row(12), text, ["1.3B"], PACK, known) == (
        "tables/turn_track.yaml:34 cites 0.1.1C, 18.2.2 now, the trace recorded 1.3B")


@pytest.mark.case("10.4B")
def test_10_4B_the_terrain_rows_of_the_combat_modifiers_chart_cite_10_4B(m41):
    rows = {r["id"]: m41.pack.table_lines.row("combat_modifiers", r) for r in m41.pack.records["combat_modifiers"]}
    assert [(rows[f"terrain_{t}"]["source"], rows[f"terrain_{t}"]["cases"]) for t in ("forest", "swamp", "town", "city")] == [
        ("tables/combat_modifiers.yaml:26", ["10.4B"]), ("tables/combat_modifiers.yaml:27", ["10.4B"]),
        ("tables/combat_modifiers.yaml:28", ["10.4B"]), ("tables/combat_modifiers.yaml:29", ["10.4B"])]


@pytest.mark.case("3.0B", "3.0C")
def test_3_0B_the_weather_table_cells_cite_the_rolls_found_on_them(m41):
    lines = m41.pack.table_lines
    assert lines.cell("weather_table", column="temperature", roll=5) == {
        "source": "tables/weather_table.yaml:14", "cases": ["3.0B", "3.0C"], "text": lines.cell(
            "weather_table", column="temperature", roll=-3)["text"]}
    assert lines.cell("weather_table", column="precipitation", roll=5)["cases"] == ["3.0B", "3.0C"]


@pytest.mark.case("4.3E", "9.2A", "9.2B")
def test_4_3E_a_tec_cell_cites_its_own_column_mud_cells_4_3E_the_others_9_2A(m41):
    lines = m41.pack.table_lines

    def cases(table: str, **at: str) -> list[str]:
        return lines.cell(table, **at)["cases"]

    assert cases("tec", terrain="forest", unit="infantry", column="dry") == ["9.2A"]
    assert cases("tec", terrain="forest", unit="infantry", column="frozen") == ["9.2A"]
    assert cases("tec", terrain="forest", unit="infantry", column="snow") == ["9.2A"]
    assert cases("tec", terrain="forest", unit="infantry", column="mud") == ["4.3E"]
    assert cases("tec", terrain="clear", unit="infantry", column="dry") == ["9.2B"]  # its own: 9.2B's example
    assert cases("tec_hexside", feature="river", unit="cavalry", column="dry") == ["9.2B"]
    assert cases("tec_hexside", feature="river", unit="cavalry", column="mud") == ["4.3E"]
    every = [cases("tec", terrain=t, unit=u, column=c) for t in ("clear", "forest", "swamp", "town", "city", "road", "trail")
             for u in ("infantry", "cavalry", "armor", "mechanized", "hq", "remnant", "ski", "paratroop")
             for c in ("dry", "frozen", "mud", "snow")]
    assert sum(1 for c in every if c == ["4.3E"]) == 56 and not [c for c in every if "4.3D" in c]


@pytest.mark.case("9.2B", "4.1B")
def test_9_2B_a_dry_reach_answer_cites_no_mud_case():
    got = ask(EXAMPLES / "reach-move.yaml", "reach", "g1")
    # the TEC column's Dry line goes with the lookup line that read it (mv17, session 17)
    assert sources(got) == ["movement.rules:7", "weather.rules:33", "movement.rules:19", "tables/tec.yaml:17",
                            "tables/tec.yaml:29"]
    assert [ln["cases"] for ln in got["lines"][3:]] == [["9.2B"], ["9.2A"]]
    assert "4.3E" not in got["cases"] and "4.3D" not in got["cases"]


@pytest.mark.case("4.3E", "9.2A")
def test_4_3E_explain_judges_a_tec_row_on_one_line_by_the_cell_the_trace_recorded():
    # tables/tec.yaml:22 is clear armor's row, one line of four cells: Dry 9.2A, Mud 4.3E
    known = {"9.2A", "4.3E", "4.3D"}
    text = (PACK / "tables" / "tec.yaml").read_text(encoding="utf-8").split("\n")[21]
    assert text.strip().startswith('"armor": {dry: 1, frozen: 1, mud: {value: 1, provenance:')
    assert cited_at(PACK, "tables/tec.yaml", 22, known) == ["9.2A"]
    assert cited_at(PACK, "tables/tec.yaml", 22, known, ["4.3E"]) == ["4.3E"]
    assert changed_line("tables/tec.yaml:22", text, ["4.3E"], PACK, known) is None  # a Mud move's cell
    assert changed_line("tables/tec.yaml:22", text, ["9.2A"], PACK, known) is None  # a Dry move's
    assert changed_line("tables/tec.yaml:22", text, ["4.3E", "4.3D"], PACK, known) == (
        "tables/tec.yaml:22 cites 9.2A now, the trace recorded 4.3D, 4.3E")  # before rows17: told apart
