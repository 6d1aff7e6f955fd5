"""Shared test fixtures. Case tests carry ``@pytest.mark.case("9.6C", ...)`` (counted by
``casebook cases``) and are named after their case (``test_9_6C_...``)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKS = Path(__file__).resolve().parent / "packs"


@pytest.fixture(scope="session", autouse=True)
def _pack_cache(tmp_path_factory: pytest.TempPathFactory):
    """The compiled-pack cache of the session in a private temporary folder (never the user's
    own ~/.cache/casebook), unless CASEBOOK_CACHE is set already (e.g. ``off``)."""
    import os

    if "CASEBOOK_CACHE" in os.environ:
        yield
        return
    folder = tmp_path_factory.mktemp("casebook-cache")
    folder.chmod(0o700)
    os.environ["CASEBOOK_CACHE"] = str(folder)
    yield
    os.environ.pop("CASEBOOK_CACHE", None)


@pytest.fixture
def repo_root() -> Path:
    return ROOT


@pytest.fixture
def mini_pack() -> Path:
    return PACKS / "mini"


@pytest.fixture(scope="session")
def m41():
    """The Moscow '41 engine (loaded once per test session)."""
    from casebook.script.engine import load_engine

    return load_engine("moscow41")


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
