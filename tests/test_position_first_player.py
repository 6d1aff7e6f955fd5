"""A position in a phase played by the first (or second) player needs to know who the first player
is: ``first_player:``, else the ``phasing:`` side of that phase. With neither, the play ended in a
traceback at the phase's end (``ValueError: phase 'first_player' needs the first player, but none
is set``, fresh-user trial of session 10); now the position check refuses it as one located problem,
exit 1 — in ``ask``, ``play --load`` and ``replay`` alike."""

from __future__ import annotations

import json

import pytest

from casebook.content.loader import installed_games, load_pack
from casebook.content.position import load_position, position_to_dict
from casebook.core.errors import PositionError
from tests.conftest import m41_position
from tests.test_position_fields import run

START = m41_position("combat", hedgehog=True)
NEITHER = m41_position("combat", hedgehog=True, phasing=None)
MESSAGE = ("first_player: not given, but phase 'first_player' is played by the first player: add "
           "`first_player: SIDE` (or the phase's `phasing: SIDE`; SIDE: german, soviet)")


@pytest.fixture(scope="module")
def m41_pack():
    return load_pack(installed_games()["moscow41"])


def test_first_player_is_the_phasing_side_of_a_first_player_phase(m41_pack):
    assert load_position(START, pack=m41_pack).first_player == "german"
    second = START.replace("phase: first_player", "phase: second_player")
    assert load_position(second, pack=m41_pack).first_player == "soviet"


def test_neither_first_player_nor_phasing_is_one_located_problem(m41_pack):
    with pytest.raises(PositionError) as refused:
        load_position(NEITHER, pack=m41_pack)
    [problem] = refused.value.problems
    assert (problem.line, problem.column, problem.key) == (9, 1, "first_player")   # at `phase:`
    assert f"{problem.key}: {problem.message}" == MESSAGE


def test_ask_and_play_load_refuse_it_exit_1_and_with_phasing_play_on_past_the_phase(tmp_path):
    bad = tmp_path / "nofp.yaml"
    bad.write_text(NEITHER, encoding="utf-8")
    code, out = run("ask", bad, "why", "hedgehog stack=0303")
    assert code == 1 and out.splitlines()[0] == f"{bad}:9:1: {MESSAGE}" and "Traceback" not in out, out
    code, out = run("play", "--load", bad, "--player", "german=bot:greedy", "--player", "soviet=bot:greedy",
                    "--quiet", "--out", tmp_path / "out")
    assert code == 1 and f"{bad}:9:1: {MESSAGE}" in out and "Traceback" not in out, out
    good = tmp_path / "phasing.yaml"
    good.write_text(START, encoding="utf-8")  # the combat step settles into the second player's phase
    code, out = run("ask", good, "why", "german: hedgehog stack=0303")
    assert code == 0 and "legal: no" in out and "Traceback" not in out, out


def test_replay_of_a_trace_holding_such_a_position_is_refused_at_its_line_1(m41_pack, tmp_path):
    """``play --load`` writes the position it began from into the trace's setup event; one
    without first player and phasing (a hand-edited trace) is refused at the trace's line 1."""
    held = position_to_dict(load_position(START, pack=m41_pack))
    for key in ("first_player", "phasing"):
        held.pop(key)
    setup = {"seq": 0, "turn": 5, "phase": "first_player", "step": "combat", "side": None, "kind": "setup",
             "cases": [], "source": "driver",
             "data": {"game": "moscow41", "scenario": "october-blitz", "seed": 0, "position": held}}
    trace = tmp_path / "trace.jsonl"
    trace.write_text(json.dumps(setup) + "\n", encoding="utf-8")
    code, out = run("replay", trace, "--partial")
    assert code == 1 and out.splitlines()[0] == f"{trace}:1:0: position.{MESSAGE}" and "Traceback" not in out, out
