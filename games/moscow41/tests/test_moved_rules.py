"""Movement, supply, command and loss rules that live in Moscow '41's rule scripts (issue #15):
each test copies the pack, edits one script line, and sees play or ``ask`` change — the plugins
read the line, so a modder changes the rule without Python."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.games.moscow41.plugins import movement as mv
from games.moscow41.tests._movement_fixtures import FakeAreas, act, engine_with, position_text
from games.moscow41.tests.test_movement import inf
from tests._pack_edits import engine_edited
from tests.conftest import make_ctx

ROOT = Path(__file__).resolve().parents[3]
PZ = '- {id: %s, side: german, class: armor, size: regiment, strength: 4, ma: 8, hex: "%s", activated: true}'


def edited(tmp_path: Path, file: str, old: str, new: str):
    """The Moscow '41 engine of a copy of the pack whose ``rules/<file>`` has ``old`` (found
    exactly once) replaced by ``new`` (:func:`tests._pack_edits.engine_edited`)."""
    return engine_edited(tmp_path, f"rules/{file}", (old, new))


def movement_ctx(engine, units: str, **kw):
    """A position on the movement tests' 8x8 map, with the fake supply/command/ZOC/overrun plugin."""
    return make_ctx(engine_with(engine, fake=FakeAreas()), position_text(units, **kw), trace=True)


def offered(ctx, kind: str, step: str = "movement") -> list[str]:
    return [str(a) for a in mv.casebook_legal_actions(ctx, "first_player", step) if a.kind == kind]


def apply(ctx, text: str):
    a = act(text)
    with ctx.state.transaction(ctx.trace):
        assert not mv.casebook_validate_action(ctx, a), text
        return mv.casebook_apply_action(ctx, a)


# -- movement.rules --------------------------------------------------------------------------------
@pytest.mark.case("9.4A")
def test_9_4A_start_move_line_decides_which_units_move(m41, tmp_path):
    """_movement_state.eligible_stacks reads `start_move`: without its 9.4A line an unactivated
    unit moves in the Movement Step."""
    units = inf("g1", "0404")
    assert not offered(movement_ctx(m41, units), "move")
    eng = edited(tmp_path, "movement.rules",
                 "forbid start_move by 9.4A      when movement_step is movement and not activated\n", "")
    assert "german: move path=0405 stack=0404" in offered(movement_ctx(eng, units), "move")


@pytest.mark.case("9.9A")
def test_9_9A_rail_move_line_decides_who_moves_by_rail(m41, tmp_path):
    """_movement_actions and _movement_legal read `rail_move`: without its 9.9A line the Germans
    move by rail too (legal actions and validation)."""
    units = inf("g1", "0106", extra=", activated: true")
    ctx = movement_ctx(m41, units)
    assert offered(ctx, "rail-move") == []
    assert mv.casebook_validate_action(ctx, act("german: rail-move stack=0106 to=0606"))[0].cases == ("9.9A",)
    eng = edited(tmp_path, "movement.rules", "forbid rail_move by 9.9A  when side is not soviet\n", "")
    ctx = movement_ctx(eng, units)
    assert offered(ctx, "rail-move") == ["german: rail-move stack=0106 to=0306", "german: rail-move stack=0106 to=0606"]
    assert apply(ctx, "german: rail-move stack=0106 to=0606")["path"] == ["0206", "0306", "0406", "0506", "0606"]


@pytest.mark.case("9.9I")
def test_9_9I_rail_from_hex_line_decides_where_a_rail_move_starts(m41, tmp_path):
    """areas.rail.railhead_reach reads `rail_from_hex`: with the EZOC part of its line removed a
    stack on a railhead in an EZOC moves by rail."""
    units = "\n".join([
        '- {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0106", activated: true}',
        inf("g1", "0105")])
    ctx = movement_ctx(m41, units, phasing="soviet")
    refusal = mv.casebook_validate_action(ctx, act("soviet: rail-move stack=0106 to=0306"))
    assert refusal[0].cases == ("9.9I",) and "EZOC" in refusal[0].reason
    eng = edited(tmp_path, "movement.rules", "when not railhead or in_ezoc", "when not railhead")
    ctx = movement_ctx(eng, units, phasing="soviet")
    assert "soviet: rail-move stack=0106 to=0306" in offered(ctx, "rail-move")


