"""Issue #15 deliverable 3: a refusal or an answer read from a listing (an HQ's stacks in command,
the drop targets, the hexes a Partisan marker may be placed in) names the lines that decided for
what it is about — the named stack, the asked hex — not those its listing met elsewhere
(docs/rule-language.md, "Which lines an event names"; ``ctx.apart(recorded=False)``).

The October Blitz as it starts (Turn 1, the German Command Step): HQ g-vi (2911, infantry corps,
radius 3, Command Limit 3) has 2911, 3011 and 3110 in command; 0116 is far off; 2712 (two hexes
off, a command path of three) holds only 1st Panzer Division units; HQ g-ix has eight stacks in
command; 2812 (two hexes off) is reached by no path of three (Soviet units in 2813 and 2912, their
ZOC in 2811). docs/examples/drop.yaml: the Soviet s1 in 1905 (the drop range, 15.1D), the city 0808;
docs/examples/partisans.yaml: a German unit five hexes from 0106, nine from 0110.
"""

from __future__ import annotations

import pytest
import yaml

from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.tools.cmd_ask import ask_position, why_not_lines
from tests._pack_edits import GAMES, line_of

DOCS = GAMES.parent / "docs/examples"


def _line(file: str, text: str) -> str:
    return f"{file}:{line_of(GAMES / 'moscow41/rules' / file, text)}"


PANZER_2_2C = _line("command.rules", "forbid hq_activate_unit  by 2.2C")
HQ_0_7_3_1B = _line("command.rules", "forbid hq_activate_unit  by 0.7.3.1B")
RADIUS = _line("command.rules", "otherwise command_radius  by 8.1A, 0.2.4.8")
ENEMY = _line("command.rules", "forbid trace_command_through_enemy")
EZOC = _line("zoc.rules", "forbid trace_command_through_ezoc")
LIMIT = _line("command.rules", "otherwise command_limit   by 8.3.1A, 0.2.4.7")
DROP_RANGE = _line("paratroops.rules", "when drop_distance > 15")
DROP_CITY = _line("paratroops.rules", "when town(target) is city")
DROP_ENEMY = _line("paratroops.rules", "from target) = 0")
# the dice (15.2) and the `first`'s branch that put a roll on target — not its `otherwise scattered`
DROP_ROLL = {_line("paratroops.rules", "otherwise 1d6  by 15.2"), _line("paratroops.rules", "on_target            by 15.2")}
DROP_SCATTERED = _line("paratroops.rules", "otherwise scattered")
PARTISAN_NEAR = _line("partisans.rules", "forbid place_partisan by 16.2")
PARTISAN_COST = _line("partisans.rules", "start 1  by 16.1C")
PARTISAN_DISTANCE = _line("partisans.rules", "otherwise distance to nearest(map_units having enemy from hex)")


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz").new_initial_state(1)


def _refused(state, action: str) -> tuple[tuple[str, ...], set[str]]:
    """(cases, the file:line of each line named) of ``action``'s refusal — play's refusal too
    (``apply`` raises it with the same cases, the state unchanged)."""
    cases, _, lines = why_not_lines(state.clone(), action)
    played = state.clone()
    with pytest.raises(IllegalActionError) as refused:
        played.apply(action)
    assert tuple(refused.value.cases) == tuple(cases) and played.to_dict() == state.to_dict()
    return cases, {ln["source"] for ln in lines}


@pytest.mark.case("8.1A", "0.7.3.1B")
def test_8_1A_a_stack_out_of_the_hqs_radius_names_the_radius_not_other_stacks_verdicts(blitz):
    cases, lines = _refused(blitz, "activate-hq hq=g-vi stacks=0116")
    assert cases == ("8.1A", "0.2.4.8")  # the radius line's cases: one reason, not the six possible ones
    assert lines == {RADIUS}  # the 2.2C / 0.7.3.1B forbids of the stacks g-vi passed over: none
    assert why_not_lines(blitz.clone(), "activate-hq hq=g-vi stacks=0116")[1] == (
        "0116 is 28 hexes from g-vi, beyond the 3 hexes of its command radius")


@pytest.mark.case("2.2C")
def test_2_2C_a_panzer_stack_refused_to_an_infantry_hq_names_the_2_2C_line(blitz):
    cases, lines = _refused(blitz, "activate-hq hq=g-vi stacks=2712")
    assert cases == ("0.7.3.1B", "2.2C")
    assert why_not_lines(blitz.clone(), "activate-hq hq=g-vi stacks=2712")[1] == "g-vi may activate no unit in 2712"
    assert lines == {PANZER_2_2C}  # in reach (a path of three): the radius did not refuse it
    assert HQ_0_7_3_1B not in lines


@pytest.mark.case("8.1B")
def test_8_1B_a_stack_in_radius_with_every_path_blocked_names_the_radius_and_the_blocks(blitz):
    state = blitz.clone()  # 110 ID put back on 2812, its setup hex before session 19 (among the 162nd,
    state.data.move_unit("g-110id", "2812")  # 242nd and 250th Rifle Divisions; it starts on 2811 now)
    cases, lines = _refused(state, "activate-hq hq=g-vi stacks=2812")  # 2 hexes off; 2813, 2912 Soviet
    assert cases == ("8.0A", "8.1A", "8.1B", "7.4")
    assert why_not_lines(state.clone(), "activate-hq hq=g-vi stacks=2812")[1] == (
        "no command path of at most 3 hexes from g-vi to 2812: enemy units or their ZOCs block it")
    assert lines == {RADIUS, ENEMY, EZOC}


@pytest.mark.case("2.2C", "8.1A")
def test_2_2C_two_refused_stacks_name_each_ones_line(blitz):
    cases, lines = _refused(blitz, "activate-hq hq=g-vi stacks=2712,0116")
    assert lines == {PANZER_2_2C, RADIUS}
    assert cases == ("0.7.3.1B", "2.2C", "8.1A", "0.2.4.8")  # each stack's one reason


