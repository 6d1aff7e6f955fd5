"""Moscow '41 combat (10.0-10.7, 2.3, 0.7.3.3, 0.7.3.5) on small inline maps.

Layout flat-top-even-q: 0303 (odd column) touches 0302, 0304, 0202, 0203, 0402, 0403.
Supply, command and ZOC come from a fake (games/moscow41/tests/_fakes.py) so each test sets them.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.areas import combat
from casebook.areas._combat_odds import odds_column, shifted_column
from casebook.core.actions import Action
from games.moscow41.tests._fakes import FakeAreasWithStacking as FakeAreas
from games.moscow41.tests._fakes import engine_with
from tests.conftest import m41_inline, make_ctx

INF = "class: infantry, size: division, strength: 7, ma: 4"
SINF = "class: infantry, size: division, strength: 6, ma: 4"
ARM = "class: armor, size: regiment, strength: 4, ma: 8"


FAKE = FakeAreas()
STACK = FAKE


@pytest.fixture(scope="module")
def engine(m41):
    return engine_with(m41, fake_combat=FAKE)


@pytest.fixture
def pos(engine):
    FAKE.reset()

    def make(units: str, step: str = "combat", phasing: str = "german", ip: str = "{german: 10, soviet: 9}",
             extra: str = "", weather: str = "{temperature: warm, ground: dry}", turn: int = 3):
        text = m41_inline(units, step=step, phasing=phasing, ip=ip, extra=extra, weather=weather, turn=turn)
        return make_ctx(engine, text, trace=True)
    return make


def _unit(side, uid, hex_, kind, more):
    fields = dict(part.split(": ", 1) for part in kind.split(", "))
    fields.update({k: json.dumps(v) if isinstance(v, str) else str(v).lower() for k, v in more.items()})
    body = ", ".join(f"{k}: {v}" for k, v in fields.items())
    return f'  - {{id: {uid}, side: {side}, {body}, hex: "{hex_}"}}\n'


def g(uid, hex_, kind=INF, **more):
    return _unit("german", uid, hex_, kind, more)


def s(uid, hex_, kind=SINF, **more):
    return _unit("soviet", uid, hex_, kind, more)


def terms(answer):
    return {t["case"]: t["value"] for t in answer["drm"]["terms"]}


# ---------------------------------------------------------------------------- 10.0, 10.3: odds
@pytest.mark.case("10.0A", "10.3A")
def test_10_0A_strengths_of_all_attackers_are_totalled(pos):
    ctx = pos(g("g1", "0303", activated=True) + g("g2", "0403", ARM, activated=True) + s("s1", "0304"))
    a = combat.attack_answer(ctx, "0304", ["g1", "g2"])
    assert (a["attack_strength"], a["defense_strength"], a["ratio"]) == (11, 6, "11/6")


@pytest.mark.case("10.0B")
def test_10_0B_odds_are_rounded_in_the_defenders_favour(pos):
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304"))
    assert odds_column(ctx, Fraction(11), Fraction(6))[1] == "3:2"   # 1.83 is not yet 2:1
    assert odds_column(ctx, Fraction(12), Fraction(6))[1] == "2:1"
    assert odds_column(ctx, Fraction(5), Fraction(6))[1] == "1:2"    # 0.83 is not yet 1:1
    assert odds_column(ctx, Fraction(1), Fraction(9))[1] == "1:3"    # below the table: its first column
    assert odds_column(ctx, Fraction(50), Fraction(1))[1] == "6:1"


@pytest.mark.case("10.3B", "10.3C")
def test_10_3B_a_1_loss_and_a_2_loss_attacker_shift_two_columns_left(pos):
    # the rulebook's example: only the largest Loss marker counts (10.3C)
    ctx = pos(g("g1", "0303", activated=True, losses=1) + g("g2", "0403", activated=True, losses=2)
              + s("s1", "0304", strength=7))
    a = combat.attack_answer(ctx, "0304", ["g1", "g2"])
    assert a["basic_column"] == "2:1" and a["column_shift"] == -2 and a["column"] == "1:1"


@pytest.mark.case("10.3B")
def test_10_3B_defender_loss_markers_shift_right(pos):
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304", strength=7, losses=1))
    a = combat.attack_answer(ctx, "0304", ["g1"])
    assert (a["basic_column"], a["column_shift"], a["column"]) == ("1:1", 1, "3:2")


@pytest.mark.case("10.3B")
def test_10_3B_a_shift_past_the_edge_stays_on_the_edge_column(pos):
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304"))
    assert shifted_column(ctx, 0, -2) == (0, "1:3")
    assert shifted_column(ctx, 8, 3) == (8, "6:1")


@pytest.mark.case("10.3A")
def test_10_3A_hedgehog_halving_is_summed_before_the_ratio(pos):
    # 14.4D: 7/2 + 4 = 15/2 against 5 is exactly 3:2; halving rounded per unit (3 + 4 = 7) would give 1:1
    ctx = pos(g("g1", "0303", activated=True, hedgehog=True) + g("g2", "0403", ARM, activated=True)
              + s("s1", "0304", strength=5))
    a = combat.attack_answer(ctx, "0304", ["g1", "g2"])
    assert a["attack_strength"] == "15/2" and a["column"] == "3:2"


# ---------------------------------------------------------------------------- 10.4: DRMs
@pytest.mark.case("10.4A", "10.4B", "10.4.1A", "10.4.1B")
def test_10_4_1A_armor_attacking_plus_2_defending_minus_2(pos):
    ctx = pos(g("g2", "0403", ARM, activated=True) + s("s1", "0304", "class: armor, size: brigade, strength: 3, ma: 6"))
    a = combat.attack_answer(ctx, "0304", ["g2"])
    assert terms(a) == {"10.4.1A": 2, "10.4.1B": -2} and a["drm"]["net"] == 0


@pytest.mark.case("10.4.3", "10.4.4", "10.4.5A", "10.2")
def test_10_4_4_fatigue_overstacking_and_supply_at_the_instant_of_combat(pos):
    ctx = pos(g("g1", "0303", activated=True, fatigued=True) + s("s1", "0304"))
    STACK.over.add("0303")
    FAKE.unsupplied.add("g1")
    a = combat.attack_answer(ctx, "0304", ["g1"])
    assert terms(a) == {"10.4.4": -1, "6.2D, 10.4.3": -1, "5.7D, 10.4.5A": -2} and a["drm"]["net"] == -4
    FAKE.unsupplied.clear()  # 10.2: restored to supply before its combat, no -2
    ctx.changed()  # a test double's change the state cannot see: the facts kept for the version are stale
    assert "5.7D, 10.4.5A" not in terms(combat.attack_answer(ctx, "0304", ["g1"]))


@pytest.mark.case("10.4.5B", "10.4.5C", "10.4.6", "10.4.7", "10.4.2A")
def test_10_4_5C_plus_7_against_minus_3_is_plus_4(pos):
    # +2 armor, +2 whole panzer division, +3 support (6 German IPs) against -2 armor, -1 fortified
    units = "".join(f'  - {{counter: {c}, hex: "{h}", activated: true}}\n'
                    for c, h in (("g-6pz-11", "0303"), ("g-6pz-4", "0403"), ("g-6pz-114", "0203")))
    ctx = pos(units + s("s1", "0304", "class: armor, size: brigade, strength: 3, ma: 6"))
    ctx.state.add_marker("fortification", "0304")
    a = combat.attack_answer(ctx, "0304", ["g-6pz-11", "g-6pz-4", "g-6pz-114"], support=(6, 0))
    assert terms(a) == {"10.4.1A": 2, "10.4.6": 2, "10.4.2A": 3, "10.4.1B": -2, "10.4.7, 14.2C": -1}
    assert (a["drm"]["raw"], a["drm"]["net"]) == (4, 4)
    b = combat.attack_answer(ctx, "0304", ["g-6pz-11", "g-6pz-4", "g-6pz-114"], support=(6, 0))
    assert b == a


@pytest.mark.case("10.4.5C")
@settings(max_examples=20, deadline=None)
@given(st.permutations(["g-6pz-11", "g-6pz-4", "g-6pz-114", "g1"]))
def test_10_4_5C_the_clamp_does_not_depend_on_the_order_of_attackers(engine, order):
    FAKE.reset()
    units = "".join(f'  - {{counter: {c}, hex: "{h}", activated: true}}\n'
                    for c, h in (("g-6pz-11", "0303"), ("g-6pz-4", "0403"), ("g-6pz-114", "0203")))
    text = ("kind: position\nformat: 1\ngame: moscow41\nmap: {layout: flat-top-even-q, size: {columns: 8, rows: 8},"
            " terrain: {default: clear}}\nweather: {temperature: warm, ground: dry}\nphase: first_player\n"
            "step: combat\nphasing: german\nip: {german: 20, soviet: 0}\nunits:\n" + units
            + g("g1", "0305", activated=True, fatigued=True) + s("s1", "0304"))
    ctx = make_ctx(engine, text)
    a = combat.attack_answer(ctx, "0304", list(order), support=(12, 0))
    assert a["drm"]["raw"] == 2 + 2 + 6 - 1 and a["drm"]["net"] == 4


@pytest.mark.case("10.4.8")
def test_10_4_8_all_attackers_across_a_river(pos):
    river = 'hexsides: [{hexes: ["0303", "0304"], river: true}, {hexes: ["0403", "0304"], river: true}]'
    ctx = pos(g("g1", "0303", activated=True) + g("g2", "0403", activated=True) + s("s1", "0304"),
              extra=f"  {river}")
    assert terms(combat.attack_answer(ctx, "0304", ["g1", "g2"])) == {"10.4.8": -1}
    ctx2 = pos(g("g1", "0303", activated=True) + g("g2", "0403", activated=True) + s("s1", "0304"),
               extra='  hexsides: [{hexes: ["0303", "0304"], river: true}]')
    assert terms(combat.attack_answer(ctx2, "0304", ["g1", "g2"])) == {}


@pytest.mark.case("10.4.2B", "2.3B")
def test_10_4_2B_attacker_support_needs_supply_and_command(pos):
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304"))
    assert combat.attack_answer(ctx, "0304", ["g1"], support=(2, 0))["legal"]
    FAKE.out_of_command.add("g1")
    a = combat.attack_answer(ctx, "0304", ["g1"], support=(2, 0))
    assert not a["legal"] and a["refusals"][0]["cases"] == ["2.3B", "2.3C", "10.4.2B", "8.4B"]


@pytest.mark.case("10.4.2B", "2.3B")
def test_10_4_2B_support_refusal_names_each_unit_and_what_it_lacks(pos):
    ctx = pos(g("g1", "0303", activated=True) + g("g2", "0305", activated=True) + g("g3", "0403", activated=True)
              + s("s1", "0304"))
    FAKE.out_of_command.add("g1")
    FAKE.unsupplied.add("g2")
    a = combat.attack_answer(ctx, "0304", ["g1", "g2", "g3"], support=(2, 0))
    assert [r["reason"] for r in a["refusals"]] == [
        "combat support needs every attacking unit in supply and in command: g1 not in command; g2 out of supply"]
    FAKE.out_of_command.add("g2")  # both conditions of one unit; the same words by `why` (one path)
    why = ctx.hook.casebook_validate_action(ctx=ctx, action=Action.make("attack", "german", hex="0304", support=2,
                                                                         **{"with": ["g2"]}))
    assert [r.reason for lst in why for r in lst] == [
        "combat support needs every attacking unit in supply and in command: g2 out of supply and not in command"]


# ---------------------------------------------------------------------------- 10.1: eligibility
@pytest.mark.case("10.1A", "0.7.3.3A")
def test_10_1A_only_activated_or_reserve_units_attack(pos):
    ctx = pos(g("g1", "0303") + g("g2", "0403", reserve=True) + g("g3", "0305", activated=True) + s("s1", "0304"))
    a = combat.attack_answer(ctx, "0304", ["g1"])
    assert not a["legal"] and a["refusals"][0]["cases"] == ["10.1A", "0.7.3.3A"]
    alone = combat.attack_answer(ctx, "0304", ["g2"])  # a Reserve unit needs a currently activated partner
    assert not alone["legal"] and alone["refusals"][0]["cases"] == ["10.1A"]
    assert combat.attack_answer(ctx, "0304", ["g2", "g3"])["legal"]


@pytest.mark.case("10.1B")
def test_10_1B_attackers_must_be_adjacent(pos):
    ctx = pos(g("g1", "0302", activated=True) + s("s1", "0304"))
    a = combat.attack_answer(ctx, "0304", ["g1"])
    assert a["refusals"] == [{"reason": "g1 is not adjacent to 0304", "cases": ["10.1B"]}]


@pytest.mark.case("10.1C", "0.7.3.3A")
def test_10_1C_no_unit_attacks_or_is_attacked_twice_in_a_step(pos):
    ctx = pos(g("g1", "0303", activated=True) + g("g2", "0403", reserve=True) + g("g3", "0305", activated=True)
              + s("s1", "0304", strength=30), ip="{german: 0, soviet: 0}")
    result = ctx.hook.casebook_apply_action(ctx=ctx, action=Action.make("attack", "german", hex="0304",
                                                                        support=0, **{"with": ["g1", "g2"]}))
    assert result["result"] and result["attackers"] == ["g1", "g2"]  # no IP: no support was asked
    assert "reserve" not in ctx.state.unit("g2")             # 0.7.3.3A: Reserve marker removed
    again = combat.attack_answer(ctx, "0304", ["g3"])
    # 10.1C, and first 10.0F: the first attack's result awaits its decisions (the ask answers as play refuses)
    assert {c for r in again["refusals"] for c in r["cases"]} == {"10.0F", "10.1C"}
    twice = [r["cases"] for r in combat.attack_answer(ctx, "0304", ["g1"])["refusals"]]
    assert twice[0] == ["10.0F"] and set(map(tuple, twice[1:])) == {("10.1C",)}  # g1 attacked, 0304 attacked


@pytest.mark.case("0.7.3.3B")
def test_0_7_3_3B_unused_activated_units_become_reserves_at_step_end(pos):
    ctx = pos(g("g1", "0303", activated=True) + g("g3", "0606", activated=True) + s("s1", "0304", strength=30),
              ip="{german: 0, soviet: 0}")
    ctx.hook.casebook_apply_action(ctx=ctx, action=Action.make("attack", "german", hex="0304", support=0,
                                                               **{"with": ["g1"]}))
    ctx.hook.casebook_step_end(ctx=ctx, phase="first_player", step="combat")
    assert ctx.state.unit("g3").get("reserve") is True and not ctx.state.unit("g1").get("reserve")


# ---------------------------------------------------------------------------- steps, support
@pytest.mark.case("10.0C", "10.4.2A", "2.3A", "2.3C")
def test_10_0C_attacker_announces_then_the_defender_buys_support(pos):
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304"), ip="{german: 10, soviet: 9}")
    legal = ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step="combat")
    attacks = [a for lst in legal for a in lst if a.kind == "attack"]
    assert [a.get("support") for a in attacks] == [0, 8]  # +4 is the most that still counts (10.4.5C)
    ctx.hook.casebook_apply_action(ctx=ctx, action=attacks[1])
    assert ctx.hook.casebook_decider(ctx=ctx, phase="first_player", step="combat") == "soviet"
    offers = [a for lst in ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step="combat")
              for a in lst if a.kind == "support"]
    assert [a.get("ips") for a in offers] == [0, 9]
    FAKE.unsupplied.add("s1")  # 2.3C: the defender must be in supply to be supported
    refusal = ctx.hook.casebook_validate_action(ctx=ctx, action=offers[1])
    assert [r.cases for lst in refusal for r in lst] == [("2.3C", "10.4.2B")]
    FAKE.unsupplied.clear()
    out = ctx.hook.casebook_apply_action(ctx=ctx, action=Action.make("support", "soviet", ips=3))
    assert out["support"] == {"attacker": 8, "defender": 3}
    assert (ctx.state.track("ip", "german"), ctx.state.track("ip", "soviet")) == (2, 6)
    assert out["drm"]["net"] == 4 - 1 and out["modified_roll"] == out["roll"] + 3


@pytest.mark.case("10.0D", "10.0E")
def test_10_0E_the_modified_roll_reads_the_shifted_column(pos):
    ctx = pos(g("g2", "0403", ARM, activated=True) + s("s1", "0304", strength=4))
    a = combat.attack_answer(ctx, "0304", ["g2"], roll=7)
    assert a["column"] == "1:1" and a["drm"]["net"] == 2
    assert a["result"] == {"roll": 7, "modified_roll": 9, "result": ctx.table("crt").lookup(odds="1:1", roll=9),
                           "guards": False}
    assert [o["roll"] for o in a["outcomes"]] == list(range(2, 13))
    assert a["outcomes"][5] == {"roll": 7, "probability": "1/6", "result": a["result"]["result"]}


@pytest.mark.case("10.5A", "10.5B", "10.5C", "0.7.3.5A", "0.7.3.5B")
def test_10_5A_reaction_attack_by_two_stacks_pays_one_ip_per_stack(pos):
    ctx = pos(g("g1", "0304", activated=True) + s("s1", "0303") + s("s2", "0305") + s("s3", "0404", activated=True),
              step="reaction_attacks", ip="{german: 0, soviet: 5}")
    assert ctx.hook.casebook_decider(ctx=ctx, phase="first_player", step="reaction_attacks") == "soviet"
    legal = [a for lst in ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step="reaction_attacks")
             for a in lst]
    attack = next(a for a in legal if a.kind == "attack")
    assert attack.get("with") == ("s1", "s2") and attack.get("hex") == "0304"  # s3 moved in reaction: not again
    assert combat.attack_answer(ctx, "0304", ["s3"])["refusals"][0]["cases"] == ["10.1A", "2.0"]
    out = ctx.hook.casebook_apply_action(ctx=ctx, action=attack)
    assert ctx.state.track("ip", "soviet") == 5 - 2 - attack.get("support")
    assert out["kind"] == "reaction" and out["result"]
    assert all(ctx.state.unit(u).get("activated") for u in ("s1", "s2") if ctx.state.has_unit(u))


@pytest.mark.case("0.7.3.5A")
def test_0_7_3_5A_no_soviet_reaction_attack_on_turn_1(pos):
    ctx = pos(g("g1", "0304") + s("s1", "0303"), step="reaction_attacks", turn=1)
    a = combat.attack_answer(ctx, "0304", ["s1"])
    assert not a["legal"] and a["refusals"][0]["cases"] == ["2.4B"]


# ---------------------------------------------------------------------------- 10.6, 10.7
@pytest.mark.case("10.6A")
def test_10_6A_hq_adds_one_and_alone_defends_at_one(pos):
    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304") + s("h1", "0304", "class: hq, ma: 4, radius: 3")
              + s("h2", "0302", "class: hq, ma: 4, radius: 3"))
    assert combat.attack_answer(ctx, "0304", ["g1"])["defense_strength"] == 7
    lone = combat.attack_answer(ctx, "0302", ["g1"])
    assert lone["defense_strength"] == 1 and lone["column"] == "6:1"


@pytest.mark.case("10.7A", "10.7B", "10.7C")
def test_10_7A_unmodified_12_notes_a_guards_candidate_raised_for_2_ips(pos):
    ctx = pos(g("g1", "0304", strength=30) + s("s1", "0303", activated=True) + s("s2", "0305", activated=True, strength=5),
              phasing="soviet", ip="{german: 0, soviet: 5}")
    out = combat.resolve(ctx, ["s1", "s2"], "0304", "attack", {}, roll=12)
    assert out["guards_noted"] == "s1"           # the strongest participating combat unit
    ctx.state.set_sequence_position("second_initiative", "replacement_reinforcement", "soviet")
    legal = combat.raise_actions(ctx, "replacement_reinforcement")
    assert legal == [Action.make("raise-guards", "soviet", unit="s1")]
    ctx.hook.casebook_apply_action(ctx=ctx, action=legal[0])
    assert ctx.state.track("ip", "soviet") == 3 and ctx.state.unit("s1")["guards"] is True
    # 10.7C: +1 strength from the marker
    ctx.state.set_sequence_position("first_player", "combat", "soviet")
    assert combat.assess(ctx, ["s1"], "0304")["attack_strength"] == 7
    # 10.7B: a German 2 notes a unit; not raised in the step, the candidacy lapses
    combat.resolve(ctx, ["g1"], "0303", "overrun", {}, roll=2) if ctx.state.has_unit("s1") else None
    ctx.state.set_sequence_position("second_initiative", "replacement_reinforcement", "soviet")
    ctx.hook.casebook_step_end(ctx=ctx, phase="second_initiative", step="replacement_reinforcement")
    assert combat.raise_actions(ctx, "replacement_reinforcement") == []


# ---------------------------------------------------------------------------- ask snapshot
def test_ask_attack_json_snapshot(repo_root, snapshot):
    from casebook.tools.cmd_ask import ask_position
    answer = ask_position(str(repo_root / "docs/examples/attack.yaml"), "attack", ["0304"],
                          {"with": ["g1", "g2"], "support": [2, 0], "roll": 8})
    assert answer == snapshot


@pytest.mark.case("10.4B")
def test_10_4B_terrain_modifier_of_the_defenders_hex(position):
    """10.4B: terrain modifiers apply when the defender occupies the terrain listed on the Combat
    Modifiers Chart (forest -1 in the reconstructed chart); clear terrain adds nothing."""
    from casebook.areas._combat_odds import gather, terrain_drm

    text = """kind: position