@pytest.mark.case("9.5B")
def test_9_5B_overrun_advance_mp_is_read_by_the_advance(m41, tmp_path):
    """_movement_apply._overrun adds `overrun_advance_mp` (0 by 9.5B) to the MPs spent: at 1,
    the stack has one MP less after advancing."""
    def left(engine):
        ctx = movement_ctx(engine, PZ % ("p1", "0201") + "\n" + inf("s1", "0302", side="soviet"))
        res = apply(ctx, "german: overrun stack=0201 hex=0302")
        cur = ctx.state.plugin_data("movement")["current"]
        return res["advanced"], cur["budget"] - cur["spent"]
    clear = m41.pack.tables["tec"].lookup(terrain="clear", unit="armor", column="dry")
    assert left(m41) == (True, 8 - (clear + 1))
    eng = edited(tmp_path, "movement.rules", "  otherwise 0  by 9.5B\n", "  otherwise 1  by 9.5B\n")
    assert left(eng) == (True, 8 - (clear + 1) - 1)


@pytest.mark.case("9.5C")
def test_9_5C_overrun_attempt_line_refuses_an_overrun_without_the_mps(m41, tmp_path):
    """_movement_actions._check_overrun asks `overrun_attempt`: with the 9.5C line demanding one
    MP more than the cost, a stack with exactly the MPs may not overrun."""
    units = '- {id: p1, side: german, class: armor, size: regiment, strength: 4, ma: 2, hex: "0201", activated: true}' \
        + "\n" + inf("s1", "0302", side="soviet")
    assert "german: overrun hex=0302 stack=0201" in offered(movement_ctx(m41, units), "overrun")
    eng = edited(tmp_path, "movement.rules", "when overrun_cost > mp_left", "when overrun_cost + 1 > mp_left")
    ctx = movement_ctx(eng, units)
    assert offered(ctx, "overrun") == []
    refusal = mv.casebook_validate_action(ctx, act("german: overrun stack=0201 hex=0302"))
    assert refusal[0].cases == ("9.5A", "9.5C") and "costs 2 MP" in refusal[0].reason


@pytest.mark.case("9.6A")
def test_9_6A_declare_force_march_line_allows_one_force_march(m41, tmp_path):
    """_movement_actions._check_force_march asks `declare_force_march`: without its "once" line a
    stack force marches a second time."""
    def after_one_force_march(engine):
        ctx = movement_ctx(engine, inf("g1", "0101", extra=", activated: true"))
        apply(ctx, "german: move stack=0101 path=0102")
        apply(ctx, "german: force-march stack=0102")
        apply(ctx, "german: move stack=0102 path=0103")
        return ctx, mv.casebook_validate_action(ctx, act("german: force-march stack=0103"))
    _, refusal = after_one_force_march(m41)
    assert refusal[0].cases == ("9.6A",) and refusal[0].reason == "the stack already force marched"
    eng = edited(tmp_path, "movement.rules", "forbid declare_force_march by 9.6A            when force_marched\n", "")
    ctx, refusal = after_one_force_march(eng)
    assert refusal == [] and "german: force-march stack=0103" in offered(ctx, "force-march")


