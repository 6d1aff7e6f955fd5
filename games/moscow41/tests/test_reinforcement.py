"""Reinforcements, replacements, rebuilding and withdrawals (12.0-12.4, 0.7.2.2)."""

from __future__ import annotations

import pytest

from casebook.core.actions import Action
from casebook.core.dice import roll
from casebook.core.state import GameState
from casebook.games.moscow41.plugins import reinforcement as R
from games.moscow41.tests._fakes import FakeAreas, engine_with
from tests.conftest import m41_inline, make_ctx

FAKE = FakeAreas()
STEP = "replacement_reinforcement"


@pytest.fixture(scope="module")
def engine(m41):
    return engine_with(m41, fake=FAKE)


@pytest.fixture
def pos(engine):
    FAKE.reset()

    def build(extra: str = "", turn: int = 10, phasing: str = "soviet", rp: str = "") -> object:
        rp = rp or "{german: {infantry: 0, armor: 0}, soviet: {infantry: 0, armor: 0}}"
        text = m41_inline(None, map_extra='  towns: {"0505": {name: Railgrad, kind: city, ip: 2}, "0603": {name: Depot, '
                          'kind: town, ip: 1}, "0707": {name: Lost, kind: town, ip: 1}}\n  railheads: ["0505", "0603", "0707"]\n'
                          '  entry_areas: {A: ["0401", "0501"], B: ["0101", "0102"]}\n', turn=turn, weather=None,
                          phase="first_initiative", step=STEP, phasing=phasing, ip="{german: 10, soviet: 10}",
                          extra=f'rp: {rp}\ncontrol: {{"0505": soviet, "0603": soviet, "0707": german}}\n{extra}')
        return make_ctx(engine, text, trace=True)

    return build


def start(ctx):
    R.casebook_step_start(ctx, "first_initiative", STEP)


def refused(ctx, text_action):
    return {c for r in R.casebook_validate_action(ctx, text_action) for c in r.cases}


def act(side, kind, **args):
    return Action.make(kind, side, **args)


# ---------------------------------------------------------------- 0.7.2.2, 12.0
@pytest.mark.case("0.7.2.2A")
def test_0_7_2_2A_phasing_player_assigns_rps_in_step_2(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 1}", rp="{soviet: {infantry: 1, armor: 0}}")
    start(ctx)
    legal = R.casebook_legal_actions(ctx, "first_initiative", STEP)
    assert act("soviet", "assign-rp", unit="s-133rd", rp="infantry") in legal
    assert R.casebook_decider(ctx, "first_initiative", STEP) == "soviet"
    assert R.casebook_decider(ctx, "first_player", "command") is None


@pytest.mark.case("0.7.2.2B")
def test_0_7_2_2B_reinforcements_placed_next_then_no_more_rps(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 2}\n"
              "pending:\n  - {unit: s-174rd, turn: 10}", rp="{soviet: {infantry: 3, armor: 0}}")
    start(ctx)
    place = act("soviet", "place-reinforcement", unit="s-174rd", hex="0505")
    assert place in R.casebook_legal_actions(ctx, "first_initiative", STEP)
    R.casebook_apply_action(ctx, place)
    assert ctx.state.unit("s-174rd")["hex"] == "0505"
    assert refused(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="infantry")) == {"0.7.2.2A", "0.7.2.2B"}


@pytest.mark.case("12.0A", "12.0E")
def test_12_0A_12_0E_both_sides_receive_in_step_2_only(pos):
    ctx = pos(phasing="german", turn=10)
    R.casebook_step_start(ctx, "first_player", "command")   # not step 2: nothing happens (12.0E)
    assert ctx.state.track("rp", "german", "infantry") == 0
    start(ctx)                                             # Turn 10: German 1 infantry, 0 armor
    assert (ctx.state.track("rp", "german", "infantry"), ctx.state.track("rp", "german", "armor")) == (1, 0)
    ctx.state.set_sequence_position("second_initiative", STEP, "soviet")
    R.casebook_step_start(ctx, "second_initiative", STEP)  # Turn 10: Soviet 2 infantry, 1 armor
    assert (ctx.state.track("rp", "soviet", "infantry"), ctx.state.track("rp", "soviet", "armor")) == (2, 1)


