"""The player's choices inside a combat result, as parameterised actions (#18): who takes the F
(11.0B), who takes the losses (11.0B, 11.3, 10.6B), who advances and where (11.4A-D).

Positions, fakes and helpers are those of test_results (layout flat-top-even-q: 0304 touches
0303, 0305, 0203, 0204, 0403, 0404).
"""

from __future__ import annotations

import pytest

from casebook.core.actions import Action, parse_action
from casebook.games.moscow41.plugins import results
from games.moscow41.tests.test_results import FAKE, engine, g, outcome, pos, s  # noqa: F401 (fixtures)

HQ = "class: hq, ma: 4, radius: 3"


def refused(ctx, text):
    """The cases of every refusal of the action ``text`` (empty: legal)."""
    action = parse_action(text)
    return [c for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in rs for c in r.cases]


def templates(ctx):
    return [t for ts in ctx.hook.casebook_action_templates(ctx=ctx, phase="first_player", step="combat") for t in ts]


def interactive(ctx, result, attackers=("g1",)):
    ctx.state.set_plugin_data("combat", {"interactive": True})
    return results.apply_outcome(ctx, outcome(ctx, result, attackers), interactive=True)


@pytest.mark.case("11.0B")
def test_11_0B_the_attacker_chooses_the_one_unit_that_takes_the_F(pos):  # noqa: F811
    # 11.0B: "F  Fatigue: One unit of the attacking force is fatigued."
    ctx = pos(g("g1", "0303") + g("g2", "0403", strength=4) + s("s1", "0304", strength=30))
    out = interactive(ctx, "F/-", ("g1", "g2"))
    assert out["awaiting"] == "fatigue"            # 5 IPs: it may negate (11.1A), so it decides
    [tpl] = templates(ctx)
    assert str(tpl) == "german: negate-fatigue negate=false unit=<ID, one of g1,g2>"
    assert refused(ctx, "german: negate-fatigue negate=false unit=s1") == ["11.0B"]
    assert refused(ctx, "german: negate-fatigue negate=false unit=g2") == []
    ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("german: negate-fatigue negate=false unit=g2"))
    assert ctx.state.unit("g2").get("fatigued") and not ctx.state.unit("g1").get("fatigued")
    assert ctx.state.track("ip", "german") == 5            # not negated: no IP spent (11.1A)


@pytest.mark.case("11.0B", "11.3C")
def test_11_0B_the_defender_names_the_units_that_take_the_losses(pos):  # noqa: F811
    # -/2 with no retreat: two losses, on s2 twice: its 1-Loss marker, then a remnant (11.3C)
    ctx = pos(g("g1", "0303", strength=30) + s("s1", "0304") + s("s2", "0304"))
    interactive(ctx, "-/2")
    listed = results.casebook_legal_actions(ctx, "first_player", "combat")
    assert Action.make("retreat", "soviet", losses=2) in listed
    assert any(t.kind == "retreat" and dict(t.fixed) == {"losses": 2} for t in templates(ctx))
    assert refused(ctx, "soviet: retreat losses=2 units=s2,s2,s1") == ["11.0B"]   # three names, two losses
    assert refused(ctx, "soviet: retreat losses=2 units=g1") == ["11.0B"]         # not a defender
    assert refused(ctx, "soviet: retreat losses=2 units=s2,s2") == []
    out = ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("soviet: retreat losses=2 units=s2,s2"))
    effects = [(e.get("unit"), e.get("effect")) for e in out["effects"]]
    assert effects == [("s2", "1-loss"), ("s2", "remnant")]
    assert ctx.state.has_unit("s1") and not ctx.state.unit("s1").get("losses")   # s1 untouched
    assert not ctx.state.has_unit("s2")


@pytest.mark.case("10.6B")
def test_10_6B_an_hq_is_named_for_a_loss_only_after_its_combat_units(pos):  # noqa: F811
    ctx = pos(g("g1", "0303", strength=30) + s("s1", "0304") + s("s-hq", "0304", HQ))
    interactive(ctx, "-/2")
    assert refused(ctx, "soviet: retreat losses=2 units=s-hq") == ["10.6B"]
    assert refused(ctx, "soviet: retreat losses=2 units=s1,s-hq") == ["10.6B"]   # s1 has 3 losses left
    assert refused(ctx, "soviet: retreat losses=2 units=s1,s1") == []


