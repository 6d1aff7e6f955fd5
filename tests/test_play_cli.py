"""Play, replay and explain on the mini pack with a toy rules plugin (the real game's plugins are
tested in games/moscow41/tests/ and by the Moscow '41 play tests)."""

from __future__ import annotations

import pytest
from test_game import Toy

from casebook.content.tracefile import read_trace
from casebook.core.game import Game
from casebook.script.engine import Engine
from casebook.tools.account import narrate_all
from casebook.tools.bots import GreedyBot, RandomBot
from casebook.tools.cmd_play import PlayInterrupted, run_play
from casebook.tools.human import HumanPlayer, parse_ask_words


def _game(mini_pack) -> Game:
    return Game(Engine.load(mini_pack, extra_plugins={"toy": Toy()}), "skirmish")


def test_bots_play_the_mini_game_to_the_end_and_write_their_files(mini_pack, tmp_path):
    lines: list[str] = []
    state = run_play(_game(mini_pack), "skirmish", {"german": ("bot", "greedy"), "soviet": ("bot", "random")},
                     seed=3, out=tmp_path, echo=lines.append, progress=False)
    assert state.is_terminal()
    assert any(line.strip().startswith("Result: nobody — draw") for line in lines)
    assert (tmp_path / "trace.jsonl").is_file() and (tmp_path / "final.yaml").is_file()
    assert read_trace(tmp_path / "trace.jsonl") == state.trace
    assert sorted(p.name for p in tmp_path.glob("turn-*.svg"))[0] == "turn-01.svg"


def test_greedy_prefers_moving_to_passing_and_random_is_seeded(mini_pack):
    state = _game(mini_pack).new_initial_state(seed=1)
    assert GreedyBot("german").choose(state).kind == "move"
    picks = {str(RandomBot("german", seed=s).choose(state)) for s in range(20)}
    assert picks == {"german: move path=0304 stack=0303", "german: pass"}
    assert RandomBot("german", 4).choose(state) == RandomBot("german", 4).choose(state)


def test_account_names_actions_and_rolls(mini_pack):
    state = _game(mini_pack).new_initial_state(seed=2)
    state.apply(state.legal_actions()[0])
    text = "\n".join(narrate_all(state.trace))
    assert "german: move path=0304 stack=0303" in text and "rolls" in text and "=== Turn 1 ===" in text


def test_human_commands_then_a_numbered_choice(mini_pack, tmp_path):
    state = _game(mini_pack).new_initial_state(seed=2)
    said: list[str] = []
    replies = iter(["", "help", "why german: move stack=0303 path=0305", "9", "frobnicate now",
                    f"save {tmp_path / 's.yaml'}", "1"])
    human = HumanPlayer("german", "mini", echo=said.append, read=lambda prompt: next(replies))
    assert str(human.choose(state)) == "german: move path=0304 stack=0303"
    out = "\n".join(said)
    assert "0305 holds an enemy unit (cases 9.1C)" in out
    assert "no action number 9" in out and "error:" in out
    assert (tmp_path / "s.yaml").is_file() and (tmp_path / "s.yaml.trace.jsonl").is_file()


def test_ask_words_are_parsed_like_the_command_line():
    q, args, opts, as_json = parse_ask_words(["attack", "2134", "--with", "g1,g2", "--roll", "7", "--json"])
    assert (q, args, opts, as_json) == ("attack", ["2134"], {"with": ["g1", "g2"], "roll": 7}, True)


def test_an_interrupted_play_still_writes_its_trace_and_position(mini_pack, tmp_path, monkeypatch):
    from casebook.tools import bots

    def interrupt(self, state):
        raise KeyboardInterrupt

    monkeypatch.setattr(bots.RandomBot, "choose", interrupt)
    lines: list[str] = []
    with pytest.raises(PlayInterrupted) as stopped:  # Ctrl-C: the command exits 130 (issue #19)
        run_play(_game(mini_pack), "skirmish", {"german": ("bot", "random"), "soviet": ("bot", "random")},
                 seed=1, out=tmp_path, echo=lines.append, progress=False)
    state = stopped.value.state
    assert stopped.value.exit_code == 130
    assert not state.is_terminal()
    assert any("Interrupted" in line for line in lines)
    assert read_trace(tmp_path / "trace.jsonl") == state.trace
    assert (tmp_path / "final.yaml").is_file() and (tmp_path / "final.yaml.trace.jsonl").is_file()


