"""Movement actions: overrun (9.5), force march (9.6), rail (9.9), the order of play in the
movement steps (0.7.3.2, 0.7.3.4)."""

from __future__ import annotations

import itertools

import pytest

from casebook.core.dice import Pcg32
from casebook.core.errors import IllegalActionError
from casebook.games.moscow41.plugins import movement as mv
from games.moscow41.tests._movement_fixtures import FakeAreas, act, engine_with, position_text
from games.moscow41.tests.test_movement import apply, inf, kinds, moves
from tests.conftest import make_ctx

PZ = '- {id: %s, side: german, class: armor, size: regiment, strength: 4, ma: 8, hex: "%s", activated: true}'


def seed_for(die: int) -> int:
    """A seed whose first d6 is ``die``."""
    return next(s for s in range(1000) if Pcg32.seeded(s).below(6) + 1 == die)


@pytest.fixture(scope="module")
def fake():
    return FakeAreas()


@pytest.fixture(scope="module")
def eng(m41, fake):
    return engine_with(m41, fake=fake)


@pytest.fixture
def pos(eng, fake):
    fake.__init__()
    return lambda units, **kw: make_ctx(eng, position_text(units, **kw), trace=True)


# -- 9.5 overrun ------------------------------------------------------------------------------------
@pytest.mark.case("9.5A", "9.5B")
def test_9_5A_overrun_pays_terrain_plus_one_then_advances_free(pos, fake, m41):
    ctx = pos(PZ % ("p1", "0201") + "\n" + inf("s1", "0302", side="soviet"))
    assert "german: overrun hex=0302 stack=0201" in kinds(ctx)
    res = apply(ctx, "german: overrun stack=0201 hex=0302")
    clear = m41.pack.tables["tec"].lookup(terrain="clear", unit="armor", column="dry")
    assert res["mp"] == clear + 1 and res["advanced"] is True
    assert fake.combats == [{"attackers": ["p1"], "hex": "0302", "kind": "overrun", "support": None}]
    assert ctx.state.unit("p1")["hex"] == "0302"                      # 9.5B: advance at no cost
    cur = ctx.state.plugin_data("movement")["current"]
    assert cur["budget"] - cur["spent"] == 8 - (clear + 1)
    assert moves(ctx, "0302")                                         # and it moves on


@pytest.mark.case("9.5A")
def test_9_5A_only_armor_and_mechanized_overrun(pos):
    ctx = pos(inf("g1", "0201", extra=", activated: true") + "\n" + inf("s1", "0302", side="soviet"))
    with pytest.raises(IllegalActionError) as exc:
        apply(ctx, "german: overrun stack=0201 hex=0302")
    assert exc.value.cases == ("9.5A",)


@pytest.mark.case("9.5C")
def test_9_5C_as_many_overruns_as_mps_pay_for(pos, fake):
    units = "\n".join([PZ % ("p1", "0201"), inf("s1", "0302", side="soviet"), inf("s2", "0402", side="soviet")])
    ctx = pos(units)
    apply(ctx, "german: overrun stack=0201 hex=0302")   # 2 MP
    apply(ctx, "german: overrun stack=0302 hex=0402")   # 2 MP
    assert ctx.state.unit("p1")["hex"] == "0402" and len(fake.combats) == 2
    cur = ctx.state.plugin_data("movement")["current"]
    assert cur["spent"] == 4


@pytest.mark.case("9.5D", "9.5E")
def test_9_5D_defender_holds_stop_or_overrun_the_same_hex_again(pos, fake):
    ctx = pos(PZ % ("p1", "0201") + "\n" + inf("s1", "0302", side="soviet"))
    fake.outcome = "hold"
    apply(ctx, "german: overrun stack=0201 hex=0302")
    assert ctx.state.unit("p1")["hex"] == "0201"
    assert not moves(ctx, "0201")                                       # 9.5D: it stops…
    assert "german: overrun hex=0302 stack=0201" in kinds(ctx)          # …or tries again (9.5E)
    for _ in range(2):
        apply(ctx, "german: overrun stack=0201 hex=0302")
    assert len(fake.combats) == 3                                       # 3 x 2 MP of 8
    with pytest.raises(IllegalActionError) as exc:                      # 2 MP left: one more, then none
        apply(ctx, "german: overrun stack=0201 hex=0302")
        apply(ctx, "german: overrun stack=0201 hex=0302")
    assert "9.5C" in exc.value.cases


