"""Combat and ZOC rules of Moscow '41 that live in its rule scripts (issues #14, #15): each test
copies the pack, edits one script line, and sees play or ``ask`` change — the shared `combat` and
`zoc` areas read the line, so a modder changes the rule without Python."""

from __future__ import annotations

import pytest

from casebook.areas import combat
from casebook.areas import zoc as zoc_area
from casebook.tools.cmd_ask import answer_ctx
from games.moscow41.tests._fakes import FakeAreasWithStacking, engine_with
from games.moscow41.tests.test_combat import g, s
from games.moscow41.tests.test_moved_rules import edited
from tests.conftest import m41_inline, make_ctx

FAKE = FakeAreasWithStacking()


def position(engine, units: str, step: str = "combat", phasing: str = "german", markers: str = "[]",
             ip: str = "{german: 10, soviet: 9}"):
    """A position on an 8x8 clear map, supply/command/ZOC of the fake (games/moscow41/tests/_fakes.py)."""
    FAKE.reset()
    text = m41_inline(units, step=step, phasing=phasing, ip=ip, extra=f"markers: {markers}")
    return make_ctx(engine_with(engine, fake_combat=FAKE), text, trace=True)


def sources(answer) -> list[str]:
    return [ln["source"] for ln in answer.get("lines", [])]


# -- combat.rules: loss shifts ----------------------------------------------------------------------
@pytest.mark.case("10.3B", "10.3C")
def test_10_3B_loss_shift_line_decides_the_column_shift(m41, tmp_path):
    """combat.assess reads quantity `loss_shift`: the attackers' largest Loss marker (2, 10.3C)
    shifts two columns left; with the line doubled it shifts four, and the answer cites it."""
    units = g("g1", "0303", activated=True, losses=1) + g("g2", "0403", activated=True, losses=2) \
        + s("s1", "0304", strength=7)
    ctx = position(m41, units)
    a = answer_ctx(ctx, "attack", ["0304"], {"with": ["g1", "g2"]})
    line = next(ln for ln in a["lines"] if ln["text"].startswith("-highest(losses of attackers)"))
    assert (a["basic_column"], a["column_shift"], a["column"]) == ("2:1", -2, "1:1")
    assert line["cases"] == ["10.3B", "10.3C"] and line["source"].startswith("combat.rules:")
    eng = edited(tmp_path, "combat.rules", "  -highest(losses of attackers)  by 10.3B",
                 "  -(2 * highest(losses of attackers))  by 10.3B")
    b = answer_ctx(position(eng, units), "attack", ["0304"], {"with": ["g1", "g2"]})
    assert (b["column_shift"], b["column"]) == (-4, "1:3")
    assert line["source"] in sources(b)  # the same line, edited in place


# -- combat.rules: Guards notes ---------------------------------------------------------------------
@pytest.mark.case("10.7A")
def test_10_7A_note_guards_line_decides_which_roll_notes_a_unit(m41, tmp_path):
    """combat.resolve reads `note_guards`: an unmodified 12 of a Soviet attack notes the strongest
    attacker, an 11 does not; with the line's 12 edited to 11 it is the other way round."""
    units = g("g1", "0304", strength=30) + s("s1", "0303", activated=True) + s("s2", "0305", activated=True, strength=5)
    ctx = position(m41, units, phasing="soviet")
    assert combat.resolve(ctx, ["s1", "s2"], "0304", "attack", {}, roll=11)["guards_noted"] is None
    ctx = position(m41, units, phasing="soviet")
    assert combat.resolve(ctx, ["s1", "s2"], "0304", "attack", {}, roll=12)["guards_noted"] == "s1"
    eng = edited(tmp_path, "combat.rules", "(attacking and roll is 12 or", "(attacking and roll is 11 or")
    ctx = position(eng, units, phasing="soviet")
    assert combat.resolve(ctx, ["s1", "s2"], "0304", "attack", {}, roll=12)["guards_noted"] is None
    ctx = position(eng, units, phasing="soviet")
    assert combat.resolve(ctx, ["s1", "s2"], "0304", "attack", {}, roll=11)["guards_noted"] == "s1"
    a = answer_ctx(position(eng, units, phasing="soviet"), "attack", ["0304"], {"with": ["s1", "s2"], "roll": 11})
    assert a["result"]["guards"] is True
    assert any(ln["text"].startswith("permit note_guards by 10.7A") for ln in a["lines"])


