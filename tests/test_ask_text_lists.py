"""``casebook ask``'s text form writes a list in a table cell as the other lines write it, items
separated by ", " — a refusal citing two cases showed "16.1C,16.2" (session 14's fresh-user check;
issue #15)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.ask_text import render_answer
from casebook.tools.cli import cli

BLITZ = Path(__file__).resolve().parent.parent / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"


def test_a_list_in_a_table_cell_is_separated_by_comma_space():
    answer = {"refusals": [{"reason": "r", "cases": ["16.1C", "16.2"]}, {"reason": "s", "cases": list("abcdefgh")}]}
    assert render_answer(answer).split("\n") == [
        "refusals: 2", "  reason  cases", "  r       16.1C, 16.2", "  s       a, b, c, d, e, f…"]


@pytest.mark.case("16.1C", "16.2")
def test_16_1C_an_offer_refused_out_of_its_step_cites_16_1C_16_2_with_a_space():
    """The October Blitz as play begins it (the German Command Step): the Partisan offer's step
    refusal cites its offer line's cases, 16.1C and 16.2 (partisans.rules)."""
    r = CliRunner().invoke(cli, ["ask", str(BLITZ), "offer", "soviet: place-partisan hex=0110"])
    assert r.exit_code == 0, r.output
    row = next(ln for ln in r.output.split("\n") if "is offered in the replacement_reinforcement step" in ln)
    assert row.rstrip().endswith("  16.1C, 16.2") and "16.1C,16.2" not in r.output


@pytest.mark.case("9.2A", "9.1A")
def test_9_2A_reach_text_lists_every_hex_by_mp_spent_the_farthest_first():
    """Session 19's fresh user: ``ask reach 0413`` (LVII Pz Corps, MA 8) listed 16 of its hexes by id,
    all in the rear. The text form gives every hex, one line per MP spent (9.2A), the most first;
    ``--json`` is the answer itself, hexes by id."""
    import json

    r = CliRunner().invoke(cli, ["ask", str(BLITZ), "reach", "0413", "--json"])
    hexes = json.loads(r.output)["hexes"]
    text = CliRunner().invoke(cli, ["ask", str(BLITZ), "reach", "0413"]).output.split("\n")
    head = text.index(f"hexes: {len(hexes)} in all, by MP spent (the farthest first):")
    rows = []
    for ln in text[head + 1:]:
        if not ln.startswith("  "):  # the next key: the groups ended
            break
        rows.append(ln.strip().split(": "))
    assert [int(mp) for mp, _ in rows] == sorted(set(hexes.values()), reverse=True) and rows[0][0] == "8"
    assert {h: int(mp) for mp, listed in rows for h in listed.split(", ")} == hexes  # every one, none cut
