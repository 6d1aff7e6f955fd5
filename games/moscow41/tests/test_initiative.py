"""Moscow '41 initiative (0.7.1.3, 0.7.2.1, 0.7.4, 0.7.5, 1.0-1.4): plugin ``initiative``.

Town IPs are the Initiative Chart's (tables/initiative_chart.yaml: Smolensk 3, Kalinin, Kaluga,
Vyazma, Tula 2, each Moscow hex, Rzhev, Mozhaisk, Roslavl 1); the Turn Track bonus of Turn 13
is the Germans' 17 of 1.3B's worked example; Turn 5 gives the Germans 20 and the Soviets 12.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from casebook.areas import initiative
from casebook.areas.initiative import collect_ips, determine_first_player, income, track_bonus
from casebook.core.errors import QuestionError
from casebook.core.sequence import SequenceMachine
from casebook.core.state import GameState
from casebook.core.trace import Trace

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
#: 1.3B's example: 12 IPs of towns held by the Germans on Turn 13 (19 Nov 1941), the historical line:
#: Smolensk 3, Roslavl 1, Vyazma 2, Kaluga 2, Mozhaisk 1, Kalinin 2, Rzhev 1.
GERMAN_12 = ('{"1308": german, "0212": german, "1722": german, "0833": german, "2032": german, '
             '"3733": german, "3023": german}')


def pos(turn=5, ground="dry", ip="{german: 0, soviet: 0}", control="{}", extra="", temperature="warm"):
    return (f"kind: position\nformat: 1\ngame: moscow41\nturn: {turn}\n"
            f"weather: {{temperature: {temperature}, ground: {ground}}}\n"
            f"ip: {ip}\ncontrol: {control}\n{extra}")


UNIT = "{{id: {id}, side: {side}, class: infantry, size: division, strength: 5, ma: 4, hex: \"{hex}\"}}"


@pytest.fixture
def quick(m41):
    """``quick(yaml_text, trace=False) -> Ctx`` like the ``position`` fixture but from plain data
    without the position-file validation (the texts here are known good; a few tests below use
    ``position`` and validate)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    return lambda text, trace=False: m41.ctx(GameState.from_dict(yaml.load(text)), Trace() if trace else None)


def units(*specs):
    return "units:\n" + "".join(f"  - {UNIT.format(id=i, side=s, hex=h)}\n" for i, s, h in specs)


# ---- 0.7.1.3: the first player ---------------------------------------------------------------

@pytest.mark.case("0.7.1.3A")
def test_0_7_1_3A_side_with_most_ips_is_first_player(quick):
    ctx = quick(pos(ip="{german: 10, soviet: 12}"), trace=True)
    initiative.casebook_step_start(ctx, "weather", "initiative_determination")
    assert ctx.state.first_player == "soviet"
    assert determine_first_player(quick(pos(ip="{german: 13, soviet: 12}"))) == "german"
    event = next(e for e in ctx.trace if e.kind == "first-player")
    assert event.data["first_player"] == "soviet" and "0.7.1.3A" in event.cases


@pytest.mark.case("0.7.1.3B")
def test_0_7_1_3B_germans_on_turn_1_and_on_ties(quick):
    assert determine_first_player(quick(pos(turn=1, ip="{german: 0, soviet: 30}"))) == "german"
    assert determine_first_player(quick(pos(turn=7, ip="{german: 12, soviet: 12}"))) == "german"


@pytest.mark.case("1.0D")
def test_1_0D_same_number_of_ips_germans_go_first(quick):
    ctx = quick(pos(turn=9, ip="{german: 40, soviet: 40}"), trace=True)
    assert determine_first_player(ctx) == "german"
    assert "1.0D" in next(e for e in ctx.trace if e.kind == "first-player").cases


# ---- 0.7.2.1, 1.0: collection ---------------------------------------------------------------

@pytest.mark.case("0.7.2.1A", "1.0A")
def test_0_7_2_1A_phasing_player_collects_towns_plus_turn_track(quick):
    text = pos(control=GERMAN_12 + "\n", extra="phase: first_initiative\nstep: ip_collection\n"
               "first_player: soviet\nphasing: soviet\nrng: {seed: 3, state: null}\n")
    ctx = quick(text.replace('"3023": german}', '"3023": german, "0342": soviet}'), trace=True)
    initiative.casebook_step_start(ctx, "first_initiative", "ip_collection")
    roll = next(e for e in ctx.trace if e.kind == "roll").data["total"]
    assert ctx.state.track("ip", "german") == 0                      # only the phasing player collects
    assert ctx.state.track("ip", "soviet") == 2 + 12 + roll          # Tula 2 + Turn 5 bonus 12 + die
    assert income(ctx, "german", 1)["town_ips"] == 12