# -- 9.6 force march ----------------------------------------------------------------------------------
def _marched(pos, units, ground="dry", die=3, **kw):
    ctx = pos(units, ground=ground, extra=f"rng: {{seed: {seed_for(die)}, state: null}}\n", **kw)
    return ctx


@pytest.mark.case("9.6A", "0.7.3.2B")
def test_9_6A_second_allotment_equal_to_the_first(pos):
    ctx = _marched(pos, inf("g1", "0202", extra=", activated: true"))
    apply(ctx, "german: move stack=0202 path=0201,0301,0401")   # 3 of 4 MP; 1 is forfeited
    res = apply(ctx, "german: force-march stack=0401")
    assert res["ma"] == 4 and res["forfeited"] == 1
    assert any(p.endswith("0801") and p.count(",") == 3 for p in moves(ctx, "0401"))  # 4 more hexes


@pytest.mark.case("9.6B")
def test_9_6B_force_march_keeps_the_supply_the_move_began_with(pos, fake):
    ctx = _marched(pos, inf("g1", "0202", extra=", activated: true"))
    apply(ctx, "german: move stack=0202 path=0201")
    fake.unsupplied.add("g1")
    ctx.changed()
    assert apply(ctx, "german: force-march stack=0201")["ma"] == 4   # not halved by 5.7B


@pytest.mark.case("9.6C", "9.6F")
@pytest.mark.parametrize("ground, die, fatigued", [
    ("dry", 1, True), ("dry", 2, False),          # a modified 1 or less
    ("mud", 4, True), ("mud", 5, False),          # Mud -3
    ("snow", 3, True), ("snow", 4, False),        # Snow -2
    ("deep_snow", 4, True),                       # Deep Snow -3
])
def test_9_6C_fatigue_on_a_modified_one_or_less(pos, ground, die, fatigued):
    ctx = _marched(pos, inf("g1", "0202", ma=8, extra=", activated: true"), ground=ground, die=die)
    apply(ctx, "german: move stack=0202 path=0201")
    apply(ctx, "german: force-march stack=0201")
    apply(ctx, "german: move stack=0201 path=0101")
    mv.casebook_step_end(ctx, "first_player", "movement")   # the force march ends: roll at once (9.6F)
    assert bool(ctx.state.unit("g1").get("fatigued")) is fatigued
    ev = ctx.trace.of_kind("force-march-fatigue")[-1]
    assert ev.data["roll"] == die


@pytest.mark.case("9.6C")
def test_9_6C_arctic_minus_four_and_oos_minus_two(pos, fake):
    ctx = _marched(pos, inf("g1", "0202", ma=8, extra=", activated: true"), temperature="arctic", die=5)
    fake.unsupplied.add("g1")
    apply(ctx, "german: move stack=0202 path=0201")
    apply(ctx, "german: force-march stack=0201")
    mv.casebook_step_end(ctx, "first_player", "movement")
    ev = ctx.trace.of_kind("force-march-fatigue")[-1]
    assert (ev.data["drm"], ev.data["modified"], ev.data["fatigued"]) == (-6, -1, True)


@pytest.mark.case("9.6D", "9.6F")
def test_9_6D_every_force_marching_unit_of_the_stack_fatigues(pos):
    units = inf("g1", "0202", extra=", activated: true") + "\n" + inf("g2", "0202", extra=", activated: true") \
        + "\n" + inf("g3", "0205", extra=", activated: true")
    ctx = _marched(pos, units, ground="mud", die=2)
    apply(ctx, "german: move stack=0202 path=0201")
    apply(ctx, "german: force-march stack=0201")
    apply(ctx, "german: move stack=0205 path=0206")   # moving another stack ends the force march first
    assert ctx.state.unit("g1")["fatigued"] and ctx.state.unit("g2")["fatigued"]
    kinds_ = [e.kind for e in ctx.trace]
    assert kinds_.index("force-march-fatigue") < max(i for i, k in enumerate(kinds_) if k == "move")


@pytest.mark.case("9.6E")
def test_9_6E_remnants_are_eliminated_not_fatigued(pos):
    rem = '- {id: r1, side: soviet, class: remnant, strength: 1, ma: 4, hex: "0606", activated: true}'
    ctx = _marched(pos, rem, ground="mud", die=1, phasing="soviet")
    apply(ctx, "soviet: move stack=0606 path=0605")
    apply(ctx, "soviet: force-march stack=0605")
    mv.casebook_step_end(ctx, "first_player", "movement")
    assert not ctx.state.has_unit("r1")
    assert ctx.state.removed[-1]["reason"] == "eliminated"


