"""One Moscow '41 engine with a fake supply/command/ZOC plugin, shared by the paratroops,
partisans, victory and scenario tests (loaded once per session: ``fake_engine()``)."""

from __future__ import annotations

from functools import lru_cache

from casebook.kernel.engine import Engine
from tests.rules._fakes import FakeAreas

FAKE = FakeAreas()


@lru_cache(maxsize=1)
def fake_engine() -> Engine:
    """The engine with :data:`FAKE` registered last (called first): supply is what the test says."""
    return Engine.load("moscow41", extra_plugins={"fake_vp": FAKE})
