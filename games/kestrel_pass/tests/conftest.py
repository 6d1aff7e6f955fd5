"""Fixtures for the Kestrel Pass tests (the third game, all data): the engine, and positions on
its map."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def kp():
    """The Kestrel Pass engine (loaded once per session)."""
    from casebook.script.engine import load_engine

    return load_engine("kestrel_pass")


def kp_ctx(engine, units, *, step="combat", phasing="blue", turn=2, trace=True, control=None):
    """A :class:`Ctx` on the pack's map: ``units`` are ``(counter, hex, strength)`` (strength
    None: the counter's full strength); ``control`` hex -> side."""
    from casebook.content.position import load_position
    from casebook.core.trace import Trace
    from casebook.script.engine import state_from_position

    lines = ["kind: position", "format: 1", "game: kestrel_pass", f"turn: {turn}",
             "weather: {temperature: warm, ground: dry}", f"phase: {phasing}_turn", f"step: {step}",
             "first_player: blue", f"phasing: {phasing}", "units:" if units else "units: []"]
    for counter, hex_, strength in units:
        extra = "" if strength is None else f", strength: {strength}"
        where = "" if hex_ is None else f', hex: "{hex_}"'
        lines.append(f"  - {{counter: {counter}{where}{extra}}}")
    if control:
        lines.append("control: {" + ", ".join(f'"{h}": {s}' for h, s in control.items()) + "}")
    pos = load_position("\n".join(lines) + "\n", pack=engine.pack)
    return engine.ctx(state_from_position(pos), Trace() if trace else None)


@pytest.fixture
def position(kp):
    return lambda *a, **k: kp_ctx(kp, *a, **k)
