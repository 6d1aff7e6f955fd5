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


def _moved(m41, side: str, path: str) -> list[str]:
    """The rule lines (``file:line``) of the move event of ``side``'s division from 0201 along ``path``
    (clear, dry), a Partisan marker in 0401 and an enemy division far off in 1101."""
    from casebook.content.position import load_position, position_to_dict
    from casebook.core.game import Game

    enemy = "soviet" if side == "german" else "german"
    units = [{"id": "u", "side": side, "class": "infantry", "size": "division", "strength": 7, "ma": 4,
              "hex": "0201", "activated": True},
             {"id": "x", "side": enemy, "class": "infantry", "size": "division", "strength": 3, "ma": 4, "hex": "1101"}]
    doc = {"kind": "position", "format": 1, "game": "moscow41",
           "map": {"layout": "flat-top-even-q", "size": {"columns": 12, "rows": 1}, "terrain": {"default": "clear"}},
           "turn": 3, "weather": {"temperature": "warm", "ground": "dry"}, "phase": "first_player",
           "step": "movement", "phasing": side, "first_player": side, "ip": {"german": 10, "soviet": 10},
           "units": units, "markers": [{"kind": "partisan", "hex": "0401"}]}
    state = Game(m41, "october-blitz").state_from_dict(
        position_to_dict(load_position(json.dumps(doc, indent=1), pack=m41.pack)))
    state.apply(f"{side}: move stack=0201 path={path}")
    (move,) = [e for e in state.trace if e.kind == "move"]
    return [ln["source"] for ln in move.data["lines"]]


@pytest.mark.case("16.3A", "7.0A")
def test_16_3A_a_soviet_move_through_a_partisan_hex_names_no_marker_zoc_line(m41):
    """The marker's ZOC is a Soviet ZOC (16.3A): a Soviet move through its hex reads no ZOC of its
    own side's marker (a ZOC hinders only the enemy, 7.0A), so it names neither `permit marker_zoc`
    (zoc.rules:43) nor `forbid marker_zoc` (zoc.rules:42) — as it names no line about its own units'
    ZOCs. (A German move stopping there named `permit marker_zoc` before session 17: below.)"""
    soviet = _moved(m41, "soviet", "0301,0401")
    assert not {"zoc.rules:42", "zoc.rules:43"} & set(soviet)


@pytest.mark.case("16.3A", "7.2")
def test_16_3A_a_german_move_ending_in_a_partisan_hex_names_no_zoc_line_and_going_on_names_the_permit(m41):
    """A legal German move whose path ends in the marker's hex: the 7.2 stop decided nothing of it
    (the path ends there anyway), so its event names no ZOC line (session 17, mv17: a move names the
    lines `why` names of it); going on from that hex is refused naming `permit marker_zoc`
    (zoc.rules:43, 16.3A), the line that put the hex in a Soviet ZOC."""
    from casebook.content.position import load_position, position_to_dict
    from casebook.core.game import Game
    from casebook.tools.cmd_ask import why_not_lines

    german = _moved(m41, "german", "0301,0401")
    assert not {"zoc.rules:42", "zoc.rules:43"} & set(german)
    doc = {"kind": "position", "format": 1, "game": "moscow41",
           "map": {"layout": "flat-top-even-q", "size": {"columns": 12, "rows": 1}, "terrain": {"default": "clear"}},
           "turn": 3, "weather": {"temperature": "warm", "ground": "dry"}, "phase": "first_player",
           "step": "movement", "phasing": "german", "first_player": "german", "ip": {"german": 10, "soviet": 10},
           "units": [{"id": "u", "side": "german", "class": "infantry", "size": "division", "strength": 7, "ma": 4,
                      "hex": "0201", "activated": True},
                     {"id": "x", "side": "soviet", "class": "infantry", "size": "division", "strength": 3, "ma": 4,
                      "hex": "1101"}],
           "markers": [{"kind": "partisan", "hex": "0401"}]}
    state = Game(m41, "october-blitz").state_from_dict(
        position_to_dict(load_position(json.dumps(doc, indent=1), pack=m41.pack)))
    cases, _reason, lines = why_not_lines(state, "german: move stack=0201 path=0301,0401,0501")
    assert "7.2" in cases and "zoc.rules:43" in [ln["source"] for ln in lines]
