"""The planner's held deciding hexes (session 16, docs/planner.md "Hexes whose control decides"):
Battle for Moscow's Moscow (BM10.1: whoever last occupied it at the end wins) is never emptied by
the side standing on it, and weighs as a strike hex on the last turn."""

from __future__ import annotations

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.game import Game
from casebook.tools import planner_goals
from casebook.tools.bots_guard import empties
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_aims import LAST_TOP
from casebook.tools.planner_eval import build_view
from casebook.tools.planner_goals import HOLD_WEIGHT, goals_for

# the campaign's victory block (games/battle_for_moscow/scenarios/campaign.yaml): BM10.1, Moscow 1103
SCENARIO = ('scenario: {id: campaign, name: Test, first_turn: 1, last_turn: 7, '
            'victory: {rule: original, hexes: ["1103"]}}')


@pytest.fixture(scope="module")
def bfm():
    return Game.load("battle_for_moscow", "campaign")


def _state(game, units, *, step, turn, rolls=()):
    """A Battle for Moscow position on the pack's map, German player turn, Moscow German-held;
    ``units`` are ``(counter, hex, strength or None)``."""
    lines = ["kind: position", "format: 1", "game: battle_for_moscow", SCENARIO, f"turn: {turn}",
             "weather: {temperature: warm, ground: dry}", "phase: german_turn", f"step: {step}",
             "first_player: german", "phasing: german", 'control: {"1103": german}',
             f"rng: {{seed: 1, fixed: {list(rolls)}}}", "units:"]
    lines += [f'  - {{counter: {c}, hex: "{h}"' + (f", strength: {s}" if s else "") + "}" for c, h, s in units]
    pos = load_position("\n".join(lines) + "\n", pack=game.engine.pack)
    return game.state_from_dict(position_to_dict(pos))


def test_keeps_are_the_hexes_whose_control_alone_decides(bfm):
    state = bfm.new_initial_state(1)
    goals = goals_for(state.data.scenario, bfm.engine.board_for(state.data), state.data.sides)
    assert goals.keeps() == {"1103"}  # BM10.1: who last occupied Moscow
    blitz = Game.load("moscow41", "october-blitz")
    b = blitz.new_initial_state(1)
    bgoals = goals_for(b.data.scenario, blitz.engine.board_for(b.data), b.data.sides)
    assert bgoals.capital and not bgoals.keeps()  # 18.1.3B: its Moscow hexes are strike hexes (guards)


def test_planner_holds_moscow_rather_than_advance_out_of_it_bm10_1(bfm, monkeypatch):
    """The German garrison of Moscow attacked the lone Soviet army next door (1:1 at strength 4,
    a fixed 4: the defender retreats) and may advance into its hex: the planner stays (the Soviets
    would walk into the empty city, BM10.1: seeds 6, 10, 11 of session 15's row); without the keep
    it advances."""
    units = [("g-xli-pz", "1103", None), ("s-3a", "1104", 4), ("s-33a", "1306", None)]
    state = _state(bfm, units, step="combat", turn=6, rolls=[4])
    state.apply(next(a for a in state.legal_actions() if a.kind == "attack"))
    advance = next(a for a in state.legal_actions() if a.kind == "advance" and a.get("path"))
    assert tuple(advance.get("path")) == ("1104",)
    assert empties(state, advance, frozenset({"1103"})) == "1103"
    assert empties(state, advance, frozenset({"1104"})) is None
    choice = PlannerBot("german", 1).choose(state)
    assert choice.kind == "advance" and not choice.get("path")
    monkeypatch.setattr(planner_goals.Goals, "keeps", lambda self: frozenset())
    assert PlannerBot("german", 1).choose(state).get("path")


def test_moscow_weighs_as_a_strike_hex_on_the_last_turn_only(bfm):
    units = [("g-xli-pz", "1103", None), ("s-33a", "1305", None)]
    for turn, weight in ((6, HOLD_WEIGHT), (7, LAST_TOP * HOLD_WEIGHT)):
        state = _state(bfm, units, step="movement", turn=turn)
        for side in ("german", "soviet"):
            view = build_view(state, side, PlannerBot(side, 1).goals(state))
            assert view.aims["1103"] == weight