@pytest.mark.case("12.0B")
def test_12_0B_reinforcements_enter_by_the_schedule(pos):
    ctx = pos(turn=4, phasing="german")  # schedule: Turn 4 German g-31id, g-131id, XXXXIII in area A
    start(ctx)
    units = {e["unit"]: e.get("areas") for e in ctx.state.plugin_data("reinforcement")["available"]}
    assert units == {"g-xxxxiii": ["A"], "g-31id": ["A"], "g-131id": ["A"]}


@pytest.mark.case("12.0C", "12.2E")
def test_12_0C_12_2E_one_rp_removes_one_loss_marker(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 2}", rp="{soviet: {infantry: 2, armor: 0}}")
    start(ctx)  # +2 infantry RPs on Turn 10
    R.casebook_apply_action(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="infantry"))
    assert ctx.state.unit("s-133rd")["losses"] == 1
    assert ctx.state.track("rp", "soviet", "infantry") == 3


@pytest.mark.case("12.0D", "12.4A", "12.4C")
def test_12_0D_12_4A_withdrawal_by_type_and_strength(pos):
    units = ("units:\n  - {counter: g-102id, hex: '0303'}\n  - {counter: g-137id, hex: '0304'}\n"
             "  - {id: g-big, side: german, class: infantry, size: division, strength: 12, type: infantry division, hex: '0305'}")
    # counters.yaml, session 9: infantry divisions 10 (102, 28 ID), the worn 137 ID 8
    ctx = pos(units, turn=17, phasing="german")  # g-28id (infantry division, 10) is due but absent
    start(ctx)
    assert not ctx.state.has_unit("g-102id")       # same type and strength 10 goes instead
    assert ctx.state.removed[-1]["reason"] == "withdrawn"
    assert ctx.state.track("ip", "german") == 10            # 12.4C: no IP cost
    ctx2 = pos(units.replace("g-102id", "g-137id").replace("  - {counter: g-137id, hex: '0304'}\n", ""),
               turn=17, phasing="german")
    start(ctx2)                                    # none of strength 10: the greater one (12) goes, not 137 ID (8)
    assert not ctx2.state.has_unit("g-big") and ctx2.state.has_unit("g-137id")


@pytest.mark.case("12.4B")
def test_12_4B_withdrawn_unit_must_be_in_supply(pos):
    ctx = pos("units:\n  - {counter: g-28id, hex: '0303'}\n  - {counter: g-102id, hex: '0304'}",
              turn=17, phasing="german")
    FAKE.unsupplied.add("g-28id")
    start(ctx)
    assert ctx.state.has_unit("g-28id") and not ctx.state.has_unit("g-102id")


# ---------------------------------------------------------------- 12.1 entry
@pytest.mark.case("12.1A")
def test_12_1A_entry_area_hexes_of_the_players_choice(pos):
    ctx = pos(turn=4, phasing="german")
    start(ctx)
    hexes = {a.get("hex") for a in R.casebook_legal_actions(ctx, "first_initiative", STEP)
             if a.kind == "place-reinforcement" and a.get("unit") == "g-31id"}
    assert hexes == {"0401", "0501"}
    assert refused(ctx, act("german", "place-reinforcement", unit="g-31id", hex="0101")) == {"12.1A"}


@pytest.mark.case("12.1B")
def test_12_1B_blocked_area_delays_one_turn_then_adjacent_area_closer_to_own_edge(pos):
    blockers = "units:\n  - {counter: s-133rd, hex: '0401'}\n  - {counter: s-174rd, hex: '0501'}"
    ctx = pos(blockers, turn=4, phasing="german")
    start(ctx)
    assert ctx.state.plugin_data("reinforcement")["available"] == []
    assert {"unit": "g-31id", "turn": 5, "area": "A"} in [dict(p) for p in ctx.state.pending]
    ctx.state.set_turn(5)
    start(ctx)  # still blocked: area B (west edge, closer to the German edge) may be used now
    found = [e for e in ctx.state.plugin_data("reinforcement")["available"] if e["unit"] == "g-31id"]
    assert found == [{"unit": "g-31id", "area": "A", "areas": ["B"]}]


