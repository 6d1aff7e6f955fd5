"""serve's refusals say what the play prompt says (session 13, the second fresh-user trial: it said
"illegal german: …"): ``refused (SIDE): ACTION: reason``, the cases and the rule-script lines; an
action made only in another step names that step and its case first."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from tests.web.conftest import client_for, new_session


def test_a_refused_battle_for_moscow_move_says_refused_the_side_the_action_the_reason_cases_and_lines(bfm_game, tmp_path):
    session = new_session(bfm_game, {"german": "human", "soviet": "bot:greedy"}, tmp_path)
    before = session.state.to_dict()
    body = client_for(session).post("/api/apply", json={"action": "german: move stack=0201 path=0909"}).json()
    assert body["error"] == ("refused (german): move path=0909 stack=0201: g-lvi-pz cannot move along 0909: "
                             "0909 is not adjacent to 0201")
    assert "BM5.1A" in body["cases"] and body["lines"]
    assert session.state.to_dict() == before


@pytest.mark.case("KP4.1B")
def test_KP4_1B_an_attack_posted_in_the_movement_step_names_the_combat_step_first(tmp_path):
    """Kestrel Pass opens in Blue's movement step (KP4.1A): an attack is made in the combat step
    (KP4.1B) — said before the attack's own refusal (KP8.1), as the prompt says it."""
    session = new_session(Game.load("kestrel_pass", "meeting"), {"blue": "human", "red": "bot:greedy"}, tmp_path)
    body = client_for(session).post("/api/apply", json={"action": "blue: attack hex=0904 with=b-1"}).json()
    assert body["error"] == ("refused (blue): attack hex=0904 with=b-1: attack is made in the combat step (Combat "
                             "phase, KP4.1B), not in the movement step (KP4.1A); b-1 is not adjacent to 0904")
    assert body["cases"] == ["KP4.1B", "KP4.1A", "KP8.1"]
    assert [ln["source"] for ln in body["lines"]] == ["combat.rules:4"]


@pytest.mark.case("10.0F", "10.0C")
def test_10_0F_an_attack_while_the_other_side_decides_is_refused_naming_the_decision(tmp_path):
    """A fresh user's report (session 19): while the Soviets had to decide after a combat, the page
    built a German attack and the server refused it as a Soviet one ("no enemy unit in hex 2713",
    10.3A). The attack is judged as the attackers' side's, in play's words (``State.why_not``: the
    combat's decisions come first, 10.0F; the defender's support, 10.0C), and the state names the
    decision waited for."""
    from casebook.tools.web.session import Session
    from games.moscow41.tests.test_attack_waits_10_0F import SECOND, _state

    session = Session(_state(tmp_path), {"german": "human", "soviet": "human"}, roots=[tmp_path])
    client = client_for(session)
    assert client.post("/api/apply", json={"action": "german: attack hex=0304 support=6 with=g1,g2"}).status_code == 200
    asked = client.post("/api/attack", json={"hex": "0306", "with": ["g3"]}).json()
    assert (asked["actions"], asked["reason"], asked["cases"]) == ([], "a combat awaits the defender's support",
                                                                   ["10.0C", "10.0F"])
    assert client.get("/api/state").json()["decision"] == {"side": "soviet", "kinds": ["support"]}
    assert client.post("/api/apply", json={"action": "soviet: support ips=0"}).status_code == 200
    words = "a combat result awaits its decisions: they come before any other combat"
    asked = client.post("/api/attack", json={"hex": "0306", "with": ["g3"]}).json()
    assert (asked["tried"], asked["reason"], asked["cases"]) == ("german: attack hex=0306 with=g3", words, ["10.0F"])
    assert session.state.why_not("german: attack hex=0306 with=g3") == (("10.0F",), words)  # play's words
    assert client.get("/api/state").json()["decision"] == {"side": "soviet", "kinds": ["negate-fatigue"]}
    before = session.state.to_dict()
    refused = client.post("/api/apply", json={"action": SECOND})
    assert refused.status_code == 409 and refused.json()["cases"] == ["10.0F"]
    assert refused.json()["error"] == f"german does not decide now: soviet does — {words}"
    assert session.state.to_dict() == before
    moved = client.post("/api/choose", json={"stack": "g3", "hex": "0207"}).json()
    assert moved["actions"] == [] and "awaits its decisions" in moved["reason"], moved
