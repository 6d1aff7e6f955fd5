"""The ZOC map's lines hex by hex (issue #15: an event names the lines that fired for it, and only
those): the zoc area's map keeps, for each hex, the lines that decided its ZOC — those of every
adjacent enemy unit (7.1A ``exert_zoc``: an HQ exerts none; 7.0A ``zoc_into_hex``) and of a
source in the hex (16.3A ``marker_zoc``: a Partisan marker's hex) — and an event names those of
the hexes it reads, whatever the caches held before.

- a German event reading a Partisan marker's hex names the ``permit marker_zoc`` line (16.3A), the
  same lines whether the ZOC sources and map were cold or first filled by a bot-like query that
  collects no lines (before: the line came only when the event filled the source memo itself);
- a Soviet event reading a hex the Partisan marker does not touch never names ``forbid
  marker_zoc`` (16.3A's default), cold or warm;
- 7.1A: a hex beside a Soviet HQ names the ``forbid exert_zoc`` line of HQs; a hex beside no HQ
  does not (before: every reader of the board-wide map named it).
"""

from __future__ import annotations

import pytest

from casebook.core.trace import Trace
from tests.conftest import played_blitz
from tests.test_event_lines_supply_command import rule_line


@pytest.fixture(scope="module")
def position():
    return played_blitz(0)


def _board(state):
    return state.game.engine.ctx(state.data).board


def _quiet_hex(state) -> str:
    """An empty hex with no unit of either side beside it (a Partisan marker goes there)."""
    board, taken = _board(state), {u["hex"] for u in state.data.units if u.get("hex")}
    near = {n for h in taken for n in board.label_neighbours(h)}
    for label in sorted({m for n in near for m in board.label_neighbours(n)} - near - taken):
        if label not in taken and not taken.intersection(board.label_neighbours(label)):
            return label
    raise AssertionError("no quiet hex")


def _read(state, side: str, hex_: str, warm: bool) -> list[str]:
    """The lines of one event that reads the ZOC against ``side`` in ``hex_``; ``warm``: a bot-like
    context (collecting nothing) read the ZOC sources and maps of both sides first."""
    from casebook.areas._zoc_map import exerted_by, zoc_map, zoc_sources

    state = state.clone()
    engine = state.game.engine
    engine._lasting.clear()
    engine._memos.clear()
    engine._recent[:] = [None, None]
    if warm:
        bot = engine.ctx(state.data)
        for s in ("german", "soviet"):
            zoc_sources(bot, s)
            zoc_map(bot, s)
    ctx = engine.ctx(state.data, Trace(), event_lines=True)
    exerted_by(ctx, hex_, side)
    event = ctx.record("test-read")
    assert event is not None
    return [ln["source"] for ln in event.data.get("lines", ())]


@pytest.mark.case("16.3A")
def test_16_3A_a_partisan_hexs_lines_are_the_same_with_the_zoc_caches_cold_and_warm(position):
    state = position.clone()
    hex_ = _quiet_hex(state)
    state.data.add_marker("partisan", hex_)
    permit, forbid = rule_line("zoc.rules", "permit marker_zoc"), rule_line("zoc.rules", "forbid marker_zoc")
    cold, warm = _read(state, "german", hex_, False), _read(state, "german", hex_, True)
    assert permit in cold and forbid not in cold
    assert warm == cold
    far = next(h for h in sorted({u["hex"] for u in state.data.units if u.get("side") == "german"}))
    cold, warm = _read(state, "soviet", far, False), _read(state, "soviet", far, True)
    assert forbid not in cold and permit not in cold
    assert warm == cold


@pytest.mark.case("7.1A")
def test_7_1A_the_hq_forbid_line_is_named_for_a_hex_beside_an_hq_only(position):
    state = position.clone()
    board = _board(state)
    hq = next(u for u in state.data.units if u.get("side") == "soviet" and u.get("class") == "hq" and u.get("hex"))
    line = rule_line("weather.rules", "forbid exert_zoc by 7.1A")
    beside = board.label_neighbours(hq["hex"])[0]
    assert line in _read(state, "german", beside, False)
    soviet = {u["hex"] for u in state.data.units if u.get("side") == "soviet" and u.get("hex")}
    hqs = {u["hex"] for u in state.data.units if u.get("class") == "hq" and u.get("hex")}
    other = next(h for s in sorted(soviet - hqs) for h in board.label_neighbours(s)
                 if not hqs.intersection(board.label_neighbours(h)))
    lines = _read(state, "german", other, False)
    assert rule_line("zoc.rules", "permit exert_zoc ") in lines and line not in lines
