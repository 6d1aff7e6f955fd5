"""What a person types at ``casebook play``'s prompt (and posts to ``casebook serve``'s API) is
checked as input before the rules judge it (src/casebook/tools/typed.py): an unknown action kind
gets "did you mean" and the kinds offered now, a hex off the map or ill-formed names its argument,
a unit named twice or unknown is refused naming it — and nothing is applied."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.tools.human import HumanPlayer


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


@pytest.fixture(scope="module")
def movement(blitz):
    """The October Blitz played by greedy bots (seed 1) up to the first German move of Step 2
    (0.7.3.2: the Movement Step)."""
    from casebook.tools.bots import make_bot

    state = blitz.new_initial_state(1)
    bots = {side: make_bot("greedy", side, 1) for side in state.data.sides}
    while not (state.data.step == "movement" and any(a.kind == "move" for a in state.legal_actions())):
        state.apply(bots[state.current_player()].choose(state))
    return state


def _prompt(state, side, *lines):
    """What the prompt says to ``lines`` (then ``quit``), the action it returned, and whether the
    state is unchanged."""
    said: list[str] = []
    typed = iter([*lines, "quit"])
    before, events = state.to_dict(), len(state.trace)
    chosen = HumanPlayer(side, "moscow41", echo=said.append, read=lambda prompt: next(typed)).choose(state)
    unchanged = state.to_dict() == before and len(state.trace) == events
    return [s for s in said if s.startswith(("refused", "error", "stack=", "hex="))], chosen, unchanged


def test_0_7_3_1_an_unknown_action_kind_says_did_you_mean_and_the_kinds_offered_now(blitz):
    state = blitz.new_initial_state(1)  # Turn 1, the German Command Step (0.7.3.1)
    said, chosen, unchanged = _prompt(state, "german", "mvoe stack=0116 path=0216", "activate-stak stack=0116",
                                      "buildfort hex=1010")
    assert said == [
        "refused: unknown action mvoe; did you mean move? (offered now: activate-hq, activate-stack, pass)",
        "refused: unknown action activate-stak; did you mean activate-stack? (offered now: activate-hq, "
        "activate-stack, pass)",
        "refused: unknown action buildfort; did you mean build-fort? (offered now: activate-hq, activate-stack, pass)",
    ]
    assert chosen is None and unchanged


def test_a_known_kind_of_another_step_keeps_the_rules_refusal_with_its_case(blitz):
    from casebook.core.actions import parse_action
    from casebook.tools.typed import typed_problem

    state = blitz.new_initial_state(1)
    assert typed_problem(state, parse_action("build-fort hex=1010", side="german")) is None
    assert state.why_not("build-fort hex=1010")[0] == ("14.1A",)  # placed in the Soviet Reinforcement Step


def test_a_hex_off_the_map_or_ill_formed_is_named_with_its_argument(blitz):
    state = blitz.new_initial_state(1)
    said, chosen, unchanged = _prompt(state, "german", "activate-stack stack=9999", "activate-stack stack=abc",
                                      "why activate-stack stack=0000")
    assert said == ["refused: stack=9999: hex 9999 is not on the map (hexes 0108..4053)",
                    "refused: stack=abc: 'abc' is not a hex label (four digits, column then row)",
                    "stack=0000: hex 0000 is not on the map (hexes 0108..4053)"]
    assert chosen is None and unchanged


def test_save_to_a_folder_that_does_not_exist_names_the_save_and_writes_nothing(blitz, tmp_path):
    state = blitz.new_initial_state(1)
    target = tmp_path / "missing" / "x.yaml"
    said, chosen, unchanged = _prompt(state, "german", f"save {target}", "save")
    assert said[0] == (f"error: cannot save to {target}: No such file or directory — nothing was written; "
                       f"the game goes on")
    assert said[1] == "error: usage: save FILE"
    assert not (tmp_path / "missing").exists() and chosen is None and unchanged


def test_save_that_cannot_write_its_position_leaves_no_trace_either(blitz, tmp_path):
    from casebook.tools.saves import write_save

    state = blitz.new_initial_state(1)
    (tmp_path / "x.yaml").mkdir()  # the save's own path is a folder: its trace could be written, it cannot
    with pytest.raises(OSError):
        write_save(state, tmp_path / "x.yaml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.yaml"]


def test_6_2_a_unit_named_twice_is_refused_not_counted_twice(movement):
    move = next(a for a in movement.legal_actions() if a.kind == "move")
    unit = movement.data.units_at(move.get("stack"))[0]["id"]
    path = ",".join(move.values_of("path"))
    said, chosen, unchanged = _prompt(movement, "german", f"move stack={move.get('stack')} path={path} "
                                                         f"units={unit},{unit}")
    # the rules refuse it with their cases (9.1C, 6.2B: _movement_actions), as an attacker named
    # twice (10.3A): the typed check leaves it to them, and play refuses it when applied
    assert said == [] and unchanged and chosen is not None
    cases, reason = movement.why_not(chosen)
    assert {"9.1C", "6.2B"} <= set(cases) and reason.startswith(f"{unit} named more than once")


def test_an_unknown_unit_or_an_empty_list_is_said_as_such(movement):
    move = next(a for a in movement.legal_actions() if a.kind == "move")
    unit = movement.data.units_at(move.get("stack"))[0]["id"]
    path = ",".join(move.values_of("path"))
    head = f"move stack={move.get('stack')} path={path}"
    said, chosen, unchanged = _prompt(movement, "german", f"{head} units={unit}x", f"{head} units=")
    assert said[0] == f"refused: units={unit}x: {unit}x is not a unit of this game; did you mean {unit}?"
    assert said[1] == "refused: units= is empty: name at least one unit after it, or leave units= out"
    assert chosen is None and unchanged


def test_serve_refuses_the_same_inputs_and_changes_nothing(movement, tmp_path):
    from casebook.tools.web.session import Session
    from tests.web.conftest import client_for

    session = Session(movement.clone(), {"german": "human", "soviet": "bot:greedy"}, roots=[tmp_path])
    client = client_for(session)
    move = next(a for a in session.state.legal_actions() if a.kind == "move")
    unit = session.state.data.units_at(move.get("stack"))[0]["id"]
    before, events = session.state.to_dict(), len(session.state.trace)
    twice = f"move stack={move.get('stack')} path={','.join(move.values_of('path'))} units={unit},{unit}"
    r = client.post("/api/apply", json={"action": twice})
    assert r.status_code == 409 and f"{unit} named more than once" in r.json()["error"]  # the rules' 9.1C
    r = client.post("/api/apply", json={"action": "mvoe stack=0116 path=0216"})
    assert r.status_code == 409 and "unknown action mvoe; did you mean move?" in r.json()["error"]
    why = client.post("/api/why", json={"action": "build-fort hex=9999"}).json()
    assert why["legal"] is False and why["reason"] == "hex=9999: hex 9999 is not on the map (hexes 0108..4053)"
    off = client.post("/api/choose", json={"stack": move.get("stack"), "hex": "9999"}).json()
    assert off["actions"] == [] and off["reason"] == "path=9999: hex 9999 is not on the map (hexes 0108..4053)"
    assert session.state.to_dict() == before and len(session.state.trace) == events


@pytest.mark.case("10.3A")
def test_10_3A_an_attacker_named_twice_keeps_the_rules_refusal_with_its_case(movement):
    from casebook.core.actions import parse_action
    from casebook.tools.bots import make_bot
    from casebook.tools.typed import typed_problem

    state = movement.clone()
    bots = {side: make_bot("greedy", side, 1) for side in state.data.sides}
    while not any(a.kind == "attack" for a in state.legal_actions()):
        state.apply(bots[state.current_player()].choose(state))
    attack = next(a for a in state.legal_actions() if a.kind == "attack")
    unit = attack.values_of("with")[0]
    typed = parse_action(f"attack hex={attack.get('hex')} with={unit},{unit} support=0", side=attack.side)
    assert typed_problem(state, typed) is None  # the rules say it, with their case
    assert state.why_not(typed) == (("10.3A",), f"{unit} named more than once: the attacker announces each "
                                                f"attacking unit once")
