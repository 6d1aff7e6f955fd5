"""The rough edges a fresh user hit in asking and playing (issue #18, session 7; split from
tests/test_rough_edges.py): distances found at once, ``play --load --rolls``, why a move is
refused, a game's own help, hot-seat undo, serve's first decision — each a one-line answer or a
behaviour that play and the other commands share."""

from __future__ import annotations

import pytest

from tests.security._secutil import run


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
    assert _refusal(ctx, "blue: move stack=0304 path=0304,0305")[0][0].endswith(
        "0304 is not adjacent to 0304 (list only the hexes entered, not the unit's own)")  # its own hex first


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
