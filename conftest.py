"""Fixtures for every test of the checkout: the engine's tests (``tests/``) and each game's own
(``games/<game>/tests/``, issue #14: a game is one folder, its tests included)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent


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
    """The checkout's root folder."""
    return ROOT


@pytest.fixture(scope="session")
def m41():
    """The Moscow '41 engine (loaded once per test session; other games' tests compare with it)."""
    from casebook.script.engine import load_engine

    return load_engine("moscow41")
