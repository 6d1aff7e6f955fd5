"""``casebook serve`` in a real headless Chromium (Debian's, driven by Playwright): load the page,
click a stack, check the highlighted hexes against ``ask reach``, move, undo, preview and commit an
attack, step a trace with the VCR buttons. Screenshots are kept in tests/web/artifacts/."""

from __future__ import annotations

import pytest

from tests.web.conftest import ARTIFACTS, new_session

HUMAN_GERMAN = {"german": "human", "soviet": "bot:greedy"}


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1500, "height": 920})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert errors == [], errors  # no script error on the page


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=60_000)


def _highlighted(page) -> set[str]:
    return set(page.eval_on_selector_all("#hl polygon[data-hex]", "ps => ps.map(p => p.dataset.hex)"))


def _unit_hex(page, unit: str) -> str:
    return page.get_attribute(f".ctr[data-unit='{unit}']", "data-hex")


def test_click_a_stack_see_its_reach_move_and_undo(bfm_game, tmp_path, served, page):
    session = new_session(bfm_game, HUMAN_GERMAN, tmp_path)
    _open(page, served(session))
    assert "Turn 1 / 7" in page.inner_text("#h-turn")
    assert "german to decide (human)" in page.inner_text("#h-decider")
    page.locator(".ctr[data-hex='0201']").last.click()
    page.wait_for_selector("#hl polygon[data-hex]")
    asked = session.ask("reach", ["g-lvi-pz"], {})
    assert _highlighted(page) == set(asked["hexes"]) == {"0101", "0102", "0105"}
    legal = set(page.eval_on_selector_all("#hl polygon.legal", "ps => ps.map(p => p.dataset.hex)"))
    assert legal == set(session.reach("g-lvi-pz")["legal"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bfm-reach.png"))
    page.click("#hits polygon[data-hex='0105']")
    page.wait_for_selector(".ctr[data-unit='g-lvi-pz'][data-hex='0105']")
    assert session.state.data.unit("g-lvi-pz")["hex"] == "0105"
    assert str(session.state.history[-1]) == "german: move path=0102,0103,0104,0105 stack=0201"
    assert "applied german: move" in page.inner_text("#msg")
    assert "german: move: unit: g-lvi-pz; from: 0201; path: 0102, 0103, 0104, 0105" in page.inner_text("#log")  # where it went
    page.fill("#act-text", "german: move stack=0105 path=0106")
    page.click("#act-why")  # Why?: the refusal's reason, cases and the rule-script lines, as a refused Do says it
    page.wait_for_selector("#msg.err")
    assert page.inner_text("#msg") == ("german: move path=0106 stack=0105: g-lvi-pz already moved in this phase"
                                       " — cases BM5.2 — lines movement.rules:33")
    page.click("#hits polygon[data-hex='0909']")  # nothing selected now: just selects the hex
    page.locator(".ctr[data-hex='0105']").last.click()
    page.click("#hits polygon[data-hex='0909']")
    page.wait_for_selector("#msg.err")
    # the refusal and its case come from the rules (a unit moves once a phase, BM5.2)
    assert "g-lvi-pz already moved in this phase — cases BM5.2" in page.inner_text("#msg")
    page.click("#undo")
    page.wait_for_selector(".ctr[data-unit='g-lvi-pz'][data-hex='0201']")
    assert session.state.history == []


def _to_german_combat(session) -> None:
    from casebook.tools.bots import make_bot

    bot = make_bot("greedy", "german", 1)
    while session.state.data.step != "combat":
        session.state.apply(bot.choose(session.state))


def test_attack_preview_shows_the_rules_odds_then_commits(bfm_game, tmp_path, served, page):
    session = new_session(bfm_game, HUMAN_GERMAN, tmp_path)
    _to_german_combat(session)
    attack = next(a for a in session.state.legal_actions() if a.kind == "attack")
    target, attackers = attack.get("hex"), list(attack.values_of("with"))
    _open(page, served(session))
    for unit in attackers:
        where = session.state.data.unit(unit)["hex"]
        page.locator(f".ctr[data-hex='{where}']").last.click()
        page.click(f"#sel button.pick[data-unit='{unit}']")
    page.locator(f".ctr[data-hex='{target}']").last.click()
    page.click("#set-def")
    page.click("#atk-preview")
    page.wait_for_selector("#odds-col")
    asked = session.ask("attack", [target], {"with": attackers})
    assert page.inner_text("#odds-col") == asked["column"]
    rows = page.eval_on_selector_all("#outcomes tr", "rs => rs.slice(1).map(r => r.innerText)")
    assert len(rows) == len(asked["outcomes"])
    assert rows[0].split("\t") == [str(asked["outcomes"][0]["roll"]), asked["outcomes"][0]["probability"],
                                   asked["outcomes"][0]["result"]]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bfm-attack.png"))
    before = len(session.state.history)
    page.uncheck("#auto")
    page.click("#atk-commit")
    if page.locator("#choices .choice").count():
        page.click(f"#choices .choice[data-action='{attack}']")
    page.wait_for_function(f"document.getElementById('msg').innerText.includes('applied german: attack hex={target}')")
    assert len(session.state.history) == before + 1 and session.state.history[-1].kind == "attack"
    assert any(e.kind == "action" and e.data["action"].startswith(f"german: attack hex={target}")
               for e in session.state.trace)


def test_step_a_trace_with_the_vcr_buttons(bfm_game, tmp_path, served, page):
    played = new_session(bfm_game, {"german": "bot:greedy", "soviet": "bot:greedy"}, tmp_path)
    played.bot(12)
    (tmp_path / "game.jsonl").write_text(played.trace_text(), encoding="utf-8")
    count = len(played.state.trace)
    moved = next(u["id"] for u in played.state.data.units
                 if u.get("hex") and u["hex"] != played.initial.data.unit(u["id"]).get("hex"))
    session = new_session(bfm_game, HUMAN_GERMAN, tmp_path)
    _open(page, served(session))
    page.click("nav button[data-tab='watch']")
    page.fill("#w-path", "game.jsonl")
    page.click("#w-open")
    page.wait_for_function(f"document.getElementById('w-pos').innerText === 'event 1 / {count}'")
    assert page.inner_text("#w-kind") == "setup"
    assert _unit_hex(page, moved) == played.initial.data.unit(moved)["hex"]
    for _ in range(3):
        page.click("#w-fwd")
    page.wait_for_function(f"document.getElementById('w-pos').innerText === 'event 4 / {count}'")
    page.click("#w-back")
    page.wait_for_function(f"document.getElementById('w-pos').innerText === 'event 3 / {count}'")
    page.click("#w-last")
    page.wait_for_function(f"document.getElementById('w-pos').innerText === 'event {count} / {count}'")
    assert _unit_hex(page, moved) == played.state.data.unit(moved)["hex"]
    options = page.eval_on_selector_all("#w-jump option", "os => os.map(o => o.value)")
    page.select_option("#w-jump", options[1])
    page.wait_for_function(f"document.getElementById('w-pos').innerText === 'event {int(options[1]) + 1} / {count}'")
    page.click("#w-first")
    page.wait_for_function(f"document.getElementById('w-pos').innerText === 'event 1 / {count}'")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bfm-watch.png"))


def test_kestrel_pass_page_shows_no_weather(tmp_path, served, page):
    """Kestrel Pass has no weather: its header names none (it showed `weather warm/dry`), as play's."""
    from casebook.core.game import Game

    session = new_session(Game.load("kestrel_pass", "meeting"), {"blue": "human", "red": "bot:greedy"}, tmp_path)
    _open(page, served(session))
    assert "blue to decide (human)" in page.inner_text("#h-decider")
    assert page.inner_text("#h-weather").strip() == ""


def test_moscow41_page_highlights_the_reach_of_ask(tmp_path, served, page):
    from casebook.core.game import Game

    session = new_session(Game.load("moscow41", "october-blitz"), HUMAN_GERMAN, tmp_path)
    _open(page, served(session))
    w = session.state.data.weather
    assert "IP" in page.inner_text("#h-tracks")
    assert page.inner_text("#h-weather") == f"weather {w['temperature']}/{w['ground']}"
    page.locator(".ctr[data-hex='0116']").last.click()
    page.wait_for_selector("#hl polygon[data-hex]")
    here = [u["id"] for u in session.state.data.units_at("0116")]
    asked = session.ask("reach", [here[0] if len(here) == 1 else "0116"], {})
    assert _highlighted(page) == set(asked["hexes"]) and asked["hexes"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "moscow41-reach.png"))


def test_a_whole_battle_for_moscow_in_the_browser_against_the_bot(bfm_game, tmp_path, served, page):
    """The person clicks the first legal action the page lists, the greedy bot replies by itself,
    until the game is over; the header then shows the rules' result."""
    session = new_session(bfm_game, HUMAN_GERMAN, tmp_path)
    _open(page, served(session))
    page.uncheck("#animate")  # the bot's replies in one request each (the game stays short)
    for _ in range(1000):
        page.wait_for_selector("body[data-busy='0']")
        if session.state.is_terminal():
            break
        page.locator("#actions li").first.click()
    page.wait_for_selector("body[data-busy='0']")
    result = session.state.result()
    assert result is not None and result["reason"] in page.inner_text("#h-result")
    assert all(a.side == "german" for a in session.state.history if session.players[a.side] == "human")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bfm-game-over.png"))


@pytest.mark.case("10.4.2A")
def test_10_4_2A_attack_with_two_legal_support_amounts_lets_the_player_choose(tmp_path, served, page):
    """docs/examples/attack.yaml: g1 and g2 on s1 in 0304, the German HQ in command with 10 IPs, so play
    lists the attack with support=0 and support=6 (10.4.2A). The Attack button keeps the selection and
    offers those amounts (a fresh user's report, session 19: it cleared the panel and applied nothing),
    then commits the one chosen."""
    from pathlib import Path

    from casebook.core.game import Game
    from casebook.tools.web.session import Session, load_state

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "attack.yaml"
    players = {"german": "human", "soviet": "human"}
    state = load_state(Game.load("moscow41", "october-blitz"), example, humans=set(players))
    session = Session(state, players, roots=[tmp_path])
    _open(page, served(session))
    page.uncheck("#auto")
    for unit, where in (("g1", "0303"), ("g2", "0403")):
        page.locator(f".ctr[data-hex='{where}']").last.click()
        page.click(f"#sel button.pick[data-unit='{unit}']")
    page.locator(".ctr[data-hex='0304']").last.click()
    page.click("#set-def")
    page.click("#atk-commit")
    page.wait_for_selector("#atk-support-row:not([hidden])")
    assert page.eval_on_selector_all("#atk-support option", "os => os.map(o => o.textContent)") == ["0", "6"]
    assert page.inner_text("#atk-units") == "g1, g2" and page.inner_text("#atk-hex") == "0304"
    assert "2 support amounts are legal (10.4.2A)" in page.inner_text("#msg")
    assert session.state.history == []  # nothing applied yet
    page.select_option("#atk-support", label="6")
    page.click("#atk-commit")
    page.wait_for_function("document.getElementById('msg').innerText.includes('applied german: attack hex=0304')")
    assert [str(a) for a in session.state.history] == ["german: attack hex=0304 support=6 with=g1,g2"]
    assert page.inner_text("#atk-units") == "—"
    page.click("#actions li[data-action='soviet: support ips=0']")  # Last events: the account's combat line
    page.wait_for_function("document.getElementById('log').innerText.includes('german attacks 0304 (s1) with g1, g2')")
    log = page.inner_text("#log")
    assert "german attacks 0304 (s1) with g1, g2: 11 to 6, column 1:1 shifted -1; roll 7, DRM +4 → 11: -/FR" in log
    from casebook.tools.account import Narrator, drm_lines

    [combat] = [e for e in session.state.trace if e.kind == "combat"]
    narrator = Narrator.for_engine(session.state.game.engine)
    terms = [" ".join(t.split()) for t in drm_lines(combat.data, narrator.titles, narrator.rules_dir)]
    assert page.eval_on_selector_all("#log .term", "ds => ds.map(d => d.innerText)") == terms
    assert terms[0].startswith("shift -1 10.3B, 10.3C")  # the column shift names its source (10.3B)
    assert any("10.4.2A" in t for t in terms) and len(terms) == 4  # three DRMs, the German support among them
    assert "advance" not in log and "action: " not in log


@pytest.mark.case("10.0F")
def test_10_0F_no_attack_or_move_is_offered_while_the_other_side_decides(tmp_path, served, page):
    """A fresh user's report (session 19): while the Soviets had to decide after a combat, the page let
    the German player build an attack (and the server refused it with a wrong reason). Now the Attack
    button is disabled and says whose decision it waits for; a move is not offered either; once the
    combat's decisions are made the attack is offered again (10.0F)."""
    from casebook.tools.web.session import Session
    from games.moscow41.tests.test_attack_waits_10_0F import _state

    session = Session(_state(tmp_path), {"german": "human", "soviet": "human"}, roots=[tmp_path])
    _open(page, served(session))
    page.uncheck("#auto")
    page.click("#actions li[data-action='german: attack hex=0304 support=6 with=g1,g2']")
    page.click("#actions li[data-action='soviet: support ips=0']")
    page.wait_for_selector("#actions li[data-action^='soviet: negate-fatigue']")
    page.locator(".ctr[data-hex='0206']").last.click()
    page.click("#sel button.pick[data-unit='g3']")
    assert page.inner_text("#atk-wait") == "german waits: soviet decides now (negate-fatigue)"
    assert page.is_disabled("#atk-commit")
    page.locator("#hits polygon[data-hex='0207']").click(force=True)  # a move of g3: not offered either
    page.wait_for_function("document.getElementById('msg').innerText.includes('german waits')")
    assert [str(a) for a in session.state.history] == ["german: attack hex=0304 support=6 with=g1,g2",
                                                       "soviet: support ips=0"]
    while session.state.current_player() == "soviet":  # the Soviet decisions of the combat's result
        first = page.get_attribute("#actions li", "data-action")
        page.click(f"#actions li[data-action='{first}']")
        page.wait_for_function(f"!document.querySelector(\"#actions li[data-action='{first}']\")")
    page.wait_for_function("!document.getElementById('atk-commit').disabled")
    assert page.is_hidden("#atk-wait")
