"""Moscow '41 command (0.7.3.1, 0.7.3.8, 2.0-2.2, 2.5, 8.0-8.4): command paths, the Command Step
and the Recovery Step. Positions and the fake ZOC are those of test_supply."""

from __future__ import annotations

import json

import pytest

from casebook.content.plugins import make_plugin_manager
from casebook.core.actions import Action
from casebook.games.moscow41.plugins import command
from casebook.script.engine import Engine
from games.moscow41.tests.test_supply import FakeZoc, G, S, make


@pytest.fixture(scope="module")
def eng(m41):
    pm = make_plugin_manager(m41.pack.manifest["plugins"], extra={"fake_zoc": FakeZoc()})
    return Engine(m41.pack, m41.board, m41.rules, pm, m41.sequence)


def cmd(ctx, uid):
    return ctx.hook.casebook_command(ctx=ctx, unit=uid)


def at(eng, units, step="command", phasing="german", ip=None, **kw):
    ctx = make(eng, units, phasing=phasing, **kw)
    ctx.state.set_sequence_position("first_player", step, phasing)
    if ip is not None:
        ctx.state.add_track("ip", ip - ctx.state.track("ip", phasing), phasing)
    command.casebook_step_start(ctx, "first_player", step)
    ctx.changed()
    return ctx


def legal(ctx):
    return ctx.hook.casebook_legal_actions(ctx=ctx, phase="first_player", step=ctx.state.step)


def ours(ctx):
    return [a for group in legal(ctx) for a in group if a.kind in ("activate-hq", "activate-stack", "recover", "pass")]


def act(ctx, action):
    refusals = [r for group in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in group]
    if refusals:
        return refusals
    with ctx.state.transaction():
        result = ctx.hook.casebook_apply_action(ctx=ctx, action=action)
    ctx.changed()
    return result


HQ = dict(radius=3, limit=3)


# -- 8.0 / 8.1 command paths ----------------------------------------------------------------------
@pytest.mark.case("8.0A", "8.1A")
def test_8_1A_radius_counts_the_units_hex_not_the_hqs(eng):
    ctx = at(eng, [G("hq", "0101", "hq", **HQ), G("d3", "0401"), G("d4", "0501")])
    a = cmd(ctx, "d3")
    assert a["in_command"] and a["hqs"][0]["hq"] == "hq" and a["hqs"][0]["distance"] == 3
    assert a["hqs"][0]["radius"] == 3 and "0.2.4.8" in a["cases"]
    assert not cmd(ctx, "d4")["in_command"]


@pytest.mark.case("8.0A", "8.1B")
def test_8_1B_enemy_unit_or_empty_ezoc_breaks_the_path(eng):
    # Soviet unit in 0202 (2-row map): its ZOC covers 0201 and 0301 (and 0102, 0302).
    units = [G("hq", "0101", "hq", **HQ), G("d", "0401"), S("s", "0202")]
    assert not cmd(at(eng, units, rows=2), "d")["in_command"]
    ctx = at(eng, units + [G("r1", "0201", size="regiment")], rows=2)
    assert cmd(ctx, "d")["in_command"]                                  # friendly combat unit in 0201
    ctx = at(eng, units + [G("rem", "0201", "remnant")], rows=2)
    assert not cmd(ctx, "d")["in_command"]                              # 7.4: not a remnant


@pytest.mark.case("8.0B", "8.1C")
def test_8_1C_hq_always_in_command_8_0B_never_through_another_hq(eng):
    ctx = at(eng, [G("hq", "0101", "hq", **HQ), G("hq2", "0201", "hq", **HQ)])
    assert cmd(ctx, "hq2") == {"unit": "hq2", "in_command": True, "hqs": [], "cases": ["8.1C", "8.0B"]}
    hq_actions = [a for a in ours(ctx) if a.kind == "activate-hq"]
    assert [str(a) for a in hq_actions] == ["german: activate-hq hq=hq", "german: activate-hq hq=hq2"]


@pytest.mark.case("8.1D")
def test_8_1D_supply_terrain_and_weather_do_not_matter(eng):
    ctx = at(eng, [G("hq", "1701", "hq", **HQ), G("d", "2001")], weather=("warm", "mud"),
             terrain={"1801": "swamp", "1901": "forest"})
    assert not ctx.hook.casebook_supply(ctx=ctx, unit="d")["in_supply"]
    assert cmd(ctx, "d")["in_command"] and cmd(ctx, "d")["hqs"][0]["distance"] == 3