@pytest.mark.case("0.7.2.1B", "1.0B", "1.0C")
def test_0_7_2_1B_weather_modifies_then_the_die_is_added_unmodified(quick):
    ctx = quick(pos(ground="mud", control=GERMAN_12))
    answer = income(ctx, "german", 5)
    assert (answer["town_ips"], answer["track_bonus"], answer["multiplier"]) == (12, 20, "1/2")
    assert answer["income"] == 16 and answer["total"] == 21  # (12 + 20) x 1/2 + 5; the 5 is not halved
    assert [t["case"] for t in answer["terms"] if t["kind"] == "term"][:4] == ["1.1A", "1.2", "4.3B", "1.0B"]


@pytest.mark.case("0.7.2.1C", "1.0C")
def test_0_7_2_1C_added_to_the_previous_total_on_the_track(quick):
    ctx = quick(pos(control=GERMAN_12, ip="{german: 7, soviet: 3}"))
    answer = collect_ips(ctx, "german", die=2)
    assert answer["total"] == 7 + 12 + 20 + 2
    assert ctx.state.track("ip", "german") == 41 and ctx.state.track("ip", "soviet") == 3


# ---- 1.1: towns ------------------------------------------------------------------------------

@pytest.mark.case("1.1A")
def test_1_1A_only_chart_towns_earn_their_chart_value(quick):
    ctx = quick(pos(control='{"2032": german, "1722": german, "2031": german}'))
    held = initiative.towns_held(ctx, "german")
    assert [(t["town"], t["ip"]) for t in held] == [("Vyazma", 2), ("Mozhaisk", 1)]  # 2031 is no town
    assert income(ctx, "german")["town_ips"] == 3


@pytest.mark.case("1.1B")
def test_1_1B_occupying_or_last_occupying_controls_zoc_irrelevant(position):
    ctx = position(pos(control='{"2032": soviet, "1722": soviet, "2127": german}')
                   + units(("g1", "german", "2032"), ("s1", "soviet", "2033"),   # Mozhaisk, Soviet adjacent
                           ("g2", "german", "1722"), ("s2", "soviet", "1722")), trace=True)
    initiative.casebook_after_action(ctx, None, {})
    assert ctx.state.control("2032") == "german"   # enemy ZOC has no effect
    assert ctx.state.control("1722") == "soviet"   # both sides present: no change
    assert ctx.state.control("2127") == "german"   # empty: the last occupant keeps it
    assert [e.data["hex"] for e in ctx.trace if e.kind == "control"] == ["2032"]
    ctx.state.move_unit("g1", "2031")
    initiative.casebook_after_action(ctx, None, {})
    assert ctx.state.control("2032") == "german"


def test_control_also_set_at_setup(quick):
    ctx = quick(pos() + units(("s1", "soviet", "2032")))
    initiative.casebook_setup(ctx)
    assert ctx.state.control("2032") == "soviet"


@pytest.mark.case("1.1C")
def test_1_1C_each_moscow_hex_controlled_separately(quick):
    ctx = quick(pos(control='{"2242": german, "2342": german, "2343": soviet, "2344": soviet, "2442": soviet}'))
    assert (income(ctx, "german")["town_ips"], income(ctx, "soviet")["town_ips"]) == (2, 3)  # 1 IP a hex


@pytest.mark.case("1.1D")
def test_1_1D_base_ip_marker_records_the_town_ips(quick):
    ctx = quick(pos(control=GERMAN_12))
    collect_ips(ctx, "german", die=4)
    assert ctx.state.plugin_data("initiative") == {"base_ip": {"german": 12}}


# ---- 1.2-1.4 ---------------------------------------------------------------------------------

@pytest.mark.case("1.2")
def test_1_2_turn_track_bonus(quick):
    ctx = quick(pos(turn=13))
    assert track_bonus(ctx, "german") == 17  # 1.3B's example
    assert income(ctx, "german", 1)["track_bonus"] == 17


