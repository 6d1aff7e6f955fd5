"""GameState: position-document shape in and out, exact round trips, all-or-nothing transactions."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.core.errors import IllegalActionError, PositionError
from casebook.core.state import GameState
from casebook.core.trace import Trace

EXAMPLE = {
    "kind": "position", "format": 1, "game": "moscow41", "turn": 3,
    "weather": {"temperature": "warm", "ground": "dry"},
    "phase": "first_player", "step": "movement", "phasing": "german", "first_player": "german",
    "ip": {"german": 20, "soviet": 15},
    "rp": {"german": {"infantry": 0, "armor": 0}, "soviet": {"infantry": 0, "armor": 0}},
    "fp": {"normal": 0, "moscow": 0}, "partisans": 0,
    "units": [
        {"id": "g1", "side": "german", "class": "infantry", "size": "division", "strength": 7, "ma": 4, "hex": "0303"},
        {"id": "s1", "side": "soviet", "class": "infantry", "size": "division", "strength": 6, "ma": 4,
         "hex": "0305", "fatigued": True, "losses": 1},
        {"counter": "g-lvi-pz", "hex": "2733"},
    ],
    "markers": [{"kind": "fortification", "hex": "0404"}],
    "control": {"0505": "soviet"},
    "pending": [{"unit": "s-312rd", "turn": 4, "area": "B"}],
    "removed": [{"unit": "s-5rd", "reason": "eliminated", "turn": 2}],
    "settings": {"ip_multiplier_scope": "total"},
    "rng": {"seed": 1, "state": None}, "trace_seq": 0,
}


def _yaml_round_trip(d: dict) -> dict:
    """Through the project's own save path: dump_yaml, then the safe position-keeping reader."""
    from casebook.content.yamlio import dump_yaml, read_yaml

    doc, problems = read_yaml("<save>", text=dump_yaml(d))
    assert not problems, problems
    return doc.data


def test_example_position_round_trips_exactly() -> None:
    state = GameState.from_dict(EXAMPLE)
    assert state.to_dict() == EXAMPLE
    assert list(state.to_dict()) == list(EXAMPLE)                    # key order of the document
    assert GameState.from_dict(_yaml_round_trip(state.to_dict())) == state
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_read_views() -> None:
    s = GameState.from_dict(EXAMPLE)
    assert s.unit("s1")["losses"] == 1 and s.unit("g-lvi-pz")["hex"] == "2733"
    assert [u["id"] for u in s.units_at("0303")] == ["g1"]
    assert s.track("ip", "german") == 20 and s.track("rp", "soviet", "armor") == 0 and s.track("fp", "moscow") == 0
    assert s.control("0505") == "soviet" and s.sides == ("german", "soviet")
    assert s.other_side("german") == "soviet"
    with pytest.raises(TypeError):
        s.unit("g1")["hex"] = "0101"  # type: ignore[index]


def test_none_counts_as_absent_like_a_pydantic_dump() -> None:
    d = dict(EXAMPLE, scenario=None, map=None, provenance=None,
             units=[{"id": "g1", "side": "german", "hex": "0303", "name": None}])
    assert GameState.from_dict(d).to_dict()["units"] == [{"id": "g1", "side": "german", "hex": "0303"}]
    assert "scenario" not in GameState.from_dict(d).to_dict()


def test_minimal_position_gets_defaults() -> None:
    s = GameState.from_dict({"kind": "position", "format": 1, "game": "g"})
    assert (s.turn, s.phase, s.track("partisans"), s.trace_seq, s.rng["state"]) == (1, None, 0, 0, None)


def test_bad_position_lists_every_problem() -> None:
    with pytest.raises(PositionError) as info:
        GameState.from_dict({"kind": "map", "format": 2, "tunr": 1,
                             "units": [{"id": "a"}, {"id": "a"}, {"hex": "0101"}]}, file="p.yaml",
                            tracks={})  # the game's tracks declared (none): "tunr" is no track
    keys = [p.key for p in info.value.problems]
    assert sorted(keys) == ["format", "game", "kind", "tunr", "units.1", "units.2"]
    assert "p.yaml" in str(info.value)


