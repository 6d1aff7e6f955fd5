"""A refusal at the ``casebook play`` prompt names the rule-script lines that refused it
(``file:line``, short), as ``ask`` and ``why`` do (issue #15 deliverable 3): the same lines ``why``
prints with their text."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main


@pytest.mark.case("8.1A")
def test_8_1A_a_refused_activation_at_the_prompt_names_the_lines_why_prints(tmp_path):
    """Turn 1 of the Blitz: g-ix cannot activate 3809, 26 hexes off, beyond its command radius
    (8.1A — the one reason, not the six possible ones). The refusal names the command.rules line
    that refused it (``command_path_hexes``); ``why`` lists the same."""
    typed = "activate-hq hq=g-ix stacks=3809"
    args = ["play", "moscow41", "october-blitz", "--player", "german=human", "--player", "soviet=bot:greedy",
            "--out", str(tmp_path / "out"), "--quiet"]
    out = CliRunner().invoke(main, args, input=f"{typed}\nwhy {typed}\nquit\n").output
    refusal = out.split("refused: ", 1)[1].splitlines()
    assert refusal[0].endswith("3809 is 26 hexes from g-ix, beyond the 3 hexes of its command radius (8.1A, 0.2.4.8)")
    named = re.fullmatch(r"  lines: (.+) \(why … prints them\)", refusal[1])
    assert named, refusal[:2]
    said = named[1].split(", ")
    why = out.split("3809 is 26 hexes", 2)[2].splitlines()[1:]
    printed = [ln.split()[0] for ln in why if re.match(r"  \S+\.rules:\d+ ", ln)]
    assert said == ["command.rules:31"] and said == printed, (said, printed)  # otherwise command_radius  by 8.1A
