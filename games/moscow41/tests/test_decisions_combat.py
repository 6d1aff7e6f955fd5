"""How much combat support to buy is the player's choice (#18): any whole number of IPs, not
only none or the most worth buying (10.4.2A, 2.3A-C).

Positions and fakes are those of test_combat (0303 touches 0304).
"""

from __future__ import annotations

import pytest

from casebook.areas import combat
from casebook.core.actions import parse_action
from games.moscow41.tests.test_combat import FAKE, engine, g, pos, s, terms  # noqa: F401 (fixtures)


def refused(ctx, text):
    action = parse_action(text)
    return [c for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in rs for c in r.cases]


def listed(ctx):
    return [a for ls in ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step="combat") for a in ls]


def templates(ctx):
    return [t for ts in ctx.hook.casebook_action_templates(ctx=ctx, phase="first_player", step="combat") for t in ts]


@pytest.mark.case("10.4.2A", "2.3A")
def test_10_4_2A_three_soviet_ips_buy_one_drm_and_any_amount_may_be_spent(pos):  # noqa: F811
    # 10.4.2A: "Each 2 IPs spent by the Germans and 3 IPs spent by the Soviets applies a DRM of 1"
    ctx = pos(s("s1", "0303", activated=True) + g("g1", "0304"), phasing="soviet",
              ip="{german: 0, soviet: 9}")
    attacks = [a for a in listed(ctx) if a.kind == "attack"]
    assert [a.get("support") for a in attacks] == [0, 9]    # listed: none, or the most worth buying
    [tpl] = [t for t in templates(ctx) if t.kind == "attack" and "with" in dict(t.fixed)]   # the support template
    assert dict(tpl.fixed) == {"hex": "0304", "with": ("s1",)} and [n for n, _ in tpl.free] == ["support"]
    assert "each 3 soviet IPs buy 1 DRM" in dict(tpl.free)["support"]
    assert tpl.matches(parse_action("soviet: attack hex=0304 with=s1 support=3"))
    assert refused(ctx, "soviet: attack hex=0304 with=s1 support=3") == []
    # 9 IPs held; 10.4.2A: the support's cost (its cost lines are named with it since session 16)
    assert refused(ctx, "soviet: attack hex=0304 with=s1 support=10") == ["2.3A", "10.4.2A"]
    assert refused(ctx, "soviet: attack hex=0304 with=s1 support=-1") == ["10.4.2A"]
    base = terms(combat.assess(ctx, ["s1"], "0304", {"attacker": 0}))
    for ips, drm in ((3, 1), (4, 1), (5, 1), (6, 2)):       # a remainder buys nothing (rounded down)
        got = terms(combat.assess(ctx, ["s1"], "0304", {"attacker": ips}))
        assert got.get("10.4.2A") == drm and {k: v for k, v in got.items() if k != "10.4.2A"} == base
    FAKE.unsupplied.add("s1")   # 2.3B: an attacker out of supply receives no support
    assert "2.3B" in refused(ctx, "soviet: attack hex=0304 with=s1 support=3")


@pytest.mark.case("10.4.2A", "2.3C")
def test_10_4_2A_the_defender_chooses_its_support_amount(pos):  # noqa: F811
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304"), ip="{german: 10, soviet: 9}")
    attack = [a for a in listed(ctx) if a.kind == "attack" and a.get("support") == 0][0]
    ctx.hook.casebook_apply_action(ctx=ctx, action=attack)
    assert [a.get("ips") for a in listed(ctx) if a.kind == "support"] == [0, 9]
    [tpl] = templates(ctx)
    assert tpl.kind == "support" and [n for n, _ in tpl.free] == ["ips"]
    assert refused(ctx, "soviet: support ips=3") == [] and refused(ctx, "soviet: support ips=12") == ["2.3A"]
    out = ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("soviet: support ips=4"))
    assert out["support"] == {"attacker": 0, "defender": 4} and ctx.state.track("ip", "soviet") == 5
    assert terms(out)["10.4.2A"] == -1                       # 4 Soviet IPs: one DRM, in the defender's favour


