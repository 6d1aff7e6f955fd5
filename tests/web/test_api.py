"""The JSON API of ``casebook serve`` (Starlette TestClient): the same Game API as ``play``/``ask``;
bad input is refused with a clear error and changes nothing."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import client_for, new_session

HUMAN_GERMAN = {"german": "human", "soviet": "bot:greedy"}


@pytest.fixture
def session(bfm_game, tmp_path):
    return new_session(bfm_game, HUMAN_GERMAN, tmp_path)


def test_state_shows_header_units_and_the_legal_actions_of_the_game_api(session):
    body = client_for(session).get("/api/state").json()
    header = body["header"]
    assert (header["turn"], header["last_turn"], header["phase"], header["step"]) == (1, 7, "german_turn",
                                                                                       "panzer_movement")
    assert (header["decider"], header["decider_kind"]) == ("german", "human")
    assert (header["weather"], header["weather_text"]) == ({"ground": "dry"}, "ground dry")  # BM: mud turns only
    assert body["legal"] == [str(a) for a in session.state.legal_actions()]
    assert "german: move path=0102 stack=0201" in body["legal"]
    assert {u["id"]: u["hex"] for u in body["units"]}["g-lvi-pz"] == "0201"
    assert body["sides"] == ["german", "soviet"] and body["human"] is True


@pytest.mark.parametrize(("game", "scenario", "side"), [("kestrel_pass", "meeting", "blue"),
                                                         ("battle_for_moscow", "campaign", "german"),
                                                         ("moscow41", "october-blitz", "german")])
def test_header_shows_the_weather_as_plays_header_does(game, scenario, side, tmp_path):
    """One path for the weather of ``play``'s prompt and ``serve``'s header: Kestrel Pass, a game
    without weather, shows none (it showed `weather warm/dry`), Battle for Moscow its ground, Moscow
    '41 its temperature and ground."""
    from casebook.core.game import Game
    from casebook.tools.human import position_header

    session = new_session(Game.load(game, scenario), {side: "human"}, tmp_path)
    header = client_for(session).get("/api/state").json()["header"]
    line = position_header(session.state, side)
    if header["weather_text"]:
        assert line.endswith(" · " + header["weather_text"])
    else:
        assert "weather" not in line and "ground" not in line
    expected = {"kestrel_pass": {}, "battle_for_moscow": {"ground": "dry"},
                "moscow41": {k: session.state.data.weather[k] for k in ("temperature", "ground")}}[game]
    assert header["weather"] == expected


def test_board_has_every_hex_of_the_map_with_its_centre(session):
    board = client_for(session).get("/api/board").json()
    assert len(board["hexes"]) == 140  # the Battle for Moscow map: 14 columns x 10 rows
    assert board["svg"].startswith("<?xml") or board["svg"].startswith("<svg")
    assert all(len(h["points"].split()) == 6 for h in board["hexes"].values())


def test_reach_is_the_answer_of_casebook_ask_reach_on_the_same_position(session, tmp_path):
    from casebook.tools.cmd_ask import ask_position

    client = client_for(session)
    reach = client.get("/api/reach", params={"stack": "g-lvi-pz"}).json()
    client.post("/api/save", json={"path": "now.yaml"})
    asked = ask_position(str(tmp_path / "now.yaml"), "reach", ["g-lvi-pz"], {})
    assert reach["hexes"] == asked["hexes"] and reach["cases"] == asked["cases"]
    assert set(reach["hexes"]) == {"0101", "0102", "0105"}
    # the hexes a legal move ends in now, from the legal actions
    assert reach["legal"]["0102"] == ["german: move path=0102 stack=0201"]


