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


def test_10_0D_a_combat_shows_the_account_s_line_and_drm_terms_without_bookkeeping(tmp_path):
    """A fresh user's report (session 19): *Last events* showed a combat's result and roll only, among
    ``advance passed=False`` and ``action action: …`` rows. A combat now reads as the terminal's account
    line (strengths, column, roll, DRM, result: 10.0D) with a line per DRM term (10.4.2A's support here),
    the combat roll is told in it, a decision reads as its text and bookkeeping (advance) is left out."""
    from tests.web.test_page_notes import hemmed_session

    session = hemmed_session(tmp_path)
    client = client_for(session)
    for action in ("german: attack hex=0304 support=0 with=g1,g2", "soviet: support ips=4"):
        assert client.post("/api/apply", json={"action": action}).status_code == 200
    events = client.get("/api/state").json()["events"]
    assert [(e["kind"], e["text"]) for e in events] == [
        ("action", "german: attack hex=0304 support=0 with=g1,g2"), ("action", "soviet: support ips=4"),
        ("combat", "german attacks 0304 (s1) with g1, g2: 14 to 6, column 2:1; roll 10, DRM -1 → 9: -/2")]
    assert events[-1]["lines"] == ["DRM  -1  10.4.2A Combat Support, A — defender_support_ips > 0 and "
                                   "defender_side is soviet"]
    for action in ("soviet: retreat losses=0 path=0305,0306", "german: advance hold=true"):
        assert client.post("/api/apply", json={"action": action}).status_code == 200
    assert any(e.kind == "advance" for e in session.state.trace)  # the trace has it, the page leaves it out
    assert "advance" not in [e["kind"] for e in client.get("/api/state").json()["events"]]
