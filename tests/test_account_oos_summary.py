"""The turn summary names the units out of supply, per side, every one of them (a fresh user's check,
session 19: the account's OOS list stopped after 8 names "(13 in all)" and the turn summary had no OOS
line, so an encirclement could not be seen without asking unit by unit). The line follows the supply
marking (5.5A–5.5D: ``oos-marking``'s marked / restored / eliminated) and the eliminations; at the end
of a turn it names exactly the units the state flags ``oos``."""

from __future__ import annotations

import pytest

from casebook.core.trace import Event
from casebook.tools.account import Narrator, narrate_all
from casebook.tools.account_oos import OosTally


def _event(kind: str, side: str, data: dict, turn: int = 1) -> Event:
    return Event(seq=1, turn=turn, phase="p", step="s", side=side, kind=kind, cases=("5.5A",), source="t", data=data)


@pytest.mark.case("5.5A")
def test_5_5A_the_summary_lists_every_unit_out_of_supply_and_follows_restores_and_eliminations():
    marked = [f"g-{i}" for i in range(13)]
    events = [_event("oos-marking", "german", {"marked": marked, "restored": [], "eliminated": []}),
              _event("oos-marking", "soviet", {"marked": ["s-1", "s-2"], "restored": [], "eliminated": []}),
              _event("oos-marking", "german", {"marked": [], "restored": ["g-0"], "eliminated": ["g-1"]}),
              _event("eliminated", "soviet", {"unit": "s-2"})]
    lines = narrate_all(events, Narrator())
    assert lines[-1] == f"    out of supply: german 11 ({', '.join(marked[2:])}); soviet 1 (s-1)"  # no "… (13 in all)"


def test_5_5A_an_undone_marking_is_taken_back():
    tally = OosTally()
    event = _event("oos-marking", "german", {"marked": ["g-1", "g-2"], "restored": [], "eliminated": []})
    restore = _event("oos-marking", "german", {"marked": [], "restored": ["g-1"], "eliminated": []})
    tally.see(event)
    tally.see(restore)
    assert tally.lines() == ["    out of supply: german 1 (g-2)"]
    tally.see(restore, undo=True)  # play's undo takes the last decision's events back
    assert tally.units == {"german": ["g-1", "g-2"]}  # as they were, in the order marked
    tally.see(event, undo=True)
    assert tally.lines() == ["    out of supply: german none"]


@pytest.mark.case("5.5A")
def test_5_5A_at_the_end_of_a_blitz_turn_the_line_names_the_units_the_state_flags_oos(tmp_path):
    from casebook.core.game import Game
    from casebook.tools.web.session import Session

    game = Game.load("moscow41", "october-blitz")
    session = Session(game.new_initial_state(1), {"german": "bot:greedy", "soviet": "bot:greedy"}, roots=[tmp_path])
    while not any(e.turn == 2 for e in session.state.trace):
        assert session.bot(1)
    turn1 = [e for e in session.state.trace if e.turn == 1]
    assert not any(e.kind == "oos-marking" for e in session.state.trace if e.turn == 2)  # the state is turn 1's end
    lines = Narrator.for_engine(game.engine).lines(turn1 + [e for e in session.state.trace if e.turn == 2][:1])
    [line] = [ln for ln in lines if ln.startswith("    out of supply: ")]
    flagged = {side: sorted(u["id"] for u in session.state.data.units if u.get("oos") and u["side"] == side)
               for side in ("german", "soviet")}
    assert flagged["german"] and flagged["soviet"]
    said = dict(part.split(" ", 1) for part in line.removeprefix("    out of supply: ").split("; "))
    for side, units in flagged.items():
        count, names = said[side].split(" ", 1)
        assert int(count) == len(units) and sorted(names.strip("()").split(", ")) == units


def _results(effects: list, seq: int = 2) -> Event:
    combat = {"hex": "0101", "attackers": ["s-9"], "defenders": ["g-1", "g-2"], "attacker_side": "soviet",
              "defender_side": "german", "kind": "attack", "result": "-/2"}
    return Event(seq=seq, turn=1, phase="p", step="combat", side="soviet", kind="combat-results", cases=("10.0F",),
                 source="t", data={"combat": combat, "effects": effects})


