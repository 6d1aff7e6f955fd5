"""The rough edges a fresh user hit (issue #18, session 7): each a one-line answer or a behaviour
that replay, play and the other commands share."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from casebook.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
KP_GOLDEN = ROOT / "games" / "kestrel_pass" / "golden" / "meeting-greedy-seed1.jsonl"


def run(*args: object) -> tuple[int, str]:
    """``casebook ARGS`` in-process: (exit code, stdout + stderr); a traceback escapes."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        else:  # pragma: no cover - main always exits
            code = 0
    return code, out.getvalue()


# ------------------------------------------------------------------ replay --partial, a cut anywhere
@pytest.mark.parametrize("lines", [2, 5, 16, 35])
def test_replay_partial_accepts_a_cut_inside_the_game_work_after_a_decision(tmp_path, lines):
    """Cut after an action event, before the moves and control changes it brings (seq 2 is the
    move of the action at seq 1): refused without --partial, naming file:line; accepted with it."""
    cut = tmp_path / "t.jsonl"
    cut.write_text("".join(KP_GOLDEN.read_text().splitlines(keepends=True)[:lines]))
    code, out = run("replay", cut)
    assert code == 1 and f"t.jsonl:{lines}: the trace is incomplete" in out and "--partial" in out, out
    assert len(out.strip().splitlines()) == 1
    code, out = run("replay", "--partial", cut)
    assert code == 0 and f"{lines} events replayed identically; the trace is incomplete" in out, out