@pytest.mark.case("9.6E")
def test_9_6E_force_march_fatigue_line_decides_what_a_remnant_suffers(m41, tmp_path):
    """_movement_state.fatigue_roll reads `force_march_fatigue`: a failed roll eliminates a
    remnant (9.6E); with the line edited it is fatigued instead."""
    from casebook.games.moscow41.plugins._movement_state import fatigue_roll
    units = '- {id: r1, side: soviet, class: remnant, strength: 1, ma: 4, hex: "0404", activated: true}'

    def failed(engine):  # Arctic Deep Snow, OOS: -4 (most severe) -2 = -6: every roll fails
        ctx = movement_ctx(engine, units, phasing="soviet", ground="deep_snow", temperature="arctic")
        result = fatigue_roll(ctx, ["r1"], {"r1": False})
        return result["fatigued"], result["effects"], ctx.state.has_unit("r1")
    assert failed(m41) == (True, [{"unit": "r1", "effect": "eliminated", "cases": ["9.6E"]}], False)
    eng = edited(tmp_path, "movement.rules", "  eliminated          by 9.6E   when unit_class is remnant\n",
                 "  fatigue             by 9.6E   when unit_class is remnant\n")
    assert failed(eng) == (True, [{"unit": "r1", "effect": "fatigued", "cases": ["9.6E"]}], True)


@pytest.mark.case("0.7.3.4A")
def test_0_7_3_4A_movement_side_decides_who_moves_in_reaction_movement(m41, tmp_path):
    """_movement_state.decider reads `movement_side`: the non-phasing side moves in Reaction
    Movement; with its line removed, the phasing side."""
    units = inf("g1", "0404", extra=", activated: true")
    ctx = movement_ctx(m41, units, step="reaction_movement")
    assert {a.side for a in mv.casebook_legal_actions(ctx, "first_player", "reaction_movement")} == {"soviet"}
    eng = edited(tmp_path, "movement.rules",
                 "  non_phasing_side          by 0.7.3.4A  when movement_step is reaction_movement\n", "")
    ctx = movement_ctx(eng, units, step="reaction_movement")
    assert {a.side for a in mv.casebook_legal_actions(ctx, "first_player", "reaction_movement")} == {"german"}


# -- supply.rules ----------------------------------------------------------------------------------
def supply_ctx(engine, units: str, **kw):
    """A position on the 8x8 map with the pack's own plugins (supply, command, ZOC …)."""
    return make_ctx(engine, position_text(units, **kw), trace=True)


@pytest.mark.case("5.1A")
def test_5_1A_supply_source_line_makes_the_west_edge_a_german_source(m41, tmp_path):
    """_supply_paths.sources asks `supply_source` per kind: forbid the west edge to the Germans
    and a German unit on it is out of supply."""
    from casebook.games.moscow41.plugins.supply import supply_answer
    units = inf("g1", "0104")
    answer = supply_answer(supply_ctx(m41, units), "g1")
    assert answer["in_supply"] and "5.1A" in answer["cases"]
    eng = edited(tmp_path, "supply.rules", "when source_kind is west_edge and side is not german",
                 "when source_kind is west_edge")
    assert supply_answer(supply_ctx(eng, units), "g1")["in_supply"] is False


@pytest.mark.case("5.3")
def test_5_3_supply_by_hq_line_decides_who_an_hq_supplies(tmp_path):
    """supply.supply_answer asks `supply_by_hq`: in the October Blitz set-up the 1st Panzer
    Division's 1st Schützen regiment (g-1pz-1s, mechanized) is supplied through the radius of HQ
    g-lvi-pz (5.3); when the line also names mechanized units, it is not. (On the similarity map,
    #16, no infantry division starts supplied only through an HQ: g-161id traces 3 MP to the west
    edge, 3108.)"""
    from casebook.core.game import Game
    from casebook.games.moscow41.plugins.supply import supply_answer
    ctx = Game.load("moscow41", "october-blitz").new_initial_state(1).ctx()
    answer = supply_answer(ctx, "g-1pz-1s")
    assert answer["route"] == "hq" and answer["hq"] == "g-lvi-pz"
    edited(tmp_path, "supply.rules", "when unit_class in [hq, remnant]", "when unit_class in [hq, remnant, mechanized]")
    ctx = Game.load(str(tmp_path / "moscow41"), "october-blitz").new_initial_state(1).ctx()
    assert supply_answer(ctx, "g-1pz-1s")["in_supply"] is False


