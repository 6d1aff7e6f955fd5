"""``supply.path_blocks`` asks its permissions through the script context (``ctx.allowed``), as the
rest of the supply area does, not through the engine's rule set: the ``through_enemy`` verdict is
worked out apart (``ctx.apart(recorded=False)``), so its lines go to no answer or event of the map
— only where a search meets an enemy-occupied hex (``met_enemy``, 5.4A) — same answers as before."""

from __future__ import annotations

import pytest

from casebook.areas import supply
from casebook.script.ctx import Ctx
from tests.conftest import m41_inline

UNITS = """  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0303"}
  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0304"}"""


def _blocks(ctx):
    return supply.path_blocks(ctx, "german", through_enemy="trace_supply_through_enemy",
                              through_ezoc="trace_supply_through_ezoc", opens=lambda u: True,
                              reasons=("enemy unit", "enemy ZOC"), cache="test.enemy-blocks", keep=2)


@pytest.mark.case("5.4A", "5.2A")
def test_5_4A_path_blocks_asks_through_enemy_by_ctx_and_names_none_of_its_lines(position, monkeypatch):
    asked = []
    real = Ctx.allowed

    def spy(self, action, facts):
        asked.append(action)
        return real(self, action, facts)

    monkeypatch.setattr(Ctx, "allowed", spy)
    ctx = position(m41_inline(UNITS))
    with ctx.engine.recording_lines() as lines:
        blocks = _blocks(ctx)
    assert {str(h): why for h, why in blocks.items() if why == "enemy unit"} == {"0304": "enemy unit"}
    assert "trace_supply_through_enemy" in asked                 # the area's way of asking, not engine.rules
    assert not [ln for ln in lines if "trace_supply_through_enemy" in ln.get("text", "")]   # noted only when met
    with ctx.engine.recording_lines() as lines:
        supply.met_enemy(ctx, "trace_supply_through_enemy", True)
    assert [ln["cases"] for ln in lines if "trace_supply_through_enemy" in ln.get("text", "")] == [["5.4A", "5.2A"]]