# -- 8.2 judging command, 8.3 limits, 8.4 effects -------------------------------------------------
@pytest.mark.case("8.2A", "0.7.3.1A", "0.7.3.1B", "8.4A")
def test_8_2A_command_judged_when_the_hq_is_activated(eng):
    ctx = at(eng, [G("hq", "0101", "hq", **HQ), G("a", "0201"), G("b", "0301"), G("far", "0601")])
    assert ctx.hook.casebook_decider(ctx=ctx, phase="first_player", step="command") == "german"
    (hq_action,) = [a for a in ours(ctx) if a.kind == "activate-hq"]
    assert hq_action.get("stacks") == ("0201", "0301")
    result = act(ctx, hq_action)
    assert result["units"] == ["a", "b"] and result["ip"] == 1            # one IP for all (8.4A)
    st = ctx.state
    assert st.track("ip", "german") == 9 and st.unit("hq")["activated"] and st.unit("a")["activated"]
    assert "activated" not in st.unit("far")
    ctx.state.move_unit("far", "0401")                                   # too late: judged already
    ctx.changed()
    assert "activated" not in ctx.state.unit("far")
    assert ctx.hook.casebook_decider(ctx=ctx, phase="first_player", step="command") == "none"


@pytest.mark.case("8.2B", "8.2C")
def test_8_2B_C_activated_units_may_leave_the_radius(eng):
    ctx = at(eng, [G("hq", "0101", "hq", **HQ), G("a", "0201")])
    act(ctx, Action.make("activate-hq", "german", hq="hq", stacks=["0201"]))
    ctx.state.move_unit("a", "0901")
    ctx.changed()
    assert not cmd(ctx, "a")["in_command"] and ctx.state.unit("a")["activated"]
    attack = Action.make("attack", "german", hex="1001", **{"with": ["a"]})
    assert command.casebook_validate_action(ctx, attack) == []


@pytest.mark.case("8.3.1A", "0.7.3.1B")
def test_8_3_1A_german_hq_activates_up_to_its_command_limit(eng):
    units = [G("hq", "0101", "hq", **HQ)] + [G(f"u{c}", f"0{c}01") for c in range(2, 6)]
    ctx = at(eng, units, cols=10, **{})
    (a,) = [a for a in ours(ctx) if a.kind == "activate-hq"]
    assert a.get("stacks") == ("0201", "0301", "0401")                  # limit 3, nearest first
    too_many = Action.make("activate-hq", "german", hq="hq", stacks=["0201", "0301", "0401", "0501"])
    refusals = act(ctx, too_many)
    assert any("8.3.1A" in r.cases for r in refusals)                    # 0501 is 4 hexes away too
    assert any("activates at most 3" in r.reason for r in refusals)


@pytest.mark.case("8.3.2A")
def test_8_3_2A_soviet_hq_activates_every_stack_in_its_radius(eng):
    units = [S("hq", "0101", "hq", radius=5)] + [S(f"u{c}", f"0{c}01") for c in range(2, 7)]
    ctx = at(eng, units, phasing="soviet", cols=10)
    (a,) = [a for a in ours(ctx) if a.kind == "activate-hq"]
    assert a.get("stacks") == ("0201", "0301", "0401", "0501", "0601")


@pytest.mark.case("8.3.1B", "8.3.2B")
def test_8_3_support_limits(eng):
    ctx = at(eng, [G("hq", "0101", "hq", **HQ), G("g", "0201"),
                   S("front", "1901", "hq", radius=5), S("s", "1801")], cols=20)
    assert cmd(ctx, "g")["hqs"][0]["support_limit"] == 3                 # German: the limit
    assert cmd(ctx, "s")["hqs"][0]["support_limit"] == 5                 # Soviet: the radius


@pytest.mark.case("8.4B", "2.5B")
def test_8_4B_in_command_and_supplied_units_may_recover(eng):
    units = [G("hq", "0101", "hq", **HQ), G("near", "0301", fatigued=True), G("far", "0701", fatigued=True)]
    ctx = at(eng, units, step="recovery")
    assert [a.get("stack") for a in ours(ctx) if a.kind == "recover"] == ["0301"]


@pytest.mark.case("8.4C")
def test_8_4C_rps_need_command_and_supply(eng):
    rp = lambda s, c: eng.rules.permission("receive_rp", {"supplied": s, "in_command": c}, eng.pack.tables).value
    assert rp(True, True) and not rp(True, False) and not rp(False, True)


# -- 2.x initiative points -------------------------------------------------------------------------
@pytest.mark.case("2.0", "0.7.3.8B")
def test_2_0_activated_once_until_step_8(eng):
    ctx = at(eng, [G("a", "0301")])
    act(ctx, Action.make("activate-stack", "german", stack="0301"))
    command.casebook_step_start(ctx, "first_player", "command")          # next loop (0.7.3.6)
    assert not [a for a in ours(ctx) if a.kind == "activate-stack"]
    refusals = act(ctx, Action.make("activate-stack", "german", stack="0301"))
    assert any("2.0" in r.cases for r in refusals)
    command.casebook_step_end(ctx, "first_player", "recovery")
    assert "activated" not in ctx.state.unit("a") and "reserve" not in ctx.state.unit("a")


