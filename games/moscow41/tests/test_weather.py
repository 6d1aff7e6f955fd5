"""Moscow '41 weather (0.7.1.1-0.7.1.2, 3.0-3.5, 4.0-4.6): plugin ``weather``.

Rolls are given as dice (``roll_temperature(ctx, die=…)``) or drawn from a seeded state; the
Turn Track DRMs and the Weather Table are the pack's (tables/turn_track.yaml, weather_table.yaml):
Turn 2 has Temp. Mod. -1 and Ground Mod. 0, so a ground die of 1-4 is no precipitation and 5-6
precipitation; Turn 16 has Temp. Mod. +5.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.areas import weather
from casebook.areas.weather import roll_ground, roll_temperature
from casebook.core.state import GameState
from casebook.core.trace import Trace
from casebook.games.moscow41.plugins.weather_effects import weather_effects

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def pos(turn=2, temperature="cold", ground="dry", extra=""):
    return (f"kind: position\nformat: 1\ngame: moscow41\nturn: {turn}\n"
            f"weather: {{temperature: {temperature}, ground: {ground}}}\n"
            f"phase: weather\nstep: ground\n{extra}")


@pytest.fixture
def fast(m41):
    """``fast(turn, temperature, ground) -> Ctx`` from plain data (no position-file validation:
    the values are known good), with a trace."""
    def make(turn=2, temperature="cold", ground="dry"):
        state = GameState.from_dict({"game": "moscow41", "turn": turn, "phase": "weather", "step": "ground",
                                     "weather": {"temperature": temperature, "ground": ground}})
        return m41.ctx(state, Trace())
    return make


def ground_after(fast, previous, temperature, die, turn=2):
    return roll_ground(fast(turn, temperature, previous), die=die)["ground"]


def effects(ctx, temperature, ground):
    return {e["effect"]: e for e in weather_effects(ctx, temperature, ground)["effects"]}


def values(ctx, temperature, ground):
    return {tuple(e["cases"]): e["value"] for e in weather_effects(ctx, temperature, ground)["effects"]}


# ---- 0.7.1.1 / 3.0B: the Temperature Step ---------------------------------------------------

@pytest.mark.case("0.7.1.1A", "3.0B")
def test_0_7_1_1A_one_die_with_the_turn_tracks_temperature_drm(fast):
    ctx = fast(turn=16, temperature="warm")
    weather.casebook_step_start(ctx, "weather", "temperature")
    rolls = [e for e in ctx.trace if e.kind == "roll"]
    assert len(rolls) == 1 and rolls[0].data["purpose"] == "temperature" and rolls[0].data["dice"] == 1
    assert "0.7.1.1A" in rolls[0].cases
    event = next(e for e in ctx.trace if e.kind == "temperature")
    assert event.data["modified"] == rolls[0].data["total"] + 5 and event.data["drm"] == 5


@pytest.mark.case("0.7.1.1B", "3.0B")
def test_0_7_1_1B_modified_roll_read_on_the_temperature_column(fast):
    ctx = fast(turn=16, temperature="warm")
    assert roll_temperature(ctx, die=1)["modified"] == 6
    assert ctx.state.weather["temperature"] == "cold"
    assert roll_temperature(ctx, die=4)["temperature"] == "arctic"  # 4 + 5 = 9
    ctx = fast(turn=2, temperature="cold")
    assert roll_temperature(ctx, die=5)["temperature"] == "warm"  # 5 - 1 = 4


@pytest.mark.case("0.7.1.1C")
def test_0_7_1_1C_temperature_marker_placed_on_the_weather_display(fast):
    ctx = fast(turn=16, temperature="warm", ground="snow")
    roll_temperature(ctx, die=6)
    assert dict(ctx.state.weather) == {"temperature": "arctic", "ground": "snow"}


# ---- 0.7.1.2 / 3.0C-D: the Ground Condition Step --------------------------------------------

@pytest.mark.case("0.7.1.2A", "3.0C")
def test_0_7_1_2A_ground_die_with_ground_drm_and_temperature_box(fast):
    ctx = fast(turn=5, temperature="warm")
    assert roll_ground(ctx, die=1)["modified"] == 4  # Ground Mod. +3, Warm box 0
    ctx = fast(turn=5, temperature="arctic")
    assert roll_ground(ctx, die=1)["modified"] == 3  # Arctic box -1
    weather.casebook_step_start(ctx, "weather", "ground")
    roll = next(e for e in ctx.trace if e.kind == "roll")
    assert roll.data["purpose"] == "ground condition" and "0.7.1.2A" in roll.cases


@pytest.mark.case("0.7.1.2B", "3.0D")
def test_0_7_1_2B_precipitation_cross_indexed_with_the_temperature(fast):
    ctx = fast(turn=2, temperature="cold", ground="dry")
    out = roll_ground(ctx, die=6)
    assert (out["precipitation"], out["table_ground"], out["ground"]) == (True, "snow", "snow")
    ctx = fast(turn=2, temperature="warm", ground="dry")
    assert roll_ground(ctx, die=6)["ground"] == "mud"
    assert roll_ground(fast(turn=2, temperature="warm", ground="dry"), die=1)["ground"] == "dry"


@pytest.mark.case("0.7.1.2C")
def test_0_7_1_2C_ground_marker_placed_and_traced(fast):
    ctx = fast(turn=2, temperature="warm", ground="dry")
    roll_ground(ctx, die=6)
    assert dict(ctx.state.weather) == {"temperature": "warm", "ground": "mud"}
    event = next(e for e in ctx.trace if e.kind == "ground")
    assert event.data["ground"] == "mud" and "0.7.1.2C" in event.cases


@pytest.mark.case("3.0A", "3.0D")
def test_3_0A_temperature_step_then_ground_step_on_this_turns_temperature(position):
    ctx = position(pos(turn=2, temperature="warm", ground="dry", extra="rng: {seed: 7, state: null}\n"),
                   trace=True)
    weather.casebook_step_start(ctx, "weather", "temperature")
    weather.casebook_step_start(ctx, "weather", "ground")
    kinds = [e.kind for e in ctx.trace]
    assert kinds == ["roll", "temperature", "roll", "ground"]
    t, g = (next(e for e in ctx.trace if e.kind == k) for k in ("temperature", "ground"))
    matrix = ctx.table("ground_condition_matrix")
    precip = "precipitation" if g.data["precipitation"] else "none"
    assert g.data["table_ground"] == matrix.lookup(precipitation=precip, temperature=t.data["temperature"])
    assert g.data["previous_ground"] == "dry"


def test_turn_1_fixed_weather_is_not_rolled_and_rolled_setting_rolls(position, fast):
    ctx = fast(turn=1, temperature="warm", ground="dry")
    weather.casebook_step_start(ctx, "weather", "temperature")
    weather.casebook_step_start(ctx, "weather", "ground")
    assert [e.kind for e in ctx.trace] == ["weather-fixed", "weather-fixed"]
    assert dict(ctx.state.weather) == {"temperature": "warm", "ground": "dry"}
    ctx = position(pos(turn=1, extra="settings: {turn1_weather: rolled}\n"), trace=True)
    weather.casebook_step_start(ctx, "weather", "temperature")
    assert [e.kind for e in ctx.trace] == ["roll", "temperature"]


# ---- 3.1-3.5: transitions from the previous turn ---------------------------------------------

@pytest.mark.case("3.1A")
def test_3_1A_warm_dry_turn_after_mud_is_drying(fast):
    assert ground_after(fast, "mud", "warm", die=1) == "drying"
    assert ground_after(fast, "mud", "warm", die=6) == "mud"  # precipitation


@pytest.mark.case("3.1B")
def test_3_1B_drying_then_dry_and_drying_has_the_effects_of_mud(fast):
    assert ground_after(fast, "drying", "warm", die=1) == "dry"
    ctx = fast()
    assert [e["value"] for e in weather_effects(ctx, "warm", "drying")["effects"]] == \
        [e["value"] for e in weather_effects(ctx, "warm", "mud")["effects"]]


@pytest.mark.case("3.2")
def test_3_2_snow_stays_until_thaw_or_deep_snow(fast):
    assert ground_after(fast, "snow", "cold", die=1) == "snow"  # the matrix says frozen
    assert ground_after(fast, "snow", "arctic", die=1) == "snow"


@pytest.mark.case("3.3A")
def test_3_3A_snow_after_snow_is_deep_snow(fast):
    assert ground_after(fast, "snow", "cold", die=6) == "deep_snow"


@pytest.mark.case("3.3B")
def test_3_3B_deep_snow_stays_until_a_thaw(fast):
    assert ground_after(fast, "deep_snow", "cold", die=1) == "deep_snow"
    assert ground_after(fast, "deep_snow", "warm", die=1) == "snow"


@pytest.mark.case("3.3C")
def test_3_3C_more_snow_has_no_effect_on_deep_snow(fast):
    assert ground_after(fast, "deep_snow", "cold", die=6) == "deep_snow"


@pytest.mark.case("3.4A")
def test_3_4A_snow_then_warm_is_mud_regardless_of_the_roll(fast):
    assert {ground_after(fast, "snow", "warm", die=d) for d in range(1, 7)} == {"mud"}


@pytest.mark.case("3.4B")
def test_3_4B_deep_snow_then_warm_is_snow_regardless_of_the_roll(fast):
    assert {ground_after(fast, "deep_snow", "warm", die=d) for d in range(1, 7)} == {"snow"}


@pytest.mark.case("3.5A")
def test_3_5A_dry_then_cold_without_precipitation_is_frozen(fast):
    assert ground_after(fast, "dry", "cold", die=1) == "frozen"
    assert ground_after(fast, "dry", "arctic", die=1) == "frozen"
    assert ground_after(fast, "dry", "cold", die=6) == "snow"


@pytest.mark.case("3.5B")
def test_3_5B_frozen_is_dry_but_for_zoc_and_ski_columns(fast):
    ctx = fast()
    dry, frozen = values(ctx, "warm", "dry"), values(ctx, "warm", "frozen")
    assert dry == {("4.1A",): None, ("4.1B",): "dry"}
    assert frozen == {("4.2A", "3.5B"): None, ("4.2B",): "frozen", ("4.2B", "3.5B"): "frozen"}  # TEC, ZOC Chart
    assert ctx.value("ma", {"printed_ma": 6, "reaction": False, "ground": "frozen", "supplied": True}) == 6


@pytest.mark.case("3.5C")
def test_3_5C_warm_after_frozen_is_mud_regardless_of_precipitation(fast):
    assert {ground_after(fast, "frozen", "warm", die=d) for d in (1, 6)} == {"mud"}


def test_previous_ground_is_kept_between_the_two_steps(fast):
    ctx = fast(turn=2, temperature="cold", ground="snow")
    roll_temperature(ctx, die=6)  # 6 - 1 = 5: cold
    assert ctx.state.plugin_data("weather") == {"turn": 2, "previous_ground": "snow", "temperature_roll": 5}
    assert roll_ground(ctx, die=6)["ground"] == "deep_snow"
    assert ctx.state.plugin_data("weather")["previous_ground"] == "snow"


# ---- 4.0-4.6: effects -----------------------------------------------------------------------

@pytest.mark.case("4.0")
def test_4_0_effects_apply_as_soon_as_the_weather_is_marked(fast):
    ctx = fast(turn=2, temperature="warm", ground="dry")
    assert "4.3H" not in ctx.hook.casebook_weather_effects(ctx=ctx)["cases"]
    roll_ground(ctx, die=6)
    answer = ctx.hook.casebook_weather_effects(ctx=ctx)
    assert answer["ground"] == "mud" and {"4.0", "4.3B", "4.3H"} <= set(answer["cases"])


@pytest.mark.case("4.1A")
def test_4_1A_dry_no_effect_on_ips_ma_force_march_combat(fast):
    ctx = fast()
    assert ctx.value("ip_income", {"new_ips": 29, "side": "german", "ground": "dry"}) == 29
    assert ctx.value("ma", {"printed_ma": 5, "reaction": False, "ground": "dry", "supplied": True}) == 5
    assert ctx.value("force_march_drm", {"ground": "dry", "temperature": "warm", "supplied": True}) == 0
    assert effects(ctx, "warm", "dry")["dry ground: no effect on IP collection, MAs, force march die rolls or combat"]


@pytest.mark.case("4.1B")
def test_4_1B_dry_uses_the_dry_columns(fast):
    ctx = fast()
    assert ctx.value("tec_column", {"ground": "dry"}) == "dry"
    assert ctx.value("zoc_column", {"ground": "dry"}) == "dry"


@pytest.mark.case("4.2A")
def test_4_2A_frozen_no_effect_on_ips_force_march_combat(fast):
    ctx = fast()
    assert ctx.value("ip_income", {"new_ips": 13, "side": "soviet", "ground": "frozen"}) == 13
    assert ctx.value("force_march_drm", {"ground": "frozen", "temperature": "cold", "supplied": True}) == 0
    assert all(e["cases"] != ["4.3H"] for e in weather_effects(ctx, "cold", "frozen")["effects"])


@pytest.mark.case("4.2B")
def test_4_2B_frozen_uses_the_frozen_columns(fast):
    ctx = fast()
    assert [ctx.value(q, {"ground": "frozen"}) for q in ("tec_column", "zoc_column")] == ["frozen", "frozen"]


@pytest.mark.case("4.3A")
def test_4_3A_mud_lists_its_effects_b_to_h(fast):
    cases = set(weather_effects(fast(), "warm", "mud")["cases"])
    assert {"4.3B", "4.3C", "4.3D", "4.3E", "4.3F", "4.3G", "4.3H"} <= cases


@pytest.mark.case("4.3B")
def test_4_3B_germans_half_in_mud_rounded_down(fast):
    ctx = fast()
    assert ctx.value("ip_income", {"new_ips": 17, "side": "german", "ground": "mud"}) == 8
    assert effects(ctx, "warm", "mud")["german new IPs x 1/2, fractions rounded down"]["cases"][0] == "4.3B"


@pytest.mark.case("4.3C")
def test_4_3C_soviets_two_thirds_in_mud_rounded_down(fast):
    assert fast().value("ip_income", {"new_ips": 16, "side": "soviet", "ground": "mud"}) == 10


@pytest.mark.case("4.3D")
def test_4_3D_ma_halved_rounded_down_at_least_1(fast):
    ctx = fast()
    ma = lambda p: ctx.value("ma", {"printed_ma": p, "reaction": False, "ground": "mud", "supplied": True})  # noqa: E731
    assert (ma(5), ma(1)) == (2, 1)


@pytest.mark.case("4.3E", "4.3F")
def test_4_3E_4_3F_mud_columns_of_tec_and_zoc_chart(fast):
    ctx = fast()
    assert [ctx.value(q, {"ground": g}) for q in ("tec_column", "zoc_column") for g in ("mud", "drying")] == ["mud"] * 4


@pytest.mark.case("4.3G", "4.3H")
def test_4_3G_4_3H_mud_force_march_minus_3_attacks_minus_2(fast):
    v = values(fast(), "warm", "mud")
    assert v[("4.3G", "3.1B")] == -3 and v[("4.3H", "3.1B")] == -2


@pytest.mark.case("4.4A")
def test_4_4A_germans_two_thirds_in_snow_soviets_unreduced(fast):
    ctx = fast()
    assert ctx.value("ip_income", {"new_ips": 29, "side": "german", "ground": "snow"}) == 19
    assert ctx.value("ip_income", {"new_ips": 16, "side": "soviet", "ground": "snow"}) == 16


@pytest.mark.case("4.4B", "4.4C", "4.4D", "4.4E", "4.4F")
def test_4_4B_to_F_snow_columns_force_march_rail_attacks(fast):
    ctx = fast()
    v = values(ctx, "cold", "snow")
    assert (v[("4.4B",)], v[("4.4C",)], v[("4.4D",)], v[("4.4E", "9.9B")], v[("4.4F",)]) == ("snow", "snow", -2, 2, -1)
    ski = [e for e in weather_effects(ctx, "cold", "snow")["effects"] if e["cases"] == ["4.4F"]]
    assert [e["ski"] for e in ski] == [0, 0]  # attacks made solely by ski units are exempt


@pytest.mark.case("4.5A", "4.5B", "4.5C")
def test_4_5A_to_C_deep_snow_ips_and_ma(fast):
    ctx = fast()
    assert ctx.value("ip_income", {"new_ips": 17, "side": "german", "ground": "deep_snow"}) == 8
    assert ctx.value("ip_income", {"new_ips": 16, "side": "soviet", "ground": "deep_snow"}) == 10
    assert ctx.value("ma", {"printed_ma": 6, "reaction": False, "ground": "deep_snow", "supplied": True}) == 3


@pytest.mark.case("4.5D", "4.5E", "4.5F", "4.5G", "4.5H")
def test_4_5D_to_H_deep_snow_columns_force_march_rail_attacks(fast):
    v = values(fast(), "cold", "deep_snow")
    assert (v[("4.5D",)], v[("4.5E",)], v[("4.5F",)], v[("4.5G", "9.9C")], v[("4.5H",)]) == ("snow", "snow", -3, 1, -2)


@pytest.mark.case("4.6A")
def test_4_6A_arctic_alone_and_with_deep_snow_most_severe_only(fast):
    ctx = fast()
    alone = {e["effect"]: e["value"] for e in weather_effects(ctx, "arctic", "dry")["effects"]}
    assert alone["+1 MP to all terrain costs"] == 1
    assert alone["no unit possesses a ZOC"] is False
    assert alone["-4 DRM to all force march die rolls"] == -4
    assert alone["-4 DRM to all german attacks"] == -4 and alone["-3 DRM to all soviet attacks"] == -3
    both = values(ctx, "arctic", "deep_snow")
    assert both[("4.5C",)] == "1/2"          # both conditions apply: MA still halved
    assert both[("4.6A",)] in (-4, -3)       # only the most severe DRM, not -3 + -4
    fm = ctx.value("force_march_drm", {"ground": "deep_snow", "temperature": "arctic", "supplied": True})
    assert fm == -4


# ---- casebook ask … weather -----------------------------------------------------------------

def ask(m41, file, question, args, options):
    """What ``casebook ask FILE QUESTION ARGS --json`` prints (``cmd_ask.ask_position`` without
    finding and loading the pack again: the session's engine is given)."""
    from casebook.content.position import load_position
    from casebook.script.engine import state_from_position

    ctx = m41.ctx(state_from_position(load_position(EXAMPLES / file, pack=m41.pack)))
    return ctx.hook.casebook_answer(ctx=ctx, question=question, args=args, options=options)


def test_ask_weather_json_snapshot(m41, snapshot):
    answer = ask(m41, "weather-mud.yaml", "weather", [], {})
    assert answer["ground"] == "drying" and answer["temperature"] == "warm"
    assert json.dumps(answer, indent=1, ensure_ascii=False) == snapshot


def test_ask_weather_takes_no_arguments(fast):
    from casebook.core.errors import QuestionError

    with pytest.raises(QuestionError, match="usage: weather"):
        weather.casebook_answer(fast(), "weather", ["x"], {})
