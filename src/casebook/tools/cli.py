"""The ``casebook`` command: a click group whose subcommands live in their own modules.

Subcommands are imported lazily (only the one being run), so ``casebook --help`` stays fast and a
broken subcommand module cannot break the others. Each entry of :data:`COMMANDS` maps a command
name to ``module:attribute`` under :mod:`casebook.tools`; the attribute is a ``click.Command``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import click

from casebook.core.errors import CasebookError

__all__ = ["main", "COMMANDS", "game_argument", "folder_here"]

#: command name -> (module under casebook.tools, attribute, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "ask": ("cmd_ask", "ask", "Ask a rules question about a position; the answer cites its cases."),
    "play": ("cmd_play", "play", "Play a scenario: bots, hot-seat, or you against a bot."),
    "batch": ("cmd_batch", "batch", "Play many seeded bot games in parallel; print win rates, VPs, lengths."),
    "replay": ("cmd_replay", "replay", "Re-execute a trace from its seed and actions; check every event."),
    "explain": ("cmd_explain", "explain", "Show one trace event with its cases, titles, terms and sources."),
    "lint": ("cmd_lint", "lint", "Validate a content pack; list every error with file:line:column."),
    "cases": ("cmd_cases", "cases", "Case coverage of a game: implemented by, tested by, status."),
    "rules": ("cmd_rules", "rules", "Rule scripts: `rules check GAME` compiles and reports errors."),
    "provenance": ("cmd_provenance", "provenance", "Count rulebook / errata / reconstructed values per file."),
    "serve": ("cmd_serve", "serve", "Play, watch a trace and ask in a browser (a local web server)."),
    "render": ("cmd_render", "render", "Draw the map (and a position's units) as SVG."),
    "golden": ("golden", "golden", "Play the golden playthroughs; compare or (--write) regenerate their traces."),
    "mapfit": ("cmd_mapfit", "mapfit", "Fit geography to the printed hexes and (re)generate the map YAML."),
}


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when that command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name, (mod, _, _) in COMMANDS.items() if _available(mod))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module_name, attr, _ = entry
        if not _available(module_name):
            return None
        module = importlib.import_module(f"casebook.tools.{module_name}")
        return getattr(module, attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def game_argument(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A click callback for a GAME (or PACK_DIR) argument: an installed game id or an existing
    path, else a usage error (exit 2, as every command's unknown argument) listing the installed
    games. What the path holds is the command's to check (a folder without ``game.yaml`` is a
    content error of ``lint``, exit 1). A pack folder in the working directory named as an installed
    game id is read (returned as ``./ID``, so :func:`casebook.content.loader.find_pack` takes the
    folder) with a ``note:`` on standard error naming it and the installed game's folder; a
    default value is always the installed game (never a folder read by accident)."""
    from casebook.content.loader import installed_games

    if value is None:
        return value
    games = installed_games()
    if Path(value).exists():
        if ctx.get_parameter_source(param.name or "") != click.core.ParameterSource.DEFAULT:
            return folder_here(value, games)
        return value
    if value in games:
        return value
    from casebook.content.schema import did_you_mean

    raise click.BadParameter(f"no game {value!r}: expected an installed game id "
                             f"({', '.join(games) or 'none installed'}) or a pack folder{did_you_mean(value, list(games))}")


def folder_here(value: str, games: Mapping[str, Path] | None = None) -> str:
    """How a GAME argument ``value`` is read (:func:`game_argument`; ``ask GAME --help``): a folder
    (or file) in the working directory named as an installed game id is ``./ID``, with a ``note:``
    on standard error naming it and the installed game's folder; one that is no pack (no
    ``game.yaml`` in it) does not shadow the game: ``value`` is read as the installed game, with a
    ``note:`` saying why. Any other ``value`` as it is.
    ``games``: :func:`casebook.content.loader.installed_games` (read when None)."""
    from casebook.content.loader import installed_games, is_bare

    if not is_bare(value) or not Path(value).exists():
        return value
    games = installed_games() if games is None else games
    if value not in games:
        return value
    if not (Path(value) / "game.yaml").is_file():
        click.echo(f"note: ./{value} (in the working directory) is no pack (no game.yaml in it): reading the "
                   f"installed game {value} ({games[value]}); name the folder ./{value} to read it", err=True)
        return value
    click.echo(f"note: reading the folder ./{value} (in the working directory), not the installed game "
               f"{value} ({games[value]}); name that folder to read the installed one", err=True)
    return f".{os.sep}{value}"


def _available(module_name: str) -> bool:
    return importlib.util.find_spec(f"casebook.tools.{module_name}") is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="casebook")
def cli() -> None:
    """Casebook: a rules-as-data engine for hex-and-counter wargames.

    Every number, move and refusal cites the rulebook cases that produced it.
    """


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``casebook`` console script; user errors exit 1 with their message."""
    try:
        rv = cli.main(args=argv, prog_name="casebook", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:  # Ctrl-C (click turns KeyboardInterrupt into Abort): 128 + SIGINT
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except CasebookError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    except OSError as exc:  # an unreadable input or unwritable output named on the command line
        click.echo(f"error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), err=True)
        sys.exit(1)
    sys.exit(rv if isinstance(rv, int) else 0)
