"""Which units join an attack is the attacker's choice (#18): ``attack hex=HEX with=<…>`` is a
template whose ``with`` is any group the rules allow, judged by the validators of play, and
``ask attack --with`` gives the same answer (10.3A, 10.1A-C, 10.5B, 6.2D).

Played through ``State`` on small positions of the Moscow '41 engine (layout flat-top-even-q:
0304 touches 0303, 0305, 0203, 0204, 0403, 0404).
"""

from __future__ import annotations

import pytest
import yaml

from casebook.areas import combat
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from tests.conftest import m41_inline

INF = "class: infantry, size: division, strength: 7, ma: 4"
SINF = "class: infantry, size: division, strength: 6, ma: 4"


@pytest.fixture(scope="module")
def game():
    return Game.load("moscow41", "october-blitz")


def unit(side: str, uid: str, hex_: str, kind: str, extra: str = "") -> str:
    return f'  - {{id: {uid}, side: {side}, {kind}, hex: "{hex_}"{", " + extra if extra else ""}}}\n'


def play(game, units: str, step: str = "combat", ip: str = "{german: 0, soviet: 0}"):
    text = m41_inline(units, step=step, ip=ip)
    return game.state_from_dict(yaml.safe_load(text))


def ask_cases(state, hex_, with_):
    answer = combat.attack_answer(state.ctx(), hex_, with_)
    return answer["legal"], tuple(dict.fromkeys(c for r in answer["refusals"] for c in r["cases"]))


def why_cases(state, text):
    cases, reason = state.why_not(text)
    return reason == "legal", cases


@pytest.mark.case("10.3A", "10.1A", "10.1B")
def test_10_3A_the_attacker_announces_any_group_of_its_adjacent_units(game):
    # 10.3A: "the attacker announces all units attacking a single hex"
    act = "activated: true"
    state = play(game, unit("german", "g1", "0303", INF, act) + unit("german", "g2", "0403", INF, act)
                 + unit("german", "g3", "0305", INF, act) + unit("german", "g4", "0301", INF, act)
                 + unit("german", "g5", "0404", INF) + unit("soviet", "s1", "0304", SINF))
    listed = [str(a) for a in state.legal_actions() if a.kind == "attack"]
    assert listed == ["german: attack hex=0304 support=0 with=g1,g2,g3"]     # the natural choice: all
    [tpl] = [t for t in state.action_templates() if t.kind == "attack"]
    assert dict(tpl.fixed) == {"hex": "0304"} and [n for n, _ in tpl.free] == ["support", "with"]
    assert "any of g1,g2,g3" in dict(tpl.free)["with"]
    # a group not listed: legal in play and in ask alike
    assert why_cases(state, "german: attack hex=0304 with=g1,g3 support=0") == (True, ())
    assert ask_cases(state, "0304", ["g1", "g3"]) == (True, ())
    for group, cases in ((["g1", "g1"], ("10.3A",)),        # each unit once
                         (["g1", "g4"], ("10.1B",)),        # g4 in 0301 is not adjacent
                         (["g1", "g5"], ("10.1A", "0.7.3.3A"))):   # g5 neither activated nor in reserve
        text = f"german: attack hex=0304 with={','.join(group)} support=0"
        assert why_cases(state, text) == (False, cases) and ask_cases(state, "0304", group) == (False, cases)
        before = state.to_dict()
        with pytest.raises(IllegalActionError) as info:
            state.apply(text)
        assert info.value.cases == cases and state.to_dict() == before
    state.apply("german: attack hex=0304 with=g1,g3 support=0")
    [event] = [e for e in state.trace if e.kind == "combat"]
    assert event.data["attackers"] == ["g1", "g3"] and event.data["attack_strength"] == 14   # 7 + 7 (10.3A)


@pytest.mark.case("6.2D")
def test_6_2D_only_units_up_to_the_stacking_limit_attack_of_the_attackers_choice(game):
    # 6.2D: "only units up to the stacking limit can attack, of the attackers choice"; 6.0A: the
    # German limit is one division plus one regiment, so two divisions in 0303 are overstacked
    act = "activated: true"
    state = play(game, unit("german", "g1", "0303", INF, act) + unit("german", "g2", "0303", INF, act)
                 + unit("german", "g3", "0403", INF, act) + unit("soviet", "s1", "0304", SINF))
    assert why_cases(state, "german: attack hex=0304 with=g1,g2,g3 support=0") == (False, ("6.2D",))
    assert ask_cases(state, "0304", ["g1", "g2", "g3"]) == (False, ("6.2D",))
    assert why_cases(state, "german: attack hex=0304 with=g1,g2 support=0") == (False, ("6.2D",))
    assert why_cases(state, "german: attack hex=0304 with=g2,g3 support=0") == (True, ())
    assert ask_cases(state, "0304", ["g2", "g3"]) == (True, ())


@pytest.mark.case("10.5B", "2.4A", "0.7.3.5A")
def test_10_5B_a_reaction_attack_by_one_of_the_adjacent_stacks(game):
    # 10.5B: "More than one stack can be activated to take part in the same attack" — or one of
    # them: s1 (0303) cannot trace a command path to the HQ past g1's ZOC (2.4A: "within command
    # radius of any friendly HQ and able to trace a line of supply to that HQ"), s2 (0305) can;
    # g2 (0405) is the other target, so the step has an attack listed (s2 alone against 0405)
    hq = "class: hq, ma: 4, radius: 3"
    state = play(game, unit("german", "g1", "0304", INF, "activated: true") + unit("soviet", "s1", "0303", SINF)
                 + unit("german", "g2", "0405", INF, "activated: true")
                 + unit("soviet", "s2", "0305", SINF) + unit("soviet", "s-hq", "0205", hq),
                 step="reaction_attacks", ip="{german: 0, soviet: 5}")
    assert state.current_player() == "soviet"
    listed = [str(a) for a in state.legal_actions() if a.kind == "attack"]
    assert listed == ["soviet: attack hex=0405 support=0 with=s2"]   # against 0304 both together: refused
    assert ask_cases(state, "0304", ["s1", "s2"]) == (False, ("2.4A",))
    assert why_cases(state, "soviet: attack hex=0304 with=s1,s2 support=0") == (False, ("2.4A",))
    [tpl] = [t for t in state.action_templates() if t.kind == "attack" and dict(t.fixed)["hex"] == "0304"]
    assert tpl.example is None and "any of s1,s2" in dict(tpl.free)["with"]
    assert why_cases(state, "soviet: attack hex=0304 with=s2 support=0") == (True, ())
    assert ask_cases(state, "0304", ["s2"]) == (True, ())
    state.apply("soviet: attack hex=0304 with=s2 support=0")
    assert state.data.track("ip", "soviet") == 4                      # 0.7.3.5A: 1 IP for the one stack
    assert state.data.unit("s2").get("activated") and not state.data.unit("s1").get("activated")
