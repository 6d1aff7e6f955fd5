"""Every position of docs/examples/ loads where the docs use it: each ``casebook ask
docs/examples/…`` command the docs and README show answers (exit 0), every example is named by one,
and ``casebook play --load`` plays each on to its end (exit 0). A position past its turn's Weather
Phase (0.7.1) without the weather that phase set is refused located, naming what to add — it ended
in a traceback (``no ground condition is in force``) on reinforcements-turn10.yaml."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.test_position_fields import run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))
COMMAND = re.compile(r"casebook (ask docs/examples/[^`\n]*)")


def documented() -> list[list[str]]:
    """Every ``casebook ask docs/examples/…`` command of README.md and docs/**/*.md, as argv."""
    found: set[str] = set()
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        found.update(m.group(1).strip() for m in COMMAND.finditer(md.read_text(encoding="utf-8")))
    return [shlex.split(c) for c in sorted(found)]


COMMANDS = documented()


def test_every_example_is_used_by_a_documented_ask():
    used = {argv[1] for argv in COMMANDS}
    assert len(EXAMPLES) >= 16 and {f"docs/examples/{p.name}" for p in EXAMPLES} <= used


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_documented_ask_on_an_example_answers(argv, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out = run(*argv)
    assert code == 0 and "Traceback" not in out, out


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_play_load_plays_each_example_on(example, tmp_path):
    code, out = run("play", "--load", example, "--player", "german=bot:greedy", "--player", "soviet=bot:greedy",
                    "--quiet", "--out", tmp_path / "out")
    assert code == 0 and "Result:" in out and "Traceback" not in out, out


@pytest.mark.case("0.7.1")
def test_0_7_1_a_position_past_the_weather_phase_without_its_weather_is_refused_located(tmp_path):
    source = ROOT / "docs" / "examples" / "reinforcements-turn10.yaml"
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    bare = tmp_path / "no-weather.yaml"
    bare.write_text("".join(ln for ln in lines if not ln.startswith("weather:")), encoding="utf-8")
    phase_line = next(i for i, ln in enumerate(bare.read_text().splitlines(), 1) if ln.startswith("phase:"))
    code, out = run("play", "--load", bare, "--quiet", "--out", tmp_path / "out")
    first = out.strip().splitlines()[0]
    assert code == 1 and "Traceback" not in out and not (tmp_path / "out").exists(), out
    assert first == (f"{bare}:{phase_line}:1: weather: temperature, ground not given, but phase 'first_initiative' "
                     "comes after the Weather Phase (0.7.1), which sets the turn's weather: add `weather: "
                     "{temperature: …, ground: …}` (temperature: warm, cold, arctic; ground: dry, frozen, mud, "
                     "drying, snow, deep_snow)"), out


def test_the_weather_phase_is_where_the_sequence_names_it():
    from casebook.content.loader import load_pack
    from casebook.content.savecheck import weather_phase, weather_problems

    m41 = load_pack("moscow41")
    at_phase, at_step, phase = weather_phase(m41)
    assert (at_phase, at_step, phase["id"], phase["case"]) == (0, 2, "weather", "0.7.1")
    assert weather_phase(load_pack("kestrel_pass")) is None and weather_phase(load_pack("battle_for_moscow")) is None

    def problems(**data):
        return weather_problems(data, m41, lambda kp: ("<p>", 1, 1))

    assert problems(phase="weather", step="ground") == []           # the phase that sets it
    assert problems() == []                                           # starts where its scenario does
    assert len(problems(phase="weather", step=None)) == 0
    assert [p.key for p in problems(phase="first_player", step="movement")] == ["weather"]
    assert problems(phase="first_player", weather={"temperature": "warm", "ground": "dry"}) == []
