"""The rule language is total and safe (issue #15): a `lookup` term is held to its table's
coordinates and values at check time as `table …[…]` is; a constant divisor of 0 is refused at
check time and any other division by zero is a located, one-line run-time error naming the
line and the quantity (docs/rule-language.md "Errors", "Amounts"). Each on a copy of moscow41."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.script.engine import load_engine
from casebook.script.values import EvaluationError
from casebook.tools.cmd_rules import rules

ROOT = Path(__file__).resolve().parent.parent
FIRST = "quantity supply_path_mp = first by 5.2B, 5.2C\n"


def _pack_with(tmp_path: Path, line: str) -> Path:
    """A copy of moscow41 whose ``supply_path_mp`` (5.2B) has ``line`` first."""
    pack = tmp_path / "moscow41"
    shutil.copytree(ROOT / "games" / "moscow41", pack, ignore=shutil.ignore_patterns("golden", "tests"))
    path = pack / "rules" / "supply.rules"
    text = path.read_text(encoding="utf-8")
    assert text.count(FIRST) == 1
    path.write_text(text.replace(FIRST, FIRST + f"  {line}\n"), encoding="utf-8")
    return pack


def _check(pack: Path) -> tuple[int, list[str]]:
    out = CliRunner().invoke(rules, ["check", str(pack)])
    return out.exit_code, out.output.splitlines()


@pytest.mark.case("5.2B")
def test_5_2B_a_lookup_missing_coordinates_is_refused_at_check_time(tmp_path):
    code, lines = _check(_pack_with(tmp_path, 'lookup tec(terrain: "clear") by 5.2B when ground is snow'))
    assert code == 1
    assert any(ln.endswith("supply.rules:7:10: supply_path_mp: table `tec` takes coordinates terrain, unit, "
                           "column: also give unit, column") for ln in lines), lines
    assert "^^^" in lines[lines.index(next(ln for ln in lines if "also give" in ln)) + 2]


@pytest.mark.case("5.2B")
def test_5_2B_a_lookup_value_or_coordinate_not_in_the_table_gets_a_did_you_mean(tmp_path):
    line = 'lookup tec(terrain: "forst", unit: "leg", colum: "base") by 5.2B when ground is snow'
    code, lines = _check(_pack_with(tmp_path, line))
    assert code == 1
    text = "\n".join(lines)
    assert "supply.rules:7:23: supply_path_mp: `forst` is not one of clear, forest" in text
    assert "did you mean `forest`?" in text
    assert "has no coordinate `colum` (it takes: terrain, unit, column); did you mean `column`?" in text
    assert "also give column" in text


@pytest.mark.case("9.2A")
def test_9_2A_the_shipped_lookups_pass_the_check():
    for game in ("moscow41", "battle_for_moscow", "kestrel_pass"):
        code, lines = _check(Path(game))
        assert code == 0, lines


@pytest.mark.case("5.2B")
def test_5_2B_a_constant_divisor_of_0_is_refused_at_check_time(tmp_path):
    code, lines = _check(_pack_with(tmp_path, "turn / 0 by 5.2B when ground is mud"))
    assert code == 1
    assert any("supply.rules:7:10: supply_path_mp: division by zero: the divisor is always 0" in ln
               for ln in lines), lines


@pytest.mark.case("5.2B")
def test_5_2B_a_division_by_zero_at_run_time_is_one_located_line(tmp_path):
    pack = _pack_with(tmp_path, "8 / (turn - turn) by 5.2B when ground is mud")
    assert _check(pack)[0] == 0  # the divisor is not known until the turn is
    engine = load_engine(pack)
    with pytest.raises(EvaluationError) as exc:
        engine.rules.value("supply_path_mp", {"ground": "mud", "turn": 3}, engine.script_tables)
    assert str(exc.value) == "supply.rules:7:3: evaluating `supply_path_mp`: division by zero"
    assert engine.rules.value("supply_path_mp", {"ground": "dry", "turn": 3}, engine.script_tables) == 8


def _errors(src: str) -> list[str]:
    from casebook.core.errors import ScriptSyntaxError
    from casebook.script import compile_scripts, find_rule_pack, load_facts

    pack = find_rule_pack("moscow41")
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_scripts([("x.rules", src)], load_facts(pack.facts), None)
    return [f"{p.line}:{p.column}: {p.message}" for p in exc.value.problems]


def test_distance_with_one_argument_names_the_function_and_its_signature():
    errs = _errors("forbid move by 1.1 when distance(hex) > 1\n")
    assert len(errs) == 1 and errs[0].startswith("1:37: syntax error: unexpected `)`; `distance` takes two hexes: "
                                                 "`distance(<hex>, <hex>)`"), errs


def test_min_and_max_of_one_amount_are_refused():
    assert _errors("quantity q = sum\n  min(4) by 1.1\n  max(turn) by 1.1\n") == [
        "2:3: `min` takes two or more amounts: `min(a, b, …)`",
        "3:3: `max` takes two or more amounts: `max(a, b, …)`"]


def _pack_edited(tmp_path: Path, old: str, new: str) -> Path:
    pack = tmp_path / "moscow41"
    shutil.copytree(ROOT / "games" / "moscow41", pack, ignore=shutil.ignore_patterns("golden", "tests"))
    path = pack / "rules" / "victory.rules"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return pack


@pytest.mark.case("18.1.3D")
def test_18_1_3D_a_misspelt_town_name_is_refused_with_a_did_you_mean(tmp_path):
    """18.1.3D: the Soviets win automatically when a combat unit enters Smolensk: a typo in the
    town's name would silently stop the win; the map knows its towns."""
    code, lines = _check(_pack_edited(tmp_path, 'town_name(hex) is "Smolensk"', 'town_name(hex) is "Smolesnk"'))
    assert code == 1
    assert any(ln.endswith('victory.rules:32:74: action_ends: "Smolesnk" is not a value `town_name(…)` takes '
                           "(the pack's: 41 values); did you mean `Smolensk`?") for ln in lines), lines


@pytest.mark.case("18.2.4B")
def test_18_2_4B_a_misspelt_scenario_id_is_refused_with_a_did_you_mean(tmp_path):
    code, lines = _check(_pack_edited(tmp_path, 'scenario_id is "campaign"', 'scenario_id is "campagin"'))
    assert code == 1
    assert any(ln.endswith('victory.rules:20:54: reaction_step: "campagin" is not a value `scenario_id` takes '
                           "(the pack's: \"campaign\", \"october-blitz\"); did you mean `campaign`?")
               for ln in lines), lines


@pytest.mark.case("3.0C")
def test_3_0C_a_lookup_value_read_at_run_time_outside_the_table_is_one_located_line(m41):
    """3.0C: the precipitation roll adds the Temperature box's modifier; a temperature the box does
    not have is a located error naming the line and the quantity (was an unlocated KeyError)."""
    facts = {"temperature": "tepid", "weather_die": 3, "turn_ground_drm": 0}
    with pytest.raises(EvaluationError) as exc:
        m41.rules.value("precipitation_roll", facts, m41.script_tables)
    assert str(exc.value) == ("weather.rules:13:10: evaluating `precipitation_roll`: table temperature_box: "
                              "temperature='tepid' is not one of ['warm', 'cold', 'arctic']")
