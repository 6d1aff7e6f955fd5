"""``ask retreat`` during a pending combat result names that combat's attackers (session 19's fresh
user: during an overrun by 5th Pz alone, ``ask retreat s-222rd --hexes 2`` listed 11
``presumed_attackers``, 10th and 11th Pz among them). 9.5A: "The overrunning stack … A normal
combat is resolved" — the attackers are the overrunning stack; 11.2C ranks retreats by the
attacking units they end adjacent to, so the answer ranks them as the retreat prompt does (one
code path, ``retreat_options`` with the combat's attackers). Without a pending combat the
question has none and presumes the adjacent enemy units (docs/ask/retreat.md).

Position as tests/…/test_decisions_overrun.py: a1, a2 (armor regiments) overrun s1 and s2 in 0304
from 0303; a3, an infantry division in 0404, is adjacent to 0304 and takes no part.
"""

from __future__ import annotations

import pytest
import yaml

from casebook.tools.cmd_ask import answer_ctx, render_text
from games.moscow41.tests.test_decisions_attackers import game  # noqa: F401 (the game fixture)
from games.moscow41.tests.test_decisions_overrun import ARM, BRIG, SINF
from tests.conftest import m41_inline

INF = "class: infantry, size: division, strength: 7, ma: 4"


@pytest.mark.case("9.5A", "11.2C")
def test_9_5A_ask_retreat_during_an_overrun_names_the_overrunning_stack_alone(game):  # noqa: F811
    text = m41_inline(f"""  - {{id: a1, side: german, {ARM}, hex: "0303", activated: true}}
  - {{id: a2, side: german, {ARM}, hex: "0303", activated: true}}
  - {{id: a3, side: german, {INF}, hex: "0404"}}
  - {{id: s1, side: soviet, {SINF}, hex: "0304"}}
  - {{id: s2, side: soviet, {BRIG}, hex: "0304"}}
""", step="movement", ip="{german: 5, soviet: 0}")
    state = game.state_from_dict(yaml.safe_load(text))
    before = answer_ctx(state.ctx(), "retreat", ["s1"], {"hexes": 1})
    assert before["presumed_attackers"] == ["a1", "a2", "a3"] and "attackers" not in before  # no combat: adjacent
    state.data.set_rng_fixed([3, 3])                       # 6 + 2 = 8 on 1:1: F/R
    state.apply("german: overrun stack=0303 hex=0304")
    state.apply("german: negate-fatigue negate=false unit=a2")
    assert state.current_player() == "soviet"              # 11.2A: the defender chooses its retreat
    during = answer_ctx(state.ctx(), "retreat", ["s1"], {"hexes": 1})
    assert (during["attackers"], during["combat"]) == (["a1", "a2"], "0304") and "presumed_attackers" not in during
    listed = [str(a) for a in state.legal_actions()]       # the prompt's offers: the answer's offered paths
    offered = [o["path"] for o in during["options"] if o["offered"]]
    assert listed == [f"soviet: retreat losses=0 path={p[0]}" for p in offered]
    assert "attackers: a1, a2" in render_text(during, state.ctx().engine).split("\n")
