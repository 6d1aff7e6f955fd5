"""Where a CRT column shift comes from (session 19's fresh user, defect 6: `column 4:1 shifted +1`,
`column_shift: 1` and the browser's `shift 1 → 4:1` never said it was s-222rd's Loss marker).
10.3B: "each player shifts the ratio according to the largest Loss marker on unit of its side.
Attacker Loss markers shift the ratio to the left one column for each step. Defender Loss markers
shift the ratio one column to the right for each step." 10.3C: "only the largest Loss marker is
used for each side".

``ask … attack`` lists each shift under ``shifts`` with its case, script line and the units whose
marker it is (``_combat_resolve.shift_sources``); play's account words the same lines from the
``combat`` event's ``lines`` (``combat_words.shift_terms``), whose data stays as it was.
docs/examples/attack.yaml: g1 and g2 (a 1-Loss marker) attack s1 in 0304.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.content.position import load_position, position_to_dict
from casebook.tools.account import Narrator, drm_lines, narrate_all, term_words
from casebook.tools.cli import cli as main
from games.moscow41.tests.test_cookbook import ROOT
from games.moscow41.tests.test_decisions_attackers import game  # noqa: F401 (the game fixture)
from games.moscow41.tests.test_support_beyond_limit import EXAMPLE, _ask

RULES = ROOT / "games" / "moscow41" / "rules"
ATTACKER = " -1  10.3B Determining Odds, B — any attacker has losses > 0"


@pytest.mark.case("10.3B", "10.3C")
def test_10_3B_ask_attack_names_the_loss_marker_a_shift_comes_from():
    answer = json.loads(_ask("--json"))
    assert answer["column_shift"] == -1 and (answer["basic_column"], answer["column"]) == ("3:2", "1:1")
    assert answer["shifts"] == [{"case": "10.3B, 10.3C", "value": -1, "source": "combat.rules:67",
                                 "from": "g2 (losses 1)"}]
    assert ATTACKER.replace("10.3B", "10.3B, 10.3C") + ": g2 (losses 1)" in _ask()


@pytest.mark.case("10.3B", "10.3C")
def test_10_3B_both_sides_markers_each_named_and_only_the_largest(game, tmp_path):  # noqa: F811
    """10.3C: s1 with 2 steps (s2, not attacked, has none): +2; g2's 1 step to the left: +2 - 1 = +1."""
    text = EXAMPLE.read_text().replace('strength: 6, ma: 4, hex: "0304"}', 'strength: 6, ma: 4, hex: "0304", losses: 2}')
    (tmp_path / "both.yaml").write_text(text)
    r = CliRunner().invoke(main, ["ask", str(tmp_path / "both.yaml"), "attack", "0304", "--with", "g1,g2", "--json"])
    answer = json.loads(r.output)
    assert answer["column_shift"] == 1
    assert [(t["value"], t["from"]) for t in answer["shifts"]] == [(2, "s1 (losses 2)"), (-1, "g2 (losses 1)")]
    state = game.state_from_dict(position_to_dict(load_position(text, pack=game.engine.pack)))
    state.apply("german: attack hex=0304 with=g1,g2")
    state.apply("soviet: support ips=0")
    [event] = [e for e in state.trace if e.kind == "combat"]
    assert event.data["column_shift"] == 1 and "shifts" not in event.data  # the event's data as it was
    told = "\n".join(narrate_all(list(state.trace), Narrator.for_engine(game.engine)))
    # the event keeps the net shift only: each line named, its value left blank
    assert "shift      10.3B, 10.3C Determining Odds, B — any defender has losses > 0" in told
    assert "shift      10.3B, 10.3C Determining Odds, B — any attacker has losses > 0" in told


@pytest.mark.case("10.3B")
def test_10_3B_play_account_says_where_the_shift_comes_from(game):  # noqa: F811
    state = game.state_from_dict(position_to_dict(load_position(EXAMPLE.read_text(), pack=game.engine.pack)))
    state.apply("german: attack hex=0304 with=g1,g2")
    state.apply("soviet: support ips=0")
    [event] = [e for e in state.trace if e.kind == "combat"]
    assert event.data["column_shift"] == -1 and "shifts" not in event.data
    told = "\n".join(narrate_all(list(state.trace), Narrator.for_engine(game.engine)))
    shift = f"shift {ATTACKER.replace('10.3B', '10.3B, 10.3C')}"
    assert "column 1:1 shifted -1;" in told and shift in told
    # the browser's Last events reads the same lines (account.drm_lines: web19's one code path)
    titles = {cid: str(c.get("title", "")) for cid, c in game.engine.pack.cases.items()}
    assert drm_lines(event.data, titles, game.engine.pack.rules_dir)[0] == shift


@pytest.mark.case("5.7D")
def test_5_7D_the_out_of_supply_drm_reads_as_english():
    """5.7D's DRM term (combat.rules:25) in the account's and ask's words (oos19's note: it read
    "any attacker has not supplied")."""
    titles = {"5.7D": "Effects of Being OOS, D"}
    words = term_words({"case": "5.7D, 10.4.5A", "value": -2, "source": "combat.rules:25"}, titles, RULES)
    assert words == " -2  5.7D, 10.4.5A Effects of Being OOS, D — any attacker is not supplied"
