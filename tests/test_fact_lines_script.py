"""The machinery of fact lines (issue #15 deliverable 3; src/casebook/script/factlines.py): a fact
computed by rule lines carries them (``FactLines``, an ``AskedFacts`` question asked through
``lines_of``), a deciding line that reads it lends them to the refusal (marked ``via`` that line
in the recording, kept by ``kept_lines`` whatever they cite), the fast verdict (``Ctx.allowed``)
and the explained one (``Ctx.permission``) note the same lines, and a nested
``recording_lines`` returns the lines of its block. Lines are Moscow '41's shipped rules:
``supply.rules:7`` (``otherwise 8 by 5.2B, 5.2C``), ``fortification.rules:10`` (``forbid
build_fort by 14.1C when not hex_supplied``)."""

from __future__ import annotations

import pytest

from casebook.content.position import load_position
from casebook.script.engine import state_from_position
from casebook.script.factlines import FactLines, kept_lines
from casebook.script.facts import AskedFacts

POSITION = """kind: position
format: 1
game: moscow41
map: {layout: flat-top-even-q, size: {columns: 6, rows: 6}, terrain: {default: clear}}
turn: 5
phase: first_initiative
step: replacement_reinforcement
phasing: soviet
weather: {temperature: warm, ground: dry}
units:
  - {counter: s-133rd, hex: '0303'}
"""
#: The facts of ``build_fort`` (14.1C-E, 14.1G) for a hex a Soviet unit stands in, not supplied.
FACTS = {"side": "soviet", "hex_city": False, "hex_town": False, "hex_road": False, "moscow_distance": 999,
         "hex_supplied": False, "in_german_zoc": False, "combat_unit_present": True, "already_fortified": False}
SUPPLY_LINE = {"source": "supply.rules:7", "cases": ["5.2B", "5.2C"], "text": "otherwise 8  by 5.2B, 5.2C"}


@pytest.fixture
def ctx(m41):
    return m41.ctx(state_from_position(load_position(POSITION, pack=m41.pack)))


def test_the_rules_know_which_facts_each_line_reads(m41):
    assert m41.rules.line_reads["fortification.rules:10"] == frozenset({"hex_supplied"})
    assert m41.rules.line_reads["fortification.rules:12"] == frozenset({"in_german_zoc"})
    # a field of a collection's records is read as `collection.field` (5.7D's -2: the attackers' supply)
    assert m41.rules.line_reads["combat.rules:25"] == frozenset({"attackers", "attackers.supplied"})


def test_a_nested_recording_returns_the_lines_of_its_block(ctx):
    engine = ctx.engine
    with engine.recording_lines() as outer:
        ctx.allowed("build_fort", {**FACTS, "hex_supplied": True, "in_german_zoc": True})   # 14.1E
        with engine.recording_lines() as inner:
            assert ctx.value("supply_path_mp", {}) == 8
    assert [ln["source"] for ln in inner] == ["supply.rules:7"]
    assert [ln["source"] for ln in outer] == ["fortification.rules:12", "supply.rules:7"]


@pytest.mark.case("14.1C")
@pytest.mark.parametrize("fast", [True, False], ids=["allowed", "permission"])
def test_14_1C_a_refusal_borrows_the_lines_of_the_fact_its_line_read(ctx, fast):
    """Only the lines of the fact the deciding line reads are lent (not those of
    ``in_german_zoc``, which no deciding line read); the fast and explained verdicts alike."""
    zoc_line = {"source": "zoc.rules:20", "cases": ["7.1A"], "text": "permit exert_zoc …"}
    facts = FactLines(FACTS, {"hex_supplied": (SUPPLY_LINE,), "in_german_zoc": (zoc_line,)})
    with ctx.engine.recording_lines() as lines:
        verdict = ctx.allowed("build_fort", facts) if fast else ctx.permission("build_fort", facts).value
    assert verdict is False
    assert [(ln["source"], ln.get("via")) for ln in lines] == [("fortification.rules:10", None),
                                                              ("supply.rules:7", "fortification.rules:10")]
    assert kept_lines(lines, ["14.1C"]) == [
        {"source": "fortification.rules:10", "cases": ["14.1C"], "text": "forbid build_fort  by 14.1C  when not hex_supplied"},
        SUPPLY_LINE]


