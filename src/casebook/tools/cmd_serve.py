"""``casebook serve [GAME] [SCENARIO]`` — play, watch and ask in a browser (docs/serve.md).

Starts a local web server (Starlette on uvicorn) bound to loopback by default, on a free port
unless ``--port`` names one, prints its address, and opens nothing unless ``--open`` is given.
The page plays the game through the same Game API as ``casebook play`` (every choice is matched
against the legal actions and applied with ``State.apply``), answers the questions of
``casebook ask``, and steps through a trace (``--trace`` or the Watch tab).

Players: ``--player SIDE=KIND`` (repeatable; KIND ``human``, ``bot:greedy``, ``bot:random`` or ``bot:planner``);
with none given the game's first side is ``human`` and the others ``bot:greedy``; a side not named
is ``bot:greedy``. With ``--load`` the game and scenario are the save's (GAME may be left out) and a
side not named plays as the save recorded, as ``play --load`` does. Files the page names (save,
load, a trace) must lie inside ``--root`` (default: the current folder) or the game's pack folder,
and so must ``--load`` and ``--trace``.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any

import click

from casebook.tools.cli import game_argument

__all__ = ["serve", "build_session", "serve_in_thread", "bind", "LOOPBACK_NAMES"]

#: Host names of the loopback interface: the server answers requests addressed to these (and to
#: the ``--host`` it binds), not to other names (DNS rebinding).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one the system picks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def build_session(game: str | None, scenario: str | None, players: dict[str, str], seed: int = 1,
                  load: str | None = None, root: Path | None = None) -> Any:
    """A :class:`~casebook.tools.web.session.Session` of GAME's SCENARIO (default: moscow41, the
    first scenario the manifest lists) or of the save ``load`` (its game and scenario, which GAME
    and SCENARIO, if given, must be, and its recorded players unless ``players`` names them, as
    ``play --load``: tools/saves.py ``game_of_save``); ``players`` side -> kind (sides not named:
    see the module docstring). Raises ServeError for a bad save or a path outside the served folders."""
    from casebook.core.game import Game
    from casebook.tools.runtime import tune_gc
    from casebook.tools.web.session import ServeError, Session, confine, load_state

    root = (root or Path.cwd()).resolve()
    saved: dict[str, str] = {}
    if load is not None:  # the save's game, scenario and players, as play --load takes them
        from casebook.script.engine import load_engine
        from casebook.tools.saves import game_of_save

        # inside --root or the pack folder of the game named, never opened otherwise
        where = confine(load, [root, *([Path(load_engine(game).pack.dir)] if game else [])])
        if not where.is_file():
            raise ServeError(f"{load}: no such file (or not a file)")
        first = game_of_save(game, scenario, where)
        saved = _saved_players(where)
    elif scenario:
        first = Game.load(game or "moscow41", scenario)
    else:
        from casebook.script.engine import load_engine

        engine = load_engine(game or "moscow41")
        first = Game(engine, next(iter(engine.pack.scenarios)))
    sides = list(first.engine.pack.vocabulary.side_ids)  # the players are known before the first settling
    unknown = sorted(set(players) - set(sides))
    if unknown:
        raise click.BadParameter(f"{first.engine.pack.id} has no side {', '.join(unknown)} (sides: {', '.join(sides)})",
                                 param_hint="--player")
    kinds = {side: players.get(side) or saved.get(side) or "bot:greedy" for side in sides}
    if not players and not saved and sides:
        kinds[sides[0]] = "human"
    humans = [side for side, kind in kinds.items() if kind == "human"]
    if load is not None:  # a template-only first decision of a human side is asked, not settled (core/game.py)
        state = load_state(first, where, humans)
    else:
        state = first.new_initial_state(seed, humans=humans)
    tune_gc()
    return Session(state, kinds, seed=seed, roots=[root], loaded=where if load is not None else None)


def _saved_players(path: Path) -> dict[str, str]:
    """The players the save at ``path`` recorded (side -> kind), those serve knows; the save
    itself is checked whole by :func:`~casebook.tools.web.session.load_state`."""
    from casebook.content.yamlio import load_yaml
    from casebook.tools.web.session import parse_player_kind

    raw = load_yaml(path).data
    recorded = raw.get("players") if isinstance(raw, dict) else None
    out: dict[str, str] = {}
    for side, text in (recorded.items() if isinstance(recorded, dict) else ()):
        try:
            out[str(side)] = parse_player_kind(str(text))
        except ValueError:
            continue
    return out


def serve_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0) -> tuple[Any, threading.Thread, str]:
    """Start ``app`` on uvicorn in a background thread; ``(server, thread, base URL)``. Stop it
    with ``server.should_exit = True; thread.join()`` (the tests do)."""
    import uvicorn

    sock = bind(host, port)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        threading.Event().wait(0.01)
    return server, thread, f"http://{host}:{sock.getsockname()[1]}"


def _players(values: tuple[str, ...]) -> dict[str, str]:
    from casebook.tools.web.session import parse_player_kind

    out: dict[str, str] = {}
    for value in values:
        side, sep, kind = value.partition("=")
        if not sep or not side:
            raise click.BadParameter(f"expected SIDE=KIND, got {value!r}", param_hint="--player")
        try:
            out[side] = parse_player_kind(kind)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--player") from None
    return out


@click.command("serve")
@click.argument("game", required=False, default=None, callback=game_argument)
@click.argument("scenario", required=False, default=None)
@click.option("--player", "player", multiple=True, metavar="SIDE=KIND",
              help="Who plays a side: human, bot:greedy, bot:random, bot:planner (repeatable).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the dice (and the bots).")
@click.option("--load", default=None, help="Continue a saved game (a position file written by save).")
@click.option("--trace", "trace", default=None, help="Open this trace in the Watch tab.")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The folder the page may read and write files in (default: the current folder).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (loopback by default).")
@click.option("--port", type=int, default=0, help="Port to bind (default: a free one).")
@click.option("--open", "open_", is_flag=True, help="Open the page in the default browser.")
def serve(game: str | None, scenario: str | None, player: tuple[str, ...], seed: int, load: str | None,
          trace: str | None, root: Path | None, host: str, port: int, open_: bool) -> None:
    """Serve GAME's SCENARIO in a browser: play (against bots or hot-seat), watch a trace, ask.
    GAME defaults to moscow41, or with --load to the save's game."""
    import uvicorn

    from casebook.tools.web.app import make_app
    from casebook.tools.web.session import ServeError, confine
    from casebook.tools.web.watch import Watch

    try:
        session = build_session(game, scenario, _players(player), seed, load, root)
        watch = None
        if trace:
            path = confine(trace, session.roots)
            if not path.is_file():
                raise ServeError(f"{trace}: no such file")
            watch = Watch(path, session.game)
    except ServeError as exc:
        raise click.ClickException(exc.message) from None
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0] if exc.args else exc), param_hint="SCENARIO") from None
    if host not in LOOPBACK_NAMES:
        click.echo(f"warning: serving on {host}, not loopback: anyone who reaches it can play", err=True)
    sock = bind(host, port)
    url = f"http://{host if ':' not in host else '[' + host + ']'}:{sock.getsockname()[1]}/"
    sides = ", ".join(f"{s}={k}" for s, k in session.players.items())
    click.echo(f"Casebook serves {session.game.engine.pack.id} {session.label} ({sides}) at {url}")
    click.echo("Ctrl-C stops.")
    if open_:
        import webbrowser

        webbrowser.open(url)
    hosts = None if host in ("0.0.0.0", "::") else sorted({host, *LOOPBACK_NAMES})
    server = uvicorn.Server(uvicorn.Config(make_app(session, watch, hosts), log_level="warning", lifespan="off"))
    server.run(sockets=[sock])
