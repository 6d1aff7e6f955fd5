"""Fortification rules moved from Moscow '41 Python into rule scripts (issue #15, part B; split
from games/moscow41/tests/test_moved_rules_b.py): 14.1-14.4 — the FPs of a turn, the build
candidates, what protects a hex in the `ask` answer and in combat, what destroys a work, the
hedgehog and scatter lines. A copy of the pack's scripts with one line edited is compiled into an
engine and play or ``ask`` changes."""

from __future__ import annotations

import pytest

from games.moscow41.tests.test_moved_rules_b import _fort_ctx, edited


# ---- fortification (14.1D, 14.1H, 14.1F, 14.2A-B, 14.3A-B, 14.4B, 14.4D2) ------------------------------
@pytest.mark.case("14.1H", "14.1F")
def test_14_1H_the_fps_of_a_turn_and_what_is_saved_are_script_lines(m41, tmp_path):
    from casebook.games.moscow41.plugins._fortification_build import collect_fps, expire_moscow_fps

    def turn5(engine):
        ctx = _fort_ctx(engine, "", phase="first_initiative", step="replacement_reinforcement",
                        phasing="soviet", fp="{normal: 1, moscow: 1}")
        got = collect_fps(ctx)
        return got, expire_moscow_fps(ctx)

    assert turn5(m41) == ({"normal": 4, "moscow": 2}, 2)   # 1 saved + 3; Moscow FPs not saved, then lost
    more = edited(m41, tmp_path, "fortification.rules", "  3 by 14.1H  when fp_kind is normal",
                  "  5 by 14.1H  when fp_kind is normal")
    assert turn5(more)[0]["normal"] == 6
    saved = edited(m41, tmp_path / "b", "fortification.rules",
                   "forbid save_fp  by 14.1F, 14.1G  when fp_kind is moscow", "")
    assert turn5(saved) == ({"normal": 4, "moscow": 3}, 0)


def _asked_and_played(ctx, hex_: str, attackers: list[str]) -> tuple[dict, list[bool], bool]:
    """What `ask fortification HEX --with ATTACKERS` answers (``across_fortification`` per
    attacker), what the combat area gathers for the same attack (each attacker's
    ``across_fortification``), and its ``defender_fortified``."""
    from casebook.areas._combat_odds import gather
    from casebook.games.moscow41.plugins.fortification import fortification_answer

    asked = fortification_answer(ctx, hex_, attackers)["attack"]["across_fortification"]
    facts = gather(ctx, attackers, hex_).drm_facts
    return asked, [a["across_fortification"] for a in facts["attackers"]], facts["defender_fortified"]


def _with_and_without(m41, tmp_path, units: str, hex_: str, line: str) -> tuple[tuple, tuple]:
    """:func:`_asked_and_played` for g-6id and g-26id attacking ``hex_`` on the shipped scripts,
    then with ``line`` deleted from fortification.rules."""
    bare = edited(m41, tmp_path, "fortification.rules", line, "")
    return tuple(_asked_and_played(_fort_ctx(e, units), hex_, ["g-6id", "g-26id"]) for e in (m41, bare))


@pytest.mark.case("14.2B")
def test_14_2B_one_line_decides_a_marker_for_the_ask_answer_and_for_combat(m41, tmp_path):
    """14.2B is stated once: `permit marker_fortifies ... when marker_kind is fortification`. A
    Fortification marker in 0505 (no printed work) protects it from 0504 and 0506 alike, in the
    `ask fortification` answer and in combat; with the line deleted, in neither."""
    units = ("units:\n  - {counter: g-6id, hex: '0504'}\n  - {counter: g-26id, hex: '0506'}\n"
             "  - {counter: s-133rd, hex: '0505'}\nmarkers:\n  - {kind: fortification, hex: '0505'}")
    assert _with_and_without(m41, tmp_path, units, "0505",
                             "permit marker_fortifies  by 14.2B  when marker_kind is fortification") == (
        ({"g-6id": True, "g-26id": True}, [True, True], True), ({"g-6id": False, "g-26id": False}, [False, False], False))


@pytest.mark.case("14.2A")
def test_14_2A_one_line_decides_the_printed_facing_for_the_ask_answer_and_for_combat(m41, tmp_path):
    """14.2A is stated once: `forbid printed_fortifies by 14.2A when not across_printed_hexside`.
    The printed fortification of 0305 faces 0304 (FORT_MAP): it protects against g-6id attacking
    from 0304, not g-26id from 0306, in the answer and in combat; with the line deleted (a
    modder's all-round printed works) against both, in both."""
    units = ("units:\n  - {counter: g-6id, hex: '0304'}\n  - {counter: g-26id, hex: '0306'}\n"
             "  - {counter: s-133rd, hex: '0305'}")
    assert _with_and_without(m41, tmp_path, units, "0305",
                             "forbid printed_fortifies  by 14.2A  when not across_printed_hexside") == (
        ({"g-6id": True, "g-26id": False}, [True, False], True), ({"g-6id": True, "g-26id": True}, [True, True], True))


def _across(ctx, hex_: str, attackers: list[str]) -> list[bool]:
    """``across_fortification`` of each attacker as the shared combat area gathers it."""
    from casebook.areas._combat_odds import gather

    return [a["across_fortification"] for a in gather(ctx, attackers, hex_).drm_facts["attackers"]]


