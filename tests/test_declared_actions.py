"""Declared actions (issue #15 item 1): an ``offer`` block of a rule script says when and for whom
an action is offered, what it costs and what it changes; the ``declared_actions`` plugin lists it,
refuses it by its lines (each refusal with ``file:line``) and carries it out. Proved on Moscow
'41's Partisan markers (16.1C, 16.2): ``place-partisan`` has no Python of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.position import load_position
from casebook.core.actions import Action
from casebook.core.errors import ScriptSyntaxError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.trace import Trace
from casebook.script import compile_scripts, declared
from casebook.script.engine import load_engine, state_from_position
from casebook.script.facts import load_facts

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "games" / "moscow41" / "rules"

POSITION = """
kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {{columns: 12, rows: 12}}
  terrain: {{default: clear}}
turn: 6
weather: {{temperature: cold, ground: frozen}}
phase: {phase}
step: {step}
phasing: soviet
first_player: german
partisans: {points}
markers: []
units:
  - {{id: g1, side: german, class: infantry, size: division, strength: 6, ma: 4, hex: "0101"}}
"""


def _ctx(points: int = 1, step: str = "replacement_reinforcement", event_lines: bool = False):
    engine = load_engine("moscow41")
    phase = "second_initiative" if step == "replacement_reinforcement" else "second_player"
    pos = load_position(POSITION.format(points=points, step=step, phase=phase), pack=engine.pack)
    return engine.ctx(state_from_position(pos), Trace(), event_lines=event_lines)


def _line_no(text: str) -> str:
    lines = (RULES / "partisans.rules").read_text(encoding="utf-8").split("\n")
    return f"partisans.rules:{next(i for i, t in enumerate(lines, 1) if t.strip().startswith(text))}"


def _offer():
    [offer] = [o for o in load_engine("moscow41").rules.offers if o.action == "place_partisan"]
    return offer


@pytest.mark.case("16.1C", "16.2")
def test_16_1C_the_offer_compiles_to_its_step_side_candidates_cost_and_effect():
    o = _offer()
    assert (o.kind, o.step, o.side, o.collection, o.arg, o.event) == (
        "place-partisan", "replacement_reinforcement", "soviet", "map_hexes", "hex", "partisan-placed")
    assert [(c.track, c.quantity, c.code.cases) for c in o.costs] == [("partisans", "partisan_marker_cost", ("16.1C",))]
    assert [(e.effect, e.arg, e.code.cases) for e in o.effects] == [("place_marker", "partisan", ("16.2",))]
    assert o.code.source == _line_no("offer place_partisan") and o.code.cases == ("16.1C", "16.2")


@pytest.mark.case("16.2")
def test_16_2_listed_for_every_hex_beyond_five_of_a_german_unit_in_board_order():
    ctx = _ctx(points=1)
    hexes = [a.get("hex") for a in declared.casebook_legal_actions(ctx, "second_initiative", "replacement_reinforcement")]
    assert "0106" not in hexes and "0107" in hexes          # 5 hexes from g1 (0101): refused; 6: offered
    g1 = parse_hex("0101")
    assert hexes == [hex_label(h) for h in ctx.board.hexes() if ctx.board.grid.distance(h, g1) > 5]
    assert declared.casebook_legal_actions(_ctx(points=0), "second_initiative", "replacement_reinforcement") == []
    assert declared.casebook_legal_actions(_ctx(step="movement"), "second_player", "movement") == []


@pytest.mark.case("16.1C")
def test_16_1C_each_refusal_names_its_line():
    ctx = _ctx(points=0)
    with ctx.engine.recording_lines() as lines:
        refusals = declared.casebook_validate_action(ctx, Action.make("place-partisan", "soviet", hex="0909"))
    assert sorted({c for r in refusals for c in r.cases}) == ["16.1C"]
    cost = _line_no("cost partisan_marker_cost")
    assert any(f"[{cost}]" in r.reason for r in refusals)                       # the cost line
    assert _line_no("forbid place_partisan by 16.1C") in [ln["source"] for ln in lines]  # the forbid line
    out_of_step = declared.casebook_validate_action(_ctx(step="movement"), Action.make("place-partisan", "soviet",
                                                                                      hex="0909"))
    assert out_of_step[0].cases == ("16.1C", "16.2") and f"[{_line_no('offer place_partisan')}]" in out_of_step[0].reason
    off_map = declared.casebook_validate_action(_ctx(), Action.make("place-partisan", "soviet", hex="9999"))
    assert off_map and off_map[0].cases == ("16.1C", "16.2")


@pytest.mark.case("16.1C", "16.2")
def test_16_1C_applying_pays_the_track_places_the_marker_and_records_its_lines():
    ctx = _ctx(points=2, event_lines=True)
    out = declared.casebook_apply_action(ctx, Action.make("place-partisan", "soviet", hex="0909"))
    assert out == {"hex": "0909", "cost": 1, "track": 1, "cases": ["16.1C", "16.2"]}
    assert ctx.state.track("partisans") == 1
    assert [(m["kind"], m["hex"]) for m in ctx.state.markers] == [("partisan", "0909")]
    [event] = list(ctx.trace)
    assert (event.kind, event.cases, event.source, event.side) == (
        "partisan-placed", ("16.1C", "16.2"), _line_no("offer place_partisan"), "soviet")
    sources = [ln["source"] for ln in event.data["lines"]]
    for start in ("offer place_partisan", "cost partisan_marker_cost", "place marker partisan"):
        assert _line_no(start) in sources


@pytest.mark.case("16.1D")
def test_16_1D_the_track_and_marker_facts_come_from_their_providers():
    ctx = _ctx(points=3)
    assert (ctx.standard["partisan_points"], ctx.standard["partisan_markers"]) == (3, 0)
    ctx.state.add_marker("partisan", "0909")
    assert ctx.standard["partisan_markers"] == 1


def _compile(text: str):
    schema = load_facts(RULES / "facts.yaml")
    return compile_scripts([("x.rules", text)], schema)


def test_an_offer_of_an_undeclared_action_is_an_error_with_a_suggestion():
    with pytest.raises(ScriptSyntaxError) as err:
        _compile("offer place_partisn in step movement by 16.1C\nend\n")
    assert "x.rules:1:7" in str(err.value) and "did you mean" in str(err.value) and "place_partisan" in str(err.value)


def test_an_unknown_candidate_collection_and_an_unknown_fact_in_a_cost_are_errors():
    with pytest.raises(ScriptSyntaxError) as err:
        _compile("offer place_partisan in step movement for each map_hx by 16.1C\n"
                 "  cost partisan_pionts from track partisans by 16.1C\nend\n")
    text = str(err.value)
    assert "for each map_hx" in text and "x.rules:2:" in text and "partisan_points" in text
