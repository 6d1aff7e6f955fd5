"""0.7.3.5 / 10.5B: a human asked at a step only for a template's sake (a reaction attack no
listed group makes) who passes it ends the step as a bot's play does — recorded as the driver's
``auto-pass`` — so ``casebook replay`` (which knows no humans) replays the trace identically.
Session 16's fresh-user trial: the typed pass was recorded as an action, replay auto-passed the
step, and ``replay`` said ``events differ``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main
from games.moscow41.tests.test_decisions_template_only import REACTION
from tests.conftest import m41_inline


@pytest.mark.case("0.7.3.5", "10.5B")
def test_0_7_3_5_a_human_pass_of_a_template_only_step_replays_identically(tmp_path):
    pos = tmp_path / "ra.yaml"
    pos.write_text(m41_inline(REACTION, step="reaction_attacks", ip="{german: 0, soviet: 5}"), encoding="utf-8")
    out = tmp_path / "out"
    args = ["play", "--load", str(pos), "--player", "soviet=human", "--player", "german=bot:greedy",
            "--out", str(out), "--quiet"]
    played = CliRunner().invoke(main, args, input="1\nquit\n")   # 1. soviet: pass
    assert played.exit_code == 0, played.output
    assert "soviet: attack hex=0304" in played.output             # asked: the template was offered
    events = [json.loads(line) for line in (out / "trace.jsonl").read_text(encoding="utf-8").splitlines()]
    [passed] = [e for e in events if e["step"] == "reaction_attacks" and e["kind"] in ("action", "auto-pass")]
    assert (passed["kind"], passed["side"], passed["data"]) == (
        "auto-pass", "soviet", {"step": "reaction_attacks", "acted": False})
    replayed = CliRunner().invoke(main, ["replay", str(out / "trace.jsonl")])
    assert replayed.exit_code == 0, replayed.output
    assert f"{len(events)} events replayed identically" in replayed.output
