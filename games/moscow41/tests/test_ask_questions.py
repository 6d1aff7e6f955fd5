"""The rules lawyer's new questions (issue #18), on the example positions of docs/ask/ and the full
Moscow '41 engine: ``overrun``, ``rail``, ``drop``, ``partisans``. Each answer is play's: the
actions play lists and every validator of the action asked about."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from casebook.tools.cmd_ask import ask_position

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def ask(name, question, *args, **options):
    return ask_position(str(EXAMPLES / name), question, list(args), options)


@pytest.mark.case("9.5A", "9.5B")
def test_9_5A_ask_overrun_cost_is_terrain_plus_one_and_infantry_may_not(m41):
    a = ask("overrun.yaml", "overrun", "r1", "0404")
    # armor entering forest: the TEC cost (tables/tec.yaml) + 1 MP for the overrun (9.5A)
    tec = m41.pack.tables["tec"].lookup(terrain="forest", unit="armor", column="dry")
    assert a["legal"] is True and a["mp_cost"] == int(tec) + 1 and a["mp_left"] == 8
    assert "9.5B" in a["cases"] and "no MP cost" in a["advance"]
    inf = ask("overrun.yaml", "overrun", "d1", "0404")
    assert inf["legal"] is False and inf["refusals"][0]["cases"] == ["9.5A"]


@pytest.mark.case("9.9A", "6.2B", "6.0B")
def test_9_9A_ask_rail_capacity_three_and_the_offered_moves():
    a = ask("rail.yaml", "rail", "0106")
    assert (a["capacity_left"], a["combat_units"]) == (3, 4)
    assert sorted(a["railheads"]) == ["0306", "0606"] and a["refused"] is None
    pairs = {",".join(c) for c in itertools.combinations(["s1", "s2", "s3", "s4"], 2)}
    assert {o.rsplit("units=", 1)[1] for o in a["offered"]} == pairs
    assert any("9.9A" in r["cases"] for r in a["refusals"])      # the whole stack: 4 > 3


@pytest.mark.case("15.1D", "15.2")
def test_15_1D_ask_drop_targets_within_15_hexes_not_a_city():
    a = ask("drop.yaml", "drop", "s-201ab", "0909")
    assert a["eligible"] == ["s-201ab", "s-250ar"] and a["verdict"]["allowed"] is True
    assert "0808" not in a["targets"]                                   # Testgrad is a city (15.1D)
    assert "0505" in a["targets"] and "0401" in a["targets"] and "0301" not in a["targets"]  # 15 / 16 hexes
    assert "soviet: drop hex=0909 unit=s-201ab" in a["offered"]
    city = ask("drop.yaml", "drop", "s-201ab", "0808")
    assert city["verdict"]["allowed"] is False and "15.1D" in city["verdict"]["refusals"][0]["cases"]


@pytest.mark.case("16.2", "16.3A")
def test_16_2_ask_partisans_not_within_five_hexes_of_an_enemy_unit():
    a = ask("partisans.yaml", "partisans", "0106")
    assert a["points"] == 2 and a["markers"] == ["0909"]
    assert "0106" not in a["placeable"] and "0107" in a["placeable"]
    assert a["verdict"]["allowed"] is False and a["verdict"]["enemy_distance"] == 5
    assert a["verdict"]["refusals"][0]["cases"] == ["16.2"]
    assert ask("partisans.yaml", "partisans", "0107")["verdict"]["allowed"] is True


@pytest.mark.case("17.2")
def test_17_2_a_position_s_moscow_taken_history_counts_in_ask_vp():
    """Issue #18 (history a position gives): vp-endgame.yaml's `plugin_state: {victory: {moscow_taken:
    ["0707"]}}` — the Germans took the Moscow hex once and lost it — is 5 VP (17.2: five VP per
    Moscow hex taken, even if lost again)."""
    a = ask("vp-endgame.yaml", "vp")
    assert a["german"]["moscow_taken"] == ["0707"]
    term = next(t for t in a["german"]["terms"] if "17.2" in t["cases"])
    assert term["vp"] == 5


@pytest.mark.case("3.1A")
def test_3_1A_a_position_s_previous_turn_ground_is_read_by_ask_weather(tmp_path):
    """Issue #18: the previous turn's ground (3.1-3.5 read it: Mud dries to Drying in a warm turn)
    is given by a position as `plugin_state: {weather: {turn: T, previous_ground: G}}` for its turn."""
    text = (EXAMPLES / "weather-mud.yaml").read_text()
    given = tmp_path / "mud-before.yaml"
    given.write_text(text + "plugin_state:\n  weather: {turn: 6, previous_ground: mud}\n")
    assert ask_position(str(given), "weather", [], {})["previous_ground"] == "mud"
    stale = tmp_path / "stale.yaml"  # the history of another turn is not this turn's
    stale.write_text(text + "plugin_state:\n  weather: {turn: 5, previous_ground: mud}\n")
    assert ask_position(str(stale), "weather", [], {}).get("previous_ground") != "mud"
