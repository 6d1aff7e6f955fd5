"""Moscow '41 paratroops (15.0-15.4) on a 20 x 20 inline map.

The Soviet paratroops of the schedule: s-201ab and s-250ar arrive on Turn 27 with the asterisk
(15.1A; tables/reinforcements.yaml ``drop: true``). The Soviet unit s1 in 0101 is the supplied
unit the drop range is counted from (hex 1601 is 15 hexes away, 1701 16). Supply is a fake
(games/moscow41/tests/_fakes_vp.py). Seeds: seed 0 rolls a 6 first, seed 1 a 2.
"""

from __future__ import annotations

import pytest

from casebook.areas import airdrop
from casebook.core.actions import Action
from casebook.games.moscow41.plugins import paratroops
from games.moscow41.tests._fakes_vp import FAKE, fake_engine
from tests.conftest import m41_inline, make_ctx


def eligible_units(c):
    return airdrop.eligible_units(c, paratroops.drop_config(c))


def drop_verdict(c, side, unit, hex_):
    return airdrop.drop_verdict(c, paratroops.drop_config(c), side, unit, hex_)


def lift_scatter(c):
    return airdrop.lift_scatter(c, paratroops.drop_config(c), "soviet")


INF = "class: infantry, size: division, strength: 6, ma: 4"


def pos(units: str = "", turn: int = 27, seed: int = 0, weather: str = "{temperature: cold, ground: frozen}",
        extra: str = "") -> str:
    return m41_inline(f'  - {{id: s1, side: soviet, {INF}, hex: "0101"}}\n{units}', size="{columns: 20, rows: 20}",
                      map_extra='  towns: {"0808": {name: Testgrad, kind: city, ip: 2}, "0606": {name: Dorf, kind: town, ip: 1}}\n',
                      turn=turn, weather=weather, phase="second_initiative", step="replacement_reinforcement",
                      phasing="soviet", first_player="german", ip=None, extra=f"rng: {{seed: {seed}, state: null}}\n{extra}")


@pytest.fixture
def ctx():
    FAKE.reset()
    return lambda text: make_ctx(fake_engine(), text, trace=True)


def drop(unit: str = "s-201ab", hex_: str = "0505", side: str = "soviet") -> Action:
    return Action.make("drop", side, unit=unit, hex=hex_)


def refused(c, action) -> list[str]:
    return sorted({case for r in paratroops.casebook_validate_action(c, action) for case in r.cases})


@pytest.mark.case("15.0")
def test_15_0_only_the_soviets_drop_paratroops(ctx):
    c = ctx(pos())
    assert refused(c, drop(side="german")) == ["15.0", "15.1A"]
    assert "g-para" not in eligible_units(ctx(pos(turn=30)))      # the German Fsch Bde has no asterisk
    assert refused(c, drop()) == []


@pytest.mark.case("15.1A")
def test_15_1A_only_asterisked_reinforcements_may_drop(ctx):
    assert eligible_units(ctx(pos(turn=27))) == ["s-201ab", "s-250ar"]
    assert eligible_units(ctx(pos(turn=26))) == []
    assert eligible_units(ctx(pos(turn=30))) == ["s-201ab", "s-214ab", "s-250ar", "s-8ab", "s-9ab"]
    assert refused(ctx(pos()), drop(unit="s-17tb")) == ["15.1A", "15.1B"]   # a tank brigade


@pytest.mark.case("15.1B")
def test_15_1B_a_paratroop_placed_as_a_reinforcement_can_no_longer_drop(ctx):
    c = ctx(pos('  - {counter: s-201ab, hex: "0102"}'))
    assert eligible_units(c) == ["s-250ar"]
    assert refused(c, drop()) == ["15.1A", "15.1B"]


@pytest.mark.case("15.1C")
def test_15_1C_one_drop_a_turn(ctx):
    c = ctx(pos())
    paratroops.casebook_apply_action(c, drop())
    assert refused(c, drop(unit="s-250ar", hex_="0707")) == ["15.1C"]
    assert paratroops.casebook_legal_actions(c, "second_initiative", "replacement_reinforcement") == []
    c.state.set_turn(28)
    c.changed()
    assert refused(c, drop(unit="s-250ar", hex_="0707")) == []