@pytest.mark.case("5.5A")
def test_5_5A_an_undone_elimination_puts_the_unit_back_on_the_list():
    """Session 19's final read: after ``undo`` of an attack that eliminated an OOS unit, the unit
    stayed off the list."""
    tally = OosTally()
    marking = _event("oos-marking", "german", {"marked": ["g-1", "g-2"], "restored": [], "eliminated": []})
    killed = _results([{"unit": "g-1", "effect": "eliminated", "cases": ["11.3A"]}])
    tally.see(marking)
    tally.see(killed)
    assert tally.units == {"german": ["g-2"]}
    tally.see(killed, undo=True)
    assert tally.units == {"german": ["g-1", "g-2"]}


@pytest.mark.case("5.5A")
def test_5_5A_the_narrators_forget_restores_the_list_an_undone_decision_changed():
    narrator = Narrator()
    marking = _event("oos-marking", "german", {"marked": ["g-1", "g-2"], "restored": [], "eliminated": []})
    action = Event(seq=2, turn=1, phase="p", step="combat", side="soviet", kind="action",
                   data={"action": "soviet: attack hex=0101 with=s-9"})
    killed = _results([{"unit": "g-2", "effect": "eliminated", "cases": ["11.3A"]}], seq=3)
    narrator.lines([marking, action, killed])
    assert narrator.oos.units == {"german": ["g-1"]}
    narrator.forget([action, killed])  # play's undo: the decision and what it did (forward order)
    assert narrator.oos.units == {"german": ["g-1", "g-2"]}


@pytest.mark.case("11.3D")
def test_11_3D_a_remnant_takes_the_place_of_the_oos_unit_it_replaced_and_breakdown_regiments_too():
    """A replacement counter carries the unit's ``oos`` flag (areas/_results_losses ``_CARRIED``), so do
    the pieces of a breakdown (areas/breakdown: D's status flags)."""
    tally = OosTally()
    tally.see(_event("oos-marking", "german", {"marked": ["g-1", "g-2", "g-3"], "restored": [], "eliminated": []}))
    tally.see(_results([{"unit": "g-1", "effect": "loss", "loss": {"effect": "remnant", "remnant": "g-rem-1",
                                                                   "cases": ["11.3D"]}, "cases": ["11.1C"]}]))
    assert tally.units == {"german": ["g-rem-1", "g-2", "g-3"]}
    tally.see(_event("breakdown", "german", {"division": "g-2", "regiments": ["g-p1", "g-p2"], "losses": 1}))
    assert tally.units == {"german": ["g-rem-1", "g-p1", "g-p2", "g-3"]}
    tally.see(_event("recombine", "german", {"division": "g-2", "regiments": ["g-p1", "g-p2"], "losses": 1}))
    assert tally.units == {"german": ["g-rem-1", "g-2", "g-3"]}


@pytest.mark.case("5.5A")
def test_5_5A_a_position_that_starts_with_oos_units_names_them_before_any_marking():
    """Session 19: a position played without its trace showed no OOS unit until the next marking.
    Its play's trace begins with a ``setup`` event holding the position (tools/saves.start_trace)."""
    from casebook.content.position import position_to_dict
    from casebook.content.savecheck import load_save
    from casebook.content.yamlio import load_yaml
    from casebook.core.game import Game
    from casebook.tools.saves import start_trace

    path = "tests/positions/blitz-seed2-turn2-smolensk.yaml"
    flagged = {side: [u["id"] for u in load_yaml(path).data["units"] if u.get("oos") and u["side"] == side]
               for side in ("german", "soviet")}
    assert len(flagged["german"]) + len(flagged["soviet"]) == 27  # the file's `oos: true` units
    game = Game.load("moscow41", "october-blitz")
    trace, _ = start_trace(position_to_dict(load_save(path, game.engine)), "moscow41", "october-blitz")
    [setup] = list(trace)
    move = Event(seq=setup.seq + 1, turn=setup.turn, phase="first_player", step="movement", side="german",
                 kind="action", data={"action": "german: pass"})
    lines = narrate_all([setup, move], Narrator())
    told = ", ".join(flagged["german"])
    assert lines[-1] == (f"    out of supply: german {len(flagged['german'])} ({told}); "
                         f"soviet {len(flagged['soviet'])} ({', '.join(flagged['soviet'])})")
    started = Narrator.for_engine(game.engine, start=game.state_from_dict(position_to_dict(load_save(path, game.engine))))
    assert started.oos.units == {side: ids for side, ids in flagged.items() if ids}  # a new game's start state