@pytest.mark.case("14.1C")
@pytest.mark.parametrize("fast", [True, False], ids=["allowed", "permission"])
def test_14_1C_an_asked_fact_lends_the_lines_that_answered_it(ctx, fast):
    """An ``AskedFacts`` question is asked through ``lines_of`` while a recording runs: the lines
    that fired answering it (here ``supply_path_mp``'s) are lent to the line that read it."""
    def unsupplied() -> bool:
        return ctx.value("supply_path_mp", {}) < 0
    facts = AskedFacts({k: v for k, v in FACTS.items() if k != "hex_supplied"}, {"hex_supplied": unsupplied})
    with ctx.engine.recording_lines() as lines:
        verdict = ctx.allowed("build_fort", facts) if fast else ctx.permission("build_fort", facts).value
    assert verdict is False
    assert facts.lines == {"hex_supplied": ({**SUPPLY_LINE},)}
    assert [ln["source"] for ln in kept_lines(lines, ["14.1C"])] == ["supply.rules:7", "fortification.rules:10"]


def test_nothing_is_lent_on_the_fast_path(ctx):
    """No recording, no event: the verdict alone (an ``AskedFacts`` asked plainly)."""
    facts = AskedFacts({k: v for k, v in FACTS.items() if k != "hex_supplied"},
                       {"hex_supplied": lambda: ctx.value("supply_path_mp", {}) < 0})
    assert ctx.allowed("build_fort", facts) is False and facts.lines == {} and facts.collect is None


def test_kept_lines_follows_via_at_any_depth_and_drops_the_mark():
    lines = [{"source": "a.rules:1", "cases": ["9.9"], "via": "b.rules:2"},
             {"source": "b.rules:2", "cases": ["8.8"], "via": "c.rules:3"},
             {"source": "c.rules:3", "cases": ["1.1"]},
             {"source": "d.rules:4", "cases": ["7.7"]}]
    assert kept_lines(lines, ["1.1"]) == [{"source": "a.rules:1", "cases": ["9.9"]},
                                          {"source": "b.rules:2", "cases": ["8.8"]},
                                          {"source": "c.rules:3", "cases": ["1.1"]}]


@pytest.mark.case("14.1C")
def test_14_1C_borrow_and_lend_note_copies_marked_via_the_first_borrower_or_the_last_lender(ctx):
    """``borrow`` and ``lend`` note a fact's entries by one helper: a copy each in the recording and
    the next event (an entry noted already — shared, as a kept entry is by every read — is never
    marked in place), the mark a borrower set kept, a lender's set anew."""
    from casebook.script.factlines import lend

    shared = dict(SUPPLY_LINE)
    facts = FactLines(FACTS, {"hex_supplied": (shared,)})
    ctx.event_lines = {}
    with ctx.engine.recording_lines() as lines:
        ctx.engine._recording[0]["supply.rules:7"] = shared    # noted before, the very entry the fact holds
        ctx.event_lines["supply.rules:7"] = shared
        assert ctx.permission("build_fort", facts).value is False
        assert shared == SUPPLY_LINE                           # the fact's entry unmarked
        assert ctx.engine._recording[0]["supply.rules:7"]["via"] == ctx.event_lines["supply.rules:7"]["via"] \
            == "fortification.rules:10"
        ctx.permission("build_fort", FactLines(FACTS, {"hex_supplied": (shared,)}))
        lend(ctx, [shared], [{"source": "supply.rules:7"}, {"source": "movement.rules:9"}])
        assert shared == SUPPLY_LINE
        assert ctx.engine._recording[0]["supply.rules:7"]["via"] == ctx.event_lines["supply.rules:7"]["via"] \
            == "movement.rules:9"                               # the lender's mark replaces the borrower's
    assert [(ln["source"], ln.get("via")) for ln in lines] == [("supply.rules:7", "movement.rules:9"),
                                                              ("fortification.rules:10", None)]