@pytest.mark.case("0.7.3.1B", "2.0")
def test_0_7_3_1B_a_hex_without_an_unactivated_unit_is_refused_as_such_naming_no_line(blitz):
    cases, lines = _refused(blitz, "activate-hq hq=g-vi stacks=3010")  # no German unit in 3010
    assert (cases, lines) == (("0.7.3.1B", "2.0"), set())
    assert why_not_lines(blitz.clone(), "activate-hq hq=g-vi stacks=3010")[1] == (
        "no unactivated unit in 3010 for g-vi to activate")


@pytest.mark.case("8.3.1A")
def test_8_3_1A_over_the_command_limit_names_the_limit_line_only(blitz):
    cases, lines = _refused(blitz, "activate-hq hq=g-ix stacks=1213,1113,1313,1013")
    assert set(cases) == {"8.3.1A", "0.2.4.7"}
    assert lines == {LIMIT}  # the count of stacks in command is a listing: none of its lines


@pytest.mark.case("8.1A")
def test_8_1A_the_legal_hq_activation_is_refused_nothing(blitz):
    assert why_not_lines(blitz.clone(), "activate-hq hq=g-vi stacks=2911,3011,3110")[0] == ()


def _drop(hex_: str) -> tuple[bool, set[str]]:
    answer = ask_position(str(DOCS / "drop.yaml"), "drop", ["s-201ab", hex_], {})
    return answer["verdict"]["allowed"], {ln["source"] for ln in answer["lines"]}


@pytest.mark.case("15.1D")
def test_15_1D_an_allowed_drop_names_no_forbid_line_of_other_hexes():
    allowed, lines = _drop("0909")
    assert allowed
    assert lines == DROP_ROLL  # the on-target roll (15.2); not 15.1D's range, city or enemy lines
    assert DROP_ROLL == {"paratroops.rules:15", "paratroops.rules:19"} and DROP_SCATTERED == "paratroops.rules:18"


@pytest.mark.case("15.2")
def test_15_2_the_on_target_answer_names_the_first_s_deciding_branch_not_its_otherwise():
    answer = ask_position(str(DOCS / "drop.yaml"), "drop", ["s-201ab", "0909"], {})
    assert answer["on_target"].startswith("a roll of 6 (rule drop_outcome)")
    lines = [ln["source"] for ln in answer["lines"]]
    assert lines == ["paratroops.rules:15", "paratroops.rules:19"] and DROP_SCATTERED not in lines


@pytest.mark.case("15.1D")
def test_15_1D_a_refused_drop_names_the_forbid_line_of_its_hex():
    assert _drop("0101") == (False, {DROP_RANGE, *DROP_ROLL})  # 16 hexes from s1
    assert _drop("0808") == (False, {DROP_CITY, *DROP_ROLL})   # a city
    assert DROP_ENEMY not in _drop("0808")[1]


@pytest.mark.case("15.1D")
def test_15_1D_the_drop_listing_alone_still_names_its_forbid_lines():
    answer = ask_position(str(DOCS / "drop.yaml"), "drop", [], {})
    assert {DROP_RANGE, DROP_CITY} <= {ln["source"] for ln in answer["lines"]}  # they decided the targets


def _partisan(hex_: str) -> tuple[dict, set[str]]:
    answer = ask_position(str(DOCS / "partisans.yaml"), "partisans", [hex_], {})
    return answer["verdict"], {ln["source"] for ln in answer["lines"]}


@pytest.mark.case("16.2")
def test_16_2_an_allowed_partisan_hex_names_no_forbid_line_of_other_hexes():
    verdict, lines = _partisan("0110")
    assert verdict["allowed"] and verdict["enemy_distance"] == 9
    assert lines == {PARTISAN_COST, PARTISAN_DISTANCE}  # its cost and its distance; not 16.2's forbid


@pytest.mark.case("16.2")
def test_16_2_a_refused_partisan_hex_names_its_forbid_line():
    verdict, lines = _partisan("0106")
    assert not verdict["allowed"] and verdict["enemy_distance"] == 5
    assert lines == {PARTISAN_NEAR, PARTISAN_COST, PARTISAN_DISTANCE}


@pytest.mark.case("15.1D")
def test_15_1D_a_refused_drop_says_in_words_which_line_refused_it():
    """A drop refusal is worded as every refusal by a rule line (``forbid_reason``: what the action
    does, the case, the condition, what its facts mean, the file:line) — it said only "s-201ab
    cannot be dropped on 0808" — in ``ask drop``'s verdict as in play's refusal."""
    answer = ask_position(str(DOCS / "drop.yaml"), "drop", ["s-201ab", "0808"], {})
    city = ("drop an asterisked Soviet paratroop reinforcement on a target hex: forbidden by 15.1D when "
            f"town(target) is city — target: the hex an action is aimed at [{DROP_CITY}]")
    assert answer["verdict"]["refusals"] == [{"reason": city, "cases": ["15.1D"]}]
    state = Game.load("moscow41").state_from_dict(yaml.safe_load((DOCS / "drop.yaml").read_text(encoding="utf-8")))
    played = state.clone()
    with pytest.raises(IllegalActionError) as refused:
        played.apply("soviet: drop unit=s-201ab hex=0101")  # 16 hexes from s1
    assert refused.value.reason == (
        "drop an asterisked Soviet paratroop reinforcement on a target hex: forbidden by 15.1D when drop_distance > 15"
        " — drop_distance: hexes from the drop target to the nearest Soviet unit in supply, through any terrain and"
        f" enemy units (15.1D); 999 when there is none [{DROP_RANGE}]")
