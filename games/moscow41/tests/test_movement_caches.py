"""The movement plugin's Movement Step caches (issue #14 item 7: the greedy Blitz game loop), each
against the answer asked without it: ``eligible_stacks`` asks the ``start_move`` lines (9.4A,
0.7.3.4A, 9.8A, 9.1D) once per distinct facts and gives what asking them of every unit gives."""

from __future__ import annotations

import pytest

from tests.conftest import played_blitz


@pytest.mark.parametrize("actions", [0, 30, 80])
def test_9_4A_eligible_stacks_asking_once_per_facts_equal_the_start_move_asked_for_every_unit(actions):
    from casebook.areas._results_retreat import memo_allowed
    from casebook.games.moscow41.plugins import _movement_state as MS

    state = played_blitz(actions)
    ctx = state.ctx()
    d = MS.data(ctx)
    moved, react = set(d["moved"]), set(d["react"])
    busy = set((d.get("current") or {}).get("units", ()))
    found = 0
    for step in ("movement", "reaction_movement", "unactivated_movement"):
        for side in ("german", "soviet"):
            want: dict[str, list[str]] = {}
            for u in ctx.state.units:  # asked of every unit, never kept across units
                i = MS.uid(u)
                if u.get("side") == side and u.get("hex") and i not in busy and memo_allowed(ctx, "start_move", {
                        "movement_step": step, "activated": bool(u.get("activated")),
                        "reacting": i in react, "moved_this_phase": i in moved}):
                    want.setdefault(u["hex"], []).append(i)
            assert MS.eligible_stacks(ctx, step, side, d) == dict(sorted(want.items())), (step, side)
            found += len(want)
    assert found  # some stacks may move somewhere: the comparison is not between empty maps