def cut_in_line_16(tmp_path: Path) -> Path:
    """The Kestrel Pass golden trace cut in the middle of its line 16 (15 whole events before)."""
    cut = tmp_path / "t.jsonl"
    lines = KP_GOLDEN.read_text().splitlines(keepends=True)
    text = "".join(lines[:15]) + lines[15][: len(lines[15]) // 2]
    assert text.count("\n") == 15 and not text.endswith("\n")
    cut.write_text(text)
    return cut


def test_replay_of_a_trace_cut_in_the_middle_of_a_line(tmp_path):
    """The trace cut in the middle of line 16. One line, file:line, no JSON parser's words;
    --partial replays the 15 complete events."""
    cut = cut_in_line_16(tmp_path)
    code, out = run("replay", cut)
    assert code == 1 and out.strip().splitlines() == [
        f"{cut}:16: the line is cut short (not a whole event); the trace stops in the middle of line 16 "
        "(--partial replays up to the last complete event)"], out
    code, out = run("replay", "--partial", cut)
    assert code == 0 and "15 events replayed identically" in out and "line 16 was cut short and left out" in out, out


@pytest.mark.parametrize("command", [("explain", "{cut}", "3"), ("explain", "{cut}", "3", "--json"), ("cases", "{cut}")])
def test_explain_and_cases_of_a_trace_cut_in_the_middle_of_a_line_say_so_in_one_line(tmp_path, command):
    """What replay says of a cut line, explain and cases TRACE say too: one file:line message, exit 1,
    no JSON parser's words (before: 'Unterminated string starting at: line 1 column …')."""
    cut = cut_in_line_16(tmp_path)
    code, out = run(*(a.format(cut=cut) for a in command))
    assert code == 1 and out.strip().splitlines() == [
        f"{cut}:16: the line is cut short (not a whole event); the trace stops in the middle of line 16"], out


def test_explain_of_the_whole_trace_still_explains_the_event(tmp_path):
    """The same 15 lines with a whole last line (no newline after it) are a trace: explain reads it."""
    whole = tmp_path / "t.jsonl"
    whole.write_text("".join(KP_GOLDEN.read_text().splitlines(keepends=True)[:15]).rstrip("\n"))
    code, out = run("explain", whole, 14)
    lines = out.splitlines()  # no pack beside it: the installed game is read, and a note says so
    assert code == 0 and lines[0].startswith("note: no pack folder of kestrel_pass") and lines[1].startswith("event 14 · turn "), out


def test_replay_of_a_corrupt_line_that_is_not_the_last_is_still_refused(tmp_path):
    lines = KP_GOLDEN.read_text().splitlines(keepends=True)
    lines[3] = lines[3][:40] + "\n"
    bad = tmp_path / "t.jsonl"
    bad.write_text("".join(lines[:20]))
    code, out = run("replay", "--partial", bad)
    assert code == 1 and f"{bad}:4: " in out and "Traceback" not in out, out


# ------------------------------------------------------------------ ask drop: distances found at once
@pytest.mark.parametrize("layout", ["flat-top-odd-q", "flat-top-even-q", "pointy-top-odd-r", "pointy-top-even-r"])
def test_15_1D_distance_field_is_the_grid_hex_distance_everywhere(layout):
    """The field of distances (one search from all sources) equals hexgrid.distance to the
    nearest source on every hex of a 13 x 9 map, for every layout (seeded sources)."""
    import random

    from casebook.core.grid import Grid
    from casebook.core.hexgrid import distance, to_cube
    from casebook.script.spatial import distance_field, grid_cubes

    grid = Grid(layout, 13, 9)
    rng = random.Random(layout)
    for n in (1, 2, 7):
        sources = rng.sample(grid.hexes(), n)
        field = distance_field([(c.q, c.r) for c in (to_cube(h, grid.layout) for h in sources)], grid_cubes(grid))
        for h in grid.hexes():
            c = to_cube(h, grid.layout)
            assert field[c.q, c.r] == min(distance(h, s, grid.layout) for s in sources)
    assert distance_field([], grid_cubes(grid)) == {}


def test_15_1D_nearest_enemy_after_the_field_threshold_equals_the_search(m41):
    """``distance to nearest(…)`` asked of every hex (more than FIELD_AFTER times on one state)
    gives the distances the per-hex search gives, as in the paratroop targets (15.1D)."""
    from casebook.script import compile_pack, compile_scripts, find_rule_pack
    from casebook.script.spatial import FIELD_AFTER
    from tests.conftest import make_ctx
    from tests.test_script_spatial import POSITION

    rules = compile_scripts([("t.rules", "quantity d = first by 1.1\n  otherwise distance to nearest("
                              "map_units having enemy from hex) by 1.1\n")],
                            compile_pack(find_rule_pack("moscow41")).schema)
    ctx = make_ctx(m41, POSITION)
    labels = [f"{c:02d}{r:02d}" for c in range(1, 21) for r in range(1, 21)]
    assert len(labels) > FIELD_AFTER
    got = [rules.value("d", {"hex": h, "side": "soviet"}, ctx.engine.script_tables, ctx.standard) for h in labels]
    # the German units stand on 0505 and 0508 (the position): hex distance to the nearer
    from casebook.core.hexgrid import distance, parse_hex

    want = [min(distance(parse_hex(h), parse_hex(g), ctx.board.grid.layout) for g in ("0505", "0508")) for h in labels]
    assert got == want and got[labels.index("0505")] == 0 and got[labels.index("0503")] == 2


# ------------------------------------------------------------------ play --load --rolls
def test_play_load_refuses_rolls_naming_the_save_field(tmp_path):
    """``--rolls`` fixes a new game's first dice; with ``--load`` it is refused (exit 2, one
    line naming the save's ``rng.fixed``), never silently ignored. The save is left as it was."""
    from casebook.tools.cmd_play import run_play

    run_play("kestrel_pass", "meeting", {"blue": ("bot", "greedy"), "red": ("bot", "greedy")}, 1,
             tmp_path / "a", max_actions=3, echo=lambda s: None, progress=False)
    save = tmp_path / "a" / "final.yaml"
    before = save.read_text()
    code, out = run("play", "--load", save, "--rolls", "6,2", "--out", tmp_path / "b", "--quiet")
    assert code == 2 and "--rolls fixes the first dice of a new game, not of a loaded one" in out, out
    assert "rng: {fixed: [6,2]}" in out and "Traceback" not in out
    assert save.read_text() == before and not (tmp_path / "b").exists()


# ------------------------------------------------------------------ the pack of a trace outside the repo
@pytest.fixture
def copied_game(tmp_path):
    """A copy of Kestrel Pass under a new game id (kp_copy) in tmp/pack, and a short play of it
    written to tmp/out (trace.jsonl and final.yaml, which records the pack folder)."""
    import shutil

    from casebook.tools.cmd_play import run_play

    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    for f in (pack / "game.yaml", pack / "scenarios" / "meeting.yaml"):
        f.write_text(f.read_text().replace("kestrel_pass", "kp_copy"))
    run_play(str(pack), "meeting", {"blue": ("bot", "greedy"), "red": ("bot", "greedy")}, 1, tmp_path / "out",
             max_actions=4, echo=lambda s: None, progress=False)
    return pack, tmp_path / "out" / "trace.jsonl"


def test_cases_explain_replay_find_the_pack_a_save_beside_the_trace_records(copied_game):
    pack, trace = copied_game
    code, out = run("cases", trace)
    assert code == 0 and "implemented 41/41" in out, out
    code, out = run("explain", trace, 0)
    assert code == 0 and "setup" in out, out
    code, out = run("replay", trace)
    assert code == 0 and "replayed identically, up to the save" in out, out


def test_a_trace_whose_pack_is_gone_says_to_pass_pack(copied_game, tmp_path):
    pack, trace = copied_game
    moved = pack.rename(tmp_path / "moved")
    for args in (("cases", trace), ("explain", trace, 0), ("replay", trace)):
        code, out = run(*args)
        assert code == 1 and "the game 'kp_copy' is not installed and it was played on " in out, (args, out)
        assert "name the pack folder it was played from: --pack DIR" in out and "Traceback" not in out
    code, out = run("cases", trace, "--pack", moved)
    assert code == 0 and "implemented 41/41" in out, out
    code, out = run("explain", trace, 0, "--pack", moved)
    assert code == 0, out


# ------------------------------------------------------------------ render of a broken pack
def test_render_of_a_broken_pack_exits_1_with_the_lint_problems(tmp_path):
    import shutil

    pack = tmp_path / "kp"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    (pack / "map.yaml").write_text((pack / "map.yaml").read_text() + "  bogus: [1\n")
    code, lint_out = run("lint", pack)
    assert code == 1
    code, out = run("render", pack, "-o", tmp_path / "map.svg")
    assert code == 1 and not (tmp_path / "map.svg").exists()
    problem = next(line for line in lint_out.splitlines() if "map.yaml:" in line)
    assert problem in out and "YAML syntax error" in problem, out
    code, out = run("render", "kestrel_pass", "-o", tmp_path / "ok.svg")
    assert code == 0 and (tmp_path / "ok.svg").is_file(), out


# ------------------------------------------------------------------ one path convention
def test_paths_in_messages_are_relative_inside_the_current_directory_else_absolute(tmp_path, monkeypatch):
    from casebook.core.errors import Problem, shown_path

    inside = tmp_path / "work" / "pack" / "map.yaml"
    inside.parent.mkdir(parents=True)
    inside.write_text("x: 1\n")
    monkeypatch.chdir(tmp_path / "work")
    assert shown_path(inside) == "pack/map.yaml"                       # given absolute, inside
    assert shown_path("pack/map.yaml") == "pack/map.yaml"              # given relative, inside
    assert shown_path("../work/pack/map.yaml") == "pack/map.yaml"
    outside = tmp_path / "other.yaml"
    outside.write_text("x: 1\n")
    assert shown_path("../other.yaml") == str(outside.resolve())       # given relative, outside
    assert shown_path("<save>") == "<save>" and shown_path("moscow41") == "moscow41"  # names, not paths
    assert str(Problem(str(inside), 3, 1, "units.0", "bad")) == "pack/map.yaml:3:1: units.0: bad"


def test_a_content_error_of_a_pack_given_absolute_names_its_files_relative(tmp_path, monkeypatch):
    import shutil

    pack = tmp_path / "kp"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "__pycache__"))
    (pack / "map.yaml").write_text((pack / "map.yaml").read_text() + "  bogus: [1\n")
    monkeypatch.chdir(tmp_path)
    for given in (pack, "kp"):
        code, out = run("lint", given)
        assert code == 1 and out.startswith("kp/map.yaml:") and str(tmp_path) not in out, out


