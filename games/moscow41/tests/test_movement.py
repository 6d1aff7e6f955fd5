"""Movement (9.0-9.4, 9.7, 9.8): MP costs, MAs, path legality, reach, steps and the ask answers."""

from __future__ import annotations

import pytest

from casebook.core.errors import IllegalActionError
from casebook.games.moscow41.plugins import movement as mv
from casebook.games.moscow41.plugins._movement_costs import movement_allowance
from games.moscow41.tests._movement_fixtures import FakeAreas, act, engine_with, position_text
from tests.conftest import make_ctx

INF = "{id: %s, side: %s, class: infantry, size: division, strength: 7, ma: %d, hex: \"%s\"%s}"


def inf(uid, hex_, side="german", ma=4, extra=""):
    return "- " + INF % (uid, side, ma, hex_, extra)


@pytest.fixture(scope="module")
def fake():
    return FakeAreas()


@pytest.fixture(scope="module")
def eng(m41, fake):
    return engine_with(m41, fake=fake)


@pytest.fixture
def pos(eng, fake):
    fake.__init__()

    def make(units, **kw):
        return make_ctx(eng, position_text(units, **kw), trace=True)
    return make


def apply(ctx, text):
    a = act(text)
    with ctx.state.transaction(ctx.trace):
        refusals = mv.casebook_validate_action(ctx, a)
        if refusals:
            raise IllegalActionError(text, [c for r in refusals for c in r.cases], refusals[0].reason)
        return mv.casebook_apply_action(ctx, a)


def kinds(ctx, step="movement"):
    return [str(a) for a in mv.casebook_legal_actions(ctx, "first_player", step)]


def moves(ctx, hex_, step="movement"):
    """The paths of the ``move`` actions offered for the stack in ``hex_``."""
    return sorted(",".join(a.get("path")) for a in mv.casebook_legal_actions(ctx, "first_player", step)
                  if a.kind == "move" and a.get("stack") == hex_)


# -- 9.2: costs ---------------------------------------------------------------------------------
@pytest.mark.case("9.2B")
def test_9_2B_river_into_clear_costs_infantry_two(pos):
    ctx = pos(inf("g1", "0202"))
    # 9.2B: "to cross a river and enter a clear terrain hex during dry weather would cost an
    # infantry division 2 MPs instead of 1 MP"
    assert mv.casebook_move_cost(ctx, ["g1"], "0202", "0203", "stack")["mp"] == 2
    assert mv.casebook_move_cost(ctx, ["g1"], "0202", "0201", "stack")["mp"] == 1
    assert "9.2B" in mv.casebook_move_cost(ctx, ["g1"], "0202", "0203", "stack")["cases"]


@pytest.mark.case("9.2A")
def test_9_2A_terrain_of_hex_entered_from_the_tec(pos, m41):
    ctx = pos(inf("g1", "0202") + "\n- {id: p1, side: german, class: armor, size: regiment, strength: 4, ma: 8, hex: \"0304\"}")
    tec = m41.pack.tables["tec"]
    forest_inf = tec.lookup(terrain="forest", unit="infantry", column="dry")
    assert mv.casebook_move_cost(ctx, ["g1"], "0202", "0303", "stack")["mp"] == forest_inf
    # a stack pays what its slowest unit pays
    assert mv.casebook_move_cost(ctx, ["g1", "p1"], "0304", "0303", "stack")["mp"] == \
        max(forest_inf, tec.lookup(terrain="forest", unit="armor", column="dry"))


@pytest.mark.case("9.2A", "4.6A")
def test_9_2A_weather_column_and_arctic_plus_one(pos, m41):
    tec = m41.pack.tables["tec"]
    mud = pos(inf("g1", "0202"), ground="mud")
    assert mv.casebook_move_cost(mud, ["g1"], "0202", "0201", "stack")["mp"] == \
        tec.lookup(terrain="clear", unit="infantry", column="mud")
    arctic = pos(inf("g1", "0202"), temperature="arctic")
    ans = mv.casebook_move_cost(arctic, ["g1"], "0202", "0201", "stack")
    assert ans["mp"] == tec.lookup(terrain="clear", unit="infantry", column="dry") + 1  # 4.6A
    assert "4.6A" in ans["cases"]


@pytest.mark.case("9.2A")
def test_9_2A_road_lowers_cost_only_through_the_road_hexside(pos, m41):
    tec = m41.pack.tables["tec"]
    ctx = pos(inf("g1", "0302"))
    through = mv.casebook_move_cost(ctx, ["g1"], "0302", "0303", "stack")
    assert (through["via"], through["mp"]) == ("road", tec.lookup(terrain="road", unit="infantry", column="dry"))
    across = mv.casebook_move_cost(ctx, ["g1"], "0202", "0303", "stack")
    assert (across["via"], across["mp"]) == ("terrain", tec.lookup(terrain="forest", unit="infantry", column="dry"))


