"""10.0F "Immediately apply the results of the combat, including any advance after combat, before
resolving any other combat" (and 10.0C: the defender's support is announced before the roll): while
a combat's decisions are to be made, another attack is refused naming the decision it waits for —
in play (``State.why_not``) and in ``ask attack`` alike (session 19's fresh user was told "no enemy
unit in hex 2713", 10.3A, by the browser).

The position: docs/examples/attack.yaml (g1 and g2 attack s1 in 0304) with a third German division,
g3 in 0206, activated, beside s2 in 0306: its attack on 0306 is legal before the first attack."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.core.game import Game

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "attack.yaml"
G3 = '  - {id: g3, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0206", activated: true}\n'
SECOND = "german: attack hex=0306 support=0 with=g3"


def _state(tmp_path: Path):
    from casebook.tools.web.loading import load_state

    text = EXAMPLE.read_text(encoding="utf-8").replace("  - {id: s1,", G3 + "  - {id: s1,")
    (tmp_path / "three.yaml").write_text(text, encoding="utf-8")
    return load_state(Game.load("moscow41", "october-blitz"), tmp_path / "three.yaml", {"german", "soviet"})


def _asked(state) -> list[dict]:
    from casebook.tools.cmd_ask import answer_ctx

    return answer_ctx(state.ctx(), "attack", ["0306"], {"with": ["g3"]})["refusals"]


@pytest.mark.case("10.0F", "10.0C")
def test_10_0F_an_attack_waits_for_the_combat_before_it_in_play_and_ask(tmp_path):
    state = _state(tmp_path)
    assert state.why_not(SECOND) == ((), "legal") and _asked(state) == []
    state.apply("german: attack hex=0304 support=6 with=g1,g2")
    assert state.current_player() == "soviet"  # the defender's support, 10.0C
    support = ("a combat awaits the defender's support", ("10.0C", "10.0F"))
    assert state.why_not(SECOND) == (support[1], support[0])
    assert _asked(state) == [{"reason": support[0], "cases": list(support[1])}]
    state.apply("soviet: support ips=0")
    assert state.current_player() == "soviet" and {a.kind for a in state.legal_actions()} == {"negate-fatigue"}
    words = "a combat result awaits its decisions: they come before any other combat"
    assert state.why_not(SECOND) == (("10.0F",), words)
    assert _asked(state) == [{"reason": words, "cases": ["10.0F"]}]
    before = state.to_dict()
    with pytest.raises(Exception, match="a combat result awaits its decisions"):
        state.apply(SECOND)
    assert state.to_dict() == before