@pytest.mark.case("14.2B")
def test_14_2B_the_combat_area_reads_a_marker_as_fortifying_by_the_marker_fortifies_line(m41, tmp_path):
    """The combat area names no marker: a Fortification marker protects 0505 from 0504 and 0506
    (14.2B) by the line `permit marker_fortifies ... when marker_kind is fortification`; without
    it, neither attacker attacks across a fortification."""
    units = ("units:\n  - {counter: g-6id, hex: '0504'}\n  - {counter: g-26id, hex: '0506'}\n"
             "  - {counter: s-133rd, hex: '0505'}\nmarkers:\n  - {kind: fortification, hex: '0505'}")
    assert _across(_fort_ctx(m41, units), "0505", ["g-6id", "g-26id"]) == [True, True]
    bare = edited(m41, tmp_path, "fortification.rules",
                  "permit marker_fortifies  by 14.2B  when marker_kind is fortification", "")
    assert _across(_fort_ctx(bare, units), "0505", ["g-6id", "g-26id"]) == [False, False]


@pytest.mark.case("14.2A", "14.3B")
def test_14_3B_a_destroyed_marker_ends_the_printed_fortification_in_combat_by_its_line(m41, tmp_path):
    """The printed fortification of 0305 faces 0304 only (14.2A); a Fortification Destroyed marker
    there ends it (14.3B) by the line `forbid printed_fortification_stands`; without the line the
    printed fortification still protects."""
    units = ("units:\n  - {counter: g-6id, hex: '0304'}\n  - {counter: g-26id, hex: '0306'}\n"
             "  - {counter: s-133rd, hex: '0305'}")
    destroyed = units + "\nmarkers:\n  - {kind: fort-destroyed, hex: '0305'}"
    assert _across(_fort_ctx(m41, units), "0305", ["g-6id", "g-26id"]) == [True, False]
    assert _across(_fort_ctx(m41, destroyed), "0305", ["g-6id", "g-26id"]) == [False, False]
    standing = edited(m41, tmp_path, "fortification.rules",
                      'forbid printed_fortification_stands  by 14.3B  when marker_kind is "fort-destroyed"', "")
    assert _across(_fort_ctx(standing, destroyed), "0305", ["g-6id", "g-26id"]) == [True, False]


@pytest.mark.case("14.3A")
def test_14_3A_which_entries_destroy_a_fortification_is_the_scripts(m41, tmp_path):
    from casebook.core.actions import Action
    from casebook.games.moscow41.plugins._fortification_effects import destroy_entered

    units = "units:\n  - {counter: g-6id, hex: '0505'}\nmarkers:\n  - {kind: fortification, hex: '0505'}"
    move = Action.make("move", "german", stack="0504", path=["0505"])
    assert destroy_entered(_fort_ctx(m41, units), move) == [{"hex": "0505", "kind": "marker"}]
    only_advances = edited(m41, tmp_path, "fortification.rules",
                           "when fort_destroyed_by is advance and not advance_after_combat",
                           "when not advance_after_combat")
    assert destroy_entered(_fort_ctx(only_advances, units), move) == []


@pytest.mark.case("14.4B")
def test_14_4B_a_stack_out_of_hedgehog_may_force_march_by_the_permit_line(m41, tmp_path):
    from casebook.core.actions import Action
    from casebook.games.moscow41.plugins._fortification_effects import movement_refusals

    units = "units:\n  - {counter: g-6id, hex: '0303', activated: true}\n"
    march = Action.make("force-march", "german", units=["g-6id"])

    def refusals(engine):
        ctx = _fort_ctx(engine, units)
        ctx.state.set_plugin_data("fortification", {"unhedged": {"g-6id": f"{ctx.state.turn}:{ctx.state.phase}"}})
        return [r.cases for r in movement_refusals(ctx, march)]

    assert refusals(m41) == []
    strict = edited(m41, tmp_path, "fortification.rules",
                    "permit move_after_hedgehog  by 14.4B over 14.4A  when forced_march", "")
    assert refusals(strict) == [("14.4A",)]


@pytest.mark.case("14.4D2")
def test_14_4D2_the_scatter_fatigue_is_the_scripts_forbid_line(m41, tmp_path):
    from casebook.games.moscow41.plugins._fortification_effects import scatter_fatigue

    units = "units:\n  - {counter: s-201ab, hex: '0505', scattered: true}\n"
    assert scatter_fatigue(_fort_ctx(m41, units, phasing="soviet")) == ["s-201ab"]
    house = edited(m41, tmp_path, "fortification.rules", "forbid scattered_unfatigued  by 14.4D2", "")
    assert scatter_fatigue(_fort_ctx(house, units, phasing="soviet")) == []


@pytest.mark.case("14.1D")
def test_14_1D_the_hexes_offered_without_a_unit_are_the_build_fort_lines(m41, tmp_path):
    """Where a fortification may stand with no Soviet combat unit (towns, cities, within two
    hexes of Moscow, 14.1D) is the `build_fort` line's, not a number in Python: the line widened
    to three hexes, the printed candidates gain exactly the hexes three from Moscow off towns."""
    from casebook.areas import worksites as ws
    from casebook.core.game import Game
    from casebook.games.moscow41.plugins._fortification_build import sites

    state = Game(m41, "october-blitz").new_initial_state(seed=1)
    two = ws.printed_candidates(state.ctx(), sites(state.ctx()))
    wide = edited(m41, tmp_path, "fortification.rules", "moscow_distance <= 2) and not combat_unit_present",
                  "moscow_distance <= 3) and not combat_unit_present")
    ctx = wide.ctx(state.data.clone())
    three = ws.printed_candidates(ctx, sites(ctx))
    added = three - two
    assert two < three and len(added) >= 6
    assert {ws.board_facts(ctx, sites(ctx), h)["moscow_distance"] for h in added} == {3}
