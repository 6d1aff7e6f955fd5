"""A number a rule line read from a records table with ``table T[key: …].field`` cites the row
it selected (issue #15, deliverable 3): the Initiative Point Chart row behind a combat-support
DRM (10.4.2A) and the Initiative Chart rows behind a side's town IPs (1.1A, 0.2.2.10), in ask
answers (after the rule lines) and in trace events; a row an erratum changes is cited at the
erratum's line. Every expected line number is found by reading the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.moscow41.tests.test_table_lines import ask, table_lines, text_of
from tests._pack_edits import copy_edited, line_of

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "games" / "moscow41"
EXAMPLES = ROOT / "docs" / "examples"
IP_COSTS = PACK / "tables" / "ip_costs.yaml"
CHART = PACK / "tables" / "initiative_chart.yaml"
#: 1.3B's example (docs/examples/income-turn13.yaml): the towns the Germans hold on Turn 13 —
#: Kalinin, Kaluga, Mozhaisk, Roslavl, Rzhev, Smolensk, Vyazma (12 IPs).
HELD_13 = ("3733", "0833", "2032", "0212", "3023", "1308", "1722")
ATTACK = ("attack", "0304", "--with", "g1,g2", "--support", "2,0", "--roll", "8")



@pytest.mark.case("10.4.2A")
def test_10_4_2A_ask_attack_support_cites_the_ip_costs_row():
    # docs/examples/attack.yaml: 2 German support IPs buy +1 DRM at 2 IPs a DRM (10.4.2A)
    answer = ask(EXAMPLES / "attack.yaml", *ATTACK)
    row = line_of(IP_COSTS, 'action: "combat_support", side: "german"')
    cited = table_lines(answer)
    line = cited[f"tables/ip_costs.yaml:{row}"]
    assert line["text"] == text_of(IP_COSTS, row) and "ip: 2" in line["text"]
    assert line["cases"] == ["10.4.2A"]                  # the row's own provenance
    soviet = line_of(IP_COSTS, 'action: "combat_support", side: "soviet"')
    assert f"tables/ip_costs.yaml:{soviet}" not in cited  # only the row the term selected
    sources = [ln["source"] for ln in answer["lines"]]
    support = line_of(PACK / "rules" / "combat.rules", 'attacker_support_ips / table ip_costs[action: "combat_support", side: "german"]')
    assert sources.index(f"combat.rules:{support}") < sources.index(f"tables/ip_costs.yaml:{row}")


ERRATUM = """kind: errata
format: 1
provenance: "errata: 10.4.2A"
patches:
  - {case: "10.4.2A", file: tables/ip_costs.yaml, path: [rows, {action: combat_support, side: german}, ip], set: 1}
