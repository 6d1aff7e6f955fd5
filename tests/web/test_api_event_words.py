"""*Last events* in the browser say what happened in the terminal's words (session 17, a fresh
user's report: it showed ``chance roll purpose=IP collection, dice=1`` and a move without its
path): a roll's total and purpose, a move's units, start and path. Session 19's fresh user saw a
decision twice (its action line and its combat line) and ``rp-collected``/``weather-fixed`` cut
short: every event is now the account's line (tools/account.py, the one source of its words)."""

from __future__ import annotations

from casebook.core.actions import parse_action
from casebook.core.game import Game
from tests.web.conftest import client_for, new_session


def test_a_roll_shows_its_total_and_purpose(tmp_path):
    session = new_session(Game.load("moscow41", "october-blitz"), {"german": "human"}, tmp_path)
    rolls = [e for e in client_for(session).get("/api/state").json()["events"] if e["kind"] == "roll"]
    [first] = [e for e in session.state.trace if e.kind == "roll"][:1]
    assert first.data["purpose"] == "IP collection" and first.data["faces"] == [first.data["total"]]
    assert rolls[0]["side"] == "chance" and rolls[0]["text"] == f"chance: rolls {first.data['total']} for IP collection"


def test_a_move_shows_its_units_start_and_path(bfm_game, tmp_path):
    session = new_session(bfm_game, {"german": "human", "soviet": "bot:greedy"}, tmp_path)
    session.state.apply(parse_action("german: move path=0102,0103,0104,0105 stack=0201"))
    moves = [e for e in client_for(session).get("/api/state").json()["events"] if e["kind"] == "move"]
    assert moves[-1]["text"] == "german: move: unit: g-lvi-pz; from: 0201; path: 0102, 0103, 0104, 0105"


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
    assert [(e["kind"], e["text"]) for e in events] == [  # as the account: the attack waited for the support
        ("action", "german: attack hex=0304 support=0 with=g1,g2"), ("action", "soviet: support ips=4"),
        ("combat", "german attacks 0304 (s1) with g1, g2: 14 to 6, column 2:1; roll 10, DRM -1 → 9: -/2")]
    assert events[-1]["lines"] == ["DRM  -1  10.4.2A Combat Support, A — defender_support_ips > 0 and "
                                   "defender_side is soviet"]
    for action in ("soviet: retreat losses=0 path=0305,0306", "german: advance hold=true"):
        assert client.post("/api/apply", json={"action": action}).status_code == 200
    assert any(e.kind == "advance" for e in session.state.trace)  # the trace has it, the page leaves it out
    assert "advance" not in [e["kind"] for e in client.get("/api/state").json()["events"]]


def test_every_event_reads_as_the_account_line_and_once(tmp_path):
    """The page's *Last events* are the lines of the terminal's account (``Narrator.lines``), the
    ``#seq`` and the cases apart: ``rp-collected`` and ``weather-fixed`` whole (session 19: cut to
    ``side=german, …`` and ``step: temperature``), nothing the account leaves out."""
    from casebook.tools.account import Narrator

    session = new_session(Game.load("moscow41", "october-blitz"), {"german": "human"}, tmp_path)
    events = client_for(session).get("/api/state").json()["events"]
    account = [ln for ln in Narrator.for_engine(session.game.engine).lines(session.state.trace) if "#" in ln]
    assert [f"  #{e['seq']:<5} {e['text']}" + (f"  [{', '.join(e['cases'])}]" if e["cases"] else "")
            for e in events] == account[-len(events):]
    rp = next(e for e in events if e["kind"] == "rp-collected")
    assert rp["text"] == "german: rp-collected: side: german; new: (infantry: 1; armor: 0); total: (infantry: 1; armor: 0); limit: 10"
    weather = next(e for e in events if e["kind"] == "weather-fixed")
    assert weather["text"] == "weather-fixed: step: temperature; temperature: warm; fixed: yes"
    assert rp["cases"] == ["12.2A", "12.2C"] and weather["cases"] == ["18.2.4A"]


def test_10_0D_an_attack_its_combat_line_tells_is_shown_once(tmp_path):
    """Session 19's fresh user saw an attack twice, its action line and its combat line: when no
    decision comes between them the combat line alone tells it (as the terminal's account does)."""
    from casebook.tools.web.session import Session, load_state
    from games.moscow41.tests.test_retreat_overstack_note import EXAMPLE, HEMMED

    pos = tmp_path / "no-support.yaml"  # s1 has no HQ in range: the defender buys no support, no decision
    pos.write_text(EXAMPLE.read_text(encoding="utf-8").split("units:", 1)[0] + HEMMED, encoding="utf-8")
    players = {"german": "human", "soviet": "human"}
    session = Session(load_state(Game.load("moscow41", "october-blitz"), pos, humans=set(players)), players,
                      roots=[tmp_path])
    client = client_for(session)
    assert client.post("/api/apply", json={"action": "german: attack hex=0304 support=0 with=g1,g2"}).status_code == 200
    events = client.get("/api/state").json()["events"]
    assert [e for e in session.state.trace if e.kind == "action"][-1].data["action"].startswith("german: attack")
    assert [e["kind"] for e in events if e["kind"] in ("action", "combat")] == ["combat"]
    assert events[-1]["kind"] != "action" and any(e["text"].startswith("german attacks 0304 (s1) with g1, g2: ")
                                                  for e in events)
