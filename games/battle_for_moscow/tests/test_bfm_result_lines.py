"""A combat result's events name the ``crt_results`` row that says what the result does, and a
combat roll names the ``combat_dice`` line (issue #15, deliverable 3; docs/rule-language.md
"Which lines an event names"). Every expected line number is found by reading the file.

g-vii (7) and g-xxxiv (4) attack the 8-strength 3rd Army in 0606: 11 : 8 is 1:1 (BM8.2A), and
the one die (BM8.4) is fixed at 2, which reads EX on the 1:1 column (BM8.5E)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.game import Game
from casebook.script.engine import load_engine
from casebook.tools.cli import cli
from games.battle_for_moscow.tests.conftest import bfm_ctx
from tests._pack_edits import copy_edited, line_of

PACK = Path(__file__).resolve().parents[1]
RESULTS = PACK / "tables" / "crt_results.yaml"
UNITS = [("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)]


def played(engine, face: int):
    """The attack on 0606 with the die fixed at ``face``, every choice of its result the first listed."""
    d = bfm_ctx(engine, UNITS, turn=1).state.to_dict()
    d["rng"] = {**(d.get("rng") or {}), "fixed": [face]}
    state = Game(engine, "campaign").state_from_dict(d)
    state.apply(next(a for a in state.legal_actions() if a.kind == "attack"))
    while state.legal_actions() and state.legal_actions()[0].kind in ("take-loss", "retreat", "advance"):
        state.apply(state.legal_actions()[0])
    return state


def sources(event) -> list[str]:
    return [ln["source"] for ln in event.data.get("lines", ())]


@pytest.mark.case("BM8.5E", "BM8.6A", "BM8.7")
def test_BM8_5E_each_event_of_an_exchange_names_the_ex_row(bfm):
    state = played(bfm, 2)
    combat = state.trace.of_kind("combat")[-1]
    assert (combat.data["odds"], combat.data["result"]) == ("1:1", "EX")
    row = line_of(RESULTS, "{result: EX,")
    assert row == 17                                   # (the row as the file holds it today)
    applied = [e for e in state.trace if e.seq > combat.seq and e.source.startswith("area_results.")]
    assert [e.kind for e in applied] == ["step-loss", "step-loss", "retreat", "advance"]  # defender, attacker
    for event in applied:
        assert f"tables/crt_results.yaml:{row}" in sources(event), event
        assert {"source": f"tables/crt_results.yaml:{row}", "cases": ["BM8.5E", "BM8.7"]} in event.data["lines"]
    assert not any(s.startswith("tables/crt_results.yaml") for s in sources(combat))   # the CRT cell's event
    roll = state.trace.of_kind("roll")[-1]                 # one die, by BM8.4's combat_dice line
    dice = line_of(PACK / "rules" / "combat.rules", "quantity combat_dice") + 1
    assert roll.data["dice"] == 1 and roll.data["lines"] == [{"source": f"combat.rules:{dice}", "cases": ["BM8.4"]}]


@pytest.mark.case("BM8.5B")
def test_BM8_5B_an_erratum_that_changes_what_dr_does_is_the_line_named(tmp_path):
    # a test erratum (not the game's): DR no longer lets the attacker advance
    pack = copy_edited(tmp_path, "game.yaml", ("errata: []\n", "errata:\n  - errata/dr.yaml\n"),
                       game="battle_for_moscow")
    (pack / "errata").mkdir(exist_ok=True)
    (pack / "errata" / "dr.yaml").write_text(
        'kind: errata\nformat: 1\nprovenance: "errata: BM8.5B"\npatches:\n'
        '  - {case: "BM8.5B", file: tables/crt_results.yaml, path: [rows, {result: DR}, advance], set: false}\n',
        encoding="utf-8")
    engine = load_engine(pack)
    state = played(engine, 1)                               # 1:1, die 1: DR
    assert state.trace.of_kind("combat")[-1].data["result"] == "DR"
    patch = line_of(pack / "errata" / "dr.yaml", "path: [rows")
    retreat = state.trace.of_kind("retreat")[-1]
    assert {"source": f"errata/dr.yaml:{patch}", "cases": ["BM8.5B"]} in retreat.data["lines"]
    assert not any(s.startswith("tables/crt_results.yaml") for s in sources(retreat))
    assert not [e for e in state.trace if e.kind == "advance" and e.source.startswith("area_results.")]
    # the game's own DR row, unpatched, is named by the same retreat in the shipped pack
    shipped = played(load_engine("battle_for_moscow"), 1).trace.of_kind("retreat")[-1]
    assert f"tables/crt_results.yaml:{line_of(RESULTS, '{result: DR,')}" in sources(shipped)


@pytest.mark.case("BM8.5E", "BM8.4")
def test_BM8_5E_explain_prints_the_result_row_and_the_dice_line(bfm, tmp_path):
    state = played(bfm, 2)
    path = tmp_path / "ex.jsonl"
    path.write_text(state.trace.dumps())
    row = line_of(RESULTS, "{result: EX,")
    text = RESULTS.read_text(encoding="utf-8").splitlines()[row - 1].strip()
    retreat = state.trace.of_kind("retreat")[-1]
    shown = CliRunner().invoke(cli, ["explain", str(path), str(retreat.seq), "--pack", str(PACK)])
    assert shown.exit_code == 0, shown.output
    assert f"tables/crt_results.yaml:{row}  {text}" in shown.output
    roll = state.trace.of_kind("roll")[-1]
    shown = CliRunner().invoke(cli, ["explain", str(path), str(roll.seq), "--pack", str(PACK)])
    dice = line_of(PACK / "rules" / "combat.rules", "quantity combat_dice") + 1
    assert shown.exit_code == 0, shown.output
    assert f"combat.rules:{dice}" in shown.output and "otherwise 1d6 by BM8.4" in shown.output
