"""Which lines an answer names (docs/rule-language.md "Which lines an event names"): a line is named
when its condition held and it made the value or verdict what it is — only those. Exact
``file:line`` sets, each quoted from the rule script."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.tools.cmd_ask import ask_position

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
RULES = ROOT / "games" / "moscow41" / "rules"


def _text(source: str) -> str:
    file, _, n = source.partition(":")
    return (RULES / file).read_text(encoding="utf-8").split("\n")[int(n) - 1].split("#")[0].strip()


@pytest.mark.case("5.2B", "5.2C")
def test_5_2B_supply_on_a_map_with_no_rail_names_no_rail_forbid():
    """supply-road.yaml's map has no rail: the forbid on German rail supply lines (5.2B, 5.2C)
    decides nothing there and is not named (it was, as if it had made the route)."""
    answer = ask_position(str(EXAMPLES / "supply-road.yaml"), "supply", ["g1"], {})
    sources = {ln["source"] for ln in answer["lines"] if ln["source"].startswith("supply.rules:")}
    assert sources == {"supply.rules:7", "supply.rules:27", "supply.rules:50"}
    assert _text("supply.rules:7") == "otherwise 8  by 5.2B, 5.2C"
    assert _text("supply.rules:50") == "forbid supply_line_off_hexside by 5.2D"
    assert not any("line_kind is rail" in ln["text"] for ln in answer["lines"])
