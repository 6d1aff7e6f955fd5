"""Lines through the ZOC memos (issue #15 deliverable 3): the zoc area's answers and maps kept per
state version (areas/zoc.py's ``zoc.answer``, areas/_zoc_map.py's ``zoc.map``) and the terrain-cost
area's ``ezoc_map``/``ezoc`` go through ``Ctx.memo_kept``, so every event of a state version that
reads a ZOC names the zoc.rules lines behind it, not only the first one that read it; and the
zoc area's after-action hook, which drops its cached ZOCs, drops what the kept memo holds too.

- two events recorded in one version of the Blitz's first position, each reading the same ZOC
  answer (7.0A, 7.1A) or the terrain-cost area's ZOC map or one hex of it, both name the
  ``permit exert_zoc`` and ``permit zoc_into_hex`` lines, the same lines;
- a ZOC answer read, then the unit exerting it moved away without a new state version (the kernel
  may not call ``ctx.changed``) and the after-action hook run: the answer read again no longer
  names that unit — with lines collected (the kept memo) and without (the plain memo).
"""

from __future__ import annotations

import pytest

from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.trace import Trace
from tests.conftest import played_blitz
from tests.test_event_lines_supply_command import rule_line


@pytest.fixture(scope="module")
def position():
    return played_blitz(0)


def _exert_lines() -> set[str]:
    """The lines that make a ZOC (7.1A: who exerts one; 7.0A, 7.0D: into which hexes)."""
    return {rule_line("zoc.rules", "permit exert_zoc "), rule_line("zoc.rules", "permit zoc_into_hex")}


def _ezoc_hex(state) -> tuple[str, str]:
    """A Soviet unit of the position and an empty hex beside it (in its ZOC against the Germans)."""
    board = state.game.engine.ctx(state.data).board
    for u in state.data.units:
        if u.get("side") != "soviet" or not u.get("hex") or u.get("class") in ("hq", "remnant"):
            continue
        for n in board.neighbours(parse_hex(u["hex"])):
            label = hex_label(n)
            if not state.data.units_at(label):
                return u["id"], label
    raise AssertionError("no Soviet unit with an empty hex beside it")


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


@pytest.mark.case("7.0A", "7.1A")
def test_7_0A_two_events_of_one_version_reading_a_zoc_answer_both_name_its_lines(position):
    from casebook.areas.zoc import zoc_answer

    _, hex_ = _ezoc_hex(position)
    first, second = _two_events(position, lambda ctx: zoc_answer(ctx, hex_, "german"))
    assert _exert_lines() <= set(first)
    assert second == first  # before memo_kept: the second named nothing (the memo held the answer)


@pytest.mark.case("7.0A", "7.1A")
def test_7_0A_two_events_of_one_version_reading_the_move_zoc_map_both_name_its_lines(position):
    from casebook.areas.terrain_costs import ezoc_map

    first, second = _two_events(position, lambda ctx: ezoc_map(ctx, "german"))
    assert _exert_lines() <= set(first)
    assert second == first


@pytest.mark.case("7.0A", "7.1A")
def test_7_0A_two_events_of_one_version_reading_one_ezoc_hex_both_name_its_lines(position):
    from casebook.areas.terrain_costs import ezoc

    uid, hex_ = _ezoc_hex(position)
    seen: list[frozenset[str]] = []
    first, second = _two_events(position, lambda ctx: seen.append(ezoc(ctx, hex_, "german")))
    assert all(uid in s for s in seen)
    assert _exert_lines() <= set(first)
    assert second == first


@pytest.mark.case("7.0A")
@pytest.mark.parametrize("collecting", [True, False], ids=["lines-collected", "fast-path"])
def test_7_0A_a_zoc_answer_does_not_outlive_the_after_action_hook(position, collecting):
    from casebook.areas import zoc

    state = position.clone()
    engine = state.game.engine
    ctx = engine.ctx(state.data, Trace(), event_lines=True) if collecting else engine.ctx(state.data)
    uid, hex_ = _ezoc_hex(state)
    assert uid in zoc.zoc_answer(ctx, hex_, "german")["exerted_by"]
    ctx.record("test-read")
    near = {hex_, *ctx.board.label_neighbours(hex_)}
    far = next(h for h in (hex_label(n) for n in ctx.board.hexes())
               if not near.intersection((h, *ctx.board.label_neighbours(h))) and not state.data.units_at(h))
    version = state.data._version
    state.data.move_unit(uid, far)
    state.data._version = version  # a change the memo cannot see: only the hook drops the old answer
    stale = zoc.zoc_answer(ctx, hex_, "german")["exerted_by"]
    assert uid in stale  # the memo still holds the answer: what the hook must drop
    zoc.casebook_after_action(ctx=ctx, action=None, result=None)
    answer = zoc.zoc_answer(ctx, hex_, "german")
    assert uid not in answer["exerted_by"]
    if collecting:
        assert ctx.record("test-again") is not None
