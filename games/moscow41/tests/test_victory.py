"""Moscow '41 victory points and levels (17.0-17.4) on a small inline map.

The map: Testgrad 0505 (city, 2 IP), Townsk 0303 (town, 1 IP), Dorf 0606 (town, 1 IP) and a
one-hex Moscow 0707 (city, 3 IP). Supply is a fake (games/moscow41/tests/_fakes.py): a unit or hex listed
in ``FAKE.unsupplied`` cannot trace supply.
"""

from __future__ import annotations

import json

import pytest

from casebook.areas.scenario_victory import hex_supplied, level_for
from casebook.areas.scenario_victory import side_points as area_side_points
from casebook.core.actions import Action
from casebook.games.moscow41.plugins import victory
from casebook.games.moscow41.plugins._area_config import non_combat
from casebook.games.moscow41.plugins._victory_points import PROBE, losses, side_facts
from games.moscow41.tests._fakes_vp import FAKE, fake_engine
from tests.conftest import make_ctx

MAP = """
map:
  layout: flat-top-even-q
  size: {columns: 8, rows: 8}
  terrain: {default: clear}
  towns:
    "0505": {name: Testgrad, kind: city, ip: 2}
    "0303": {name: Townsk, kind: town, ip: 1}
    "0606": {name: Dorf, kind: town, ip: 1}
    "0707": {name: Moscow, kind: city, ip: 3}
  moscow: ["0707"]
"""


def side_points(c, side):
    """One side's VPs: the shared area's quantity over Moscow '41's facts of the side (17.1-17.3)."""
    return area_side_points(c, side, side_facts)


def pos(body: str = "", control: str = '{"0505": german, "0303": german, "0606": soviet, "0707": soviet}',
        units: str = "  []") -> str:
    return f"""
kind: position
format: 1
game: moscow41
{MAP}
turn: 5
control: {control}
units:
{units}
{body}
"""


@pytest.fixture
def ctx():
    FAKE.reset()
    return lambda text: make_ctx(fake_engine(), text, trace=True)


G_INF = "side: german, class: infantry, size: division, strength: 7, ma: 4"


@pytest.mark.case("17.1", "17.0")
def test_17_1_twice_the_ip_value_of_towns_controlled_and_supplied(ctx):
    c = ctx(pos())
    g, s = side_points(c, "german"), side_points(c, "soviet")
    assert g["vp"] == 2 * (2 + 1)            # Testgrad 2 IP + Townsk 1 IP, twice (17.1)
    assert s["vp"] == 2 * (1 + 3)            # Dorf 1 + Moscow 3
    assert [t["hex"] for t in g["towns"]] == ["0303", "0505"]
    assert g["terms"][0] == {"text": "town_ips * 2 by 17.1", "vp": 6, "cases": ["17.1"]}


@pytest.mark.case("17.1")
def test_17_1_a_town_without_a_supply_line_scores_nothing(ctx):
    c = ctx(pos())
    FAKE.unsupplied.add("0303")              # no supply line to Townsk (probe unit there)
    assert hex_supplied(c, "0303", "german", PROBE, non_combat(c)) is False
    assert side_points(c, "german")["vp"] == 2 * 2
    FAKE.unsupplied.clear()
    c = ctx(pos(units=f'  - {{id: g1, {G_INF}, hex: "0505"}}'))
    FAKE.unsupplied.add("g1")                # the German unit holding Testgrad is cut off
    assert side_points(c, "german")["vp"] == 2 * 1


