"""A ``roll`` event names the rule line that decided its dice (issue #15, deliverable 3;
docs/rule-language.md "Which lines an event names"): the combat dice (10.0D ``combat_dice``, two),
the IP-collection die (0.7.2.1B ``ip_dice``), the paratroop drop die (15.2 ``drop_dice``), the
rebuild delay dice (12.3B ``rebuild_delay_dice``). A die the engine rolls by itself — one weather
die for the temperature and one for the ground (4.0), a force march's fatigue die (9.6C) — was
decided by no line and names none. Expected lines are found by reading the rules files; the
golden traces are the games played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli
from tests._pack_edits import line_of

PACK = Path(__file__).resolve().parents[1]
RULES = PACK / "rules"

#: roll purpose -> (rules file, quantity deciding the dice); None: a die no line decides
DICE = {"combat": ("combat.rules", "combat_dice"), "IP collection": ("initiative.rules", "ip_dice"),
        "paratroop drop": ("paratroops.rules", "drop_dice"),
        "rebuild delay": ("reinforcement.rules", "rebuild_delay_dice"),
        "temperature": None, "ground condition": None, "force march fatigue": None}


def dice_line(file: str, quantity: str) -> int:
    """The line that gives ``quantity``'s dice: the ``otherwise NdM`` line under its head."""
    n = line_of(RULES / file, f"quantity {quantity} = first") + 1
    assert "d6" in (RULES / file).read_text(encoding="utf-8").splitlines()[n - 1]
    return n


def rolls() -> list[dict]:
    return [e for path in sorted((PACK / "golden").glob("*.jsonl"))
            for e in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if e["kind"] == "roll"]


@pytest.mark.case("10.0D", "0.7.2.1B", "15.2", "12.3B")
def test_10_0D_a_roll_names_the_line_of_its_dice_and_a_fixed_die_none():
    assert dice_line("combat.rules", "combat_dice") == 84          # "otherwise 2d6 by 10.0D", as shipped
    found = rolls()
    assert {e["data"]["purpose"] for e in found} == set(DICE)      # every kind of roll the games make
    for event in found:
        decided = DICE[event["data"]["purpose"]]
        if decided is None:
            assert "lines" not in event["data"], event
            continue
        file, quantity = decided
        n = dice_line(file, quantity)
        assert [ln["source"] for ln in event["data"]["lines"]] == [f"{file}:{n}"], event
        assert event["data"]["lines"][0]["cases"] == event["cases"]   # the roll cites that line's cases
    counted = {p: sum(e["data"]["purpose"] == p for e in found) for p in ("paratroop drop", "rebuild delay")}
    assert all(counted.values()), counted                          # both met in the golden games


@pytest.mark.case("10.0D")
def test_10_0D_explain_prints_the_dice_line_of_a_combat_roll():
    golden = PACK / "golden" / "october-blitz-greedy-seed1.jsonl"
    event = next(e for e in map(json.loads, golden.read_text(encoding="utf-8").splitlines())
                 if e["kind"] == "roll" and e["data"]["purpose"] == "combat")
    assert event["data"]["dice"] == 2
    shown = CliRunner().invoke(cli, ["explain", str(golden), str(event["seq"]), "--pack", str(PACK)])
    assert shown.exit_code == 0, shown.output
    n = dice_line("combat.rules", "combat_dice")
    assert f"combat.rules:{n}" in shown.output and "otherwise 2d6 by 10.0D" in shown.output