@pytest.mark.case("0.7.3.2B")
def test_0_7_3_2B_force_march_only_before_another_unit_moves(pos):
    units = inf("g1", "0202", extra=", activated: true") + "\n" + inf("g2", "0205", extra=", activated: true")
    ctx = _marched(pos, units)
    apply(ctx, "german: move stack=0202 path=0201")
    apply(ctx, "german: move stack=0205 path=0206")
    with pytest.raises(IllegalActionError) as exc:
        apply(ctx, "german: force-march stack=0201")
    assert "0.7.3.2B" in exc.value.cases


# -- 9.9 rail -------------------------------------------------------------------------------------------
def sov(uid, hex_, cls="infantry", extra=", activated: true"):
    size = "" if cls == "hq" else ", size: division"
    return f'- {{id: {uid}, side: soviet, class: {cls}{size}, strength: 6, ma: 4, hex: "{hex_}"{extra}}}'


@pytest.mark.case("9.9A", "9.9I", "9.9J")
def test_9_9A_soviet_rail_railhead_to_railhead(pos):
    ctx = pos(sov("s1", "0106"), phasing="soviet")
    offered = [str(a) for a in mv.casebook_legal_actions(ctx, "first_player", "movement") if a.kind == "rail-move"]
    assert offered == ["soviet: rail-move stack=0106 to=0306", "soviet: rail-move stack=0106 to=0606"]
    res = apply(ctx, "soviet: rail-move stack=0106 to=0606")
    assert res["path"] == ["0206", "0306", "0406", "0506", "0606"]
    assert ctx.state.unit("s1")["hex"] == "0606"
    assert not moves(ctx, "0606")                                             # 9.9J: no further move
    with pytest.raises(IllegalActionError):
        apply(ctx, "soviet: force-march stack=0606")
    german = pos(inf("g1", "0106", extra=", activated: true"))
    assert "9.9A" in mv.casebook_validate_action(german, act("german: rail-move stack=0106 to=0606"))[0].cases


@pytest.mark.case("9.9A", "9.9B", "9.9C", "9.9D", "9.9E")
@pytest.mark.parametrize("ground, temperature, capacity", [
    ("dry", "warm", 3), ("mud", "warm", 3), ("snow", "cold", 2), ("deep_snow", "cold", 1), ("dry", "arctic", 3)])
def test_9_9B_rail_capacity_by_weather_hqs_free(pos, ground, temperature, capacity):
    units = "\n".join([sov(f"s{i}", "0106") for i in range(capacity + 1)] + [sov("h1", "0106", cls="hq")])
    ctx = pos(units, ground=ground, temperature=temperature, phasing="soviet")
    too_many = ",".join([f"s{i}" for i in range(capacity + 1)])
    refusal = mv.casebook_validate_action(ctx, act(f"soviet: rail-move stack=0106 to=0306 units={too_many}"))
    assert refusal and "9.9A" in refusal[0].cases
    ok = ",".join([f"s{i}" for i in range(capacity)] + ["h1"])
    apply(ctx, f"soviet: rail-move stack=0106 to=0306 units={ok}")            # 9.9E: the HQ is free
    assert ctx.state.plugin_data("movement")["rail_units"] == capacity


def bde(uid, hex_):
    return (f'- {{id: {uid}, side: soviet, class: infantry, size: brigade, strength: 2, ma: 4, '
            f'hex: "{hex_}", activated: true}}')


