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


def test_the_readme_lists_every_command_and_documents_every_option_of_its_help():
    """The README's "Commands" table has a row for every command `casebook --help` lists (it
    lacked `golden`), and every option of a command's own --help is in the README (`--help`
    aside): in its row (`play --load`, `explain --json`, `cases --tests` were missing) or in its
    section (`batch`'s and `ask`'s many options)."""
    import re

    import click

    from casebook.tools.cli import COMMANDS, cli

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Commands", 1)[1].split("\n### ", 1)[0]
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `casebook (\w+).*$", table, re.M)}
    assert sorted(rows) == sorted(COMMANDS)
    ctx = click.Context(cli)
    missing = []
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        if isinstance(command, click.Group):  # `rules check`
            command = command.get_command(ctx, "check")
        assert command is not None
        for param in command.params:
            if isinstance(param, click.Option) and "--help" not in param.opts:
                if not any(re.search(re.escape(o) + r"(?![\w-])", readme) for o in param.opts):
                    missing.append((name, param.opts))
    assert missing == []
