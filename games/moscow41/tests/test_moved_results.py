"""Retreat, advance and stacking-in-retreat rules that live in Moscow '41's rule scripts (issue
#15): each test copies the pack, edits one line of results.rules or stacking.rules, and sees
the results procedure (retreat options, advance paths, refusals) change — the plugins read the
line, so a modder changes the rule without Python."""

from __future__ import annotations

import pytest

from casebook.areas import stacking
from casebook.areas._results_retreat import advance_paths, retreat_options
from casebook.core.actions import Action
from casebook.core.hooks import hookimpl
from casebook.games.moscow41.plugins import results
from games.moscow41.tests._fakes import FakeAreasWithStacking as FakeAreas
from games.moscow41.tests._fakes import engine_with
from games.moscow41.tests.test_moved_rules import edited
from games.moscow41.tests.test_results import g, outcome, s
from games.moscow41.tests.test_stacking import G_DIV, G_REG
from games.moscow41.tests.test_stacking import pos as stacking_position
from tests.conftest import m41_inline, make_ctx

FAKE = FakeAreas()


def results_ctx(engine, units: str):
    """A Combat Step position on the results tests' 8x8 map, with the fake combat areas."""
    FAKE.reset()
    return make_ctx(engine_with(engine, fake_combat=FAKE), m41_inline(units), trace=True)


@pytest.mark.case("11.4C")
def test_11_4C_advance_hexes_line_sets_how_far_the_attackers_advance(m41, tmp_path):
    """advance_paths reads `advance_hexes`: as many hexes as the defenders had to retreat (2
    here); with the line giving one more, three."""
    units = g("g1", "0303")
    longest = lambda ctx: max(len(p) for p in advance_paths(ctx, "german", "0304", 2, eliminated=False))
    assert longest(results_ctx(m41, units)) == 2
    eng = edited(tmp_path, "results.rules", "  otherwise retreat_required  by 11.4C\n",
                 "  otherwise retreat_required + 1  by 11.4C\n")
    assert longest(results_ctx(eng, units)) == 3


@pytest.mark.case("11.4B")
def test_11_4B_advance_after_an_elimination_is_one_hex_by_its_line(m41, tmp_path):
    """Defenders eliminated: into the cleared hex only (the 11.4B line); without the line the
    attackers advance as far as the result's hexes."""
    units = g("g1", "0303")
    assert advance_paths(results_ctx(m41, units), "german", "0304", 2, eliminated=True) == [["0304"]]
    eng = edited(tmp_path, "results.rules", "  1  by 11.4B  when defenders_eliminated\n", "")
    paths = advance_paths(results_ctx(eng, units), "german", "0304", 2, eliminated=True)
    assert paths[0] == ["0304"] and ["0304", "0305"] in paths


@pytest.mark.case("11.4D")
def test_11_4D_advance_lines_stop_in_an_ezoc_and_keep_out_of_enemy_hexes(m41, tmp_path):
    """`advance_beyond` stops an advance entering an EZOC, `advance_into` keeps it out of enemy
    hexes: without them an advance goes on through 0305 (EZOC) and into 0306 (enemy)."""
    units = g("g1", "0303") + s("s9", "0306")
    ctx = results_ctx(m41, units)
    FAKE.zoc["german"] = {"0304", "0305", "0205"}
    paths = advance_paths(ctx, "german", "0304", 3, eliminated=False)
    assert not any(len(p) == 3 and p[1] == "0305" for p in paths) and not any("0306" in p for p in paths)
    eng = edited(tmp_path, "results.rules", "forbid advance_beyond   by 11.4D  when in_ezoc\n", "")
    ctx = results_ctx(eng, units)
    FAKE.zoc["german"] = {"0304", "0305", "0205"}
    paths = advance_paths(ctx, "german", "0304", 3, eliminated=False)
    assert ["0304", "0305", "0405"] in paths and not any("0306" in p for p in paths)
    eng = edited(tmp_path / "b", "results.rules", "forbid advance_into     by 11.4D  when enemy_occupied\n", "")
    ctx = results_ctx(eng, units)
    assert ["0304", "0305", "0306"] in advance_paths(ctx, "german", "0304", 3, eliminated=False)


