"""Shared test fixtures of the engine's tests (the session-wide ones, ``repo_root`` and the pack cache,
are in the checkout's root ``conftest.py``). Case tests carry ``@pytest.mark.case("9.6C", ...)`` (counted by
``casebook cases``) and are named after their case (``test_9_6C_...``)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKS = Path(__file__).resolve().parent / "packs"


@pytest.fixture
def mini_pack() -> Path:
    return PACKS / "mini"


#: The fresh-user trial's Moscow '41 position (session 10): g-6id, activated, alone in 0303 of a
#: 6 x 6 clear map, in a step of the German first player's phase of Turn 5 (:func:`m41_position`).
#: Past the Weather Phase a position gives the turn's weather (0.7.1): dry, which changes nothing (4.1A).
M41_POSITION = """kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {{columns: 6, rows: 6}}
  terrain: {{default: clear}}
turn: 5
phase: first_player
step: {step}
{sides}weather: {{temperature: warm, ground: dry}}
units:
  - {{counter: g-6id, hex: '0303', activated: true{flags}}}
"""


def m41_position(step: str, *, hedgehog: bool = False, phasing: str | None = "german",
                 first_player: str | None = None) -> str:
    """:data:`M41_POSITION` in ``step``, g-6id in hedgehog formation (14.4A) when ``hedgehog``, with
    the ``phasing`` and ``first_player`` lines given (None: left out)."""
    sides = "".join(f"{key}: {side}\n" for key, side in (("phasing", phasing), ("first_player", first_player)) if side)
    return M41_POSITION.format(step=step, sides=sides, flags=", hedgehog: true" if hedgehog else "")


def m41_inline(units: str | None, *, step: str | None = "combat", ip: str | None = "{german: 5, soviet: 5}",
               phasing: str | None = "german", weather: str | None = "{temperature: warm, ground: dry}",
               turn: int | None = 3, extra: str = "", size: str = "{columns: 8, rows: 8}",
               terrain: str = "{default: clear}", map_extra: str = "", phase: str | None = "first_player",
               first_player: str | None = "") -> str:
    """A Moscow '41 position as YAML text on an inline map (8 x 8 clear by default; flat-top-even-q:
    0304 touches 0303, 0305, 0203, 0204, 0403, 0404), by default the first player's phase in
    ``step``, ``phasing`` also the first player; ``units``: the YAML lines of the units (None: no
    ``units`` key); ``extra``: top-level lines; ``map_extra``: lines of the map block (``towns:``,
    ``railheads:``, indented two spaces); ``size``, ``terrain``: the map's. A top-level value given
    as None is left out (``first_player`` "": the phasing side)."""
    top = (("turn", turn), ("weather", weather), ("phase", phase), ("step", step), ("phasing", phasing),
           ("first_player", phasing if first_player == "" else first_player), ("ip", ip))
    head = "".join(f"{key}: {value}\n" for key, value in top if value is not None)
    body = "" if units is None else f"units:\n{units}\n"
    return f"""
kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {size}
  terrain: {terrain}
{map_extra}{extra}
{head}{body}"""


def make_ctx(engine, text: str, trace: bool = False):
    """A :class:`Ctx` for a position given as YAML text (inline map or the pack's map)."""
    from casebook.content.position import load_position
    from casebook.core.trace import Trace
    from casebook.script.engine import state_from_position

    pos = load_position(text, pack=engine.pack)
    return engine.ctx(state_from_position(pos), Trace() if trace else None)


@pytest.fixture
def position(m41):
    """``position(yaml_text, trace=False) -> Ctx`` on the Moscow '41 engine."""
    return lambda text, trace=False: make_ctx(m41, text, trace)


def played_blitz(actions: int):
    """The October Blitz of the installed Moscow '41, greedy against greedy (seed 1), after
    ``actions`` actions: a ``State`` of real play for the cache tests."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    game = Game.load("moscow41", "october-blitz")
    state = game.new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    for _ in range(actions):
        state.apply(bots[state.current_player()].choose(state))
    return state
