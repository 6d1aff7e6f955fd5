"""Moscow '41 16.3A on the full engine: a Partisan marker's hex is a Soviet ZOC, so it blocks
German supply, command and retreat (rulebook: "a Partisan marker creates a Soviet ZOC in the
hex it occupies. Thus, it can block supply, command, or retreat."), and ``ask zoc`` says so.

One-row inline maps (flat-top-even-q): hexes of row 01 in consecutive columns are adjacent, so
a marker in 0301 stands on the only path from 0601 to the German west-edge source (5.1A).
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import make_ctx


def make(m41, units, markers=(), rows=1, weather=("warm", "dry")):
    doc = {"kind": "position", "format": 1, "game": "moscow41",
           "map": {"layout": "flat-top-even-q", "size": {"columns": 12, "rows": rows},
                   "terrain": {"default": "clear"}},
           "weather": {"temperature": weather[0], "ground": weather[1]},
           "phase": "first_player", "step": "command", "phasing": "german", "first_player": "german",
           "ip": {"german": 10, "soviet": 10}, "units": list(units),
           "markers": [{"kind": "partisan", "hex": h} for h in markers]}
    return make_ctx(m41, json.dumps(doc, indent=1))


def G(uid, hex_, cls="infantry", **kw):
    size = None if cls == "hq" else "division"
    return {k: v for k, v in {"id": uid, "side": "german", "class": cls, "size": size, "strength": 7,
                              "ma": 4, "hex": hex_, **kw}.items() if v is not None}


@pytest.mark.case("16.3A", "7.4")
def test_16_3A_partisan_marker_blocks_german_supply(m41):
    free = make(m41, [G("g", "0601")])
    assert free.hook.casebook_supply(ctx=free, unit="g")["in_supply"] is True
    ctx = make(m41, [G("g", "0601")], markers=["0301"])
    answer = ctx.hook.casebook_supply(ctx=ctx, unit="g")
    assert answer["in_supply"] is False
    assert "0301" in {b["hex"] for b in answer["blocked"]}


@pytest.mark.case("16.3A", "8.1B")
def test_16_3A_partisan_marker_blocks_german_command(m41):
    units = [G("g", "0601"), G("hq", "0201", "hq", radius=6)]
    free = make(m41, units)
    assert free.hook.casebook_command(ctx=free, unit="g")["in_command"] is True
    ctx = make(m41, units, markers=["0401"])
    assert ctx.hook.casebook_command(ctx=ctx, unit="g")["in_command"] is False


@pytest.mark.case("16.3A", "7.5A")
def test_16_3A_partisan_marker_blocks_a_german_retreat_and_ask_zoc_says_so(m41):
    ctx = make(m41, [G("g", "0601")], markers=["0501"])
    zoc = ctx.hook.casebook_answer(ctx=ctx, question="zoc", args=["0501", "german"], options={})
    assert zoc["exerted_by"] == ["partisan@0501"]
    assert zoc["blocks_supply"] and zoc["blocks_command"] and zoc["blocks_retreat"]
    assert "16.3A" in zoc["cases"]
    assert ctx.hook.casebook_zoc(ctx=ctx, hex="0401", side="german")["exerted_by"] == []
    # not against the Soviets: a Soviet ZOC
    soviet = make(m41, [G("g", "0601")], markers=["0301"])
    assert soviet.hook.casebook_zoc(ctx=soviet, hex="0301", side="soviet")["exerted_by"] == []
    from casebook.areas._zoc_moves import retreat_refusals
    refused = retreat_refusals(ctx, "german", ["0501"])
    assert refused and refused[0].cases == ("7.5A", "7.5B")
    # a German combat unit in the marker's hex opens it (7.4, 7.5A), as for any EZOC
    opened = make(m41, [G("g", "0601"), G("h", "0501")], markers=["0501"])
    assert retreat_refusals(opened, "german", ["0501"]) == []
