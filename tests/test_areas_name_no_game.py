"""The shared rules areas name no game (issue #14): ``src/casebook/areas`` holds no side, game,
unit flag or marker of Moscow '41 or Battle for Moscow in its code or messages — a game's names
come from its vocabulary and rule scripts. A docstring or comment may cite a game only as a
clearly marked example: the line says "for example" or "e.g."."""

from __future__ import annotations

import re
from pathlib import Path

import casebook.areas

AREAS = Path(casebook.areas.__file__).parent
#: The names of the shipped games the areas must not know (the issue's grep, case-insensitive).
GAME_NAMES = re.compile(r"german|soviet|moscow|partisan|hedgehog|guards|panzer", re.IGNORECASE)
EXAMPLE = re.compile(r"for example|e\.g\.", re.IGNORECASE)


def _hits(folder: Path) -> list[str]:
    return [f"{path.relative_to(folder.parent)}:{n}: {line.strip()}"
            for path in sorted(folder.rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if GAME_NAMES.search(line) and not EXAMPLE.search(line)]


def test_the_shared_areas_name_no_game_but_in_marked_examples():
    assert len(list(AREAS.rglob("*.py"))) > 15  # the areas really are there
    assert _hits(AREAS) == []


def test_the_check_finds_a_game_name_outside_an_example(tmp_path):
    """The test above can fail: an area naming a side is found; a marked example is not."""
    fake = tmp_path / "areas"
    fake.mkdir()
    (fake / "zoc.py").write_text('"""ZOCs (for example Moscow \'41 7.0)."""\n\nSIDE = "soviet"\n', encoding="utf-8")
    assert _hits(fake) == ['areas/zoc.py:3: SIDE = "soviet"']
