"""The shared ``moving_stack`` books (areas/moving_stack.py) on a hand-made state: which units
moved, the stack being moved, and a unit replaced by others — they know no game and cite no case."""

from __future__ import annotations

from typing import Any

from casebook.areas import moving_stack


class _State:
    def __init__(self, units: dict[str, str]) -> None:
        self.hexes = dict(units)  # unit id -> hex
        self.data: dict[str, Any] = {}

    def plugin_data(self, name: str) -> Any:
        return self.data.get(name)

    def set_plugin_data(self, name: str, value: Any) -> None:
        self.data[name] = value

    def has_unit(self, uid: str) -> bool:
        return uid in self.hexes

    def unit(self, uid: str) -> dict[str, Any]:
        return {"id": uid, "hex": self.hexes[uid]}


class _Ctx:
    def __init__(self, units: dict[str, str]) -> None:
        self.state = _State(units)
        self.changes = 0

    def changed(self) -> None:
        self.changes += 1


def test_book_fills_defaults_and_drops_units_gone_from_the_moving_stack():
    ctx = _Ctx({"a": "0101", "b": "0101"})
    d = moving_stack.book(ctx, "mv", {"extra": [], "count": 0})
    assert d == {"moved": [], "extra": [], "count": 0}
    moving_stack.begin(d, ["a", "b"], "0101", 6, mode="x")
    moving_stack.save(ctx, "mv", d)
    assert ctx.changes == 1
    del ctx.state.hexes["b"]  # b eliminated meanwhile
    assert moving_stack.book(ctx, "mv", {})["current"]["units"] == ["a"]
    ctx.state.hexes["a"] = "0202"  # a displaced: the stack is no longer being moved
    assert moving_stack.book(ctx, "mv", {})["current"] is None


def test_end_counts_the_stack_as_moved_and_returns_its_units_left():
    ctx = _Ctx({"a": "0101"})
    d = moving_stack.book(ctx, "mv", {})
    cur = moving_stack.begin(d, ["a", "z"], "0101", 4, allotment=1)
    assert cur == {"units": ["a", "z"], "hex": "0101", "spent": 0, "budget": 4, "allotment": 1}
    stack, left = moving_stack.end(ctx, d)
    assert stack == cur and left == ["a"] and d["moved"] == ["a", "z"] and "current" not in d
    assert moving_stack.end(ctx, d) == (None, [])


def test_replace_unit_swaps_lists_and_the_stack_with_mps_paid():
    ctx = _Ctx({"d": "0101"})
    ctx.state.data["mv"] = {"moved": ["c", "d"], "other": ["d"],
                            "current": {"units": ["d"], "hex": "0101", "spent": 3, "budget": 4,
                                        "flag": {"d": False}}}
    moving_stack.replace_unit(ctx, "mv", ("moved", "other"), "d", ["r1", "r2"], mp_cost=2, flags=("flag",))
    d = ctx.state.data["mv"]
    assert d["moved"] == ["c", "r1", "r2"] and d["other"] == ["r1", "r2"]
    assert d["current"]["units"] == ["r1", "r2"] and d["current"]["flag"] == {"r1": False, "r2": False}
    assert d["current"]["spent"] == 4  # 3 + 2, never more than the budget
    before = dict(ctx.state.data)
    moving_stack.replace_unit(ctx, "mv", ("moved",), "nobody", ["x"])
    assert ctx.state.data == before and ctx.changes == 1
