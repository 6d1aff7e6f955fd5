"""``ask reach`` and the ``move`` actions of play agree on 6.2B (rulebook: "A player can never
voluntarily end a unit's movement overstacked"): a hex the stack may pass through but not end
in is not among ``hexes`` but under ``pass_only``, and no ``move`` ends there.

Inline 8 x 8 map (flat-top-even-q), Movement Step; 0304 holds a German division and a regiment,
the German stacking limit (6.0A); the activated division g1 in 0303 (MA 4) moves.
"""

from __future__ import annotations

import pytest

from tests.conftest import m41_inline

G = "side: german, class: infantry, size: division, strength: 7, ma: 4"
R = "side: german, class: armor, size: regiment, strength: 4, ma: 8"

TEXT = m41_inline(f"""  - {{id: d1, {G}, hex: "0304"}}
  - {{id: r1, {R}, hex: "0304"}}
  - {{id: g1, {G}, hex: "0303", activated: true}}
""", step="movement", ip="{german: 10, soviet: 10}")


@pytest.mark.case("6.2B")
def test_6_2B_reach_leaves_out_hexes_a_move_cannot_end_in(position):
    ctx = position(TEXT)
    answer = ctx.hook.casebook_answer(ctx=ctx, question="reach", args=["0303"], options={})
    assert "0304" not in answer["hexes"] and answer["pass_only"] == {"0304": 1}
    assert "6.2B" in answer["cases"] and "0305" in answer["hexes"]
    listed = ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step="movement")
    ends = {a.get("path")[-1] for acts in listed for a in acts or () if a.kind == "move" and a.get("stack") == "0303"}
    assert ends == set(answer["hexes"])
