"""The modder's cookbook (docs/modding.md): every recipe applied to a copy of the Moscow '41 pack's
scripts, compiled by `compile_pack` and evaluated — no Python changed. Each recipe's lines must
appear verbatim in docs/modding.md, so the page and the tests cannot drift apart."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.core.errors import ScriptSyntaxError
from casebook.script import compile_pack, find_rule_pack

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "modding.md").read_text(encoding="utf-8")
FORT = {"side": "soviet", "hex_city": False, "hex_town": False, "hex_road": False, "moscow_distance": 9,
        "hex_supplied": True, "in_german_zoc": False, "combat_unit_present": True, "already_fortified": False}
RECOMBINE = {"regiments": [{"losses": 0, "fatigued": False}, {"losses": 1, "fatigued": False},
                           {"losses": 0, "fatigued": False}], "activated": True, "side": "german",
             "unit_class": "infantry", "unit_size": "regiment", "step": "command", "acting_phasing": True,
             "into_broken_down": True}


def cooked(tmp_path: Path, file: str, *edits: tuple[str, str | None, str], game: str = "moscow41"):
    """Copy the pack and its scripts, apply ``edits`` to ``games/moscow41/rules/<file>`` — each
    ``("replace", old, new)``, ``("after", line, new)`` (insert below ``line``) or
    ``("append", None, new)`` — and compile (``game``: the pack). Each ``new`` must be in
    docs/modding.md."""
    shutil.copytree(ROOT / "games" / game, tmp_path / game, ignore=shutil.ignore_patterns("golden"))
    script = tmp_path / game / "rules" / file
    text = script.read_text(encoding="utf-8")
    for how, old, new in edits:
        if new.strip():
            assert new.strip() in DOC, f"recipe line not in docs/modding.md: {new.strip()}"
        if how == "append":
            text = text.rstrip("\n") + "\n" + new + "\n"
            continue
        assert old is not None and text.count(old) == 1, f"{file}: {old!r} not found once"
        if how == "replace":
            text = text.replace(old, new)
        else:
            text = text.replace(old, old + new + "\n")
    script.write_text(text, encoding="utf-8")
    return compile_pack(find_rule_pack(tmp_path / game))


@pytest.mark.case("5.2B")
def test_recipe_1_shorter_supply_paths_in_mud(tmp_path):
    rules = cooked(tmp_path, "supply.rules", ("after", "  otherwise 8  by 5.2B, 5.2C\n",
                                              "  4            by 5.2B        when ground in [mud, drying]"))
    assert rules.value("supply_path_mp", {}, standard={"ground": "mud"}) == 4
    assert rules.value("supply_path_mp", {}, standard={"ground": "drying"}) == 4
    assert rules.value("supply_path_mp", {}, standard={"ground": "dry"}) == 8


@pytest.mark.case("14.1B")
def test_recipe_2_city_fortifications_cost_2(tmp_path):
    rules = cooked(tmp_path, "fortification.rules", ("replace", "  1 by 14.1B  when hex_city or moscow_distance <= 2",
                                                     "  2 by 14.1B  when hex_city or moscow_distance <= 2"))
    assert rules.value("fort_cost", {**FORT, "hex_city": True}) == 2
    assert rules.value("fort_cost", FORT) == 3


@pytest.mark.case("15.2")
def test_recipe_3_paratroops_on_target_on_5_or_6(tmp_path):
    rules = cooked(tmp_path, "paratroops.rules", ("replace", "  on_target            by 15.2  when drop_roll = 6",
                                                  "  on_target            by 15.2  when drop_roll >= 5"))
    assert [rules.value("drop_outcome", {"drop_roll": r}) for r in range(1, 7)] == [
        "scattered", "scattered", "scattered", "scattered", "on_target", "on_target"]


@pytest.mark.case("15.2")
def test_recipe_4_paratroop_drops_on_two_dice(tmp_path):
    rules = cooked(tmp_path, "paratroops.rules",
                   ("replace", "otherwise 1d6  by 15.2", "otherwise 2d6  by 15.2"),
                   ("replace", "  on_target            by 15.2  when drop_roll = 6",
                    "  on_target            by 15.2  when drop_roll >= 10"))
    assert rules.value("drop_dice", {}) == 2
    assert rules.value("drop_outcome", {"drop_roll": 10}) == "on_target"
    assert rules.value("drop_outcome", {"drop_roll": 9}) == "scattered"


@pytest.mark.case("12.3B")
def test_recipe_5_rebuilds_on_one_die(tmp_path):
    rules = cooked(tmp_path, "reinforcement.rules",
                   ("replace", "  otherwise 2d6  by 12.3B", "  otherwise 1d6  by 12.3B"))
    assert rules.value("rebuild_delay_dice", {}) == 1


@pytest.mark.case("12.3B")
def test_recipe_6_rebuilding_costs_4_rps(tmp_path):
    rules = cooked(tmp_path, "reinforcement.rules", ("replace", "  start 3  by 12.3B", "  start 4  by 12.3B"))
    assert rules.value("rebuild_rp_cost", {}) == 4
    assert rules.value("rebuild_strength", {}) == 6


@pytest.mark.case("13.0E")
def test_recipe_7_no_recombining_in_mud(tmp_path):
    rules = cooked(tmp_path, "breakdown.rules",
                   ("append", None, "forbid recombine  by 13.0E  when ground in [mud, drying]"))
    assert rules.allowed("recombine", RECOMBINE, standard={"ground": "dry"})
    verdict = rules.permission("recombine", RECOMBINE, standard={"ground": "mud"})
    assert verdict.value is False and verdict.cases == ("13.0E",)
    [fired] = [ln for ln in verdict.lines if ln.fired]
    assert fired.source.endswith("breakdown.rules:45") and fired.text == (
        "forbid recombine  by 13.0E  when ground in [mud, drying]")


@pytest.mark.case("14.1E")
def test_recipe_8_fortify_a_city_in_a_german_zoc(tmp_path):
    rules = cooked(tmp_path, "fortification.rules",
                   ("append", None, "permit build_fort  by 14.1B over 14.1E  when hex_city"))
    in_zoc = {**FORT, "in_german_zoc": True}
    assert rules.allowed("build_fort", {**in_zoc, "hex_city": True})
    assert not rules.allowed("build_fort", in_zoc)
    assert not rules.allowed("build_fort", {**in_zoc, "hex_city": True, "hex_supplied": False})   # 14.1C holds
    both = [w.message for w in rules.warnings if "can both fire" in w.message]
    assert both and not [m for m in both if "(14.1E)" in m]   # still warned: the other 14.1 forbids win
    plain = cooked(tmp_path / "without-over", "fortification.rules",
                   ("append", None, "permit build_fort  by 14.1B  when hex_city"))
    assert not plain.allowed("build_fort", {**in_zoc, "hex_city": True})
    assert any("can both fire" in w.message and "write `over 14.1E`" in w.message for w in plain.warnings)


@pytest.mark.case("14.1B")
def test_recipe_9_cheaper_fortifications_late_in_the_war(tmp_path):
    rules = cooked(tmp_path, "fortification.rules",
                   ("after", "quantity fort_cost = first by 14.1B\n", "  1 by 14.1B  when turn >= 20"))
    assert rules.value("fort_cost", FORT, standard={"turn": 20}) == 1
    assert rules.value("fort_cost", FORT, standard={"turn": 19}) == 3


@pytest.mark.case("13.0D")
def test_recipe_10_three_regiments_whatever_the_losses(tmp_path):
    rules = cooked(tmp_path, "breakdown.rules", ("replace", "  2 by 13.0D  when losses = 2\n", ""))
    assert rules.value("breakdown_regiments", {"losses": 2}) == 3
    assert rules.value("breakdown_regiment_losses", {"losses": 2}) == 1


@pytest.mark.case("5.2B", "5.2C")
def test_recipe_11_a_longer_supply_path(tmp_path):
    rules = cooked(tmp_path, "supply.rules",
                   ("replace", "  otherwise 8  by 5.2B, 5.2C", "  otherwise 10  by 5.2B, 5.2C"))
    assert rules.value("supply_path_mp", {}) == 10


@pytest.mark.case("14.1B")
def test_recipe_12_a_rule_that_depends_on_a_setting(tmp_path):
    rules = cooked(tmp_path, "fortification.rules", ("after", "quantity fort_cost = first by 14.1B\n",
                                                     "  1 by 14.1B  when hex_road and road_bridges is river_added"))
    road = {**FORT, "hex_road": True}
    assert rules.value("fort_cost", road, standard={"road_bridges": "river_added"}) == 1
    assert rules.value("fort_cost", road, standard={"road_bridges": "bridged"}) == 2


def test_recipe_16_rules_check_refuses_a_fact_the_callers_never_give(tmp_path):
    with pytest.raises(ScriptSyntaxError) as exc:
        cooked(tmp_path, "supply.rules",
               ("after", "  otherwise 8  by 5.2B, 5.2C\n", "  6 by 5.2C  when side is soviet"))
    [problem] = exc.value.problems
    shown = str(problem).splitlines()[0]
    assert shown.endswith("supply.rules:8:19: supply_path_mp: `side` is never given to quantity `supply_path_mp`: "
                          "its callers give no facts and the standard facts (facts.yaml `inputs:`)")
    assert "games/moscow41/rules/supply.rules:8:19: supply_path_mp: `side` is never given" in DOC


@pytest.mark.case("11.3D")
def test_recipe_27_remnants_count_as_combat_units(tmp_path):
    line = "forbid counts_as_combat_unit by 11.3D  when unit_class is remnant"
    assert line in DOC
    rules = cooked(tmp_path, "zoc.rules", ("replace", line + "\n", ""))
    assert rules.allowed("counts_as_combat_unit", {"unit_class": "remnant"}) is True
    assert rules.allowed("counts_as_combat_unit", {"unit_class": "hq"}) is False