@pytest.mark.case("12.1C")
def test_12_1C_no_area_any_friendly_railhead_that_traces_supply(pos):
    ctx = pos("pending:\n  - {unit: s-174rd, turn: 10}")
    FAKE.unsupplied.add("0603")
    start(ctx)
    hexes = {a.get("hex") for a in R.casebook_legal_actions(ctx, "first_initiative", STEP)
             if a.kind == "place-reinforcement"}
    assert hexes == {"0505"}   # 0603 cannot trace supply, 0707 is German
    assert refused(ctx, act("soviet", "place-reinforcement", unit="s-174rd", hex="0707")) == {"12.1C"}


@pytest.mark.case("12.1D")
def test_12_1D_not_into_enemy_occupied_but_ezoc_allowed(pos):
    ctx = pos("units:\n  - {counter: g-102id, hex: '0603'}\npending:\n  - {unit: s-174rd, turn: 10}")
    FAKE.zoc["soviet"].add("0505")
    start(ctx)
    assert refused(ctx, act("soviet", "place-reinforcement", unit="s-174rd", hex="0603")) == {"12.1D"}
    assert refused(ctx, act("soviet", "place-reinforcement", unit="s-174rd", hex="0505")) == set()


@pytest.mark.case("12.1E")
def test_12_1E_voluntary_delay(pos):
    ctx = pos("pending:\n  - {unit: s-174rd, turn: 10}")
    start(ctx)
    assert act("soviet", "pass") in R.casebook_legal_actions(ctx, "first_initiative", STEP)
    R.casebook_step_end(ctx, "first_initiative", STEP)
    assert {"unit": "s-174rd", "turn": 11} in [dict(p) for p in ctx.state.pending]


@pytest.mark.case("12.1F")
def test_12_1F_in_command_on_arrival_but_no_free_move(pos):
    ctx = pos("pending:\n  - {unit: s-174rd, turn: 10}")
    start(ctx)
    R.casebook_apply_action(ctx, act("soviet", "place-reinforcement", unit="s-174rd", hex="0505"))
    assert not ctx.state.unit("s-174rd").get("activated")
    assert R.casebook_facts(ctx, "s-174rd") == {"reinforcement_in_command": {"value": True, "cases": ["12.1F"]}}
    # the command area's answer, read by every rule asking for command (support, reaction, RPs)
    FAKE.out_of_command.add("s-174rd")
    answer = ctx.hook.casebook_command(ctx=ctx, unit="s-174rd")
    assert answer["in_command"] is True and answer["cases"][-1] == "12.1F"
    ctx.state.set_turn(11)
    assert R.casebook_facts(ctx, "s-174rd")["reinforcement_in_command"]["value"] is False
    assert ctx.hook.casebook_command(ctx=ctx, unit="s-174rd")["in_command"] is False
    FAKE.out_of_command.clear()


# ---------------------------------------------------------------- 12.2 RPs
@pytest.mark.case("12.2A")
def test_12_2A_infantry_rps_to_infantry_armor_rps_to_armor_or_mechanized(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 1}\n"
              "  - {id: s-tk, side: soviet, class: mechanized, size: division, strength: 4, hex: '0304', losses: 1}",
              rp="{soviet: {infantry: 1, armor: 1}}")
    assert refused(ctx, act("soviet", "assign-rp", unit="s-tk", rp="infantry")) == {"12.2A"}
    assert refused(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="armor")) == {"12.2A"}
    assert refused(ctx, act("soviet", "assign-rp", unit="s-tk", rp="armor")) == set()


