"""One code path for an attack's legality in play and in ``ask attack`` (issue #18), on the full
Moscow '41 engine and small inline maps (flat-top-even-q: 0303 touches 0302, 0304, 0202, 0203,
0402, 0403; the German west-edge supply source is column 01, 5.1A).

- 6.2D (rulebook: "only units up to the stacking limit can attack, of the attackers choice"):
  two German divisions in one hex are overstacked (6.0A: one division and a regiment); they may
  not attack together, each may alone, with the attacker-overstacked DRM of -1 (10.4.3).
- 15.3C ("A scattered paratroop unit cannot be immediately attacked"): neither an attack nor an
  overrun is offered or legal against it.
- 9.5A ("Overrun attacks can only be made by moving armor and mechanized units ... only a single
  stack can participate in any one attack"): ``ask attack --overrun`` refuses an infantry
  division and units from two hexes, as play does.
"""

from __future__ import annotations

import pytest

from tests.conftest import m41_inline

DIV = "side: german, class: infantry, size: division, strength: 7, ma: 4, activated: true"
ARM = "side: german, class: armor, size: regiment, strength: 4, ma: 8, activated: true"
SOV = "side: soviet, class: infantry, size: division, strength: 6, ma: 4"
PARA = "side: soviet, class: paratroop, size: brigade, strength: 2, ma: 4, scattered: true"


def pos(units, step="combat"):
    lines = "".join(f'  - {{id: {uid}, {kind}, hex: "{h}"}}\n' for uid, kind, h in units)
    return m41_inline(lines, step=step, ip="{german: 10, soviet: 10}")


def attacks(ctx):
    listed = ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step=ctx.state.step)
    return sorted((a.get("hex"), a.get("with")) for acts in listed for a in acts or () if a.kind == "attack")


def overruns(ctx):
    listed = ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step=ctx.state.step)
    return sorted((a.get("stack"), a.get("hex")) for acts in listed for a in acts or () if a.kind == "overrun")


def ask(ctx, hex_, units, **options):
    return ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[hex_], options={"with": units, **options})


@pytest.mark.case("6.2D")
def test_6_2D_only_units_up_to_the_stacking_limit_attack_from_an_overstacked_hex(position):
    ctx = position(pos([("d1", DIV, "0303"), ("d2", DIV, "0303"), ("s1", SOV, "0304")]))
    assert ctx.hook.casebook_stacking(ctx=ctx, hex="0303", units=None)["overstacked"] is True
    assert attacks(ctx) == [("0304", ("d1",)), ("0304", ("d2",))]
    both = ask(ctx, "0304", ["d1", "d2"])
    assert both["legal"] is False and "6.2D" in both["cases"]
    assert any("stacking limit" in r["reason"] and r["cases"] == ["6.2D"] for r in both["refusals"])
    alone = ask(ctx, "0304", ["d1"])
    assert alone["legal"] is True
    assert {t["case"]: t["value"] for t in alone["drm"]["terms"]}["6.2D, 10.4.3"] == -1


@pytest.mark.case("6.2D")
def test_6_2D_the_attacker_chooses_which_units_up_to_the_limit(position):
    # a division and two regiments: over the limit of one division and a regiment (6.0A)
    ctx = position(pos([("d1", DIV, "0303"), ("r1", ARM, "0303"), ("r2", ARM, "0303"), ("s1", SOV, "0304")]))
    groups = [w for h, w in attacks(ctx)]
    assert ("d1", "r1", "r2") not in groups
    assert ("d1", "r1") in groups and ("d1", "r2") in groups
    assert ask(ctx, "0304", ["d1", "r1"])["legal"] is True


@pytest.mark.case("15.3C")
def test_15_3C_a_scattered_paratroop_cannot_be_attacked_in_play_or_ask(position):
    ctx = position(pos([("g1", DIV, "0303"), ("s-201ab", PARA, "0304"), ("s1", SOV, "0302")]))
    assert attacks(ctx) == [("0302", ("g1",))]
    a = ask(ctx, "0304", ["g1"])
    assert a["legal"] is False and "15.3C" in a["cases"]
    moving = position(pos([("r1", ARM, "0303"), ("s-201ab", PARA, "0304"), ("s1", SOV, "0302")], step="movement"))
    assert overruns(moving) == [("0303", "0302")]
    o = ask(moving, "0304", ["r1"], overrun=True)
    assert o["legal"] is False and "15.3C" in o["cases"]
    assert ask(moving, "0302", ["r1"], overrun=True)["legal"] is True


@pytest.mark.case("9.5A")
def test_9_5A_ask_overrun_refuses_infantry_and_two_stacks_as_play_does(position):
    # 0404 touches 0403, 0504, 0505, 0405, 0305, 0304
    ctx = position(pos([("d1", DIV, "0305"), ("r1", ARM, "0403"), ("r2", ARM, "0304"), ("s1", SOV, "0404")],
                       step="movement"))
    assert ("0305", "0404") not in overruns(ctx) and ("0403", "0404") in overruns(ctx)
    inf = ask(ctx, "0404", ["d1"], overrun=True)
    assert inf["legal"] is False and "9.5A" in inf["cases"]
    assert [r["reason"] for r in inf["refusals"]] == [
        "d1 may not overrun (only moving armor and mechanized units, never in a reaction)"]
    two = ask(ctx, "0404", ["r1", "r2"], overrun=True)
    assert two["legal"] is False
    assert any("single stack" in r["reason"] and r["cases"] == ["9.5A"] for r in two["refusals"])
    assert ask(ctx, "0404", ["r1"], overrun=True)["legal"] is True
