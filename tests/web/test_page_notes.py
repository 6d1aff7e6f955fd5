"""The page shows what the terminal and ``ask`` show of a combat (session 18, a fresh user's report):
the support-remainder warning of 10.4.2A ("Each 2 IPs spent by the Germans and 3 IPs spent by the
Soviets applies a DRM of 1": 4 Soviet IPs buy one, the fourth none) under the combat's event, and
the note beside a listed retreat that ends overstacked (6.2F: "if no other route is available, a unit
can retreat into a friendly-occupied hex, resulting in an overstack situation"; 6.2E; 7.5A).

The position: games/moscow41/tests/test_retreat_overstack_note.py's hemmed Soviet division (two
Soviet divisions in 0305, 6 stacking points of 5 with it), a Soviet HQ putting it in command, and
dice fixed to 5+5 (2:1, roll 10, DRM -1 → 9: -/2, 11.0B)."""

from __future__ import annotations

import pytest

from games.moscow41.tests.test_retreat_overstack_note import EXAMPLE, HEMMED
from tests.web.conftest import client_for

# the hemmed division's position with a Soviet HQ (s1 in command: the defender may buy support) and dice 5+5
UNITS = HEMMED.replace("rng: {seed: 1, state: null}", '  - {id: shq, side: soviet, class: hq, ma: 4, radius: 3, limit: 3, '
                       'mechanized: false, hex: "0307"}\nrng: {seed: 1, state: null, fixed: [5, 5]}')
WARNING = "4 soviet IPs of support: 1 of them buy no DRM (each 3 buy 1, a remainder none)  [10.4.2A]"
INTO = "soviet: retreat losses=1 path=0305"
NOTE = "overstacks 0305: 6 stacking points, limit 5 (6.2F, 7.5A, 6.2E)"


def hemmed_session(tmp_path):
    """Both sides played by a person, the German attack on s1 to be made."""
    from casebook.core.game import Game
    from casebook.tools.web.session import Session, load_state

    pos = tmp_path / "hemmed.yaml"
    pos.write_text(EXAMPLE.read_text(encoding="utf-8").split("units:", 1)[0].replace("soviet: 6}", "soviet: 9}")
                   + UNITS, encoding="utf-8")
    players = {"german": "human", "soviet": "human"}
    state = load_state(Game.load("moscow41", "october-blitz"), pos, humans=set(players))
    return Session(state, players, roots=[tmp_path])


@pytest.mark.case("10.4.2A", "6.2F")
def test_10_4_2A_and_6_2F_the_state_carries_the_remainder_warning_and_the_overstack_note(tmp_path):
    client = client_for(hemmed_session(tmp_path))
    for action in ("german: attack hex=0304 support=0 with=g1,g2", "soviet: support ips=4"):
        r = client.post("/api/apply", json={"action": action})
        assert r.status_code == 200, r.text
    st = client.get("/api/state").json()
    combat = [e for e in st["events"] if e["kind"] == "combat"]
    assert [e["warnings"] for e in combat] == [[WARNING]]
    assert INTO in st["legal"] and st["notes"] == {INTO: NOTE}  # the other retreats and losses: no note
    assert all(e["warnings"] == [] for e in st["events"] if e["kind"] != "combat")


@pytest.mark.case("10.4.2A", "6.2F")
def test_10_4_2A_and_6_2F_the_page_shows_the_warning_and_the_note(tmp_path, served, chromium):
    """In Chromium: the warning under the combat in *Last events*, the note beside the retreat listed."""
    session = hemmed_session(tmp_path)
    for action in ("german: attack hex=0304 support=0 with=g1,g2", "soviet: support ips=4"):
        session.apply(action)
    page = chromium.new_context(viewport={"width": 1500, "height": 920}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(served(session))
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)
    assert page.inner_text("#log .warning") == f"warning: {WARNING}".replace("  [", " [")  # HTML: one space
    assert page.inner_text(f"#actions li[data-action='{INTO}']") == f"{INTO} — {NOTE}"
    assert page.locator("#actions .note").count() == 1 and errors == []
    page.context.close()