@pytest.mark.case("10.4.2A")
def test_10_4_2A_a_support_remainder_is_paid_and_the_player_is_warned(pos):  # noqa: F811
    # 10.4.2A: "Each 2 IPs spent by the Germans and 3 IPs spent by the Soviets applies a DRM of 1":
    # the rule refuses no amount, so 1 or 4 Soviet IPs are spent; the remainder buys none — said so
    ctx = pos(s("s1", "0303", activated=True) + g("g1", "0304"), phasing="soviet",
              ip="{german: 0, soviet: 9}")
    for ips, left in ((0, 0), (1, 1), (3, 0), (4, 1), (5, 2), (6, 0)):
        answer = combat.attack_answer(ctx, "0304", ["s1"], (ips, 0))
        ip_word = "IP" if ips == 1 else "IPs"
        expected = [{"warning": f"{ips} soviet {ip_word} of support: {left} of them buy no DRM (each 3 buy 1, a remainder "
                                "none)", "cases": ["10.4.2A"]}] if left else []
        assert answer.get("warnings", []) == expected and answer["legal"]
    assert refused(ctx, "soviet: attack hex=0304 with=s1 support=1") == []    # a warning, no refusal
    out = combat.resolve(ctx, ["s1"], "0304", "attack", {"attacker": 1}, roll=7)
    assert out["warnings"][0]["warning"].startswith("1 soviet IP of support: 1 of them buy no DRM")
    assert terms(out)["10.4.2A"] == 0 and ctx.state.track("ip", "soviet") == 8     # paid all the same


@pytest.mark.case("10.4.2A", "2.3C")
def test_10_4_2A_the_defenders_remainder_is_warned_in_the_combat_and_its_account_line(pos):  # noqa: F811
    from casebook.core.trace import Event
    from casebook.tools.account import Narrator

    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304"), ip="{german: 10, soviet: 9}")
    attack = [a for a in listed(ctx) if a.kind == "attack" and a.get("support") == 0][0]
    ctx.hook.casebook_apply_action(ctx=ctx, action=attack)
    out = ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("soviet: support ips=5"))
    assert out["warnings"] == [{"warning": "5 soviet IPs of support: 2 of them buy no DRM (each 3 buy 1, a "
                                           "remainder none)", "cases": ["10.4.2A"]}]
    assert terms(out)["10.4.2A"] == -1 and ctx.state.track("ip", "soviet") == 4
    event = Event(9, 1, "first_player", "combat", "german", "combat", ("10.0D",), "test", out)
    text = "\n".join(Narrator().lines([event]))
    assert "warning: 5 soviet IPs of support: 2 of them buy no DRM (each 3 buy 1, a remainder none)  [10.4.2A]" in text
    assert "warnings" not in combat.attack_answer(ctx, "0304", ["g1"], (4, 3))   # whole DRMs: no warning


@pytest.mark.case("10.4.2B", "2.3C")
def test_10_4_2B_the_defenders_support_refusal_names_each_unit_and_what_it_lacks(pos):  # noqa: F811
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304") + s("s2", "0304"), ip="{german: 10, soviet: 9}")
    attack = [a for a in listed(ctx) if a.kind == "attack" and a.get("support") == 0][0]
    ctx.hook.casebook_apply_action(ctx=ctx, action=attack)
    FAKE.unsupplied.add("s1")
    FAKE.out_of_command.add("s2")   # a defender's path may be to any HQ (2.3C): the command area says none
    why = ctx.hook.casebook_validate_action(ctx=ctx, action=parse_action("soviet: support ips=3"))
    assert [(r.reason, r.cases) for rs in why for r in rs] == [
        ("the defenders must be in supply and in command to receive support: s1 out of supply; s2 not in command",
         ("2.3C", "10.4.2B"))]
    assert refused(ctx, "soviet: support ips=0") == []       # no support asked: nothing to receive