"""


@pytest.mark.case("10.4.2A")
def test_10_4_2A_an_ip_costs_row_an_erratum_changes_cites_the_erratum(tmp_path):
    pack = copy_edited(tmp_path, "game.yaml", ("  - errata/0.2.3.1.yaml\n", "  - errata/0.2.3.1.yaml\n  - errata/ip-cost.yaml\n"))
    (pack / "errata" / "ip-cost.yaml").write_text(ERRATUM, encoding="utf-8")
    before, after = ask(EXAMPLES / "attack.yaml", *ATTACK), ask(EXAMPLES / "attack.yaml", *ATTACK, pack=pack)
    assert after["drm"]["net"] == before["drm"]["net"] + 1   # 2 IPs now buy 2 DRMs
    patch = line_of(pack / "errata" / "ip-cost.yaml", "path: [rows")
    cited = table_lines(after)
    assert cited[f"errata/ip-cost.yaml:{patch}"]["cases"] == ["10.4.2A"]
    assert not any(s.startswith("tables/ip_costs.yaml:") for s in cited)


@pytest.mark.case("1.1A", "0.2.2.10")
def test_1_1A_ask_income_cites_the_initiative_chart_rows_of_the_towns_held():
    # docs/examples/income-turn13.yaml: the towns German holds, each worth the chart's IPs
    answer = ask(EXAMPLES / "income-turn13.yaml", "income", "german")
    cited = table_lines(answer)
    assert answer["held"]
    for town in answer["held"]:
        row = line_of(CHART, f"hex: '{town['hex']}'")
        line = cited[f"tables/initiative_chart.yaml:{row}"]
        assert line["text"] == text_of(CHART, row) and f"ip: {town['ip']}" in line["text"]
    # only the rows of the towns counted: not Moscow's five hexes nor Tula, whose rows were read too
    chart = {s for s in cited if s.startswith("tables/initiative_chart.yaml:")}
    assert chart == {f"tables/initiative_chart.yaml:{line_of(CHART, f'hex: {h!r}')}" for h in HELD_13}
    assert chart == {f"tables/initiative_chart.yaml:{n}" for n in (11, 12, 18, 19, 20, 21, 23)}
    rules = [s for s in (ln["source"] for ln in answer["lines"]) if ".rules:" in s]
    assert [ln["source"] for ln in answer["lines"]][: len(rules)] == rules   # the rule lines first


WEATHER = PACK / "tables" / "weather_table.yaml"
MATRIX = PACK / "tables" / "ground_condition_matrix.yaml"


def _events(name: str, kind: str) -> list[dict]:
    golden = PACK / "golden" / name
    return [e for e in map(json.loads, golden.read_text(encoding="utf-8").splitlines()) if e["kind"] == kind]


@pytest.mark.case("3.0B", "0.7.1.1B")
def test_3_0B_a_temperature_event_names_the_weather_table_row_it_read():
    event = _events("october-blitz-greedy-seed1.jsonl", "temperature")[0]
    row = line_of(WEATHER, '"temperature": {')
    assert f'{event["data"]["modified"]}: "{event["data"]["temperature"]}"' in text_of(WEATHER, row)
    sources = [ln["source"] for ln in event["data"]["lines"]]
    assert sources[-1] == f"tables/weather_table.yaml:{row}"      # after the rule lines


@pytest.mark.case("3.0C", "3.0D")
def test_3_0C_a_ground_event_names_the_precipitation_cell_and_the_matrix_cell():
    event = _events("october-blitz-greedy-seed1.jsonl", "ground")[0]
    sources = [ln["source"] for ln in event["data"]["lines"]]
    precipitation = line_of(WEATHER, '"precipitation": {')
    assert f"tables/weather_table.yaml:{precipitation}" in sources
    assert any(s.startswith("tables/ground_condition_matrix.yaml:") for s in sources)
    matrix = [int(s.split(":")[1]) for s in sources if s.startswith("tables/ground_condition_matrix.yaml:")]
    assert event["data"]["table_ground"] in text_of(MATRIX, matrix[0])


@pytest.mark.case("1.1A", "1.1C")
def test_1_1A_an_ip_collection_event_names_an_initiative_chart_row():
    event = _events("october-blitz-greedy-seed1.jsonl", "ip-collection")[0]
    rows = [int(ln["source"].split(":")[1]) for ln in event["data"]["lines"]
            if ln["source"].startswith("tables/initiative_chart.yaml:")]
    assert rows and all(text_of(CHART, n).startswith("- {hex:") for n in rows)


@pytest.mark.case("2.1A")
def test_2_1A_an_activate_hq_event_names_only_the_ip_costs_row_its_deciding_line_selected():
    rules = PACK / "rules" / "initiative.rules"
    supplied = line_of(rules, 'table ip_costs[action: "activate_hq", per: "supplied HQ"]')
    for event in _events("october-blitz-greedy-seed1.jsonl", "activate-hq"):
        sources = [ln["source"] for ln in event["data"].get("lines", ())]
        if f"initiative.rules:{supplied}" in sources:  # a supplied HQ: 1 IP
            rows = [int(s.split(":")[1]) for s in sources if s.startswith("tables/ip_costs.yaml:")]
            assert rows == [line_of(IP_COSTS, 'per: "supplied HQ"')]
            break
    else:
        pytest.fail("no supplied HQ activated in the trace")


@pytest.mark.case("1.1A", "1.0B", "1.3B")
def test_1_1A_ask_income_lists_no_term_that_adds_0():
    # the town IPs are multiplied (ip_multiplier_scope: all): ip_total's `ip_unmodified` term adds 0,
    # so it did not fire (docs/rule-language.md, "Which lines an event names", rule 2)
    answer = ask(EXAMPLES / "income-turn13.yaml", "income", "german", "--roll", "5")
    unmodified = line_of(PACK / "rules" / "initiative.rules", "ip_unmodified  by 1.1A, 1.3B")
    assert unmodified == 26
    assert f"initiative.rules:{unmodified}" not in [t["source"] for t in answer["terms"]]
    assert all(t["value"] != 0 for t in answer["terms"] if t["kind"] == "term")
    assert answer["total"] == 31   # 1.3B's example: (12 + 17) x 2/3 = 19, + 5 + 7


@pytest.mark.case("0.7.2.1A", "0.7.2.1B", "1.1A")
def test_0_7_2_1A_an_ip_collection_event_names_the_chart_row_of_every_town_counted(m41):
    from ruamel.yaml import YAML

    from casebook.areas.initiative import collect_ips
    from casebook.core.state import GameState
    from casebook.core.trace import Trace

    data = YAML(typ="safe", pure=True).load((EXAMPLES / "income-turn13.yaml").read_text(encoding="utf-8"))
    data["control"]["0342"] = "soviet"           # Tula: a chart town the Germans do not hold
    ctx = m41.ctx(GameState.from_dict(data), Trace(), event_lines=True)
    collect_ips(ctx, "german", die=5)
    event = next(e for e in ctx.trace if e.kind == "ip-collection")
    sources = [ln["source"] for ln in event.data["lines"]]
    chart = [s for s in sources if s.startswith("tables/initiative_chart.yaml:")]
    assert sorted(chart) == sorted(f"tables/initiative_chart.yaml:{line_of(CHART, f'hex: {h!r}')}" for h in HELD_13)
    assert sorted(int(s.rsplit(":", 1)[1]) for s in chart) == [11, 12, 18, 19, 20, 21, 23]
    assert f"tables/initiative_chart.yaml:{line_of(CHART, 'hex: ' + repr('0342'))}" not in sources
    assert len(sources) == len(set(sources))     # each line once
    assert "initiative.rules:26" not in sources  # ip_unmodified adds 0: not named
    assert "0.7.2.1B" in event.cases             # the step's roll (its ip_dice line: 0.7.2.1B, 1.0C)
