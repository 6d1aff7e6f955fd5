"""The shared areas' generic procedures Moscow '41 lifted out of its plugins (issue #15): the
retreat/advance enumeration and ranking (areas.retreat) and the ZOC-aware reach search
(areas._movement_reach), on hand-made graphs — they know no game and cite no case."""

from __future__ import annotations

from casebook.areas._movement_reach import zoc_reach
from casebook.areas.retreat import paths_up_to, retreat_judge

# a row of hexes a-b-c-d, with e beside b
GRAPH = {"a": ["b"], "b": ["a", "c", "e"], "c": ["b", "d"], "d": ["c"], "e": ["b"]}
STOPS = {"all_mp": "spent", "max_hexes": "one hex", "ezoc": "zoc"}


def test_paths_up_to_lists_every_simple_path_depth_first_and_stops_where_told():
    paths = paths_up_to("a", GRAPH.__getitem__, lambda here, there, path: True, 3)
    assert paths == [[], ["b"], ["b", "c"], ["b", "c", "d"], ["b", "e"]]
    no_e = paths_up_to("a", GRAPH.__getitem__, lambda here, there, path: there != "e", 3)
    assert ["b", "e"] not in no_e and ["b", "c", "d"] in no_e
    stopped = paths_up_to("a", GRAPH.__getitem__, lambda here, there, path: True, 3, stops=lambda h: h == "c")
    assert stopped == [[], ["b"], ["b", "c"], ["b", "e"]]  # entering c ends the path


def test_retreat_judge_ranks_by_enemy_contact_goal_distance_and_distance_from_start():
    pos = {"a": 0, "b": 1, "c": 2, "d": 3, "e": 2}
    distance = lambda x, y: abs(pos[x] - pos[y])
    judge = retreat_judge("b", distance, targets=["d"], enemy_hexes=["a"])
    assert judge([]) == (True, 2, False, 0)  # no retreat: stays next to the enemy
    assert judge(["c"]) == (False, 1, True, 1)
    assert judge(["c", "d"]) == (False, 0, True, 2)


def test_zoc_reach_spends_mps_stops_in_a_locking_zoc_and_enters_a_first_hex_with_all_mps():
    rows = {h: [(n, 2, 3) for n in ns] for h, ns in GRAPH.items()}
    common = dict(max_hexes=None, same_only=False, fresh=True, at_start=True, stops=STOPS)
    free = zoc_reach("a", rows.__getitem__, {}, frozenset(), budget=4, zoc="none", **common)
    assert {h: r["mp"] for h, r in free.items()} == {"b": 2, "c": 4, "e": 4}
    assert free["c"]["path"] == ["b", "c"] and free["c"]["stop"] is None
    locked = zoc_reach("a", rows.__getitem__, {"b": frozenset({"x"})}, frozenset(), budget=4, zoc="locking", **common)
    assert set(locked) == {"b"} and locked["b"]["stop"] == "zoc"  # stops on entering the enemy ZOC
    short = zoc_reach("a", rows.__getitem__, {}, frozenset(), budget=1, zoc="none", **common)
    assert short == {"b": {"mp": 1, "path": ["b"], "spent_all": True, "stop": "spent"}}
    blocked = zoc_reach("a", rows.__getitem__, {}, frozenset({"b"}), budget=9, zoc="none", **common)
    assert blocked == {}  # an enemy-occupied hex is never entered