@pytest.mark.case("17.2")
def test_17_2_five_vp_per_moscow_hex_taken_once_even_if_lost(ctx):
    c = ctx(pos(units=f'  - {{id: g1, {G_INF}, hex: "0707"}}'))
    victory.casebook_after_action(c, Action.make("move", "german", stack="0606", path=("0707",)), {})
    assert c.state.plugin_data("victory")["moscow_taken"] == ["0707"]
    c.state.move_unit("g1", "0606")          # the hex is lost again (control stays Soviet)
    victory.casebook_after_action(c, Action.make("move", "german", stack="0707", path=("0606",)), {})
    c.state.move_unit("g1", "0707")          # and retaken: still one hex, counted once
    victory.casebook_after_action(c, Action.make("move", "german", stack="0606", path=("0707",)), {})
    g = side_points(c, "german")
    assert g["moscow_taken"] == ["0707"]
    assert {"text": "moscow_hexes_taken * 5 by 17.2 when side is german", "vp": 5,
            "cases": ["17.2"]} in g["terms"]
    assert side_points(c, "soviet")["vp"] == 2 * (1 + 3)   # the Soviets still hold it for 17.1


LOSSES = """
removed:
  - {unit: s-22a, reason: eliminated, turn: 3}
  - {unit: s-western-f, reason: eliminated, turn: 4}
  - {unit: g-102id, reason: eliminated, turn: 4}
  - {unit: g-1pz-1, reason: eliminated, turn: 4}
  - {unit: g-1pz-1s, reason: eliminated, turn: 4}
  - {unit: g-1pz-113, reason: eliminated, turn: 4}
  - {unit: g-6pz-11, reason: eliminated, turn: 4}
"""


@pytest.mark.case("17.3A")
def test_17_3A_one_vp_per_army_hq_two_per_front_hq(ctx):
    c = ctx(pos(LOSSES, control="{}"))
    g = side_points(c, "german")
    assert g["losses"] == {"army_hqs": ["s-22a"], "front_hqs": ["s-western-f"]}
    assert g["vp"] == 1 + 2


@pytest.mark.case("17.3B")
def test_17_3B_one_vp_per_division_two_per_whole_panzer_division(ctx):
    c = ctx(pos(LOSSES, control="{}"))
    s = side_points(c, "soviet")
    # 1 Pz lost all three regiments; 6 Pz only one (interpretation panzer-division-elimination-vp)
    assert s["losses"] == {"divisions": ["g-102id"], "panzer_divisions": ["g-1pz"]}
    assert s["vp"] == 1 + 2


@pytest.mark.case("17.3C")
def test_17_3C_withdrawn_and_returned_units_are_no_losses(ctx):
    body = """
removed:
  - {unit: g-102id, reason: withdrawn, turn: 4}
  - {unit: g-206id, reason: eliminated, turn: 4}
  - {unit: s-22a, reason: eliminated, turn: 3}
  - {unit: s-29a, reason: eliminated, turn: 3}
pending:
  - {unit: s-29a, turn: 9}
"""
    units = '  - {counter: g-206id, hex: "0101"}'   # rebuilt through replacements, back in play
    lost = losses(ctx(pos(body, control="{}", units=units)))
    assert lost == {"army_hqs": ["s-22a"], "front_hqs": [], "divisions": [], "panzer_divisions": []}


@pytest.mark.case("17.4")
@pytest.mark.parametrize("german, soviet, level, winner", [
    (10, 10, "draw", None), (16, 10, "draw", None), (17, 10, "marginal", "german"),
    (10, 22, "marginal", "soviet"), (23, 10, "decisive", "german"), (28, 10, "decisive", "german"),
    (10, 29, "strategic", "soviet"), (60, 0, "strategic", "german"),
])
def test_17_4_victory_levels_by_difference(ctx, german, soviet, level, winner):
    got = level_for(ctx(pos()), {"german": german, "soviet": soviet})
    assert (got["level"], got["winner"], got["difference"]) == (level, winner, abs(german - soviet))
    assert got["cases"] == ["17.4"]


@pytest.mark.case("17.0")
def test_17_0_question_vp_gives_both_sides_terms_and_level(ctx, snapshot):
    c = ctx(pos(LOSSES))
    answer = c.hook.casebook_answer(ctx=c, question="vp", args=[], options={})
    assert (answer["german"]["vp"], answer["soviet"]["vp"]) == (6 + 3, 8 + 3)
    assert (answer["difference"], answer["level"], answer["winner"]) == (2, "draw", None)
    assert json.loads(json.dumps(answer)) == snapshot
