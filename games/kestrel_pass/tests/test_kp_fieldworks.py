"""Kestrel Pass's fieldworks (KP11), a declared action with no game code (issue #15 item 1):
rules/fieldworks.rules offers `dig-in` with a cost from a keyed track (`engineers of side`),
`require`/`forbid` lines inside the block — the action's only refusals, each naming its
`file:line` in play, `why` and the listing alike — a marker effect read by combat (KP11.4), and
`when turn starts` lines filling the keyed track (KP11.1), which facts.yaml reads per side."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.core.actions import Action
from casebook.core.game import Game
from casebook.script import declared
from casebook.tools.cmd_ask import why_not_lines

RULES = Path(__file__).resolve().parents[1] / "rules"


def _line(start: str) -> str:
    """``fieldworks.rules:N`` of the line starting with ``start``."""
    lines = (RULES / "fieldworks.rules").read_text(encoding="utf-8").split("\n")
    return f"fieldworks.rules:{next(i for i, t in enumerate(lines, 1) if t.strip().startswith(start))}"


def _ctx(position, engineers=None, *, markers=(), units=None, step="movement"):
    ctx = position(units or [("b-1", "0204", None), ("b-2", "0404", None), ("r-1", "0904", None)], step=step)
    for side, n in (engineers or {}).items():
        ctx.state.add_track("engineers", n, side)
    for h in markers:
        ctx.state.add_marker("fortification", h)
    ctx.changed()
    return ctx


def _dig(hex_: str, side: str = "blue") -> Action:
    return Action.make("dig-in", side, hex=hex_)


@pytest.mark.case("KP11.2")
def test_KP11_2_offered_in_each_hex_of_an_own_unit_outside_towns_when_the_track_pays(position):
    ctx = _ctx(position, {"blue": 2})
    assert [a.get("hex") for a in declared.casebook_legal_actions(ctx, "blue_turn", "movement")] == ["0204"]
    assert declared.casebook_legal_actions(_ctx(position, {"blue": 1}), "blue_turn", "movement") == []
    assert declared.casebook_legal_actions(_ctx(position, {"blue": 2}, step="combat"), "blue_turn", "combat") == []


@pytest.mark.case("KP11.2", "KP11.3")
def test_KP11_3_each_refusal_names_the_require_forbid_or_cost_line(position):
    ctx = _ctx(position, {"blue": 2})
    [empty] = declared.casebook_validate_action(ctx, _dig("0303"))          # no Blue unit there
    assert empty.cases == ("KP11.2",) and empty.reason.startswith("not met: require count(")
    assert f"[{_line('require count(')}]" in empty.reason
    [town] = declared.casebook_validate_action(ctx, _dig("0404"))           # Northford
    assert town.cases == ("KP11.3",) and f"[{_line('forbid by KP11.3  when town_name')}]" in town.reason
    [full] = declared.casebook_validate_action(_ctx(position, {"blue": 2}, markers=["0101", "0102", "0103", "0104"]),
                                               _dig("0204"))
    assert full.cases == ("KP11.3",) and f"[{_line('forbid by KP11.3  when fieldworks')}]" in full.reason
    [poor] = declared.casebook_validate_action(_ctx(position, {"blue": 1, "red": 3}), _dig("0204"))
    assert poor.cases == ("KP11.2",)
    assert poor.reason == f"costs 2 from track engineers of blue, which holds 1 [{_line('cost 2 from track')}]"


@pytest.mark.case("KP11.2")
def test_KP11_2_applying_pays_the_side_s_track_digs_and_records_the_deciding_lines(position):
    ctx = _ctx(position, {"blue": 3, "red": 2})
    ctx.event_lines = {}
    out = declared.casebook_apply_action(ctx, _dig("0204"))
    assert out == {"hex": "0204", "cost": 2, "track": 1, "cases": ["KP11.2"]}
    assert (ctx.state.track("engineers", "blue"), ctx.state.track("engineers", "red")) == (1, 2)
    assert [(m["kind"], m["hex"]) for m in ctx.state.markers] == [("fortification", "0204")]
    [event] = list(ctx.trace)
    assert (event.kind, event.source) == ("fieldwork-dug", _line("offer dig_in"))
    sources = [ln["source"] for ln in event.data["lines"]]
    assert sources == [_line("offer dig_in"), _line("cost 2"), _line("place marker"), _line("require count(")]


@pytest.mark.case("KP11.1")
def test_KP11_1_each_turn_adds_an_engineer_point_held_to_three_and_read_per_side(position):
    from casebook.script.effects import triggered

    ctx = _ctx(position, {"blue": 3, "red": 1})
    assert (ctx.standard["blue_engineers"], ctx.standard["red_engineers"]) == (3, 1)   # keyed track facts
    assert triggered(ctx, "turn_starts", {}) is None
    assert (ctx.state.track("engineers", "blue"), ctx.state.track("engineers", "red")) == (3, 2)
    [event] = [e for e in ctx.trace if e.kind == "trigger"]                 # blue's was at its bound
    assert event.data["keys"] == ["red"] and event.data["lines"][0]["source"] == _line("when turn starts: add 1 to track engineers of red")


@pytest.mark.case("KP11.4")
def test_KP11_4_a_defender_in_a_fieldwork_shifts_one_column_left(kp):
    e = kp.rules.explain("column_shift", {"defender_terrain": "forest", "defender_fortified": True,
                                          "attacker_side": "blue", "defender_side": "red", "attackers": [],
                                          "defenders": []})
    assert e.value == -2 and "combat.rules:" in [ln for ln in e.lines if "KP11.4" in ln.cases][0].source


@pytest.mark.case("KP11.2")
def test_KP11_2_why_in_play_names_the_lines_of_the_refusal():
    state = Game.load("kestrel_pass", "meeting").new_initial_state(1)         # turn 1: blue holds 1 point
    cases, reason, lines = why_not_lines(state, "blue: dig-in hex=0204")
    assert cases == ("KP11.2",) and "engineers of blue, which holds 1" in reason
    assert [ln["source"] for ln in lines] == [_line("cost 2 from track")]
    cases, _, lines = why_not_lines(state, "blue: dig-in hex=0106")          # Bluecastle: a town
    assert set(cases) == {"KP11.2", "KP11.3"}
    assert _line("forbid by KP11.3  when town_name") in [ln["source"] for ln in lines]


@pytest.mark.case("KP11.2", "KP11.3")
def test_KP11_3_ask_offer_judges_by_the_same_refusals_and_names_their_lines(tmp_path):
    from click.testing import CliRunner

    from casebook.tools.cli import cli as main

    pos = tmp_path / "dig.yaml"
    pos.write_text("\n".join(["kind: position", "format: 1", "game: kestrel_pass", "turn: 2",
                              "weather: {temperature: warm, ground: dry}", "phase: blue_turn", "step: movement",
                              "first_player: blue", "phasing: blue", "engineers: {blue: 2}", "units:",
                              '  - {counter: b-1, hex: "0204"}', '  - {counter: b-2, hex: "0404"}']) + "\n")
    pack = RULES.parent

    def ask(*args):
        r = CliRunner().invoke(main, ["ask", str(pos), "offer", *args, "--pack", str(pack), "--json"])
        assert r.exit_code == 0, r.output
        import json

        return json.loads(r.output)

    town = ask("dig-in", "hex=0404")                                         # Northford
    assert (town["offered"], town["cases"]) == (False, ["KP11.3"])
    assert [ln["source"] for ln in town["lines"]] == [_line("forbid by KP11.3  when town_name")]
    assert ask("blue:", "dig-in", "hex=0204")["offered"] is True
    r = CliRunner().invoke(main, ["ask", str(pos), "offer", "dig", "--pack", str(pack)])
    assert r.exit_code == 2 and "the game's declared actions: dig-in" in r.output   # a usage error


@pytest.mark.case("KP11.2")
def test_KP11_2_an_add_effect_of_an_offer_moves_a_keyed_track_held_to_its_bounds(tmp_path):
    """An `add … to track … of …` line inside the block (here a test-only edit of a copy: digging
    also gives the other side an engineer point) is carried out with the action, held to 0..3."""
    import shutil

    from casebook.script.engine import Engine
    from tests.conftest import make_ctx

    shutil.copytree(RULES.parent, tmp_path / "kp", ignore=shutil.ignore_patterns("golden"))
    script = tmp_path / "kp" / "rules" / "fieldworks.rules"
    anchor = "  place marker fortification  by KP11.2\n"
    script.write_text(script.read_text(encoding="utf-8").replace(
        anchor, anchor + "  add 1 to track engineers of red  by KP11.2\n"), encoding="utf-8")
    engine = Engine.load(tmp_path / "kp")
    pos = ["kind: position", "format: 1", "game: kestrel_pass", "turn: 2", "weather: {temperature: warm, ground: dry}",
           "phase: blue_turn", "step: movement", "first_player: blue", "phasing: blue",
           "engineers: {blue: 3, red: 3}", "units:", '  - {counter: b-1, hex: "0204"}']
    ctx = make_ctx(engine, "\n".join(pos) + "\n", trace=True)
    out = declared.casebook_apply_action(ctx, _dig("0204"))
    assert (ctx.state.track("engineers", "blue"), ctx.state.track("engineers", "red")) == (1, 3)   # red: at 3
    [held] = out["added"]                                                     # nothing added: the bound held it
    assert (held["arg"], held["keys"], "added" in held, "bound_cases" in held) == ("engineers", ["red"], False, True)
    ctx2 = make_ctx(engine, "\n".join(pos).replace("red: 3", "red: 1") + "\n", trace=True)
    out = declared.casebook_apply_action(ctx2, _dig("0204"))
    assert ctx2.state.track("engineers", "red") == 2
    assert out["added"] == [{"arg": "engineers", "keys": ["red"], "added": 1, "value": 2}]


@pytest.mark.case("KP11.1", "KP11.2")
def test_KP11_1_ask_offer_and_why_on_a_scenario_start_judge_after_the_turn_start_trigger():
    """A scenario file is judged as play begins it, by `offer` as by `why`: the meeting's setup and
    Turn 1 start (KP11.1: `when turn starts: add 1 to track engineers of blue`), then Blue's
    movement step — the engineers track holds 1, not the file's 0 (`offer` answered before the
    trigger: "which holds 0", and "offered to the phasing player, and the position has none
    yet"; `why` after it). No side given: the side deciding, as `why` takes it."""
    import json

    from click.testing import CliRunner

    from casebook.tools.cli import cli

    scenario = str(Path(__file__).resolve().parents[1] / "scenarios" / "meeting.yaml")
    refusal = {"reason": f"costs 2 from track engineers of blue, which holds 1 [{_line('cost 2 from track')}]",
               "cases": ["KP11.2"]}
    for asked in ("dig-in hex=0204", "blue: dig-in hex=0204"):
        r = CliRunner().invoke(cli, ["ask", scenario, "offer", asked, "--json"])
        assert r.exit_code == 0, r.output
        offer = json.loads(r.output)
        assert (offer["action"], offer["offered"], offer["refusals"]) == ("blue: dig-in hex=0204", False, [refusal])
    r = CliRunner().invoke(cli, ["ask", scenario, "why", "dig-in hex=0204", "--json"])
    why = json.loads(r.output)
    assert (why["step"], why["legal"], why["reason"], why["cases"]) == ("movement", False, refusal["reason"], ["KP11.2"])
    assert [ln["source"] for ln in offer["lines"]] == [ln["source"] for ln in why["lines"]] == [_line("cost 2 from track")]


