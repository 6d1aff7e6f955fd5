"""0.7.3.5A / 2.3A: a reaction attack costs IPs (per stack), so a side holding fewer than its
cheapest filling (one unit alone) is offered no ``attack`` template in the Reaction Attacks Step
— the template's fillings would all be refused for IPs, as play refuses them. Session 16's
fresh-user check: a human side with 0 IPs was asked at every such step, shown a template it
could not pay for. With the IPs the template is offered and its filling legal."""

from __future__ import annotations

import pytest

from games.moscow41.tests.test_decisions_attackers import game  # noqa: F401 (the game fixture)
from games.moscow41.tests.test_decisions_template_only import REACTION
from tests.conftest import m41_inline


def _state(game, soviet_ips: int):  # noqa: F811
    import yaml

    data = yaml.safe_load(m41_inline(REACTION, step="reaction_attacks", ip=f"{{german: 0, soviet: {soviet_ips}}}"))
    return game.state_from_dict(data, humans=["soviet"])


@pytest.mark.case("0.7.3.5A", "2.3A")
def test_0_7_3_5A_no_reaction_template_a_side_cannot_pay_for(game):  # noqa: F811
    state = _state(game, 0)
    assert state.data.step != "reaction_attacks"                  # not asked: the step passed by itself
    [skipped] = [e for e in state.trace if e.kind == "auto-pass"][:1]
    assert (skipped.data["step"], skipped.side) == ("reaction_attacks", "soviet")
    # in that step with no IP, the filling it would have offered is refused for IPs (0.7.3.5A, 2.3A)
    from casebook.areas._combat_rules import attack_refusals

    held = _state(game, 1)
    held.data.add_track("ip", -1, "soviet")
    ctx = held.ctx()
    refused = attack_refusals(ctx, "soviet", "0304", ["s2"], "reaction")
    assert [r.reason for r in refused] == ["soviet has 0 IPs, the attack needs 1"]


@pytest.mark.case("0.7.3.5A", "2.3A")
def test_0_7_3_5A_with_one_ip_the_reaction_template_is_offered(game):  # noqa: F811
    state = _state(game, 1)
    assert (state.data.step, state.current_player()) == ("reaction_attacks", "soviet")
    assert [t.kind for t in state.action_templates()] == ["attack", "pass"]
    assert state.why_not("soviet: attack hex=0304 with=s2 support=0") == ((), "legal")