@pytest.mark.case("15.1D")
def test_15_1D_target_within_15_hexes_of_a_supplied_soviet_unit(ctx):
    c = ctx(pos('  - {id: g1, side: german, ' + INF + ', hex: "0406"}'))
    assert drop_verdict(c, "soviet", "s-201ab", "1601")[0] is True     # 15 hexes
    assert refused(c, drop(hex_="1701")) == ["15.1D"]                   # 16 hexes
    assert refused(c, drop(hex_="0808")) == ["15.1D"]                   # a city
    assert refused(c, drop(hex_="0606")) == []                          # a town is allowed
    assert refused(c, drop(hex_="0406")) == ["15.1D"]                   # enemy-occupied
    assert refused(c, drop(hex_="0405")) == []                          # adjacent to the enemy
    FAKE.unsupplied.add("s1")                                           # no Soviet unit in supply
    c.changed()
    assert refused(c, drop(hex_="0505")) == ["15.1D"]


@pytest.mark.case("15.2")
def test_15_2_on_target_only_on_a_6(ctx):
    c = ctx(pos(seed=0))
    out = paratroops.casebook_apply_action(c, drop(hex_="0505"))
    assert (out["roll"], out["result"]) == (6, "on_target")
    unit = c.state.unit("s-201ab")
    assert unit["hex"] == "0505" and not unit.get("scattered")
    c = ctx(pos(seed=1))
    out = paratroops.casebook_apply_action(c, drop(hex_="0505"))
    assert (out["roll"], out["result"]) == (2, "scattered")
    c.hook.casebook_after_action(ctx=c, action=drop(hex_="0505"), result=out)   # every area reacts
    unit = c.state.unit("s-201ab")
    assert (unit["hex"], unit["scattered"], unit["fatigued"]) == ("0505", True, True)   # 14.4D2
    assert [m["kind"] for m in c.state.markers if m["hex"] == "0505"] == ["scatter"]


def scattered(ctx, units: str = "", weather: str = "{temperature: cold, ground: frozen}"):
    c = ctx(pos(units, seed=1, weather=weather))
    paratroops.casebook_apply_action(c, drop(hex_="0505"))
    return c


@pytest.mark.case("15.3A")
def test_15_3A_scattered_for_one_turn(ctx):
    c = scattered(ctx)
    paratroops.casebook_step_start(c, "second_initiative", "ip_collection")   # same turn: stays
    assert c.state.unit("s-201ab").get("scattered") is True
    c.state.set_turn(28)
    c.state.set_sequence_position("first_initiative", "ip_collection", "german")
    paratroops.casebook_step_start(c, "first_initiative", "ip_collection")    # German turn: stays
    assert c.state.unit("s-201ab").get("scattered") is True
    c.state.set_sequence_position("second_initiative", "ip_collection", "soviet")
    paratroops.casebook_step_start(c, "second_initiative", "ip_collection")
    assert c.state.unit("s-201ab").get("scattered") is None
    assert not [m for m in c.state.markers if m["kind"] == "scatter"]


@pytest.mark.case("15.3B")
def test_15_3B_scattered_unit_cannot_move_and_its_hex_cannot_be_entered(ctx):
    c = scattered(ctx, '  - {id: g1, side: german, ' + INF + ', hex: "0707"}')
    assert refused(c, Action.make("move", "soviet", stack="0505", path=("0506",))) == ["15.3B"]
    assert refused(c, Action.make("react-move", "soviet", stack="0505", path=("0506",))) == ["15.3B"]
    assert refused(c, Action.make("move", "german", stack="0707", path=("0606", "0505"))) == ["15.3B"]
    assert refused(c, Action.make("move", "german", stack="0707", path=("0606",))) == []
    assert paratroops.casebook_zoc_sources(c, "german") == [{"hex": "0505", "id": "s-201ab", "cases": ["15.3B"]}]
    assert paratroops.casebook_zoc_sources(c, "soviet") == []
    zoc = c.hook.casebook_zoc(ctx=c, hex="0505", side="german")
    assert zoc["exerted_by"] == ["s-201ab"] and "15.3B" in zoc["cases"]


