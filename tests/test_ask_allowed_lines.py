"""An allowed verdict names the lines that allowed it (issue #15 deliverable 3): ``ask … why`` of
a legal action and ``ask … offer`` of an offered one carry the ``file:line`` of a declared action's
offer, cost and held ``require`` lines, a deciding ``permit`` and the lines behind the numbers it
charges (a rebuild's RP cost) — not the lines of the board-wide searches met on the way (supply,
command, ZOC) — while a refused twin keeps naming only its refusal's lines."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

ROOT = Path(__file__).resolve().parent.parent
TURN10 = (ROOT / "docs" / "examples" / "reinforcements-turn10.yaml").read_text(encoding="utf-8")
REBUILD = "soviet: rebuild unit=s-rem-01 into=s-179rd"
# docs/modding.md recipe 24: dig in only facing the enemy (a `require` line under the first one)
RECIPE_24 = "  require distance to nearest(map_units having enemy from hex) <= 1  by KP11.2\n"


def _ask(*args: str) -> dict:
    r = CliRunner().invoke(main, ["ask", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def _lines(answer: dict) -> list[tuple[str, str]]:
    return [(ln["source"], ln["text"]) for ln in answer.get("lines", [])]


@pytest.mark.case("12.3A", "12.3B")
def test_12_3B_an_allowed_rebuild_names_its_rp_cost_line_not_the_supply_or_command_searches(tmp_path):
    hq = TURN10.replace('  - {counter: s-rem-01, hex: "0303"}\n',
                        '  - {counter: s-rem-01, hex: "0303"}\n  - {counter: s-22a, hex: "0404"}\n')
    assert hq != TURN10
    allowed = tmp_path / "rebuild.yaml"
    allowed.write_text(hq, encoding="utf-8")
    answer = _ask(str(allowed), "why", REBUILD)
    assert answer["legal"] is True
    assert _lines(answer) == [("reinforcement.rules:27", "start 3  by 12.3B")]   # 12.3B: 3 RPs
    # the refused twin (no HQ: not in command, 12.3A) names its forbid line only, as before
    refused = _ask(str(ROOT / "docs" / "examples" / "reinforcements-turn10.yaml"), "why", REBUILD)
    assert (refused["legal"], refused["cases"]) == (False, ["12.3A"])
    assert _lines(refused) == [("reinforcement.rules:41", "forbid rebuild  by 12.3A  when not (supplied and in_command)")]


@pytest.mark.case("KP11.2")
def test_KP11_2_an_allowed_dig_in_names_its_offer_cost_and_held_require_lines_in_why_and_offer(tmp_path):
    pack = tmp_path / "kestrel_pass"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("__pycache__"))
    rules = pack / "rules" / "fieldworks.rules"
    text = rules.read_text(encoding="utf-8")
    first = "  require count(map_units within 0 of hex having own) >= 1  by KP11.2\n"
    rules.write_text(text.replace(first, first + RECIPE_24), encoding="utf-8")
    pos = tmp_path / "dig.yaml"
    pos.write_text("\n".join(["kind: position", "format: 1", "game: kestrel_pass", "turn: 2",
                              "weather: {temperature: warm, ground: dry}", "phase: blue_turn", "step: movement",
                              "first_player: blue", "phasing: blue", "engineers: {blue: 2}", "units:",
                              '  - {counter: b-1, hex: "0804"}', '  - {counter: b-2, hex: "0204"}',
                              '  - {counter: r-1, hex: "0904"}']) + "\n", encoding="utf-8")
    block = [("fieldworks.rules:13", "offer dig_in in step movement for each map_hex by KP11.2"),
             ("fieldworks.rules:14", "cost 2 from track engineers of side  by KP11.2"),
             ("fieldworks.rules:15", first.strip()), ("fieldworks.rules:16", RECIPE_24.strip())]
    offer = _ask(str(pos), "offer", "dig-in", "hex=0804", "--pack", str(pack))
    why = _ask(str(pos), "why", "blue: dig-in hex=0804", "--pack", str(pack))
    assert (offer["offered"], why["legal"]) == (True, True)       # 0904's Red unit is beside 0804
    assert _lines(offer) == block and _lines(why) == block
    # the refused twins (0204: no enemy beside it) name the unmet require line only, as before
    offer = _ask(str(pos), "offer", "dig-in", "hex=0204", "--pack", str(pack))
    why = _ask(str(pos), "why", "blue: dig-in hex=0204", "--pack", str(pack))
    assert (offer["offered"], why["legal"], offer["cases"], why["cases"]) == (False, False, ["KP11.2"], ["KP11.2"])
    assert _lines(offer) == [block[3]] and _lines(why) == [block[3]]


@pytest.mark.case("2.1A")
def test_2_1A_a_legal_hq_activation_names_its_cost_line_and_the_chart_row_it_read():
    """The October Blitz start (German Command Step): g-vi, supplied, activates 2911, 3011, 3110;
    its IP cost (1, the Initiative Point Chart's "supplied HQ" row, 2.1A) is named by the
    `ip_cost` line that read it and by the chart row it read."""
    answer = _ask(str(ROOT / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"), "why",
                  "german: activate-hq hq=g-vi stacks=2911,3011,3110")
    assert answer["legal"] is True
    assert [ln["source"] for ln in answer["lines"]] == ["initiative.rules:40", "tables/ip_costs.yaml:11"]
    assert answer["lines"][1] == {"source": "tables/ip_costs.yaml:11", "cases": ["2.1A"], "text": (
        '- {action: "activate_hq", side: "both", ip: 1, per: "supplied HQ", provenance: "rulebook: 2.1A"}')}


@pytest.mark.case("2.2B")
def test_2_2B_a_legal_stack_activation_names_its_cost_line_and_the_chart_row_it_read():
    """The October Blitz start (German Command Step): the stack in 2911 activated on its own costs
    1 IP (2.2B, 9.4C: the Initiative Point Chart's "activate_stack" row), named by the `ip_cost`
    line that read it and by the row — in `ask … why` as in play's prompt (one code path)."""
    answer = _ask(str(ROOT / "games" / "moscow41" / "scenarios" / "october-blitz.yaml"), "why",
                  "german: activate-stack stack=2911")
    assert answer["legal"] is True
    assert answer["lines"] == [
        {"source": "initiative.rules:45", "cases": ["2.2B", "9.4C"],
         "text": 'table ip_costs[action: "activate_stack"].ip  by 2.2B, 9.4C  when ip_use is activate_stack'},
        {"source": "tables/ip_costs.yaml:14", "cases": ["2.2B", "9.4C"], "text": (
            '- {action: "activate_stack", side: "both", ip: 1, per: "unit or stack", provenance: "rulebook: 2.2B, 9.4C"}')}]
    from casebook.core.game import Game
    from casebook.tools.cmd_ask import why_not_lines

    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    cases, reason, lines = why_not_lines(state, "german: activate-stack stack=2911")
    assert (cases, reason, [ln["source"] for ln in lines]) == ((), "legal", ["initiative.rules:45", "tables/ip_costs.yaml:14"])
