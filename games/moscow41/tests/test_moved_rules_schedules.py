"""Rules moved from Moscow '41 Python into rule scripts (issue #15, helper "cases-a": the IP
chart, the Base IP marker, the weather markers, the reinforcement and withdrawal schedules and
the entry areas). Each test edits the line on a copy of the pack's scripts and checks that play
changes and that the answer names the line's ``file:line`` (pattern:
games/moscow41/tests/test_moved_rules_b.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.areas import initiative, weather
from casebook.core.actions import Action
from casebook.games.moscow41.plugins import reinforcement as R
from games.moscow41.tests._fakes import engine_with
from games.moscow41.tests.test_moved_rules_b import edited, weather_ctx
from games.moscow41.tests.test_reinforcement import FAKE, STEP
from tests.conftest import m41_inline, make_ctx

RULES = Path(__file__).resolve().parents[3] / "games" / "moscow41" / "rules"


def line_of(file: str, text: str) -> str:
    """``file:N`` of the one line of ``games/moscow41/rules/<file>`` that contains ``text``."""
    found = [n for n, ln in enumerate((RULES / file).read_text(encoding="utf-8").splitlines(), 1) if text in ln]
    assert len(found) == 1, (file, text, found)
    return f"{file}:{found[0]}"


def sources(event) -> list[str]:
    """The ``file:line`` of each line an event names, relative to the rules folder (an edited
    copy of the pack names its lines by their full path)."""
    return [ln["source"].rsplit("/", 1)[-1] for ln in event.data.get("lines", [])]


# ---- 1.1A, 1.1C, 0.2.2.10: the Initiative Chart's row of each hex --------------------------------
CHART = "  table initiative_chart[hex: hex].ip  by 0.2.2.10, 1.1C  when not position_map"


def _moscow_position(control: str) -> str:
    """The pack's own map (no inline map: the Initiative Chart is read), Turn 2, dry ground."""
    return f"""
kind: position
format: 1
game: moscow41
turn: 2
phase: first_initiative
step: ip_collection
phasing: german
first_player: german
weather: {{temperature: warm, ground: dry}}
ip: {{german: 0, soviet: 0}}
control: {control}
"""


@pytest.mark.case("1.1C", "0.2.2.10", "1.1A")
def test_1_1C_0_2_2_10_each_moscow_hex_is_its_own_row_of_the_chart(m41, tmp_path):
    """1.1C: each hex of Moscow is controlled separately — the Germans holding two of its five
    hexes earn 2 IPs (1 a hex, tables/initiative_chart.yaml) and the Soviets the other 3; the
    values are the chart's (0.2.2.10), read by the `town_ip` line. Edited to count each hex twice
    (a house rule), the same control earns 4 and 6; the collection's event names the line."""
    control = '{"2242": german, "2342": german, "2343": soviet, "2344": soviet, "2442": soviet}'
    ctx = make_ctx(m41, _moscow_position(control))
    assert [initiative.income(ctx, s)["town_ips"] for s in ("german", "soviet")] == [2, 3]
    doubled = edited(m41, tmp_path, "initiative.rules", CHART,
                     CHART.replace("].ip ", "].ip * 2 "))
    ctx = make_ctx(doubled, _moscow_position(control), trace=True)
    assert [initiative.income(ctx, s)["town_ips"] for s in ("german", "soviet")] == [4, 6]
    initiative.collect_ips(ctx, "german", die=1)
    [event] = [e for e in ctx.trace if e.kind == "ip-collection"]
    assert event.data["towns"] == 4
    assert line_of("initiative.rules", "table initiative_chart[hex: hex].ip") in sources(event)


@pytest.mark.case("0.2.2.10")
def test_0_2_2_10_the_chart_not_the_map_decides_a_towns_ips(tmp_path):
    """0.2.2.10: the IP Table is correct, the values printed by the towns on the map are not.
    On a copy of the pack whose map prints Smolensk (1303) at 1 IP, Smolensk still earns its
    chart value, 3 (the `town_ip` line reads the chart); with the chart line deleted the map's
    printed 1 is read instead — the line, not the map, decides."""
    import shutil

    from casebook.script.engine import load_engine

    def smolensk(pack: Path) -> int:
        ctx = make_ctx(load_engine(pack), _moscow_position('{"1308": german}'))
        assert initiative.town_values(ctx)["1308"]["town"] == "Smolensk"
        return initiative.income(ctx, "german")["town_ips"]

    def copy(name: str, chart_line: bool) -> Path:  # load_engine caches per folder: one copy each
        pack = tmp_path / name
        shutil.copytree(RULES.parent, pack, ignore=shutil.ignore_patterns("golden"))
        board = pack / "map.yaml"
        printed = "'1308': {name: Smolensk, kind: city, ip: 3}"
        assert board.read_text(encoding="utf-8").count(printed) == 1
        board.write_text(board.read_text(encoding="utf-8").replace(printed, printed.replace("ip: 3", "ip: 1")),
                         encoding="utf-8")
        if not chart_line:
            script = pack / "rules" / "initiative.rules"
            text = script.read_text(encoding="utf-8")
            assert text.count(CHART + "\n") == 1
            script.write_text(text.replace(CHART + "\n", ""), encoding="utf-8")
        return pack

    assert smolensk(copy("chart", chart_line=True)) == 3
    assert smolensk(copy("map", chart_line=False)) == 1