@pytest.mark.case("5.5B")
def test_5_5B_oos_result_line_decides_what_an_oos_remnant_suffers(m41, tmp_path):
    """_supply_recovery.mark_oos reads `oos_result`: an OOS remnant is eliminated (5.5B), an
    infantry division marked (5.5A); with the remnant line edited the remnant is marked too."""
    from casebook.games.moscow41.plugins._supply_recovery import mark_oos
    units = "\n".join(['- {id: r1, side: soviet, class: remnant, strength: 1, ma: 4, hex: "0404"}',
                       inf("s1", "0505", side="soviet")])
    out = mark_oos(supply_ctx(m41, units, phasing="soviet"), "soviet", lambda ctx, uid: False)
    assert out["eliminated"] == ["r1"] and out["marked"] == ["s1"]
    eng = edited(tmp_path, "supply.rules", "  eliminated        by 5.5B  when unit_class is remnant\n",
                 "  marked            by 5.5B  when unit_class is remnant\n")
    out = mark_oos(supply_ctx(eng, units, phasing="soviet"), "soviet", lambda ctx, uid: False)
    assert out["eliminated"] == [] and out["marked"] == ["r1", "s1"]


# -- command.rules ---------------------------------------------------------------------------------
@pytest.mark.case("8.1A")
def test_8_1A_command_path_hexes_bounds_the_command_path(tmp_path):
    """_command_paths reads `command_path_hexes`: g-161id is 3 hexes from HQ g-vi (radius 3) in
    the October Blitz set-up; with the path one hex shorter than the radius, g-vi is not its HQ."""
    from casebook.core.game import Game
    from casebook.games.moscow41.plugins.command import command_answer

    def hqs(pack: str) -> list[str]:
        ctx = Game.load(pack, "october-blitz").new_initial_state(1).ctx()
        return [e["hq"] for e in command_answer(ctx, "g-161id")["hqs"]]
    assert "g-vi" in hqs("moscow41")
    edited(tmp_path, "command.rules", "  otherwise command_radius  by 8.1A, 0.2.4.8\n",
           "  otherwise command_radius - 1  by 8.1A, 0.2.4.8\n")
    assert "g-vi" not in hqs(str(tmp_path / "moscow41"))


@pytest.mark.case("2.1B")
def test_2_1B_activate_hq_line_refuses_an_active_hq(m41, tmp_path):
    """_command_steps reads `activate_hq`: an HQ already on its Active side is not offered (2.1B);
    without the line it is."""
    from casebook.games.moscow41.plugins import command
    units = "- {id: g-hq, side: german, class: hq, strength: 0, ma: 6, radius: 3, limit: 3, hex: \"0404\", activated: true}"

    def hq_actions(engine) -> list[str]:
        ctx = supply_ctx(engine, units, step="command")
        return [str(a) for a in command.casebook_legal_actions(ctx, "first_player", "command") if a.kind == "activate-hq"]
    assert hq_actions(m41) == []
    eng = edited(tmp_path, "command.rules", "forbid activate_hq by 2.0, 2.1B  when activated\n", "")
    assert hq_actions(eng) == ["german: activate-hq hq=g-hq"]


# -- results.rules ---------------------------------------------------------------------------------
@pytest.mark.case("11.3B")
def test_11_3B_combat_loss_line_decides_the_loss_ladder(m41, tmp_path):
    """_results_losses.apply_loss reads `combat_loss`: a German breakdown regiment with a 1-Loss
    marker is eliminated by its second loss (11.3B); with the regiment exception removed it takes
    a 2-Loss marker."""
    from casebook.areas._results_losses import apply_loss
    units = '- {id: r1, side: german, class: infantry, size: regiment, strength: 3, ma: 4, hex: "0404", losses: 1}'
    assert apply_loss(supply_ctx(m41, units), "r1") == {"unit": "r1", "effect": "eliminated", "cases": ["11.3A", "11.3B"]}
    eng = edited(tmp_path, "results.rules", " and not (unit_class is infantry and unit_size is regiment)", "")
    ctx = supply_ctx(eng, units)
    assert apply_loss(ctx, "r1") == {"unit": "r1", "effect": "2-loss", "cases": ["11.3B"]}
    assert ctx.state.unit("r1")["losses"] == 2


