"""Dice in data (`1d6`, `2d6`) and the `highest` / `lowest` aggregates (issue #15), each used where
Python held the number before: the paratroop drop's and the rebuild delay's dice, BFM's combat
die, and the recombined division's loss (13.0E)."""

from __future__ import annotations

import pytest

from casebook.core.errors import ScriptSyntaxError
from casebook.script import compile_pack, compile_scripts, facts_from_mapping, find_rule_pack

M41 = compile_pack(find_rule_pack("moscow41"))
SCHEMA = facts_from_mapping({"kind": "facts", "facts": {
    "units": {"type": "records", "each": "unit", "fields": {
        "strength": {"type": "int"}, "class": {"type": "enum", "values": ["infantry", "armor"]},
        "name": {"type": "str"}}}}}, "f.yaml")


def rules(text: str):
    return compile_scripts([("t.rules", text)], SCHEMA)


@pytest.mark.case("15.2")
def test_15_2_the_drop_rolls_the_dice_its_script_line_gives():
    """15.2: "the Soviets roll one die to see if the drop is on target" — `otherwise 1d6`."""
    explained = M41.explain("drop_dice", {})
    assert explained.value == 1 and explained.lines[0].text == "otherwise 1d6  by 15.2"


@pytest.mark.case("12.3B")
def test_12_3B_the_rebuild_delay_takes_two_dice_from_its_script_line():
    """12.3B: "Roll two dice and place the unit on the TT"; BM8.4: one die for combat."""
    assert M41.value("rebuild_delay_dice", {}) == 2
    bfm = compile_pack(find_rule_pack("battle_for_moscow"))
    assert bfm.value("combat_dice", {}) == 1   # BM8.4: one die


def test_dice_other_than_one_or_two_d6_are_refused():
    assert rules("quantity d = first by 1.1\n  otherwise 2d6 by 1.1\n").value("d", {}) == 2
    with pytest.raises(ScriptSyntaxError) as exc:
        rules("quantity d = first by 1.1\n  otherwise 3d6 by 1.1\n  1d8 by 1.2\n")
    assert [(p.line, p.column, p.message) for p in exc.value.problems] == [
        (2, 13, "`3d6`: the engine rolls one or two six-sided dice (1d6 or 2d6)"),
        (3, 3, "`1d8`: the engine rolls one or two six-sided dice (1d6 or 2d6)")]


@pytest.mark.case("13.0E")
def test_13_0E_the_recombined_loss_is_the_highest_regiment_loss_plus_the_missing_regiments():
    """13.0E with 13.0D read backwards: three 1-Loss regiments give one loss, two give two."""
    three = {"regiments": [{"losses": 1}, {"losses": 1}, {"losses": 0}]}
    two = {"regiments": [{"losses": 1}, {"losses": 1}]}
    assert M41.value("recombine_losses", three) == 1
    assert M41.value("recombine_losses", two) == 2
    assert M41.value("recombine_losses", {"regiments": [{"losses": 3}, {"losses": 2}]}) == 3   # at most 3 (11.3A)
    facts = {"regiments": [{"losses": 0, "fatigued": False}], "activated": True, "side": "german",
             "unit_class": "infantry", "unit_size": "regiment", "step": "command", "acting_phasing": True,
             "into_broken_down": True}
    verdict = M41.permission("recombine", facts)
    assert verdict.value is False and verdict.cases == ("13.0E",)   # one regiment: count(regiments) < 2


def test_highest_and_lowest_pick_among_matching_records_and_give_0_for_none():
    rs = rules("quantity q = sum by 1.1\n  highest(strength of units having class is armor) by 1.1\n"
               "  -lowest(strength of units) by 1.2\n")
    units = [{"strength": 5, "class": "armor"}, {"strength": 7, "class": "infantry"}, {"strength": 2, "class": "armor"}]
    assert rs.value("q", {"units": units}) == 3
    assert rs.value("q", {"units": []}) == 0
    with pytest.raises(ScriptSyntaxError, match="unknown field `strenght` of `units`; did you mean `strength`"):
        rules("quantity q = sum by 1.1\n  highest(strenght of units) by 1.1\n")
    with pytest.raises(ScriptSyntaxError, match="`lowest` needs a number field; `name` is a text"):
        rules("quantity q = sum by 1.1\n  lowest(name of units) by 1.1\n")