@pytest.mark.case("1.1D")
def test_1_1D_the_base_ip_marker_is_the_scripts_base_ip(m41, tmp_path):
    """1.1D: the Base IP marker records the IPs received for towns and cities controlled — 2
    for two Moscow hexes. Edited to a house rule's base (town IPs plus one), it records 3, and
    the collection's event names the line."""
    control = '{"2242": german, "2342": german}'

    def base(engine) -> tuple[int, list[str]]:
        ctx = make_ctx(engine, _moscow_position(control), trace=True)
        initiative.collect_ips(ctx, "german", die=1)
        [event] = [e for e in ctx.trace if e.kind == "ip-collection"]
        return ctx.state.plugin_data("initiative")["base_ip"]["german"], sources(event)

    assert base(m41)[0] == 2
    plus = edited(m41, tmp_path, "initiative.rules", "  town_ips  by 1.1D", "  town_ips + 1  by 1.1D")
    value, lines = base(plus)
    assert value == 3 and line_of("initiative.rules", "  town_ips  by 1.1D") in lines


# ---- 0.7.1.1C, 0.7.1.2C: the markers' boxes -------------------------------------------------------
@pytest.mark.case("0.7.1.1C")
def test_0_7_1_1C_the_temperature_marker_goes_to_the_scripts_box(m41, tmp_path):
    """0.7.1.1C: the Temperature marker is placed in the box the Weather Table gives: on Turn 2
    a roll of 1 is Warm (tables/weather_table.yaml, reconstructed). A house rule edits the line to place it one box colder
    than Warm; the state and the `temperature` event follow, naming the line."""
    def placed(engine) -> tuple[str, list[str]]:
        ctx = weather_ctx(engine)
        weather.roll_temperature(ctx, die=1)
        [event] = [e for e in ctx.trace if e.kind == "temperature"]
        return ctx.state.weather["temperature"], sources(event)

    assert placed(m41)[0] == "warm"
    colder = edited(m41, tmp_path, "weather.rules", "  otherwise new_temperature  by 0.7.1.1C",
                    "  otherwise new_temperature  by 0.7.1.1C\n  cold  by 0.7.1.1C  when new_temperature is warm")
    box, lines = placed(colder)
    number = int(line_of("weather.rules", "otherwise new_temperature  by 0.7.1.1C").split(":")[1]) + 1
    assert box == "cold" and f"weather.rules:{number}" in lines


@pytest.mark.case("0.7.1.2C")
def test_0_7_1_2C_the_ground_marker_goes_to_the_scripts_box(m41, tmp_path):
    """0.7.1.2C: the Ground Condition marker is placed in the box the step determined (Cold,
    no precipitation after Dry ground: Frozen, 3.5A). Edited so that the marker stays on Dry
    instead of Frozen, the state keeps Dry and the `ground` event names the line."""
    def placed(engine) -> tuple[str, list[str]]:
        ctx = weather_ctx(engine, temperature="cold", ground="dry")
        weather.roll_ground(ctx, die=1)
        [event] = [e for e in ctx.trace if e.kind == "ground"]
        return ctx.state.weather["ground"], sources(event)

    before = placed(m41)[0]
    assert before == "frozen"
    dry = edited(m41, tmp_path, "weather.rules", "  otherwise new_ground  by 0.7.1.2C",
                 "  otherwise new_ground  by 0.7.1.2C\n  dry  by 0.7.1.2C  when new_ground is frozen")
    box, lines = placed(dry)
    number = int(line_of("weather.rules", "otherwise new_ground  by 0.7.1.2C").split(":")[1]) + 1
    assert box == "dry" and f"weather.rules:{number}" in lines


# ---- 12.0B, 12.0D: which schedule rows are due ------------------------------------------------------
def _schedule_position(turn: int, phasing: str, units: str = "") -> str:
    return m41_inline(None, map_extra='  towns: {"0505": {name: Railgrad, kind: city, ip: 2}}\n  railheads: ["0505"]\n'
                      '  entry_areas: {A: ["0401", "0501"], B: ["0101", "0102"]}\n', turn=turn, weather=None,
                      phase="first_initiative", step=STEP, phasing=phasing, ip="{german: 10, soviet: 10}",
                      extra='rp: {german: {infantry: 0, armor: 0}, soviet: {infantry: 0, armor: 0}}\n'
                      f'control: {{"0505": soviet}}\n{units}')


def _available(engine, turn: int, phasing: str) -> set[str]:
    FAKE.reset()
    ctx = make_ctx(engine, _schedule_position(turn, phasing), trace=True)
    R.casebook_step_start(ctx, "first_initiative", STEP)
    return {e["unit"] for e in ctx.state.plugin_data("reinforcement")["available"]}