@pytest.mark.case("9.9A", "9.9C", "9.9E")
@pytest.mark.parametrize("ground, temperature, capacity", [("dry", "warm", 3), ("deep_snow", "cold", 1)])
def test_9_9A_part_of_a_stack_larger_than_the_capacity_moves_by_rail(pos, ground, temperature, capacity):
    """9.9A "can move up to three combat units by rail" (9.9C: one in Deep Snow): a stack of
    four brigades and an HQ is offered each choice of ``capacity`` brigades (the HQ stays)."""
    units = "\n".join([bde(f"s{i}", "0106") for i in range(4)] + [sov("h1", "0106", cls="hq")])
    ctx = pos(units, ground=ground, temperature=temperature, phasing="soviet")
    offered = [a for a in mv.casebook_legal_actions(ctx, "first_player", "movement") if a.kind == "rail-move"]
    groups = sorted({a.get("units") for a in offered})
    assert groups == sorted(tuple(c) for c in itertools.combinations([f"s{i}" for i in range(4)], capacity))
    assert {a.get("to") for a in offered} == {"0306", "0606"}
    apply(ctx, str(offered[0]))
    assert ctx.state.plugin_data("movement")["rail_units"] == capacity
    assert sorted(u["id"] for u in ctx.state.units_at("0106")) == sorted(
        {"s0", "s1", "s2", "s3", "h1"} - set(offered[0].get("units")))


@pytest.mark.case("9.9A", "6.2B", "6.0B")
def test_9_9A_rail_moves_never_end_overstacked(pos):
    """Three Soviet divisions fit the rail capacity (9.9A) but not a hex (6.0B: two divisions and
    one other unit; a move may not end overstacked, 6.2B): two of them are offered."""
    units = "\n".join(sov(f"s{i}", "0106") for i in range(3))
    ctx = pos(units, phasing="soviet")
    offered = [a for a in mv.casebook_legal_actions(ctx, "first_player", "movement") if a.kind == "rail-move"]
    assert sorted({a.get("units") for a in offered}) == [("s0", "s1"), ("s0", "s2"), ("s1", "s2")]


@pytest.mark.case("9.9F", "9.9H")
def test_9_9F_activated_in_movement_unactivated_in_unactivated_step(pos):
    ctx = pos(sov("s1", "0106", extra=""), phasing="soviet")
    assert mv.casebook_validate_action(ctx, act("soviet: rail-move stack=0106 to=0606"))
    un = pos(sov("s1", "0106", extra=""), phasing="soviet", step="unactivated_movement")
    apply(un, "soviet: rail-move stack=0106 to=0606")                        # full rail move (9.9H)
    assert un.state.unit("s1")["hex"] == "0606"


@pytest.mark.case("9.9G")
def test_9_9G_hq_by_rail_its_units_only_by_rail(pos):
    ctx = pos(sov("h1", "0106", cls="hq") + "\n" + sov("s1", "0205"), phasing="soviet")
    apply(ctx, "soviet: rail-move stack=0106 to=0606")
    with pytest.raises(IllegalActionError) as exc:
        apply(ctx, "soviet: move stack=0205 path=0204")
    assert exc.value.cases == ("9.9G",)


@pytest.mark.case("9.9I")
def test_9_9I_ezocs_block_the_start_and_the_path_not_the_destination(pos):
    ctx = pos(sov("s1", "0106") + "\n" + inf("g1", "0507"), phasing="soviet")
    # g1 in 0507 exerts ZOC into 0406 and 0506: the line east of 0306 is cut, 0606 unreachable
    res = mv.casebook_legal_actions(ctx, "first_player", "movement")
    rails = sorted(a.get("to") for a in res if a.kind == "rail-move")
    assert rails == ["0306"]
    blocked = pos(sov("s1", "0106") + "\n" + inf("g1", "0105"), phasing="soviet")
    refusal = mv.casebook_validate_action(blocked, act("soviet: rail-move stack=0106 to=0306"))
    assert refusal and refusal[0].cases == ("9.9I",) and "EZOC" in refusal[0].reason
    into = pos(sov("s1", "0106") + "\n" + inf("g1", "0705"), phasing="soviet")   # 0606 next to g1's ZOC
    apply(into, "soviet: rail-move stack=0106 to=0606")
    assert into.state.unit("s1")["hex"] == "0606"


@pytest.mark.case("9.9K")
def test_9_9K_railed_into_an_ezoc_may_attack_if_in_command(pos, fake):
    ctx = pos(sov("s1", "0106") + "\n" + inf("g1", "0705"), phasing="soviet")
    apply(ctx, "soviet: rail-move stack=0106 to=0606")
    facts = mv.casebook_facts(ctx, "s1")
    assert facts["moved_by_rail"]["value"] is True and facts["rail_attack_allowed"] == {"value": True, "cases": ["9.9K"]}
    fake.out_of_command.add("s1")   # 0606 is not in g1's ZOC (0705): 9.9K does not apply
    assert mv.casebook_facts(ctx, "s1")["rail_attack_allowed"]["value"] is True
    # railed into g1's ZOC (0707 touches 0606): the fact is read by the validator of an attack,
    # so play and ask refuse the attack out of command (9.9K)
    fake.out_of_command.clear()
    ctx = pos(sov("s1", "0106") + "\n" + inf("g1", "0707"), phasing="soviet")
    apply(ctx, "soviet: rail-move stack=0106 to=0606")
    attack = act("soviet: attack hex=0707 with=s1 support=0")
    assert mv.casebook_validate_action(ctx, attack) == []
    fake.out_of_command.add("s1")
    assert mv.casebook_facts(ctx, "s1")["rail_attack_allowed"]["value"] is False
    assert [r.cases for r in mv.casebook_validate_action(ctx, attack)] == [("9.9K",)]


