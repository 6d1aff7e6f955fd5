"""What `casebook rules check` refuses in a declared action's block (issue #15 items 1 and 5):
its `require`/`forbid` lines, keyed-track costs and `add … to track` effects are checked like
every line — `file:line:column`, a caret, a did-you-mean — and so are keyed tracks read as facts.
Checked against Kestrel Pass's facts and vocabulary (KP11)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.errors import ScriptSyntaxError
from casebook.script import compile_scripts
from casebook.script.facts import load_facts
from casebook.tools.cli import cli as main

PACK = Path(__file__).resolve().parent.parent / "games" / "kestrel_pass"
WORLD = {"sides": ("blue", "red"), "tracks": {"engineers": ("side",), "blue_vp": (), "red_vp": ()}}
HEAD = "offer dig_in in step movement for each map_hex by KP11.2\n"


def _error(body: str, head: str = HEAD) -> str:
    with pytest.raises(ScriptSyntaxError) as err:
        compile_scripts([("x.rules", head + body + "end\n")], load_facts(PACK / "rules" / "facts.yaml"), world=WORLD)
    return str(err.value)


@pytest.mark.case("KP11.2")
def test_KP11_2_a_cost_names_a_track_of_the_vocabulary_and_its_keys():
    text = _error("  cost 2 from track enginers of side by KP11.2\n")
    assert "x.rules:2:21:" in text and "unknown track `enginers`" in text and "did you mean `engineers`" in text
    assert "^^^^^^^^" in text
    text = _error("  cost 2 from track engineers of blu by KP11.2\n")
    assert "x.rules:2:21:" in text and "`blu` is neither a fact nor a key (blue, red)" in text and "`blue`" in text
    assert "kept by 1 key(s) (side); `of` gives 0" in _error("  cost 2 from track engineers by KP11.2\n")


@pytest.mark.case("KP11.2", "KP11.3")
def test_KP11_3_require_and_forbid_lines_are_checked_conditions():
    text = _error("  require fieldwork < 4 by KP11.3\n")
    assert "x.rules:2:11:" in text and "unknown fact `fieldwork`" in text and "did you mean `fieldworks`" in text
    assert "a condition must be true or false" in _error("  require 3 by KP11.3\n")
    text = _error("  forbid by KP11.3 when printed_ma > 1\n")                      # not an input of dig_in
    assert "x.rules:2:25:" in text and "`printed_ma` is never given to permission `dig_in`" in text


@pytest.mark.case("KP11.2")
def test_KP11_2_effects_of_an_offer_are_checked():
    text = _error("  place marker fortification by KP11.2\n", head="offer dig_in in step movement by KP11.2\n")
    assert "x.rules:2:3:" in text and "needs `for each map_hex` or `for each map_unit`" in text
    text = _error("  add 1 to track blue_vpp by KP11.2\n")
    assert "x.rules:2:18:" in text and "did you mean `blue_vp`" in text


@pytest.mark.case("KP11.1")
def test_KP11_1_a_keyed_track_fact_names_a_track_and_its_keys(tmp_path):
    shutil.copytree(PACK, tmp_path / "kp", ignore=shutil.ignore_patterns("golden"))
    facts = tmp_path / "kp" / "rules" / "facts.yaml"
    facts.write_text(facts.read_text(encoding="utf-8").replace("of: engineers, keys: [blue]",
                                                               "of: engineers, keys: [blu]"), encoding="utf-8")
    r = CliRunner().invoke(main, ["rules", "check", str(tmp_path / "kp")])
    assert r.exit_code == 1
    assert "facts.yaml:21:48: facts.blue_engineers.of: track `engineers`: `blu` is not a key (blue, red)" in r.output
    assert "did you mean `blue`?" in r.output and "^^^^^^^^^" in r.output