@pytest.mark.case("12.0B")
def test_12_0B_the_schedules_turn_is_the_scripts_reinforcement_turn(m41, tmp_path):
    """12.0B: reinforcements enter according to the Reinforcement Schedule — the German 31st
    and 131st Infantry Divisions are listed for Turn 4 (tables/reinforcements.yaml). A house
    rule delaying German reinforcements one turn edits `reinforcement_turn`: they are not due
    on Turn 4 but on Turn 5, and their placement event names the line."""
    recipe = "  schedule_turn + 1  by 12.0B  when side is german"
    assert recipe.strip() in (RULES.parents[2] / "docs" / "modding.md").read_text(encoding="utf-8")  # recipe 25
    plain = engine_with(m41, fake=FAKE)
    assert {"g-31id", "g-131id"} <= _available(plain, 4, "german")
    late = edited(m41, tmp_path, "reinforcement.rules", "  otherwise schedule_turn  by 12.0B",
                  "  otherwise schedule_turn  by 12.0B\n" + recipe,
                  fake=FAKE)
    assert not {"g-31id", "g-131id"} & _available(late, 4, "german")
    assert {"g-31id", "g-131id"} <= _available(late, 5, "german")
    FAKE.reset()
    ctx = make_ctx(late, _schedule_position(5, "german"), trace=True)
    R.casebook_step_start(ctx, "first_initiative", STEP)
    R.casebook_apply_action(ctx, Action.make("place-reinforcement", "german", unit="g-31id", hex="0401"))
    [event] = [e for e in ctx.trace if e.kind == "reinforcement"]
    number = int(line_of("reinforcement.rules", "otherwise schedule_turn  by 12.0B").split(":")[1]) + 1
    assert f"reinforcement.rules:{number}" in sources(event)


@pytest.mark.case("12.0D")
def test_12_0D_the_schedules_turn_is_the_scripts_withdrawal_turn(m41, tmp_path):
    """12.0D: withdrawals are removed on the specified turn — the German 28th Infantry Division
    on Turn 17 (tables/withdrawals.yaml). Edited to withdraw German units two turns early, it
    leaves on Turn 15 and stays on Turn 17; the withdrawal event names the line."""
    units = "units:\n  - {counter: g-28id, hex: '0303'}"

    def withdrawn(engine, turn: int):
        FAKE.reset()
        ctx = make_ctx(engine, _schedule_position(turn, "german", units), trace=True)
        R.casebook_step_start(ctx, "first_initiative", STEP)
        return not ctx.state.has_unit("g-28id"), [e for e in ctx.trace if e.kind == "withdrawal"]

    plain = engine_with(m41, fake=FAKE)
    assert withdrawn(plain, 17)[0] and not withdrawn(plain, 15)[0]
    early = edited(m41, tmp_path, "reinforcement.rules", "  otherwise schedule_turn  by 12.0D",
                   "  otherwise schedule_turn  by 12.0D\n  schedule_turn - 2  by 12.0D  when side is german",
                   fake=FAKE)
    gone, events = withdrawn(early, 15)
    assert gone and not withdrawn(early, 17)[0]
    number = int(line_of("reinforcement.rules", "otherwise schedule_turn  by 12.0D").split(":")[1]) + 1
    assert f"reinforcement.rules:{number}" in sources(events[0])


# ---- 12.1A: the listed entry area -----------------------------------------------------------------
ENTRY = "forbid place_reinforcement  by 12.1A         when not railhead_entry and not in_listed_area"


@pytest.mark.case("12.1A")
def test_12_1A_the_listed_entry_area_is_the_scripts_forbid_line(m41, tmp_path):
    """12.1A: a reinforcement listed with an entry area letter enters in the matching area — the
    German 31st Infantry Division (area A) in 0401 or 0501, not in area B's 0101; the refusal
    names the line. With the line deleted (a house rule: any entry area), area B's hexes are
    offered too."""
    def offered(engine) -> tuple[set[str], list]:
        FAKE.reset()
        ctx = make_ctx(engine, _schedule_position(4, "german"), trace=True)
        R.casebook_step_start(ctx, "first_initiative", STEP)
        hexes = {a.get("hex") for a in R.casebook_legal_actions(ctx, "first_initiative", STEP)
                 if a.kind == "place-reinforcement" and a.get("unit") == "g-31id"}
        return hexes, R.casebook_validate_action(
            ctx, Action.make("place-reinforcement", "german", unit="g-31id", hex="0101"))

    hexes, [why] = offered(engine_with(m41, fake=FAKE))
    assert hexes == {"0401", "0501"}
    assert why.cases == ("12.1A",) and why.source.rsplit("/", 1)[-1] == line_of("reinforcement.rules", ENTRY)
    anywhere = edited(m41, tmp_path, "reinforcement.rules", ENTRY, "", fake=FAKE)
    hexes, refusals = offered(anywhere)
    assert hexes == {"0401", "0501", "0101", "0102"} and refusals == []
