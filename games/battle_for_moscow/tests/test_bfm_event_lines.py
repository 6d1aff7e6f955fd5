"""Battle for Moscow refusals name only the lines that decided them (issue #15 item 3): ``why``
and ``casebook serve``'s JSON refusals carry the ``file:line`` of the lines citing their cases."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.cmd_ask import why_not_lines


@pytest.mark.case("BM5.1A")
def test_BM5_1A_a_refusal_names_only_the_lines_of_its_cases():
    state = Game.load("battle_for_moscow", "campaign").new_initial_state(1)
    cases, _, lines = why_not_lines(state, "german: move stack=0201 path=0909")
    assert "BM5.1A" in cases
    assert "movement.rules:10" in [ln["source"] for ln in lines]          # otherwise printed_ma by BM5.1A
    assert all(set(ln["cases"]) & set(cases) for ln in lines)
    assert not any("BM9.4" in ln["cases"] or "BM8.6B" in ln["cases"] for ln in lines)  # searched, not deciding


@pytest.mark.case("BM5.4A")
def test_BM5_4A_serve_json_refusal_carries_the_forbid_line(tmp_path):
    from tests.web.conftest import client_for, new_session

    session = new_session(Game.load("battle_for_moscow", "campaign"), {"german": "human", "soviet": "bot:greedy"},
                          tmp_path)
    r = client_for(session).post("/api/apply", json={"action": "german: rail-move stack=0201 path=0102"})
    assert r.status_code == 409
    body = r.json()
    assert body["cases"] == ["BM5.4A"]
    assert [(ln["source"], ln["text"]) for ln in body["lines"]] == [
        ("movement.rules:21", "forbid rail_move by BM5.4A  when side is german")]