def test_a_legal_move_is_applied_through_the_game_api_and_traced(session):
    client = client_for(session)
    choice = client.post("/api/choose", json={"stack": "g-lvi-pz", "hex": "0102"}).json()
    assert choice["actions"] == ["german: move path=0102 stack=0201"]
    r = client.post("/api/apply", json={"action": choice["actions"][0]})
    assert r.status_code == 200
    assert session.state.data.unit("g-lvi-pz")["hex"] == "0102"
    assert [str(a) for a in session.state.history] == ["german: move path=0102 stack=0201"]
    assert any(e.kind == "action" and e.data["action"] == "german: move path=0102 stack=0201"
               for e in session.state.trace)


def test_an_illegal_move_is_refused_with_the_rules_cases_and_changes_nothing(session):
    client = client_for(session)
    before = session.state.to_dict()
    r = client.post("/api/apply", json={"action": "german: move stack=0201 path=0909"})
    assert r.status_code == 409
    assert "g-lvi-pz cannot move along 0909: 0909 is not adjacent to 0201" in r.json()["error"]  # the hex named
    assert "BM5.1A" in r.json()["cases"]
    assert session.state.to_dict() == before
    why = client.post("/api/choose", json={"stack": "g-lvi-pz", "hex": "0909"}).json()
    assert why["actions"] == [] and "BM5.1A" in why["cases"]


