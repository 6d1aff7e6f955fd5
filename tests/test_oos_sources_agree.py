"""The account's out-of-supply line and the batch timeline's OOS counts agree over a whole game
(session 19's final read: two sources — the account follows the trace's ``oos-marking`` events and
the units leaving the map, :mod:`casebook.tools.account_oos`; the timeline reads the state's ``oos``
flags, :mod:`casebook.tools.batch_timeline` — that a test checked on one turn only). The game is
the Blitz golden (greedy bots, seed 1) replayed action by action, the timeline fed as ``casebook
batch`` feeds it; at every turn's end both name exactly the units the state flags ``oos`` (5.5A)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.core.actions import parse_action
from casebook.core.game import Game
from casebook.tools.account import Narrator, narrate_all
from casebook.tools.batch_timeline import Timeline
from casebook.tools.cmd_replay import read_whole
from casebook.tools.saves import initial_state

BLITZ1 = Path("games/moscow41/golden/october-blitz-greedy-seed1.jsonl")


def _flags(state) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in state.data.units:
        if u.get("oos"):
            out.setdefault(str(u["side"]), []).append(str(u["id"]))
    return {side: sorted(ids) for side, ids in out.items()}


def _account_oos(lines: list[str]) -> dict[int, dict[str, list[str]]]:
    """turn -> side -> the ids its summary's out-of-supply line names."""
    out: dict[int, dict[str, list[str]]] = {}
    turn = None
    for line in lines:
        if line.startswith("--- Turn ") and line.endswith(" summary"):
            turn = int(line.split()[2])
        elif line.startswith("    out of supply: ") and turn is not None:
            said = {}
            for part in line.removeprefix("    out of supply: ").split("; "):
                side, rest = part.split(" ", 1)
                said[side] = [] if rest == "none" else sorted(rest.split(" ", 1)[1].strip("()").split(", "))
            out[turn] = {side: ids for side, ids in said.items() if ids}
    return out


@pytest.mark.case("5.5A")
def test_5_5A_the_account_and_the_timeline_name_the_same_oos_units_at_every_turns_end():
    recorded = list(read_whole(BLITZ1))
    game = Game.load("moscow41", "october-blitz")
    state = initial_state(game, recorded[0])
    timeline, flags = Timeline(state), {}
    for event in recorded:
        if event.kind == "action":
            turn = state.data.turn
            state.apply(parse_action(event.data["action"]))
            timeline.after(state)
            if state.data.turn != turn:
                flags[turn] = _flags(state)
    timeline.close(state)
    flags.setdefault(state.data.turn, _flags(state))
    assert list(state.trace) == recorded  # the replay is the game
    said = _account_oos(narrate_all(recorded, Narrator.for_engine(game.engine)))
    snaps = {snap["turn"]: snap["oos"] for snap in timeline.data()["turns"]}
    assert sorted(said) == sorted(snaps) == sorted(flags) and len(flags) >= 3
    assert any(flags.values())  # units were out of supply (the check is not empty)
    for turn, flagged in flags.items():
        assert said[turn] == flagged, turn
        assert {side: n for side, n in snaps[turn].items() if n} == {side: len(ids) for side, ids in flagged.items()}