@pytest.mark.case("9.2C")
def test_9_2C_at_least_one_hex_by_spending_all_mps(pos):
    # printed MA 2 in Mud: 1 MP (4.3D); swamp costs more, yet the first hex may be entered
    ctx = pos(inf("g1", "0503", ma=2, extra=", activated: true"), ground="mud")
    r = mv.reach_answer(ctx, "g1")
    assert r["ma"] == 1
    assert r["hexes"]["0603"] == 1 and r["stops"]["0603"] == "9.2C"
    bad = mv.move_answer(ctx, "g1", ["0603", "0703"])
    assert not bad["legal"] and bad["stops_at"] == "0603"
    # and it cannot force march after spending all its MPs that way
    apply(ctx, "german: move stack=0503 path=0603")
    assert "9.2C" in mv.casebook_validate_action(ctx, act("german: force-march stack=0603"))[0].cases


@pytest.mark.case("9.2C", "9.6A")
def test_9_2C_exact_mps_keep_force_march(pos):
    ctx = pos(inf("g1", "0202", extra=", activated: true"))
    apply(ctx, "german: move stack=0202 path=0201,0301,0401,0501")  # 4 clear hexes = MA 4
    assert "german: force-march stack=0501" in kinds(ctx)


# -- 9.0, 9.1: paths and allowances ---------------------------------------------------------------
@pytest.mark.case("9.0A")
def test_9_0A_no_hex_can_be_skipped(pos):
    ans = mv.move_answer(pos(inf("g1", "0202")), "g1", ["0201", "0401"], "stack")
    assert not ans["legal"] and ans["refused"]["cases"] == ["9.0A"] and ans["stops_at"] == "0201"


@pytest.mark.case("9.1A")
def test_9_1A_no_more_mps_than_it_has(pos):
    ans = mv.move_answer(pos(inf("g1", "0202")), "g1", ["0201", "0301", "0401", "0501", "0601"], "stack")
    assert not ans["legal"] and ans["refused"]["hex"] == "0601" and "9.1A" in ans["refused"]["cases"]
    assert ans["mp_spent"] == 4 and ans["mp_left"] == 0


@pytest.mark.case("9.0B", "9.1A")
def test_9_0B_ma_depends_on_weather_activation_and_supply(pos, fake):
    ctx = pos(inf("g1", "0202", ma=8))
    assert movement_allowance(ctx, ["g1"], "stack")["ma"] == 8
    assert movement_allowance(ctx, ["g1"], "reaction")["ma"] == 4        # 9.7
    assert movement_allowance(ctx, ["g1"], "unactivated")["max_hexes"] == 1  # 9.8B
    fake.unsupplied.add("g1")
    ctx.changed()
    assert movement_allowance(ctx, ["g1"], "stack")["ma"] == 4          # 5.7B


@pytest.mark.case("9.3")
@pytest.mark.parametrize("printed, ground, oos, mode, expected", [
    (8, "mud", True, "stack", 2),          # 8 x 1/2 x 1/2
    (5, "mud", False, "stack", 2),         # 5/2 rounded down
    (5, "mud", True, "stack", 1),          # 5/4 rounded down; 1/4 of 5 = 1
    (1, "mud", False, "stack", 1),         # 4.3D: minimum 1
    (8, "deep_snow", True, "reaction", 2),  # 8/8 = 1, but never below 1/4 of 8 = 2
    (7, "drying", False, "stack", 3),      # 3.1B: Drying halves like Mud
])
def test_9_3_cumulative_halving_rounded_down_never_below_a_quarter(pos, fake, printed, ground, oos, mode, expected):
    ctx = pos(inf("g1", "0202", ma=printed), ground=ground)
    if oos:
        fake.unsupplied.add("g1")
    assert movement_allowance(ctx, ["g1"], mode)["ma"] == expected


@pytest.mark.case("9.1B", "9.1D")
def test_9_1B_9_1D_moving_another_stack_ends_the_first(pos):
    ctx = pos(inf("g1", "0202", extra=", activated: true") + "\n" + inf("g2", "0205", extra=", activated: true"))
    apply(ctx, "german: move stack=0202 path=0201")  # 3 MPs left
    assert moves(ctx, "0201")
    apply(ctx, "german: move stack=0205 path=0206")
    assert not moves(ctx, "0201")  # its MPs are lost
    with pytest.raises(IllegalActionError) as exc:
        apply(ctx, "german: move stack=0201 path=0301")
    assert "9.1D" in exc.value.cases


