"""The command line entry point."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_help_lists_commands():
    out = subprocess.run([sys.executable, "-m", "casebook.tools", "--help"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Casebook" in out.stdout


def test_unknown_command_exits_nonzero():
    out = subprocess.run([sys.executable, "-m", "casebook.tools", "no-such"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "No such command" in out.stderr


def test_ask_of_a_question_no_plugin_answers_is_a_usage_error_listing_the_questions():
    """README: usage errors exit 2. A question the game's plugins do not answer is one; the message
    lists the questions they do answer (Kestrel Pass: its own, e.g. `zoc`)."""
    out = subprocess.run([sys.executable, "-m", "casebook.tools", "ask",
                          str(Path(__file__).parents[1] / "games/kestrel_pass/scenarios/meeting.yaml"),
                          "frobnicate"], capture_output=True, text=True)
    assert out.returncode == 2, out.stderr
    assert "no rules plugin of kestrel_pass answers 'frobnicate'; questions:" in out.stderr
    assert "  zoc HEX" in out.stderr