# ------------------------------------------------------------------ why a move is refused (shared movement area)
def _refusal(ctx, text):
    from casebook.core.actions import parse_action

    out = [r for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=parse_action(text)) for r in rs or ()]
    return [(r.reason, tuple(r.cases)) for r in out]


@pytest.fixture
def kp_position():
    from casebook.script.engine import load_engine
    from games.kestrel_pass.tests.conftest import kp_ctx

    kp = load_engine("kestrel_pass")
    return lambda *a, **k: kp_ctx(kp, *a, **k)


@pytest.mark.case("KP5.1A", "KP5.1B")
def test_KP5_1_why_names_the_mp_the_path_costs_and_the_ma(kp_position):
    """b-1 (MA 4, counters.yaml) from 0304: forest 0305 costs 2 (KP5.1B), then clear 0306 1 and
    0307 1, then 0308 1: 5 MP against MA 4."""
    ctx = kp_position([("b-1", "0304", None)], step="movement")
    assert _refusal(ctx, "blue: move stack=0304 path=0305,0306,0307") == []         # 4 MP: legal
    assert _refusal(ctx, "blue: move stack=0304 path=0305,0306,0307,0308") == [(
        "b-1 cannot move along 0305,0306,0307,0308: the path costs 5 MP (0305 2, 0306 1, 0307 1, 0308 1), MA 4",
        ("KP5.1A", "KP5.1B"))]
    assert _refusal(ctx, "blue: move stack=0304 path=0306")[0][0].endswith("0306 is not adjacent to 0304")