@pytest.mark.case("11.2B")
def test_11_2B_shortfall_losses_line_sets_the_losses_of_a_short_retreat(m41, tmp_path):
    """retreat_options and the typed retreat's check read `retreat_shortfall_losses`: one loss
    per hex short in print; two with the line doubled."""
    units = g("g1", "0303") + s("s1", "0304") + s("s2", "0305")
    around = {"0303", "0305", "0203", "0204", "0403", "0404"}

    def short(engine):
        ctx = results_ctx(engine, units)
        FAKE.zoc["soviet"] = around | {"0306", "0205", "0405"}
        return [(o["path"], o["losses"]) for o in retreat_options(ctx, results.setup(ctx), ["s1"], "0304", "soviet", 2, ["g1"])]
    assert short(m41) == [(["0305"], 1)]
    eng = edited(tmp_path, "results.rules", "  start hexes_short  by 11.2B, 7.5B\n", "  start hexes_short * 2  by 11.2B, 7.5B\n")
    assert short(eng) == [(["0305"], 2)]

    def offered(engine):  # a 2: retreat 2 (1 hex short), 1, or none — and the losses of each
        ctx = results_ctx(engine, units)
        FAKE.zoc["soviet"] = around | {"0306", "0205", "0405"}
        results.apply_outcome(ctx, outcome(ctx, "-/2"), interactive=True)
        return [(a.get("path"), a.get("losses")) for a in results.casebook_legal_actions(ctx, "first_player", "combat")]
    assert offered(m41) == [(("0305",), 1), (None, 2)]
    assert offered(eng) == [(("0305",), 2), (("0305",), 1), (None, 2)]


@pytest.mark.case("7.5B")
def test_7_5B_a_retreat_short_for_ezocs_takes_the_shortfall_lines_losses(m41, tmp_path):
    """7.5B: a unit EZOCs keep from retreating suffers losses instead (11.2): s1 (R2) can enter only
    0305, where s2 negates the EZOC (7.5A), so it retreats one hex and takes one loss — the
    `retreat_shortfall_losses` line, which cites 7.5B; with that line doubled, two losses."""
    units = g("g1", "0303") + s("s1", "0304") + s("s2", "0305")
    ezocs = {"0303", "0305", "0203", "0204", "0403", "0404", "0306", "0205", "0405"}

    def short(engine):
        ctx = results_ctx(engine, units)
        FAKE.zoc["soviet"] = ezocs
        found = retreat_options(ctx, results.setup(ctx), ["s1"], "0304", "soviet", 2, ["g1"])
        return ctx, [(o["path"], o["losses"], o["cases"]) for o in found]
    ctx, options = short(m41)
    assert options == [(["0305"], 1, ["11.2B", "11.2C", "7.5B"])]
    [line] = [ln for ln in ctx.quantity("retreat_shortfall_losses", {"hexes_short": 1}).lines if ln.fired]
    assert line.cases == ("11.2B", "7.5B") and line.source.endswith("results.rules:32")
    eng = edited(tmp_path, "results.rules", "  start hexes_short  by 11.2B, 7.5B\n", "  start hexes_short * 2  by 11.2B, 7.5B\n")
    assert short(eng)[1] == [(["0305"], 2, ["11.2B", "11.2C", "7.5B"])]


@pytest.mark.case("11.2A")
def test_11_2A_choose_retreat_length_line_forces_an_r_result(m41, tmp_path):
    """An R forces the full retreat (the 11.2A line); without it the defender of an R may stay
    and take the hex as a loss, as with a number result."""
    units = g("g1", "0303") + s("s1", "0304")

    def offered(engine):
        ctx = results_ctx(engine, units)
        results.apply_outcome(ctx, outcome(ctx, "-/R"), interactive=True)
        return {(len(a.get("path") or ()), a.get("losses"))
                for a in results.casebook_legal_actions(ctx, "first_player", "combat")}
    assert offered(m41) == {(1, 0)}
    eng = edited(tmp_path, "results.rules", "forbid choose_retreat_length  by 11.2A  when result_retreat\n", "")
    assert offered(eng) == {(1, 0), (0, 1)}


@pytest.mark.case("6.2F")
def test_6_2F_retreat_into_overstack_line_refuses_it_while_a_route_is_open(m41, tmp_path):
    """stacking.retreat_refusals asks `retreat_into_overstack`: with 0302 open, g1 may not retreat
    into the full 0304 (6.2F); without the line it may."""
    text = stacking_position(("d1", G_DIV, "0304"), ("r1", G_REG, "0304"), ("g1", G_DIV, "0303"))
    retreat = Action.make("retreat", "german", unit="g1", path=("0304",))
    refused = stacking.casebook_validate_action(make_ctx(m41, text), retreat)
    assert len(refused) == 1 and refused[0].cases == ("6.2F", "7.5A") and refused[0].reason.endswith("is open")
    eng = edited(tmp_path, "stacking.rules", "forbid retreat_into_overstack  by 6.2F, 7.5A  when other_route_open\n", "")
    assert stacking.casebook_validate_action(make_ctx(eng, text), retreat) == []


