"""``casebook serve``'s JSON API gives every line of a many-line error (``errors``) and says a
hex off the map as such: the page may shorten what it shows, the API never does."""

from __future__ import annotations

from tests.web.conftest import client_for, new_session

HUMAN_GERMAN = {"german": "human", "soviet": "bot:greedy"}


def test_ask_of_an_unknown_question_lists_every_question_in_errors(bfm_game, tmp_path):
    from casebook.tools.cmd_ask import questions_of

    client = client_for(new_session(bfm_game, HUMAN_GERMAN, tmp_path))
    body = client.post("/api/ask", json={"question": "zzz", "args": []}).json()
    questions = questions_of(bfm_game.engine)
    assert body["error"].startswith("zzz: no rules plugin of battle_for_moscow answers 'zzz'; questions:")
    assert body["error"].endswith(f"(+{len(questions)} more lines, in errors)")
    assert len(body["errors"]) == 1 + len(questions)
    assert all(any(line.startswith(q) for line in body["errors"]) for q in questions)


def test_a_one_line_error_has_no_errors_list(bfm_game, tmp_path):
    client = client_for(new_session(bfm_game, HUMAN_GERMAN, tmp_path))
    body = client.post("/api/ask", json={"question": "reach", "args": []}).json()
    assert "errors" not in body and body["error"].startswith("reach: usage: reach UNIT")


def test_a_move_off_the_map_says_the_hex_is_off_the_map_not_that_it_is_not_adjacent(bfm_game, tmp_path):
    session = new_session(bfm_game, HUMAN_GERMAN, tmp_path)
    client = client_for(session)
    before = session.state.to_dict()
    off = client.post("/api/choose", json={"stack": "g-lvi-pz", "hex": "9999"}).json()
    assert off["actions"] == [] and off["reason"] == "path=9999: hex 9999 is not on the map (hexes 0101..1410)"
    r = client.post("/api/apply", json={"action": "german: move stack=0201 path=9999"})
    assert r.status_code == 409 and "hex 9999 is not on the map" in r.json()["error"]
    assert "not adjacent" not in r.json()["error"] and session.state.to_dict() == before