@pytest.mark.case("10.7B")
def test_10_7B_keep_guards_notes_line_decides_when_the_notes_lapse(m41, tmp_path):
    """combat's step end reads `keep_guards_notes`: a note not raised in the Soviet Reinforcement
    Step lapses (event guards-lapsed, 10.7B); without the line it is offered again later."""
    units = g("g1", "0304", strength=30) + s("s1", "0303", activated=True)

    def noted_then_step_ends(engine):
        ctx = position(engine, units, phasing="soviet", ip="{german: 0, soviet: 0}")
        assert combat.resolve(ctx, ["s1"], "0304", "attack", {}, roll=12)["guards_noted"] == "s1"
        ctx.state.set_sequence_position("second_initiative", "replacement_reinforcement", "soviet")
        assert combat.raise_actions(ctx, "replacement_reinforcement") == []  # no IPs to pay with
        ctx.hook.casebook_step_end(ctx=ctx, phase="second_initiative", step="replacement_reinforcement")
        ctx.state.add_track("ip", 5, "soviet")
        return ctx, ctx.trace.of_kind("guards-lapsed")

    ctx, lapsed = noted_then_step_ends(m41)
    assert [(list(e.cases), e.data) for e in lapsed] == [(["10.7B"], {"units": ["s1"]})]
    verdict = ctx.permission("keep_guards_notes", {"step": "replacement_reinforcement"})
    [line] = [ln for ln in verdict.lines if ln.fired]
    assert line.cases == ("10.7B",) and line.source.endswith("combat.rules:59")
    assert combat.raise_actions(ctx, "replacement_reinforcement") == []
    eng = edited(tmp_path, "combat.rules", "forbid keep_guards_notes by 10.7B  when step is replacement_reinforcement"
                 " and phasing_side is soviet\n", "\n")
    ctx, lapsed = noted_then_step_ends(eng)
    assert lapsed == []
    assert [str(a) for a in combat.raise_actions(ctx, "replacement_reinforcement")] == ["soviet: raise-guards unit=s1"]


# -- zoc.rules: the Partisan marker's ZOC -----------------------------------------------------------
@pytest.mark.case("16.3A")
def test_16_3A_marker_zoc_line_decides_whom_a_partisan_hex_is_a_zoc_against(m41, tmp_path):
    """the zoc area's casebook_zoc_sources reads `marker_zoc`: a Partisan marker's hex is a ZOC
    against the Germans (ask zoc cites the line); with the line's side edited, against the Soviets."""
    markers = '[{kind: partisan, hex: "0606"}]'
    ctx = position(m41, g("g1", "0101"), markers=markers)
    a = answer_ctx(ctx, "zoc", ["0606", "german"], {})
    assert a["exerted_by"] == ["partisan@0606"] and "16.3A" in a["cases"] and a["blocks_supply"] is True
    line = next(ln for ln in a["lines"] if ln["text"].startswith("permit marker_zoc by 16.3A"))
    assert line["source"].startswith("zoc.rules:")
    assert answer_ctx(ctx, "zoc", ["0606", "soviet"], {})["exerted_by"] == []
    eng = edited(tmp_path, "zoc.rules", "when marker_kind is partisan and side is german",
                 "when marker_kind is partisan and side is soviet")
    ctx = position(eng, g("g1", "0101"), markers=markers)
    assert answer_ctx(ctx, "zoc", ["0606", "german"], {})["exerted_by"] == []
    b = answer_ctx(ctx, "zoc", ["0606", "soviet"], {})
    assert b["exerted_by"] == ["partisan@0606"] and line["source"] in sources(b)
    assert zoc_area.casebook_zoc_sources(ctx, "soviet") == [{"hex": "0606", "id": "partisan@0606", "cases": ["16.3A"]}]


