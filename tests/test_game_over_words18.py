"""The end of a game as a fresh user met it (session 18): ``play --load`` of a finished October
Blitz says, beside the game-over line, the lines of the scenario file that decided it — the
``otherwise`` entry (18.1.3C) and the German conditions judged and not met (18.1.3A-B) — as
``casebook explain`` prints them, and the reason says how far the Germans fell short (the towns
held of those needed: games/moscow41/tests/test_scenarios.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from casebook.core.game import Game
from casebook.core.trace import Event
from casebook.tools.account import Narrator
from casebook.tools.play_output import game_over_lines

REASON = ("the german conditions were not fulfilled: german held 0 of the 3 towns needed (not held: Kalinin 3733, "
          "Volokolamsk 2733, Mozhaisk 2032, Maloyaroslavets 1435, Kaluga 0833) (18.1.3A); no german combat unit "
          "entered a Moscow hex (2242, 2342, 2343, 2344, 2442) (18.1.3B)")


@pytest.mark.case("18.1.3C")
def test_18_1_3C_load_of_a_finished_blitz_names_the_lines_that_decided_it():
    game = Game.load("moscow41", "october-blitz")
    result = {"winner": "soviet", "level": "victory", "reason": REASON, "cases": ["18.1.3C"], "condition": "otherwise",
              "lines": [{"source": "scenarios/october-blitz.yaml:18", "cases": ["18.1.3C"]},
                        {"source": "scenarios/october-blitz.yaml:15", "cases": ["18.1.3A"]},
                        {"source": "scenarios/october-blitz.yaml:16", "cases": ["18.1.3B"]}]}
    over = Event(seq=3036, turn=4, phase="end", step="advance_turn", side=None, kind="game-over", cases=("18.1.3C",),
                 source="driver", data=result)
    state = SimpleNamespace(trace=[over], game=game, result=lambda: result)
    lines = game_over_lines(state, "final.yaml", Narrator.for_engine(game.engine))
    assert lines[2] == f"*** #3036 Game over: soviet wins (victory) — {REASON}  [18.1.3C]"
    assert lines[3] == "  the lines that decided it:"
    assert lines[4] == ('    scenarios/october-blitz.yaml:18 (18.1.3C)  - {id: "otherwise", case: "18.1.3C", kind: '
                        '"otherwise", when: "end"}')
    assert lines[5].startswith('    scenarios/october-blitz.yaml:15 (18.1.3A)  - {id: "three-towns", case: "18.1.3A", '
                               'kind: "control_count"')
    assert lines[6].startswith('    scenarios/october-blitz.yaml:16 (18.1.3B)  - {id: "enter-moscow"')
    assert lines[7] == f"Result: soviet — victory ({REASON})" and len(lines) == 8
