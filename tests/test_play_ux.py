"""What a player meets around the rules (#18 "rough edges"): the account, the ask text, ask --help
per game, the output folder of a play and the progress bar under a human's prompt."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner
from test_play_cli import _game

from casebook.core.trace import Event
from casebook.tools import play_output
from casebook.tools.account import Narrator, narrate_all, term_words
from casebook.tools.ask_text import render_answer
from casebook.tools.cli import cli as main
from casebook.tools.cmd_play import run_play
from casebook.tools.play_output import ProgressBar, prepare_out

BFM = "games/battle_for_moscow/scenarios/campaign.yaml"
M41 = "games/moscow41/scenarios/october-blitz.yaml"


def _ev(seq, kind, side="german", turn=1, step="movement", cases=(), **data):
    return Event(seq, turn, "player", step, side, kind, tuple(cases), "test", data)


# ---------------------------------------------------------------- the account

def test_account_numbers_events_and_tells_a_decision_once():
    events = [_ev(1, "action", cases=["0.7.3.2"], action="german: move path=0304 stack=0303"),
              _ev(2, "move", cases=["9.0A"], units=["g1"], path=["0304"], mp_spent=1),
              _ev(3, "action", cases=["0.7.3.2"], action="german: pass")]
    text = "\n".join(Narrator().lines(events))
    assert "#2" in text and "german: move: units: g1; path: 0304; mp_spent: 1  [9.0A]" in text
    assert "move path=0304 stack=0303" not in text  # the decision is told by its move event
    assert "#3" in text and "german: pass  [0.7.3.2]" in text  # nothing else tells of a pass
    assert "#1 " not in text


def test_account_shows_an_unchanged_overstack_notice_once_per_turn():
    notice = {"hex": "1010", "points": 6, "limit": 5}
    events = [_ev(1, "overstacked", side="soviet", step="command", **notice),
              _ev(2, "overstacked", side="soviet", step="movement", **notice),
              _ev(3, "overstacked", side="soviet", step="combat", **{**notice, "points": 7}),
              _ev(4, "overstacked", side="soviet", turn=2, step="command", **notice)]
    lines = [line for line in Narrator().lines(events) if "overstacked" in line]
    assert [line.split()[0] for line in lines] == ["#1", "#3", "#4"]


def test_account_puts_a_combat_on_one_line_with_its_drm_terms_in_words(tmp_path):
    (tmp_path / "combat.rules").write_text("quantity attack_drm\n"
                                           "  +2 by 10.4.1A  when any attacker has class in [armor, mechanized]\n")
    combat = _ev(5, "combat", cases=["10.0D"], attackers=["g1", "g2"], defenders=["s1"], attack_strength=13,
                 defense_strength=8, column="3:2", column_shift=0, roll=8, drm=2, modified_roll=10, result="-/FR",
                 hex="1110", attacker_side="german",
                 terms=[{"case": "10.4.1A", "value": 2, "source": "combat.rules:2"}])
    roll = _ev(4, "roll", side="chance", purpose="combat", total=8)
    narrator = Narrator({"10.4.1A": "Armor DRMs, A"}, tmp_path)
    lines = narrator.lines([roll, combat])
    text = "\n".join(lines)
    assert "german attacks 1110 (s1) with g1, g2: 13 to 8, column 3:2; roll 8, DRM +2 → 10: -/FR" in text
    assert "DRM  +2  10.4.1A Armor DRMs, A — any attacker has class in [armor, mechanized]" in text
    assert "rolls 8" not in text  # the roll is in the combat's line
    summary = "\n".join(narrator.summary())
    assert "--- Turn 1 summary" in summary and "its attacks: -/FR ×1" in summary


def test_term_words_without_a_script_still_give_value_case_and_title():
    assert term_words({"case": "10.4B", "value": -1}, {"10.4B": "Die Roll Modifiers, B"}) == \
        " -1  10.4B Die Roll Modifiers, B"


def test_account_ends_each_turn_with_a_summary(mini_pack):
    state = _game(mini_pack).new_initial_state(seed=2)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply(state.legal_actions()[0])
    text = "\n".join(narrate_all(state.trace))
    assert "=== Turn 1 ===" in text and "--- Turn 1 summary" in text
    assert "german: " in text.split("--- Turn 1 summary", 1)[1]


# ---------------------------------------------------------------- ask

def test_ask_text_is_lines_and_tables_not_yaml():
    answer = {"unit": "g1", "in_supply": True, "route": "road", "mp": None,
              "path": [f"{c:02d}02" for c in range(30, 0, -1)],
              "blocked": [{"hex": "1502", "reason": "enemy unit", "cases": ["5.4A"]},
                          {"hex": "1503", "reason": "enemy ZOC", "cases": ["5.4B", "7.4"]}],
              "drm": {"net": -1, "terms": [{"case": "10.4B", "value": -1, "source": "x.rules:1"}]},
              "cases": ["5.0C", "5.2A"]}
    lines = render_answer(answer).split("\n")
    assert lines[:4] == ["unit: g1", "in_supply: yes", "route: road", "mp: —"]
    assert lines[4].startswith("path: 3002 → 2902 → ") and lines[4].endswith(" → … → 0302 → 0202 → 0102 (30 hexes)")
    assert lines[5] == "blocked: 2"
    assert lines[6].split() == ["hex", "reason", "cases"]
    assert lines[7].split() == ["1502", "enemy", "unit", "5.4A"]
    assert lines[8].split() == ["1503", "enemy", "ZOC", "5.4B,", "7.4"]
    assert lines[9:12] == ["drm:", "  net: -1", "  terms:"]
    assert lines[12].split() == ["-1", "10.4B"]
    assert lines[-1] == "cases: 5.0C, 5.2A"
    assert not any(line.strip().startswith("- ") for line in lines)  # no YAML list items


def test_ask_text_prints_retreat_paths_as_a_player_reads_them(repo_root, monkeypatch):
    """A retreat's paths, a list of them or a table's ``path`` column, are hexes joined by ``→``
    (they were Python lists, ``['0305', '0405']``, or ``0305,0405``); ``--json`` keeps the lists."""
    assert render_answer({"unit": "r-2", "paths": [["0907"], ["0704", "0705"]]}).split("\n") == [
        "unit: r-2", "paths:", "  0907", "  0704 → 0705"]
    monkeypatch.chdir(repo_root)
    args = ["ask", "docs/examples/retreat.yaml", "retreat", "s1", "--hexes", "2"]
    text = CliRunner().invoke(main, args).output
    rows = text.split("options: 7\n", 1)[1].splitlines()
    assert rows[1].split()[:5] == ["0305", "→", "0405", "2", "0"]      # the best: toward supply (11.2C)
    assert "[" not in text and "0305,0405" not in text
    as_json = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert as_json["options"][0]["path"] == ["0305", "0405"]


def test_ask_help_lists_the_questions_of_the_position_s_game(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    bfm = CliRunner().invoke(main, ["ask", BFM, "--help"])
    assert bfm.exit_code == 0, bfm.output
    head, questions = bfm.output.split("Questions of Battle for Moscow (battle_for_moscow)", 1)
    for q in ("attack", "communication", "reach", "retreat", "victory", "zoc"):
        assert f"\n  {q} " in questions, q
    for absent in ("weather", "supply", "income", "(10.0-10.7)", "(7.0-7.5)", "--support A,D] [--overrun"):
        assert absent not in questions, absent
    assert "(9.5)" not in head and "weather" not in head  # no Moscow '41 case or question in the options
    m41 = CliRunner().invoke(main, ["ask", M41, "--help"])
    assert "Questions of Moscow '41 (moscow41)" in m41.output
    for q in ("supply", "weather", "attack", "income", "stacking"):
        assert f"\n  {q} " in m41.output, q


# ---------------------------------------------------------------- the output folder

def test_a_second_play_never_mixes_its_files_with_an_earlier_game(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for name in ("trace.jsonl", "final.yaml", "turn-01.svg", "turn-07.svg"):
        (out / name).write_text("earlier game", encoding="utf-8")
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    said: list[str] = []
    fresh = prepare_out(out, echo=said.append)
    assert fresh == tmp_path / "out-2" and fresh.is_dir() and list(fresh.iterdir()) == []
    assert "out-2" in said[0] and "--overwrite" in said[0]
    (fresh / "trace.jsonl").write_text("second game", encoding="utf-8")
    assert prepare_out(out, echo=said.append) == tmp_path / "out-3"
    # continuing the game saved in out/ goes on there
    assert prepare_out(out, load=str(out / "final.yaml"), echo=said.append) == out
    # a save from another folder (session 18: `--load out-2/final.yaml`) goes to a fresh folder, and
    # the one line says where and how to go on beside the save instead
    said.clear()
    save = str(tmp_path / "out-2" / "final.yaml")
    assert prepare_out(out, load=save, echo=said.append) == tmp_path / "out-3"
    assert said == [f"{out}/ holds an earlier game: this one (continued from {save}) is written to {tmp_path / 'out-3'}/ "
                    f"(--out {tmp_path / 'out-2'} goes on beside the save; --overwrite replaces {out}/'s game instead)"]
    # --overwrite deletes the earlier game's files, and only those
    assert prepare_out(out, overwrite=True, echo=said.append) == out
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_play_twice_into_one_folder(mini_pack, tmp_path):
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "random")}
    out = tmp_path / "out"
    run_play(_game(mini_pack), "skirmish", players, seed=3, out=out, echo=lambda s: None, progress=False)
    first = sorted(p.name for p in out.iterdir())
    run_play(_game(mini_pack), "skirmish", players, seed=4, out=out, echo=lambda s: None, progress=False)
    assert sorted(p.name for p in out.iterdir()) == first  # untouched
    assert (tmp_path / "out-2" / "trace.jsonl").is_file()


def test_every_file_a_play_writes_is_named_by_the_readme_and_its_last_line(mini_pack, tmp_path, repo_root):
    """``final.yaml.trace.jsonl`` is written on purpose (the save's trace, linked by its SHA-256:
    ``--load`` goes on with it and ``undo`` reaches back into it); the README's list of a play's
    outputs left it out (session-9 fresh-user trial), and so did the 'Wrote …' line."""
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "random")}
    said: list[str] = []
    run_play(_game(mini_pack), "skirmish", players, seed=3, out=tmp_path, echo=said.append, progress=False)
    written = sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".svg")
    assert written == ["final.yaml", "final.yaml.trace.jsonl", "trace.jsonl"]
    assert (tmp_path / "final.yaml.trace.jsonl").read_bytes() == (tmp_path / "trace.jsonl").read_bytes()
    assert said[-1] == (f"Wrote {tmp_path / 'trace.jsonl'}, {tmp_path / 'final.yaml'} (with its trace beside it, "
                        "final.yaml.trace.jsonl) and the turn maps.")
    install = (repo_root / "README.md").read_text(encoding="utf-8").split("### Play yourself")[0]
    assert all(f"`{name}`" in install for name in [*written, "turn-NN.svg"])


# ---------------------------------------------------------------- the progress bar

def test_the_progress_bar_is_down_while_a_human_decides(mini_pack, tmp_path, monkeypatch):
    bars: list[ProgressBar] = []
    live_at_prompt: list[bool] = []
    shown: list[bool] = []

    class Spy(ProgressBar):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            bars.append(self)

        def bots(self, turn):
            super().bots(turn)
            shown.append(self._bar is not None)

    monkeypatch.setattr(play_output, "ProgressBar", Spy)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)

    def read(prompt):
        live_at_prompt.append(bars[0]._bar is not None)
        return "1"

    from casebook.tools import human

    plain = human.HumanPlayer.__init__

    def scripted(self, side, game, echo=print, read_=None):
        plain(self, side, game, echo=echo, read=read)

    monkeypatch.setattr(human.HumanPlayer, "__init__", scripted)
    # the mini game has one decision, the German's: a human's first, then a bot's
    run_play(_game(mini_pack), "skirmish", {"german": ("human", ""), "soviet": ("bot", "random")},
             seed=3, out=None, echo=lambda s: None, progress=True, max_actions=400)
    assert live_at_prompt == [False]  # never drawn under the prompt
    assert bars[0]._bar is None and shown == []
    run_play(_game(mini_pack), "skirmish", {"german": ("bot", "greedy"), "soviet": ("bot", "random")},
             seed=3, out=None, echo=lambda s: None, progress=True, max_actions=400)
    assert shown == [True]  # shown while the bot decides
    assert bars[1]._bar is None  # and taken down at the end


MOSCOW41_ONLY = ("--support", "--overrun", "--hexes", "--path", "income", "fortification", "weather", "supply",
                 "Moscow '41", "(10.", "(9.5", "(5.")


@pytest.mark.parametrize("named, title", [
    ("kestrel_pass", "Questions of Kestrel Pass (kestrel_pass)"),
    ("games/kestrel_pass/scenarios/meeting.yaml", "Questions of Kestrel Pass (kestrel_pass)"),
    ("battle_for_moscow", "Questions of Battle for Moscow (battle_for_moscow)"),
    ("games/battle_for_moscow", "Questions of Battle for Moscow (battle_for_moscow)"),
])
def test_ask_game_help_lists_that_game_s_questions_and_the_options_they_take(repo_root, monkeypatch, named, title):
    """Issue #14/#18: `ask GAME --help` (a game id or its pack folder, like a position of it)
    lists that game's questions alone, and the Options block only the options its questions take:
    neither Kestrel Pass nor Battle for Moscow has Moscow '41's combat support (10.4.2), overruns
    (9.5) or retreat lengths, nor its income/fortification/weather/supply questions."""
    monkeypatch.chdir(repo_root)
    out = CliRunner().invoke(main, ["ask", named, "--help"])
    assert out.exit_code == 0, out.output
    assert out.output.count("Questions of ") == 1 and title in out.output, out.output
    for absent in MOSCOW41_ONLY:
        assert absent not in out.output, absent
    options = out.output.split("Options:", 1)[1].split("Questions of", 1)[0]
    for present in ("--with U,U…", "--roll", "--json", "--pack", "--help", "--as MODE"):
        assert present in options, present
    assert "Attacking units (attack)." in options  # the help names the questions of this game taking it


def test_ask_moscow41_help_keeps_its_own_options(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    out = CliRunner().invoke(main, ["ask", "moscow41", "--help"])
    assert out.exit_code == 0 and out.output.count("Questions of ") == 1, out.output
    options = out.output.split("Options:", 1)[1].split("Questions of", 1)[0]
    for present in ("--support A,D", "--overrun", "--hexes", "--path", "Resolve with this die roll (attack, income)."):
        assert present in options, present


@pytest.mark.parametrize("game, scenario", [("kestrel_pass", "meeting"), ("battle_for_moscow", "campaign"),
                                            ("moscow41", "october-blitz")])
def test_ask_game_help_s_why_example_is_an_action_of_that_game(repo_root, monkeypatch, game, scenario):
    """The fresh-user trial: `ask GAME --help` quoted Kestrel Pass's `attack hex=0904 with=b-1`
    as the `why` example of every game. Each game's example is an action of its own: asked of its
    scenario's start, `why` finds it legal (a Kestrel Pass unit in Moscow '41 would be refused)."""
    import re

    monkeypatch.chdir(repo_root)
    out = CliRunner().invoke(main, ["ask", game, "--help"])
    assert out.exit_code == 0, out.output
    found = re.search(r'quoted: "([^"]+)"', " ".join(out.output.split()))
    assert found, out.output
    asked = CliRunner().invoke(main, ["ask", f"games/{game}/scenarios/{scenario}.yaml", "why", found[1], "--json"])
    assert asked.exit_code == 0, asked.output
    answer = json.loads(asked.output)
    assert answer["legal"] is True, answer


def test_ask_help_sets_up_no_scenario_for_its_why_example(repo_root, monkeypatch):
    """`ask GAME --help` set up each game's first scenario to pick its `why` example (~9 s on a
    loaded machine); the example is the manifest's `examples: {why: …}` (checked legal above), so
    the help plays nothing: here a scenario set up would fail it."""
    import re

    from casebook.core.game import Game

    def refuse(*_a, **_k):
        raise AssertionError("ask --help set up a scenario")

    monkeypatch.setattr(Game, "new_initial_state", refuse)
    monkeypatch.chdir(repo_root)
    for game in ("kestrel_pass", "battle_for_moscow", "moscow41"):
        out = CliRunner().invoke(main, ["ask", game, "--help"])
        assert out.exit_code == 0, out.output
        from casebook.content.loader import load_pack

        example = load_pack(game).manifest["examples"]["why"]
        assert re.search(r'quoted: "([^"]+)"', " ".join(out.output.split()))[1] == example


def test_ask_help_without_a_position_lists_the_installed_games():
    out = CliRunner().invoke(main, ["ask", "--help"])
    assert out.exit_code == 0, out.output
    assert "battle_for_moscow" in out.output and "moscow41" in out.output


def test_the_turn_summary_counts_only_decisions_that_stand_after_undo(tmp_path):
    """Two German moves, the second taken back: the turn's summary says one move (it said two)."""
    args = ["play", "battle_for_moscow", "--player", "german=human", "--player", "soviet=human",
            "--out", str(tmp_path / "out"), "--quiet"]
    result = CliRunner().invoke(main, args, input="1\n1\nundo\nquit\n")
    assert "took back: german: move" in result.output
    summary = result.output.split("--- Turn 1 summary", 1)[1].splitlines()
    assert summary[1].strip() == "german: 1 move"


