"""Fixtures of the security tests (issue #19): copies of the mini pack to tamper with, and a
file outside every pack whose content must never be echoed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def pack_copy(mini_pack: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the mini pack in ``tmp_path/mini`` (the working directory is ``tmp_path``)."""
    dest = tmp_path / "mini"
    shutil.copytree(mini_pack, dest)
    monkeypatch.chdir(tmp_path)
    return dest


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside every pack whose content must never be echoed."""
    path = tmp_path / "secret.txt"
    path.write_text("TOP-SECRET-LINE: do not print me\nkind: table\n", encoding="utf-8")
    return path
