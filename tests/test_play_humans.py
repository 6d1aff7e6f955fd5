"""``casebook play`` and ``casebook serve`` tell the play which sides a person plays
(``State.humans``, src/casebook/core/game.py), so that a step whose only listed action is ``pass``
still asks them where a template offers a decision (docs/actions.md); bots are not asked."""

from __future__ import annotations

from casebook.core.game import Game


def _saved(mini_pack, tmp_path, players):
    from casebook.tools.saves import write_save

    state = Game.load(str(mini_pack)).new_initial_state(1)
    state.data.set_players(players)
    path = tmp_path / "save.yaml"
    write_save(state, path)
    return path


def test_play_load_takes_the_human_sides_from_the_save_and_the_command_line(mini_pack, tmp_path):
    from casebook.tools.cmd_play import _resume

    path = _saved(mini_pack, tmp_path, {"german": "human", "soviet": "bot:random"})
    _, state, _, saved = _resume(str(mini_pack), None, str(path), {})
    assert saved == {"german": "human", "soviet": "bot:random"} and state.humans == frozenset({"german"})
    _, state, _, _ = _resume(str(mini_pack), None, str(path), {"german": ("bot", "greedy"), "soviet": ("human", "")})
    assert state.humans == frozenset({"soviet"})


def test_serve_session_marks_its_human_sides_on_the_play_and_its_start(mini_pack, tmp_path):
    from casebook.tools.web.session import Session

    game = Game.load(str(mini_pack))
    session = Session(game.new_initial_state(1), {"german": "human", "soviet": "bot:random"}, roots=[tmp_path])
    assert session.state.humans == frozenset({"german"}) and session.initial.humans == frozenset({"german"})
    assert Session(game.new_initial_state(1), {"german": "bot:random", "soviet": "bot:random"},
                   roots=[tmp_path]).state.humans == frozenset()


def test_play_of_a_new_game_marks_the_human_side(mini_pack, monkeypatch):
    from casebook.tools import human
    from casebook.tools.cmd_play import run_play

    plain = human.HumanPlayer.__init__
    monkeypatch.setattr(human.HumanPlayer, "__init__",
                        lambda self, side, game, echo=print, read=None: plain(self, side, game, echo=echo,
                                                                                read=lambda prompt: "1"))
    state = run_play(Game.load(str(mini_pack), "skirmish"), "skirmish",
                     {"german": ("human", ""), "soviet": ("bot", "random")},
                     seed=3, out=None, echo=lambda s: None, progress=False, max_actions=400)
    assert state.humans == frozenset({"german"})
