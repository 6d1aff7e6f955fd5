"""``ask … attack --support A,D`` takes what play's template takes (10.4.2A: a whole number of IPs, 0 or more, for
each side): a negative amount or a third number is a usage error naming the case, as play refuses ``support=-1``
(a fresh user's check, session 18: ask answered ``legal: yes`` where play refused)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

ATTACK = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "attack.yaml")


@pytest.mark.parametrize("amounts", ["-1,0", "0,-3", "1,0,0", "1", "x,0", "1.5,0"])
def test_10_4_2A_ask_refuses_a_support_play_refuses(amounts):
    result = CliRunner().invoke(main, ["ask", ATTACK, "attack", "0304", "--with", "g1,g2", "--support", amounts])
    assert result.exit_code == 2, result.output
    assert "expected two IP numbers 'A,D', each a whole number 0 or more (10.4.2A)" in result.output
    assert repr(amounts) in result.output


def test_10_4_2A_ask_takes_two_amounts_of_0_or_more():
    result = CliRunner().invoke(main, ["ask", ATTACK, "attack", "0304", "--with", "g1,g2", "--support", "2,0",
                                       "--json"])
    assert result.exit_code == 0, result.output
    assert '"legal": true' in result.output
