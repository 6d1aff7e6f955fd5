"""Resume is exact and replay names the first event that differs (issue #19): a game stopped
and resumed with ``play --load``, with any bot, gives the same trace as one played through; a
changed seed or a swapped action is reported at the first differing event, with both versions."""

from __future__ import annotations

import json

import pytest
from _secutil import run

from casebook.content.tracefile import read_trace
from casebook.tools.cmd_play import run_play


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_resumed_game_has_the_trace_of_one_played_through(tmp_path, bot):
    players = {"german": ("bot", bot), "soviet": ("bot", bot)}
    quiet = dict(echo=lambda line: None, progress=False)
    whole = run_play("battle_for_moscow", "campaign", players, 3, tmp_path / "whole", **quiet)
    first = run_play("battle_for_moscow", "campaign", players, 3, tmp_path / "first", max_actions=45, **quiet)
    assert not first.is_terminal() and len(first.history) == 45
    save = tmp_path / "first" / "final.yaml"
    assert "players: {german: bot:" + bot in save.read_text()  # who played is in the save
    rest = run_play(None, None, {}, 99, tmp_path / "rest", load=str(save), **quiet)  # seed and bots from the save
    assert rest.is_terminal() and whole.is_terminal()
    assert (tmp_path / "rest" / "trace.jsonl").read_text() == (tmp_path / "whole" / "trace.jsonl").read_text()


def test_a_resumed_game_of_the_planner_has_the_trace_of_one_played_through(tmp_path):
    """The planning bot too: its choices are a function of the game state and its seed (no plan
    carried between decisions), so 30 decisions, a save, and 30 more give the trace of 60."""
    players = {"german": ("bot", "planner"), "soviet": ("bot", "planner")}
    quiet = dict(echo=lambda line: None, progress=False)
    whole = run_play("battle_for_moscow", "campaign", players, 3, tmp_path / "whole", max_actions=60, **quiet)
    first = run_play("battle_for_moscow", "campaign", players, 3, tmp_path / "first", max_actions=30, **quiet)
    assert len(first.history) == 30 and len(whole.history) == 60
    rest = run_play(None, None, {}, 99, tmp_path / "rest", load=str(tmp_path / "first" / "final.yaml"),
                    max_actions=30, **quiet)
    assert len(rest.history) == 60
    assert (tmp_path / "rest" / "trace.jsonl").read_text() == (tmp_path / "whole" / "trace.jsonl").read_text()


def test_undo_reaches_back_before_the_load(tmp_path):
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "greedy")}
    run_play("battle_for_moscow", "campaign", players, 1, tmp_path / "a", max_actions=10, echo=lambda s: None,
             progress=False)
    from casebook.tools.cmd_play import _resume

    _, state, initial, saved = _resume(None, None, str(tmp_path / "a" / "final.yaml"))
    assert initial is not None and len(state.history) == 10 and saved == {"german": "bot:greedy",
                                                                           "soviet": "bot:greedy"}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    out = tmp_path_factory.mktemp("played")
    code, text = run("play", "battle_for_moscow", "--out", out, "--quiet")
    assert code == 0, text
    return [json.loads(line) for line in (out / "trace.jsonl").read_text().splitlines()]


def _write(tmp_path, events) -> str:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events))
    return str(path)


def test_replay_reports_a_changed_seed_at_the_first_differing_roll(tmp_path, recorded):
    events = [dict(e) for e in recorded]
    events[0] = {**events[0], "data": {**events[0]["data"], "seed": 77}}
    first_roll = next(e["seq"] for e in events if e["kind"] == "roll")
    code, out = run("replay", _write(tmp_path, events))
    assert code == 1 and f"seq {first_roll}: events differ" in out, out
    assert "recorded:" in out and "replayed:" in out


def test_replay_reports_a_swapped_action_where_play_first_differs(tmp_path, recorded):
    """Another legal action put in the place of a recorded one: replay applies it, and reports the
    first event after it that differs (not the later action the changed game refuses)."""
    from casebook.core.actions import parse_action
    from casebook.core.game import Game

    events = [dict(e) for e in recorded]
    game = Game.load("battle_for_moscow", "campaign")
    state = game.new_initial_state(events[0]["data"]["seed"])
    swapped = None
    for i, e in enumerate(events):
        if e["kind"] != "action":
            continue
        others = [a for a in state.legal_actions() if str(a) != e["data"]["action"] and a.kind == "move"]
        if i > len(events) // 3 and others:
            events[i] = {**e, "data": {"action": str(others[-1])}}
            swapped = i
            break
        state.apply(parse_action(e["data"]["action"]))
    assert swapped is not None
    code, out = run("replay", _write(tmp_path, events))
    seq = int(out.split(":", 1)[0].removeprefix("seq "))
    assert code == 1 and "events differ" in out and events[swapped]["seq"] < seq <= events[swapped]["seq"] + 3, out


def test_replay_accepts_its_own_trace(tmp_path, recorded):
    code, out = run("replay", _write(tmp_path, recorded))
    assert code == 0 and "replayed identically" in out
    assert len(read_trace(tmp_path / "t.jsonl")) == len(recorded)


def test_a_trace_cut_at_a_line_boundary_is_incomplete_and_says_where_it_stops(tmp_path, recorded):
    """Cut just before an action (every event of the decisions before it whole): it replays
    identically as far as it goes, but it is not a game — it said "replayed identically"."""
    cut = max(i for i, e in enumerate(recorded) if e["kind"] == "action" and i < len(recorded) // 2)
    last = recorded[cut - 1]
    code, out = run("replay", _write(tmp_path, recorded[:cut]))
    assert code == 1, out
    assert f"the trace is incomplete: it stops at seq {last['seq']} (turn {last['turn']}, " in out
    assert "before the game's end, and no save beside it records that point" in out
    code, out = run("replay", "--partial", tmp_path / "t.jsonl")
    assert code == 0 and f"{cut} events replayed identically; the trace is incomplete" in out, out


def test_an_interrupted_play_replays_up_to_its_save_and_an_edited_save_is_no_save_point(tmp_path):
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "greedy")}
    state = run_play("battle_for_moscow", "campaign", players, 2, tmp_path / "p", max_actions=25,
                     echo=lambda line: None, progress=False)
    assert not state.is_terminal()
    trace, save = tmp_path / "p" / "trace.jsonl", tmp_path / "p" / "final.yaml"
    code, out = run("replay", trace)
    assert code == 0 and f"replayed identically, up to the save {save} (turn {state.data.turn}" in out, out
    code, out = run("replay", tmp_path / "p" / "final.yaml.trace.jsonl")
    assert code == 0 and "up to the save" in out, out
    text = save.read_text()
    turn = f"turn: {state.data.turn}\n"
    assert turn in text
    save.write_text(text.replace(turn, f"turn: {state.data.turn + 1}\n"))
    code, out = run("replay", trace)
    assert code == 1 and "the trace is incomplete" in out, out