@pytest.mark.case("1.3A")
def test_1_3A_ground_condition_multiplier_from_the_weather_display(quick):
    for ground in ("dry", "frozen", "mud", "drying", "snow", "deep_snow"):
        ctx = quick(pos(ground=ground))
        for side in ("german", "soviet"):
            cell = ctx.table("weather_display").lookup(ground=ground, side=side)
            assert Fraction(income(ctx, side)["multiplier"]) == Fraction(cell), (ground, side)


@pytest.mark.case("1.3B")
def test_1_3B_worked_example_turn_13_snow(position):
    ctx = position(pos(turn=13, ground="snow", temperature="cold", control=GERMAN_12, ip="{german: 7, soviet: 0}"))
    answer = income(ctx, "german", 5)
    assert answer["income"] == 19          # (12 + 17) x 2/3 = 19.33, rounded down
    assert answer["total"] == 31           # 19 + 5 + 7 (interpretation ip-example-arithmetic)
    mud = position(pos(ground="mud", control='{"2032": soviet}'))
    assert income(mud, "soviet")["income"] == 8  # (1 + 12) x 2/3 = 8.67


def test_multiplier_scope_track_only_leaves_towns_unmodified(quick):
    ctx = quick(pos(turn=13, ground="snow", temperature="cold", control=GERMAN_12,
                       ip="{german: 7, soviet: 0}", extra="settings: {ip_multiplier_scope: track_only}\n"))
    answer = income(ctx, "german", 5)
    assert (answer["income"], answer["total"]) == (11, 11 + 12 + 5 + 7)
    # the town IPs come in through quantity ips_unmodified's line (setting ip_multiplier_scope)
    assert [t["value"] for t in answer["terms"] if t["quantity"] == "ips_unmodified" and t["kind"] == "term"] == [12]


@pytest.mark.case("1.4")
def test_1_4_at_most_99_excess_lost_and_99_all_germans_first(quick):
    ctx = quick(pos(control=GERMAN_12, ip="{german: 90, soviet: 99}"))
    assert collect_ips(ctx, "german", die=6)["total"] == 99
    assert ctx.state.track("ip", "german") == 99
    assert determine_first_player(ctx) == "german"


# ---- 0.7.4, 0.7.5: the second player's phases and the End Phase -------------------------------

@pytest.mark.case("0.7.4")
def test_0_7_4_second_player_collects_in_its_own_initiative_phase(quick, m41):
    ctx = quick(pos(control='{"2032": german, "1942": soviet}', ip="{german: 5, soviet: 9}",
                       extra="phase: weather\nstep: initiative_determination\n"), trace=True)
    machine = SequenceMachine(m41.sequence, ctx.state)
    initiative.casebook_step_start(ctx, "weather", "initiative_determination")
    seen = []
    while ctx.state.phase != "end":
        phase, step = machine.advance()
        if step.id == "ip_collection":
            before = {s: ctx.state.track("ip", s) for s in ("german", "soviet")}
            collect_ips(ctx, die=1)
            gained = [s for s in before if ctx.state.track("ip", s) != before[s]]
            seen.append((phase.id, ctx.state.phasing, gained))
        elif step.id == "command":
            seen.append((phase.id, ctx.state.phasing))
            machine.advance(passed=True)  # skip the Steps 1-5 loop
    assert seen == [("first_initiative", "soviet", ["soviet"]), ("first_player", "soviet"),
                    ("second_initiative", "german", ["german"]), ("second_player", "german")]


@pytest.mark.case("0.7.5")
def test_0_7_5_end_phase_advances_the_turn_marker_once(quick, m41):
    ctx = quick(pos(turn=4, extra="phase: end\nstep: advance_turn\nfirst_player: german\n"), trace=True)
    machine = SequenceMachine(m41.sequence, ctx.state)
    initiative.casebook_step_start(ctx, "end", "advance_turn")
    assert ctx.state.turn == 4  # the plugin records; the sequence machine moves the marker
    assert next(e for e in ctx.trace if e.kind == "end-phase").data == {"turn": 4, "next_turn": 5}
    machine.advance()
    assert (ctx.state.turn, ctx.state.phase, ctx.state.step) == (5, "weather", "temperature")


