"""Battle for Moscow turns, units, set-up, sequence of play, Turn Record and ZOC (BM1, BM3, BM4,
BM6.1): the pack and the plugins against the reference (shared/reference/battle-for-moscow.md)."""

from __future__ import annotations

import pytest

from casebook.areas.movement import in_ezoc
from casebook.areas.results import steps_of
from casebook.core.game import Game
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.games.battle_for_moscow.plugins.bfm_turn import casebook_step_start, replacement_actions

# Reference, "Setup": 22 German and 13 Soviet set-up hexes.
GERMAN_SETUP = {"0103", "0104", "0106", "0107", "0201", "0202", "0203", "0204", "0205", "0206", "0209",
                "0210", "0305", "0306", "0307", "0309", "0310", "0406", "0407", "0408", "0409", "0410"}
SOVIET_SETUP = {"0301", "0302", "0303", "0304", "0405", "0504", "0505", "0506", "0507", "0508", "0509",
                "0510", "0803"}


def _range(a, b):
    return [f"{n:04d}" for n in range(int(a), int(b) + 1)]


@pytest.mark.case("BM1.1", "BM1.2")
def test_BM1_1_seven_turns_oct_i_to_dec_i(bfm):
    rows = list(bfm.pack.records["turn_record"])
    assert [int(r["turn"]) for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert (rows[0]["date"], rows[-1]["date"]) == ("Oct I", "Dec I")
    state = Game(bfm, "campaign").new_initial_state(seed=1)
    assert (state.data.scenario or {}).get("last_turn") == 7
    from casebook.games.battle_for_moscow.plugins.bfm_victory import casebook_turn_end

    ctx = state.ctx()
    casebook_turn_end(ctx, 6)
    assert not (ctx.state.plugin_data("bfm_victory") or {}).get("final")   # turn 6: the game goes on
    casebook_turn_end(ctx, 7)
    assert (ctx.state.plugin_data("bfm_victory") or {}).get("final")       # after turn 7 it ends


@pytest.mark.case("BM3.1A")
def test_BM3_1A_every_unit_has_a_full_and_a_half_strength_side(bfm, position):
    steps = {r["unit"]: (int(r["full"]), int(r["reduced"])) for r in bfm.pack.records["unit_steps"]}
    assert set(steps) == set(bfm.pack.counters)
    for uid, counter in bfm.pack.counters.items():
        assert steps[uid][0] == int(counter["strength"]) and 0 < steps[uid][1] < steps[uid][0], uid
    # reference, "Units": XLVII 9/4, VI 5/2, the Soviet armies 8/4, 1st Shock 10/5
    assert steps["g-xlvii-pz"] == (9, 4) and steps["g-vi"] == (5, 2)
    assert steps["s-3a"] == (8, 4) and steps["s-1sa"] == (10, 5)
    ctx = position([("g-xlvii-pz", "0605", 4)])
    assert steps_of(ctx, "g-xlvii-pz") == {"full": 9, "reduced": 4}


@pytest.mark.case("BM3.4A", "BM3.4B")
def test_BM3_4_setup_germans_full_soviets_13_reduced_the_rest_in_the_pool(bfm):
    state = Game(bfm, "campaign").new_initial_state(seed=1)
    units = list(state.data.units)
    german = [u for u in units if u["side"] == "german"]
    soviet = [u for u in units if u["side"] == "soviet"]
    assert len(german) == 22 and {u["hex"] for u in german} == GERMAN_SETUP
    assert all(u["strength"] == bfm.pack.counters[u["counter"]]["strength"] for u in german)
    on_map = [u for u in soviet if u.get("hex")]
    assert len(on_map) == 13 and {u["hex"] for u in on_map} == SOVIET_SETUP
    assert all(u["strength"] == 4 for u in on_map)                      # armies 8/4, reduced
    pool = sorted(u["id"] for u in soviet if not u.get("hex"))
    assert pool == ["s-10a", "s-1sa", "s-40a", "s-5a"]


@pytest.mark.case("BM4.1A", "BM4.1B", "BM4.1C", "BM4.1D", "BM4.2A", "BM4.2B", "BM4.2C", "BM4.2D")
def test_BM4_sequence_of_play_in_the_order_of_the_reference(bfm):
    phases = [(p["id"], p["side"], [s["id"] for s in p["steps"]]) for p in bfm.pack.sequence["phases"]]
    assert phases == [("german_turn", "first", ["replacements", "panzer_movement", "combat", "movement"]),
                      ("soviet_turn", "second", ["replacements", "rail_movement", "combat", "movement"])]
    state = Game(bfm, "campaign").new_initial_state(seed=1)
    while state.data.turn == 1:                   # everyone passes: the machine walks the steps
        state.apply(next(a for a in state.legal_actions() if a.kind == "pass"))
    visited: list[tuple[str, str]] = []
    for e in state.trace:
        if e.turn == 1 and e.step and (not visited or visited[-1] != (e.phase, e.step)):
            visited.append((e.phase, e.step))
    assert visited == [("german_turn", "replacements"), ("german_turn", "panzer_movement"),
                       ("german_turn", "combat"), ("german_turn", "movement"),
                       ("soviet_turn", "replacements"), ("soviet_turn", "rail_movement"),
                       ("soviet_turn", "combat"), ("soviet_turn", "movement")]


@pytest.mark.case("BM4.1A", "BM4.2A")
def test_BM4_1A_no_german_replacements_on_turn_1(bfm):
    from games.battle_for_moscow.tests.conftest import bfm_ctx

    def steps(turn, side):
        ctx = bfm_ctx(bfm, [], step="replacements", phasing=side, turn=turn, trace=True)
        casebook_step_start(ctx, f"{side}_turn", "replacements")
        return [e.data["steps"] for e in ctx.trace if e.kind == "replacement-steps"]

    assert steps(1, "german") == [0] and steps(2, "german") == [1]
    assert steps(1, "soviet") == [5] and steps(7, "soviet") == [5]


@pytest.mark.case("BM4.3A")
def test_BM4_3A_turns_3_and_4_are_mud(bfm):
    from games.battle_for_moscow.tests.conftest import bfm_ctx

    grounds = {}
    for turn in range(1, 8):
        ctx = bfm_ctx(bfm, [], step="replacements", turn=turn, ground="dry" if turn != 1 else "mud")
        casebook_step_start(ctx, "german_turn", "replacements")
        grounds[turn] = ctx.state.weather["ground"]
    assert grounds == {1: "dry", 2: "dry", 3: "mud", 4: "mud", 5: "dry", 6: "dry", 7: "dry"}


@pytest.mark.case("BM4.3B")
def test_BM4_3B_first_shock_army_from_turn_4(bfm):
    from games.battle_for_moscow.tests.conftest import bfm_ctx

    def placeable(turn):
        ctx = bfm_ctx(bfm, [("s-1sa", None, 5), ("s-5a", None, 4)], step="replacements", phasing="soviet",
                      turn=turn)
        casebook_step_start(ctx, "soviet_turn", "replacements")
        return {a.get("unit") for a in replacement_actions(ctx, "soviet") if a.kind == "place-reinforcement"}

    assert placeable(3) == {"s-5a"}
    assert placeable(4) == {"s-5a", "s-1sa"}


@pytest.mark.case("BM6.1")
def test_BM6_1_a_zoc_is_the_six_hexes_around_the_unit(position):
    for ground in ("dry", "mud"):                 # Kaluga 0805: a river on its 0806 side, forest 0806
        ctx = position([("g-vii", "0805", None)], ground=ground)
        around = {hex_label(n) for n in ctx.board.neighbours(parse_hex("0805"))}
        assert len(around) == 6 and "0806" in around
        covered = {h for h in _range("0101", "1410") if ctx.board.contains(parse_hex(h)) and in_ezoc(ctx, h, "soviet")}
        assert covered == around, ground
        assert not in_ezoc(ctx, "0806", "german")                  # a ZOC binds only the enemy
