"""Supply and command cases moved into Moscow '41's rule scripts (issue #15, session 7): each
test copies the pack, edits one line of supply.rules or command.rules, and sees play or ``ask``
change — the plugins and the shared supply area read the line, so a modder changes the rule
without Python."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from games.moscow41.tests.test_moved_rules import edited, supply_ctx
from games.moscow41.tests.test_movement import inf

HQ = '- {id: %s, side: german, class: hq, strength: 0, ma: 6, radius: 3, limit: 3, hex: "%s"%s}'


def blitz(pack: str = "moscow41"):
    return Game.load(pack, "october-blitz").new_initial_state(1).ctx()


def pocketed(ctx):
    """``ctx`` with g-36mot moved into 2613 (the set-up hex before session 19), where the Soviet
    units round it cut every supply path (5.4A-B)."""
    ctx.state.move_unit("g-36mot", "2613")
    return ctx


def _line_step(ctx, a: str, b: str) -> bool:
    """Whether a road, trail or rail line crosses the hexside between hexes ``a`` and ``b``."""
    from casebook.core.hexgrid import parse_hex
    side = ctx.board.side(parse_hex(a), parse_hex(b))
    return bool(side.road or side.trail or side.rail)


# -- supply.rules -----------------------------------------------------------------------------------
@pytest.mark.case("5.2C")
def test_5_2C_supply_line_line_lets_soviet_paths_follow_rail(tmp_path):
    """The supply area reads `supply_line` per line kind: in the October Blitz set-up s-29a traces
    supply by rail (5.2C); when the line forbids rail to every side it has no supply route."""
    from casebook.games.moscow41.plugins.supply import supply_answer
    assert supply_answer(blitz(), "s-29a")["route"] == "rail"
    edited(tmp_path, "supply.rules", "when line_kind is rail and side is not soviet", "when line_kind is rail")
    answer = supply_answer(blitz(str(tmp_path / "moscow41")), "s-29a")
    assert answer["in_supply"] is False and answer["route"] is None


@pytest.mark.case("5.2D")
def test_5_2D_supply_line_off_hexside_line_keeps_paths_on_the_line(tmp_path):
    """The supply area reads `supply_line_off_hexside`: g-87id's road path in the October Blitz
    set-up follows the road through its hexsides (5.2D: 1309 -> 1308); without the line the
    path may step from line hex to line hex across a hexside no line crosses (1309 -> 1208)."""
    from casebook.games.moscow41.plugins.supply import supply_answer
    ctx = blitz()
    answer = supply_answer(ctx, "g-87id")
    assert answer["route"] == "road"
    assert answer["path"] == ["1812", "1712", "1612", "1512", "1511", "1410", "1409", "1309", "1308"]
    line = answer["path"][answer["path"].index("1410"):]
    assert all(_line_step(ctx, a, b) for a, b in zip(line, line[1:]))
    edited(tmp_path, "supply.rules", "forbid supply_line_off_hexside by 5.2D\n", "")
    ctx = blitz(str(tmp_path / "moscow41"))
    path = supply_answer(ctx, "g-87id")["path"]
    assert path[-2:] == ["1309", "1208"] and not _line_step(ctx, "1309", "1208")


@pytest.mark.case("5.6B")
def test_5_6B_mark_oos_line_places_markers_only_in_the_recovery_step(tmp_path):
    """supply's step-end hook reads `mark_oos`: g-36mot moved from its October Blitz set-up hex
    (2612) into 2613, between the 107th Tank, 250th and 251st Rifle Divisions, cannot trace supply;
    the end of the Command Step leaves it unmarked (5.6B: markers only in the Recovery Step), the
    end of the Recovery Step marks it OOS (5.5A); with the line naming the Command Step, the
    marking happens there."""
    from casebook.games.moscow41.plugins import supply
    for step, marked in (("command", False), ("recovery", True)):
        ctx = pocketed(blitz())
        assert ctx.state.phasing == "german" and supply.in_supply(ctx, "g-36mot") is False
        supply.casebook_step_end(ctx=ctx, phase="first_player", step=step)
        assert bool(ctx.state.unit("g-36mot").get("oos")) is marked
    edited(tmp_path, "supply.rules", 'when ending_step is not "recovery"', 'when ending_step is not "command"')
    ctx = pocketed(blitz(str(tmp_path / "moscow41")))
    supply.casebook_step_end(ctx=ctx, phase="first_player", step="command")
    assert ctx.state.unit("g-36mot").get("oos") is True


# -- command.rules ----------------------------------------------------------------------------------
@pytest.mark.case("0.7.3.1B")
def test_0_7_3_1B_hq_activate_unit_line_keeps_hqs_out_of_an_activation(m41, tmp_path):
    """The activation area's hq_stacks asks `hq_activate_unit` of every unit in the radius: HQ g-hq2 next
    to g-hq1 is not among the stacks g-hq1 activates (0.7.3.1B: stacks of combat units); without
    the line it is."""
    from casebook.areas import activation as act
    from casebook.games.moscow41.plugins._area_config import command_paths
    units = "\n".join([HQ % ("g-hq1", "0404", ""), HQ % ("g-hq2", "0405", ""), inf("g1", "0505")])
    ctx = supply_ctx(m41, units, step="command")
    assert act.hq_stacks(command_paths(ctx), ctx, ctx.state.unit("g-hq1")) == {"0505": ["g1"]}
    eng = edited(tmp_path, "command.rules", "forbid hq_activate_unit  by 0.7.3.1B  when unit_class is hq\n", "")
    ctx = supply_ctx(eng, units, step="command")
    stacks = act.hq_stacks(command_paths(ctx), ctx, ctx.state.unit("g-hq1"))
    assert stacks["0405"] == ["g-hq2"] and stacks["0505"] == ["g1"]


@pytest.mark.case("0.7.3.1C")
def test_0_7_3_1C_stack_activation_marker_line_places_the_reserve_marker(m41, tmp_path):
    """_command_steps.apply reads `stack_activation_marker`: a stack activated on its own gets a
    Reserve marker (0.7.3.1C, 9.4D); with the line giving `none`, it is only activated."""
    from casebook.core.actions import parse_action
    from casebook.games.moscow41.plugins import command

    def activate(engine):
        ctx = supply_ctx(engine, inf("g1", "0104"), step="command")
        action = parse_action("german: activate-stack stack=0104")
        with ctx.state.transaction(ctx.trace):
            assert not command.casebook_validate_action(ctx, action)
            command.casebook_apply_action(ctx, action)
        return ctx.state.unit("g1")
    unit = activate(m41)
    assert unit.get("activated") is True and unit.get("reserve") is True
    eng = edited(tmp_path, "command.rules", "  otherwise reserve  by 0.7.3.1C, 9.4D\n", "  otherwise none  by 0.7.3.1C, 9.4D\n")
    unit = activate(eng)
    assert unit.get("activated") is True and not unit.get("reserve")


@pytest.mark.case("0.7.3.8B")
def test_0_7_3_8B_remove_activation_markers_line_clears_markers_at_recovery_end(m41, tmp_path):
    """command's step-end hook reads `remove_activation_markers`: the Activation markers of both
    sides come off at the end of the Recovery Step only (0.7.3.8B); with the line naming the
    Movement Step they come off there."""
    from casebook.games.moscow41.plugins import command
    units = "\n".join([inf("g1", "0104", extra=", activated: true"),
                       inf("s1", "0707", side="soviet", extra=", activated: true")])
    for step, cleared in (("movement", False), ("recovery", True)):
        ctx = supply_ctx(m41, units, step=step)
        command.casebook_step_end(ctx=ctx, phase="first_player", step=step)
        assert [bool(ctx.state.unit(u).get("activated")) for u in ("g1", "s1")] == [not cleared] * 2
    eng = edited(tmp_path, "command.rules", 'when ending_step is not "recovery"', 'when ending_step is not "movement"')
    ctx = supply_ctx(eng, units, step="movement")
    command.casebook_step_end(ctx=ctx, phase="first_player", step="movement")
    assert not ctx.state.unit("g1").get("activated") and not ctx.state.unit("s1").get("activated")



@pytest.mark.case("8.0A", "8.1C")
def test_8_0A_a_command_answer_cites_the_trace_command_path_lines(m41, tmp_path):
    """The command area holds no case id: a unit that traces a command path cites the `permit
    trace_command_path` lines (8.0A, 8.1A, 8.1B, 7.4, 0.2.4.8, 8.1D), an HQ the forbid line
    (8.1C, 8.0B). A modder's edit of the permit line is what the answer cites."""
    from casebook.games.moscow41.plugins.command import command_answer
    units = "\n".join([HQ % ("g-hq", "0404", ""), inf("g1", "0505")])
    ctx = supply_ctx(m41, units)
    assert command_answer(ctx, "g1")["cases"] == ["8.0A", "8.1A", "8.1B", "7.4", "0.2.4.8", "8.1D"]
    assert command_answer(ctx, "g-hq") == {"unit": "g-hq", "in_command": True, "hqs": [], "cases": ["8.1C", "8.0B"]}
    eng = edited(tmp_path, "command.rules", "permit trace_command_path by 8.0A, 8.1A, 8.1B, 7.4, 0.2.4.8, 8.1D",
                 "permit trace_command_path by 8.0A, 8.1A")
    assert command_answer(supply_ctx(eng, units), "g1")["cases"] == ["8.0A", "8.1A"]


