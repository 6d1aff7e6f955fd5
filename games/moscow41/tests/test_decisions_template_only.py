"""A step whose only listed action is ``pass`` is still offered to a human when a template holds
a real decision (#18): here an attack no listed group makes (``attack hex=HEX with=<…>``, 10.3A,
10.5B). Bots settle such a step by itself as before (the golden traces stay the same).

Played through ``State`` on a small position of the Moscow '41 engine (layout
flat-top-even-q: 0304 touches 0303, 0305, 0203, 0204, 0403, 0404).
"""

from __future__ import annotations

import pytest
import yaml

from casebook.core.errors import IllegalActionError
from games.moscow41.tests.test_decisions_attackers import INF, SINF, game, unit  # noqa: F401 (the game fixture)
from tests.conftest import m41_inline

HQ = "class: hq, ma: 4, radius: 3"


def position(units: str, step: str) -> dict:
    return yaml.safe_load(m41_inline(units, step=step, ip="{german: 0, soviet: 5}"))


# g1 (activated, 0304) is touched by s1 (0303) and s2 (0305); s1 cannot trace a command path
# to the HQ s-hq (0205) past g1's ZOC (2.4A), s2 can: the natural group (both) is refused, so no
# attack is listed, and only the template makes s2's attack possible
REACTION = (unit("german", "g1", "0304", INF, "activated: true") + unit("soviet", "s1", "0303", SINF)
            + unit("soviet", "s2", "0305", SINF) + unit("soviet", "s-hq", "0205", HQ))


@pytest.mark.case("10.5B", "10.3A", "2.4A")
def test_10_5B_a_template_only_reaction_attack_is_offered_to_a_human(game):  # noqa: F811
    bots = game.state_from_dict(position(REACTION, "reaction_attacks"))
    assert bots.data.step != "reaction_attacks"          # bots: settled by itself, as before
    [skipped] = [e for e in bots.trace if e.kind == "auto-pass"][:1]
    assert skipped.data["step"] == "reaction_attacks"

    state = game.state_from_dict(position(REACTION, "reaction_attacks"), humans=["soviet"])
    assert (state.data.step, state.current_player()) == ("reaction_attacks", "soviet")   # asked
    assert not [e for e in state.trace if e.kind == "auto-pass"]
    assert not [a for a in state.legal_actions() if a.kind != "pass"]
    [tpl] = [t for t in state.action_templates() if t.kind == "attack"]
    assert dict(tpl.fixed) == {"hex": "0304"} and tpl.example is None
    # why explains the refused group, and the refusal leaves the play unchanged (2.4A)
    assert state.why_not("soviet: attack hex=0304 with=s1,s2 support=0")[0] == ("2.4A",)
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as info:
        state.apply("soviet: attack hex=0304 with=s1,s2 support=0")
    assert info.value.cases == ("2.4A",) and state.to_dict() == before
    assert state.why_not("soviet: attack hex=0304 with=s2 support=0") == ((), "legal")
    state.apply("soviet: attack hex=0304 with=s2 support=0")       # the filled template
    assert state.data.track("ip", "soviet") == 4                           # 0.7.3.5A: 1 IP for the stack
    [event] = [e for e in state.trace if e.kind == "combat"]
    assert event.data["attackers"] == ["s2"] and event.data["attack_strength"] == 6


@pytest.mark.case("10.5B")
def test_10_5B_a_human_may_still_pass_the_template_only_step(game):  # noqa: F811
    state = game.state_from_dict(position(REACTION, "reaction_attacks"), humans=["soviet"])
    state.apply("soviet: pass")
    assert state.data.step != "reaction_attacks" and not [e for e in state.trace if e.kind == "combat"]
    assert [str(a) for a in state.history] == ["soviet: pass"]


@pytest.mark.case("10.5B")
def test_10_5B_humans_carry_over_to_clones_and_steps_without_a_template_settle(game):  # noqa: F811
    # s1 and s2 out of reach (0301, 0307): no enemy hex is touched, no attack template, the
    # step settles by itself for a human too
    far = REACTION.replace('"0305"', '"0307"').replace('"0303"', '"0301"')
    state = game.state_from_dict(position(far, "reaction_attacks"), humans=["soviet"])
    assert state.data.step != "reaction_attacks"
    assert state.clone().humans == frozenset({"soviet"})
