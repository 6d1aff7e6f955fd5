"""Each event applying a combat result names the ``crt_results`` row of that result (KP8.5;
issue #15, deliverable 3): read in the golden games, every step loss, elimination, retreat and
advance after combat names the row of the result of the combat before it, and the combat roll
names the ``combat_dice`` line (KP8.4). Expected lines are found by reading the files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._pack_edits import line_of

PACK = Path(__file__).resolve().parents[1]
RESULTS = PACK / "tables" / "crt_results.yaml"


def events() -> list[list[dict]]:
    return [list(map(json.loads, p.read_text(encoding="utf-8").splitlines()))
            for p in sorted((PACK / "golden").glob("*.jsonl"))]


@pytest.mark.case("KP8.5A", "KP8.5C", "KP8.5D", "KP8.5E", "KP8.4")
def test_KP8_5_result_events_name_the_row_of_their_result():
    dice = line_of(PACK / "rules" / "combat.rules", "quantity combat_dice = first") + 1
    assert dice == 15                                     # "otherwise 1d6 by KP8.4", as shipped
    applied: set[str] = set()
    for game in events():
        result = None
        for event in game:
            if event["kind"] == "roll":
                assert event["data"]["lines"] == [{"source": f"combat.rules:{dice}", "cases": ["KP8.4"]}]
            if event["kind"] == "combat":
                result = event["data"]["result"]
            elif event["source"].startswith("area_results."):
                row = line_of(RESULTS, f"{{result: {result},")
                assert f"tables/crt_results.yaml:{row}" in [ln["source"] for ln in event["data"]["lines"]], event
                applied.add(result)
    assert applied >= {"A1", "DR", "D1", "DE"}             # (NE applies nothing; no EX was rolled)
