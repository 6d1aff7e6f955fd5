"""Rules moved from Moscow '41 Python into rule scripts (issue #15, part B): for a sample of the
moved cases, a copy of the pack's scripts with one line edited is compiled into an engine and
play or ``ask`` changes — so the line is what the plugin reads, not a dead copy of a Python
number. The engine shares the installed pack, board and plugins; only the scripts are the copy's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.core.state import GameState
from casebook.core.trace import Trace
from casebook.script import compile_pack, find_rule_pack
from casebook.script.engine import Engine

ROOT = Path(__file__).resolve().parents[3]


def edited(m41, tmp_path: Path, file: str, old: str, new: str, **extra: object) -> Engine:
    """The Moscow '41 engine with ``games/moscow41/rules/<file>``'s line ``old`` (present once)
    replaced by ``new`` in a copy of the pack's scripts (``extra``: plugins registered last, the
    fakes of ``games/moscow41/tests/_fakes.py``)."""
    pack = tmp_path / "moscow41"
    shutil.copytree(ROOT / "games" / "moscow41", pack, ignore=shutil.ignore_patterns("golden"))
    script = pack / "rules" / file
    text = script.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{file}: {old!r} not found once"
    script.write_text(text.replace(old, new), encoding="utf-8")
    rules = compile_pack(find_rule_pack(pack))
    pm = m41.pm
    if extra:
        from casebook.content.plugins import make_plugin_manager

        pm = make_plugin_manager(m41.pack.manifest.get("plugins") or [], extra=extra)
    return Engine(m41.pack, m41.board, rules, pm, m41.sequence)


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


# ---- replacements and rebuilding (12.2G, 12.3B, 12.4D) ------------------------------------------

def _ctx(engine: Engine, text: str):
    from tests.conftest import make_ctx

    return make_ctx(engine, "kind: position\nformat: 1\ngame: moscow41\nturn: 5\n"
                            "weather: {temperature: warm, ground: dry}\n"
                            "phase: first_initiative\nstep: replacement_reinforcement\nphasing: soviet\n" + text)


@pytest.mark.case("12.2G")
def test_12_2G_an_rp_keeps_the_fatigue_until_the_script_line_goes(m41, tmp_path):
    from casebook.areas.replacements import apply_assign
    from casebook.core.actions import Action
    from casebook.games.moscow41.plugins.reinforcement import replacements

    unit = ("units:\n  - {counter: s-133rd, hex: '0309', losses: 1, fatigued: true}\n"
            "rp: {soviet: {infantry: 1, armor: 0}, german: {infantry: 0, armor: 0}}\n")
    assign = Action.make("assign-rp", "soviet", unit="s-133rd", rp="infantry")
    ctx = _ctx(m41, unit)
    apply_assign(ctx, replacements(ctx), assign)
    assert ctx.state.unit("s-133rd").get("fatigued") is True and not ctx.state.unit("s-133rd").get("losses")
    house = edited(m41, tmp_path, "reinforcement.rules", "forbid replacement_removes_fatigue  by 12.2G", "")
    ctx = _ctx(house, unit)
    apply_assign(ctx, replacements(ctx), assign)
    assert not ctx.state.unit("s-133rd").get("fatigued")


@pytest.mark.case("12.4D")
def test_12_4D_an_asterisked_division_is_rebuilt_once_the_script_line_goes(m41, tmp_path):
    from casebook.areas.replacements import rebuildable
    from casebook.games.moscow41.plugins.reinforcement import replacements

    marked = {**m41.pack.counters["s-133rd"], "withdraw": 22}
    ctx = _ctx(m41, "")
    assert rebuildable(ctx, replacements(ctx), marked, "soviet") is False
    house = edited(m41, tmp_path, "reinforcement.rules", "forbid rebuild_as  by 12.4D  when withdraw_marked", "")
    ctx = _ctx(house, "")
    assert rebuildable(ctx, replacements(ctx), marked, "soviet") is True


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


# ---- fortification (14.1H, 14.1F, 14.2B, 14.3A, 14.4B) -------------------------------------------

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


@pytest.mark.case("14.2B")
def test_14_2B_one_line_decides_a_marker_for_the_ask_answer_and_for_combat(m41, tmp_path):
    """14.2B is stated once: `permit marker_fortifies ... when marker_kind is fortification`. A
    Fortification marker in 0505 (no printed work) protects it from 0504 and 0506 alike, in the
    `ask fortification` answer and in combat; with the line deleted, in neither."""
    units = ("units:\n  - {counter: g-6id, hex: '0504'}\n  - {counter: g-26id, hex: '0506'}\n"
             "  - {counter: s-133rd, hex: '0505'}\nmarkers:\n  - {kind: fortification, hex: '0505'}")
    both = ["g-6id", "g-26id"]
    assert _asked_and_played(_fort_ctx(m41, units), "0505", both) == (
        {"g-6id": True, "g-26id": True}, [True, True], True)
    bare = edited(m41, tmp_path, "fortification.rules",
                  "permit marker_fortifies  by 14.2B  when marker_kind is fortification", "")
    assert _asked_and_played(_fort_ctx(bare, units), "0505", both) == (
        {"g-6id": False, "g-26id": False}, [False, False], False)


@pytest.mark.case("14.2A")
def test_14_2A_one_line_decides_the_printed_facing_for_the_ask_answer_and_for_combat(m41, tmp_path):
    """14.2A is stated once: `forbid printed_fortifies by 14.2A when not across_printed_hexside`.
    The printed fortification of 0305 faces 0304 (FORT_MAP): it protects against g-6id attacking
    from 0304, not g-26id from 0306, in the answer and in combat; with the line deleted (a
    modder's all-round printed works) against both, in both."""
    units = ("units:\n  - {counter: g-6id, hex: '0304'}\n  - {counter: g-26id, hex: '0306'}\n"
             "  - {counter: s-133rd, hex: '0305'}")
    both = ["g-6id", "g-26id"]
    assert _asked_and_played(_fort_ctx(m41, units), "0305", both) == (
        {"g-6id": True, "g-26id": False}, [True, False], True)
    round_ = edited(m41, tmp_path, "fortification.rules",
                    "forbid printed_fortifies  by 14.2A  when not across_printed_hexside", "")
    assert _asked_and_played(_fort_ctx(round_, units), "0305", both) == (
        {"g-6id": True, "g-26id": True}, [True, True], True)


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
    assert [r.cases for r in end_hex_refusals(_fort_ctx(strict, units), move)] == [("6.2B", "6.2A")]


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


# ---- reinforcement entry and withdrawal (12.1B, 12.1D, 12.4C) ------------------------------------

def _entry_ctx(engine: Engine, extra: str, turn: int = 10, phasing: str = "soviet"):
    from tests.conftest import make_ctx

    return make_ctx(engine, f"""
kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {{columns: 8, rows: 8}}
  terrain: {{default: clear}}
  towns: {{"0505": {{name: Railgrad, kind: city, ip: 2}}, "0603": {{name: Depot, kind: town, ip: 1}}}}
  railheads: ["0505", "0603"]
  entry_areas: {{A: ["0401", "0501"], B: ["0101", "0102"]}}
turn: {turn}
phase: first_initiative
step: replacement_reinforcement
phasing: {phasing}
first_player: {phasing}
ip: {{german: 10, soviet: 10}}
control: {{"0505": soviet, "0603": soviet}}
{extra}
""", trace=True)


@pytest.mark.case("12.1B")
def test_12_1B_a_blocked_reinforcement_waits_the_scripts_turns(m41, tmp_path):
    from casebook.games.moscow41.plugins import reinforcement as R
    from games.moscow41.tests._fakes import FakeAreas

    blockers = "units:\n  - {counter: s-133rd, hex: '0401'}\n  - {counter: s-174rd, hex: '0501'}"

    def pending(engine):
        ctx = _entry_ctx(engine, blockers, turn=4, phasing="german")
        R.casebook_step_start(ctx, "first_initiative", "replacement_reinforcement")
        return [dict(p) for p in ctx.state.pending if p["unit"] == "g-31id"]

    fake = FakeAreas()
    plain = edited(m41, tmp_path / "a", "reinforcement.rules", "# 12.1F: a", "# 12.1F: a", fake=fake)
    assert pending(plain) == [{"unit": "g-31id", "turn": 5, "area": "A"}]
    two = edited(m41, tmp_path / "b", "reinforcement.rules", "  otherwise 1  by 12.1B\n", "  otherwise 2  by 12.1B\n",
                 fake=fake)
    assert pending(two) == [{"unit": "g-31id", "turn": 6, "area": "A"}]


@pytest.mark.case("12.1D")
def test_12_1D_entry_into_an_enemy_hex_is_the_scripts_forbid_line(m41, tmp_path):
    from casebook.areas.reinforcement import placeable

    text = "units:\n  - {counter: g-102id, hex: '0603'}\n"
    assert placeable(_entry_ctx(m41, text), "0603", "soviet", railhead=False) is False
    assert placeable(_entry_ctx(m41, text), "0505", "soviet", railhead=False) is True
    house = edited(m41, tmp_path, "reinforcement.rules",
                   "forbid place_reinforcement  by 12.1D         when enemy_occupied", "")
    assert placeable(_entry_ctx(house, text), "0603", "soviet", railhead=False) is True


@pytest.mark.case("12.4C")
def test_12_4C_a_withdrawal_costs_the_scripts_ips(m41, tmp_path):
    from casebook.areas.reinforcement import withdraw_due
    from games.moscow41.tests._fakes import FakeAreas

    row = {"unit": "s-133rd", "type": "rifle division", "strength": 6, "side": "soviet", "turn": 10}
    unit = "units:\n  - {counter: s-133rd, hex: '0303'}\n"

    def ips_after(engine):
        ctx = _entry_ctx(engine, unit + f"plugin_state: {{reinforcement: {{owed: [{_flow(row)}]}}}}")
        done = withdraw_due(ctx, "soviet")
        assert [d["unit"] for d in done] == ["s-133rd"]
        return ctx.state.track("ip", "soviet")

    fake = FakeAreas()
    assert ips_after(edited(m41, tmp_path / "a", "reinforcement.rules", "# 12.1F: a", "# 12.1F: a", fake=fake)) == 10
    costly = edited(m41, tmp_path / "b", "reinforcement.rules", "  otherwise 0  by 12.4C", "  otherwise 1  by 12.4C",
                    fake=fake)
    assert ips_after(costly) == 9


def _flow(row: dict) -> str:
    return "{" + ", ".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {v}" for k, v in row.items()) + "}"


@pytest.mark.case("12.4A")
def test_12_4A_which_units_may_substitute_is_the_scripts(m41, tmp_path):
    from casebook.areas.reinforcement import withdrawal_candidates
    from games.moscow41.tests._fakes import FakeAreas

    units = ("units:\n  - {id: s-weak, side: soviet, class: infantry, size: division, strength: 5, "
             "type: rifle division, hex: '0303'}\n")
    row = {"unit": "s-absent", "type": "rifle division", "strength": 6, "side": "soviet"}
    fake = FakeAreas()
    plain = edited(m41, tmp_path / "a", "reinforcement.rules", "# 12.1F: a", "# 12.1F: a", fake=fake)
    assert withdrawal_candidates(_entry_ctx(plain, units), row) == []        # 5 < 6: no substitute
    weaker = edited(m41, tmp_path / "b", "reinforcement.rules", "when not same_type or strength_difference < 0",
                    "when not same_type or strength_difference < -1", fake=fake)
    assert withdrawal_candidates(_entry_ctx(weaker, units), row) == ["s-weak"]


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
