"""Guards (issue #16): both bots keep a garrison on their side's automatic-loss hexes, read from the
scenario's victory block (``casebook.tools.bots_guard``), and send one into such a hex left open
when an enemy unit is within reach. Positions are the October Blitz's own setup (18.1.3B: a German
combat unit entering a Moscow hex wins; 18.1.3D: a Soviet one entering Smolensk, 1308), with one
unit moved or activated; the controls drop the condition from the same position."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.tools.bots import action_value, make_bot
from casebook.tools.bots_guard import (
    GUARD_LEAVE,
    REACH_MIN,
    REACH_TURNS,
    empties,
    fills,
    guard_hexes,
    open_guards,
    pressure,
    reach,
)

SMOLENSK = "1308"


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


def _movement(game, garrison_at: str, drop_18_1_3D: bool = False):
    """The Blitz setup in the German movement step of Turn 1, Smolensk's garrison (the 403rd
    Security Division) activated and standing in ``garrison_at``; optionally without 18.1.3D."""
    data = game.new_initial_state(1).data.to_dict()
    data["step"] = "movement"
    for u in data["units"]:
        if u.get("id") == "g-403sd":
            u["activated"], u["hex"] = True, garrison_at
    if drop_18_1_3D:
        victory = data["scenario"]["victory"]
        victory["soviet"] = [c for c in victory["soviet"] if c.get("case") != "18.1.3D"]
    return game.state_from_dict(data)


def _dest(action):
    return (action.get("path") or (action.get("to"),))[-1]


def test_guard_hexes_are_the_enemys_enter_hexes_of_the_victory_block(blitz):
    state = blitz.new_initial_state(1)
    board = blitz.engine.board_for(state.data)
    assert guard_hexes(state, "german") == {SMOLENSK}                 # 18.1.3D
    assert guard_hexes(state, "soviet") == {hex_label(h) for h in board.hex_set("moscow")}  # 18.1.3B


def test_pressure_is_one_with_an_enemy_unit_within_its_reach(blitz):
    state = blitz.new_initial_state(1)
    grid = blitz.engine.board_for(state.data).grid

    def beyond(label, side):
        return min(grid.distance(parse_hex(label), parse_hex(u["hex"])) - reach(u)
                   for u in state.data.units if u.get("hex") and u["side"] != side and u.get("class") != "hq")

    # the Soviet armies west of Vyazma stand within reach of Smolensk on 2 October
    assert beyond(SMOLENSK, "german") <= 0 and pressure(state, "german", SMOLENSK) == 1.0
    # the German spearheads are far from Moscow: beyond reach by more than REACH_MIN hexes
    moscow = sorted(guard_hexes(state, "soviet"))
    assert all(beyond(m, "soviet") >= REACH_MIN for m in moscow)
    assert all(pressure(state, "soviet", m) == 0.0 for m in moscow)
    assert reach({"ma": 8}) == REACH_TURNS * 8 and reach({"ma": 4}) == REACH_MIN
    # Smolensk is garrisoned at the start: not open
    assert open_guards(state, "german") == {}


def test_greedy_keeps_the_garrison_of_a_guard_hex(blitz):
    state = _movement(blitz, SMOLENSK)
    leaving = [a for a in state.legal_actions() if a.kind == "move" and a.get("stack") == SMOLENSK]
    assert leaving and all(empties(state, a) == SMOLENSK for a in leaving)
    ctx = state.ctx()
    assert all(action_value(state, ctx, a) == GUARD_LEAVE for a in leaving)
    choice = make_bot("greedy", "german", 1).choose(state)
    assert choice.get("stack") != SMOLENSK
    # the control: without 18.1.3D the same bot marches the garrison away (as in session 9's games)
    control = _movement(blitz, SMOLENSK, drop_18_1_3D=True)
    assert guard_hexes(control, "german") == frozenset()
    assert make_bot("greedy", "german", 1).choose(control).get("stack") == SMOLENSK


def test_greedy_sends_a_unit_into_an_open_threatened_guard_hex(blitz):
    state = _movement(blitz, "1312")  # the garrison marched 4 hexes east, as the old greedy bot did
    assert open_guards(state, "german") == {SMOLENSK: 1.0}
    back = [a for a in state.legal_actions() if a.kind == "move" and _dest(a) == SMOLENSK]
    assert back and all(fills(state, a) == SMOLENSK for a in back)
    choice = make_bot("greedy", "german", 1).choose(state)
    assert choice.kind == "move" and _dest(choice) == SMOLENSK
    control = _movement(blitz, "1312", drop_18_1_3D=True)
    assert _dest(make_bot("greedy", "german", 1).choose(control)) != SMOLENSK


def test_planner_keeps_the_garrison_of_a_guard_hex(blitz):
    state = _movement(blitz, SMOLENSK)
    assert make_bot("planner", "german", 1).choose(state).get("stack") != SMOLENSK
    control = _movement(blitz, SMOLENSK, drop_18_1_3D=True)
    assert make_bot("planner", "german", 1).choose(control).get("stack") == SMOLENSK


def test_planner_sends_a_unit_into_an_open_threatened_guard_hex(blitz):
    state = _movement(blitz, "1312")
    choice = make_bot("planner", "german", 1).choose(state)
    assert choice.kind == "move" and choice.get("stack") == "1312" and _dest(choice) == SMOLENSK
    control = _movement(blitz, "1312", drop_18_1_3D=True)
    assert _dest(make_bot("planner", "german", 1).choose(control)) != SMOLENSK


def test_the_guard_module_names_no_game_but_in_marked_examples():
    """bots_guard is shared by every game's bots: like the shared areas
    (tests/test_areas_name_no_game.py) it names no side, game or town but in a line marked as an
    example; its guard hexes come from the victory block alone."""
    import re
    from pathlib import Path

    import casebook.tools.bots_guard as module
    import casebook.tools.bots_guard_reach as reach_module  # split out in session 14

    names = re.compile(r"german|soviet|moscow|smolensk|partisan|hedgehog|panzer", re.IGNORECASE)
    example = re.compile(r"for example|e\.g\.", re.IGNORECASE)
    lines = [line for m in (module, reach_module) for line in Path(m.__file__).read_text(encoding="utf-8").splitlines()]
    assert [line for line in lines if names.search(line) and not example.search(line)] == []
    assert any(names.search(line) for line in lines)  # the check has something to look at: the examples
