"""0.7.3.5 / 10.5B: a person asked at a step only for a template's sake (a reaction attack no
listed group makes) who makes the template's action there is replayed exactly: the setup event
lists the sides people played (``humans``), and ``casebook replay`` asks them as play did, their
plain passes at such steps — recorded as the ``auto-pass`` a bot's play has — passed again
(tools/saves.asked_passes). Session 16's fresh-user check: replay passed the step by itself and
said ``events differ``. A bot-only play's setup event has no ``humans`` (golden traces unchanged);
a trace without it replays as before."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main
from games.moscow41.tests.test_decisions_template_only import REACTION
from tests.conftest import m41_inline

ATTACK = "attack hex=0304 with=s2 support=0"   # the template's filling: s1 may not react (2.4A)


def _events(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _play(tmp_path, typed: str, name: str = "out", load=None, players=("soviet=human", "german=bot:greedy")):
    if load is None:
        load = tmp_path / "ra.yaml"
        load.write_text(m41_inline(REACTION, step="reaction_attacks", ip="{german: 0, soviet: 5}"), encoding="utf-8")
    args = ["play", "--load", str(load), "--out", str(tmp_path / name), "--quiet"]
    for p in players:
        args += ["--player", p]
    played = CliRunner().invoke(main, args, input=typed)
    assert played.exit_code == 0, played.output
    return tmp_path / name


@pytest.mark.case("0.7.3.5", "10.5B")
def test_0_7_3_5_a_human_template_attack_at_a_step_bots_pass_replays_identically(tmp_path):
    out = _play(tmp_path, f"{ATTACK}\nquit\n")
    events = _events(out / "trace.jsonl")
    setup = events[0]["data"]
    assert (setup["humans"], setup["scenario"]) == (["soviet"], None)   # a hand-made position: no scenario
    action = next(e for e in events if e["kind"] == "action")
    assert (action["step"], action["data"]["action"]) == ("reaction_attacks", "soviet: attack hex=0304 support=0 with=s2")
    replayed = CliRunner().invoke(main, ["replay", str(out / "trace.jsonl")])
    assert replayed.exit_code == 0, replayed.output
    assert f"{len(events)} events replayed identically" in replayed.output
    # without the record replay passes the step by itself, as bots do, and the events differ there
    bare = dict(events[0], data={k: v for k, v in setup.items() if k != "humans"})
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in [bare, *events[1:]]), encoding="utf-8")
    differs = CliRunner().invoke(main, ["replay", str(old)])
    assert differs.exit_code == 1 and f"seq {action['seq']}: events differ" in differs.output


@pytest.mark.case("0.7.3.5", "10.5B")
def test_0_7_3_5_sides_people_played_before_a_load_stay_listed(tmp_path):
    # soviet (a person) passes the template-only step; the play is continued with soviet a bot and
    # german a person: the setup event lists both, and the whole trace replays identically
    first = _play(tmp_path, "pass\nquit\n")
    again = _play(tmp_path, "pass\nquit\n", "again", load=first / "final.yaml",
                  players=("soviet=bot:greedy", "german=human"))
    events = _events(again / "trace.jsonl")
    assert events[0]["data"]["humans"] == ["german", "soviet"]
    replayed = CliRunner().invoke(main, ["replay", str(again / "trace.jsonl")])
    assert replayed.exit_code == 0, replayed.output
    assert f"{len(events)} events replayed identically" in replayed.output


def test_a_bot_only_setup_event_lists_no_humans_and_a_bad_list_is_refused(tmp_path):
    from casebook.core.game import Game

    state = Game.load("kestrel_pass").new_initial_state(3)
    assert "humans" not in state.trace[0].data
    assert Game.load("kestrel_pass").new_initial_state(3, humans=["red"]).trace[0].data["humans"] == ["red"]
    bad = dict(state.trace[0].to_dict())
    bad["data"] = {**bad["data"], "humans": "red"}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    refused = CliRunner().invoke(main, ["replay", str(path)])
    assert refused.exit_code == 1
    assert "setup: humans must be a list of the sides people played, got 'red'" in refused.output


@pytest.mark.case("0.7.3.5", "10.5B")
def test_0_7_3_5_serve_watch_steps_through_a_human_template_attack(tmp_path):
    from casebook.tools.web.watch import Watch

    out = _play(tmp_path, f"{ATTACK}\nquit\n")
    watch = Watch(out / "trace.jsonl")
    last = watch.at(len(watch.events) - 1)        # replays every decision, comparing every event
    assert last["decision"] == watch.summary()["decisions"]
    assert watch.summary()["scenario"] == "october-blitz"   # scenario null: played on the first scenario's turns


@pytest.mark.case("0.7.3.5", "10.5B")
def test_0_7_3_5_undo_after_a_load_passes_the_asked_step_again(tmp_path):
    # soviet (a person) passes the template-only step, saves at its next decision; loaded again,
    # its next decision is taken back: the play is replayed from the start, the asked step passed
    # as the trace has it (the loaded history holds only the trace's action events) — it said
    # "illegal action 'german: pass': not among the legal actions of the reaction_attacks step"
    save = tmp_path / "s.yaml"
    _play(tmp_path, f"pass\nsave {save}\nquit\n")
    again = CliRunner().invoke(main, ["play", "--load", str(save), "--player", "soviet=human", "--player",
                                      "german=bot:greedy", "--out", str(tmp_path / "again"), "--quiet"],
                               input="1\nundo\nquit\n")
    assert again.exit_code == 0, again.output
    assert "took back: soviet: activate-hq hq=s-hq stacks=0305" in again.output and "illegal" not in again.output
    replayed = CliRunner().invoke(main, ["replay", str(tmp_path / "again" / "trace.jsonl")])
    assert replayed.exit_code == 0, replayed.output