format: 1
game: moscow41
map: {layout: flat-top-even-q, size: {columns: 4, rows: 4}, terrain: {default: clear, "0203": forest}}
turn: 2
weather: {temperature: warm, ground: dry}
units:
  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0202"}
  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0203"}
  - {id: s2, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0303"}
"""
    ctx = position(text)
    forest = next(r["drm"] for r in ctx.records("combat_modifiers") if r["id"] == "terrain_forest")
    assert terrain_drm(ctx, "0203") == forest == -1 and terrain_drm(ctx, "0303") == 0
    in_forest = ctx.quantity("attack_drm", gather(ctx, ["g1"], "0203").drm_facts)
    in_clear = ctx.quantity("attack_drm", gather(ctx, ["g1"], "0303").drm_facts)
    assert in_forest.value == in_clear.value - 1
    fired = [line for line in in_forest.lines if "10.4B" in line.cases and line.fired]
    assert fired and fired[0].amount == -1


@pytest.mark.case("10.4B")
def test_10_4B_the_drm_lines_are_told_the_defender_hex_terrain_and_town(pos):
    from casebook.areas._combat_odds import gather

    ctx = pos(g("g1", "0303", activated=True) + s("s1", "0304") + s("s2", "0404"),
              extra='  towns: {"0404": {name: Testgrad, kind: city, ip: 1}}')
    clear, city = gather(ctx, ["g1"], "0304").drm_facts, gather(ctx, ["g1"], "0404").drm_facts
    assert (clear["defender_terrain"], clear["defender_town"], clear["defender_terrain_drm"]) == ("clear", "none", 0)
    # a city replaces the hex terrain on the Combat Modifiers Chart (terrain_city: -2)
    assert (city["defender_terrain"], city["defender_town"], city["defender_terrain_drm"]) == ("clear", "city", -2)


@pytest.mark.case("10.4.2A", "10.3A")
def test_10_4_2A_each_support_amount_reads_the_facts_kept_for_the_state_version(position):
    """The combat area keeps an attack's facts but its support per state version (the planner
    weighs every support amount of an attack): each amount's facts equal a fresh engine's, only
    the support IPs differ (the German buys 1 DRM per 2 IPs, 10.4.2A), an overrun is given none,
    and a change of the position (a new version) is read afresh (10.3A: the new strength)."""
    from casebook.areas._combat_odds import gather

    text = """kind: position
