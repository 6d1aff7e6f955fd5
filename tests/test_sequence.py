"""The phase/step machine over Moscow '41's Sequence of Play (0.7) and over small test sequences."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.sequence_data import sequence_from_dict
from casebook.content.yamlio import load_yaml
from casebook.core.errors import ContentError, PositionError
from casebook.core.sequence import Sequence, SequenceMachine
from casebook.core.state import GameState
from casebook.core.trace import Trace

SEQ = Path(__file__).resolve().parent.parent / "games" / "moscow41" / "sequence.yaml"


def _load(path: Path) -> Sequence:
    """A ``sequence.yaml`` read under the YAML policy and built (as the loader does)."""
    doc = load_yaml(path)
    return sequence_from_dict(doc.data, file=doc.file, doc=doc)


def _state(**extra) -> GameState:
    return GameState.from_dict({"kind": "position", "format": 1, "game": "moscow41",
                                "ip": {"german": 20, "soviet": 15}, **extra})


@pytest.fixture
def seq() -> Sequence:
    return _load(SEQ)


@pytest.mark.case("0.7.1", "0.7.2", "0.7.3", "0.7.4", "0.7.5")
def test_0_7_moscow41_sequence_has_the_rulebook_phases_and_steps(seq) -> None:
    assert [p.id for p in seq.phases] == ["weather", "first_initiative", "first_player",
                                          "second_initiative", "second_player", "end"]
    assert [p.side for p in seq.phases] == ["none", "first", "first", "second", "second", "none"]
    assert [s.case for s in seq.phase("weather").steps] == ["0.7.1.1", "0.7.1.2", "0.7.1.3"]
    assert [s.case for s in seq.phase("first_player").steps] == [
        "0.7.3.1", "0.7.3.2", "0.7.3.3", "0.7.3.4", "0.7.3.5", "0.7.3.7", "0.7.3.8"]
    # 0.7.4: the second player conducts 0.7.2 and 0.7.3 too
    assert [s.case for s in seq.phase("second_initiative").steps] == ["0.7.2.1", "0.7.2.2"]
    assert [s.id for s in seq.phase("second_player").steps] == [s.id for s in seq.phase("first_player").steps]
    assert len(list(seq.walk())) == 3 + 2 + 7 + 2 + 7 + 1


@pytest.mark.case("0.7.3.6", "0.7.4", "0.7.5")
def test_0_7_3_6_full_turn_with_two_loop_iterations(seq) -> None:
    state = _state(first_player="soviet")
    m = SequenceMachine(seq, state)
    trace = Trace()
    assert m.position()["phase"] == "weather" and state.phasing is None
    visited = [(state.phase, state.step)]
    command_visits = {"first_player": 0, "second_player": 0}
    while state.turn == 1:
        phase, step = state.phase, state.step
        passed = False
        if step == "command":
            command_visits[phase] += 1
            passed = (phase == "first_player" and command_visits[phase] == 3) or phase == "second_player"
        m.advance(passed=passed, trace=trace)
        visited.append((state.phase, state.step))
    steps_of_turn = visited[:-1]
    # weather 3 + initiative 2 + first player (5 + 5 + command + 2) + initiative 2 + second (command + 2) + end 1
    assert len(steps_of_turn) == 3 + 2 + 13 + 2 + 3 + 1 == 24
    assert [s for p, s in steps_of_turn if p == "first_player"] == (
        ["command", "movement", "combat", "reaction_movement", "reaction_attacks"] * 2
        + ["command", "unactivated_movement", "recovery"])
    assert visited[-1] == ("weather", "temperature") and state.turn == 2 and state.phasing is None
    loop_events = [e for e in trace if "0.7.3.6" in e.cases]
    assert len(loop_events) == 4                     # two repeats, two passes ending the loop
    assert [e.seq for e in trace] == list(range(24))


@pytest.mark.case("0.7.4")
def test_0_7_4_second_player_is_the_other_side(seq) -> None:
    state = _state(first_player="german", phase="first_player", step="recovery")
    m = SequenceMachine(seq, state)
    assert state.phasing == "german"                 # resolved from first_player when the position omits it
    m.advance()
    assert (state.phase, state.step, state.phasing) == ("second_initiative", "ip_collection", "soviet")
    assert m.position() == {"turn": 1, "phase": "second_initiative", "step": "ip_collection",
                            "phase_case": "0.7.4", "step_case": "0.7.2.1", "side": "second",
                            "phasing": "soviet", "loop": None}


def test_position_names_the_loop(seq) -> None:
    state = _state(first_player="german", phase="first_player", step="combat", phasing="german")
    assert SequenceMachine(seq, state).position()["loop"] == {
        "from": "command", "to": "reaction_attacks", "case": "0.7.3.6"}


def test_phasing_contradicting_the_first_player_is_refused(seq) -> None:
    with pytest.raises(PositionError, match="played by the second player"):
        SequenceMachine(seq, _state(first_player="german", phase="second_player", step="combat", phasing="german"))


def test_entering_a_player_phase_needs_the_first_player(seq) -> None:
    state = _state(phase="weather", step="initiative_determination")
    with pytest.raises(ValueError, match="first player"):
        SequenceMachine(seq, state).advance()


def test_unknown_phase_or_step_in_a_position_is_refused(seq) -> None:
    with pytest.raises(PositionError, match="not a step of phase 'weather'"):
        SequenceMachine(seq, _state(phase="weather", step="movement"))
    with pytest.raises(PositionError, match="no phase 'lunch'"):
        SequenceMachine(seq, _state(phase="lunch"))


def test_a_small_sequence_from_data_and_a_save_resumes() -> None:
    seq = sequence_from_dict({"kind": "sequence", "format": 1, "phases": [
        {"id": "a", "case": "1.0", "side": "first", "steps": [{"id": "x", "case": "1.1"}, {"id": "y", "case": "1.2"}],
         "loops": [{"from": "x", "to": "y", "case": "1.3"}]},
        {"id": "z", "case": "2.0", "side": "none", "steps": [{"id": "end", "case": "2.1"}]}]})
    state = _state(first_player="german")
    m = SequenceMachine(seq, state)
    m.advance()
    m.advance()                                       # x -> y -> x (loop)
    assert (state.phase, state.step, state.phasing) == ("a", "x", "german")
    resumed = GameState.from_dict(state.to_dict())
    m2 = SequenceMachine(seq, resumed)
    m2.advance(passed=True)                           # pass at the loop's first step ends it
    assert (resumed.phase, resumed.step, resumed.phasing) == ("z", "end", None)
    m2.advance()
    assert (resumed.turn, resumed.phase, resumed.step) == (2, "a", "x")


def test_bad_sequence_lists_every_problem_with_its_location(tmp_path) -> None:
    path = tmp_path / "sequence.yaml"
    path.write_text(
        "kind: sequence\nformat: 1\nprovenance: 'rulebook: 0.7'\nphases:\n"
        "  - id: a\n    case: '1.0'\n    side: third\n    steps:\n      - {id: x, case: '1.1'}\n"
        "      - {id: x, case: '1.2', colour: red}\n    loops:\n      - {from: x, to: q, case: '1.3'}\n"
        "  - id: a\n    case: '2.0'\n    side: none\n    steps: []\n", encoding="utf-8")
    with pytest.raises(ContentError) as info:
        _load(path)
    found = {(p.key, p.line) for p in info.value.problems}
    assert found == {("phases.0.side", 7), ("phases.0.steps.1.colour", 10), ("phases.0.steps.1.id", 10),
                     ("phases.0.loops.0.to", 12), ("phases.1.steps", 16), ("phases.1.id", 13)}
