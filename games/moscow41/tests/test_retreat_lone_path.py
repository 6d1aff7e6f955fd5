"""A retreat with one legal path is asked of the defender (session 18's fresh user: it was applied
without asking, no event said where the unit went until the attacker's advance closed the result,
and the overstack note never showed). docs/actions.md: the defender's retreat is its choice; the
listed action is the default, which bots play.

The hemmed division of test_retreat_overstack_note: s1 in 0304, five German divisions around it,
every hex beyond 0305 in their ZOC; 0305 holds two Soviet divisions (6 stacking points where the
limit is 5, 6.0B). An R (11.0B: "The defending units must retreat 1 hex") leaves one path, into
0305 — legal by 6.2F ("if no other route is available, a unit can retreat into a friendly-occupied
hex, resulting in an overstack situation"), punished by 6.2E at the end of the Movement Step."""

from __future__ import annotations

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.actions import parse_action
from casebook.games.moscow41.plugins import results
from games.moscow41.tests.test_decisions_attackers import game  # noqa: F401 (the game fixture)
from games.moscow41.tests.test_retreat_overstack_note import HEMMED
from tests.conftest import m41_inline

UNITS = "".join(line + "\n" for line in HEMMED.splitlines()[1:-1])
LONE = "soviet: retreat losses=0 path=0305"
NOTE = "overstacks 0305: 6 stacking points, limit 5 (6.2F, 7.5A, 6.2E)"


def _outcome(result: str) -> dict:
    return {"attackers": ["g1", "g2"], "defenders": ["s1"], "hex": "0304", "kind": "attack",
            "attacker_side": "german", "defender_side": "soviet", "result": result}


@pytest.mark.case("11.2A", "11.0B", "6.2F", "6.2E")
def test_11_2A_a_lone_retreat_path_is_asked_with_its_overstack_note(position):
    ctx = position(m41_inline(UNITS), trace=True)
    out = results.apply_outcome(ctx, _outcome("-/R"), True)
    assert (out["pending"], out["awaiting"], out["decider"]) == (True, "defender", "soviet")
    assert ctx.state.unit("s1")["hex"] == "0304"  # not moved before the defender says so
    listed = results.casebook_legal_actions(ctx, "first_player", "combat")
    assert [str(a) for a in listed] == [LONE]
    assert ctx.hook.casebook_stacking_note(ctx=ctx, action=listed[0]) == NOTE
    asked = results.retreat_answer(ctx, "s1", 1)  # ask retreat: the same one path (rule 7 of the guide)
    assert [o["path"] for o in asked["options"]] == [["0305"]]
    retreat = {"effect": "retreat", "units": ["s1"], "path": ["0305"], "cases": ["11.2A", "11.2B"]}
    after = results.casebook_apply_action(ctx, parse_action(LONE))
    assert retreat in after["effects"] and after["awaiting"] == "advance"  # the attacker's turn to choose
    assert ctx.state.unit("s1")["hex"] == "0305"
    results.casebook_apply_action(ctx, parse_action("german: advance hold=true"))
    [done] = [e for e in ctx.trace if e.kind == "combat-results"]
    assert retreat in done.data["effects"]


@pytest.mark.case("11.0B", "11.2B")
def test_11_0B_a_loss_in_place_with_no_path_is_still_not_asked(position):
    """No path at all (0305 taken by a German division too): an R that cannot be retreated is a
    loss in place (11.2B), nothing to choose for a lone unit — applied at once, as before."""
    ctx = position(m41_inline(UNITS.replace('id: s2, side: soviet', 'id: s2, side: german')
                              .replace('id: s3, side: soviet', 'id: s3, side: german')), trace=True)
    out = results.apply_outcome(ctx, _outcome("-/R"), True)
    assert out.get("awaiting") != "defender"
    assert not any(e.get("effect") == "retreat" for e in out["effects"])


@pytest.mark.case("11.2A", "0.7.3.3")
def test_11_2A_a_bot_defender_plays_the_lone_path_and_the_trace_says_it(game):  # noqa: F811
    """In play the lone retreat is the defender's decision: a bot plays the listed action (the
    default), recorded as its ``action`` event before the attacker is asked about the advance."""
    from casebook.tools.bots import make_bot

    text = m41_inline(UNITS, ip="{german: 10, soviet: 6}") + "rng: {seed: 1, state: null, fixed: [3, 4]}\n"
    state = game.state_from_dict(position_to_dict(load_position(text, pack=game.engine.pack)))
    state.apply(parse_action("german: attack hex=0304 support=0 with=g1,g2"))  # 2:1, roll 7: -/FR
    assert state.current_player() == "soviet"
    assert [str(a) for a in state.legal_actions()] == [LONE]
    state.apply(make_bot("greedy", "soviet", 1).choose(state))
    acts = [e.data["action"] for e in state.trace if e.kind == "action"]
    assert acts[-1] == LONE and state.current_player() == "german"  # the attacker's advance next
    assert state.data.unit("s1")["hex"] == "0305"
