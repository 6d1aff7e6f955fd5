"""What Battle for Moscow combats cite and carry (traces and `ask attack`): the mud halving
(BM8.8A) and the 6:1 cap (BM8.2B) where they apply, the printed-strength exchange (BM8.8B) only on
mud turns, and none of Moscow '41's combat fields (support, Guards)."""

from __future__ import annotations

import pytest

from casebook.areas.combat import resolve
from casebook.areas.results import apply_result


def attack(ctx, hex_, *with_, roll=None):
    options = {"with": list(with_)} | ({"roll": roll} if roll is not None else {})
    return ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[hex_], options=options)


UNITS = [("s-3a", "0606", 4), ("g-ix", "0605", None), ("g-xl-pz", "0706", None)]   # 7 infantry, 8 panzer


@pytest.mark.case("BM8.8A")
def test_BM8_8A_mud_halving_is_cited_where_it_applies(position):
    dry = attack(position(UNITS), "0606", "g-ix", "g-xl-pz")
    assert "BM8.8A" not in dry["cases"]
    mud = attack(position(UNITS, ground="mud"), "0606", "g-ix", "g-xl-pz")           # 15/2 : 4
    assert str(mud["attack_strength"]) == "15/2" and "BM8.8A" in mud["cases"]
    panzers = {"mud_halving": "panzers"}
    infantry = attack(position(UNITS, ground="mud", settings=panzers), "0606", "g-ix")  # 7 : 4, not halved
    assert infantry["attack_strength"] == 7 and "BM8.8A" not in infantry["cases"]
    mixed = attack(position(UNITS, ground="mud", settings=panzers), "0606", "g-ix", "g-xl-pz")
    assert mixed["attack_strength"] == 11 and "BM8.8A" in mixed["cases"]
    ctx = position(UNITS, ground="mud", trace=True)
    out = resolve(ctx, ["g-ix", "g-xl-pz"], "0606", "attack", None, roll=4)
    event = ctx.trace.of_kind("combat")[-1]
    assert "BM8.8A" in out["cases"] and "BM8.8A" in event.cases


@pytest.mark.case("BM8.2B")
def test_BM8_2B_the_6_to_1_cap_is_cited_when_it_applies(position):
    three = [("s-3a", "0606", 4), ("g-xxiv-pz", "0605", None), ("g-xli-pz", "0706", None),
             ("g-lvii-pz", "0707", None)]
    capped = attack(position(three), "0606", "g-xxiv-pz", "g-xli-pz", "g-lvii-pz")   # 36 : 4 = 9
    assert capped["column"] == "6:1" and "BM8.2B" in capped["cases"]
    exact = attack(position(three), "0606", "g-xxiv-pz", "g-xli-pz")                  # 24 : 4 = 6
    assert exact["column"] == "6:1" and "BM8.2B" not in exact["cases"]
    ctx = position(three, trace=True)
    resolve(ctx, ["g-xxiv-pz", "g-xli-pz", "g-lvii-pz"], "0606", "attack", None, roll=1)
    assert "BM8.2B" in ctx.trace.of_kind("combat")[-1].cases


def _exchange(position, ground):
    ctx = position([("s-3a", "0606", 8), ("g-vii", "0605", None), ("g-xxxiv", "0706", None)],
                   ground=ground, trace=True)
    apply_result(ctx, {"result": "EX", "hex": "0606", "attackers": ["g-vii", "g-xxxiv"],
                       "attacker_side": "german", "defender_side": "soviet"})
    return {c for e in ctx.trace for c in e.cases}


@pytest.mark.case("BM8.8B")
def test_BM8_8B_printed_strength_exchange_is_cited_only_in_mud(position):
    assert "BM8.8B" in _exchange(position, "mud")
    dry = _exchange(position, "dry")
    assert "BM8.8B" not in dry and "BM8.5E" in dry


@pytest.mark.case("BM8.1")
def test_BM8_1_combat_events_carry_no_moscow41_fields(position):
    ctx = position([("s-3a", "0606", 4), ("g-vii", "0605", None)], trace=True)
    out = resolve(ctx, ["g-vii"], "0606", "attack", None, roll=4)                    # 7 : 4, 1:1, NE
    assert out["result"] == "NE"
    for data in (out, ctx.trace.of_kind("combat")[-1].data):
        assert not {"support", "guards_noted", "guards"} & set(data)
    assert "guards" not in ctx.state.plugin_data("combat")
    answer = attack(position([("s-3a", "0606", 4), ("g-vii", "0605", None)]), "0606", "g-vii", roll=4)
    assert answer["result"] == {"roll": 4, "modified_roll": 4, "result": "NE"}


@pytest.mark.case("BM8.6B", "BM8.6A", "BM7.1")
def test_BM8_6B_why_a_retreat_is_refused_cites_bfm_cases(bfm):
    """`why` on a retreat answers with Battle for Moscow's rule and wording (BM8.6A-B, BM7.1),
    not Moscow '41's 7.5A ("a friendly combat unit other than a remnant")."""
    from casebook.areas.results import run, start
    from casebook.core.game import Game
    from games.battle_for_moscow.tests.conftest import bfm_ctx

    ctx = bfm_ctx(bfm, [("s-3a", "0606", 8), ("s-13a", "0806", None), ("g-vii", "0605", None)], turn=1)
    run(ctx, start(ctx, {"result": "DR", "hex": "0606", "attackers": ["g-vii"], "attacker_side": "german",
                    "defender_side": "soviet"}, ["s-3a"]), interactive=True)
    state = Game(bfm, "campaign").state_from_dict(ctx.state.to_dict())
    assert state.why_not("soviet: retreat path=0707,0807") == ((), "legal")
    assert state.why_not("soviet: retreat path=0706,0806") == (
        ("BM8.6B",), "s-3a may not retreat into 0706: it is in the ZOC of enemy unit g-vii")
    assert state.why_not("soviet: retreat path=0707") == (
        ("BM8.6A",), "s-3a retreats 2 hexes, ending 2 hexes from 0606; 0707 does not")
    assert state.why_not("soviet: retreat path=0707,0806") == (
        ("BM7.1", "BM8.6A"), "a retreat may not end on another unit (s-13a in 0806)")
    cases, reason = state.why_not("german: advance hold=true")
    assert cases == ("BM8.7",) and reason == "no combat result awaits an advance after combat now"
