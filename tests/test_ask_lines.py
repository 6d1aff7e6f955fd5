"""Every answer names its lines (issue #15): an ``ask`` answer and a refusal (``why``) whose number or
permission came from a rule script or a table carry the ``file:line``, cases and text of each line
that fired, in the JSON and in the text form."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.core.game import Game
from casebook.tools.cmd_ask import ask_position, render_text, why_not_lines

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
RULES = ROOT / "games" / "moscow41" / "rules"


def _line(source: str) -> str:
    """The text of ``file:line`` of the Moscow '41 rules, as the answer quotes it (a table line,
    ``tables/tec.yaml:17``: of the pack folder's file, as content/tablelines.py quotes it)."""
    file, _, n = source.partition(":")
    if file.endswith(".yaml"):
        from casebook.content.tablelines import line_text_at

        return line_text_at(RULES.parent, file, int(n))
    return (RULES / file).read_text(encoding="utf-8").split("\n")[int(n) - 1].split("#")[0].strip()


def _sources(answer) -> list[str]:
    return [ln["source"] for ln in answer["lines"]]


def _check_quoted(answer) -> None:
    for ln in answer["lines"]:
        want = _line(ln["source"])
        assert ln["text"] == (want[:-1].rstrip() + " …" if want.endswith("\\") else want)


@pytest.mark.case("5.2B")
def test_5_2B_ask_supply_names_the_supply_length_line():
    answer = ask_position(str(EXAMPLES / "supply-road.yaml"), "supply", ["g1"], {})
    src = next(s for s in _sources(answer) if s.startswith("supply.rules:"))
    assert _line(src) == "otherwise 8  by 5.2B, 5.2C"                  # 5.2B: 8 MPs
    _check_quoted(answer)
    text = render_text(answer)
    assert "lines:" in text and f"{src}" in text and "otherwise 8  by 5.2B, 5.2C" in text


@pytest.mark.case("9.2A", "9.3")
def test_9_2A_ask_reach_and_move_name_the_ma_and_cost_lines():
    for question, args in (("reach", ["g1"]), ("move", ["g1", "0203"])):
        answer = ask_position(str(EXAMPLES / "reach-move.yaml"), question, args, {})
        sources = _sources(answer)
        assert any(_line(s).startswith("lookup tec(") for s in sources), (question, sources)   # 9.2A
        assert any(_line(s).startswith("start printed_ma") for s in sources), (question, sources)  # 9.1A
        _check_quoted(answer)


@pytest.mark.case("6.0A")
def test_6_0A_ask_stacking_names_the_points_and_limit_lines():
    answer = ask_position(str(EXAMPLES / "stacking-overstack.yaml"), "stacking", ["0303"], {})
    texts = [ln["text"] for ln in answer["lines"]]
    assert "4 by 6.0A  when side is german" in texts                   # the German limit
    assert any(t.startswith("3 by 6.0A") for t in texts)              # a German division: 3 points
    _check_quoted(answer)


@pytest.mark.case("8.3.1A")
def test_8_3_1A_a_refusal_names_the_command_limit_line():
    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    cases, reason, lines = why_not_lines(state, "german: activate-hq hq=g-ix stacks=1213,1113,1313,1411")
    assert cases == ("8.3.1A", "0.2.4.7")
    assert "otherwise command_limit   by 8.3.1A, 0.2.4.7" in [
        ln["text"] for ln in lines if ln["source"].startswith("command.rules:")]   # IX's limit of 3
    # allowed (one stack): it names the line of the IPs it costs (2.1A) and the Initiative Point
    # Chart row that line read, not the command-limit search
    _, reason, lines = why_not_lines(state, "german: activate-hq hq=g-ix stacks=1313")
    assert (reason, [ln["source"] for ln in lines]) == ("legal", ["initiative.rules:40", "tables/ip_costs.yaml:11"])
