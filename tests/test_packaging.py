"""Packaging (#18, the trials): installing warned "Package would be ignored" for every data folder
under games/; each is listed as a package holding package data, and this test keeps it so for a
folder added later (a new game's ``rules/``, say)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_folder_of_a_game_and_the_web_page_is_a_listed_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages = set(config["packages"])
    # a game's own tests (games/<game>/tests/) are the checkout's, not installed
    folders = [p for p in (ROOT / "games").rglob("*") if p.is_dir() and "__pycache__" not in p.parts
               and "tests" not in p.relative_to(ROOT / "games").parts]
    assert folders
    missing = sorted("casebook.games." + ".".join(p.relative_to(ROOT / "games").parts) for p in folders
                     if "casebook.games." + ".".join(p.relative_to(ROOT / "games").parts) not in packages)
    assert missing == [], f"add to [tool.setuptools] packages in pyproject.toml: {missing}"
    assert "casebook.tools.web.static" in packages
    data = config["package-data"]
    assert {"*.yaml", "*.rules", "*.jsonl"} <= set(data["*"])