@pytest.mark.case("5.1B")
def test_5_1B_an_entry_area_cites_the_supply_source_lines_of_its_kind(m41):
    """The supply area names no case: a source cites the `supply_source` forbid lines that say
    who may use its kind (the west edge 5.1A, an Entry Area 5.1B, the Soviet sources 5.1C)."""
    from casebook.areas.supply_paths import source_cases
    ctx = supply_ctx(m41, inf("g1", "0505"))
    assert [source_cases(ctx, k) for k in ("west_edge", "entry_area", "east_edge", "friendly_city")] == [
        ("5.1A",), ("5.1B",), ("5.1C",), ("5.1C",)]


# -- zoc.rules read by the Python of supply, command and victory (#15 (d)) -----------------------------
REMNANT = '- {id: %s, side: soviet, class: remnant, size: brigade, strength: 1, ma: 4, hex: "%s"}'


@pytest.mark.case("11.3D", "0.5.4")
def test_11_3D_a_modders_counts_as_combat_unit_line_reaches_supply_command_and_victory(m41, tmp_path):
    """Moscow '41's Python asks zoc.rules' `counts_as_combat_unit` (0.5.4, 11.3D), never a list of
    its own: a Soviet remnant in 0506, in the ZOC of g1 (0505), does not lift that EZOC for Soviet
    supply or command paths (11.3D: not a combat unit; 5.4B, 8.1B), and victory's combat units
    (17.1, 17.2) and a fortification's builder (14.1D) leave out HQs and remnants. A modder who
    deletes the 11.3D line makes remnants combat units: both paths pass 0506, victory counts
    remnants and a remnant may build — no Python edited."""
    from casebook.areas.worksites import combat_units
    from casebook.core.hexgrid import parse_hex
    from casebook.games.moscow41.plugins._area_config import command_paths, is_combat, non_combat, supply_paths
    from casebook.games.moscow41.plugins._fortification_build import sites

    units = "\n".join([inf("g1", "0505"), REMNANT % ("s-r1", "0506")])

    def read(engine):
        ctx = supply_ctx(engine, units)
        h = parse_hex("0506")
        return (non_combat(ctx), is_combat(ctx, ctx.state.unit("s-r1")),
                h in supply_paths(ctx).blocked(ctx, "soviet"), h in command_paths(ctx).blocked(ctx, "soviet"),
                combat_units(ctx, sites(ctx), "0506"))

    assert read(m41) == (frozenset({"hq", "remnant"}), False, True, True, [])
    eng = edited(tmp_path, "zoc.rules", "forbid counts_as_combat_unit by 11.3D  when unit_class is remnant\n", "")
    assert read(eng) == (frozenset({"hq"}), True, False, False, ["s-r1"])


@pytest.mark.case("9.2A")
def test_9_2A_a_modders_chart_row_line_reaches_the_tec_row_of_supply_and_movement(m41, tmp_path):
    """The TEC row a unit moves and traces supply on is zoc.rules' quantity `chart_row` (7.0C,
    9.2A): an HQ marked mechanized uses the mechanized row (interpretation hq-movement-class);
    with that line deleted it uses its own row, in `move_class` and the supply area's `row` alike."""
    from casebook.games.moscow41.plugins._area_config import move_class, supply_paths

    units = HQ % ("g-hq", "0404", ", mechanized: true")

    def rows(engine):
        ctx = supply_ctx(engine, units)
        hq = ctx.state.unit("g-hq")
        return move_class(ctx, hq), supply_paths(ctx).row(ctx, hq)

    assert rows(m41) == ("mechanized", "mechanized")
    eng = edited(tmp_path, "zoc.rules",
                 "  mechanized  by 9.2A  when unit_class is hq and unit_mechanized and hq_movement_class is by_mechanized\n",
                 "")
    assert rows(eng) == ("hq", "hq")