@pytest.mark.case("0.7.3.4B")
def test_0_7_3_4B_reacting_units_are_marked_activated_by_their_line(m41, tmp_path):
    """_movement_apply's react asks `leave_reacting_unactivated`: forbidden (0.7.3.4B), the
    reacting stack is marked Activated; without the line it keeps no marker (and still moves in
    Reaction Movement: it is in the reaction list)."""
    from games.moscow41.tests.test_moved_rules import apply, movement_ctx
    from games.moscow41.tests.test_movement import inf
    units = '- {id: s1, side: soviet, class: armor, size: division, strength: 3, ma: 6, hex: "0303"}\n' \
        + inf("g1", "0403")

    def react(engine):
        ctx = movement_ctx(engine, units, step="reaction_movement")
        res = apply(ctx, "soviet: react stack=0303")
        return ctx.state.unit("s1").get("activated"), res["cases"]
    assert react(m41) == (True, ["2.4A", "0.7.3.4B"])
    eng = edited(tmp_path, "movement.rules", "forbid leave_reacting_unactivated  by 0.7.3.4B\n", "")
    assert react(eng) == (None, ["2.4A"])


@pytest.mark.case("11.2C", "11.2D")
def test_11_2C_retreat_rank_lines_order_the_retreats(m41, tmp_path):
    """retreat_options ranks by `retreat_rank`: toward the Soviet supply edge (east) first in
    print; with the supply term's sign turned, away from it (west) first — and the bots take the
    first."""
    units = g("g1", "0303") + g("g2", "0403") + s("s1", "0304")
    def best(engine):
        ctx = results_ctx(engine, units)
        return retreat_options(ctx, results.setup(ctx), ["s1"], "0304", "soviet", 2, ["g1", "g2"])[0]

    east = best(m41)
    assert east["toward_supply"] and not east["ends_adjacent_to_attacker"] and east["path"][-1][:2] > "03"
    eng = edited(tmp_path, "results.rules", "  supply_distance * 100  by 11.2C\n", "  supply_distance * -100  by 11.2C\n")
    west = best(eng)
    assert not west["toward_supply"] and not west["ends_adjacent_to_attacker"] and west["path"][-1][:2] < "03"


@pytest.mark.case("11.4A")
def test_11_4A_advance_from_combat_line_decides_whether_the_attackers_advance(m41, tmp_path):
    """_results_stages queues the advance when `advance_from_combat` allows it (the hex cleared,
    11.4A); with the line forbidding it in a cleared hex, the attackers stay put."""
    units = g("g1", "0303") + s("r1", "0304", "class: remnant, strength: 1, ma: 4")

    def settle(engine):
        ctx = results_ctx(engine, units)
        out = results.apply_outcome(ctx, outcome(ctx, "-/2"), interactive=False)
        return out["cleared"], ctx.state.unit("g1")["hex"]
    assert settle(m41) == (True, "0304")
    eng = edited(tmp_path, "results.rules", "forbid advance_from_combat  by 11.4A  when not hex_cleared\n",
                 "forbid advance_from_combat  by 11.4A  when hex_cleared\n")
    assert settle(eng) == (True, "0303")


@pytest.mark.case("9.4D")
def test_9_4D_mark_reserve_line_lets_only_individually_activated_stacks_take_reserve(m41, tmp_path):
    """_check_move asks `mark_reserve_on_move` for `move … reserve=true`: a stack an HQ activated is
    refused (9.4D: an individually activated stack); without the line it is marked Reserve."""
    from games.moscow41.tests._movement_fixtures import FakeAreas as MoveFakes
    from games.moscow41.tests._movement_fixtures import act, engine_with, position_text
    from games.moscow41.tests.test_movement import inf

    class ByHq(MoveFakes):
        @hookimpl
        def casebook_command(self, ctx, unit):
            return {**super().casebook_command(ctx, unit), "activated_by": "g-hq"}

    units = inf("g1", "0202", extra=", activated: true")
    move = act("german: move stack=0202 path=0201 reserve=true")

    def reserve(engine, fake):
        ctx = make_ctx(engine_with(engine, fake=fake), position_text(units), trace=True)
        bad = ctx.hook.casebook_validate_action(ctx=ctx, action=move)
        refused = [r for rs in bad for r in (rs or ())]
        if refused:
            return refused[0].cases
        with ctx.state.transaction(ctx.trace):
            ctx.hook.casebook_apply_action(ctx=ctx, action=move)
        return ctx.state.unit("g1").get("reserve")
    assert reserve(m41, MoveFakes()) is True  # individually activated (no HQ answers for it)
    assert reserve(m41, ByHq()) == ("9.4D",)
    eng = edited(tmp_path, "movement.rules", "forbid mark_reserve_on_move  by 9.4D  when not individually_activated\n", "")
    assert reserve(eng, ByHq()) is True


