"""Answers and events name the lines behind their numbers (issue #15 deliverable 3, helper
"lines2"): an overrun's MP cost (9.2A, 9.5A), a retreat's length (11.0B), a reinforcement's turn
(12.0B); and a move naming a unit twice is refused by the rules (9.1C, 6.2B), state unchanged.

Lines are found by reading games/moscow41/rules/*.rules, not by number; the numbers are the
rulebook's (the TEC's forest cell for armor, 9.5A's +1, 11.0B's retreat lengths) or the tables'."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.tools.cmd_ask import ask_position

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "games" / "moscow41" / "rules"
EXAMPLES = ROOT / "docs" / "examples"


def rule_line(name: str, text: str, after: str | None = None) -> str:
    """``name:N`` of the first line of rules/``name`` that starts with ``text`` (indent aside),
    after the line starting with ``after`` when given."""
    lines = (RULES / name).read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(after)) if after else 0
    return f"{name}:{next(i for i in range(start, len(lines)) if lines[i].strip().startswith(text)) + 1}"


def sources(lines) -> list[str]:
    return [ln["source"] for ln in lines or ()]


TEC_LINE = ("movement.rules", "lookup tec(", "quantity move_cost")
OVERRUN_TERM = ("movement.rules", "overrun_mp by 9.5A", "quantity move_cost")
OVERRUN_MP = ("movement.rules", "otherwise", "quantity overrun_mp")


def _tec(terrain: str, row: str, column: str) -> int:
    return int(yaml.safe_load((ROOT / "games/moscow41/tables/tec.yaml").read_text())["cells"][terrain][row][column])


@pytest.mark.case("9.5A")
def test_9_5A_ask_overrun_names_the_tec_line_behind_its_mp_cost():
    """9.5A: an overrun costs the terrain cost of the defender's hex +1 MP — armor into forest in
    dry weather: the TEC's cell (3) + 1. The answer names the TEC lookup line and overrun_mp's."""
    answer = ask_position(str(EXAMPLES / "overrun.yaml"), "overrun", ["r1", "0404"], {})
    assert answer["mp_cost"] == _tec("forest", "armor", "dry") + 1 == 4
    named = sources(answer["lines"])
    for where in (TEC_LINE, OVERRUN_TERM, OVERRUN_MP):
        assert rule_line(where[0], where[1], where[2]) in named, (where, named)


@pytest.fixture(scope="module")
def blitz_events():
    """The Blitz (greedy, seed 1) played to its first overrun: every event of the trace."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    for _ in range(600):
        state.apply(bots[state.current_player()].choose(state))
        if any(e.kind == "overrun" for e in state.trace):
            return list(state.trace)
    raise AssertionError("no overrun in 600 actions")


@pytest.mark.case("9.5A")
def test_9_5A_an_overrun_event_names_the_lines_of_its_mp_cost(blitz_events):
    """The overrun event's ``mp`` is the cost paid before the combat (TEC + overrun_mp): once the
    results are chosen and it is recorded, it names the TEC lookup and overrun_mp lines."""
    event = next(e for e in blitz_events if e.kind == "overrun")
    assert event.data["mp"] >= 1 + 1  # the cheapest TEC cell (1) + 9.5A's +1
    named = sources(event.data["lines"])
    for where in (TEC_LINE, OVERRUN_TERM, OVERRUN_MP):
        assert rule_line(where[0], where[1], where[2]) in named, (where, named)


@pytest.mark.case("11.0B")
def test_11_0B_a_combat_result_with_a_retreat_names_the_retreat_hexes_lines(blitz_events):
    """11.0B: "R" retreats one hex, a number n hexes. Each result event with a retreat names the
    ``retreat_hexes`` lines that made its length: the number's start, and +1 for an R; the
    retreat path is that long (the defender survived in the Blitz's first results)."""
    start = rule_line("combat.rules", "start result_number", "quantity retreat_hexes")
    plus_r = rule_line("combat.rules", "+1 by 11.0B  when result_retreat", "quantity retreat_hexes")
    seen = 0
    for event in (e for e in blitz_events if e.kind == "combat-results"):
        defender = event.data["combat"]["result"].split("/")[1]
        retreats = [f for f in event.data["effects"] if f["effect"] == "retreat"]
        if not retreats or defender in ("-", "F"):
            continue
        number = int("".join(ch for ch in defender if ch.isdigit()) or 0)
        named = sources(event.data["lines"])
        assert start in named, (event.seq, named)
        assert (plus_r in named) == ("R" in defender), (event.seq, named)
        assert len(retreats[0]["path"]) <= number + ("R" in defender)
        seen += 1
    assert seen >= 2


@pytest.mark.case("12.0B")
def test_12_0B_ask_reinforcements_names_the_reinforcement_turn_line():
    """12.0B: the German 296th Infantry Division is listed for Turn 10 (tables/reinforcements.yaml):
    on Turn 10 it is available, due Turn 10, and the answer names the reinforcement_turn line."""
    rows = yaml.safe_load((ROOT / "games/moscow41/tables/reinforcements.yaml").read_text())["rows"]
    listed = next(r["turn"] for r in rows if r["unit"] == "g-296id")
    answer = ask_position(str(EXAMPLES / "reinforcements-turn10.yaml"), "reinforcements", ["german"], {})
    [entry] = [e for e in answer["available"] if e["unit"] == "g-296id"]
    assert entry["due"] == listed == 10 and "12.0B" in entry["cases"]
    assert rule_line("reinforcement.rules", "otherwise schedule_turn  by 12.0B") in sources(answer["lines"])


@pytest.mark.case("9.1C")
def test_9_1C_6_2B_a_move_naming_a_unit_twice_is_refused_by_the_rules_state_unchanged():
    """A stack moves each of its units once (9.1C) and each counts once for stacking (6.2B): a
    move naming a unit twice, given to the engine directly (not typed), is refused with those
    cases, the state unchanged; the move as listed stays legal."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    while not any(a.kind == "move" for a in state.legal_actions()):
        state.apply(bots[state.current_player()].choose(state))
    move = next(a for a in state.legal_actions() if a.kind == "move")
    unit = state.data.units_at(move.get("stack"))[0]["id"]
    args = dict(move.args)
    twice = Action.make("move", move.side, **{**args, "units": [unit, unit]})
    before, events = state.to_dict(), len(state.trace)
    cases, reason = state.why_not(twice)
    assert {"9.1C", "6.2B"} <= set(cases) and f"{unit} named more than once" in reason
    with pytest.raises(IllegalActionError):
        state.apply(twice)
    assert state.to_dict() == before and len(state.trace) == events
    assert state.why_not(move)[1] == "legal"  # the move as listed, each unit once
