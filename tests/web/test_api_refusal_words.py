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
