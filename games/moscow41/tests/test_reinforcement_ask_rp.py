"""``ask reinforcements`` and ``ask why`` read a side's RPs at the same moment: when it decides in
its Replacement and Reinforcement Step, after the step's receipt from the Turn Track (12.2A,
12.2C; issue #15: ask and play share one code path)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "docs/examples/reinforcements-turn10.yaml"
REBUILD = "soviet: rebuild into=s-179rd unit=s-rem-01"


def position(tmp_path: Path, infantry: int) -> Path:
    """The Turn-10 example with ``infantry`` Soviet infantry RPs before the step and an HQ in
    command range of the remnant (so supply and command do not refuse the rebuild, 12.3A)."""
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "rp: {soviet: {infantry: 3, armor: 1}}", f"rp: {{soviet: {{infantry: {infantry}, armor: 0}}}}")
    text = text.replace("  - {counter: s-rem-01, hex: \"0303\"}\n", "  - {counter: s-rem-01, hex: \"0303\"}\n"
                        "  - {id: sh, side: soviet, class: hq, ma: 4, radius: 4, hex: \"0304\"}\n")
    assert f"infantry: {infantry}, armor: 0" in text and "class: hq" in text
    path = tmp_path / f"turn10-rp{infantry}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def ask(path: Path, *question: str) -> dict:
    out = CliRunner().invoke(cli, ["ask", str(path), *question, "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def turn_track_line() -> str:
    lines = (ROOT / "games/moscow41/tables/turn_track.yaml").read_text(encoding="utf-8").splitlines()
    return f"tables/turn_track.yaml:{next(i for i, s in enumerate(lines, 1) if s.strip().startswith('- {turn: 10,'))}"


@pytest.mark.case("12.2A")
@pytest.mark.parametrize(("before", "legal"), [(2, True), (0, False)])
def test_12_2A_ask_reinforcements_and_why_read_the_rps_after_the_steps_receipt(tmp_path, before, legal):
    """Turn 10's Turn Track row gives the Soviets 2 infantry RPs (12.2A); a rebuild costs 3 (12.3B).
    With 2 before the step the answer says 4 and the rebuild is legal; with 0 it says 2 and the
    rebuild is refused — the two questions agree on the RPs."""
    path = position(tmp_path, before)
    answer = ask(path, "reinforcements", "soviet")
    assert answer["rp"]["infantry"] == before + 2
    assert answer["rp_received"] == {"infantry": 2, "armor": 1}
    assert answer["rp_when"].startswith("after this step's receipt (12.2A, 12.2C)")
    assert f"infantry {before} + 2" in answer["rp_when"]
    assert turn_track_line() in {ln["source"] for ln in answer["lines"]}
    why = ask(path, "why", REBUILD)
    assert why["legal"] is legal
    assert (answer["rp"]["infantry"] >= 3) is legal
    if not legal:
        assert "needs 3 infantry RPs" in why["reason"]


@pytest.mark.case("12.2A")
def test_12_2A_after_its_step_ask_reinforcements_names_the_turn_track_row_it_collected(tmp_path):
    """Issue #15 (session 16): once the Soviet step of Turn 10 has run (``plugin_state.reinforcement.at``
    says so), the track holds the row's RPs and the answer names that row beside its rule lines;
    before, a row was named only ahead of the step."""
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "rp: {soviet: {infantry: 3, armor: 1}}", "rp: {soviet: {infantry: 5, armor: 2}}")
    path = tmp_path / "after-step.yaml"
    path.write_text(text + 'plugin_state: {reinforcement: {at: "10:soviet", available: [], placed: false}}\n',
                    encoding="utf-8")
    answer = ask(path, "reinforcements", "soviet")
    assert answer["rp"] == {"infantry": 5, "armor": 2} and "rp_received" not in answer
    assert turn_track_line() in [ln["source"] for ln in answer["lines"]]
    assert "reinforcement.rules:21" in [ln["source"] for ln in answer["lines"]]  # the rp_limit line (12.2C)
    other = ask(EXAMPLE, "reinforcements", "german")  # not the German step: no row collected, none named
    assert turn_track_line() not in [ln["source"] for ln in other.get("lines", ())]
