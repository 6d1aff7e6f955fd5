"""A ``combat-results`` event names the CRT row its result was read from (issue #15, deliverable
3; 11.0A-B, 10.0E): Moscow '41 has no table of what a result means — a cell such as ``-/FR`` is
read in 11.0A's notation — so the line behind the result it applies is the CRT row (or the
erratum that set the cell), read again for the event as for the ``combat`` event before it, even
when the result waited for the players' choices. Expected lines are found by reading the files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from casebook.core.game import Game
from casebook.script.engine import load_engine
from casebook.tools.cli import cli
from tests._pack_edits import crt_cell_errata_pack, line_of

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "games" / "moscow41"
CRT = PACK / "tables" / "crt.yaml"


def tables(event: dict) -> list[str]:
    return [ln["source"] for ln in event["data"].get("lines", ()) if ln["source"].startswith(("tables/crt.yaml",
                                                                                                "errata/"))]


def golden(name: str) -> list[dict]:
    return list(map(json.loads, (PACK / "golden" / name).read_text(encoding="utf-8").splitlines()))


@pytest.mark.case("11.0A", "11.0B", "10.0E")
def test_11_0B_a_combat_results_event_names_the_crt_row_of_its_result():
    events = golden("october-blitz-greedy-seed1.jsonl")
    pairs, waited = 0, 0
    combat = None
    for i, event in enumerate(events):
        if event["kind"] == "combat":
            combat, at = event, i
        elif event["kind"] == "combat-results":
            row = line_of(CRT, f'"{combat["data"]["odds"]}": {{')
            modified = max(-2, min(16, combat["data"]["modified_roll"]))
            assert event["data"]["combat"]["result"] == combat["data"]["result"]
            assert f'{modified}: "{combat["data"]["result"]}"' in CRT.read_text(encoding="utf-8").splitlines()[row - 1]
            assert tables(event) == tables(combat) == [f"tables/crt.yaml:{row}"], event
            assert {"source": f"tables/crt.yaml:{row}", "cases": ["10.4.5C", "11.0B"]} in event["data"]["lines"]
            pairs += 1
            waited += any(e["kind"] == "action" for e in events[at:i])   # the players chose meanwhile
    assert pairs >= 20 and waited >= 10, (pairs, waited)



@pytest.mark.case("11.0B", "10.0E")
def test_11_0B_a_result_an_erratum_set_names_the_erratum(tmp_path):
    # a test erratum (not the game's): the 1:1 column's modified roll 10 reads -/R, not -/F1.
    # docs/examples/attack.yaml: 11 against 6, 1:1 after 10.3B's shift, net DRM +2 with 2 IPs of
    # support; the dice are fixed at 4 + 4, so the modified roll is 10 (test_table_lines.py)
    pack = crt_cell_errata_pack(tmp_path)
    data = yaml.safe_load((ROOT / "docs" / "examples" / "attack.yaml").read_text(encoding="utf-8"))
    data["rng"] = {"seed": 1, "state": None, "fixed": [4, 4]}
    state = Game(load_engine(pack), "october-blitz").state_from_dict(data)
    state.apply("german: attack hex=0304 support=2 with=g1,g2")
    for _ in range(10):
        if not state.trace.of_kind("combat-results"):
            state.apply(state.legal_actions()[0])
    combat, results = state.trace.of_kind("combat")[-1], state.trace.of_kind("combat-results")[-1]
    assert (combat.data["modified_roll"], combat.data["result"]) == (10, "-/R")
    patch = line_of(pack / "errata" / "crt-cell.yaml", "path: [cells")
    named = [ln for ln in results.data["lines"] if ln["source"].startswith(("tables/crt", "errata/"))]
    assert named == [{"source": f"errata/crt-cell.yaml:{patch}", "cases": ["11.0B"]}]
    path = tmp_path / "t.jsonl"
    path.write_text(state.trace.dumps())
    shown = CliRunner().invoke(cli, ["explain", str(path), str(results.seq), "--pack", str(pack)])
    assert shown.exit_code == 0, shown.output
    text = (pack / "errata" / "crt-cell.yaml").read_text(encoding="utf-8").splitlines()[patch - 1].strip()
    assert f"errata/crt-cell.yaml:{patch}  {text}" in shown.output
