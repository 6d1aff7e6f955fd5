"""An answer's cases and lines agree (issue #15, session 16's fresh-user trial): every case a
listed line cites is among the answer's ``cases`` (a TEC cell, a Turn Track row, a fact line that
decided a number cites its case: ``casebook.tools.cmd_ask.cite_lines``, shared by every
question); a reinforcement a line delays names that line on the turn it was listed for (12.0B);
an attack refused for the IPs of its combat support names the support's cost lines (10.4.2A)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli
from games.moscow41.tests.test_cookbook import DOC, ROOT
from tests._pack_edits import copy_edited

EXAMPLES = ROOT / "docs" / "examples"


def ask(position: Path | str, *question: str, pack: Path | None = None) -> dict:
    args = ["ask", str(position), *question, "--json"] + (["--pack", str(pack)] if pack else [])
    run = CliRunner().invoke(cli, args)
    assert run.exit_code == 0, run.output
    return json.loads(run.output)


def sources(answer: dict) -> list[str]:
    return [ln["source"] for ln in answer["lines"]]


def lines_cases_cited(answer: dict) -> None:
    for ln in answer["lines"]:
        assert set(ln["cases"]) <= set(answer["cases"]), (ln, answer["cases"])


@pytest.mark.case("9.5A", "9.2A")
def test_9_5A_an_overrun_answer_cites_the_case_of_its_tec_cell():
    got = ask(EXAMPLES / "overrun.yaml", "overrun", "r1", "0404")
    # the TEC column's line (Dry, 4.1B) chose the cell: lent to the lookup line (session 17)
    assert sources(got) == ["weather.rules:33", "movement.rules:19", "movement.rules:24", "movement.rules:111",
                            "tables/tec.yaml:31"]
    assert got["cases"] == ["9.2A", "9.2B", "9.5A", "9.5B", "9.5C", "4.1B"]  # the Dry cell's 9.2A (rows17)
    assert got["lines"][-1]["cases"] == ["9.2A"]
    lines_cases_cited(got)


@pytest.mark.case("9.2B", "9.2A")
def test_9_2B_a_reach_answer_cites_the_cases_of_the_tec_cells_it_lists():
    got = ask(EXAMPLES / "reach-move.yaml", "reach", "g1")
    assert sources(got) == ["movement.rules:7", "weather.rules:33", "movement.rules:19", "tables/tec.yaml:17",
                            "tables/tec.yaml:29"]
    assert got["cases"] == ["7.2", "9.0A", "9.1A", "9.2A", "4.1B", "9.2B"]  # the Dry cells' 9.2B, 9.2A (rows17)
    lines_cases_cited(got)


@pytest.mark.case("7.0B")
def test_7_0B_a_zoc_answer_cites_the_case_of_every_zoc_chart_row_it_lists():
    got = ask(EXAMPLES / "zoc-basics.yaml", "zoc", "0303")
    assert [s for s in sources(got) if s.startswith("tables/")] == [f"tables/zoc_chart.yaml:{n}" for n in range(15, 58, 6)]
    assert got["cases"][-2:] == ["3.5B", "11.3D"]  # the rows of 3.5B and 11.3D units, added after its own
    lines_cases_cited(got)


def _turn4(tmp_path: Path) -> Path:
    text = (EXAMPLES / "reinforcements-turn10.yaml").read_text(encoding="utf-8")
    text = text.replace("turn: 10\n", "turn: 4\n").replace("phasing: soviet\nfirst_player: soviet\n",
                                                             "phasing: german\nfirst_player: german\n")
    assert "turn: 4\n" in text and "phasing: german\n" in text
    path = tmp_path / "reinf4.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.case("12.0B")
def test_12_0B_a_reinforcement_delayed_names_the_line_that_delayed_it_on_its_listed_turn(tmp_path):
    """Recipe 25 (docs/modding.md): a line delaying German reinforcements a turn. Turn 4's answer
    lists the 31st and 131st Infantry Divisions (and the XXXXIII corps HQ) as delayed to Turn 5
    and names reinforcement.rules:10; the Turn Track row it read cites its cases too."""
    recipe = "  schedule_turn + 1  by 12.0B  when side is german"
    assert recipe.strip() in DOC
    pack = copy_edited(tmp_path, "rules/reinforcement.rules", ("  otherwise schedule_turn  by 12.0B\n",
                                                               "  otherwise schedule_turn  by 12.0B\n" + recipe + "\n"))
    position = _turn4(tmp_path)
    plain = ask(position, "reinforcements", "german")
    assert "delayed" not in plain and "reinforcement.rules:10" not in sources(plain)
    got = ask(position, "reinforcements", "german", pack=pack)
    assert got["available"] == []
    assert got["delayed"] == [{"unit": u, "listed": 4, "due": 5, "cases": ["12.0B"]}
                              for u in ("g-xxxxiii", "g-31id", "g-131id")]
    assert sources(got) == ["reinforcement.rules:10", "reinforcement.rules:22", "tables/turn_track.yaml:26"]
    assert got["cases"] == ["12.1A", "12.1C", "12.2A", "12.2C", "12.3B", "12.0B", "0.1.1C", "18.2.2"]
    lines_cases_cited(got)


@pytest.mark.case("2.3A", "10.4.2A")
def test_2_3A_an_attack_refused_for_its_supports_ips_names_the_support_cost_lines(tmp_path):
    text = (EXAMPLES / "attack.yaml").read_text(encoding="utf-8")
    assert "ip: {german: 10, soviet: 6}" in text
    got = ask(EXAMPLES / "attack.yaml", "why", "attack hex=0304 with=g1,g2 support=11")
    assert (got["legal"], got["reason"]) == (False, "german has 10 IPs, the attack needs 11")
    assert got["cases"] == ["2.3A", "10.4.2A"]
    assert sources(got) == ["initiative.rules:49", "tables/ip_costs.yaml:18"]
