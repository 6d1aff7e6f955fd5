"""Fixtures for the ``casebook serve`` tests: games, sessions, a TestClient, the system Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: Debian's Chromium (``apt-get install -y chromium``); Playwright drives it, it downloads nothing.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="session")
def bfm_game():
    """Battle for Moscow, its campaign (the engine is loaded once per process)."""
    from casebook.core.game import Game

    return Game.load("battle_for_moscow", "campaign")


def new_session(game, players, root: Path, seed: int = 1):
    """A fresh :class:`Session` of ``game`` from its scenario's start, files confined to ``root``."""
    from casebook.tools.web.session import Session

    return Session(game.new_initial_state(seed), players, seed=seed, roots=[root])


def client_for(session, watch=None):
    """A Starlette TestClient on the app serving ``session``."""
    from starlette.testclient import TestClient

    from casebook.tools.web.app import make_app

    return TestClient(make_app(session, watch))


@pytest.fixture(scope="session")
def chromium():
    """A headless Chromium (the system's, through Playwright). Missing in CI is a failure, not a
    skip (the README's setup installs it); outside CI the browser tests are skipped without it."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: apt-get install -y chromium (see README, 'Play in the browser')"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def served():
    """``served(session, watch=None) -> base URL``: the app on uvicorn in a background thread on a
    free loopback port, stopped after the test."""
    from casebook.tools.cmd_serve import serve_in_thread
    from casebook.tools.web.app import make_app

    running = []

    def start(session, watch=None) -> str:
        server, thread, url = serve_in_thread(make_app(session, watch))
        running.append((server, thread))
        return url

    yield start
    for server, thread in running:
        server.should_exit = True
        thread.join(timeout=10)
