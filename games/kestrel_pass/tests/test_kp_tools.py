"""Kestrel Pass with the tools: a pack of data alone (no Python of its own) that lints, compiles,
plays to the end with every bot, replays, explains, renders, answers `ask` and runs in `batch`;
the game turns (KP1), set-up (KP3.2) and sequence of play (KP4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

PACK = Path(__file__).resolve().parents[1]
SCENARIO = str(PACK / "scenarios" / "meeting.yaml")


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_pack_has_no_python_but_its_package_init():
    """No rule of the game is Python: outside its own tests (``tests/``) the folder holds only the
    package ``__init__.py`` the ``casebook.games`` entry point needs."""
    rules_python = sorted(p.relative_to(PACK).as_posix() for p in PACK.rglob("*.py")
                          if p.relative_to(PACK).parts[0] != "tests")
    assert rules_python == ["__init__.py"]
    assert (PACK / "tests" / "test_kp_rules.py").is_file()
    manifest = (PACK / "game.yaml").read_text()
    assert ("plugins: [zoc, combat, area_movement, area_results, area_control, area_victory, declared_actions]"
            in manifest)


def test_lint_and_rules_check_are_clean():
    r = _run("lint", PACK)
    assert r.exit_code == 0 and "ok — game kestrel_pass" in r.output, r.output
    r = _run("rules", "check", "kestrel_pass")
    assert r.exit_code == 0 and "no errors" in r.output and "warning" not in r.output, r.output
    # each quantity says what it holds (`combat_dice first 0 terms` for an `otherwise` line alone)
    quantities = r.output.split("quantities (10):\n")[1].split("permissions")[0].splitlines()
    rows = {q[0]: " ".join(q[2:-1]) for q in (line.split() for line in quantities)}
    assert rows["combat_dice"] == "otherwise only"       # quantity combat_dice = first / otherwise 1d6
    assert rows["attack_drm"] == "start only"            # quantity attack_drm = sum / start 0
    assert rows["column_shift"] == "2 terms"             # KP8.3 and KP11.4, no start line


def test_cases_are_all_done():
    r = _run("cases", "kestrel_pass", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output)["summary"]
    assert summary["done"] == summary["total"] == 41 and summary["python_only"] == 0


@pytest.mark.case("KP1.1", "KP1.2", "KP3.2", "KP4.1A", "KP4.1B", "KP4.2A", "KP4.2B")
@pytest.mark.parametrize("kind", ["greedy", "random", "planner"])
def test_KP1_bots_play_to_the_end_and_the_play_replays_and_explains(tmp_path, kind):
    out = tmp_path / "out"
    r = _run("play", "kestrel_pass", "--player", f"blue=bot:{kind}", "--player", f"red=bot:{kind}",
             "--seed", 3, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    assert "Result:" in r.output
    events = [json.loads(line) for line in (out / "trace.jsonl").read_text().splitlines()]
    end = events[-1]
    assert end["kind"] == "game-over"
    assert end["turn"] <= 5 and set(end["cases"]) & {"KP9.2", "KP9.3", "KP10.2"}
    if end["turn"] == 5 and not set(end["cases"]) & {"KP9.2", "KP10.2"}:
        assert end["cases"][0] == "KP1.2"                         # the end of turn 5 ends the game
    steps = [(e["phase"], e["step"]) for e in events if e["kind"] == "advance"]
    assert steps[:3] == [("blue_turn", "combat"), ("red_turn", "movement"), ("red_turn", "combat")]
    setup = events[0]
    assert setup["kind"] == "setup" and setup["data"]["scenario"] == "meeting"
    r = _run("replay", out / "trace.jsonl")
    assert r.exit_code == 0 and "replayed identically" in r.output, r.output
    move = next(e["seq"] for e in events if e["kind"] == "move")
    r = _run("explain", out / "trace.jsonl", move)
    assert r.exit_code == 0 and "case KP5.1A: A unit spends MPs up to its printed MA" in r.output, r.output


def test_KP3_2_the_scenario_sets_up_five_full_units_a_side(kp):
    from casebook.core.game import Game

    state = Game(kp, "meeting").new_initial_state(seed=1)
    units = [u for u in state.data.units if u.get("hex")]
    assert sorted({u["side"] for u in units}) == ["blue", "red"]
    assert [sum(1 for u in units if u["side"] == s) for s in ("blue", "red")] == [5, 5]
    assert all(u["strength"] == kp.pack.counters[u["id"]]["strength"] for u in units)
    assert state.data.scenario["last_turn"] == 5


def test_render_draws_the_map_with_the_sides_colours(tmp_path):
    out = tmp_path / "kp.svg"
    r = _run("render", "kestrel_pass", "--scenario", "meeting", "-o", out)
    assert r.exit_code == 0 and "10 units drawn" in r.output, r.output
    svg = out.read_text()
    assert "Kestrel" in svg and "Redhold" in svg and "#8fb3de" in svg and "#e39a8f" in svg


def test_ask_answers_the_games_questions():
    r = _run("ask", SCENARIO, "--help")
    assert r.exit_code == 0 and all(q in r.output for q in ("attack", "reach", "retreat", "victory", "zoc"))
    v = json.loads(_run("ask", SCENARIO, "victory", "--json").output)
    assert (v["winner"], v["level"], v["cases"]) == (None, "draw", ["KP9.3"])
    reach = json.loads(_run("ask", SCENARIO, "reach", "b-4", "--json").output)
    assert reach["ma"] == 5 and reach["hexes"]["0101"]["mp"] == 4 and "KP5.1A" in reach["cases"]
    zoc = json.loads(_run("ask", SCENARIO, "zoc", "0906", "blue", "--json").output)
    assert zoc["exerted_by"] == ["r-4", "r-5"] and zoc["cases"] == ["KP6.1", "KP6.2", "KP8.6B", "KP6.3"]
    # KP6.3: the ZOC Chart rows the answer lists cite it (an answer's cases hold its lines' cases, session 16)
    # without a side: the phasing side's, else the vocabulary's first side (it was 'german', refused here)
    assert json.loads(_run("ask", SCENARIO, "zoc", "0906", "--json").output) == zoc
    retreat = json.loads(_run("ask", SCENARIO, "retreat", "r-2", "--json").output)
    assert retreat["hexes"] == 1 and retreat["paths"][0] == ["0907"]
    bad = _run("ask", SCENARIO, "reach", "x-9")
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_batch_plays_seeded_games():
    r = _run("batch", "kestrel_pass", "--games", 2, "--workers", 1, "--bot", "blue=greedy", "--bot", "red=random")
    assert r.exit_code == 0, r.output
    assert "2 of 2" in r.output and "errors" in r.output


def test_a_usage_error_lists_the_games_sides():
    r = _run("play", "kestrel_pass", "--player", "green=bot:greedy")
    assert r.exit_code == 2 and "blue" in r.output and "red" in r.output


def test_why_of_a_bare_move_says_what_a_move_names_and_the_account_ends_before_the_files(tmp_path):
    """`why move` with no arguments answers what the action takes (it said 'no blue unit in None');
    the last turn's summary is printed before 'Wrote …' (trial findings, #14) — when a decision was
    made since (session 18: a quit with nothing done prints no empty summary)."""
    r = CliRunner().invoke(main, ["play", "kestrel_pass", "--player", "blue=human", "--player", "red=greedy",
                                  "--out", str(tmp_path / "o"), "--quiet"], input="why move\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert "a move names the hex of the stack that moves: move stack=HEX path=HEX,HEX,…" in r.output
    assert "None" not in r.output
    assert r.output.index("--- Turn 1 summary") < r.output.index("Wrote ")


def test_kp8_attack_questions_cite_only_kestrel_pass_cases(position):
    """A game without IPs (Kestrel Pass) asks no Moscow '41 case: an attack on an empty hex cites
    the game's own combat cases, and support a bot or player names anyway is refused as support
    this game does not have, citing the game's combat procedure (KP8.x), not 2.3A (found by the
    session-9 fresh-user trial)."""
    from casebook.areas._combat_resolve import attack_answer
    from casebook.areas._combat_rules import _ip_refusal

    ctx = position([("b-4", "0505", None)])
    answer = attack_answer(ctx, "0506", ["b-4"])
    assert answer["legal"] is False and answer["cases"] and all(c.startswith("KP") for c in answer["cases"])
    refusal = _ip_refusal(ctx, "blue", 0, 2)
    assert refusal.reason == "blue has no combat support to buy in this game (support=2)"
    assert refusal.cases and all(c.startswith("KP8") for c in refusal.cases)


def test_kp8_refusals_and_zoc_facts_cite_no_moscow41_case(position):
    """The combat and ZOC areas hold no case id (tests/test_areas_name_no_game.py): in Kestrel
    Pass, which gives them no ``area_cases:``, a refused support amount, an unknown attacker, a
    unit of the other side and a unit's ZOC facts cite the game's own KP cases (they cited
    Moscow '41's 10.4.2A, 10.1A, 10.0C, 7.0A, 7.5A-B before)."""
    from casebook.areas import combat, zoc
    from casebook.areas._combat_rules import attack_refusals
    from casebook.core.actions import Action

    ctx = position([("b-4", "0505", None), ("r-1", "0506", None)])
    bad = Action.make("attack", "blue", hex="0506", support=-1, **{"with": ["b-4"]})
    refusals = [*combat.casebook_validate_action(ctx, bad),
                *attack_refusals(ctx, "blue", "0506", ["b-9", "r-1"], "attack")]
    assert [r.reason for r in refusals] == ["support must be a whole number of IPs, 0 or more",
                                            "no unit 'b-9' on the map", "r-1 is not a blue unit"]
    facts = zoc.casebook_facts(ctx, "b-4")
    cited = [c for r in refusals for c in r.cases] + facts["in_ezoc"]["cases"] + facts["zoc_retreat_blocked"]["cases"]
    assert cited and all(c.startswith("KP") for c in cited), cited


def test_every_ask_usage_error_exits_2_with_its_one_line(tmp_path):
    """A question asked wrongly is a usage error, exit 2 as the README's "Commands" says, like a
    question no plugin answers: an `offer` of an action the game does not declare (session-9
    fresh-user trial: an offer's usage error exited 1). A bad position file stays a content
    error, exit 1. (An `offer` on a scenario start that names no side is judged for the side
    deciding as play begins it, as `why` is: test_kp_fieldworks.py.)"""
    r = _run("ask", SCENARIO, "offer", "entrench", "hex=0204")
    assert r.exit_code == 2, r.output
    assert r.output.strip() == ("usage: offer ACTION [ARG=VALUE] — a declared action (an `offer` block of the rule "
                                "scripts): whether it is offered now, else each refusal with the rule line that "
                                "makes it (the game's declared actions: dig-in)")
    given = _run("ask", SCENARIO, "offer", "dig_in hex=0204", "--json")
    assert given.exit_code == 0 and json.loads(given.output)["offered"] is False
    unit = _run("ask", SCENARIO, "reach", "x-9")
    assert unit.exit_code == 2 and len(unit.output.strip().splitlines()) == 1 and "'x-9'" in unit.output
    assert _run("ask", SCENARIO, "attack", "0906", "--with", "b-4", "--roll", "7").exit_code == 2
    unknown = _run("ask", SCENARIO, "income", "blue")
    assert unknown.exit_code == 2 and "no rules plugin of kestrel_pass answers 'income'" in unknown.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("kind: position\nformat: 1\ngame: kestrel_pass\nturn: [\n", encoding="utf-8")
    assert _run("ask", broken, "victory").exit_code == 1


def test_the_play_header_shows_no_ground_in_a_game_without_weather(kp):
    """Kestrel Pass has one ground (dry) and no weather phase: its header names none (it showed
    `ground dry`); Battle for Moscow's mud turns keep theirs (games/battle_for_moscow/tests)."""
    from casebook.core.game import Game
    from casebook.tools.human import position_header

    state = Game(kp, "meeting").new_initial_state(seed=1)
    assert kp.pack.vocabulary.grounds == ("dry",)
    assert position_header(state, "blue") == "Turn 1 · blue_turn / movement · blue to decide · engineers blue 1, red 1"
    # the tracks are serve's: play's header showed no engineers where the page did (tools/human.py header_tracks)
    from casebook.tools.web.views import header_view

    assert header_view(state)["tracks"] == {"engineers": {"blue": 1, "red": 1}}


@pytest.mark.case("KP11.1")
def test_KP11_1_ask_victory_reads_each_track_as_play_does(kp):
    """`ask victory` reads every track as the rules and play read it (``state.track``): the
    scenario file's unset engineers are 0 a side (it showed `engineers: —`); at play's first prompt
    turn 1 has started and KP11.1's `when turn starts` lines have added 1 a side — and since
    session 16 `ask` answers the scenario file as play begins it (tools/ask_why.question_state), so
    it says 1 a side too (it said 0: the file as written)."""
    from casebook.core.game import Game
    from casebook.script.engine import state_from_position
    from casebook.tools.cmd_ask import answer_ctx

    file = state_from_position(kp.pack.scenario("meeting"))
    assert answer_ctx(kp.ctx(file), "victory", [], {})["tracks"]["engineers"] == {"blue": 0, "red": 0}
    state = Game(kp, "meeting").new_initial_state(seed=1)
    tracks = answer_ctx(state.ctx(), "victory", [], {})["tracks"]
    assert tracks == {"blue_vp": 0, "red_vp": 0, "engineers": {"blue": 1, "red": 1}}
    r = _run("ask", SCENARIO, "victory")
    assert r.exit_code == 0 and "  engineers: blue 1, red 1" in r.output.splitlines(), r.output


@pytest.mark.case("KP4.1B")
def test_KP4_1B_why_attack_in_the_movement_step_names_the_combat_phase(tmp_path):
    """`why attack …` asked in Blue's movement phase says where attacks are made — the combat step,
    KP4.1B — before any other refusal (it said only "b-1 is not adjacent to 0904", or "not among
    the legal actions of the movement step"), and so does the refusal of the attack typed there;
    `why move …` there keeps the move's own refusal."""
    r = CliRunner().invoke(main, ["play", "kestrel_pass", "--player", "blue=human", "--player", "red=greedy",
                                  "--out", str(tmp_path / "o"), "--quiet"],
                           input="why attack hex=0904 with=b-1\nwhy move stack=0204 path=0304,0404,0504,0604\n"
                                 "attack hex=0904 with=b-1\nquit\n")
    assert r.exit_code == 0, r.output
    assert ("blue> why blue: attack hex=0904 with=b-1:\n"
            "attack is made in the combat step (Combat phase, KP4.1B), not in the movement step (KP4.1A); "
            "b-1 is not adjacent to 0904 (cases KP4.1B, KP4.1A, KP8.1)") in r.output
    move = r.output.split("blue> ")[2]
    assert "is made in" not in move and "KP4.1B" not in move
    typed = r.output.split("blue> ")[3].splitlines()     # typed, refused: the step first, as `why` says it
    assert typed[:3] == ["refused: illegal action 'blue: attack hex=0904 with=b-1': attack is made in the combat step "
                         "(Combat phase, KP4.1B), not in the movement step (KP4.1A); b-1 is not adjacent to 0904 "
                         "(KP4.1B, KP4.1A, KP8.1)",
                         "  lines: combat.rules:4 (why … prints them)",   # the refusal's own lines (session 12)
                         "  (type `help` for the commands, `list` to see the actions again)"]


@pytest.mark.case("KP4.1B")
def test_KP4_1B_ask_why_of_a_position_answers_as_the_prompt_does():
    """`casebook ask POSITION why ACTION` is the prompt's `why` of a position (it was "no rules
    plugin answers 'why'"): on the scenario start, as play begins it (Blue's movement), an attack
    names the combat step (KP4.1B); a legal move is legal; no action is a usage error (exit 2)."""
    r = _run("ask", SCENARIO, "why", "attack hex=0904 with=b-1", "--json")
    assert r.exit_code == 0, r.output
    answer = json.loads(r.output)
    assert (answer["phase"], answer["step"], answer["deciding"], answer["legal"]) == ("blue_turn", "movement", "blue", False)
    assert answer["reason"] == ("attack is made in the combat step (Combat phase, KP4.1B), not in the movement step "
                                "(KP4.1A); b-1 is not adjacent to 0904")
    assert answer["cases"] == ["KP4.1B", "KP4.1A", "KP8.1"]
    move = json.loads(_run("ask", SCENARIO, "why", "move", "stack=0204", "path=0304", "--json").output)
    assert (move["action"], move["legal"], move["cases"]) == ("blue: move path=0304 stack=0204", True, [])
    bare = _run("ask", SCENARIO, "why")
    assert bare.exit_code == 2 and bare.output.startswith("usage: why ACTION")
    assert "\n  why ACTION\n" in _run("ask", SCENARIO, "--help").output + "\n"


def test_KP8_ask_attack_with_support_is_a_usage_error_naming_why():
    """Kestrel Pass has no combat support (its help's attack: ``attack HEX --with UNIT,UNIT…
    [--roll N]``): ``--support`` was accepted silently; it is a usage error (exit 2) saying so."""
    r = _run("ask", SCENARIO, "attack", "0904", "--with", "b-1", "--support", "1,0")
    assert r.exit_code == 2, r.output
    assert r.output.strip() == ("--support: Kestrel Pass's attack takes no --support "
                                "(usage: attack HEX --with UNIT,UNIT… [--roll N])"), r.output
    assert _run("ask", SCENARIO, "attack", "0904", "--with", "b-1").exit_code == 0
