"""Rules moved from Moscow '41 Python into rule scripts (issue #15, part B): for a sample of the
moved cases, a copy of the pack's scripts with one line edited is compiled into an engine and
play or ``ask`` changes — so the line is what the plugin reads, not a dead copy of a Python
number. The engine shares the installed pack, board and plugins; only the scripts are the copy's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.core.engine import Engine
from casebook.core.state import GameState
from casebook.core.trace import Trace
from casebook.script import compile_pack, find_rule_pack

ROOT = Path(__file__).resolve().parents[2]


def edited(m41, tmp_path: Path, file: str, old: str, new: str) -> Engine:
    """The Moscow '41 engine with ``games/moscow41/rules/<file>``'s line ``old`` (present once)
    replaced by ``new`` in a copy of the pack's scripts."""
    pack = tmp_path / "moscow41"
    shutil.copytree(ROOT / "games" / "moscow41", pack, ignore=shutil.ignore_patterns("golden"))
    script = pack / "rules" / file
    text = script.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{file}: {old!r} not found once"
    script.write_text(text.replace(old, new), encoding="utf-8")
    rules = compile_pack(find_rule_pack(pack))
    return Engine(m41.pack, m41.board, rules, m41.pm, m41.sequence)


def weather_ctx(engine: Engine, turn: int = 2, temperature: str = "cold", ground: str = "dry"):
    state = GameState.from_dict({"game": "moscow41", "turn": turn, "phase": "weather", "step": "ground",
                                 "weather": {"temperature": temperature, "ground": ground}})
    return engine.ctx(state, Trace())


# ---- weather (0.7.1.1B, 0.7.1.2B) ---------------------------------------------------------------

@pytest.mark.case("0.7.1.1B")
def test_0_7_1_1B_the_temperature_is_the_scripts_lookup_of_the_weather_table(m41, tmp_path):
    from casebook.games.moscow41.plugins.weather import roll_temperature

    # Turn 2: Temp. Mod. -1; a 6 is 5 on the Temperature column: Cold (tables/weather_table.yaml)
    assert roll_temperature(weather_ctx(m41), die=6)["temperature"] == "cold"
    assert roll_temperature(weather_ctx(m41), die=1)["temperature"] == "warm"
    arctic = edited(m41, tmp_path, "weather.rules",
                    'otherwise lookup weather_table(column: "temperature", roll: table_roll)',
                    "otherwise arctic")
    assert roll_temperature(weather_ctx(arctic), die=1)["temperature"] == "arctic"


@pytest.mark.case("0.7.1.2B")
def test_0_7_1_2B_the_matrix_is_cross_indexed_with_the_temperature_by_the_script(m41, tmp_path):
    from casebook.games.moscow41.plugins.weather import roll_ground

    # Turn 2: Ground Mod. 0 and the warm box's DRM: a 6 is precipitation; warm precipitation is Mud
    assert roll_ground(weather_ctx(m41, temperature="warm"), die=6)["table_ground"] == "mud"
    cold = edited(m41, tmp_path, "weather.rules", "precipitation_box, temperature: temperature)",
                  'precipitation_box, temperature: "cold")')
    assert roll_ground(weather_ctx(cold, temperature="warm"), die=6)["table_ground"] == "snow"
