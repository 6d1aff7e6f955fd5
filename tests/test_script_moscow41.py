"""Moscow '41 rule scripts (games/moscow41/rules/) evaluated against values the rulebook states."""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.core.errors import IllegalActionError
from casebook.script import compile_files, compile_pack, compile_scripts, find_rule_pack, load_facts
from casebook.script.engine import load_engine

PACK = find_rule_pack("moscow41")
RULES = compile_pack(PACK)
SCHEMA = load_facts(PACK.facts)


@pytest.fixture
def pack():
    return PACK


class _WithTables:
    """The compiled rules with the pack's tables given by default (10.4.2A's support lines read the
    IP chart, tables/ip_costs.yaml); everything else as the compiled rules."""

    def __init__(self, rules, tables):
        self._rules, self._tables = rules, tables

    def value(self, name, facts, tables=None, **kw):
        return self._rules.value(name, facts, tables or self._tables, **kw)

    def explain(self, name, facts, tables=None, **kw):
        return self._rules.explain(name, facts, tables or self._tables, **kw)

    def __getattr__(self, name):
        return getattr(self._rules, name)


TABLES = load_engine("moscow41").script_tables


@pytest.fixture(scope="module")
def rs():
    return _WithTables(RULES, TABLES)


def attacker(cls="infantry", **kw):
    base = {"class": cls, "fatigued": False, "supplied": True, "overstacked": False,
            "across_river": False, "across_fortification": False}
    return {**base, **kw}


def defender(cls="infantry", **kw):
    return {"class": cls, "hedgehog": False, **kw}


def attack(**kw):
    facts = {"ground": "dry", "temperature": "warm", "attacker_side": "german", "defender_side": "soviet",
             "attacker_support_ips": 0, "defender_support_ips": 0, "whole_division": False,
             "attackers": [attacker()], "defenders": [defender()]}
    facts.update(kw)
    return facts


def script_line(pack, file: str, startswith: str) -> int:
    lines = (pack.rules_dir / file).read_text().split("\n")
    return next(i for i, ln in enumerate(lines, 1) if ln.strip().startswith(startswith))


@pytest.mark.case("10.4.5C")
def test_10_4_5C_plus_7_against_minus_3_is_plus_4_clamped_after_summing(rs, pack):
    facts = attack(attackers=[attacker("armor")], whole_division=True, attacker_support_ips=6,
                   defenders=[defender("armor", hedgehog=True)])
    e = rs.explain("attack_drm", facts)
    assert e.value == 4  # clamping each side first would give +4 - 3 = +1
    fired = {(ln.cases, ln.amount) for ln in e.lines if ln.fired and ln.kind == "term"}
    assert fired == {(("10.4.1A",), 2), (("10.4.6",), 2), (("10.4.2A",), 3),
                     (("10.4.1B",), -2), (("10.4.7", "14.4C"), -1)}
    assert sum(a for _, a in fired if a > 0) == 7 and sum(a for _, a in fired if a < 0) == -3
    # every term names its source line; the ones that did not fire are listed too
    by_case = {ln.cases: ln for ln in e.lines}
    assert by_case[("10.4.6",)].source.endswith(
        f"combat.rules:{script_line(pack, 'combat.rules', '+2 by 10.4.6')}")
    assert by_case[("10.4.4",)].fired is False
    clamp = e.lines[-1]
    assert clamp.kind == "clamp" and clamp.cases == ("10.4.5C",) and clamp.fired is False
    # +7 alone is limited to +4, by 10.4.5C
    e7 = rs.explain("attack_drm", {**facts, "defenders": [defender()]})
    assert e7.value == 4 and e7.lines[-1].fired and e7.lines[-1].note == "7 → 4"


@pytest.mark.case("10.4.5C")
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_10_4_5C_clamp_applies_once_to_the_net_sum_whatever_the_order(amounts, rnd):
    def value(order):
        text = "quantity drm = sum by 10.4.5B\n" + "".join(f"  {a:+d} by 10.4.1A\n" for a in order) \
            + "  clamp -4 to +4 by 10.4.5C\n"
        return compile_scripts([("p.rules", text)], SCHEMA).value("drm", {})
    shuffled = list(amounts)
    rnd.shuffle(shuffled)
    expected = max(-4, min(4, sum(amounts)))
    assert value(amounts) == expected == value(shuffled)


