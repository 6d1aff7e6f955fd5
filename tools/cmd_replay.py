"""``casebook replay TRACE`` — re-execute a play from its seed and actions and check the trace.

The trace must start with the ``setup`` event of a play started from a scenario (it names the
game, the scenario and the seed). Every ``action`` event is applied again in order; the new trace
must equal the recorded one event by event. Exit 0 when identical; exit 1 at the first
divergence, naming its sequence number and both versions of the event.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from casebook.kernel.errors import CasebookError, IllegalActionError

__all__ = ["replay", "replay_trace"]


_HINT = " (if the game was played from a copied or edited pack, name it: --pack DIR)"


def replay_trace(path: Path, pack: Path | None = None) -> tuple[bool, str]:
    """(identical?, message) for the trace file at ``path``, replayed on the installed game its
    setup event names, or on the pack folder ``pack`` (which must have that game id)."""
    from casebook.kernel.actions import parse_action
    from casebook.kernel.game import Game
    from casebook.kernel.trace import Trace
    from casebook.tools.runtime import tune_gc

    recorded = Trace.read(path)
    if len(recorded) == 0 or recorded[0].kind != "setup":
        return False, f"{path}: the trace does not start with a setup event (a play started from a scenario)"
    setup = recorded[0].data
    if pack is not None:
        from casebook.kernel.content import load_pack

        found = load_pack(pack).id
        if found != setup["game"]:
            return False, f"{pack} is a pack of {found!r}, the trace a game of {setup['game']!r}"
    hint = "" if pack is not None else _HINT
    game = Game.load(pack or setup["game"], setup["scenario"])
    tune_gc()  # tools/runtime.py
    state = game.new_initial_state(int(setup["seed"]), [int(r) for r in setup.get("rolls") or ()])
    for event in recorded:
        if event.kind != "action":
            continue
        if state.is_terminal():
            return False, f"seq {event.seq}: the replayed game was already over before this action"
        try:
            state.apply(parse_action(event.data["action"]))
        except (IllegalActionError, ValueError) as exc:
            return False, f"seq {event.seq}: the recorded action was refused on replay: {exc}{hint}"
    for old, new in zip(recorded, state.trace):
        if old != new:
            return False, (f"seq {old.seq}: events differ{hint}\n  recorded: {old.to_json()}\n"
                           f"  replayed: {new.to_json()}")
    if len(recorded) != len(state.trace):
        return False, f"the replay has {len(state.trace)} events, the trace {len(recorded)}"
    return True, f"{path}: {len(recorded)} events replayed identically"


@click.command("replay")
@click.argument("trace", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--pack", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="The pack folder the game was played from (default: the installed game).")
def replay(trace: Path, pack: Path | None) -> int:
    """Re-execute TRACE from its seed and actions; exit 1 at the first divergence."""
    try:
        ok, message = replay_trace(trace, pack)
    except (CasebookError, KeyError, json.JSONDecodeError) as exc:
        raise click.ClickException(f"{trace}: cannot replay: {exc}") from None
    click.echo(message, err=not ok)
    if not ok:
        raise click.exceptions.Exit(1)  # exit 1 however the command is invoked
    return 0