@pytest.mark.case("KP11.4")
def test_KP11_4_the_combat_area_reads_a_fieldwork_marker_by_the_marker_fortifies_line(position, tmp_path):
    """The shared combat area names no marker: a fortification marker in the defender's hex is
    `defender_fortified` by the line `permit marker_fortifies by KP11.4` (combat.rules: every
    marker kind of the game, its only one, fortifies); in a copy without that line it is not."""
    import shutil

    from casebook.areas._combat_odds import gather
    from casebook.script.engine import Engine

    units = [("b-1", "0404", None), ("r-1", "0504", None)]
    ctx = _ctx(position, units=units, markers=("0504",), step="combat")
    assert gather(ctx, ["b-1"], "0504").drm_facts["defender_fortified"] is True
    assert gather(_ctx(position, units=units, step="combat"), ["b-1"], "0504").drm_facts["defender_fortified"] is False
    shutil.copytree(RULES.parent, tmp_path / "kp", ignore=shutil.ignore_patterns("golden"))
    script = tmp_path / "kp" / "rules" / "combat.rules"
    line = "permit marker_fortifies by KP11.4\n"
    assert script.read_text(encoding="utf-8").count(line) == 1
    script.write_text(script.read_text(encoding="utf-8").replace(line, ""), encoding="utf-8")
    bare = Engine.load(tmp_path / "kp").ctx(ctx.state.clone())
    assert gather(bare, ["b-1"], "0504").drm_facts["defender_fortified"] is False
