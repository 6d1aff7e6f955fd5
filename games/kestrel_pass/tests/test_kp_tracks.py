"""Kestrel Pass's victory-point tracks (KP10), all data: `blue_vp`/`red_vp` declared in game.yaml's
vocabulary (0..10, KP10.3), moved by the `when step ends` lines of rules/victory.rules (KP10.1)
and read by its `end the game` lines (KP10.2); `ask … victory` shows the tracks and the lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

PACK = Path(__file__).resolve().parents[1]
BLUE_COMBAT = {"phase": "blue_turn", "step": "combat"}
RED_COMBAT = {"phase": "red_turn", "step": "combat"}


def _position_text(units, *, phasing="blue", step="combat", tracks=None):
    lines = ["kind: position", "format: 1", "game: kestrel_pass", "turn: 2",
             "weather: {temperature: warm, ground: dry}", f"phase: {phasing}_turn", f"step: {step}",
             "first_player: blue", f"phasing: {phasing}"]
    lines += [f"{name}: {value}" for name, value in (tracks or {}).items()]
    lines.append("units:")
    lines += [f'  - {{counter: {c}, hex: "{h}"}}' for c, h in units]
    return "\n".join(lines) + "\n"


def _ctx(kp, units, **kw):
    from casebook.content.position import load_position
    from casebook.core.trace import Trace
    from casebook.script.engine import state_from_position

    pos = load_position(_position_text(units, **kw), pack=kp.pack)
    return kp.ctx(state_from_position(pos), Trace())


def _step_ends(ctx, facts):
    from casebook.script.effects import triggered

    return triggered(ctx, "step_ends", facts)


# Northford 0404, Kestrel 0506, Southmere 0611 (map.yaml); 0304 and 0807 are no towns
TWO_BLUE_ONE_RED = [("b-1", "0404"), ("b-2", "0506"), ("b-3", "0304"), ("r-1", "0611"), ("r-2", "0807")]


@pytest.mark.case("KP10.1")
def test_KP10_1_a_side_scores_a_vp_per_pass_town_it_occupies_at_the_end_of_its_combat_phase(kp):
    ctx = _ctx(kp, TWO_BLUE_ONE_RED, tracks={"blue_vp": 3, "red_vp": 4})
    assert _step_ends(ctx, BLUE_COMBAT) is None
    assert (ctx.state.track("blue_vp"), ctx.state.track("red_vp")) == (5, 4)   # +2: Northford, Kestrel
    [event] = [e for e in ctx.trace if e.kind == "trigger"]
    assert event.cases == ("KP10.1", "KP10.3")
    assert (event.data["arg"], event.data["added"], event.data["value"]) == ("blue_vp", 2, 5)
    assert event.data["lines"] == [{"source": "victory.rules:11", "cases": ["KP10.1", "KP10.3"]}]
    _step_ends(ctx, RED_COMBAT)                                               # red: Southmere, +1
    assert (ctx.state.track("blue_vp"), ctx.state.track("red_vp")) == (5, 5)


@pytest.mark.case("KP10.1")
def test_KP10_1_no_vp_at_the_end_of_a_movement_phase(kp):
    ctx = _ctx(kp, TWO_BLUE_ONE_RED, step="movement", tracks={"blue_vp": 3})
    _step_ends(ctx, {"phase": "blue_turn", "step": "movement"})
    _step_ends(ctx, {"phase": "red_turn", "step": "movement"})
    assert (ctx.state.track("blue_vp"), ctx.state.track("red_vp")) == (3, 0)
    assert not [e for e in ctx.trace if e.kind == "trigger"]


@pytest.mark.case("KP10.3")
def test_KP10_3_the_track_stops_at_10(kp):
    ctx = _ctx(kp, [("r-1", "0404"), ("r-2", "0506"), ("r-3", "0611")], phasing="red", tracks={"red_vp": 9})
    result = _step_ends(ctx, RED_COMBAT)
    assert ctx.state.track("red_vp") == 10                                     # 9 + 3 held to 10
    [event] = [e for e in ctx.trace if e.kind == "trigger"]
    assert (event.data["added"], event.data["value"]) == (1, 10)
    assert result is not None and result["winner"] == "red"


@pytest.mark.case("KP10.2")
def test_KP10_2_a_side_wins_at_once_when_its_vps_reach_10(kp):
    ctx = _ctx(kp, TWO_BLUE_ONE_RED, tracks={"blue_vp": 8})
    result = _step_ends(ctx, BLUE_COMBAT)
    assert ctx.state.track("blue_vp") == 10                                    # scored first (line 11)
    assert (result["winner"], result["reason"], result["cases"]) == ("blue", "Blue reached 10 VPs", ["KP10.2"])
    assert result["lines"] == [{"source": "victory.rules:19", "cases": ["KP10.2"]}]
    short = _ctx(kp, TWO_BLUE_ONE_RED, tracks={"blue_vp": 7})                  # 7 + 2 = 9: play on
    assert _step_ends(short, BLUE_COMBAT) is None and short.state.track("blue_vp") == 9
    red = _ctx(kp, TWO_BLUE_ONE_RED, tracks={"red_vp": 9})                     # red's 9 + 1 at blue's step end: no
    assert _step_ends(red, BLUE_COMBAT) is None and red.state.track("red_vp") == 9


@pytest.mark.case("KP10.1", "KP10.2")
def test_KP10_ask_victory_shows_the_tracks_and_the_lines(tmp_path):
    pos = tmp_path / "blue-combat.yaml"
    pos.write_text(_position_text(TWO_BLUE_ONE_RED, tracks={"blue_vp": 8}), encoding="utf-8")
    r = CliRunner().invoke(main, ["ask", str(pos), "victory", "--pack", str(PACK), "--json"])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.output)
    # engineers: KP11.1, unset: 0 a side, as the rules read it (it was `{}`)
    assert answer["tracks"] == {"blue_vp": 8, "red_vp": 0, "engineers": {"blue": 0, "red": 0}}
    got = [(ln["source"], ln["cases"], ln["fires"], ln["amount"]) for ln in answer["step_lines"]]
    assert got == [("victory.rules:11", ["KP10.1", "KP10.3"], True, 2),
                   ("victory.rules:14", ["KP10.1", "KP10.3"], False, None),
                   ("victory.rules:19", ["KP10.2"], True, None),
                   ("victory.rules:22", ["KP10.2"], False, None)]
    assert answer["step_lines"][0]["text"].endswith("to track blue_vp  by KP10.1, KP10.3")
    r = CliRunner().invoke(main, ["ask", str(pos), "victory", "--pack", str(PACK)])
    assert r.exit_code == 0 and "blue_vp: 8" in r.output and "red_vp: 0" in r.output and "victory.rules:19" in r.output, r.output


@pytest.mark.case("KP10.1", "KP10.3")
def test_KP10_in_play_each_vp_trigger_adds_the_towns_held_and_the_tracks_stay_in_bounds(kp):
    from casebook.core.game import Game
    from casebook.tools.bots import GreedyBot

    state = Game(kp, "meeting").new_initial_state(seed=1)
    bots = {s: GreedyBot(s, seed=1) for s in ("blue", "red")}
    while not state.is_terminal():
        state.apply(bots[state.current_player()].choose(state))
    events = state.trace.of_kind("trigger")
    assert events, "no VP was scored"
    for track in ("blue_vp", "red_vp"):
        mine = [e for e in events if e.data["arg"] == track]
        assert all(0 <= e.data["value"] <= 10 and 0 <= e.data["added"] <= 3 for e in mine)
        assert sum(e.data["added"] for e in mine) == state.data.track(track)


@pytest.mark.case("KP10.2")
def test_KP10_2_ends_a_played_game_at_the_end_of_blues_combat_phase(tmp_path):
    """A copy of the pack whose scenario starts Blue on 8 VPs with units in Northford and Kestrel:
    Blue passes its movement phase; its combat phase, with no attack to make, ends at once: Blue
    scores 2 (KP10.1) and wins on turn 1 (KP10.2), before Red moves."""
    import shutil

    from casebook.core.game import Game

    dst = tmp_path / "kestrel_pass"
    shutil.copytree(PACK, dst)
    scenario = dst / "scenarios" / "meeting.yaml"
    text = scenario.read_text(encoding="utf-8")
    for old, new in (('{counter: b-1, hex: "0204"}', '{counter: b-1, hex: "0404"}'),
                     ('{counter: b-2, hex: "0206"}', '{counter: b-2, hex: "0506"}'),
                     ("first_player: blue\n", "first_player: blue\nblue_vp: 8\n")):
        assert text.count(old) == 1
        text = text.replace(old, new)
    scenario.write_text(text, encoding="utf-8")
    state = Game.load(str(dst), "meeting").new_initial_state(seed=1)
    state.apply("blue: pass")                      # movement; combat ends with no attack: 8 + 2 VPs
    assert state.is_terminal() and state.data.track("blue_vp") == 10
    result = state.result()
    assert (result["winner"], result["reason"], result["cases"]) == ("blue", "Blue reached 10 VPs", ["KP10.2"])
    over = state.trace.of_kind("game-over")[-1]
    assert (over.turn, over.phase, over.step) == (1, "blue_turn", "combat")
