"""Lines through the per-state-version memo (issue #15 deliverable 3): a value a Moscow '41
plugin keeps for the state's current content (a unit's supply verdict for its MA, a
``memo_allowed`` verdict, the movement decider …) goes through ``Ctx.memo_kept`` — ``Ctx.kept``
on a :class:`~casebook.script.ctx.Lasting` kept in ``ctx.memo`` — so every event of that state
version that reads it names the lines behind it, not only the first one that read it.

- two events recorded in one state version, each reading the same unit's supply verdict
  (5.6A/5.7B), both name the supply lines (supply.rules' ``supply_path_mp``), the same lines;
- two events each reading the same ``start_move`` verdict (``memo_allowed``, 9.4A) both name
  the ``forbid start_move`` line that decided it;
- the fast path (nothing collects lines: the bots' look-ahead) keeps the value in ``ctx.memo``
  itself and makes no :class:`Lasting` there.
"""

from __future__ import annotations

import pytest

from casebook.core.trace import Trace
from casebook.script.ctx import Lasting
from tests.conftest import played_blitz
from tests.test_event_lines_supply_command import rule_line, supply_path_mp_line


@pytest.fixture(scope="module")
def position():
    return played_blitz(0)


def _two_events(position, read):
    """The lines of two events recorded by one play context in one state version, each after
    ``read(ctx)``; the version must not change between them."""
    state = position.clone()
    ctx = state.game.engine.ctx(state.data, Trace(), event_lines=True)
    version = ctx.state._version
    read(ctx)
    first = ctx.record("test-first")
    read(ctx)
    second = ctx.record("test-second")
    assert ctx.state._version == version
    assert first is not None and second is not None
    return ([ln["source"] for ln in first.data.get("lines", ())],
            [ln["source"] for ln in second.data.get("lines", ())])


@pytest.mark.case("5.6A", "5.7B", "5.2B")
def test_5_6A_two_events_of_one_version_reading_a_units_supply_both_name_its_lines(position):
    from casebook.games.moscow41.plugins._movement_costs import is_supplied

    uid = next(u["id"] for u in position.data.units if u.get("side") == "german" and u.get("hex"))
    first, second = _two_events(position, lambda ctx: is_supplied(ctx, uid))
    assert supply_path_mp_line() in first
    assert second == first  # before memo_kept: the second named nothing (the memo held the verdict)


@pytest.mark.case("9.4A")
def test_9_4A_two_events_of_one_version_reading_a_start_move_verdict_both_name_its_line(position):
    from casebook.games.moscow41.plugins._rule_refusals import memo_allowed

    facts = {"movement_step": "movement", "activated": False, "reacting": False, "moved_this_phase": False}
    first, second = _two_events(position, lambda ctx: memo_allowed(ctx, "start_move", facts))
    assert rule_line("movement.rules", "forbid start_move by 9.4A") in first
    assert second == first


def test_the_fast_path_keeps_a_memo_value_in_the_memo_itself(position):
    state = position.clone()
    ctx = state.game.engine.ctx(state.data)  # collects nothing: the bots' look-ahead
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return int(ctx.value("stacking_limit", {"side": "german"}))

    value = ctx.memo_kept(("test.memo_kept",), compute)
    assert ctx.memo_kept(("test.memo_kept",), compute) == value and len(calls) == 1
    assert ctx.memo[("test.memo_kept",)] == value
    assert not any(isinstance(v, Lasting) for v in ctx.memo.values())