@pytest.mark.case("9.1C", "9.1D")
def test_9_1C_units_move_alone_or_together_but_pick_up_none(pos):
    units = "\n".join([inf("g1", "0202", extra=", activated: true"), inf("g2", "0202", extra=", activated: true"),
                       inf("g3", "0201", extra=", activated: true")])
    ctx = pos(units)
    apply(ctx, "german: move stack=0202 path=0102 units=g1")
    assert ctx.state.unit("g1")["hex"] == "0102" and ctx.state.unit("g2")["hex"] == "0202"
    with pytest.raises(IllegalActionError) as exc:
        apply(ctx, "german: move stack=0202 path=0302 units=g2,g3")
    assert "9.1D" in exc.value.cases


@pytest.mark.case("9.1E")
def test_9_1E_dropped_units_end_their_movement(pos):
    units = inf("g1", "0202", extra=", activated: true") + "\n" + inf("g2", "0202", extra=", activated: true")
    ctx = pos(units)
    apply(ctx, "german: move stack=0202 path=0201")
    apply(ctx, "german: move stack=0201 path=0301 units=g1")
    assert ctx.state.unit("g2")["hex"] == "0201"
    assert "g2" in ctx.state.plugin_data("movement")["moved"]
    assert not moves(ctx, "0201")


@pytest.mark.case("7.2")
def test_7_2_locking_ezoc_to_ezoc_of_the_same_enemy_unit_refused(pos):
    ctx = pos(inf("g1", "0303") + "\n" + inf("s1", "0403", side="soviet"))
    # 0303 and 0304 are both next to s1 in 0403
    ans = mv.move_answer(ctx, "g1", ["0304"], "stack")
    assert not ans["legal"] and ans["refused"]["cases"] == ["7.2"]
    ok = mv.move_answer(ctx, "g1", ["0302"], "stack")  # leaving the EZOC at the start of the move
    assert ok["legal"]
    r = mv.reach_answer(ctx, "g1")
    assert "0403" not in r["hexes"] and r["hexes"]["0302"] == 1
    # 0304 only by leaving the EZOC first (0203, 1 MP) and stopping on re-entering one
    assert r["hexes"]["0304"] == 2 and r["stops"]["0304"] == "7.2"


@pytest.mark.case("7.2")
def test_7_2_entering_an_ezoc_stops_the_move(pos):
    ctx = pos(inf("g1", "0202") + "\n" + inf("s1", "0403", side="soviet"))
    ans = mv.move_answer(ctx, "g1", ["0302", "0402", "0502"], "stack")
    assert not ans["legal"] and ans["stops_at"] == "0402" and ans["refused"]["cases"] == ["7.2"]
    assert mv.reach_answer(ctx, "g1")["stops"]["0402"] == "7.2"


# -- 9.4 activation -----------------------------------------------------------------------------------
@pytest.mark.case("9.4A", "9.4B", "0.7.3.2A")
def test_9_4A_only_activated_units_move_in_the_movement_step(pos):
    hq = '- {id: h1, side: german, class: hq, ma: 4, radius: 3, limit: 3, hex: "0205", activated: true}'
    ctx = pos("\n".join([inf("g1", "0202"), inf("g2", "0205", extra=", activated: true"), hq]))
    assert mv.casebook_decider(ctx, "first_player", "movement") == "german"
    moves = kinds(ctx)
    assert not any("stack=0202" in a for a in moves)
    assert any(a.startswith("german: move ") and a.endswith("stack=0205") for a in moves)
    assert moves[-1] == "german: pass"
    with pytest.raises(IllegalActionError) as exc:
        apply(ctx, "german: move stack=0202 path=0201")
    assert "9.4A" in exc.value.cases


@pytest.mark.case("9.4D")
def test_9_4D_reserve_marker_when_the_move_completes(pos):
    ctx = pos(inf("g1", "0202", extra=", activated: true"))
    apply(ctx, "german: move stack=0202 path=0201 reserve=true")
    assert ctx.state.unit("g1")["reserve"] is True


# -- 9.7, 2.4 reaction ----------------------------------------------------------------------------------
def _reaction(pos, turn=3):
    units = inf("s1", "0606", side="soviet", extra="") + "\n" + inf("g1", "0202")
    return pos(units, step="reaction_movement", turn=turn)


@pytest.mark.case("2.4A", "9.4C", "0.7.3.4A", "0.7.3.4B")
def test_2_4A_reaction_activation_pays_ips_and_marks_activated(pos, m41):
    ctx = _reaction(pos)
    assert mv.casebook_decider(ctx, "first_player", "reaction_movement") == "soviet"
    assert "soviet: react stack=0606" in kinds(ctx, "reaction_movement")
    cost = m41.rules.value("ip_cost", {"ip_use": "reaction", "side": "soviet", "supplied": True}, m41.script_tables)
    apply(ctx, "soviet: react stack=0606")
    assert ctx.state.track("ip", "soviet") == 10 - cost == 9
    assert ctx.state.unit("s1")["activated"] is True
    assert movement_allowance(ctx, ["s1"], "reaction")["ma"] == 2  # 9.7: half of 4
    assert moves(ctx, "0606", "reaction_movement")


