"""The table cells an answer cites follow the rules of its rule lines (issue #15, deliverable 3;
docs/rule-language.md, "Which lines an event names"): a chart cell read inside ``ctx.apart`` (a
board-wide search) is not collected by ``content.tablelines.reading_tables``; a cell read while a
``ctx.kept`` value was computed is kept beside the value and cited again each time it is read, so
a cold and a warm cache cite the same cells. The expected lines are read from the chart's YAML
and checked against the line numbers as written (games/moscow41/tables/tec.yaml)."""

from __future__ import annotations

from pathlib import Path

from casebook.content.tablelines import reading_tables
from casebook.script.ctx import Lasting
from tests._pack_edits import line_of
from tests.conftest import played_blitz

TEC = Path(__file__).resolve().parents[1] / "games" / "moscow41" / "tables" / "tec.yaml"
CLEAR = {"terrain": "clear", "unit": "infantry", "column": "dry"}   # written one cell a line
FOREST = {"terrain": "forest", "unit": "armor", "column": "dry"}    # a row of cells on one line


def _sources(pack, reads) -> list[str]:
    return [pack.table_lines.cell(t, **dict(c))["source"] for t, c, *_ in reads]


def _expected() -> tuple[str, str]:
    text = TEC.read_text(encoding="utf-8").splitlines()
    clear = line_of(TEC, '"clear":') + 2          # "clear": / "infantry": / "dry": {value: 1 …}
    forest = next(i for i, t in enumerate(text, 1) if i > line_of(TEC, '"forest":') and '"armor":' in t)
    assert text[clear - 1].strip().startswith('"dry": {value: 1') and "dry: 3" in text[forest - 1]
    assert (clear, forest) == (17, 31)              # the lines as written
    return f"tables/tec.yaml:{clear}", f"tables/tec.yaml:{forest}"


def test_a_cell_read_apart_is_not_collected():
    state = played_blitz(0)
    engine = state.game.engine
    ctx = engine.ctx(state.data)
    tec = ctx.table("tec")
    with engine.recording_lines(), reading_tables() as reads:
        tec.lookup(**CLEAR)
        with ctx.apart():                         # a board-wide search's read
            assert tec.lookup(**FOREST) == 3
        after = list(reads)
    assert _sources(engine.pack, after) == [_expected()[0]]


def test_a_kept_values_cells_are_cited_again_cold_or_warm():
    state = played_blitz(0)
    engine = state.game.engine
    ctx = engine.ctx(state.data)
    tec = ctx.table("tec")
    store, calls = Lasting(), []

    def compute() -> int:
        calls.append(1)
        return int(tec.lookup(**FOREST))

    answers = []
    for _ in range(2):                            # cold, then warm (the store outlives the answer)
        with engine.recording_lines(), reading_tables() as reads:
            assert ctx.kept(store, "k", compute) == 3
            answers.append(_sources(engine.pack, reads))
    assert len(calls) == 1                        # the second answer found the value
    assert answers == [[_expected()[1]], [_expected()[1]]]


def test_a_value_kept_apart_is_cited_where_it_is_read_outside():
    # the ZOC map's pattern: the value computed inside an apart block, read again by what uses it
    state = played_blitz(0)
    engine = state.game.engine
    ctx = engine.ctx(state.data)
    tec = ctx.table("tec")
    store = Lasting()
    with engine.recording_lines(), reading_tables() as reads:
        with ctx.apart():
            ctx.kept(store, "k", lambda: tec.lookup(**FOREST))
        assert reads == []                        # apart: not this answer's
        ctx.kept(store, "k", lambda: tec.lookup(**CLEAR))  # found: its cell cited, not computed again
        assert _sources(engine.pack, reads) == [_expected()[1]]


def test_a_value_kept_while_no_cell_was_collected_is_computed_again_to_cite_them():
    state = played_blitz(0)
    engine = state.game.engine
    play = engine.ctx(state.data, event_lines=True)  # an event's lines (weather's collector)
    tec = play.table("tec")
    store, calls = Lasting(), []

    def compute() -> int:
        calls.append(1)
        return int(tec.lookup(**FOREST))

    play.kept(store, "k", compute)                # no cell collector running: none kept
    with reading_tables() as reads:
        play.kept(store, "k", compute)
        play.kept(store, "k", compute)
    assert len(calls) == 2
    assert _sources(engine.pack, reads) == [_expected()[1]] * 2
