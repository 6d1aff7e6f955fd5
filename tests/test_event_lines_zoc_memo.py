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
from tests.test_event_lines_memo import _two_events
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



@pytest.mark.case("7.0A", "7.1A")
def test_7_0A_two_events_of_one_version_reading_a_zoc_answer_both_name_its_lines(position):
    from casebook.areas.zoc import zoc_answer

    _, hex_ = _ezoc_hex(position)
    first, second = _two_events(position, lambda ctx: zoc_answer(ctx, hex_, "german"))
    assert _exert_lines() <= set(first)
    assert second == first  # before memo_kept: the second named nothing (the memo held the answer)


@pytest.mark.case("7.0A", "7.1A")
def test_7_0A_reading_the_whole_move_zoc_map_names_no_hexs_lines_and_the_hexes_read_name_theirs(position):
    from casebook.areas.terrain_costs import ezoc_map, zoc_lines

    # the whole map (a path search's) names no hex's lines: each event names those of the hexes it reads
    first, second = _two_events(position, lambda ctx: ezoc_map(ctx, "german"))
    assert not _exert_lines() & set(first)
    assert second == first
    _, hex_ = _ezoc_hex(position)
    first, second = _two_events(position, lambda ctx: (ezoc_map(ctx, "german"), zoc_lines(ctx, "german", (hex_,))))
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


_REMNANT_IN_EZOC = """kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {columns: 6, rows: 6}
  terrain: {default: clear}
weather: {temperature: warm, ground: dry}
phasing: german
units:
  - {id: r1, side: soviet, class: remnant, strength: 1, ma: 4, hex: "0403"}
  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0303"}
"""


@pytest.mark.case("11.3D", "7.4", "7.5A")
def test_11_3D_a_zoc_answer_for_a_remnant_names_the_line_that_it_is_no_combat_unit(tmp_path):
    """A Soviet remnant alone in a German ZOC (zoc-basics' map): the answer cites 11.3D, and the
    EZOC blocks supply, command and retreats there (7.4, 7.5A) because a remnant is no combat unit
    — zoc.rules' ``forbid counts_as_combat_unit by 11.3D`` decided it and the answer names it."""
    from casebook.tools.cmd_ask import ask_position

    path = tmp_path / "remnant.yaml"
    path.write_text(_REMNANT_IN_EZOC)
    answer = ask_position(str(path), "zoc", ["0403"], {"for": "r1"})
    assert answer["friendly_combat_unit"] is False and answer["blocks_supply"] and answer["blocks_retreat"]
    assert "11.3D" in answer["cases"]
    assert rule_line("zoc.rules", "forbid counts_as_combat_unit by 11.3D") in [ln["source"] for ln in answer["lines"]]


# ---- a listing of the whole side names no line: an event names the lines of what it is about ----

@pytest.fixture(scope="module")
def played_trace():
    """The Blitz (greedy, seed 1) after 60 actions, and its trace events."""
    import json

    state = played_blitz(60)
    return state, [json.loads(e) for e in state.trace.dumps().splitlines()]


def _sources(event) -> list[str]:
    return [ln["source"] for ln in (event.get("data") or {}).get("lines", ())]


@pytest.mark.case("2.2E", "2.1A")
def test_2_2E_an_hq_activation_names_the_motorized_line_only_when_it_takes_a_motorized_division(played_trace):
    """command.rules' ``permit hq_activate_unit by 2.2E`` (any German HQ activates the motorized
    divisions) fires for every mechanized unit of the side the activation's listing passed over:
    an ``activate-hq`` names it only when it takes a mechanized unit (before: whenever the
    listing met one, and airdrop supply's 15.4A line for units never dropped)."""
    state, events = played_trace
    motorized = rule_line("command.rules", "permit hq_activate_unit  by 2.2E")
    # a motorized division: mechanized, not a regiment of a panzer division (2.2C: those are not
    # the 2.2E line's: ``not panzer_division``)
    motor = {u["id"] for u in [*state.data.units, *state.data.removed]
             if u.get("class") == "mechanized" and not u.get("division")}
    activations = [e for e in events if e["kind"] == "activate-hq"]
    takes = [bool(motor.intersection(e["data"]["units"])) for e in activations]
    assert any(takes) and not all(takes)  # both kinds of activation are checked
    assert [motorized in _sources(e) for e in activations] == takes


@pytest.mark.case("15.4A")
def test_15_4A_no_event_names_the_airdrop_supply_turns_before_any_drop(played_trace):
    """paratroops.rules' ``airdrop_supply_turns`` (15.4A: a dropped paratroop is in supply the turn
    it lands) decides the supply of a dropped unit only: before any drop no event names it (before:
    every supply question read it, so every activation and move named it)."""
    state, events = played_trace
    assert not (state.data.plugin_data("paratroops") or {}).get("dropped")
    turns = rule_line("paratroops.rules", "otherwise 1  by 15.4A")
    assert any(e["kind"] == "move" for e in events)
    assert not [e["seq"] for e in events if turns in _sources(e)]


@pytest.mark.case("9.4A")
def test_9_4A_a_move_names_no_start_move_line_of_units_in_other_hexes():
    """A German stack of activated units asked for its movers in the Movement Step, while other
    German units are not activated (the ``forbid start_move by 9.4A`` line refuses them): the event
    names no start_move line — the whole side's listing names none, the stack's own units decided
    nothing against; the listing still finds the other units refused."""
    from casebook.core.actions import Action
    from casebook.core.game import Game
    from casebook.games.moscow41.plugins._movement_actions import movers
    from casebook.games.moscow41.plugins._movement_state import data, eligible_stacks
    from casebook.tools.bots import make_bot

    game = Game.load("moscow41", "october-blitz")
    state = game.new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    while not (state.data.step == "movement" and state.current_player() == "german"):
        state.apply(bots[state.current_player()].choose(state))
    ctx = game.engine.ctx(state.data, Trace(), event_lines=True)
    d = data(ctx)
    stacks = eligible_stacks(ctx, "movement", "german", d)
    listing = ctx.record("test-listing")
    assert listing is not None and "lines" not in listing.data
    german = [u for u in state.data.units if u.get("side") == "german" and u.get("hex")]
    idle = {u["id"] for u in german if not u.get("activated")}
    assert idle and not idle.intersection(i for ids in stacks.values() for i in ids)  # 9.4A refuses them
    hex_ = next(h for h, ids in stacks.items()
                if {u["id"] for u in state.data.units_at(h) if u.get("side") == "german"} == set(ids))
    assert movers(ctx, Action.make("move", "german", stack=hex_, path=[hex_]))
    event = ctx.record("test-movers")
    assert event is not None
    assert rule_line("movement.rules", "forbid start_move by 9.4A") not in _sources({"data": event.data})
