"""Shared test fixtures. Case tests carry ``@pytest.mark.case("9.6C", ...)`` (counted by
``casebook cases``) and are named after their case (``test_9_6C_...``)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKS = Path(__file__).resolve().parent / "packs"


@pytest.fixture
def repo_root() -> Path:
    return ROOT


@pytest.fixture
def mini_pack() -> Path:
    return PACKS / "mini"
