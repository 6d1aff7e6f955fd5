"""The command line entry point."""

from __future__ import annotations

import subprocess
import sys


def test_help_lists_commands():
    out = subprocess.run([sys.executable, "-m", "casebook.tools", "--help"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Casebook" in out.stdout


def test_unknown_command_exits_nonzero():
    out = subprocess.run([sys.executable, "-m", "casebook.tools", "no-such"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "No such command" in out.stderr
