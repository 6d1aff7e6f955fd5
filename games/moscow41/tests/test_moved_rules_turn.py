"""Rules moved from Moscow '41 Python into rule scripts (issue #15, helper "turn": initiative,
reinforcement, victory): a copy of the pack's scripts with one line edited is compiled into an
engine and play changes — so the line is what the plugin reads, not a dead copy of a Python
number (pattern: games/moscow41/tests/test_moved_rules_b.py)."""

from __future__ import annotations

import pytest

from casebook.areas import initiative
from casebook.core.actions import Action
from casebook.games.moscow41.plugins import reinforcement as R
from games.moscow41.tests.test_initiative import pos, units
from games.moscow41.tests.test_moved_rules_b import edited
from games.moscow41.tests.test_reinforcement import FAKE, STEP
from tests.conftest import make_ctx

BLOCK = 'forbid gain_control  by 1.1B  when occupying_sides != 1 or occupant_count < 1'


@pytest.mark.case("1.1B")
def test_1_1B_who_takes_a_town_is_the_gain_control_line(m41, tmp_path):
    """1.1B: a friendly unit occupying the hex gives control. Edited to need two units (a house
    rule), one German unit in Mozhaisk no longer takes it; two do."""
    text = pos(control='{"2032": soviet}') + units(("g1", "german", "2032"))
    ctx = make_ctx(m41, text, trace=True)
    initiative.casebook_after_action(ctx, None, {})
    assert ctx.state.control("2032") == "german"
    two = edited(m41, tmp_path, "initiative.rules", BLOCK,
                 'forbid gain_control  by 1.1B  when occupying_sides != 1 or occupant_count < 2')
    ctx = make_ctx(two, text, trace=True)
    initiative.casebook_after_action(ctx, None, {})
    assert ctx.state.control("2032") == "soviet"
    ctx = make_ctx(two, pos(control='{"2032": soviet}') + units(("g1", "german", "2032"), ("g2", "german", "2032")))
    initiative.casebook_after_action(ctx, None, {})
    assert ctx.state.control("2032") == "german"


@pytest.mark.case("12.1E")
def test_12_1E_the_voluntary_delay_is_the_scripts_number_of_turns(m41, tmp_path):
    """12.1E: a reinforcement left unplaced waits `voluntary_delay_turns` (1: next turn's Step 2);
    edited to 2, it comes back two turns later."""
    from games.moscow41.tests._fakes import engine_with

    def delayed(engine) -> list[dict]:
        FAKE.reset()
        ctx = make_ctx(engine, _reinforcement_position(), trace=True)
        R.casebook_step_start(ctx, "first_initiative", STEP)
        R.casebook_step_end(ctx, "first_initiative", STEP)
        return [dict(p) for p in ctx.state.pending]

    assert {"unit": "s-174rd", "turn": 11} in delayed(engine_with(m41, fake=FAKE))
    later = edited(m41, tmp_path, "reinforcement.rules", "  otherwise 1  by 12.1E", "  otherwise 2  by 12.1E",
                   fake=FAKE)
    assert {"unit": "s-174rd", "turn": 12} in delayed(later)


def _reinforcement_position() -> str:
    return """
kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {columns: 8, rows: 8}
  terrain: {default: clear}
  towns: {"0505": {name: Railgrad, kind: city, ip: 2}}
  railheads: ["0505"]
  entry_areas: {A: ["0401", "0501"]}
turn: 10
phase: first_initiative
step: replacement_reinforcement
phasing: soviet
first_player: soviet
ip: {german: 10, soviet: 10}
rp: {german: {infantry: 0, armor: 0}, soviet: {infantry: 0, armor: 0}}
control: {"0505": soviet}
pending:
  - {unit: s-174rd, turn: 10}
"""


