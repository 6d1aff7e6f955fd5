"""Rules moved from Moscow '41 Python into rule scripts (issue #15, part B): for a sample of the
moved cases, a copy of the pack's scripts with one line edited is compiled into an engine and
play or ``ask`` changes — so the line is what the plugin reads, not a dead copy of a Python
number. The engine shares the installed pack, board and plugins; only the scripts are the copy's.
The fortification cases are in test_moved_rules_fortification.py, the reinforcement and
replacement cases in test_moved_rules_reinforcement.py (both use :func:`edited` and the
:func:`_fort_ctx` and :func:`_entry_ctx` positions of this file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.core.state import GameState
from casebook.core.trace import Trace
from casebook.script.engine import Engine
from tests._pack_edits import rules_edited

ROOT = Path(__file__).resolve().parents[3]


def edited(m41, tmp_path: Path, file: str, old: str, new: str, **extra: object) -> Engine:
    """The Moscow '41 engine with ``games/moscow41/rules/<file>``'s line ``old`` (present once)
    replaced by ``new`` in a copy of the pack's scripts (``extra``: plugins registered last, the
    fakes of ``games/moscow41/tests/_fakes.py``; :func:`tests._pack_edits.rules_edited`)."""
    return rules_edited(m41, tmp_path, file, (old, new), **extra)


def weather_ctx(engine: Engine, turn: int = 2, temperature: str = "cold", ground: str = "dry"):
    state = GameState.from_dict({"game": "moscow41", "turn": turn, "phase": "weather", "step": "ground",
                                 "weather": {"temperature": temperature, "ground": ground}})
    return engine.ctx(state, Trace())


# ---- weather (0.7.1.1B, 0.7.1.2B) ---------------------------------------------------------------

@pytest.mark.case("0.7.1.1B")
def test_0_7_1_1B_the_temperature_is_the_scripts_lookup_of_the_weather_table(m41, tmp_path):
    from casebook.areas.weather import roll_temperature

    # Turn 2: Temp. Mod. -1; a 6 is 5 on the Temperature column: Cold (tables/weather_table.yaml)
    assert roll_temperature(weather_ctx(m41), die=6)["temperature"] == "cold"
    assert roll_temperature(weather_ctx(m41), die=1)["temperature"] == "warm"
    arctic = edited(m41, tmp_path, "weather.rules",
                    'otherwise lookup weather_table(column: "temperature", roll: table_roll)',
                    "otherwise arctic")
    assert roll_temperature(weather_ctx(arctic), die=1)["temperature"] == "arctic"


@pytest.mark.case("0.7.1.2B")
def test_0_7_1_2B_the_matrix_is_cross_indexed_with_the_temperature_by_the_script(m41, tmp_path):
    from casebook.areas.weather import roll_ground

    # Turn 2: Ground Mod. 0 and the warm box's DRM: a 6 is precipitation; warm precipitation is Mud
    assert roll_ground(weather_ctx(m41, temperature="warm"), die=6)["table_ground"] == "mud"
    cold = edited(m41, tmp_path, "weather.rules", "precipitation_box, temperature: temperature)",
                  'precipitation_box, temperature: "cold")')
    assert roll_ground(weather_ctx(cold, temperature="warm"), die=6)["table_ground"] == "snow"


# ---- initiative (0.7.2.1A, 0.7.2.1B, 1.2, 4.1A) --------------------------------------------------

def _ip_ctx(engine: Engine, ground: str = "dry"):
    from tests.conftest import make_ctx

    control = '{"1308": german, "0212": german, "1722": german, "0833": german, "2032": german, "3733": german, "3023": german}'
    return make_ctx(engine, "kind: position\nformat: 1\ngame: moscow41\nturn: 5\n"
                            f"weather: {{temperature: warm, ground: {ground}}}\n"
                            f"ip: {{german: 0, soviet: 0}}\ncontrol: {control}\n", trace=True)


@pytest.mark.case("0.7.2.1A", "1.2")
def test_0_7_2_1A_the_new_ips_are_towns_plus_the_track_bonus_as_the_script_adds_them(m41, tmp_path):
    from casebook.areas.initiative import income

    # Turn 5: the German Turn Track bonus is 20; the seven towns above are 12 IPs (test_initiative)
    assert income(_ip_ctx(m41), "german", 1)["income"] == 32
    no_bonus = edited(m41, tmp_path, "initiative.rules", "  track_bonus  by 1.2, 0.7.2.1A\n", "")
    assert income(_ip_ctx(no_bonus), "german", 1)["income"] == 12


@pytest.mark.case("4.1A", "1.3A")
def test_4_1A_dry_ground_multiplies_by_one_until_the_line_says_otherwise(m41, tmp_path):
    from casebook.areas.initiative import income

    assert income(_ip_ctx(m41), "german", 1)["multiplier"] == 1
    halved = edited(m41, tmp_path, "initiative.rules", "× 1  by 4.1A, 1.3A  when ground is dry",
                    "× ½  by 4.1A, 1.3A  when ground is dry")
    answer = income(_ip_ctx(halved), "german", 1)
    assert (answer["multiplier"], answer["income"]) == ("1/2", 16)


@pytest.mark.case("0.7.2.1B")
def test_0_7_2_1B_the_collection_rolls_the_scripts_dice(m41, tmp_path):
    from casebook.areas.initiative import collect_ips

    def dice(engine):
        ctx = _ip_ctx(engine)
        collect_ips(ctx, "german")
        return [e.data["dice"] for e in ctx.trace if e.kind == "roll"]

    assert dice(m41) == [1]
    assert dice(edited(m41, tmp_path, "initiative.rules", "otherwise 1d6  by 0.7.2.1B, 1.0C",
                       "otherwise 2d6  by 0.7.2.1B, 1.0C")) == [2]


# ---- the position of this file's tests and of test_moved_rules_fortification.py -----------------------

FORT_MAP = """
map:
  layout: flat-top-even-q
  size: {columns: 10, rows: 10}
  terrain: {default: clear}
  hexsides:
    - {hexes: ["0304", "0305"], fortification: {protects: "0305"}}