def test_a_played_turn_rolls_the_weather_of_turn_2_and_collects_for_both(m41):
    from casebook.core.game import Game

    state = Game(m41, "october-blitz").new_initial_state(seed=11)
    events = list(state.trace)
    turn1 = [e.kind for e in events if e.turn == 1 and e.kind in ("weather-fixed", "ip-collection", "first-player")]
    assert turn1[:4] == ["weather-fixed", "weather-fixed", "first-player", "ip-collection"]
    assert all(e.data["multiplier"] == 1 for e in events if e.turn == 1 and e.kind == "ip-collection")
    if any(e.turn == 2 for e in events):
        assert {"temperature", "ground"} <= {e.kind for e in events if e.turn == 2}


# ---- casebook ask … income ------------------------------------------------------------------

def test_ask_income_json_snapshot(m41, snapshot):
    from casebook.content.position import load_position
    from casebook.script.engine import state_from_position

    # what `casebook ask docs/examples/income-turn13.yaml income german --roll 5 --json` prints
    # (cmd_ask.ask_position, with the session's engine instead of loading the pack again)
    ctx = m41.ctx(state_from_position(load_position(EXAMPLES / "income-turn13.yaml", pack=m41.pack)))
    answer = ctx.hook.casebook_answer(ctx=ctx, question="income", args=["german"], options={"roll": 5})
    assert (answer["income"], answer["total"]) == (19, 31)
    assert json.dumps(answer, indent=1, ensure_ascii=False) == snapshot


def test_ask_income_errors(quick):
    ctx = quick(pos())
    with pytest.raises(QuestionError, match="usage: income"):
        initiative.casebook_answer(ctx, "income", [], {})
    with pytest.raises(QuestionError, match="unknown side 'italian'"):
        initiative.casebook_answer(ctx, "income", ["italian"], {})
    with pytest.raises(QuestionError, match=r"--roll 7: the IP dice \(1 × d6, by 0.7.2.1B\) roll 1-6"):
        initiative.casebook_answer(ctx, "income", ["german"], {"roll": 7})
    assert initiative.casebook_answer(ctx, "weather", [], {}) is None


@pytest.mark.case("0.2.2.10")
def test_0_2_2_10_the_initiative_chart_not_the_map_gives_town_ips(m41):
    """0.2.2.10: the IP Table is correct, the values printed beside towns are not — IP collection
    reads the chart (records initiative_chart), whatever the map's town entries say."""
    from casebook.areas.initiative import town_values
    from casebook.script.engine import state_from_position

    ctx = m41.ctx(state_from_position(m41.pack.scenario("october-blitz")))
    chart = {row["hex"]: int(row["ip"]) for row in ctx.records("initiative_chart")}
    values = town_values(ctx)
    assert {h: v["ip"] for h, v in values.items()} == chart
    assert len(values) == len(chart) and all(ip > 0 for ip in chart.values())


@pytest.mark.case("0.7.2.1B")
def test_0_7_2_1B_ask_income_roll_bound_follows_the_ip_dice_quantity(quick, monkeypatch):
    # the bound is the range of quantity ip_dice (initiative.rules), not a literal 1-6: a mod
    # rolling two dice for the IPs takes a --roll of 2-12
    ctx = quick(pos())
    value = ctx.value
    monkeypatch.setattr(ctx, "value", lambda name, facts, *a, **k: 2 if name == "ip_dice" else value(name, facts, *a, **k))
    assert initiative.casebook_answer(ctx, "income", ["german"], {"roll": 12})["roll"] == 12
    with pytest.raises(QuestionError, match=r"--roll 1: the IP dice \(2 × d6, by 0.7.2.1B\) roll 2-12"):
        initiative.casebook_answer(ctx, "income", ["german"], {"roll": 1})


@pytest.mark.case("1.1A")
def test_1_1A_ask_income_labels_the_town_ip_sum_town_ips_not_towns():
    """The Germans hold Roslavl (1 IP) and Smolensk (3) at the Blitz's start: 4 IPs of 2 towns —
    shown as `towns: 4`, a count it is not."""
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    blitz = Path(__file__).resolve().parent.parent / "scenarios" / "october-blitz.yaml"
    out = CliRunner().invoke(cli, ["ask", str(blitz), "income", "german"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[:3] == ["side: german", "town_ips: 4", "held: 2"]