@pytest.mark.case("12.0E")
def test_12_0E_the_reinforcement_step_is_the_scripts(m41, tmp_path):
    """12.0E: reinforcements, replacements and withdrawals occur in Step 2 of the Initiative
    Phase. Edited to the Recovery Step, the plugin's work (and its decisions) moves there."""
    from games.moscow41.tests._fakes import engine_with

    ctx = make_ctx(engine_with(m41, fake=FAKE), _reinforcement_position())
    assert R.reinforcement_step(ctx) == STEP
    assert R.casebook_decider(ctx, "first_initiative", STEP) == "soviet"
    assert R.casebook_decider(ctx, "first_player", "recovery") is None
    moved = edited(m41, tmp_path, "reinforcement.rules", "  otherwise replacement_reinforcement  by 12.0E",
                   "  otherwise recovery  by 12.0E", fake=FAKE)
    ctx = make_ctx(moved, _reinforcement_position())
    assert R.casebook_decider(ctx, "first_initiative", STEP) is None
    assert R.casebook_decider(ctx, "first_player", "recovery") == "soviet"
    [why] = R.casebook_validate_action(ctx, Action.make("place-reinforcement", "soviet", unit="s-174rd", hex="0505"))
    assert why.cases == ("0.7.2.2", "12.0E")


@pytest.mark.case("0.7.2.2A", "0.7.2.2B")
def test_0_7_2_2A_B_rps_before_reinforcements_is_the_scripts_order(m41, tmp_path):
    """0.7.2.2A-B: RPs first, then reinforcements — once one is placed, no RP is spent. With the
    line deleted (a house rule), an RP may still be assigned after placing."""
    from games.moscow41.tests._fakes import engine_with

    def after_placing(engine):
        FAKE.reset()
        ctx = make_ctx(engine, _reinforcement_position().replace(
            "control:", "units:\n  - {counter: s-133rd, hex: '0303', losses: 2}\ncontrol:").replace(
            "soviet: {infantry: 0, armor: 0}}", "soviet: {infantry: 3, armor: 0}}"), trace=True)
        R.casebook_step_start(ctx, "first_initiative", STEP)
        R.casebook_apply_action(ctx, Action.make("place-reinforcement", "soviet", unit="s-174rd", hex="0505"))
        rp = Action.make("assign-rp", "soviet", unit="s-133rd", rp="infantry")
        return (rp in R.casebook_legal_actions(ctx, "first_initiative", STEP),
                {c for r in R.casebook_validate_action(ctx, rp) for c in r.cases})

    assert after_placing(engine_with(m41, fake=FAKE)) == (False, {"0.7.2.2A", "0.7.2.2B"})
    free = edited(m41, tmp_path, "reinforcement.rules",
                  "forbid assign_rp  by 0.7.2.2A, 0.7.2.2B  when reinforcements_placed", "", fake=FAKE)
    assert after_placing(free) == (True, set())


@pytest.mark.case("3.0A")
def test_3_0A_the_two_weather_steps_are_the_scripts(m41, tmp_path):
    """3.0A: the weather is determined in two steps, Temperature then Ground Condition. Edited
    so that the ground is checked in the Initiative Determination step, the Ground step rolls
    nothing and step 3 rolls the ground."""
    from casebook.areas import weather
    from games.moscow41.tests.test_moved_rules_b import weather_ctx

    def rolled(engine, step: str) -> list[str]:
        ctx = weather_ctx(engine)
        weather.casebook_step_start(ctx, "weather", step)
        return [e.kind for e in ctx.trace if e.kind in ("temperature", "ground")]

    assert rolled(m41, "ground") == ["ground"] and rolled(m41, "initiative_determination") == []
    moved = edited(m41, tmp_path, "weather.rules", "  otherwise ground  by 3.0A, 0.7.1.2",
                   "  otherwise initiative_determination  by 3.0A, 0.7.1.2")
    assert rolled(moved, "ground") == [] and rolled(moved, "initiative_determination") == ["ground"]
    assert rolled(moved, "temperature") == ["temperature"]