@pytest.mark.case("2.1A", "2.1B")
def test_2_1A_hq_cost_by_supply_2_1B_flipped(eng):
    for side, mk, cost in (("german", G, 2), ("soviet", S, 3)):
        ctx = at(eng, [mk("hq", "1001", "hq", **HQ)], phasing=side)          # 9 MP from both edges
        assert not ctx.hook.casebook_supply(ctx=ctx, unit="hq")["in_supply"]
        assert act(ctx, Action.make("activate-hq", side, hq="hq"))["ip"] == cost
        assert ctx.state.track("ip", side) == 10 - cost and ctx.state.unit("hq")["activated"] is True
    ctx = at(eng, [G("hq", "0301", "hq", **HQ)])
    assert act(ctx, Action.make("activate-hq", "german", hq="hq"))["ip"] == 1
    refusals = act(at(eng, [G("hq", "0301", "hq", **HQ)], ip=0), Action.make("activate-hq", "german", hq="hq"))
    assert any("2.1A" in r.cases for r in refusals)


@pytest.mark.case("2.2A", "2.2B", "0.7.3.1C", "5.7A")
def test_2_2A_single_stack_needs_supply_2_2B_costs_one_ip(eng):
    ctx = at(eng, [G("a", "0301"), G("b", "0301", size="regiment"), G("out", "1501")])
    stacks = [a.get("stack") for a in ours(ctx) if a.kind == "activate-stack"]
    assert stacks == ["0301"]                                            # 1501 is OOS
    result = act(ctx, Action.make("activate-stack", "german", stack="0301"))
    assert result["units"] == ["a", "b"] and ctx.state.track("ip", "german") == 9
    assert ctx.state.unit("a")["reserve"] is True                         # 0.7.3.1C
    refusals = act(at(eng, [G("out", "1501")]), Action.make("activate-stack", "german", stack="1501"))
    assert any("2.2A" in r.cases for r in refusals)


@pytest.mark.case("2.2C", "2.2D", "2.2E")
def test_2_2C_panzers_only_by_mechanized_hqs_2_2D_supported_by_any_2_2E_motorized(eng):
    pz = dict(cls="armor", size="regiment", division="g-1pz")
    units = [G("corps", "0101", "hq", **HQ), G("pz", "0301", pz.pop("cls"), **pz),
             G("mot", "0201", "mechanized"), G("pzhq", "1201", "hq", mechanized=True, radius=4, limit=3)]
    ctx = at(eng, units)
    corps, pzhq = sorted((a for a in ours(ctx) if a.kind == "activate-hq"), key=lambda a: a.get("hq"))
    assert corps.get("stacks") == ("0201",)                              # 2.2C, 2.2E
    entry = cmd(ctx, "pz")["hqs"][0]
    assert entry["hq"] == "corps" and entry["can_activate"] is False       # 2.2D: in command for support
    ctx.state.move_unit("pzhq", "0601")
    ctx.changed()
    (pzhq,) = [a for a in ours(ctx) if a.kind == "activate-hq" and a.get("hq") == "pzhq"]
    assert "0301" in pzhq.get("stacks")
    # 2.2D: supplied through a corps HQ's radius
    far = at(eng, [G("corps", "0901", "hq", **HQ), G("pz", "1101", "armor", size="regiment", division="g-1pz")])
    assert ctx.hook.casebook_supply(ctx=far, unit="pz")["route"] == "hq"


@pytest.mark.case("2.5A", "0.7.3.8A")
def test_2_5A_one_ip_per_division_or_part(eng):
    units = [G("hq", "0101", "hq", **HQ), G("d", "0301", fatigued=True),
             G("r", "0301", size="regiment", fatigued=True)]
    ctx = at(eng, units, step="recovery")
    assert ctx.hook.casebook_decider(ctx=ctx, phase="first_player", step="recovery") == "german"
    (rec,) = [a for a in ours(ctx) if a.kind == "recover"]
    result = act(ctx, rec)
    assert result["ip"] == 2 and ctx.state.track("ip", "german") == 8
    assert "fatigued" not in ctx.state.unit("d") and "fatigued" not in ctx.state.unit("r")


@pytest.mark.case("2.5C")
def test_2_5C_negating_combat_fatigue_costs_one_ip(eng):
    assert eng.rules.value("ip_cost", {"ip_use": "negate_fatigue"}, eng.script_tables) == 1


@pytest.mark.case("0.7.3.8B")
def test_0_7_3_8B_markers_off_all_units_of_both_sides(eng):
    ctx = at(eng, [G("g", "0301", activated=True, reserve=True), S("s", "1801", activated=True),
                   G("hq", "0101", "hq", activated=True, **HQ)], step="recovery")
    command.casebook_step_end(ctx, "first_player", "recovery")
    assert not any(u.get("activated") or u.get("reserve") for u in ctx.state.units)


def test_ask_command_json(eng, snapshot):
    ctx = at(eng, [G("hq", "0101", "hq", **HQ), G("pz", "0301", "armor", size="regiment", division="g-1pz"),
                   G("pzhq", "0501", "hq", mechanized=True, radius=4, limit=3)])
    answer = ctx.hook.casebook_answer(ctx=ctx, question="command", args=["pz"], options={})
    assert [h["hq"] for h in answer["hqs"]] == ["hq", "pzhq"]
    assert json.loads(json.dumps(answer)) == snapshot
