"""7.2, 7.3: an EZOC move refusal and a fluid EZOC-to-EZOC step name the lines that decided them
(issue #15, item 3): the ``move_on_in_ezoc`` line of the mover's ZOC kind (zoc.rules), the ZOC
Chart cell of the mover's own chart row only (tables/zoc_chart.yaml; not the cavalry, armor and
mechanized rows it did not read for the mover), the column's line (weather.rules ``zoc_column``)
and the lines that put the hexes in the enemy's ZOC (``permit exert_zoc``, ``permit zoc_into_hex``)
— the same in ``ask move``, in ``ask … why "move …"`` and in play's refusal or ``move`` event
(guide rule 12). The refusal says its reason once (the ZOC area's, naming the exerting unit).
docs/examples/reach-move.yaml: s1 (Soviet infantry, 0505) exerts a ZOC into 0404 and 0504; Dry
ground, so infantry is locked (7.2) and armor fluid (7.3). Every line number is found by reading
the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.content.position import position_to_dict
from casebook.core.actions import Action
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.tools.ask_why import refusal
from casebook.tools.cmd_ask import _position_engine, answer_ctx, why_not_lines

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "games" / "moscow41"
EXAMPLE = ROOT / "docs" / "examples" / "reach-move.yaml"


def rule(file: str, start: str, after: str | None = None) -> str:
    """``FILE:LINE`` of the first line of rules/FILE starting with ``start`` (after the line
    starting with ``after``)."""
    lines = (PACK / "rules" / file).read_text(encoding="utf-8").splitlines()
    at = next(i for i, t in enumerate(lines) if t.startswith(after)) if after else 0
    return f"{file}:{next(i for i in range(at, len(lines)) if lines[i].startswith(start)) + 1}"


def chart_cell(row: str) -> str:
    """``tables/zoc_chart.yaml:LINE`` of the Dry cell of ``row``."""
    lines = (PACK / "tables" / "zoc_chart.yaml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, t in enumerate(lines) if t == f'  "{row}":')
    dry = next(i for i in range(at, len(lines)) if lines[i].startswith('    "dry":'))
    return f"tables/zoc_chart.yaml:{dry + 1}"


ZOC_COLUMN = rule("weather.rules", "  otherwise dry", "quantity zoc_column")
TEC_COLUMN = rule("weather.rules", "  otherwise dry", "quantity tec_column")
EXERT = rule("zoc.rules", "permit exert_zoc ")
INTO_HEX = rule("zoc.rules", "permit zoc_into_hex")
LOCKING = rule("zoc.rules", "forbid move_on_in_ezoc")
FLUID = rule("zoc.rules", "permit move_on_in_ezoc by 7.3")
PLUS_ONE = rule("movement.rules", "  +1 * zoc_effects by 7.3")
ADDS = rule("zoc.rules", "forbid add_zoc_effects")


def _state(tmp_path: Path, g1: str = "0202", s2: str | None = None):
    """The example with g1 (infantry) in ``g1`` and MA 6: 0302 0402 0403 0404 costs 4 MP (clear);
    with ``s2``, a second Soviet rifle division there."""
    text = EXAMPLE.read_text(encoding="utf-8").replace('ma: 4, hex: "0202"', f'ma: 6, hex: "{g1}"')
    if s2:
        text += f'  - {{id: s2, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "{s2}"}}\n'
    path = tmp_path / f"ezoc-{g1}.yaml"
    path.write_text(text, encoding="utf-8")
    pos, engine = _position_engine(str(path))
    game = Game(engine, next(iter(engine.pack.scenarios)))
    return game.state_from_dict(position_to_dict(pos))


def _zoc(sources: list[str]) -> list[str]:
    return [s for s in sources if s.startswith(("zoc.rules:", "tables/zoc_chart.yaml:", "weather.rules:"))]


def _three(state, stack: str, path: list[str]) -> tuple[dict, tuple, str, list[str]]:
    """``ask move``'s answer; ``why``'s cases, reason and line sources — checked equal to play's refusal's."""
    answer = answer_ctx(state.game.engine.ctx(state.data), "move", [stack, *path], {})
    action = Action.make("move", state.current_player(), stack=stack, path=path)
    cases, reason, lines = why_not_lines(state, action)
    with pytest.raises(IllegalActionError) as exc:
        state.clone().apply(action)
    played = refusal(state, action, exc.value)
    assert (played[0], played[1], [ln["source"] for ln in played[2]]) == (cases, reason, [ln["source"] for ln in lines])
    return answer, cases, reason, [ln["source"] for ln in lines]


@pytest.mark.case("7.2", "7.0B")
def test_7_2_a_move_on_after_entering_an_ezoc_names_the_locking_line_the_cell_and_the_zoc_lines(tmp_path):
    answer, cases, reason, why = _three(_state(tmp_path), "0202", ["0302", "0402", "0403", "0404", "0504"])
    assert answer["refused"]["reason"] == reason == (
        "a unit treating ZOCs as locking must stop on entering the EZOC in 0404 (of s1); the path goes on to 0504")
    assert tuple(answer["refused"]["cases"]) == cases and cases[0] == "7.2"
    # not the TEC column's `otherwise dry by 4.1B` (TEC_COLUMN): no TEC cell decided it, though it
    # cites the ZOC column's case (session 17, mv17); ask names the refusal's lines, as why
    want = [ZOC_COLUMN, EXERT, INTO_HEX, chart_cell("infantry"), LOCKING]
    assert why == want and TEC_COLUMN not in why
    asked = [ln["source"] for ln in answer["lines"]]
    assert asked == why
    # the mover's own row only: not the cavalry, armor or mechanized cells
    assert [s for s in asked if s.startswith("tables/zoc_chart.yaml:")] == [chart_cell("infantry")]


@pytest.mark.case("7.2")
def test_7_2_ezoc_to_ezoc_is_refused_once_naming_the_same_lines(tmp_path):
    answer, cases, reason, why = _three(_state(tmp_path, "0404"), "0404", ["0504"])
    assert reason == answer["refused"]["reason"] == (
        "a unit treating ZOCs as locking cannot move directly from one EZOC (0404, of s1) to another (0504, of s1)")
    assert why == [ZOC_COLUMN, EXERT, INTO_HEX, chart_cell("infantry"), LOCKING]
    assert _zoc([ln["source"] for ln in answer["lines"]]) == _zoc(why)


@pytest.mark.case("7.3", "7.0B")
def test_7_3_a_fluid_step_names_the_cell_the_fluid_line_and_the_plus_one_in_ask_why_and_play(tmp_path):
    state = _state(tmp_path)
    path = ["0204", "0304", "0404", "0504"]  # p1 (armor): 0404 -> 0504, EZOC to EZOC, +1 MP
    answer = answer_ctx(state.game.engine.ctx(state.data), "move", ["0104", *path], {})
    assert answer["legal"] and answer["mp_spent"] == 5
    action = Action.make("move", "german", stack="0104", path=path)
    cases, reason, lines = why_not_lines(state, action)
    asked, why = [ln["source"] for ln in answer["lines"]], [ln["source"] for ln in lines]
    assert reason == "legal" and asked == why
    for source in (chart_cell("armor"), FLUID, PLUS_ONE, EXERT, INTO_HEX, ZOC_COLUMN):
        assert source in why, source
    assert [s for s in why if s.startswith("tables/zoc_chart.yaml:")] == [chart_cell("armor")]
    played = state.clone()
    played.apply(action)
    move = [e for e in played.trace if e.kind == "move"][-1]
    sources = [ln["source"] for ln in move.data["lines"]]
    assert _zoc(sources) == _zoc(why) and {PLUS_ONE, FLUID, chart_cell("armor")} <= set(sources)
    assert ADDS not in sources and "7.0F" not in answer["cases"]  # one unit exerts: 7.0F decided nothing


@pytest.mark.case("7.0F", "7.3")
def test_7_0F_a_fluid_step_into_a_hex_two_units_exert_into_costs_one_mp_naming_the_7_0F_line(tmp_path):
    # s2 in 0604: s1 and s2 both exert a ZOC into 0504 ("Multiple ZOCs exerted on a unit have no
    # additional effect"), so 0404 -> 0504 costs 1 + 1 as with s1 alone — and the 7.0F line decided it.
    state = _state(tmp_path, s2="0604")
    path = ["0204", "0304", "0404", "0504"]
    answer = answer_ctx(state.game.engine.ctx(state.data), "move", ["0104", *path], {})
    assert (answer["legal"], answer["mp_spent"], answer["steps"][-1]["cost"]) == (True, 5, 2)
    assert "7.0F" in answer["steps"][-1]["cases"] and "7.0F" in answer["cases"]
    action = Action.make("move", "german", stack="0104", path=path)
    _cases, reason, lines = why_not_lines(state, action)
    asked, why = [ln["source"] for ln in answer["lines"]], [ln["source"] for ln in lines]
    assert reason == "legal" and asked == why and ADDS in why
    played = state.clone()
    played.apply(action)
    move = [e for e in played.trace if e.kind == "move"][-1]
    assert {ADDS, PLUS_ONE, FLUID} <= {ln["source"] for ln in move.data["lines"]}
    # the step into 0404 (s1's ZOC only) and the steps outside any EZOC: no 7.0F
    assert all("7.0F" not in st["cases"] for st in answer["steps"][:-1])