@pytest.mark.case("12.2B")
def test_12_2B_no_rps_for_cavalry_or_ski(pos):
    ctx = pos("units:\n  - {counter: s-45cd, hex: '0303', losses: 1}", rp="{soviet: {infantry: 1, armor: 1}}")
    assert refused(ctx, act("soviet", "assign-rp", unit="s-45cd", rp="infantry")) == {"12.2A", "12.2B"}


@pytest.mark.case("12.2C")
def test_12_2C_rps_saved_up_to_the_track_limit(pos):
    ctx = pos(rp="{soviet: {infantry: 3, armor: 0}}")
    start(ctx)                                    # Turn 10: +2 infantry, +1 armor
    assert (ctx.state.track("rp", "soviet", "infantry"), ctx.state.track("rp", "soviet", "armor")) == (5, 1)
    limit = ctx.value("rp_limit", {})
    ctx2 = pos(rp=f"{{soviet: {{infantry: {limit - 1}, armor: 0}}}}")
    start(ctx2)
    assert ctx2.state.track("rp", "soviet", "infantry") == limit


@pytest.mark.case("12.2D")
def test_12_2D_unit_must_be_in_supply_and_in_command(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 1}", rp="{soviet: {infantry: 1, armor: 0}}")
    FAKE.unsupplied.add("s-133rd")
    assert refused(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="infantry")) == {"12.2D"}
    FAKE.reset()
    FAKE.out_of_command.add("s-133rd")
    ctx.changed()
    assert refused(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="infantry")) == {"12.2D"}


@pytest.mark.case("12.2F")
def test_12_2F_restored_to_full_strength_and_no_further(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 1}", rp="{soviet: {infantry: 2, armor: 0}}")
    R.casebook_apply_action(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="infantry"))
    assert ctx.state.unit("s-133rd").get("losses", 0) == 0
    assert refused(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="infantry")) == {"12.2E", "12.2F", "12.0C"}


@pytest.mark.case("12.2G")
def test_12_2G_replacements_do_not_remove_fatigue(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 1, fatigued: true}",
              rp="{soviet: {infantry: 1, armor: 0}}")
    R.casebook_apply_action(ctx, act("soviet", "assign-rp", unit="s-133rd", rp="infantry"))
    assert ctx.state.unit("s-133rd")["fatigued"] is True


@pytest.mark.case("12.2H")
def test_12_2H_remnant_used_as_rp_when_stacked(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0303', losses: 2}\n  - {counter: s-rem-01, hex: '0303'}\n"
              "  - {counter: s-rem-02, hex: '0404', losses: 1}", rp="{soviet: {infantry: 1, armor: 0}}")
    assert refused(ctx, act("soviet", "assign-rp", unit="s-rem-02", rp="infantry")) >= {"12.2H"}
    assert refused(ctx, act("soviet", "assign-rp", unit="s-133rd", **{"from": "s-rem-02"})) == {"12.2H"}
    R.casebook_apply_action(ctx, act("soviet", "assign-rp", unit="s-133rd", **{"from": "s-rem-01"}))
    assert ctx.state.unit("s-133rd")["losses"] == 1
    assert not ctx.state.has_unit("s-rem-01")
    assert ctx.state.track("rp", "soviet", "infantry") == 1   # no RP spent


# ---------------------------------------------------------------- 12.3 rebuilding
REBUILD = ("units:\n  - {counter: s-rem-01, hex: '0303'}\n"
           "removed:\n  - {unit: s-133rd, reason: eliminated, turn: 8}\n  - {unit: s-5grd, reason: eliminated, turn: 8}")


@pytest.mark.case("12.3A")
def test_12_3A_remnant_in_supply_in_command_not_in_ezoc(pos):
    ctx = pos(REBUILD, rp="{soviet: {infantry: 3, armor: 0}}")
    rebuild = act("soviet", "rebuild", unit="s-rem-01", into="s-133rd")
    assert refused(ctx, rebuild) == set()
    FAKE.zoc["soviet"].add("0303")
    ctx.changed()
    assert refused(ctx, rebuild) == {"12.3A"}
    FAKE.reset()
    FAKE.unsupplied.add("s-rem-01")
    ctx.changed()
    assert refused(ctx, rebuild) == {"12.3A"}