def test_forget_takes_undone_events_out_of_the_running_tally():
    narrator = Narrator()
    move = _ev(1, "action", action="german: move path=0304 stack=0303")
    combat = _ev(2, "combat", result="DR", attacker_side="german")
    loss = _ev(3, "combat-loss", side="soviet", unit="s1", effect="step")
    narrator.lines([move, combat, loss])
    narrator.forget([combat, loss])
    summary = narrator.summary()
    assert summary[1:] == ["    german: 1 move"]  # no attack result, no loss left


def test_why_of_an_action_a_validator_cannot_read_says_what_was_wrong_in_words(mini_pack, monkeypatch):
    """In-game ``why`` of a malformed path showed the class name (``QuestionError: …``)."""
    from casebook.core.errors import QuestionError
    from casebook.core.play import State

    state = _game(mini_pack).new_initial_state(seed=2)
    action = "german: move stack=0101 path=zz"
    for exc, words in ((QuestionError("hex zz is off the map (8 x 8)"), "malformed action: hex zz is off the map (8 x 8)"),
                       (KeyError("zz"), "malformed action: 'zz' is not known here")):
        def broken(self, action, exc=exc):
            raise exc
        monkeypatch.setattr(State, "_why_not", broken)
        monkeypatch.setattr(State, "_accepts", lambda self, action: False)
        cases, reason = state.why_not(action)
        assert reason.endswith(words) and "Error" not in reason, reason
        assert len(cases) == 1