@pytest.mark.case("KP5.2", "KP7")
def test_KP5_2_why_names_the_enemy_hex_and_KP7_the_stacking_limit(kp_position):
    """b-1 starts in r-1's ZOC (0405 is next to 0506) and leaves it freely (KP6.3), but never
    into r-1's hex (KP5.2); a move may not end on b-2 (KP7: one unit per hex)."""
    ctx = kp_position([("b-1", "0405", None), ("r-1", "0506", None), ("b-2", "0404", None)], step="movement")
    assert _refusal(ctx, "blue: move stack=0405 path=0506") == [
        ("b-1 cannot move along 0506: 0506 holds enemy units", ("KP5.2",))]
    assert _refusal(ctx, "blue: move stack=0405 path=0404") == [
        ("b-1 cannot move along 0404: 0404 already holds 1 friendly unit(s), the stacking limit", ("KP7",))]
    assert _refusal(ctx, "blue: move stack=0405 path=0404,0403") == []


def test_why_of_a_refused_move_in_play_gives_the_reason_not_only_not_listed():
    """In a played Kestrel Pass game (seed 1) the first listed move of b-4 (MA 5) ends at 0110;
    one hex more is refused by `why` with the MP and the MA and their cases, as the apply is."""
    from casebook.core.errors import IllegalActionError
    from casebook.core.game import Game

    state = Game.load("kestrel_pass", "meeting").new_initial_state(1)
    assert "blue: move path=0106,0107,0108,0109,0110 stack=0105" in [str(a) for a in state.legal_actions()]
    typed = "blue: move path=0106,0107,0108,0109,0110,0209 stack=0105"
    cases, reason = state.why_not(typed)
    assert cases == ("KP5.1A", "KP5.1B") and "the path costs 6 MP" in reason and "MA 5" in reason, reason
    with pytest.raises(IllegalActionError) as refused:
        state.apply(typed)
    assert "the path costs 6 MP" in str(refused.value)


# ------------------------------------------------------------------ a game's unused parameters, its own help
@pytest.fixture(scope="module")
def kp_attack_state():
    """A Kestrel Pass game (greedy, seed 1) at its first step where an attack is listed."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    state = Game.load("kestrel_pass", "meeting").new_initial_state(1, humans=["blue", "red"])
    bots = {side: make_bot("greedy", side, 1) for side in state.data.sides}
    while not any(a.kind == "attack" for a in state.legal_actions()):
        state.apply(bots[state.current_player()].choose(state))
    return state


def test_KP_an_attack_typed_without_support_is_the_listed_one(kp_attack_state):
    """Kestrel Pass has no combat support: every listed attack says support=0. Typed without
    it, the attack is that listed action (the terminal's and serve's input), not refused."""
    from casebook.core.actions import parse_action
    from casebook.tools.human import HumanPlayer, complete_action

    state = kp_attack_state
    listed = next(a for a in state.legal_actions() if a.kind == "attack")
    assert listed.get("support") == 0
    short = str(listed).replace(" support=0", "")
    assert complete_action(state, parse_action(short)) == listed
    assert complete_action(state, parse_action(short + " bogus=1")) == parse_action(short + " bogus=1")
    said: list[str] = []
    typed = iter([short.split(": ", 1)[1]])
    player = HumanPlayer(listed.side, "kestrel_pass", echo=said.append, read=lambda prompt: next(typed))
    assert player.choose(state) == listed


def test_help_shows_the_loaded_games_own_examples_and_questions(kp_attack_state):
    from casebook.tools.human import help_text

    text = help_text(kp_attack_state, kp_attack_state.current_player())
    first = next(a for a in kp_attack_state.legal_actions() if a.kind != "pass")
    assert str(first).split(": ", 1)[1] in text
    assert "this game answers: attack, offer, reach, retreat, victory, zoc" in text
    for moscow in ("german", "soviet", "activate-hq", "g-183id", "supply", "2134"):
        assert moscow not in text, moscow


# ------------------------------------------------------------------ hot-seat undo
def test_hot_seat_undo_never_takes_back_the_other_humans_decision():
    """Kestrel Pass, greedy decisions (seed 1) up to the first point where Red decides right
    after a decision of Blue's (as at Red's advance after Blue's retreat): Red's undo would take
    back Blue's decisions too, so with two humans it is refused and the play is unchanged; with
    Blue a bot, Red's last decision and everything after it are taken back (the bot decides again)."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot
    from casebook.tools.cmd_play import _undo

    game = Game.load("kestrel_pass", "meeting")
    initial = game.new_initial_state(1)
    state = initial.clone()
    bots = {side: make_bot("greedy", side, 1) for side in state.data.sides}
    while not (state.current_player() == "red" and state.history and state.history[-1].side == "blue"
               and any(a.side == "red" for a in state.history)):
        state.apply(bots[state.current_player()].choose(state))
    said: list[str] = []
    before = len(state.history)
    kept = _undo(initial, state, "red", said.append, humans={"red", "blue"})
    assert kept is state and len(state.history) == before
    assert said[-1].startswith("cannot undo red: ") and "blue decided since" in said[-1], said
    assert said[-1].endswith("undo takes back only red's own decisions")
    last_red = max(i for i, a in enumerate(state.history) if a.side == "red")
    undone = _undo(initial, state, "red", said.append, humans={"red"})
    assert len(undone.history) == last_red and said[-1] == f"took back: {state.history[last_red]}"