def _seed_rolling(ctx, total):
    """A seed whose first two-dice roll is ``total`` (found by rolling on copies of the state)."""
    class Sink:
        def record(self, *a, **k):
            return None
    for seed in range(1000):
        trial = ctx.state.clone()
        trial._d["rng"] = {"seed": seed, "state": None}
        if roll(trial, 2, purpose="probe", cases=["12.3B"], trace=Sink()) == total:
            return seed
    raise AssertionError("no seed found")


@pytest.mark.case("12.3B")
def test_12_3B_six_rolled_on_turn_10_returns_on_turn_16(pos):
    ctx = pos(REBUILD, turn=10, rp="{soviet: {infantry: 3, armor: 0}}")
    ctx.state._d["rng"] = {"seed": _seed_rolling(ctx, 6), "state": None}
    assert "s-5grd" not in R.reinforcements_answer(ctx, "soviet")["rebuild"]   # a 7: not a normal RD
    result = R.casebook_apply_action(ctx, act("soviet", "rebuild", unit="s-rem-01", into="s-133rd"))
    assert result["roll"] == 6 and result["turn"] == 16
    assert {"unit": "s-133rd", "turn": 16} in [dict(p) for p in ctx.state.pending]
    assert ctx.state.track("rp", "soviet", "infantry") == 0 and not ctx.state.has_unit("s-rem-01")


@pytest.mark.case("12.3C")
def test_12_3C_rebuilt_unit_enters_at_a_friendly_railhead(pos):
    ctx = pos("pending:\n  - {unit: s-133rd, turn: 16}", turn=16)
    start(ctx)
    hexes = {a.get("hex") for a in R.casebook_legal_actions(ctx, "first_initiative", STEP)
             if a.kind == "place-reinforcement" and a.get("unit") == "s-133rd"}
    assert hexes == {"0505", "0603"}


@pytest.mark.case("12.4D")
def test_12_4D_units_to_be_withdrawn_are_not_rebuilt(m41):
    from casebook.areas.replacements import rebuildable
    from casebook.games.moscow41.plugins.reinforcement import replacements

    ctx = m41.ctx(GameState.from_dict({"game": "moscow41", "turn": 5}))
    rd = dict(m41.pack.counters["s-133rd"])
    assert rebuildable(ctx, replacements(ctx), rd, "soviet") is True
    assert rebuildable(ctx, replacements(ctx), {**rd, "withdraw": 22}, "soviet") is False   # marked with an asterisk
    assert rebuildable(ctx, replacements(ctx), {**rd, "strength": 7}, "soviet") is False    # 12.3B: a 6-strength division
    assert rebuildable(ctx, replacements(ctx), {**rd, "guards": True}, "soviet") is False   # 12.3B: Guards are not normal


def test_ask_reinforcements_snapshot(m41, repo_root, snapshot):
    from casebook.content.position import load_position
    from casebook.script.engine import state_from_position

    ctx = m41.ctx(state_from_position(load_position(repo_root / "docs/examples/reinforcements-turn10.yaml",
                                                    pack=m41.pack)))
    assert R.reinforcements_answer(ctx, "soviet") == snapshot


@pytest.mark.case("12.1A")
def test_12_1A_a_unit_already_on_the_map_is_not_placed_again(pos):
    """A division back on the map before its scheduled return (rebuilt from its remnant) is not
    offered for placement a second time (found in a greedy Campaign: it crashed the game)."""
    ctx = pos("units:\n  - {counter: s-174rd, hex: '0505'}\npending:\n  - {unit: s-174rd, turn: 10}")
    start(ctx)
    offered = {a.get("unit") for a in R.casebook_legal_actions(ctx, "first_initiative", STEP)
               if a.kind == "place-reinforcement"}
    assert offered and "s-174rd" not in offered        # the turn's other reinforcements still come
    (ev,) = [e for e in ctx.trace if e.kind == "reinforcement-already-on-map"]
    assert ev.data["units"] == ["s-174rd"] and ev.cases == ("12.1A",)