def test_a_bad_path_for_map_or_save_is_an_error_and_play_goes_on(mini_pack, tmp_path):
    state = _game(mini_pack).new_initial_state(seed=2)
    said: list[str] = []
    missing = tmp_path / "no" / "such" / "dir"
    replies = iter([f"map {missing / 'x.svg'}", f"save {missing / 'x.yaml'}", "1"])
    human = HumanPlayer("german", "mini", echo=said.append, read=lambda prompt: next(replies))
    assert str(human.choose(state)) == "german: move path=0304 stack=0303"
    errors = [line for line in said if line.startswith("error: cannot")]
    assert errors == [f"error: cannot write {missing / 'x.svg'}: No such file or directory",
                      f"error: cannot save to {missing / 'x.yaml'}: No such file or directory — nothing was "
                      f"written; the game goes on"]  # the save's path, not its trace's
    assert not missing.exists()


def test_play_takes_a_bare_bot_name_as_batch_does():
    """``--player blue=greedy`` is ``bot:greedy`` (batch's --bot takes both); a wrong name is still
    refused naming the kinds."""
    from casebook.tools.cmd_play import parse_player

    assert parse_player("greedy") == parse_player("bot:greedy") == ("bot", "greedy")
    assert parse_player("human") == ("human", "")
    import click
    import pytest as _pytest

    with _pytest.raises(click.BadParameter, match="bot:random"):
        parse_player("grready")


def test_an_unknown_player_kind_is_a_usage_error_of_player():
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    r = CliRunner().invoke(cli, ["play", "kestrel_pass", "--player", "blue=robot"])
    assert r.exit_code == 2
    assert "Invalid value for --player: expected human or bot:random|bot:greedy|bot:planner, got 'robot'" in r.output


@pytest.mark.case("9.1C")
def test_9_1C_why_alone_explains_the_last_refusal_as_why_action_does(mini_pack, tmp_path, monkeypatch):
    """`why` with no action printed "not an action: ''" (no refusal named): it asks `why` of the last
    action refused at this decision — the rules' refusal of an applied action, or a typed input's
    — and before any refusal says there is none."""
    from casebook.tools import human

    replies = iter(["why", "move stack=0303 path=0305", "why", "why move stack=0303 path=0305",
                    "move stack=", "why", "quit"])

    class Scripted(human.HumanPlayer):  # the play's own human player, reading the replies
        def __init__(self, side, game, echo=print):
            super().__init__(side, game, echo=echo, read=lambda prompt: next(replies))

    monkeypatch.setattr(human, "HumanPlayer", Scripted)
    said: list[str] = []
    run_play(_game(mini_pack), "skirmish", {"german": ("human", ""), "soviet": ("bot", "random")},
             seed=2, out=tmp_path, echo=said.append, progress=False)
    asked = [ln for ln in said if ln.startswith("why ") or "(cases" in ln or "no action was refused" in ln
             or ln.startswith("stack= is empty")]
    because = "0305 holds an enemy unit (cases 9.1C)"
    assert asked == ["no action was refused at this decision: type why ACTION to ask of one",
                     "why german: move path=0305 stack=0303:", because, "why german: move path=0305 stack=0303:", because,
                     "why move stack=:", "stack= is empty: name at least one hex after it, or leave stack= out"]
    assert any(ln.startswith("refused: illegal action 'german: move path=0305 stack=0303'") for ln in said)


def test_play_prints_the_last_turns_summary_before_the_game_over_line(tmp_path):
    # session 16's fresh-user trial: "*** Game over" came before the "Turn 4 summary"
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    args = ["play", "kestrel_pass", "--player", "blue=bot:greedy", "--player", "red=bot:greedy", "--quiet",
            "--out", str(tmp_path / "out")]
    out = CliRunner().invoke(cli, args).output
    lines = out.splitlines()
    [over] = [i for i, ln in enumerate(lines) if "Game over: red wins (automatic victory)" in ln]
    summaries = [i for i, ln in enumerate(lines) if ln.startswith("--- Turn ")]
    assert summaries and max(summaries) < over, out                 # every summary before the end
    assert lines[max(summaries)] == "--- Turn 3 summary" and out.count("--- Turn 3 summary") == 1


def test_why_action_at_the_prompt_names_the_action_asked_of_as_ask_why_does(mini_pack):
    """Session 18, a fresh user's report: play's ``why ACTION`` printed the refusal with no header,
    where ``why`` alone prints ``why SIDE: …:`` and ``ask … why`` ``action: SIDE: …``. Every ``why``
    names the action it judges (its side completed, its arguments in order) first."""
    state = _game(mini_pack).new_initial_state(seed=2)
    said: list[str] = []
    replies = iter(["why move stack=0303 path=0305", "why move stack=9999", "1"])
    HumanPlayer("german", "mini", echo=said.append, read=lambda prompt: next(replies)).choose(state)
    at = said.index("why german: move path=0305 stack=0303:")
    assert said[at + 1] == "0305 holds an enemy unit (cases 9.1C)"
    assert "why move stack=9999:" in said  # a typed input it cannot read: named as typed
