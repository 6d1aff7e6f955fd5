"""Issue #15 (session 16): the October Blitz's victory conditions (18.1.3) are named by the lines
of the scenario file that hold them — ``ask vp`` cites each condition it lists, a result (the
``victory`` event and the driver's ``game-over``) the condition that decided it (an ``otherwise``:
its line and those of the other side's conditions judged and not met:
games/moscow41/tests/test_scenarios.py)."""

from __future__ import annotations

import pytest

from casebook.tools.cmd_ask import ask_position
from casebook.tools.cmd_explain import line_text
from tests._pack_edits import GAMES

BLITZ = GAMES / "moscow41" / "scenarios" / "october-blitz.yaml"


@pytest.mark.case("18.1.3")
def test_18_1_3_ask_vp_cites_the_scenario_lines_of_the_conditions_it_lists():
    answer = ask_position(str(BLITZ), "vp", [], {})
    scen = [(ln["source"], ln["cases"]) for ln in answer["lines"] if ln["source"].startswith("scenarios/")]
    assert scen == [("scenarios/october-blitz.yaml:15", ["18.1.3A"]), ("scenarios/october-blitz.yaml:16", ["18.1.3B"]),
                    ("scenarios/october-blitz.yaml:18", ["18.1.3C"]), ("scenarios/october-blitz.yaml:21", ["18.1.3D"])]
    otherwise = next(ln for ln in answer["lines"] if ln["source"] == "scenarios/october-blitz.yaml:18")
    assert otherwise["text"] == '- {id: "otherwise", case: "18.1.3C", kind: "otherwise", when: "end"}'
    assert [c["id"] for c in answer["scenario_conditions"]["german"]] == ["three-towns", "enter-moscow"]


@pytest.mark.case("18.1.3C")
def test_18_1_3C_explain_reads_the_scenario_line_a_game_over_names():
    text = line_text("scenarios/october-blitz.yaml:18", GAMES / "moscow41" / "rules", GAMES / "moscow41")
    assert text == '- {id: "otherwise", case: "18.1.3C", kind: "otherwise", when: "end"}'


def test_a_campaign_points_verdict_names_no_scenario_condition_line():
    answer = ask_position(str(GAMES / "moscow41" / "scenarios" / "campaign.yaml"), "vp", [], {})
    assert [ln for ln in answer["lines"] if ln["source"].startswith("scenarios/")] == []
    assert "scenario_conditions" not in answer


@pytest.mark.case("18.1.3A", "18.1.3C")
def test_18_1_3_condition_lines_are_those_of_the_loaded_pack_read_once(tmp_path):
    """The scenario file is read once per loaded pack (``pack.table_lines``): an edit of the file on
    disk after loading moves no line a game or answer of that pack names (the file was re-parsed
    whenever its time stamp changed, and its text read again for every answer)."""
    import os

    from casebook.areas.scenario_victory import condition_lines, conditions
    from casebook.core.trace import Trace
    from casebook.script.engine import load_engine, state_from_position
    from tests._pack_edits import copy_edited

    pack = copy_edited(tmp_path)
    engine = load_engine(pack)
    ctx = engine.ctx(state_from_position(engine.pack.scenario("october-blitz")), Trace())
    listed = conditions(ctx, "end")
    first = condition_lines(ctx, listed, text=True)
    assert [(ln["source"], ln["cases"]) for ln in first] == [("scenarios/october-blitz.yaml:15", ["18.1.3A"]),
                                                             ("scenarios/october-blitz.yaml:18", ["18.1.3C"])]
    assert first[1]["text"] == '- {id: "otherwise", case: "18.1.3C", kind: "otherwise", when: "end"}'
    path = pack / "scenarios" / "october-blitz.yaml"
    path.write_text("# a line added after loading\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    later = path.stat().st_mtime_ns + 10**10
    os.utime(path, ns=(later, later))
    assert condition_lines(ctx, listed, text=True) == first
    assert condition_lines(ctx, listed) == [{k: v for k, v in ln.items() if k != "text"} for ln in first]


@pytest.mark.case("18.1.3B", "18.1.3D")
def test_18_1_3B_and_18_1_3D_an_enter_target_is_named_as_the_map_names_it():
    """Session 18, a fresh user's report: "no german combat unit entered moscow" gave the hex set's key,
    lowercase. 18.1.3B: "a German combat unit enters a Moscow hex" — the map's five Moscow hexes
    (map.yaml ``moscow``, each a town named Moscow); 18.1.3D: "enters Smolensk" — one town hex."""
    answer = ask_position(str(BLITZ), "vp", [], {})
    needs = {c["id"]: c["needs"] for side in ("german", "soviet") for c in answer["scenario_conditions"][side]}
    assert needs["enter-moscow"] == "a combat unit enters a Moscow hex (2242, 2342, 2343, 2344, 2442)"
    assert needs["enter-smolensk"] == "a combat unit enters Smolensk 1308"