format: 1
game: moscow41
map: {layout: flat-top-even-q, size: {columns: 4, rows: 4}, terrain: {default: clear}}
turn: 2
weather: {temperature: warm, ground: dry}
units:
  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0202"}
  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0203"}
"""
    ctx = position(text)
    plain, four = gather(ctx, ["g1"], "0203"), gather(ctx, ["g1"], "0203", {"attacker": 4, "defender": 3})
    fresh = gather(position(text), ["g1"], "0203", {"attacker": 4, "defender": 3})
    assert (four.attack_strength, four.defense_strength) == (plain.attack_strength, plain.defense_strength) == (7, 6)
    assert dict(four.drm_facts) == dict(fresh.drm_facts) and four.strength_facts == fresh.strength_facts
    assert (four.drm_facts["attacker_support_ips"], four.drm_facts["defender_support_ips"]) == (4, 3)
    assert (plain.drm_facts["attacker_support_ips"], plain.drm_facts["defender_support_ips"]) == (0, 0)
    bought = ctx.quantity("attack_drm", gather(ctx, ["g1"], "0203", {"attacker": 4}).drm_facts).value
    assert bought == ctx.quantity("attack_drm", plain.drm_facts).value + 2
    assert gather(ctx, ["g1"], "0203", {"attacker": 4}, overrun=True).drm_facts["attacker_support_ips"] == 0
    ctx.state.update_unit("s1", strength=3)  # a new version: nothing kept is read
    assert gather(ctx, ["g1"], "0203", {"attacker": 4}).defense_strength == 3
