"""A typed action naming a unit the game does not have (``casebook ask POSITION why …``, play's
prompt: tools/typed.bad_units) suggests a unit of the position only — session 16's fresh-user
check: ``hq=g-xxxx`` in docs/examples/command-hqs.yaml (HQs ``corps`` and ``pzcorps``) suggested
``g-xxxxiii``, a counter of the game that is not in the position."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

HQS = Path(__file__).resolve().parent.parent / "docs" / "examples" / "command-hqs.yaml"


@pytest.mark.parametrize("hq, said", [
    ("g-xxxx", "hq=g-xxxx: g-xxxx is not a unit of this game"),                    # no unit of the position is close
    ("corp", "hq=corp: corp is not a unit of this game; did you mean corps?"),     # the position's HQ
])
def test_why_suggests_only_a_unit_of_the_position_exit_2(hq, said):
    out = CliRunner().invoke(main, ["ask", str(HQS), "why", f"german: activate-hq hq={hq} stacks=0303"])
    assert out.exit_code == 2, out.output
    assert out.output.strip() == said