@pytest.mark.case("10.4.5C")
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_10_4_5C_attack_drm_is_the_clamped_sum_of_the_terms_that_fired(seed):
    rs = _WithTables(RULES, TABLES)
    r = random.Random(seed)
    classes = ["infantry", "armor", "mechanized", "ski", "cavalry"]
    facts = attack(
        ground=r.choice(["dry", "mud", "drying", "snow", "deep_snow", "frozen"]),
        temperature=r.choice(["warm", "cold", "arctic"]),
        attacker_side=r.choice(["german", "soviet"]), defender_side=r.choice(["german", "soviet"]),
        attacker_support_ips=r.randint(0, 12), defender_support_ips=r.randint(0, 12),
        whole_division=r.random() < 0.3,
        attackers=[attacker(r.choice(classes), fatigued=r.random() < .3, supplied=r.random() < .7,
                            across_river=r.random() < .5) for _ in range(r.randint(1, 3))],
        defenders=[defender(r.choice(classes), hedgehog=r.random() < .2) for _ in range(r.randint(1, 2))],
    )
    e = rs.explain("attack_drm", facts)
    net = sum(ln.amount for ln in e.lines if ln.fired and ln.kind in ("term", "group"))
    assert e.value == max(-4, min(4, net)) == rs.value("attack_drm", facts)


@pytest.mark.case("10.4.1A")
def test_10_4_1A_editing_the_script_changes_the_value(tmp_path, pack):
    rules_dir = tmp_path / "moscow41"
    shutil.copytree(pack.rules_dir, rules_dir)
    combat = rules_dir / "combat.rules"
    text = combat.read_text()
    assert "+2 by 10.4.1A" in text
    combat.write_text(text.replace("+2 by 10.4.1A", "+3 by 10.4.1A"))
    facts = attack(attackers=[attacker("armor")])
    before = compile_pack(pack).value("attack_drm", facts)
    after = compile_files([rules_dir / f.name for f in pack.files], load_facts(rules_dir / "facts.yaml"),
                          pack.cases).value("attack_drm", facts)
    assert (before, after) == (2, 3)


@pytest.mark.case("4.6A")
def test_4_6A_arctic_with_snow_only_the_most_severe_applies(rs):
    e = rs.explain("attack_drm", attack(ground="snow", temperature="arctic"))
    assert e.value == -4
    group = next(ln for ln in e.lines if ln.kind == "group")
    assert group.cases == ("4.6A",) and group.amount == -4
    assert [(m.cases, m.fired, m.won) for m in group.members if m.fired] == [
        (("4.4F",), True, False), (("4.6A",), True, True)]
    assert rs.value("attack_drm", attack(ground="deep_snow", temperature="arctic",
                                         attacker_side="soviet", defender_side="german")) == -3
    assert rs.value("force_march_drm", {"ground": "deep_snow", "temperature": "arctic", "supplied": True}) == -4


@pytest.mark.case("4.4F", "4.5H")
def test_4_4F_4_5H_snow_penalty_except_attacks_made_solely_by_ski_units(rs):
    assert rs.value("attack_drm", attack(ground="snow")) == -1
    assert rs.value("attack_drm", attack(ground="deep_snow")) == -2
    assert rs.value("attack_drm", attack(ground="snow", attackers=[attacker("ski")])) == 0
    assert rs.value("attack_drm", attack(ground="deep_snow",
                                         attackers=[attacker("ski"), attacker("infantry")])) == -2