@pytest.mark.case("11.1D")
def test_11_1D_combat_fatigue_line_turns_fatigue_into_a_loss(m41, tmp_path):
    """_results_losses.fatigue_unit reads `combat_fatigue`: a fatigued unit takes a loss (11.1D);
    with the line removed it only stays fatigued."""
    from casebook.areas._results_losses import fatigue_unit
    units = inf("g1", "0404", extra=", fatigued: true")
    out = fatigue_unit(supply_ctx(m41, units), "g1", True)
    assert out["effect"] == "loss" and out["cases"] == ["11.1D", "11.3B"]
    eng = edited(tmp_path, "results.rules", "  loss               by 11.1D  when fatigued\n", "")
    assert fatigue_unit(supply_ctx(eng, units), "g1", True) == {"unit": "g1", "effect": "fatigued", "cases": ["11.1C"]}


@pytest.mark.case("9.9K")
def test_9_9K_attack_after_rail_line_refuses_an_attack_out_of_command(m41, tmp_path):
    """movement.rail_attack_allowed asks `attack_after_rail`: a unit railed into an EZOC and out
    of command there may not attack this phase; without the line it may."""
    units = '- {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0106", ' \
            'activated: true}\n' + inf("g1", "0707")

    def refusals(engine):
        fake = FakeAreas()
        ctx = make_ctx(engine_with(engine, fake=fake), position_text(units, phasing="soviet"), trace=True)
        apply(ctx, "soviet: rail-move stack=0106 to=0606")
        fake.out_of_command.add("s1")
        return [r.cases for r in mv.casebook_validate_action(ctx, act("soviet: attack hex=0707 with=s1 support=0"))]
    assert refusals(m41) == [("9.9K",)]
    eng = edited(tmp_path, "movement.rules",
                 "forbid attack_after_rail by 9.9K  when moved_by_rail and in_ezoc and not in_command\n", "")
    assert refusals(eng) == []


@pytest.mark.case("8.4A")
def test_8_4A_hq_stack_ip_cost_is_paid_per_activated_stack(m41, tmp_path):
    """_command_steps reads `hq_stack_ip_cost`: the stacks an HQ activates cost no IPs (8.4A);
    at 1 IP a stack, activating an HQ with two stacks costs 3 IPs."""
    from casebook.games.moscow41.plugins import _command_steps as steps
    units = "\n".join([
        "- {id: g-hq, side: german, class: hq, strength: 0, ma: 6, radius: 3, limit: 3, hex: \"0404\"}",
        inf("g1", "0405"), inf("g2", "0504")])

    def paid(engine) -> int:
        ctx = make_ctx(engine, position_text(units, step="command"), trace=True)
        with ctx.state.transaction(ctx.trace):
            return steps.apply(ctx, act("german: activate-hq hq=g-hq stacks=0405,0504"))["ip"]
    assert paid(m41) == 1
    eng = edited(tmp_path, "command.rules", "  otherwise 0  by 8.4A\n", "  otherwise 1  by 8.4A\n")
    assert paid(eng) == 3


@pytest.mark.case("6.2B")
def test_6_2B_end_move_overstacked_line_keeps_moves_out_of_full_hexes(m41, tmp_path):
    """_movement_legal.destinations asks `end_move_overstacked`: a third division may not end its
    move beside two others (6.0B: two divisions a hex); without the line it may."""
    units = "\n".join([inf("g1", "0405", extra=", activated: true"), inf("g2", "0405"), inf("g3", "0404",
                                                                                       extra=", activated: true")])
    assert "german: move path=0405 stack=0404" not in offered(supply_ctx(m41, units), "move")
    eng = edited(tmp_path, "stacking.rules", "forbid end_move_overstacked  by 6.2B, 6.2A  when hex_overstacked\n"
                 "permit end_move_overstacked  by 6.2C over 6.2B  when overrun\n", "")
    assert "german: move path=0405 stack=0404" in offered(supply_ctx(eng, units), "move")