# ------------------------------------------------------------------ a hand-made position's trace replays
HAND_MADE = """kind: position
format: 1
game: kestrel_pass
turn: 2
weather: {temperature: warm, ground: dry}
phase: blue_turn
step: movement
first_player: blue
phasing: blue
units:
  - {counter: b-1, hex: "0304"}
  - {counter: b-4, hex: "0404"}
  - {counter: r-1, hex: "0706"}
  - {counter: r-5, hex: "0806"}
"""


def test_a_play_loaded_from_a_hand_made_position_replays(tmp_path):
    """No trace beside the position: the play's trace starts with a setup event holding the
    position (seq 0, turn 2 as the position says), so replay starts where the play did and
    gives every event again; undo after a later load reaches back to that position."""
    import json

    from casebook.tools.cmd_play import _resume, run_play

    pos = tmp_path / "hand.yaml"
    pos.write_text(HAND_MADE)
    bots = {"blue": ("bot", "greedy"), "red": ("bot", "greedy")}
    run_play(None, None, bots, 1, tmp_path / "a", load=str(pos), max_actions=6, echo=lambda s: None, progress=False)
    first = json.loads((tmp_path / "a" / "trace.jsonl").read_text().splitlines()[0])
    assert first["kind"] == "setup" and first["seq"] == 0 and first["turn"] == 2
    assert first["data"]["position"]["units"][0]["hex"] == "0304" and first["data"]["game"] == "kestrel_pass"
    code, out = run("replay", tmp_path / "a" / "trace.jsonl")
    assert code == 0 and "replayed identically, up to the save" in out, out
    _, state, initial, _ = _resume(None, None, str(tmp_path / "a" / "final.yaml"))
    assert initial is not None and initial.data.turn == 2 and len(state.history) == 6
    assert [u["hex"] for u in initial.data.units][:2] == ["0304", "0404"]
    whole = run_play(None, None, bots, 1, tmp_path / "b", load=str(pos), echo=lambda s: None, progress=False)
    assert whole.is_terminal()
    code, out = run("replay", tmp_path / "b" / "trace.jsonl")
    assert code == 0 and "events replayed identically" in out, out


# ------------------------------------------------------------------ serve: the first decision knows the players
@pytest.mark.case("10.5B")
def test_10_5B_serve_load_asks_a_human_the_template_only_first_decision(tmp_path):
    """A loaded position whose very first decision is template-only for the Soviets (only
    ``pass`` listed, an attack by a group no listing makes offered as a template: the position of
    games/moscow41/tests/test_decisions_template_only.py). Served with the Soviets human it is asked, not
    settled before the session knows who plays; with bots only it is settled as before."""
    import yaml

    from casebook.tools.cmd_serve import build_session
    from games.moscow41.tests.test_decisions_template_only import REACTION, position

    save = tmp_path / "reaction.yaml"
    save.write_text(yaml.safe_dump(position(REACTION, "reaction_attacks")))
    session = build_session("moscow41", "october-blitz", {"soviet": "human", "german": "bot:greedy"},
                            load=str(save), root=tmp_path)
    assert (session.state.data.step, session.state.current_player()) == ("reaction_attacks", "soviet")
    assert any(t.kind == "attack" for t in session.state.action_templates())
    bots = build_session("moscow41", "october-blitz", {"soviet": "bot:greedy", "german": "bot:greedy"},
                         load=str(save), root=tmp_path)
    assert bots.state.data.step != "reaction_attacks"