@pytest.mark.case("11.4A", "11.4C")
def test_11_4A_the_attacker_chooses_which_units_advance(pos):  # noqa: F811
    # 11.4A: "the attacking units can advance after combat" — any of them, not all or nothing
    ctx = pos(g("g1", "0303") + g("g2", "0403") + s("s1", "0304"), ip="{german: 0, soviet: 0}")
    interactive(ctx, "-/R", ("g1", "g2"))
    retreat = results.casebook_legal_actions(ctx, "first_player", "combat")[0]
    ctx.hook.casebook_apply_action(ctx=ctx, action=retreat)
    listed = results.casebook_legal_actions(ctx, "first_player", "combat")
    assert Action.make("advance", "german", path=["0304"], **{"with": ["g1", "g2"]}) in listed
    assert refused(ctx, "german: advance path=0304 with=s1") == ["11.4A"]
    # an R retreat of one hex: the advance is one hex, into the defender's hex (11.4C)
    assert refused(ctx, "german: advance path=0305 with=g2") == ["11.4B", "11.4C", "11.4D"]
    assert refused(ctx, "german: advance path=0304,0305 with=g2") == ["11.4B", "11.4C", "11.4D"]
    FAKE.over.add("0304")
    assert refused(ctx, "german: advance path=0304 with=g2") == ["11.4B", "6.0"]  # within stacking limits
    FAKE.over.clear()
    assert refused(ctx, "german: advance path=0304 with=g2") == []
    done = ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("german: advance path=0304 with=g2"))
    assert done["pending"] is False
    assert ctx.state.unit("g2")["hex"] == "0304" and ctx.state.unit("g1")["hex"] == "0303"


@pytest.mark.case("11.0B", "11.3B")
def test_11_0B_the_attacker_names_the_units_that_take_its_losses(pos):  # noqa: F811
    # 11.0B: "The attacking force must suffer the listed number of combat losses."
    ctx = pos(g("g1", "0303") + g("g2", "0403", strength=4) + s("s1", "0304", strength=30))
    out = interactive(ctx, "1/-", ("g1", "g2"))
    assert out["pending"] and out["awaiting"] == "attacker_losses" and out["decider"] == "german"
    assert results.casebook_legal_actions(ctx, "first_player", "combat") == [Action.make("take-losses", "german")]
    [tpl] = templates(ctx)
    assert str(tpl) == ("german: take-losses units=<ID,… up to 1 of g1,g2 in order, a unit once per loss; "
                        "HQs last (10.6B)>")
    assert refused(ctx, "german: take-losses units=g1,g2") == ["11.0B"]       # two names, one loss
    assert refused(ctx, "german: take-losses units=s1") == ["11.0B"]
    ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("german: take-losses units=g2"))
    assert ctx.state.unit("g2")["losses"] == 1 and not ctx.state.unit("g1").get("losses")   # 11.3B: 1-Loss
    # the default (the listed action, as bots play it) puts the loss on the unit with most losses left, then
    # the strongest: here g1 (strength 7) rather than g2 (4)
    ctx2 = pos(g("g1", "0303") + g("g2", "0403", strength=4) + s("s1", "0304", strength=30))
    interactive(ctx2, "1/-", ("g1", "g2"))
    ctx2.hook.casebook_apply_action(ctx=ctx2, action=Action.make("take-losses", "german"))
    assert ctx2.state.unit("g1")["losses"] == 1 and not ctx2.state.unit("g2").get("losses")


@pytest.mark.case("11.0B")
def test_11_0B_without_ips_to_negate_the_attacker_still_chooses_who_takes_the_F(pos):  # noqa: F811
    ctx = pos(g("g1", "0303") + g("g2", "0403", strength=4) + s("s1", "0304", strength=30),
              ip="{german: 0, soviet: 0}")
    out = interactive(ctx, "F/-", ("g1", "g2"))
    assert out["pending"] and out["awaiting"] == "fatigue"
    assert results.casebook_legal_actions(ctx, "first_player", "combat") == [
        Action.make("negate-fatigue", "german", negate=False)]                   # 11.1A: no IP to negate
    assert refused(ctx, "german: negate-fatigue negate=true") != []
    ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("german: negate-fatigue negate=false unit=g2"))
    assert ctx.state.unit("g2")["fatigued"] and not ctx.state.unit("g1").get("fatigued")


@pytest.mark.case("11.0B", "11.2B")
def test_11_0B_a_defender_that_cannot_retreat_still_chooses_who_takes_the_losses(pos):  # noqa: F811
    # every hex around 0304 but the attacker's is in a German ZOC: no retreat, the loss is taken (11.2B)
    ctx = pos(g("g1", "0303", strength=30) + s("s1", "0304") + s("s2", "0304", strength=4))
    FAKE.zoc["soviet"] = {"0305", "0203", "0204", "0403", "0404"}
    out = interactive(ctx, "-/1")
    assert out["pending"] and out["awaiting"] == "defender"
    assert results.casebook_legal_actions(ctx, "first_player", "combat") == [
        Action.make("retreat", "soviet", losses=1)]
    ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("soviet: retreat losses=1 units=s2"))
    assert ctx.state.unit("s2")["losses"] == 1 and not ctx.state.unit("s1").get("losses")