# -- combat.rules: once a step ----------------------------------------------------------------------
@pytest.mark.case("10.1C")
def test_10_1C_attack_again_lines_decide_who_attacks_or_is_attacked_twice(m41, tmp_path):
    """_combat_rules reads `attack_again` and `defend_again`: after g1 attacked s1 in this step,
    g1 may not attack again nor s1 be attacked again (10.1C, the line cited); without the two
    lines s1 may be attacked again (offered and legal), and g1 is refused only by the rule of
    the combat step that a unit attacks once a phase (10.1A, 0.7.3.3A)."""
    units = g("g1", "0303", activated=True) + g("g2", "0403", activated=True) + s("s1", "0304") + s("s2", "0302")

    def after_first_attack(engine):
        ctx = position(engine, units)
        combat.resolve(ctx, ["g1"], "0304", "attack", {}, roll=7)
        return ctx

    ctx = after_first_attack(m41)
    again = combat.attack_answer(ctx, "0302", ["g1"])
    assert not again["legal"] and again["refusals"] == [{"reason": "g1 already attacked in this step", "cases": ["10.1C"]}]
    twice = answer_ctx(ctx, "attack", ["0304"], {"with": ["g2"]})
    assert twice["refusals"] == [{"reason": "the units in 0304 were already attacked in this step", "cases": ["10.1C"]}]
    assert any(ln["text"].startswith("forbid defend_again by 10.1C") for ln in twice["lines"])
    eng = edited(tmp_path, "combat.rules", "forbid attack_again by 10.1C\nforbid defend_again by 10.1C\n"
                 "permit defend_again by 9.5E over 10.1C  when kind is overrun\n", "\n\n\n")
    ctx = after_first_attack(eng)
    assert [r["cases"] for r in combat.attack_answer(ctx, "0302", ["g1"])["refusals"]] == [["10.1A", "0.7.3.3A"]]
    assert combat.attack_answer(ctx, "0304", ["g2"])["legal"] is True
    offered = {(a.get("hex"), tuple(a.get("with"))) for a in combat.casebook_legal_actions(ctx, "first_player", "combat")
               if a.kind == "attack"}
    assert ("0304", ("g2",)) in offered and not any(h == "0302" and "g1" in w for h, w in offered)


@pytest.mark.case("0.7.3.3B")
def test_0_7_3_3B_mark_reserve_line_decides_who_is_marked_reserve(m41, tmp_path):
    """combat's step end reads `mark_reserve`: an activated unit that did not attack is marked
    Reserve at the end of the Combat Step, one that attacked and an HQ are not (event reserve,
    0.7.3.3B); with the line's HQ clause removed the activated HQ is marked too."""
    units = g("g1", "0303", activated=True) + g("g2", "0601", activated=True) \
        + g("h1", "0701", "class: hq, ma: 6, radius: 4", activated=True) + s("s1", "0304")

    def step_ends(engine):
        ctx = position(engine, units)
        combat.resolve(ctx, ["g1"], "0304", "attack", {}, roll=7)
        ctx.hook.casebook_step_end(ctx=ctx, phase="first_player", step="combat")
        marked = sorted(u["id"] for u in ctx.state.units if u.get("reserve"))
        return marked, [list(e.cases) for e in ctx.trace.of_kind("reserve")]

    assert step_ends(m41) == (["g2"], [["0.7.3.3B"]])
    eng = edited(tmp_path, "combat.rules", "not attacked and unit_class is not hq\n", "not attacked\n")
    assert step_ends(eng) == (["g2", "h1"], [["0.7.3.3B"]])