"""


def _fort_ctx(engine: Engine, extra: str, turn: int = 5, phase: str = "first_player", step: str = "movement",
              phasing: str = "german", fp: str = "{normal: 0, moscow: 0}"):
    from tests.conftest import make_ctx

    return make_ctx(engine, f"kind: position\nformat: 1\ngame: moscow41\n{FORT_MAP}\nturn: {turn}\n"
                            f"phase: {phase}\nstep: {step}\nphasing: {phasing}\nfp: {fp}\n{extra}", trace=True)


# ---- stacking (6.2A, 6.2C, 6.2E) -----------------------------------------------------------------

OVERSTACK = "units:\n  - {counter: g-6id, hex: '0303'}\n  - {counter: g-26id, hex: '0303'}\n"  # 3 + 3 > 4 (6.0A)


@pytest.mark.case("6.2E", "6.2A")
def test_6_2E_the_automatic_fatigue_comes_at_the_end_of_the_step_the_script_names(m41, tmp_path):
    from casebook.areas.stacking import casebook_step_end

    def fatigued(engine, step):
        ctx = _fort_ctx(engine, OVERSTACK, step=step)
        casebook_step_end(ctx, "first_player", step)
        return sorted(u["id"] for u in ctx.state.units if u.get("fatigued"))

    assert fatigued(m41, "movement") == ["g-26id", "g-6id"]
    assert fatigued(m41, "command") == []          # checked (6.2A), no fatigue (6.2E)
    assert fatigued(m41, "combat") == []
    house = edited(m41, tmp_path, "stacking.rules", 'forbid overstack_fatigue  by 6.2E  when ending_step is not "movement"',
                   'forbid overstack_fatigue  by 6.2E  when ending_step is "combat"')
    assert fatigued(house, "command") == ["g-26id", "g-6id"]


@pytest.mark.case("6.2C")
def test_6_2C_a_move_may_end_overstacked_to_overrun_by_the_permit_line(m41, tmp_path):
    from casebook.areas.stacking import end_hex_refusals
    from casebook.core.actions import Action

    units = "units:\n  - {counter: g-6id, hex: '0303'}\n  - {counter: g-26id, hex: '0304', activated: true}\n"
    move = Action.make("move", "german", stack="0304", path=["0303"], overrun="0302")
    assert end_hex_refusals(_fort_ctx(m41, units), move) == []
    strict = edited(m41, tmp_path, "stacking.rules", "permit end_move_overstacked  by 6.2C over 6.2B  when overrun", "")
    # the forbid's cases, then those of the limit's and the points' lines that decided (6.0A: the German limit and
    # division points; the `first`'s otherwise, 6.0B, decided nothing here and is not cited — cases follow lines)
    assert [r.cases for r in end_hex_refusals(_fort_ctx(strict, units), move)] == [("6.2B", "6.2A", "6.0A")]


@pytest.mark.case("6.2D")
def test_6_2D_the_attack_limit_is_the_attack_from_overstack_line(m41, tmp_path):
    from casebook.areas.stacking import attack_refusals
    from casebook.core.actions import Action

    units = "units:\n  - {counter: g-6id, hex: '0303'}\n  - {counter: g-26id, hex: '0303'}\n"
    attack = Action.make("attack", "german", hex="0304", **{"with": ("g-6id", "g-26id")})
    (refused,) = attack_refusals(_fort_ctx(m41, units), attack)
    assert refused.cases == ("6.2D",) and "6 points against a limit of 4" in refused.reason
    free = edited(m41, tmp_path, "stacking.rules", "forbid attack_from_overstack  by 6.2D  when hex_overstacked", "")
    assert attack_refusals(_fort_ctx(free, units), attack) == []


@pytest.mark.case("6.2E", "11.1D")
def test_6_2E_what_the_overstack_fatigue_does_is_the_overstack_fatigue_effect_line(m41, tmp_path):
    from casebook.areas.stacking import overstack_check

    units = "units:\n  - {counter: g-6id, hex: '0303', fatigued: true}\n  - {counter: g-26id, hex: '0303'}\n"
    ctx = _fort_ctx(m41, units)
    overstack_check(ctx, "movement")
    kinds = {e.data["unit"]: (e.kind, e.cases) for e in ctx.trace if e.kind.startswith("fatigue")}
    assert kinds == {"g-6id": ("fatigue-loss", ("6.2E", "11.1D")), "g-26id": ("fatigue", ("6.2E", "11.1C"))}
    mild = edited(m41, tmp_path, "stacking.rules", "  loss               by 6.2E, 11.1D  when fatigued", "")
    ctx = _fort_ctx(mild, units)
    overstack_check(ctx, "movement")
    assert [e.kind for e in ctx.trace if e.kind.startswith("fatigue")] == ["fatigue", "fatigue"]


@pytest.mark.case("6.2F", "6.2A")
def test_6_2F_an_overstack_is_recorded_for_correction_by_the_remain_overstacked_line(m41, tmp_path):
    from casebook.areas.stacking import overstack_check

    ctx = _fort_ctx(m41, OVERSTACK, step="command")
    assert [a["hex"] for a in overstack_check(ctx, "command")] == ["0303"]
    assert [(e.kind, e.cases) for e in ctx.trace] == [("overstacked", ("6.2A", "6.2F"))]
    lax = edited(m41, tmp_path, "stacking.rules", "forbid remain_overstacked  by 6.2F", "")
    ctx = _fort_ctx(lax, OVERSTACK, step="command")
    assert [a["hex"] for a in overstack_check(ctx, "command")] == ["0303"] and list(ctx.trace) == []


# ---- paratroops (15.3A, 15.4A) -------------------------------------------------------------------

def _dropped(engine: Engine):
    """A Soviet paratroop dropped on Turn 27 (seed 1 scatters it), as in test_paratroops."""
    from casebook.games.moscow41.plugins import paratroops
    from games.moscow41.tests.test_paratroops import drop, pos
    from tests.conftest import make_ctx

    ctx = make_ctx(engine, pos(seed=1), trace=True)
    paratroops.casebook_apply_action(ctx, drop(hex_="0505"))
    assert ctx.state.unit("s-201ab").get("scattered") is True
    return ctx


@pytest.mark.case("15.3A")
def test_15_3A_the_scatter_lasts_the_scripts_turns(m41, tmp_path):
    from games.moscow41.tests.test_paratroops import lift_scatter

    def next_soviet_turn(engine):
        ctx = _dropped(engine)
        ctx.state.set_turn(28)
        ctx.state.set_sequence_position("second_initiative", "ip_collection", "soviet")
        lift_scatter(ctx)
        return ctx.state.unit("s-201ab").get("scattered")

    assert next_soviet_turn(m41) is None
    longer = edited(m41, tmp_path, "paratroops.rules", "  otherwise 1  by 15.3A\n", "  otherwise 2  by 15.3A\n")
    assert next_soviet_turn(longer) is True


@pytest.mark.case("15.4A")
def test_15_4A_the_airdrop_supplies_for_the_scripts_turns(m41, tmp_path):
    from casebook.areas.airdrop import drop_supply as area_drop_supply
    from casebook.games.moscow41.plugins.paratroops import drop_config

    def drop_supply(c, unit):
        return area_drop_supply(c, drop_config(c), unit)

    def supplied_next_turn(engine):
        ctx = _dropped(engine)
        assert drop_supply(ctx, "s-201ab")["cases"] == ["15.4A"]
        ctx.state.set_turn(28)
        return drop_supply(ctx, "s-201ab") is not None

    assert supplied_next_turn(m41) is False
    longer = edited(m41, tmp_path, "paratroops.rules", "  otherwise 1  by 15.4A, 15.4B", "  otherwise 2  by 15.4A, 15.4B")
    assert supplied_next_turn(longer) is True


# ---- partisans (16.3B, 16.3C) --------------------------------------------------------------------

@pytest.mark.case("16.3C", "16.3B")
def test_16_3C_which_markers_go_is_the_scripts_keep_partisan(m41, tmp_path):
    from casebook.core.actions import Action
    from casebook.games.moscow41.plugins import partisans

    def half_ends(engine, phasing, phase):
        ctx = _fort_ctx(engine, 'markers: [{kind: partisan, hex: "0909"}]', step="recovery", phasing=phasing)
        partisans.casebook_step_end(ctx, phase, "recovery")
        return partisans.markers(ctx)

    assert half_ends(m41, "german", "first_player") == []
    assert half_ends(m41, "soviet", "second_player") == ["0909"]
    both = edited(m41, tmp_path, "partisans.rules", "when side is german and half_turn_ended", "when half_turn_ended")
    assert half_ends(both, "soviet", "second_player") == []

    entered = _fort_ctx(m41, 'units:\n  - {counter: g-6id, hex: "0909"}\nmarkers: [{kind: partisan, hex: "0909"}]')
    assert partisans.remove_markers_entered(entered, Action.make("move", "german", stack="0908", path=["0909"])) == ["0909"]
    stays = edited(m41, tmp_path / "b", "partisans.rules",
                   "when unit enters hex where side is german", "when unit enters hex where side is soviet")
    entered = _fort_ctx(stays, 'units:\n  - {counter: g-6id, hex: "0909"}\nmarkers: [{kind: partisan, hex: "0909"}]')
    assert partisans.remove_markers_entered(entered, Action.make("move", "german", stack="0908", path=["0909"])) == []


# ---- victory (17.3C) -----------------------------------------------------------------------------

@pytest.mark.case("17.3C")
def test_17_3C_what_counts_as_a_loss_is_the_scripts_count_as_loss(m41, tmp_path):
    from casebook.games.moscow41.plugins._victory_points import losses
    from games.moscow41.tests.test_victory import pos
    from tests.conftest import make_ctx

    body = "removed:\n  - {unit: s-22a, reason: eliminated, turn: 3}\n  - {unit: s-29a, reason: withdrawn, turn: 3}\n"
    assert losses(make_ctx(m41, pos(body, control="{}")))["army_hqs"] == ["s-22a"]
    house = edited(m41, tmp_path, "victory.rules", 'when removal_reason is not "eliminated" or back_in_play',
                   "when back_in_play")
    assert losses(make_ctx(house, pos(body, control="{}")))["army_hqs"] == ["s-22a", "s-29a"]


# ---- the position of test_moved_rules_reinforcement.py's entry and withdrawal tests (12.1B-12.4C) ------

def _entry_ctx(engine: Engine, extra: str, turn: int = 10, phasing: str = "soviet"):
    from tests.conftest import m41_inline, make_ctx

    return make_ctx(engine, m41_inline(
        None, map_extra='  towns: {"0505": {name: Railgrad, kind: city, ip: 2}, "0603": {name: Depot, kind: town, ip: 1}}\n'
        '  railheads: ["0505", "0603"]\n  entry_areas: {A: ["0401", "0501"], B: ["0101", "0102"]}\n', turn=turn,
        weather=None, phase="first_initiative", step="replacement_reinforcement", phasing=phasing,
        ip="{german: 10, soviet: 10}", extra=f'control: {{"0505": soviet, "0603": soviet}}\n{extra}'), trace=True)
