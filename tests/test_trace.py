"""The trace: JSON Lines events with stable fields, dense seq, written and read back identically."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casebook.content.tracefile import loads_trace, read_trace
from casebook.core.state import GameState
from casebook.core.trace import FIELDS, Event, Trace


def _state() -> GameState:
    return GameState.from_dict({"kind": "position", "format": 1, "game": "g", "turn": 3,
                                "phase": "first_player", "step": "movement", "phasing": "german"})


def test_record_stamps_seq_turn_phase_step_side_from_state() -> None:
    state, trace = _state(), Trace()
    e0 = trace.record(state, "move", cases=["9.1A"], source="plug.move", data={"unit": "g1"})
    e1 = trace.record(state, "roll", side="chance", data={"total": 4})
    assert (e0.seq, e0.turn, e0.phase, e0.step, e0.side) == (0, 3, "first_player", "movement", "german")
    assert e0.cases == ("9.1A",)
    assert (e1.seq, e1.side) == (1, "chance")
    assert state.trace_seq == 2


def test_line_has_fields_in_stable_order() -> None:
    state, trace = _state(), Trace()
    trace.record(state, "move", cases=["9.1A"], source="s", data={"b": 1, "a": "ü"})
    line = trace.dumps()
    assert line.endswith("\n") and line.count("\n") == 1
    assert list(json.loads(line)) == list(FIELDS)
    assert line == ('{"seq":0,"turn":3,"phase":"first_player","step":"movement","side":"german",'
                    '"kind":"move","cases":["9.1A"],"source":"s","data":{"b":1,"a":"ü"}}\n')


def test_write_and_read_back_identically(tmp_path) -> None:
    state, trace = _state(), Trace()
    for i in range(5):
        trace.record(state, "roll", cases=["0.7.1.1"], data={"total": i + 1})
    path = tmp_path / "game.trace.jsonl"
    trace.write(path)
    again = read_trace(path)
    assert again == trace
    assert again.dumps() == path.read_text(encoding="utf-8")
    buf = io.StringIO()
    trace.write(buf)
    assert read_trace(io.StringIO(buf.getvalue())) == trace
    assert [e.seq for e in again] == [0, 1, 2, 3, 4]


def test_seq_must_be_dense() -> None:
    trace = Trace([Event(seq=7, turn=1, phase=None, step=None, side=None, kind="x")])
    with pytest.raises(ValueError, match="not dense"):
        trace.append(Event(seq=9, turn=1, phase=None, step=None, side=None, kind="x"))


def test_read_names_file_and_line_of_a_bad_event() -> None:
    good = Event(seq=0, turn=1, phase=None, step=None, side=None, kind="x").to_json()
    with pytest.raises(ValueError, match=r"t.jsonl:2: .*unknown fields \['extra'\]"):
        loads_trace(good + '\n{"seq":1,"extra":0}\n', name="t.jsonl")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=5), kids, max_size=3),
    max_leaves=8,
)


@given(
    st.lists(
        st.tuples(st.integers(1, 20), st.none() | st.text(max_size=8), st.text(min_size=1, max_size=8),
                  st.lists(st.text(max_size=6), max_size=3), st.dictionaries(st.text(max_size=5), json_values, max_size=3)),
        max_size=6,
    ),
    st.integers(0, 10_000),
)
def test_any_trace_round_trips_through_json_lines(rows, start) -> None:
    trace = Trace(
        Event(seq=start + i, turn=t, phase=p, step=None, side=p, kind=k, cases=tuple(c), source="s", data=d)
        for i, (t, p, k, c, d) in enumerate(rows)
    )
    again = loads_trace(trace.dumps())
    assert again == trace
    assert again.dumps() == trace.dumps()