@pytest.mark.case("15.3C")
def test_15_3C_no_attack_while_scattered_then_a_step_per_enemy_stack(ctx):
    g = '  - {id: g1, side: german, ' + INF + ', hex: "0504"}\n  - {id: g2, side: german, ' + INF + ', hex: "0506"}'
    c = scattered(ctx, g)
    assert refused(c, Action.make("attack", "german", hex="0505", units=("g1",))) == ["15.3C"]
    c.state.set_turn(28)
    c.state.set_sequence_position("second_initiative", "ip_collection", "soviet")
    lifted = lift_scatter(c)
    assert (lifted[0]["enemy_stacks"], lifted[0]["steps_lost"]) == (2, 2)
    assert lifted[0]["results"] == ["1-loss", "remnant"]                 # 11.3C: 1-Loss, then remnant
    assert not c.state.has_unit("s-201ab")
    assert [u["class"] for u in c.state.units_at("0505")] == ["remnant"]


@pytest.mark.case("15.3C")
def test_15_3C_no_zoc_in_arctic_weather_no_loss(ctx):
    g = '  - {id: g1, side: german, ' + INF + ', hex: "0504"}'
    c = scattered(ctx, g, weather="{temperature: arctic, ground: snow}")
    c.state.set_turn(28)
    c.state.set_sequence_position("second_initiative", "ip_collection", "soviet")
    assert lift_scatter(c)[0]["steps_lost"] == 0            # 7.1C: no ZOC in Arctic


@pytest.mark.case("15.4A", "15.4B")
def test_15_4A_in_supply_on_the_drop_turn_15_4B_normal_rules_after(ctx):
    c = scattered(ctx)
    FAKE.unsupplied.add("s-201ab")
    answer = c.hook.casebook_supply(ctx=c, unit="s-201ab")
    assert (answer["in_supply"], answer["route"], answer["cases"]) == (True, "airdrop", ["15.4A"])
    c.state.set_turn(28)
    answer = c.hook.casebook_supply(ctx=c, unit="s-201ab")
    assert (answer["in_supply"], answer["route"]) == (False, "fake")


@pytest.mark.case("15.1B", "15.1D")
def test_drop_is_offered_in_the_soviet_reinforcement_step(ctx):
    c = ctx(pos())
    actions = paratroops.casebook_legal_actions(c, "second_initiative", "replacement_reinforcement")
    assert drop("s-201ab", "1601") in actions and drop("s-201ab", "1701") not in actions
    assert drop("s-250ar", "0808") not in actions
    assert paratroops.casebook_legal_actions(c, "second_player", "movement") == []


@pytest.mark.case("15.2")
def test_15_2_the_drop_answer_names_the_on_target_rolls_of_the_lines(m41, tmp_path):
    """15.2 "On a 6, the drop succeeds": ``ask drop`` says so from the drop_outcome lines, and
    after docs/modding.md's recipe 3 (on target on a 5 or 6) — or a line no roll meets — it says
    what those lines decide."""
    from games.moscow41.tests.test_moved_rules_b import edited

    def said(engine):
        return paratroops.drop_answer(make_ctx(engine, pos()))["on_target"]

    six = "  on_target            by 15.2  when drop_roll = 6"
    assert said(m41) == "a roll of 6 (rule drop_outcome); any other roll scatters (15.2, 15.3)"
    recipe3 = edited(m41, tmp_path / "r3", "paratroops.rules", six, "  on_target            by 15.2  when drop_roll >= 5")
    assert said(recipe3) == "a roll of 5 or 6 (rule drop_outcome); any other roll scatters (15.2, 15.3)"
    never = edited(m41, tmp_path / "never", "paratroops.rules", six, "  on_target            by 15.2  when drop_roll > 6")
    assert said(never).startswith("no roll (rule drop_outcome)")
