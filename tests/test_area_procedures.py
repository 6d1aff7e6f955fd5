"""The shared areas' generic procedures Moscow '41 lifted out of its plugins (issue #15): the
retreat/advance enumeration and ranking (areas.retreat) and the ZOC-aware reach search
(areas._movement_reach: zoc_reach, and zoc_step/zoc_walk along a given path), on hand-made graphs — they know no game and cite no case."""

from __future__ import annotations

from casebook.areas._movement_reach import zoc_reach, zoc_step, zoc_walk
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


def test_zoc_reach_charges_a_fluid_step_the_games_cost_for_several_exerting_units():
    rows = {h: [(n, 2, 3) for n in ns] for h, ns in GRAPH.items()}
    common = dict(max_hexes=None, same_only=False, fresh=True, at_start=True, stops=STOPS, zoc="fluid", budget=9)
    zmap = {"a": frozenset({"x"}), "b": frozenset({"x", "y"})}
    once = zoc_reach("a", rows.__getitem__, zmap, frozenset(), **common)
    assert once["b"]["mp"] == 3                                  # the row's fluid cost: no `more`
    priced: list[tuple[str, str, frozenset[str]]] = []
    per_unit = zoc_reach("a", rows.__getitem__, zmap, frozenset(), more=lambda a, b, z: priced.append((a, b, z)) or 4,
                         **common)
    assert per_unit["b"]["mp"] == 4 and priced == [("a", "b", frozenset({"x", "y"}))]
    assert zoc_reach("a", rows.__getitem__, {"a": zmap["a"], "b": zmap["a"]}, frozenset(), more=lambda *_: 99,
                     **common)["b"]["mp"] == 3                   # one unit exerts: `more` is not asked


CITES = {"path": ("P",), "adjacent": ("ADJ",), "enemy": ("EN",), "max_hexes": ("ONE",), "ezoc_to_ezoc": ("Z2Z",),
         "ezoc_stop": ("ZS",), "prohibited": ("NO",), "short": ("MP",), "fluid": ("FL",), "locking": ("LK",),
         "all_mp": ("ALL",)}


def _walk(path, *, budget=4, zoc="locking", zmap=None, enemy=frozenset(), max_hexes=None, cost=2):
    def step(a, b, spent, hexes):
        return zoc_step(a, b, spent, hexes, near=GRAPH[a], enter=lambda x, y, fluid: (cost + fluid, ("COST",)),
                        zmap=zmap or {}, enemy=enemy, budget=budget, max_hexes=max_hexes, zoc=zoc,
                        same_only=False, fresh=True, at_start=True, cites=CITES)
    return zoc_walk("a", path, step, budget=budget, max_hexes=max_hexes, cites=CITES)


def test_zoc_walk_says_where_and_why_a_path_stops_with_the_games_cases():
    ok = _walk(["b", "c"])
    assert ok["legal"] and ok["mp_spent"] == 4 and ok["mp_left"] == 0 and ok["cases"] == ["COST", "P"]
    far = _walk(["b", "c", "d"])
    assert far["refused"] == {"hex": "d", "reason": "2 MP needed to enter d, 0 left", "cases": ["MP", "COST"]} and far["stops_at"] == "c"
    skip = _walk(["c"])
    assert skip["refused"]["cases"] == ["ADJ"] and not skip["legal"]
    locked = _walk(["b", "c"], zmap={"b": frozenset({"x"})})
    assert locked["stops_at"] == "b" and locked["refused"]["cases"] == ["ZS"]  # entering an enemy ZOC ends it
    assert locked["steps"][0]["cases"] == ["COST", "LK"]
    fluid = _walk(["b", "c"], zoc="fluid", zmap={"b": frozenset({"x"}), "c": frozenset({"y"})}, budget=5)
    assert fluid["legal"] and fluid["mp_spent"] == 5 and fluid["steps"][1]["cases"] == ["COST", "FL"]
    first = _walk(["b", "c"], budget=1)
    assert first["steps"] == [{"hex": "b", "cost": 1, "cases": ["COST", "ALL"]}] and first["refused"]["cases"] == ["ALL"]
    one = _walk(["b", "c"], max_hexes=1)
    assert one["stops_at"] == "b" and one["refused"]["reason"] == "the move may enter only 1 hex"
    assert _walk(["b"], enemy=frozenset({"b"}))["refused"]["cases"] == ["EN"]