@pytest.mark.case("2.4A")
def test_2_4A_reaction_needs_command_and_supply(pos, fake):
    ctx = _reaction(pos)
    fake.out_of_command.add("s1")
    assert "soviet: react stack=0606" not in kinds(ctx, "reaction_movement")
    with pytest.raises(IllegalActionError) as exc:
        apply(ctx, "soviet: react stack=0606")
    assert "2.4A" in exc.value.cases


@pytest.mark.case("2.4B")
def test_2_4B_no_soviet_reaction_on_turn_1(pos):
    ctx = _reaction(pos, turn=1)
    assert kinds(ctx, "reaction_movement") == ["soviet: pass"]


@pytest.mark.case("9.7", "0.7.3.4A")
def test_9_7_reaction_half_ma_before_weather_no_force_march(pos):
    ctx = pos(inf("s1", "0606", side="soviet", ma=8), step="reaction_movement", ground="mud")
    assert movement_allowance(ctx, ["s1"], "reaction")["ma"] == 2   # 8 / 2 (9.7) / 2 (4.3D)
    apply(ctx, "soviet: react stack=0606")
    apply(ctx, "soviet: move stack=0606 path=0605")
    assert "9.7" in mv.casebook_validate_action(ctx, act("soviet: force-march stack=0605"))[0].cases


# -- 9.8 unactivated movement ---------------------------------------------------------------------------
@pytest.mark.case("9.8A", "9.8B", "0.7.3.7")
def test_9_8_unactivated_units_move_one_hex_free(pos):
    ctx = pos(inf("g1", "0202") + "\n" + inf("g2", "0205", extra=", activated: true"),
              step="unactivated_movement")
    assert not moves(ctx, "0205", "unactivated_movement")
    dests = moves(ctx, "0202", "unactivated_movement")
    assert dests == ["0102", "0103", "0201", "0203", "0302", "0303"]
    apply(ctx, "german: move stack=0202 path=0303")  # forest: one hex whatever its cost
    assert ctx.state.track("ip", "german") == 10
    assert mv.move_answer(ctx, "g2", ["0206", "0207"], "unactivated")["refused"]["cases"] == ["9.8B"]


@pytest.mark.case("9.8C")
def test_9_8C_no_reaction_in_the_unactivated_step(pos):
    ctx = pos(inf("g1", "0202") + "\n" + inf("s1", "0606", side="soviet"), step="unactivated_movement")
    assert not any("react" in a for a in kinds(ctx, "unactivated_movement"))
    refusal = mv.casebook_validate_action(ctx, act("soviet: react stack=0606"))
    assert refusal and "9.8C" in refusal[0].cases or "0.7.3.7" in refusal[0].cases


# -- ask answers (snapshots) ---------------------------------------------------------------------------
def test_reach_and_move_answers(pos, snapshot):
    # g1 activated: the move answers are play's verdict on the path (ask move without --as)
    ctx = pos(inf("g1", "0202", extra=", activated: true") + "\n" + inf("s1", "0505", side="soviet"))
    assert mv.casebook_answer(ctx, "reach", ["0202"], {}) == snapshot
    assert mv.casebook_answer(ctx, "move", ["g1", "0203", "0204", "0304"], {}) == snapshot
    assert mv.casebook_answer(ctx, "move", ["g1", "0302", "0402", "0403", "0404", "0405"], {}) == snapshot


@pytest.mark.case("6.2B", "6.2F")
def test_6_2F_an_overstacked_stack_is_offered_its_units_one_by_one(pos):
    """Three German divisions in one hex (limit: a division and a regiment, 6.0A): moving the
    whole stack would end overstacked anywhere (6.2B), so it is not offered; each division may
    move out alone (9.1C), which corrects the overstack (6.2F)."""
    units = "\n".join(inf(f"g{i}", "0202", extra=", activated: true") for i in (1, 2, 3))
    ctx = pos(units)
    offered = [a for a in mv.casebook_legal_actions(ctx, "first_player", "movement")
               if a.kind == "move" and a.get("stack") == "0202"]
    assert offered and all(len(a.get("units") or ()) == 1 for a in offered)
    assert {a.get("units")[0] for a in offered} == {"g1", "g2", "g3"}
    apply(ctx, "german: move stack=0202 path=0102 units=g1")
    assert ctx.state.unit("g1")["hex"] == "0102"
