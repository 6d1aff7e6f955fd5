"""A combat's results are told where they happen (trial19b, session 19: the account printed a
retreat's effects two lines later, under the attacker's ``combat-results`` line after its advance).
The trace records every effect in one ``combat-results`` event after the last decision (the shared
results procedure's stages); the account (:mod:`casebook.tools.account_effects`) tells the
defender's fatigue (11.1C) under the combat, the retreat (11.2A-B) under the defender's ``retreat``
decision and the advance (11.4) on the ``combat-results`` line after the attacker's ``advance``.
The real trace is the Blitz golden (seed 1, greedy bots), whose first retreats are asked
(retreat19: a lone retreat path is a decision)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.core.trace import Event
from casebook.tools.account import Narrator, narrate_all
from casebook.tools.cmd_replay import read_whole

BLITZ1 = Path("games/moscow41/golden/october-blitz-greedy-seed1.jsonl")


def _retreats(events: list[Event]) -> list[tuple[Event, Event, Event]]:
    """(retreat decision, the advance decision right after it, their combat-results) of the trace."""
    out = []
    for i, e in enumerate(events[:-2]):
        adv, res = events[i + 1], events[i + 2]
        if (e.kind == "action" and " retreat " in e.data["action"] and "path=" in e.data["action"]
                and adv.kind == "action" and " advance path=" in adv.data["action"] and res.kind == "combat-results"):
            out.append((e, adv, res))
    return out


def _line_index(lines: list[str], seq: int) -> int:
    return next(i for i, ln in enumerate(lines) if ln.startswith(f"  #{seq:<5} "))


def _check(lines: list[str], retreat: Event, advance: Event, results: Event) -> None:
    path = retreat.data["action"].split("path=")[1].split()[0].split(",")
    [moved] = [e for e in results.data["effects"] if e["effect"] == "retreat"]
    assert moved["path"] == path
    i = _line_index(lines, retreat.seq)
    assert lines[i + 1] == (f"          effects (#{results.seq}): retreat (units {', '.join(moved['units'])}; "
                            f"path {', '.join(path)})  [{', '.join(moved['cases'])}]")
    assert lines[i + 2].startswith(f"  #{advance.seq:<5} ")
    assert lines[i + 3].startswith(f"  #{results.seq:<5} {results.side}: combat-results: effects: advance (units ")
    assert "retreat" not in lines[i + 3]  # told once, under the retreat


@pytest.mark.case("11.2A")
def test_11_2A_a_retreats_effects_are_told_under_the_retreat_decision():
    events = list(read_whole(BLITZ1))
    found = _retreats(events)
    assert len(found) >= 3
    lines = narrate_all(events, Narrator())
    for retreat, advance, results in found:
        _check(lines, retreat, advance, results)


@pytest.mark.case("11.1C")
def test_11_1C_the_defenders_fatigue_is_told_under_the_combat_before_the_retreat():
    events = list(read_whole(BLITZ1))
    lines = narrate_all(events, Narrator())
    retreat, _, results = next(r for r in _retreats(events)
                               if any(e["effect"] == "fatigued" for e in r[2].data["effects"]))
    fatigued = [e for e in results.data["effects"] if e["effect"] == "fatigued"]
    i = _line_index(lines, retreat.seq)
    assert lines[i - 1] == (f"          effects (#{results.seq}): "
                            + " · ".join(f"unit {e['unit']}: fatigued" for e in fatigued) + "  [11.1C]")


@pytest.mark.case("11.2A")
def test_11_2A_a_running_account_tells_the_retreat_before_the_advance_it_could_not_foresee():
    """Play narrates after each decision: when the retreat is printed its effects are not yet in the
    trace; they come with the advance's batch and are told first, right under the retreat."""
    events = list(read_whole(BLITZ1))
    narrator, lines, batch = Narrator(), [], []
    for e in events:
        if e.kind == "action" and batch:
            lines += narrator.lines(batch)
            batch = []
        batch.append(e)
    lines += narrator.lines(batch) + narrator.summary()
    retreat, advance, results = _retreats(events)[0]
    i = _line_index(lines, retreat.seq)
    told = lines[i + 1]
    assert told.startswith(f"          effects (#{results.seq}): ") and "retreat (units " in told
    assert lines[i + 2].startswith(f"  #{advance.seq:<5} ") and "retreat" not in lines[i + 3]
    whole = narrate_all(events, Narrator())
    assert [ln for ln in lines if not ln.startswith("          effects (#")] == \
        [ln for ln in whole if not ln.startswith("          effects (#")]  # the rest is the same account


def test_a_combat_without_decisions_keeps_its_effects_on_its_results_line():
    combat = {"hex": "1214", "attackers": ["g-1"], "defenders": ["s-1"], "attacker_side": "german",
              "defender_side": "soviet", "kind": "attack", "result": "-/FR"}

    def ev(seq: int, kind: str, side: str, data: dict) -> Event:
        return Event(seq=seq, turn=1, phase="p", step="combat", side=side, kind=kind, data=data)

    effects = [{"unit": "s-1", "effect": "fatigued", "cases": ["11.1C"]},
               {"effect": "retreat", "units": ["s-1"], "path": ["1115"], "cases": ["11.2A"]}]
    lines = Narrator().lines([ev(1, "combat", "german", {**combat, "column": "2:1", "roll": 7}),
                              ev(2, "combat-results", "german", {"combat": combat, "effects": effects})])
    assert lines[-1] == ("  #2     german: combat-results: effects: unit s-1: fatigued · retreat (units s-1; "
                         "path 1115)")
