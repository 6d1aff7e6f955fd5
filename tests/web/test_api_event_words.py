"""*Last events* in the browser say what happened in the terminal's words (session 17, a fresh
user's report: it showed ``chance roll purpose=IP collection, dice=1`` and a move without its
path): a roll's total (and faces) and purpose, a move's units, start and path."""

from __future__ import annotations

from casebook.core.actions import parse_action
from casebook.core.game import Game
from tests.web.conftest import client_for, new_session


def test_a_roll_shows_its_total_and_purpose(tmp_path):
    session = new_session(Game.load("moscow41", "october-blitz"), {"german": "human"}, tmp_path)
    rolls = [e for e in client_for(session).get("/api/state").json()["events"] if e["kind"] == "roll"]
    [first] = [e for e in session.state.trace if e.kind == "roll"][:1]
    assert first.data["purpose"] == "IP collection" and first.data["faces"] == [first.data["total"]]
    assert rolls[0]["side"] == "chance" and rolls[0]["text"] == f"{first.data['total']} for IP collection"


def test_a_move_shows_its_units_start_and_path(bfm_game, tmp_path):
    session = new_session(bfm_game, {"german": "human", "soviet": "bot:greedy"}, tmp_path)
    session.state.apply(parse_action("german: move path=0102,0103,0104,0105 stack=0201"))
    moves = [e for e in client_for(session).get("/api/state").json()["events"] if e["kind"] == "move"]
    assert moves[-1]["text"].startswith("g-lvi-pz 0201 → 0102 → 0103 → 0104 → 0105")