@pytest.mark.case("4.3H", "5.7D", "10.4.4", "10.4.8", "6.2D")
def test_attack_drms_of_mud_supply_fatigue_river_overstacking(rs):
    assert rs.value("attack_drm", attack(ground="mud")) == -2
    assert rs.value("attack_drm", attack(ground="drying")) == -2  # 3.1B
    assert rs.value("attack_drm", attack(attackers=[attacker(supplied=False), attacker()])) == -2
    assert rs.value("attack_drm", attack(attackers=[attacker(fatigued=True)])) == -1
    assert rs.value("attack_drm", attack(attackers=[attacker(overstacked=True)])) == -1
    both = [attacker(across_river=True), attacker(across_river=True)]
    assert rs.value("attack_drm", attack(attackers=both)) == -1
    assert rs.value("attack_drm", attack(attackers=[both[0], attacker()])) == 0


@pytest.mark.case("10.4.2A")
def test_10_4_2A_combat_support_per_2_german_or_3_soviet_ips(rs):
    assert rs.value("attack_drm", attack(attacker_support_ips=5)) == 2
    assert rs.value("attack_drm", attack(attacker_side="soviet", defender_side="german",
                                         attacker_support_ips=5, defender_support_ips=4)) == -1
    assert rs.value("ip_cost", {"ip_use": "combat_support", "side": "soviet", "support_drm": 2},
                    load_engine("moscow41").script_tables) == 6   # the IP chart's cell (0.2.2.6)


@pytest.mark.case("1.3B", "4.3B", "4.3C", "4.4A", "4.5A", "4.5B")
def test_1_3B_weather_multiplies_new_ips_rounded_down(rs):
    def income(side, ground):
        return rs.value("ip_income", {"new_ips": 13, "side": side, "ground": ground})
    assert income("german", "mud") == 6  # 13 × ½ = 6.5
    assert income("soviet", "mud") == 8  # 13 × ⅔ = 8.67
    assert income("german", "snow") == 8
    assert income("soviet", "snow") == 13
    assert income("german", "deep_snow") == 6
    assert income("soviet", "deep_snow") == 8
    assert income("german", "dry") == 13
    e = rs.explain("ip_income", {"new_ips": 13, "side": "german", "ground": "mud"})
    assert e.cases == ("1.0A", "1.3B", "4.3B", "3.1B", "1.3A")


@pytest.mark.case("1.4", "0.7.1.3B")
def test_1_4_ips_capped_at_99_and_germans_win_ties(rs):
    facts = {"new_ips": 60, "side": "german", "ground": "dry", "ip_roll": 6, "ip_previous": 40}
    assert rs.value("ip_available", facts) == 99
    assert rs.value("initiative", {"turn": 5, "german_ips": 20, "soviet_ips": 20}) == "german"
    assert rs.value("initiative", {"turn": 5, "german_ips": 19, "soviet_ips": 20}) == "soviet"
    assert rs.value("initiative", {"turn": 1, "german_ips": 1, "soviet_ips": 20}) == "german"


@pytest.mark.case("2.1A")
def test_2_1A_hq_activation_cost_by_supply(rs):
    def cost(side, supplied):
        return rs.value("ip_cost", {"ip_use": "activate_hq", "side": side, "supplied": supplied},
                        load_engine("moscow41").script_tables)
    assert (cost("german", True), cost("german", False), cost("soviet", False)) == (1, 2, 3)


@pytest.mark.case("4.3D", "4.5C", "5.7B", "9.3", "9.7")
def test_9_3_ma_halvings_are_cumulative_rounded_down_never_below_a_quarter(rs):
    def ma(printed, ground="dry", supplied=True, reaction=False):
        return rs.value("ma", {"printed_ma": printed, "ground": ground, "supplied": supplied,
                               "reaction": reaction})
    assert ma(8, "mud") == 4
    assert ma(7, "deep_snow") == 3
    assert ma(8, "mud", supplied=False) == 2
    assert ma(3, "mud", supplied=False) == 1  # 4.3D: at least 1
    assert ma(12, "mud", supplied=False, reaction=True) == 3  # 12/8 → 1, but ¼ of 12 is 3
    assert ma(8, reaction=True) == 4  # 9.7


