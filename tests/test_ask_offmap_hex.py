"""A hex off the map, as an argument of any ``ask`` question whose usage line names it ``HEX``, is a
usage error (docs/ask.md: one line, exit 2) before any plugin answers — as ``stacking 9999`` always
was; ``partisans 9999`` and ``drop UNIT 9999`` answered with a verdict (exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


@pytest.mark.parametrize("position, args, grid", [
    ("partisans.yaml", ["partisans", "9999"], "0101..1212"),
    ("drop.yaml", ["drop", "s-201ab", "9999"], "0101..2020"),
    ("drop.yaml", ["stacking", "9999"], "0101..2020"),
    ("drop.yaml", ["zoc", "9999"], "0101..2020"),
    ("drop.yaml", ["fortification", "9999"], "0101..2020"),
    ("drop.yaml", ["overrun", "0101", "9999"], "0101..2020"),
    ("drop.yaml", ["move", "0101", "0102", "9999"], "0101..2020"),
    ("drop.yaml", ["attack", "9999", "--with", "s-201ab"], "0101..2020"),
])
def test_an_ask_hex_off_the_map_is_a_usage_error_exit_2(position, args, grid):
    out = CliRunner().invoke(main, ["ask", str(EXAMPLES / position), *args])
    assert out.exit_code == 2, out.output
    assert out.output.strip() == f"hex 9999 is off the map (hexes {grid})"


def test_an_ask_hex_on_the_map_still_answers():
    out = CliRunner().invoke(main, ["ask", str(EXAMPLES / "partisans.yaml"), "partisans", "0909"])
    assert out.exit_code == 0 and "verdict:" in out.output, out.output
