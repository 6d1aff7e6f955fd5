"""A number read from a table cites the table's line (issue #15, deliverable 3): `ask attack`
names the CRT row its outcomes and result were read from (10.0E), `ask zoc` the ZOC Chart cells
(7.0B-C), an errata overlay that set a cell names the erratum's line, and `casebook explain`
prints the CRT row of a combat event. Every expected line number is found by reading the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.content.loader import load_pack
from casebook.tools.cli import cli
from tests._pack_edits import crt_cell_errata_pack, line_of
from tests.conftest import played_blitz

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "games" / "moscow41"
EXAMPLES = ROOT / "docs" / "examples"


def ask(position: Path, *question: str, pack: Path | None = None) -> dict:
    args = ["ask", str(position), *question, "--json"] + (["--pack", str(pack)] if pack else [])
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def text_of(path: Path, number: int) -> str:
    return path.read_text(encoding="utf-8").splitlines()[number - 1].strip()


def table_lines(answer: dict) -> dict[str, dict]:
    return {ln["source"]: ln for ln in answer["lines"] if ".yaml:" in ln["source"]}


@pytest.mark.case("10.0E", "10.3B")
def test_10_0E_ask_attack_cites_the_crt_row_it_read():
    # docs/examples/attack.yaml: 11 against 6 is 3:2, shifted one column left to 1:1 (10.3B);
    # the net DRM is +2, so roll 8 reads modified roll 10 of the 1:1 column: -/F1
    answer = ask(EXAMPLES / "attack.yaml", "attack", "0304", "--with", "g1,g2", "--support", "2,0", "--roll", "8")
    assert (answer["basic_column"], answer["column"]) == ("3:2", "1:1")
    assert (answer["result"]["modified_roll"], answer["result"]["result"]) == (10, "-/F1")
    crt = PACK / "tables" / "crt.yaml"
    row = line_of(crt, '"1:1": {')
    cited = table_lines(answer)
    crt_rows = [s for s in cited if not s.startswith(("tables/ip_costs.yaml:", "tables/combat_modifiers.yaml:"))]
    # (the support cost's row too, and the forest's DRM row: tests/test_combat_modifier_cells.py)
    assert crt_rows == [f"tables/crt.yaml:{row}"]       # every outcome and the result: one row
    line = cited[f"tables/crt.yaml:{row}"]
    assert line["text"] == text_of(crt, row) and '10: "-/F1"' in line["text"]
    assert line["cases"] == ["10.4.5C", "11.0B"]         # the cases the CRT's provenance names
    rules = [ln["source"] for ln in answer["lines"] if ".rules:" in ln["source"]]
    assert rules and answer["lines"][: len(rules)] == [ln for ln in answer["lines"] if ".rules:" in ln["source"]]



@pytest.mark.case("10.0E", "11.0B")
def test_10_0E_a_crt_cell_an_erratum_sets_cites_the_erratum(tmp_path):
    pack = crt_cell_errata_pack(tmp_path)
    answer = ask(EXAMPLES / "attack.yaml", "attack", "0304", "--with", "g1,g2", "--support", "2,0", "--roll", "8",
                 pack=pack)
    assert (answer["result"]["modified_roll"], answer["result"]["result"]) == (10, "-/R")
    patch = line_of(pack / "errata" / "crt-cell.yaml", "path: [cells")
    row = line_of(pack / "tables" / "crt.yaml", '"1:1": {')
    cited = table_lines(answer)
    crt_rows = {s for s in cited if not s.startswith(("tables/ip_costs.yaml:", "tables/combat_modifiers.yaml:"))}
    assert crt_rows == {f"errata/crt-cell.yaml:{patch}", f"tables/crt.yaml:{row}"}  # the cell; the other rolls
    erratum = cited[f"errata/crt-cell.yaml:{patch}"]
    assert erratum["cases"] == ["11.0B"] and erratum["text"] == text_of(pack / "errata" / "crt-cell.yaml", patch)
    # without --roll only the outcome of modified roll 10 (dice 8) reads the patched cell
    outcomes = ask(EXAMPLES / "attack.yaml", "attack", "0304", "--with", "g1,g2", "--support", "2,0", pack=pack)
    assert {o["roll"]: o["result"] for o in outcomes["outcomes"]}[8] == "-/R"
    assert f"errata/crt-cell.yaml:{patch}" in table_lines(outcomes)


@pytest.mark.case("7.0B", "7.0C")
def test_7_0B_ask_zoc_cites_the_zoc_chart_cells():
    chart = PACK / "tables" / "zoc_chart.yaml"
    lines = chart.read_text(encoding="utf-8").splitlines()

    def cell(row: str, column: str) -> int:
        start = line_of(chart, f'  "{row}":')
        return next(i for i in range(start + 1, len(lines) + 1) if lines[i - 1].strip().startswith(f'"{column}":'))

    # the panzer regiment g2 (armor) treats the Soviet ZOC in 0304 as fluid on dry ground (7.0B)
    mine = ask(EXAMPLES / "zoc-basics.yaml", "zoc", "0304", "--for", "g2")
    armor = cell("armor", "dry")
    assert mine["kind"] == "fluid" and list(table_lines(mine))[0] == f"tables/zoc_chart.yaml:{armor}"
    assert set(table_lines(mine)) == {f"tables/zoc_chart.yaml:{cell(r, 'dry')}" for r in mine["by_class"]}
    line = table_lines(mine)[f"tables/zoc_chart.yaml:{armor}"]
    assert line["cases"] == ["7.0B"] and line["text"] == f'"armor": {text_of(chart, armor)}'
    # without --for the same cells (every class of by_class); in Mud the mud column (7.0C)
    every = ask(EXAMPLES / "zoc-basics.yaml", "zoc", "0304")
    assert set(table_lines(every)) == {f"tables/zoc_chart.yaml:{cell(r, 'dry')}" for r in every["by_class"]}
    mud = ask(EXAMPLES / "zoc-mud.yaml", "zoc", "0304")
    assert set(table_lines(mud)) == {f"tables/zoc_chart.yaml:{cell(r, 'mud')}" for r in mud["by_class"]}


@pytest.mark.case("0.2.3.1", "0.2.3.2", "0.2.3.3B")
def test_0_2_3_1_cells_and_rows_errata_set_cite_the_erratum():
    lines = load_pack("moscow41").table_lines
    arctic = lines.cell("zoc_chart", unit="armor", weather="arctic")
    erratum = PACK / "errata" / "0.2.3.1.yaml"
    n = line_of(erratum, "path: [cells, armor, arctic]")
    assert arctic == {"source": f"errata/0.2.3.1.yaml:{n}", "cases": ["0.2.3.1"], "text": text_of(erratum, n)}
    rows = load_pack("moscow41").records["reinforcements"]
    added = next(r for r in rows if r["unit"] == "g-4pz-35")           # added by 0.2.3.2
    moved = next(r for r in rows if r["unit"] == "s-312rd")            # turn 27 -> 4 by 0.2.3.3B
    printed = next(r for r in rows if r["unit"] == "s-17tb")
    assert lines.row("reinforcements", added)["source"] == \
        f"errata/0.2.3.2.yaml:{line_of(PACK / 'errata' / '0.2.3.2.yaml', 'unit: g-4pz-35')}"
    assert lines.row("reinforcements", moved)["source"] == \
        f"errata/0.2.3.3.yaml:{line_of(PACK / 'errata' / '0.2.3.3.yaml', '{unit: s-312rd}, turn]')}"
    at = line_of(PACK / "tables" / "reinforcements.yaml", 'unit: "s-17tb"')
    assert lines.row("reinforcements", printed)["source"] == f"tables/reinforcements.yaml:{at}"


@pytest.mark.case("10.0E")
def test_10_0E_explain_prints_the_crt_row_of_a_combat_event(tmp_path):
    state = played_blitz(30)
    combat = next(e for e in state.trace if e.kind == "combat")
    crt = PACK / "tables" / "crt.yaml"
    row = line_of(crt, f'"{combat.data["odds"]}": {{')
    cited = [ln for ln in combat.data["lines"] if ln["source"].startswith("tables/")]
    assert cited[-1:] == [{"source": f"tables/crt.yaml:{row}", "cases": ["10.4.5C", "11.0B"]}]  # after the terrain's row
    modified = max(-2, min(16, combat.data["modified_roll"]))
    assert f'{modified}: "{combat.data["result"]}"' in text_of(crt, row)
    path = tmp_path / "blitz.jsonl"
    path.write_text(state.trace.dumps())
    shown = CliRunner().invoke(cli, ["explain", str(path), str(combat.seq), "--pack", str(PACK)])
    assert shown.exit_code == 0, shown.output
    assert f"tables/crt.yaml:{row}  {text_of(crt, row)}" in shown.output


@pytest.mark.case("12.1A", "12.0B")
def test_12_1A_ask_reinforcements_cites_the_schedule_rows():
    # docs/examples/reinforcements-turn10.yaml: the 82 MRD and 239 RD are due on Turn 10
    answer = ask(EXAMPLES / "reinforcements-turn10.yaml", "reinforcements", "soviet")
    schedule = PACK / "tables" / "reinforcements.yaml"
    due = [e["unit"] for e in answer["available"] if e.get("due") == 10]
    assert due == ["s-82mrd", "s-239rd"]
    rows = {"tables/reinforcements.yaml:" + str(line_of(schedule, 'unit: "' + u + '"')) for u in due}
    cited = table_lines(answer)
    assert rows <= set(cited)
    assert all(cited[s]["text"] == text_of(schedule, int(s.split(":")[1])) and "turn: 10" in cited[s]["text"]
               for s in rows)


@pytest.mark.case("12.1A")
def test_12_1A_a_reinforcement_event_names_its_schedule_row(tmp_path):
    golden = PACK / "golden" / "october-blitz-greedy-seed1.jsonl"
    event = next(e for e in map(json.loads, golden.read_text(encoding="utf-8").splitlines())
                 if e["kind"] == "reinforcement")
    schedule = PACK / "tables" / "reinforcements.yaml"
    row = line_of(schedule, 'unit: "' + event["data"]["unit"] + '"')
    assert {"source": f"tables/reinforcements.yaml:{row}", "cases": ["12.1A", "12.1C"]} in event["data"]["lines"]
    shown = CliRunner().invoke(cli, ["explain", str(golden), str(event["seq"]), "--pack", str(PACK)])
    assert shown.exit_code == 0, shown.output
    assert f"tables/reinforcements.yaml:{row}  {text_of(schedule, row)}" in shown.output


@pytest.mark.case("9.2A", "9.2B")
def test_9_2B_ask_move_cites_the_tec_cells_a_rule_line_looked_up():
    # docs/examples/reach-move.yaml: g1 (infantry) enters clear 0203 across a river hexside:
    # 1 MP for clear (tables/tec.yaml) + 1 MP for the river (tables/tec_hexside.yaml), Dry ground
    answer = ask(EXAMPLES / "reach-move.yaml", "move", "g1", "0203", "0204", "0304")
    assert answer["steps"][0] == {"hex": "0203", "cost": 2, "cases": ["9.2A", "9.2B"]}
    cited = table_lines(answer)

    def cell(file: str, terrain: str) -> str:
        path = PACK / "tables" / file
        lines = path.read_text(encoding="utf-8").splitlines()
        start = line_of(path, f'  "{terrain}":')
        at = next(i for i in range(start + 1, len(lines) + 1) if '"dry": {value: 1' in lines[i - 1])
        assert lines[start].strip() == '"infantry":'       # the infantry row follows the terrain's key
        return f"tables/{file}:{at}"

    clear, river = cell("tec.yaml", "clear"), cell("tec_hexside.yaml", "river")
    assert {clear, river} <= set(cited)
    assert cited[clear]["text"].startswith('"clear": "infantry": "dry": {value: 1')
    assert cited[river]["cases"] == ["9.2B"]
    # the rule lines that looked them up come first
    sources = [ln["source"] for ln in answer["lines"]]
    lookup = line_of(PACK / "rules" / "movement.rules", "lookup tec(")
    assert sources.index(f"movement.rules:{lookup}") < sources.index(clear)
