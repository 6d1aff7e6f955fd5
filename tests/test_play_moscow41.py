"""Moscow '41 played through the game API with bots: invariants after every action, replay,
determinism, and save/resume. Short prefixes of the October Blitz keep CI fast; the soak script
(benchmarks/soak.py) plays whole games."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.core.trace import Trace
from casebook.tools.bots import GreedyBot, RandomBot
from casebook.tools.cmd_replay import replay_trace

ACTIONS = 120


@pytest.fixture(scope="module")
def blitz(m41):
    return Game(m41, "october-blitz")


def _check(state) -> None:
    data = state.data
    for side in ("german", "soviet"):
        assert 0 <= data.track("ip", side) <= 99, (side, data.track("ip", side))                    # 1.4
    ids = [u.get("id") for u in data.units]
    assert len(ids) == len(set(ids)), "a unit is in two places"
    on_map = set(ids)
    for u in data.units:
        assert 0 <= int(u.get("losses") or 0) <= 3, u                               # 11.3A
    seqs = [e.seq for e in state.trace]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "trace sequence not dense"
    actions = [e.seq for e in state.trace if e.kind == "action"]
    assert len(actions) == len(set(actions))
    assert on_map


def _play(state, bots, n):
    played = []
    for _ in range(n):
        if state.is_terminal():
            break
        action = bots[state.current_player()].choose(state)
        state.apply(action)
        played.append(action)
        _check(state)
    return played


@pytest.mark.case("0.7.3.6", "0.7.4", "0.7.5")
def test_0_7_random_bots_keep_the_invariants(blitz):
    state = blitz.new_initial_state(seed=11)
    bots = {s: RandomBot(s, 11) for s in ("german", "soviet")}
    played = _play(state, bots, ACTIONS)
    assert len(played) == ACTIONS or state.is_terminal()
    steps = {(e.phase, e.step) for e in state.trace}
    assert ("first_player", "command") in steps and ("weather", "temperature") in steps


def test_same_seed_same_trace_and_replay_is_identical(blitz, tmp_path):
    runs = []
    for _ in range(2):
        state = blitz.new_initial_state(seed=5)
        _play(state, {s: RandomBot(s, 5) for s in ("german", "soviet")}, 60)
        runs.append(state)
    assert runs[0].trace.dumps() == runs[1].trace.dumps()
    path = tmp_path / "trace.jsonl"
    runs[0].trace.write(path)
    ok, message = replay_trace(path, partial=True)  # 60 actions: the game goes on
    assert ok and "the trace is incomplete: it stops at seq" in message, message


def test_save_load_continue_gives_the_uninterrupted_trace(blitz):
    whole = blitz.new_initial_state(seed=8)
    actions = _play(whole, {s: RandomBot(s, 8) for s in ("german", "soviet")}, 50)
    first = blitz.new_initial_state(seed=8)
    for a in actions[:25]:
        first.apply(a)
    saved, trace = first.to_dict(), Trace(list(first.trace))
    resumed = blitz.state_from_dict(saved, trace)
    for a in actions[25:]:
        resumed.apply(a)
    assert resumed.trace.dumps() == whole.trace.dumps()
    assert resumed.to_dict() == whole.to_dict()


def test_greedy_bot_attacks_or_moves_rather_than_passing(blitz):
    state = blitz.new_initial_state(seed=1)
    bots = {s: GreedyBot(s, 1) for s in ("german", "soviet")}
    played = _play(state, bots, 40)
    kinds = {a.kind for a in played}
    assert "activate-hq" in kinds and ("move" in kinds or "attack" in kinds)
