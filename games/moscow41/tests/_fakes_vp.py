"""One Moscow '41 engine with a fake supply plugin, shared by the paratroops, partisans, victory
and scenario tests (loaded once per session: ``fake_engine()``)."""

from __future__ import annotations

from functools import lru_cache

from casebook.content.plugins import make_plugin_manager
from casebook.core.hooks import hookimpl
from casebook.script.engine import Engine, load_engine


class FakeSupply:
    """Supply as the test says: a unit, or any unit in a hex, listed in ``unsupplied`` is out of
    supply; every other unit is in supply (route ``"fake"``)."""

    def __init__(self) -> None:
        self.unsupplied: set[str] = set()

    def reset(self) -> None:
        self.unsupplied = set()

    @hookimpl
    def casebook_supply(self, ctx, unit):
        u = ctx.state.unit(unit)
        ok = unit not in self.unsupplied and u.get("hex") not in self.unsupplied
        return {"unit": unit, "in_supply": ok, "route": "fake", "path": [], "mp": 0,
                "cases": ["5.2A"], "blocked": []}


FAKE = FakeSupply()


@lru_cache(maxsize=1)
def fake_engine() -> Engine:
    """The engine with :data:`FAKE` registered last (called first, after tryfirst hooks); it
    shares the pack, board and compiled rules of the cached Moscow '41 engine."""
    base = load_engine("moscow41")
    pm = make_plugin_manager(base.pack.manifest.get("plugins") or [], extra={"fake_vp": FAKE})
    return Engine(base.pack, base.board, base.rules, pm, base.sequence)
