"""Line provenance (issue #15, deliver 3): trace events whose number came from a rule script carry
the `file:line` and cases of every line that fired (`lines`), and `casebook explain` prints each
line's text read from the script."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli
from casebook.tools.cmd_explain import line_text
from tests.conftest import make_ctx

FORT_FACTS = {"side": "soviet", "hex_city": False, "hex_town": False, "hex_road": True, "moscow_distance": 9,
              "hex_supplied": True, "in_german_zoc": False, "combat_unit_present": True, "already_fortified": False}


@pytest.mark.case("14.1B")
def test_14_1B_the_fired_lines_of_fort_cost_are_its_file_and_line(position, repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    ctx = position(json.dumps({"kind": "position", "format": 1, "game": "moscow41", "units": [],
                               "weather": {"temperature": "warm", "ground": "dry"}}, indent=1))
    explained = ctx.quantity("fort_cost", FORT_FACTS)
    assert explained.value == 2   # 14.1B: "2 on a road, trail or town"
    assert ctx.fired_lines(explained) == [{"source": "fortification.rules:7", "cases": ["14.1B"]}]
    assert line_text("fortification.rules:7", repo_root / "games" / "moscow41" / "rules") == \
        "2 by 14.1B  when hex_road or hex_town"
    city = ctx.quantity("fort_cost", {**FORT_FACTS, "hex_road": False, "moscow_distance": 5})
    assert city.value == 3 and ctx.fired_lines(city) == [
        {"source": "fortification.rules:5", "cases": ["14.1B"]}]


def test_line_text_reads_the_script_line_without_its_comment(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.rules").write_text("# head\nquantity q = sum by 1.1\n  2 by 1.1   # two\n",
                                                encoding="utf-8")
    rules = tmp_path / "rules"
    assert line_text("a.rules:3", rules) == "2 by 1.1"
    assert line_text("a.rules:9", rules) == ""
    assert line_text("missing.rules:1", rules) == ""
    assert line_text("../rules/a.rules:3", rules) == ""   # never outside the rules folder
    assert line_text("casebook.games.moscow41.plugins.weather.roll_ground", rules) == ""


@pytest.mark.case("12.3B")
def test_12_3B_a_rebuild_event_carries_its_lines_and_explain_prints_their_text(m41, tmp_path, monkeypatch,
                                                                               repo_root):
    """The rebuild event's RP cost and dice come from reinforcement.rules; `explain` shows both lines."""
    monkeypatch.chdir(repo_root)
    from casebook.areas import replacements as rp
    from casebook.core.actions import Action
    from casebook.games.moscow41.plugins.reinforcement import replacements

    ctx = make_ctx(m41, json.dumps({
        "kind": "position", "format": 1, "game": "moscow41", "turn": 10, "phase": "first_initiative",
        "step": "replacement_reinforcement", "phasing": "soviet", "first_player": "soviet",
        "weather": {"temperature": "warm", "ground": "dry"}, "rp": {"soviet": {"infantry": 5}},
        "units": [{"id": "s-rem-01", "side": "soviet", "class": "remnant", "strength": 1, "ma": 4, "hex": "0520"}],
    }, indent=1), trace=True)
    rp.apply_rebuild(ctx, replacements(ctx), Action.make("rebuild", "soviet", unit="s-rem-01", into="s-108rd"))
    event = next(e for e in ctx.trace if e.kind == "rebuild")
    sources = [ln["source"] for ln in event.data["lines"]]
    assert [ln["cases"] for ln in event.data["lines"]] == [["12.3B"], ["12.3B"]]
    rules = repo_root / "games" / "moscow41" / "rules"
    assert [line_text(s, rules) for s in sources] == ["start 3  by 12.3B", "otherwise 2d6  by 12.3B"]
    path = tmp_path / "trace.jsonl"
    ctx.trace.write(path)
    # a trace without its setup event names no game: the pack is given
    shown = CliRunner().invoke(cli, ["explain", str(path), str(event.seq), "--pack", str(repo_root / "games" / "moscow41")])
    assert shown.exit_code == 0, shown.output
    assert f"12.3B          {sources[0]}  start 3  by 12.3B" in shown.output
    assert f"12.3B          {sources[1]}  otherwise 2d6  by 12.3B" in shown.output
