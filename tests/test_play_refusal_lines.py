"""A refusal at the ``casebook play`` prompt names the rule-script lines that refused it
(``file:line``, short), as ``ask`` and ``why`` do (issue #15 deliverable 3): the same lines ``why``
prints with their text."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main


@pytest.mark.case("2.2C")
def test_2_2C_a_refused_activation_at_the_prompt_names_the_lines_why_prints(tmp_path):
    """Turn 1 of the Blitz: g-ix cannot activate 3809 (no unit there in its command radius,
    2.2C). The refusal names the command.rules lines that refused it; ``why`` lists the same."""
    typed = "activate-hq hq=g-ix stacks=3809"
    args = ["play", "moscow41", "october-blitz", "--player", "german=human", "--player", "soviet=bot:greedy",
            "--out", str(tmp_path / "out"), "--quiet"]
    out = CliRunner().invoke(main, args, input=f"{typed}\nwhy {typed}\nquit\n").output
    refusal = out.split("refused: ", 1)[1].splitlines()
    assert "2.2C" in refusal[0]
    named = re.fullmatch(r"  lines: (.+) \(why … prints them\)", refusal[1])
    assert named, refusal[:2]
    said = named[1].split(", ")
    why = out.split("no unit in 3809", 2)[2].splitlines()[1:]
    printed = [ln.split()[0] for ln in why if re.match(r"  \S+\.rules:\d+ ", ln)]
    assert said == printed and any(s.startswith("command.rules:") for s in said), (said, printed)
