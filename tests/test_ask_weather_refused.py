"""0.7.1: a position past its turn's Weather Phase without the weather that phase set is refused by
every ``ask`` as ``play --load`` refuses it — one located line naming what to add, exit 1
(content/savecheck.py ``weather_problems``). ``ask reach/move/zoc/supply/why`` answered as if the
ground were dry and ``ask weather`` exited 2 unlocated."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_position_fields import run

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = [["reach", "g1"], ["move", "g1", "0203"], ["zoc", "0303"], ["supply", "g1"], ["why"], ["weather"],
             ["attack", "0505", "--with", "g1"]]


def _bare(tmp_path: Path) -> tuple[Path, int]:
    lines = (ROOT / "docs" / "examples" / "reach-move.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    bare = tmp_path / "nowx.yaml"
    bare.write_text("".join(ln for ln in lines if not ln.startswith("weather:")), encoding="utf-8")
    return bare, next(i for i, ln in enumerate(bare.read_text().splitlines(), 1) if ln.startswith("phase:"))


@pytest.mark.case("0.7.1")
@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q[0])
def test_0_7_1_every_ask_refuses_a_position_past_the_weather_phase_without_weather(tmp_path, question):
    bare, phase_line = _bare(tmp_path)
    located = (f"{bare}:{phase_line}:1: weather: temperature, ground not given, but phase 'first_player' comes after "
               "the Weather Phase (0.7.1), which sets the turn's weather: add `weather: {temperature: …, ground: …}`")
    code, out = run("ask", bare, *question)
    assert code == 1 and "Traceback" not in out and out.splitlines()[0].startswith(located), out
    code, out = run("ask", bare, *question, "--pack", ROOT / "games" / "moscow41")  # a pack named: the same
    assert code == 1 and out.splitlines()[0].startswith(located), out
    play, said = run("play", "--load", bare, "--quiet", "--out", tmp_path / "out")  # play's own refusal
    assert play == 1 and said.splitlines()[0].startswith(located), said
