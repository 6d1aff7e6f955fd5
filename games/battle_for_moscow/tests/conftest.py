"""Fixtures for the Battle for Moscow tests: the engine, and positions on the pack's map."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def bfm():
    """The Battle for Moscow engine (loaded once per session)."""
    from casebook.script.engine import load_engine

    return load_engine("battle_for_moscow")


def bfm_ctx(engine, units, *, ground="dry", step="combat", phasing="german", markers=(), settings=None,
            trace=False, turn=3):
    """A :class:`Ctx` on the pack's map: ``units`` are ``(counter, hex, strength)`` (strength
    None: the counter's full strength); ``markers`` fortification hexes."""
    from casebook.content.position import load_position
    from casebook.core.trace import Trace
    from casebook.script.engine import state_from_position

    phase = "german_turn" if phasing == "german" else "soviet_turn"
    lines = ["kind: position", "format: 1", "game: battle_for_moscow", f"turn: {turn}",
             f"weather: {{temperature: warm, ground: {ground}}}", f"phase: {phase}", f"step: {step}",
             "first_player: german", f"phasing: {phasing}", "units:" if units else "units: []"]
    for counter, hex_, strength in units:
        extra = "" if strength is None else f", strength: {strength}"
        where = "" if hex_ is None else f', hex: "{hex_}"'
        lines.append(f"  - {{counter: {counter}{where}{extra}}}")
    if markers:
        lines.append("markers:")
        lines += [f'  - {{kind: fortification, hex: "{h}"}}' for h in markers]
    if settings:
        lines.append("settings: {" + ", ".join(f"{k}: {v}" for k, v in settings.items()) + "}")
    pos = load_position("\n".join(lines) + "\n", pack=engine.pack)
    return engine.ctx(state_from_position(pos), Trace() if trace else None)


@pytest.fixture
def position(bfm):
    return lambda *a, **k: bfm_ctx(bfm, *a, **k)