@pytest.mark.parametrize("body, status, words", [
    (b"{not json", 400, "malformed JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b'{"action": 7}', 400, "action: a non-empty string"),
    (b'{"action": "german: teleport stack=0201"}', 409, "refused (german): unknown action teleport"),
    (b'{"action": "soviet: pass"}', 409, "soviet does not decide now: german does"),
    (b'{"action": "german move"}', 400, "german move"),
])
def test_bad_actions_are_refused_and_change_nothing(session, body, status, words):
    client = client_for(session)
    before, trace = session.state.to_dict(), len(session.state.trace)
    r = client.post("/api/apply", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert session.state.to_dict() == before and len(session.state.trace) == trace


def test_a_human_cannot_act_while_a_bot_decides_and_the_bot_endpoint_plays_it(bfm_game, tmp_path):
    session = new_session(bfm_game, {"german": "bot:greedy", "soviet": "human"}, tmp_path)
    client = client_for(session)
    r = client.post("/api/apply", json={"action": str(session.state.legal_actions()[0])})
    assert r.status_code == 409 and "played by bot:greedy" in r.json()["error"]
    played = client.post("/api/bot", json={"steps": 3}).json()["played"]
    assert len(played) == 3 and all(p.startswith("german: ") for p in played)
    assert [str(a) for a in session.state.history] == played


def test_the_planning_bot_plays_a_side_through_the_page_as_in_play(tmp_path):
    """``serve --player blue=bot:planner`` (the default bot of ``play``) is accepted and decides
    through the same Game API: its actions are legal ones, applied and traced."""
    from casebook.core.game import Game

    session = new_session(Game.load("kestrel_pass", "meeting"), {"blue": "bot:planner", "red": "human"}, tmp_path)
    assert session.players == {"blue": "bot:planner", "red": "human"}
    played = client_for(session).post("/api/bot", json={"steps": 2}).json()["played"]
    assert played and all(p.startswith("blue: ") for p in played)
    assert [str(a) for a in session.state.history] == played


def test_undo_takes_back_the_human_decision_and_the_bot_replies(session):
    client = client_for(session)
    client.post("/api/apply", json={"action": "german: move path=0102 stack=0201"})
    r = client.post("/api/undo", json={})
    assert r.json()["took_back"] == "german: move path=0102 stack=0201"
    assert session.state.data.unit("g-lvi-pz")["hex"] == "0201" and session.state.history == []
    assert client.post("/api/undo", json={}).status_code == 409


def test_paths_outside_the_served_folder_are_refused(session, tmp_path):
    client = client_for(session)
    for route in ("/api/load", "/api/watch", "/api/save"):
        r = client.post(route, json={"path": "../../etc/passwd"})
        assert r.status_code == 403 and "outside the served folders" in r.json()["error"], route
    assert client.post("/api/load", json={"path": "/etc/hostname"}).status_code == 403


def test_serve_load_outside_the_served_folder_is_refused(tmp_path):
    from casebook.tools.cmd_serve import build_session
    from casebook.tools.web.session import ServeError

    outside = tmp_path.parent / "elsewhere.yaml"
    with pytest.raises(ServeError, match="outside the served folders"):
        build_session("battle_for_moscow", None, {}, load=str(outside), root=tmp_path / "served")


def test_a_corrupt_save_is_refused_whole_and_the_play_goes_on(session, tmp_path):
    client = client_for(session)
    (tmp_path / "bad.yaml").write_text("kind: position\nformat: 1\ngame: battle_for_moscow\nturn: x\n")
    before = session.state.to_dict()
    r = client.post("/api/load", json={"path": "bad.yaml"})
    assert r.status_code == 400 and r.json()["error"].startswith(str(tmp_path / "bad.yaml"))
    assert session.state.to_dict() == before


def test_save_then_load_continues_the_same_play(session, tmp_path):
    client = client_for(session)
    client.post("/api/apply", json={"action": "german: move path=0102 stack=0201"})
    saved = client.post("/api/save", json={"path": "games/one.yaml"}).json()
    assert (tmp_path / "games" / "one.yaml").is_file() and saved["trace"].endswith("one.yaml.trace.jsonl")
    client.post("/api/apply", json={"action": "german: pass"})
    r = client.post("/api/load", json={"path": "games/one.yaml"})
    assert r.status_code == 200
    assert session.state.data.unit("g-lvi-pz")["hex"] == "0102"
    assert r.json()["state"]["header"]["step"] == "panzer_movement"


def test_ask_answers_with_case_titles_and_rule_lines(session):
    client = client_for(session)
    r = client.post("/api/ask", json={"question": "zoc", "words": "0302"}).json()
    assert r["answer"]["hex"] == "0302" and r["case_titles"]
    assert client.post("/api/ask", json={"question": "nonsense"}).status_code == 400


def test_a_question_given_with_its_words_in_one_string_is_split_as_the_cli_splits_it(session):
    # session 16's fresh-user trial: {"question": "supply g-20pz-21"} said no plugin answers that question
    client = client_for(session)
    whole = client.post("/api/ask", json={"question": "zoc 0302"})
    assert whole.status_code == 200, whole.text
    assert whole.json()["answer"] == client.post("/api/ask", json={"question": "zoc", "args": ["0302"]}).json()["answer"]
    assert whole.json()["answer"]["hex"] == "0302"


def test_a_game_played_through_the_page_replays_with_casebook_replay(session, tmp_path):
    from casebook.tools.cmd_replay import replay_trace

    client = client_for(session)
    client.post("/api/apply", json={"action": "german: move path=0102 stack=0201"})
    client.post("/api/apply", json={"action": "german: pass"})
    client.post("/api/bot", json={"steps": 5})
    path = tmp_path / "played.jsonl"
    path.write_text(client.get("/api/trace").text, encoding="utf-8")
    ok, message = replay_trace(path, partial=True)  # the game goes on: a trace cut short
    assert ok and "replayed identically" in message, message


def test_watch_steps_through_a_trace_with_the_position_at_each_event(session, tmp_path):
    client = client_for(session)
    client.post("/api/apply", json={"action": "german: move path=0102 stack=0201"})
    (tmp_path / "t.jsonl").write_text(client.get("/api/trace").text, encoding="utf-8")
    summary = client.post("/api/watch", json={"path": "t.jsonl"}).json()
    assert summary["events"] == len(session.state.trace) and summary["decisions"] == 1
    first = client.get("/api/watch/0").json()
    assert first["event"]["kind"] == "setup" and first["decision"] == 0
    assert {u["id"]: u["hex"] for u in first["units"]}["g-lvi-pz"] == "0201"
    last = client.get(f"/api/watch/{summary['events'] - 1}").json()
    assert {u["id"]: u["hex"] for u in last["units"]}["g-lvi-pz"] == "0102"
    assert last["event"]["case_titles"]
    assert client.get("/api/watch/x").status_code == 400


def test_a_whole_battle_for_moscow_against_the_bot_through_the_api(bfm_game, tmp_path):
    session = new_session(bfm_game, HUMAN_GERMAN, tmp_path)
    client = client_for(session)
    state = client.get("/api/state").json()
    for _ in range(2000):
        if state["header"]["result"] is not None:
            break
        if state["human"]:  # the person picks the first action the page lists
            state = client.post("/api/apply", json={"action": state["legal"][0]}).json()["state"]
        else:
            state = client.post("/api/bot", json={"steps": 100000}).json()["state"]
    result = state["header"]["result"]
    assert result is not None and session.state.is_terminal()
    assert result == session.state.result() and result["winner"] in ("german", "soviet", None)


def test_a_whole_october_blitz_through_the_api(tmp_path):
    from casebook.core.game import Game

    game = Game.load("moscow41", "october-blitz")
    session = new_session(game, {"german": "bot:greedy", "soviet": "bot:greedy"}, tmp_path)
    client = client_for(session)
    body = client.post("/api/bot", json={"steps": 100000}).json()
    assert body["state"]["header"]["result"] is not None
    assert body["state"]["header"]["tracks"]["IP"].keys() == {"german", "soviet"}
    assert len(body["played"]) == len(session.state.history) > 100
    assert json.loads(client.get("/api/trace").text.splitlines()[0])["kind"] == "setup"


def test_posts_must_be_json_and_hosts_other_than_loopback_are_refused(session):
    from starlette.testclient import TestClient

    from casebook.tools.cmd_serve import LOOPBACK_NAMES
    from casebook.tools.web.app import make_app

    client = client_for(session)
    before = session.state.to_dict()
    # a form or text/plain POST (which another site's page could send without CORS) is refused
    r = client.post("/api/apply", content=b'{"action": "german: pass"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    assert session.state.to_dict() == before
    app = make_app(session, allowed_hosts=LOOPBACK_NAMES)
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/api/state").status_code == 200
    assert TestClient(app, base_url="http://rebound.example:8000").get("/api/state").status_code == 400


@pytest.mark.parametrize("route, body, status, words", [
    ("/api/choose", {"stack": "0201"}, 400, "hex: a non-empty string is needed"),
    ("/api/attack", {"hex": "0302", "with": "g-vi"}, 400, "with must be a non-empty list of unit ids"),
    ("/api/ask", {"question": "reach", "args": ["nowhere"]}, 400, "usage: reach UNIT"),
    ("/api/ask", {"question": "zoc", "words": "'unclosed"}, 400, "No closing quotation"),
    ("/api/bot", {"steps": -1}, 400, "steps must be an integer"),
    ("/api/save", {"path": "notes.txt"}, 400, "a save is a .yaml file"),
    ("/api/watch", {"path": "missing.jsonl"}, 400, "no such file"),
])
def test_bad_requests_to_every_route_get_a_clear_error_and_change_nothing(session, route, body, status, words):
    client = client_for(session)
    before = session.state.to_dict()
    r = client.post(route, json=body)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert session.state.to_dict() == before


def test_a_huge_refused_action_is_quoted_not_echoed_whole():
    from casebook.tools.web.session import ServeError

    err = ServeError("x" * 5_000_000)
    assert len(err.to_dict()["error"]) < 600 and err.to_dict()["error"].endswith("(5000000 characters)")


def test_a_save_with_a_corrupt_rng_is_refused_at_its_line_like_play_load(session, tmp_path):
    """The page's load reads saves through the one save check of `play --load` and `ask`."""
    client = client_for(session)
    client.post("/api/save", json={"path": "good.yaml"})
    text = (tmp_path / "good.yaml").read_text(encoding="utf-8")
    assert "rng:" in text
    bad = text.replace("rng: {seed: ", "rng: {state: abc, seed: ", 1) if "rng: {seed: " in text else None
    assert bad is not None, text[text.index("rng:"):][:80]
    (tmp_path / "bad.yaml").write_text(bad, encoding="utf-8")
    before = session.state.to_dict()
    r = client.post("/api/load", json={"path": "bad.yaml"})
    assert r.status_code == 400 and "rng.state" in r.json()["error"] and "bad.yaml:" in r.json()["error"]
    assert session.state.to_dict() == before


def test_undo_reaches_back_before_a_load_when_the_trace_is_beside_the_save(bfm_game, tmp_path):
    """``serve --load`` (and the page's load) could not undo past the load (play could): the
    history comes from the trace beside the save, replayed from its setup on undo."""
    from casebook.tools.web.session import Session, load_state

    first = new_session(bfm_game, {"german": "human", "soviet": "human"}, tmp_path)
    client = client_for(first)
    assert client.post("/api/apply", json={"action": "german: move path=0102 stack=0201"}).status_code == 200
    assert client.post("/api/save", json={"path": "s.yaml"}).status_code == 200
    resumed = Session(load_state(bfm_game, tmp_path / "s.yaml"), {"german": "human", "soviet": "human"},
                      roots=[tmp_path])
    assert len(resumed.state.history) == 1
    back = client_for(resumed).post("/api/undo", json={})
    assert back.status_code == 200 and back.json()["took_back"] == "german: move path=0102 stack=0201"
    # the setup event lists the sides people play (session 17: replay asks them as play did)
    assert resumed.state.trace.dumps() == bfm_game.new_initial_state(1, humans=["german", "soviet"]).trace.dumps()


def test_watch_opens_without_replaying_and_the_page_asks_without_a_404(session, tmp_path):
    """Opening a 2,800-event trace took ~15 s (replayed whole first) and the page's first GET
    /api/watch logged a 404: now nothing is open is an answer, and a trace replays step by step."""
    client = client_for(session)
    assert client.get("/api/watch").status_code == 200 and client.get("/api/watch").json() == {"open": False}
    client.post("/api/apply", json={"action": "german: move path=0102 stack=0201"})
    client.post("/api/apply", json={"action": "german: pass"})
    (tmp_path / "t.jsonl").write_text(client.get("/api/trace").text, encoding="utf-8")
    summary = client.post("/api/watch", json={"path": "t.jsonl"}).json()
    opened = client.get("/api/watch").json()
    assert opened["open"] is True and opened["decisions"] == summary["decisions"] == 2
    # a changed action is found when a step reaches it (not at open)
    lines = (tmp_path / "t.jsonl").read_text().splitlines()
    lines = [ln.replace("path=0102 stack=0201", "path=0102,0103 stack=0201") for ln in lines]
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    assert client.post("/api/watch", json={"path": "bad.jsonl"}).status_code == 200
    assert client.get("/api/watch/0").status_code == 200  # the start: nothing replayed yet
    refused = client.get(f"/api/watch/{summary['events'] - 1}")
    assert refused.status_code == 400 and "seq" in refused.json()["error"]


def test_a_save_cut_short_is_refused_by_the_page_s_load_as_by_play_load(session, tmp_path):
    """Rule 7 (issue #15 session 16): the page's load runs play --load's truncated-save check
    (tools/save_faults.refuse_truncated) — it loaded a cut save as a position."""
    client = client_for(session)
    client.post("/api/save", json={"path": "good.yaml"})
    lines = (tmp_path / "good.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[0] == "save: 1\n"  # every save begins with its mark
    (tmp_path / "cut.yaml").write_text("".join(lines[:12]), encoding="utf-8")  # no trace beside it
    before = session.state.to_dict()
    r = client.post("/api/load", json={"path": "cut.yaml"})
    assert r.status_code == 400, r.json()
    assert "cut.yaml: truncated save: no rng, trace_seq (a save written by play has " \
           "them all; it cannot be read)" in r.json()["error"]
    assert session.state.to_dict() == before
