"""A scenario's ``bot_plan:`` block (casebook.content.schema_plan): the October Blitz's German pincers
meeting at Vyazma by Turn 2 (reconstructed from the historical commentary 19.0E, 19.0G) validate;
a bad hex, a hex off the map, a town not in its hex, an unknown side or unit class, an unknown key and a rulebook
provenance are refused by lint, each at its ``file:line:column``. Guidance for the bots, not a rule."""

from __future__ import annotations

from casebook.content.position import load_position
from tests._pack_edits import copy_pack as _copy
from tests._pack_edits import edit as _edit
from tests._pack_edits import line_of as _line
from tests._pack_edits import lint_errors as _lint

_VYAZMA = '{side: "german", hex: "1722", town: "Vyazma", by_turn: 2'


def _col(path, text: str) -> int:
    """The 1-based column of ``text`` on the plan's line (the one naming Vyazma)."""
    line = _line(path, 'town: "Vyazma"')
    return path.read_text(encoding="utf-8").splitlines()[line - 1].index(text) + 1


def test_the_blitz_plan_loads_as_written():
    pos = load_position("games/moscow41/scenarios/october-blitz.yaml")
    plan = pos.scenario.bot_plan
    assert plan is not None and plan.provenance.startswith("reconstructed:")
    (vyazma,) = plan.objectives
    assert (vyazma.side, vyazma.hex, vyazma.town, vyazma.by_turn, vyazma.classes) == ("german", "1722", "Vyazma", 2,
                                                                                     ["armor", "mechanized"])


def test_a_plan_hex_off_the_map_a_bad_hex_and_a_town_elsewhere_fail_lint(tmp_path):
    pack = _copy(tmp_path, "moscow41")
    scenario = pack / "scenarios" / "october-blitz.yaml"
    _edit(scenario, _VYAZMA, '{side: "german", hex: "9999", town: "Vyazma", by_turn: 2')
    out = _lint(pack)
    line, col = _line(scenario, '"9999"'), _col(scenario, 'hex:')  # each problem at its key
    assert (f"october-blitz.yaml:{line}:{col}: scenario.bot_plan.objectives.0.hex: "
            "hex 9999 is off the map (hexes 0108..4053)") in out
    _edit(scenario, 'hex: "9999", town: "Vyazma"', 'hex: "1723", town: "Vyazma"')
    out = _lint(pack)
    assert (f"october-blitz.yaml:{line}:{_col(scenario, 'town:')}: scenario.bot_plan.objectives.0.town: "
            "town 'Vyazma' is not in hex 1723: the map has no town there") in out
    _edit(scenario, 'hex: "1723", town: "Vyazma"', 'hex: "17x2", town: "Vyazma"')
    out = _lint(pack)
    assert f"october-blitz.yaml:{line}:" in out and "scenario.bot_plan.objectives.0.hex" in out


def test_an_unknown_key_an_unknown_side_and_a_rulebook_provenance_fail_lint(tmp_path):
    pack = _copy(tmp_path, "moscow41")
    scenario = pack / "scenarios" / "october-blitz.yaml"
    _edit(scenario, _VYAZMA, '{side: "finnish", hex: "1722", town: "Vyazma", by_turn: 2, turn: 2')
    out = _lint(pack)
    line = _line(scenario, '"finnish"')
    assert (f"october-blitz.yaml:{line}:{_col(scenario, 'side:')}: scenario.bot_plan.objectives.0.turn: "
            "unknown key 'turn' (did you mean 'by_turn'?)")  # at the objective's mapping in out
    _edit(scenario, ', turn: 2, weight: 3.0, classes: ["armor"', ', weight: 3.0, classes: ["armour"')
    out, col = _lint(pack), _col(scenario, '"armour"')
    assert (f"october-blitz.yaml:{line}:{col}: scenario.bot_plan.objectives.0.classes.0: "
            "unknown unit class 'armour' (classes: infantry, cavalry, armor, mechanized, hq, remnant, ski, paratroop)") in out
    assert (f"october-blitz.yaml:{line}:{_col(scenario, 'side:')}: scenario.bot_plan.objectives.0.side: "
            "unknown side 'finnish' (sides: german, soviet)") in out
    _edit(scenario, 'provenance: "reconstructed: the rulebook\'s historical', 'provenance: "rulebook: 19.0E the rulebook\'s historical')
    out = _lint(pack)
    assert "scenario.bot_plan.provenance" in out and "a bot plan is guidance, not a rule" in out
