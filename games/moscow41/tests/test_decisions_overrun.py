"""An overrun's combat result leaves the players the choices of an ordinary combat's (#18): 9.5A
"A normal combat is resolved, except that the attacking unit cannot receive any combat
support" — so the attacker chooses who takes the F (11.0B) and its losses, the defender its
retreat or losses (11.0B, 11.2); then the overrunning stack "must advance into the hex" (9.5B)
and moves on, or stops (9.5D).

Played through ``State`` on a small position of the Moscow '41 engine with fixed dice
(layout flat-top-even-q: 0304 touches 0303, 0305, 0203, 0204, 0403, 0404). Two German armor
regiments (4 each) overrun a Soviet division (6) and brigade (2): 8 against 8, the 1:1 column,
+2 DRM for the attacking armor (10.4.1A).
"""

from __future__ import annotations

import pytest
import yaml

from casebook.core.errors import IllegalActionError
from games.moscow41.tests.test_decisions_attackers import game  # noqa: F401 (the game fixture)
from tests.conftest import m41_inline

ARM = "class: armor, size: regiment, strength: 4, ma: 8"
SINF = "class: infantry, size: division, strength: 6, ma: 4"
BRIG = "class: infantry, size: brigade, strength: 2, ma: 4"


def overrun(game, faces):  # noqa: F811
    text = m41_inline(f"""  - {{id: a1, side: german, {ARM}, hex: "0303", activated: true}}
  - {{id: a2, side: german, {ARM}, hex: "0303", activated: true}}
  - {{id: s1, side: soviet, {SINF}, hex: "0304"}}
  - {{id: s2, side: soviet, {BRIG}, hex: "0304"}}
""", step="movement", ip="{german: 5, soviet: 0}")
    state = game.state_from_dict(yaml.safe_load(text))
    state.data.set_rng_fixed(list(faces))
    state.apply("german: overrun stack=0303 hex=0304")
    [combat] = [e for e in state.trace if e.kind == "combat"]
    return state, combat.data


def kinds(state):
    return [e.kind for e in state.trace]


@pytest.mark.case("9.5A", "9.5B", "11.0B", "11.2A")
def test_9_5A_an_overrun_result_is_chosen_as_a_normal_combats(game):  # noqa: F811
    state, combat = overrun(game, [3, 3])                      # 6 + 2 = 8 on 1:1: F/R
    assert (combat["column"], combat["modified_roll"], combat["result"]) == ("1:1", 8, "F/R")
    assert combat["support"]["attacker"] == 0                   # 9.5A: no combat support for the attacker
    # 11.0B "F: One unit of the attacking force is fatigued": the attacker chooses which
    assert state.current_player() == "german" and "overrun" not in kinds(state)
    assert [str(a) for a in state.legal_actions()] == ["german: negate-fatigue negate=false"]
    assert [str(t) for t in state.action_templates()] == ["german: negate-fatigue negate=false unit=<ID, one of a1,a2>"]
    assert state.why_not("german: negate-fatigue negate=false unit=s1")[0] == ("11.0B",)
    with pytest.raises(IllegalActionError):                     # 10.0F: the result first, then the move
        state.apply("german: move stack=0303 path=0302")
    saved = state.to_dict()
    state.apply("german: negate-fatigue negate=false unit=a2")
    assert state.data.unit("a2").get("fatigued") and not state.data.unit("a1").get("fatigued")
    # 11.2A "R: The defending units must retreat 1 hex": the defender chooses where
    assert state.current_player() == "soviet"
    listed = [str(a) for a in state.legal_actions()]
    assert len(listed) == 3 and all(a.startswith("soviet: retreat losses=0 path=") for a in listed)
    assert state.why_not("soviet: retreat path=0303 losses=0")[0] == ("11.2B",)   # the attackers' hex
    state.apply("soviet: retreat path=0204 losses=0")
    assert state.data.unit("s1")["hex"] == state.data.unit("s2")["hex"] == "0204"
    # 9.5B: "the overrunning stack must advance into the hex ... can then continue its movement"
    [event] = [e for e in state.trace if e.kind == "overrun"]
    assert event.data["advanced"] is True and event.data["units"] == ["a1", "a2"]
    assert kinds(state)[-2:] == ["combat-results", "overrun"]
    assert state.data.unit("a1")["hex"] == state.data.unit("a2")["hex"] == "0304"
    assert state.current_player() == "german"
    assert any(a.kind == "move" and a.get("stack") == "0304" for a in state.legal_actions())
    # a save taken while the result waited resumes the same
    resumed = game.state_from_dict(saved)
    resumed.apply("german: negate-fatigue negate=false unit=a2")
    resumed.apply("soviet: retreat path=0204 losses=0")
    assert resumed.to_dict() == state.to_dict()


@pytest.mark.case("9.5D", "11.0B")
def test_9_5D_the_attacker_names_its_loss_and_the_stack_stops(game):  # noqa: F811
    state, combat = overrun(game, [1, 1])                      # 2 + 2 = 4 on 1:1: 1/F
    assert combat["result"] == "1/F"
    # 11.0B "#: The attacking force must suffer the listed number of combat losses"
    assert [str(a) for a in state.legal_actions()] == ["german: take-losses"]
    assert state.why_not("german: take-losses units=a1,a2")[0] == ("11.0B",)     # two names, one loss
    state.apply("german: take-losses units=a2")
    assert state.data.unit("a2")["losses"] == 1 and not state.data.unit("a1").get("losses")
    # the defenders stay (an F): "the overrunning unit must either stop its movement ... or ... make
    # another overrun attempt on the same hex" (9.5D)
    [event] = [e for e in state.trace if e.kind == "overrun"]
    assert event.data["advanced"] is False and event.cases == ("9.5A", "9.5D")
    assert state.data.unit("s1").get("fatigued") and state.data.unit("s2").get("fatigued")
    assert state.current_player() == "german"
    assert not any(a.kind == "move" and a.get("stack") == "0303" and a.get("units") is None
                   for a in state.legal_actions())
