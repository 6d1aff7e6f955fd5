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
    assert tally.units == {"german": ["g-2", "g-1"]}
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