# -- combat.rules: the combat dice ------------------------------------------------------------------
@pytest.mark.case("10.0D")
def test_10_0D_combat_dice_line_decides_how_many_dice_a_combat_rolls(m41, tmp_path):
    """The combat area reads `combat_dice`: two dice (10.0D) — `ask attack` lists the totals 2-12
    and cites the line, play rolls two dice (the roll and the combat event cite it); with the
    line's 2d6 edited to 1d6, the totals are 1-6 and play rolls one die."""
    units = g("g1", "0303", activated=True) + s("s1", "0304", strength=7)

    def asked_and_rolled(engine):
        ctx = position(engine, units)
        a = answer_ctx(ctx, "attack", ["0304"], {"with": ["g1"]})
        combat.resolve(ctx, ["g1"], "0304", "attack", {})
        [roll] = ctx.trace.of_kind("roll")
        [event] = ctx.trace.of_kind("combat")
        return a, roll, event

    a, roll, event = asked_and_rolled(m41)
    assert [o["roll"] for o in a["outcomes"]] == list(range(2, 13)) and "10.0D" in a["cases"]
    [line] = [ln for ln in a["lines"] if ln["text"].startswith("otherwise 2d6")]
    assert line["cases"] == ["10.0D"] and line["source"].endswith("combat.rules:84")
    assert (roll.data["dice"], list(roll.cases)) == (2, ["10.0D"])
    assert [ln for ln in event.data["lines"] if "10.0D" in ln["cases"]] == [{"source": "combat.rules:84", "cases": ["10.0D"]}]
    eng = edited(tmp_path, "combat.rules", "  otherwise 2d6 by 10.0D\n", "  otherwise 1d6 by 10.0D\n")
    b, roll, event = asked_and_rolled(eng)
    assert [o["roll"] for o in b["outcomes"]] == list(range(1, 7))
    assert [ln["source"] for ln in b["lines"] if ln["text"].startswith("otherwise 1d6")] == [line["source"]]
    assert (roll.data["dice"], list(roll.cases)) == (1, ["10.0D"])
    assert [ln for ln in event.data["lines"] if "10.0D" in ln["cases"]] == [{"source": "combat.rules:84", "cases": ["10.0D"]}]


# -- combat.rules: overrun again --------------------------------------------------------------------
@pytest.mark.case("9.5E")
def test_9_5E_defend_again_line_lets_a_unit_be_overrun_more_than_once(m41, tmp_path):
    """_combat_rules reads `defend_again`: after p1 overran s1 in the Movement Step, p2 may overrun
    it again (9.5E: the permit line, cited); without that line 10.1C's `forbid defend_again`
    refuses the second overrun."""
    from casebook.areas._combat_rules import attack_refusals
    from games.moscow41.tests.test_combat import ARM
    units = g("p1", "0303", kind=ARM, activated=True) + g("p2", "0403", kind=ARM, activated=True) \
        + s("s1", "0304", strength=2)

    def second_overrun(engine):
        ctx = position(engine, units, step="movement")
        combat.resolve(ctx, ["p1"], "0304", "overrun", {}, roll=7)
        return ctx, attack_refusals(ctx, "german", "0304", ["p2"], "overrun")

    ctx, refusals = second_overrun(m41)
    assert refusals == []
    verdict = ctx.permission("defend_again", {"kind": "overrun"})
    [line] = [ln for ln in verdict.lines if ln.fired and ln.kind == "permit"]
    assert verdict.value and line.cases == ("9.5E",) and line.source.endswith("combat.rules:74")
    eng = edited(tmp_path, "combat.rules", "permit defend_again by 9.5E over 10.1C  when kind is overrun\n", "")
    ctx, refusals = second_overrun(eng)
    assert [r.cases for r in refusals] == [("10.1C",)] and "already attacked" in refusals[0].reason
