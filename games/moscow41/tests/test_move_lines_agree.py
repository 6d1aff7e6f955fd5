"""A move's lines agree in ``ask move``, ``ask … why "move …"`` and play (issue #15 item 3, guide
rule 12; session 17, mv17): the same ``file:line`` list, in the same order, for the same move.

- a legal move names the lines of its MA and of its path's costs (``factlines.rule_lines``: the
  MA's and the path's rules), the TEC column's line that chose the cells (lent to the ``lookup
  tec(…)`` line, ``factlines.lend``) and the cells — not ``movement_side`` (whose units move now:
  a permission of the step, which decides a refusal of a hex without the side's units, not a legal
  move's number), nor the supply search's lines unless 5.7B's ``× ½ when not supplied`` fired and
  read them (then those ``ask supply`` names of the slowest unit, before the MA line);
- a path to a hex not adjacent (9.0A) names no line: ``ask move`` names its refusal's lines, as
  ``why`` and play's refusal (``ask_cases.deciding_lines``), not the MA's;
- an EZOC refusal (7.2) names no TEC column line: no TEC cell decided it, though `otherwise dry
  by 4.1B` cites the case of the ZOC column's line.

docs/examples/reach-move.yaml: g1 (German infantry, MA 4) in 0202, a river 0202/0203, Soviet s1
in 0505; Dry. Every line number is found by reading the file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook.content.position import position_to_dict
from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.tools.ask_why import refusal
from casebook.tools.cmd_ask import _position_engine, answer_ctx, why_not_lines
from games.moscow41.tests.test_ezoc_move_lines import (
    EXERT,
    INTO_HEX,
    LOCKING,
    TEC_COLUMN,
    ZOC_COLUMN,
    chart_cell,
    rule,
)
from games.moscow41.tests.test_move_tec_cells import cell

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "docs" / "examples" / "reach-move.yaml"
MA = rule("movement.rules", "  start printed_ma")
HALF_OOS = rule("movement.rules", "  × ½  by 5.7B")
TERRAIN = rule("movement.rules", "  lookup tec(")
HEXSIDE = rule("movement.rules", "  lookup tec_hexside(")
WHO_MOVES = rule("movement.rules", "  otherwise phasing_side")
SUPPLY_LENGTH = rule("supply.rules", "  otherwise 8")


def _state(position: Path):
    pos, engine = _position_engine(str(position))
    return Game(engine, next(iter(engine.pack.scenarios))).state_from_dict(position_to_dict(pos))


def _three(state, stack: str, path: list[str]) -> tuple[list[str], list[str], list[str]]:
    """The line sources of ``ask move``, of ``why`` and of play (its ``move`` event, or its refusal)."""
    answer = answer_ctx(state.game.engine.ctx(state.data), "move", [stack, *path], {})
    action = Action.make("move", state.current_player(), stack=stack, path=path)
    cases, reason, lines = why_not_lines(state, action)
    played = state.clone()
    seen = len(played.trace)
    try:
        played.apply(action)
    except IllegalActionError as exc:
        assert not answer["legal"] and reason != "legal"
        named = refusal(state, action, exc)[2]
    else:
        assert answer["legal"] and reason == "legal"
        named = next(e for e in list(played.trace)[seen:] if e.kind == "move").data.get("lines", [])
    return ([ln["source"] for ln in answer.get("lines", [])], [ln["source"] for ln in lines],
            [ln["source"] for ln in named])


@pytest.fixture(scope="module")
def example():
    return _state(EXAMPLE)


@pytest.mark.case("9.1A", "9.2A", "9.2B", "0.7.3.2A")
def test_9_2B_a_supplied_legal_move_names_the_same_lines_in_ask_why_and_play(example):
    asked, why, played = _three(example, "0202", ["0203"])
    want = [MA, TEC_COLUMN, TERRAIN, HEXSIDE, cell("tec.yaml", "clear", "infantry"),
            cell("tec_hexside.yaml", "river", "infantry")]
    assert asked == why == played == want
    assert WHO_MOVES not in played and SUPPLY_LENGTH not in played and ZOC_COLUMN not in played


@pytest.fixture(scope="module")
def cut_off(tmp_path_factory) -> Path:
    """The example with g1 in 0505, s1 in 0707 and seven Soviet 1-SP divisions in 0201-0207: the
    west edge (5.1A) is beyond their units and ZOCs (5.4A-B), so g1 is out of supply (5.7B)."""
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    g1 = {**data["units"][0], "hex": "0505"}
    data["units"] = [g1, {**data["units"][2], "hex": "0707"}, *(
        {"id": f"sx{r}", "side": "soviet", "class": "infantry", "size": "division", "strength": 1, "ma": 4,
         "hex": f"02{r:02d}"} for r in range(1, 8))]
    path = tmp_path_factory.mktemp("mv17") / "cut-off.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.case("5.7B", "5.2B")
def test_5_7B_an_unsupplied_move_names_its_supply_lines_before_the_halved_ma_in_all_three(cut_off):
    state = _state(cut_off)
    supply = answer_ctx(state.game.engine.ctx(state.data), "supply", ["g1"], {})
    assert supply["in_supply"] is False
    supply_lines = [ln["source"] for ln in supply["lines"]]
    assert supply_lines == [SUPPLY_LENGTH, rule("zoc.rules", "forbid trace_supply_through_ezoc")]
    asked, why, played = _three(state, "0505", ["0605"])
    assert asked == why == played == [*supply_lines, MA, HALF_OOS, TEC_COLUMN, TERRAIN,
                                      cell("tec.yaml", "clear", "infantry")]
    assert WHO_MOVES not in played


@pytest.mark.case("9.0A")
def test_9_0A_a_hex_not_adjacent_names_no_line_in_ask_why_or_play(example):
    asked, why, played = _three(example, "0202", ["0204"])
    assert asked == why == played == []


@pytest.mark.case("7.2", "4.1B")
def test_7_2_an_ezoc_refusal_names_no_tec_column_line_in_ask_why_or_play(example):
    asked, why, played = _three(example, "0202", ["0302", "0402", "0403", "0404", "0405"])
    assert asked == why == played == [ZOC_COLUMN, EXERT, INTO_HEX, chart_cell("infantry"), LOCKING]
    assert TEC_COLUMN not in asked


@pytest.mark.case("5.7B", "9.1A")
def test_5_7B_an_unsupplied_stack_short_of_mps_names_the_halving_and_its_supply_lines_in_all_three(cut_off):
    """g1's MA 4 is halved to 2 out of supply: a third clear hex is refused for MPs (9.1A, 9.2C) — and
    the halving decided it, so the refusal cites 5.7B and names `× ½ by 5.7B` and the supply lines it
    read, in ask move, why and play's refusal alike (session 17: a fresh user found only the MA line)."""
    state = _state(cut_off)
    asked, why, played = _three(state, "0505", ["0605", "0705", "0805"])
    supply_lines = [SUPPLY_LENGTH, rule("zoc.rules", "forbid trace_supply_through_ezoc")]
    assert asked == why == played
    assert asked[:4] == [*supply_lines, MA, HALF_OOS] and TERRAIN in asked
    action = Action.make("move", state.current_player(), stack="0505", path=["0605", "0705", "0805"])
    cases, reason, _lines = why_not_lines(state, action)
    assert reason == "0805: 1 MP needed to enter 0805, 0 left" and "5.7B" in cases
