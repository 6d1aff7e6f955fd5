"""Moscow '41 partisans (16.0-16.3) on a 12 x 12 inline map.

The German unit g1 stands in 0101; hex 0106 is 5 hexes from it, 0107 6 hexes. Supply is a fake
(games/moscow41/tests/_fakes_vp.py): units listed in ``FAKE.unsupplied`` are out of supply.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as hst

from casebook.core.actions import Action
from casebook.core.grid import Grid
from casebook.core.hexgrid import Hex, Layout, parse_hex
from casebook.core.hexgrid import hex_label as _label
from casebook.games.moscow41.plugins import partisans
from casebook.script import compile_pack, declared, find_rule_pack
from casebook.script.standard import StandardFacts
from games.moscow41.tests._fakes_vp import FAKE, fake_engine
from tests.conftest import m41_inline, make_ctx

INF = "class: infantry, size: division, strength: 6, ma: 4"
REM = "side: soviet, class: remnant, strength: 1, ma: 4"


def pos(units: str = "", points: int = 2, markers: str = "[]", step: str = "replacement_reinforcement",
        phasing: str = "soviet") -> str:
    half = "second" if phasing == "soviet" else "first"
    phase = f"{half}_initiative" if step == "replacement_reinforcement" else f"{half}_player"
    return m41_inline(f'  - {{id: g1, side: german, {INF}, hex: "0101"}}\n{units}', size="{columns: 12, rows: 12}", turn=6,
                      weather="{temperature: cold, ground: frozen}", phase=phase, step=step, phasing=phasing,
                      first_player="german", ip=None, extra=f"partisans: {points}\nmarkers: {markers}")


@pytest.fixture
def ctx():
    FAKE.reset()
    return lambda text: make_ctx(fake_engine(), text, trace=True)


def place(hex_: str, side: str = "soviet") -> Action:
    return Action.make("place-partisan", side, hex=hex_)


def refused(c, action) -> list[str]:
    """The cases refusing ``action``: every validator's (place-partisan is a declared action of
    partisans.rules, refused by the declared_actions plugin)."""
    return sorted({case for rs in c.hook.casebook_validate_action(ctx=c, action=action) for r in rs or ()
                   for case in r.cases})


def remnants(*hexes: str) -> str:
    return "\n".join(f'  - {{id: s-rem-{i + 1:02d}, {REM}, hex: "{h}"}}' for i, h in enumerate(hexes))


@pytest.mark.case("16.0")
def test_16_0_partisans_are_soviet(ctx):
    c = ctx(pos())
    assert refused(c, place("0909", side="german")) == ["16.0", "16.1A"]
    assert refused(c, place("0909")) == []


@pytest.mark.case("16.1A", "16.1B")
def test_16_1B_three_remnants_removed_make_one_point_fractions_lost(ctx):
    c = ctx(pos(remnants("0505", "0606", "0707", "0808", "0909"), points=0, step="recovery"))
    offered = partisans.casebook_legal_actions(c, "second_player", "recovery")
    assert [a.get("unit") for a in offered] == ["s-rem-01", "s-rem-02", "s-rem-03", "s-rem-04", "s-rem-05"]
    FAKE.unsupplied.add("s-rem-05")                    # an OOS remnant is removed anyway (16.1B)
    for uid in ("s-rem-01", "s-rem-02", "s-rem-03", "s-rem-04"):
        partisans.casebook_apply_action(c, Action.make("disband-remnant", "soviet", unit=uid))
    partisans.casebook_step_end(c, "second_player", "recovery")
    assert not c.state.has_unit("s-rem-05")
    assert c.state.track("partisans") == 1                      # 5 removed: 1 point, 2/3 lost
    assert c.state.plugin_data("partisans") is None    # the fraction does not carry over
    c2 = ctx(pos(remnants("0505", "0606", "0707"), points=0, step="recovery"))
    for uid in ("s-rem-01", "s-rem-02", "s-rem-03"):
        partisans.casebook_apply_action(c2, Action.make("disband-remnant", "soviet", unit=uid))
    partisans.casebook_step_end(c2, "second_player", "recovery")
    assert c2.state.track("partisans") == 1


@pytest.mark.case("16.1A")
def test_16_1A_only_soviet_remnants_are_disbanded_in_the_recovery_step(ctx):
    c = ctx(pos(remnants("0505") + '\n  - {id: s9, side: soviet, ' + INF + ', hex: "0606"}', step="recovery"))
    assert refused(c, Action.make("disband-remnant", "soviet", unit="s9")) == ["16.1A", "16.1B"]
    assert refused(c, Action.make("disband-remnant", "soviet", unit="s-rem-01")) == []


@pytest.mark.case("16.1C")
def test_16_1C_one_marker_per_point_spent(ctx):
    c = ctx(pos(points=1))
    out = declared.casebook_apply_action(c, place("0909"))
    assert (out["cost"], c.state.track("partisans")) == (1, 0)
    assert partisans.markers(c) == ["0909"]
    assert refused(c, place("0808")) == ["16.1C"]
    assert refused(ctx(pos(step="movement")), place("0909")) == ["16.1C", "16.2"]


@pytest.mark.case("16.1D")
def test_16_1D_never_more_than_five_markers_and_points_are_kept(ctx):
    five = "[" + ", ".join(f'{{kind: partisan, hex: "{h}"}}' for h in ("0808", "0809", "0810", "0908", "0909")) + "]"
    assert refused(ctx(pos(points=3, markers=five)), place("1010")) == ["16.1D"]
    four = five.replace(', {kind: partisan, hex: "0909"}', "")
    assert refused(ctx(pos(points=3, markers=four)), place("1010")) == []
    c = ctx(pos(points=3, step="recovery"))            # no remnant removed: the track keeps 3
    partisans.casebook_step_end(c, "second_player", "recovery")
    assert c.state.track("partisans") == 3


@pytest.mark.case("16.2")
def test_16_2_not_within_five_hexes_of_an_enemy_unit(ctx):
    c = ctx(pos())
    assert c.board.grid.distance(parse_hex("0101"), parse_hex("0106")) == 5
    assert refused(c, place("0106")) == ["16.2"]
    assert refused(c, place("0107")) == []
    offered = {a.get("hex") for a in declared.casebook_legal_actions(c, "second_initiative",
                                                                      "replacement_reinforcement")}
    assert "0107" in offered and "0106" not in offered and "0303" not in offered


@pytest.mark.case("16.3A")
def test_16_3A_a_marker_is_a_soviet_zoc_in_its_hex(ctx):
    c = ctx(pos(markers='[{kind: partisan, hex: "0909"}]'))
    from casebook.areas import zoc as zoc_area
    assert zoc_area.casebook_zoc_sources(c, "german") == [{"hex": "0909", "id": "partisan@0909", "cases": ["16.3A"]}]
    assert zoc_area.casebook_zoc_sources(c, "soviet") == []
    zoc = c.hook.casebook_zoc(ctx=c, hex="0909", side="german")
    assert zoc["exerted_by"] == ["partisan@0909"] and "16.3A" in zoc["cases"]
    assert c.hook.casebook_zoc(ctx=c, hex="0808", side="german")["exerted_by"] == []


@pytest.mark.case("16.3B")
def test_16_3B_removed_when_a_german_unit_enters_during_movement(ctx):
    c = ctx(pos(markers='[{kind: partisan, hex: "0303"}, {kind: partisan, hex: "0909"}]'))
    partisans.casebook_after_action(c, Action.make("move", "soviet", stack="0202", path=("0303",)), {})
    assert partisans.markers(c) == ["0303", "0909"]
    c.state.move_unit("g1", "0404")                    # g1 went 0202, 0303, 0404
    partisans.casebook_after_action(c, Action.make("move", "german", stack="0101",
                                                   path=("0202", "0303", "0404")), {})
    assert partisans.markers(c) == ["0909"]


@pytest.mark.case("16.3C")
def test_16_3C_removed_at_the_end_of_the_german_half_of_the_turn(ctx):
    c = ctx(pos(markers='[{kind: partisan, hex: "0909"}]', step="recovery", phasing="german"))
    partisans.casebook_step_end(c, "first_player", "recovery")
    assert partisans.markers(c) == []
    c = ctx(pos(markers='[{kind: partisan, hex: "0909"}]', step="recovery"))
    partisans.casebook_step_end(c, "second_player", "recovery")        # the Soviet half: kept
    assert partisans.markers(c) == ["0909"]


@pytest.mark.case("16.3D")
def test_16_3D_a_removed_marker_must_be_bought_again(ctx):
    c = ctx(pos(points=0, markers='[{kind: partisan, hex: "0909"}]', step="recovery", phasing="german"))
    partisans.casebook_step_end(c, "first_player", "recovery")
    assert (partisans.markers(c), c.state.track("partisans")) == ([], 0)         # nothing comes back
    c.state.set_sequence_position("second_initiative", "replacement_reinforcement", "soviet")
    assert refused(c, place("0909")) == ["16.1C"]


class _DistanceCtx:
    """Just what ``enemy_distance`` reads: the grid, the units, and the rule scripts' quantity
    ``partisan_enemy_distance`` (``distance to nearest(map_units having enemy from hex)``)."""

    def __init__(self, layout, enemy):
        self.board = type("B", (), {"grid": Grid(layout, 30, 30)})()
        self.state = type("S", (), {"units": [{"side": "german", "hex": h} for h in enemy],
                                    "version": 1, "phasing": None})()
        self.std = StandardFacts(self.state, {}, self.board)

    def value(self, name, facts):
        return _RULES.value(name, facts, {}, self.std)


_RULES = compile_pack(find_rule_pack("moscow41"))


@pytest.mark.case("16.2")
@hsettings(max_examples=60, deadline=None)
@given(hst.sampled_from(list(Layout)),
       hst.lists(hst.tuples(hst.integers(1, 30), hst.integers(1, 30)), max_size=25),
       hst.lists(hst.tuples(hst.integers(1, 30), hst.integers(1, 30)), min_size=1, max_size=10))
def test_16_2_enemy_distance_is_the_nearest_enemy_units_distance(layout, enemy, queries):
    """The partisan placement distance (16.2) — the script term ``distance to nearest(map_units
    having enemy from hex)``, found by a search that stops early along the axis a step changes by
    one — equals the plain minimum over every enemy unit, on every layout."""
    ctx = _DistanceCtx(layout, [_label(Hex(c, r)) for c, r in enemy])
    grid = ctx.board.grid
    for c, r in queries:
        want = min((grid.distance(Hex(c, r), Hex(a, b)) for a, b in enemy), default=partisans.FAR)
        assert partisans.enemy_distance(ctx, _label(Hex(c, r))) == want