def test_mutations() -> None:
    s = GameState.from_dict(EXAMPLE)
    s.move_unit("g1", "0304")
    s.update_unit("s1", fatigued=None, losses=2)
    assert s.add_track("ip", -5, "german") == 15
    with pytest.raises(ValueError, match="below 0"):
        s.add_track("ip", -16, "soviet")
    s.add_marker("hedgehog", "0305")
    s.remove_marker("fortification", "0404")
    s.set_control("0303", "german")
    s.remove_unit("s1", "eliminated")
    due = s.take_pending(4)
    d = s.to_dict()
    assert d["units"][0]["hex"] == "0304" and [u.get("id") for u in d["units"]] == ["g1", None]
    assert d["removed"][-1] == {"unit": "s1", "reason": "eliminated", "turn": 3}
    assert due == [{"unit": "s-312rd", "turn": 4, "area": "B"}] and d["pending"] == []
    assert d["markers"] == [{"kind": "hedgehog", "hex": "0305"}]
    with pytest.raises(ValueError, match="hex label"):
        s.move_unit("g1", "A1")
    with pytest.raises(ValueError, match="already"):
        s.add_unit({"id": "g1"})


def test_added_units_join_the_lookups_as_a_rebuild_would() -> None:
    """add_unit keeps the unit lookups (by id, by hex) up to date instead of dropping them:
    after adds into an empty and into an occupied hex, the views equal those of a fresh copy."""
    s = GameState.from_dict(EXAMPLE)
    here = s.units_at("0303")  # builds the lookups
    s.add_unit({"id": "p1", "side": "german", "hex": "0909"})
    s.add_unit({"id": "p2", "side": "german", "hex": "0909"})
    s.add_unit({"id": "p3", "side": "soviet", "hex": here[0]["hex"] if here else "0303"})
    fresh = s.clone()
    for h in ("0909", "0303", here[0]["hex"] if here else "0303"):
        assert [dict(u) for u in s.units_at(h)] == [dict(u) for u in fresh.units_at(h)]
    assert [u["id"] for u in s.units_at("0909")] == ["p1", "p2"]
    assert s.has_unit("p3") and dict(s.unit("p3")) == dict(fresh.unit("p3"))
    s.update_unit("p1", fatigued=True)
    assert s.unit("p1")["fatigued"] is True and s.units_at("0909")[0]["fatigued"] is True
    s.move_unit("p1", "0910")
    assert [u["id"] for u in s.units_at("0909")] == ["p2"] and [u["id"] for u in s.units_at("0910")] == ["p1"]
    s.remove_unit("p2", "eliminated")
    assert s.units_at("0909") == () and not s.has_unit("p2")


def test_transaction_rolls_back_state_and_trace() -> None:
    s, trace = GameState.from_dict(EXAMPLE), Trace()
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        with s.transaction(trace):
            s.move_unit("g1", "0304")
            trace.record(s, "move", data={"unit": "g1"})
            raise IllegalActionError("g1-0305", ["8.1A"], "enemy occupied")
    assert s.to_dict() == before and len(trace) == 0 and s.trace_seq == 0
    with s.transaction(trace):
        s.move_unit("g1", "0304")
        trace.record(s, "move")
    assert s.unit("g1")["hex"] == "0304" and len(trace) == 1 and s.trace_seq == 1


def test_clone_is_independent() -> None:
    s = GameState.from_dict(EXAMPLE)
    c = s.clone()
    c.move_unit("g1", "0101")
    assert s.unit("g1")["hex"] == "0303" and s != c


