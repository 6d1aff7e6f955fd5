"""``casebook replay TRACE`` — re-execute a play from its seed and actions and check the trace.

The trace must start with the ``setup`` event of a play started from a scenario (it names the
game, the scenario and the seed). Every ``action`` event is applied again in order; the new trace
must equal the recorded one event by event. Exit 0 when identical; exit 1 at the first
divergence, naming its sequence number and both versions of the event.
"""

from __future__ import annotations

from pathlib import Path

import click

from casebook.core.errors import CasebookError, IllegalActionError

__all__ = ["replay", "replay_trace"]


_HINT = " (if the game was played from a copied or edited pack, name it: --pack DIR)"


def replay_trace(path: Path, pack: Path | None = None) -> tuple[bool, str]:
    """(identical?, message) for the trace file at ``path``, replayed on the installed game its
    setup event names, or on the pack folder ``pack`` (which must have that game id)."""
    from casebook.core.actions import parse_action
    from casebook.core.confine import is_game_id
    from casebook.core.game import Game
    from casebook.core.trace import Trace
    from casebook.tools.runtime import tune_gc

    recorded = Trace.read(path)
    if len(recorded) == 0 or recorded[0].kind != "setup":
        return False, f"{path}: the trace does not start with a setup event (a play started from a scenario)"
    setup = recorded[0].data
    problem = _setup_problem(setup)
    if problem:
        return False, f"{path}:1: {problem}"
    if pack is not None:
        from casebook.core.content import load_pack

        found = load_pack(pack).id
        if found != setup["game"]:
            return False, f"{pack} is a pack of {found!r}, the trace a game of {setup['game']!r}"
    assert is_game_id(setup["game"])
    hint = "" if pack is not None else _HINT
    game = Game.load(pack or setup["game"], setup["scenario"])
    tune_gc()  # src/casebook/tools/runtime.py
    state = game.new_initial_state(int(setup["seed"]), [int(r) for r in setup.get("rolls") or ()])
    checked = 0

    def first_difference() -> str | None:
        """The first event of the replay (so far) that differs from the recorded one."""
        nonlocal checked
        new = state.trace
        for i in range(checked, min(len(recorded), len(new))):
            if recorded[i] != new[i]:
                return (f"seq {recorded[i].seq}: events differ{hint}\n  recorded: {recorded[i].to_json()}\n"
                        f"  replayed: {new[i].to_json()}")
        checked = min(len(recorded), len(new))
        return None

    for event in recorded:
        if event.kind != "action":
            continue
        differs = first_difference()
        if differs:
            return False, differs
        if state.is_terminal():
            return False, f"seq {event.seq}: the replayed game was already over before this action"
        action = event.data.get("action")
        if not isinstance(action, str):
            return False, f"seq {event.seq}: an action event without an action text"
        try:
            state.apply(parse_action(action))
        except (IllegalActionError, ValueError) as exc:
            refused = f"seq {event.seq}: the recorded action was refused on replay: {exc}{hint}"
            return False, first_difference() or refused
    differs = first_difference()
    if differs:
        return False, differs
    if len(recorded) != len(state.trace):
        return False, f"the replay has {len(state.trace)} events, the trace {len(recorded)}"
    return True, f"{path}: {len(recorded)} events replayed identically"


def _setup_problem(setup: dict) -> str | None:
    """What is wrong with a setup event's data (game id, scenario id, seed), or None."""
    from casebook.core.confine import is_game_id

    if not is_game_id(setup.get("game")):
        return (f"setup: game must be a game id such as 'moscow41', got {setup.get('game')!r} "
                "(a pack folder is given by --pack)")
    if not isinstance(setup.get("scenario"), str):
        return f"setup: scenario must be a scenario id, got {setup.get('scenario')!r}"
    seed = setup.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        return f"setup: seed must be an int >= 0, got {seed!r}"
    return None


@click.command("replay")
@click.argument("trace", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--pack", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="The pack folder the game was played from (default: the installed game).")
def replay(trace: Path, pack: Path | None) -> int:
    """Re-execute TRACE from its seed and actions; exit 1 at the first divergence."""
    from casebook.core.trace import TraceError

    try:
        ok, message = replay_trace(trace, pack)
    except TraceError:
        raise  # already "file:line: what" (printed by the command line, exit 1)
    except (CasebookError, KeyError, ValueError) as exc:
        raise click.ClickException(f"{trace}: cannot replay: {exc}") from None
    click.echo(message, err=not ok)
    if not ok:
        raise click.exceptions.Exit(1)  # exit 1 however the command is invoked
    return 0