@pytest.mark.case("11.3C")
def test_11_3C_no_remnant_free_the_pool_empty_line_eliminates(m41, tmp_path):
    """A Soviet unit with a 1-Loss marker whose next loss would bring a remnant, with every
    remnant counter on the map: the `eliminated by 11.3C … when side is soviet` line of
    `combat_loss` (fact replacement_free false, interpretation remnant-pool-empty) eliminates
    it; with that line giving a loss marker instead, it takes a 2-Loss marker."""
    rems = "".join(s(f"s-rem-{i:02d}", "0808", "class: remnant, strength: 1, ma: 4") for i in range(1, 41))
    units = g("g1", "0303") + s("s1", "0304", losses=1) + rems
    from casebook.areas._results_losses import apply_loss
    assert apply_loss(results_ctx(m41, units), "s1") == {"unit": "s1", "effect": "eliminated", "remnant": None,
                                                         "cases": ["11.3C"]}
    eng = edited(tmp_path, "results.rules", "  eliminated   by 11.3C         when side is soviet\n",
                 "  loss_marker  by 11.3C         when side is soviet\n")
    assert apply_loss(results_ctx(eng, units), "s1") == {"unit": "s1", "effect": "2-loss", "cases": ["11.3C"]}


@pytest.mark.case("11.3A", "11.3B")
def test_11_3B_losses_a_unit_can_take_follow_the_combat_loss_lines(m41, tmp_path):
    """The losses a unit can still take (the default order of who takes a loss, the check of a
    named order) are counted by the `combat_loss` lines, not a number in Python: a German
    division 3, a breakdown regiment 2 (11.3B), a Soviet unit 3 (1-Loss, remnant, 11.3C); with
    the regiment's exception struck from the line, the regiment takes 3 too."""
    from casebook.areas._results_losses import steps_left
    units = g("d1", "0303") + g("r1", "0304", "class: infantry, size: regiment, strength: 2, ma: 4") + s("s1", "0305")
    left = lambda ctx: [steps_left(ctx, ctx.state.unit(u)) for u in ("d1", "r1", "s1")]
    assert left(results_ctx(m41, units)) == [3, 2, 3]
    eng = edited(tmp_path, "results.rules", " and not (unit_class is infantry and unit_size is regiment)", "")
    assert left(results_ctx(eng, units)) == [3, 3, 3]


@pytest.mark.case("11.4A", "11.4C", "11.2A")
def test_11_4A_a_retreat_and_an_advance_cite_the_lines_that_decide_them(m41, tmp_path):
    """A defender retreating from a 2 and the attacker advancing: the retreat effect cites the
    lines of who retreats and how far (`choose_retreat_length`, `retreat_shortfall_losses`'s
    heading: 11.2A, 11.2B), the advance those of whether and how far (`advance_from_combat`,
    `advance_hexes`: 11.4A, 11.4C) — a case a modder adds to a line is cited with it."""
    units = g("g1", "0303") + s("s1", "0304")

    def effects(engine):
        ctx = results_ctx(engine, units)
        out = results.apply_outcome(ctx, outcome(ctx, "-/R"), interactive=False)
        return {e["effect"]: e["cases"] for e in out["effects"] if e["effect"] in ("retreat", "advance")}
    assert effects(m41) == {"retreat": ["11.2A", "11.2B"], "advance": ["11.4A", "11.4C"]}
    eng = edited(tmp_path, "results.rules", "forbid advance_from_combat  by 11.4A  when not hex_cleared\n",
                 "forbid advance_from_combat  by 11.4A, 9.5B  when not hex_cleared\n")
    eng_cases = effects(eng)
    assert eng_cases["advance"] == ["11.4A", "9.5B", "11.4C"] and eng_cases["retreat"] == ["11.2A", "11.2B"]