@pytest.mark.case("4.3G", "4.4D", "4.5F", "5.7C")
def test_force_march_drms(rs):
    def drm(ground, temperature="cold", supplied=True):
        return rs.value("force_march_drm", {"ground": ground, "temperature": temperature, "supplied": supplied})
    assert (drm("mud", "warm"), drm("snow"), drm("deep_snow"), drm("dry", "arctic")) == (-3, -2, -3, -4)
    assert drm("mud", "warm", supplied=False) == -5


@pytest.mark.case("6.0A", "6.0B", "6.1")
def test_6_0_stacking_points_fit_the_stated_mixes(rs):
    def pts(side, size, cls="infantry"):
        return rs.value("stacking_points", {"side": side, "unit_size": size, "unit_class": cls})
    german_limit = rs.value("stacking_limit", {"side": "german"})
    soviet_limit = rs.value("stacking_limit", {"side": "soviet"})
    assert pts("german", "division") + pts("german", "regiment") <= german_limit
    assert 4 * pts("german", "regiment") <= german_limit
    assert 2 * pts("german", "division") > german_limit
    assert 2 * pts("soviet", "division") + pts("soviet", "brigade") <= soviet_limit
    assert 3 * pts("soviet", "division") > soviet_limit
    assert pts("soviet", "none", "hq") == 0


@pytest.mark.case("6.1", "10.6A", "10.7C", "14.2C", "14.4D")
def test_combat_strength_bonuses(rs):
    def unit(cls="infantry", strength=6, guards=False, hedgehog=False):
        return {"class": cls, "strength": strength, "guards": guards, "printed_guards": False, "hedgehog": hedgehog}
    def cs(units, attacking=False, fortified=False):
        return rs.value("combat_strength", {"units": units, "attacking": attacking, "fortified": fortified})
    assert cs([unit(guards=True), unit(), unit("hq", 0), unit("hq", 0)], fortified=True) == 6 + 1 + 6 + 1 + 1
    assert cs([unit("hq", 0)]) == 1  # 10.6A: HQs alone defend at 1
    assert cs([unit(strength=5, hedgehog=True)], attacking=True, fortified=True) == pytest.approx(2.5)


@pytest.mark.case("3.1A", "3.2", "3.3A", "3.4A", "3.4B", "3.5A", "3.5C")
def test_3_x_ground_transitions(rs):
    def ground(prev, temp, table, precip=False):
        return rs.value("ground_condition", {"previous_ground": prev, "temperature": temp,
                                             "table_ground": table, "precipitation": precip})
    assert ground("snow", "warm", "dry") == "mud"  # 3.4A
    assert ground("deep_snow", "warm", "dry") == "snow"  # 3.4B
    assert ground("snow", "cold", "snow", True) == "deep_snow"  # 3.3A
    assert ground("snow", "cold", "mud", True) == "snow"  # 3.2
    assert ground("mud", "warm", "dry") == "drying"  # 3.1A
    assert ground("drying", "warm", "dry") == "dry"  # 3.1B
    assert ground("dry", "cold", "dry") == "frozen"  # 3.5A
    assert ground("frozen", "warm", "snow", True) == "mud"  # 3.5C
    assert ground("dry", "cold", "snow", True) == "snow"  # the table


@pytest.mark.case("4.4E", "4.5G", "9.9A")
def test_rail_capacity(rs):
    assert [rs.value("rail_capacity", {"ground": g}) for g in ("dry", "mud", "snow", "deep_snow")] == [3, 3, 2, 1]


@pytest.mark.case("9.8B", "4.6A")
def test_permissions_name_their_cases(rs):
    facts = {"reaction": False, "unactivated": True, "moved_by_rail": False, "spent_all_mp": False}
    with pytest.raises(IllegalActionError) as exc:
        rs.require("force_march", facts)
    assert exc.value.cases == ("9.8B",)
    assert rs.allowed("force_march", {**facts, "unactivated": False})
    assert not rs.allowed("exert_zoc", {"temperature": "arctic", "unit_class": "infantry"})
    assert rs.permission("exert_zoc", {"temperature": "arctic", "unit_class": "infantry"}).cases == ("4.6A", "7.1C")