# -- 0.7.3.4B --------------------------------------------------------------------------------------------
@pytest.mark.case("0.7.3.4B", "9.7")
def test_0_7_3_4B_reacting_units_are_marked_activated_and_cannot_overrun(pos):
    tank = '- {id: s1, side: soviet, class: armor, size: division, strength: 3, ma: 6, hex: "0303"}'
    ctx = pos(tank + "\n" + inf("g1", "0403"), step="reaction_movement")
    apply(ctx, "soviet: react stack=0303")
    assert ctx.state.unit("s1")["activated"] is True
    refusal = mv.casebook_validate_action(ctx, act("soviet: overrun stack=0303 hex=0403"))
    assert refusal and "9.7" in refusal[0].cases
    mv.casebook_step_end(ctx, "first_player", "recovery")
    assert ctx.state.plugin_data("movement") is None


@pytest.mark.case("9.5B", "9.5C")
def test_9_5C_an_overrun_advanced_by_the_combat_results_moves_on_with_the_mps_left(pos, fake):
    """When the combat results already put the overrunning stack into the vacated hex, the move
    goes on from there with the MPs left: no fresh movement allowance (9.5B-C)."""
    fake.outcome = "eliminate-and-advance"
    units = "\n".join([PZ % ("p1", "0201"), inf("s1", "0302", side="soviet")])
    ctx = pos(units)
    res = apply(ctx, "german: overrun stack=0201 hex=0302")
    assert res["advanced"] is True and res["units"] == ["p1"]
    cur = ctx.state.plugin_data("movement")["current"]
    assert cur["hex"] == "0302" and cur["units"] == ["p1"] and cur["spent"] == res["mp"]


@pytest.mark.case("9.9A", "9.9E")
def test_9_9A_the_player_may_rail_fewer_units_than_the_capacity_allows():
    """9.9A "can move **up to** three combat units by rail": on docs/examples/rail.yaml (four
    divisions and an HQ on Testgrad; a hex holds two divisions, 6.0B) the listed rail moves take two
    divisions, and the player may also send one alone, or one with the HQ (HQs are not counted,
    9.9E) — a filling of the rail-move template, accepted by the same validators; three divisions
    would end overstacked (6.2B) and are refused with the case. Found by a player (trial)."""
    from pathlib import Path

    import yaml

    from casebook.core.errors import IllegalActionError
    from casebook.core.game import Game

    text = (Path(__file__).resolve().parents[3] / "docs" / "examples" / "rail.yaml").read_text(encoding="utf-8")
    state = Game.load("moscow41").state_from_dict(yaml.safe_load(text))
    assert all(len(a.get("units")) == 2 for a in state.legal_actions() if a.kind == "rail-move")
    template = next(t for t in state.action_templates() if t.kind == "rail-move")
    assert "at most 3 combat unit(s)" in str(template) and template.cases == ("9.9A", "9.9E", "9.9I")
    assert state.why_not("soviet: rail-move stack=0106 to=0306 units=s1") == ((), "legal")
    cases, reason = state.why_not("soviet: rail-move stack=0106 to=0306 units=s1,s2,s3")
    assert "6.2B" in cases and "overstacked" in reason
    with pytest.raises(IllegalActionError):
        state.apply("soviet: rail-move stack=0106 to=0306 units=s1,s2,s3")
    state.apply("soviet: rail-move stack=0106 to=0606 units=s1,sh")
    assert sorted(u["id"] for u in state.data.units if u.get("hex") == "0606") == ["s1", "sh"]
    assert state.why_not("soviet: rail-move stack=0106 to=0306 units=s2") == ((), "legal")  # 2 of 3 left