# printable text: YAML itself turns control characters such as NEL (U+0085) into line breaks
text = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), max_size=6)
hexes = st.from_regex(r"\A[0-9]{4}\Z")
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_0123456789", min_size=1, max_size=8)
sides = st.sampled_from(["german", "soviet"])
flags = st.fixed_dictionaries({}, optional={"fatigued": st.booleans(), "losses": st.integers(0, 3),
                                            "oos": st.booleans(), "name": text})
units = st.lists(
    st.tuples(names, sides, hexes, st.integers(0, 12), flags).map(
        lambda t: {"id": t[0], "side": t[1], "hex": t[2], "strength": t[3], **t[4]}),
    max_size=5, unique_by=lambda u: u["id"])
positions = st.fixed_dictionaries(
    {"kind": st.just("position"), "format": st.just(1), "game": names,
     "turn": st.integers(1, 20),
     "ip": st.fixed_dictionaries({"german": st.integers(0, 99), "soviet": st.integers(0, 99)}),
     "rp": st.just({}), "fp": st.fixed_dictionaries({"normal": st.integers(0, 9), "moscow": st.integers(0, 9)}),
     "partisans": st.integers(0, 10), "units": units,
     "markers": st.lists(st.fixed_dictionaries({"kind": names, "hex": hexes}), max_size=3),
     "control": st.dictionaries(hexes, sides, max_size=4),
     "pending": st.lists(st.fixed_dictionaries({"unit": names, "turn": st.integers(1, 20)}), max_size=3),
     "removed": st.lists(st.fixed_dictionaries({"unit": names, "reason": st.sampled_from(["eliminated", "withdrawn"]),
                                                "turn": st.integers(1, 20)}), max_size=3),
     "settings": st.dictionaries(names, text | st.booleans() | st.integers(), max_size=2),
     "rng": st.fixed_dictionaries({"seed": st.integers(0, 2**32), "state": st.none() | st.integers(0, 2**64 - 1)}),
     "trace_seq": st.integers(0, 10_000)},
    optional={"weather": st.fixed_dictionaries({"temperature": st.sampled_from(["warm", "cold", "arctic"]),
                                                "ground": st.sampled_from(["dry", "mud", "snow"])}),
              "phase": names, "step": names, "phasing": sides, "first_player": sides,
              "provenance": text},
)


@settings(max_examples=60)
@given(positions)
def test_any_position_round_trips_through_state_yaml_and_json(d) -> None:
    state = GameState.from_dict(d)
    assert state.to_dict() == {k: d[k] for k in state.to_dict()} and set(state.to_dict()) == set(d)
    assert GameState.from_dict(_yaml_round_trip(state.to_dict())).to_dict() == d
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))).to_dict() == d


def test_a_save_is_a_position_file(mini_pack) -> None:
    from casebook.content.loader import load_pack
    from casebook.content.position import load_position, position_to_dict
    from casebook.content.yamlio import dump_yaml

    pack = load_pack(mini_pack)
    pos = load_position(mini_pack / "scenarios" / "skirmish.yaml", pack=pack)
    state = GameState.from_dict(position_to_dict(pos))
    uid = state.units[0]["id"]
    state.update_unit(uid, fatigued=True)
    state.set_rng_state(2**63 + 5)
    state.next_trace_seq()
    back = load_position(dump_yaml(state.to_dict()), pack=pack)     # the validating loader accepts it
    assert back.trace_seq == 1 and back.rng.state == 2**63 + 5
    assert GameState.from_dict(position_to_dict(back)) == state


def test_state_copies_are_deep_and_take_anything_deepcopy_takes():
    """Snapshots (transactions, clones) copy position data by a pickle round trip, falling back
    to deepcopy for what pickle cannot take."""
    from casebook.core.state import _copy

    data = {"units": [{"id": "a", "hex": "0101", "tags": ["x"]}], "t": (1, 2)}
    copied = _copy(data)
    assert copied == data and copied["units"][0] is not data["units"][0]
    copied["units"][0]["tags"].append("y")
    assert data["units"][0]["tags"] == ["x"]
    odd = {"f": lambda: 7}
    assert _copy(odd)["f"]() == 7
