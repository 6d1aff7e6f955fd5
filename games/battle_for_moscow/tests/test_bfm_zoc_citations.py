"""What the shared `zoc` plugin cites in Battle for Moscow: the game's own cases (BM6.1-BM6.3 for
ZOCs, BM8.6B for retreats, BM9.4 for communication), never a Moscow '41 case, and no Moscow '41
effect it does not have (supply lines, command paths). The citations are each game's rule-script
lines; the Moscow '41 lines that carry its citations must change none of its verdicts."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli

CAMPAIGN = "games/battle_for_moscow/scenarios/campaign.yaml"


def ask_zoc(position, hex_, *args, for_=None):
    ctx = position
    options = {"for": for_} if for_ else {}
    return ctx.hook.casebook_answer(ctx=ctx, question="zoc", args=[hex_, *args], options=options)


def only_bm(cases):
    return all(c.startswith("BM") for c in cases)


@pytest.mark.case("BM6.1", "BM6.2", "BM6.3", "BM9.4", "BM8.6B")
def test_ask_zoc_in_the_campaign_cites_only_battle_for_moscow_cases():
    # 0404 is in the ZOC of four Soviet armies of the opening set-up (16, 20, 24 and 43 Armies)
    result = CliRunner().invoke(cli, ["ask", CAMPAIGN, "zoc", "0404", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["exerted_by"] == ["s-16a", "s-20a", "s-24a", "s-43a"] and answer["kind"] == "locking"
    assert answer["cases"] == ["BM6.1", "BM6.2", "BM6.3", "BM9.4", "BM8.6B"]
    assert "blocks_supply" not in answer and "blocks_command" not in answer
    assert answer["blocks_retreat"] is True and answer["blocks_communication"] is True


@pytest.mark.case("BM6.1", "BM6.2", "BM8.6B", "BM9.4")
def test_every_zoc_answer_of_the_pack_cites_only_bm_cases(position):
    # a Soviet army in 0606, a German corps in 0605 (in its ZOC) and a panzer corps in 0808 (next to no Soviet unit)
    ctx = position([("s-3a", "0606", None), ("g-ix", "0605", None), ("g-xl-pz", "0808", None)], ground="mud")
    seen = set()
    for hex_ in ("0605", "0705", "0607", "0506", "0808", "0101"):
        for side in ("german", "soviet"):
            answer = ask_zoc(ctx, hex_, side)
            assert only_bm(answer["cases"]), (hex_, side, answer["cases"])
            seen.update(answer["cases"])
        for unit in ("g-ix", "g-xl-pz", "s-3a"):
            answer = ask_zoc(ctx, hex_, for_=unit)
            assert only_bm(answer["cases"]), (hex_, unit, answer["cases"])
            seen.update(answer["cases"])
    assert {"BM6.1", "BM6.2", "BM6.3", "BM8.6B", "BM9.4"} <= seen


@pytest.mark.case("BM6.2", "BM8.6B")
def test_a_friendly_unit_does_not_open_an_enemy_zoc_to_retreats(position):
    # BM8.6B: never into an enemy ZOC — unlike Moscow '41 7.5A, a friendly unit there changes nothing
    ctx = position([("s-3a", "0606", None), ("g-ix", "0605", None)])
    answer = ask_zoc(ctx, "0605", "german")                     # g-ix stands in s-3a's ZOC
    assert answer["friendly_combat_unit"] is True
    assert answer["blocks_retreat"] is True and answer["blocks_communication"] is True
    unit = ask_zoc(ctx, "0605", for_="g-ix")
    assert unit["must_stop_on_entering"] is True
    assert unit["cases"] == ["BM6.1", "BM6.2", "BM6.3", "BM9.4", "BM8.6B"]
    clear = ask_zoc(ctx, "0101", for_="g-ix")                   # far from every Soviet unit
    assert clear["kind"] == "none" and clear["cases"] == ["BM6.1"]
    assert clear["blocks_retreat"] is False


@pytest.mark.case("7.0A", "7.0D", "7.1A", "7.0F", "7.4", "7.5A", "7.2")
def test_moscow41_still_cites_its_own_cases():
    # docs/ask/zoc.md: German g1 in 0303, Soviet s1 in 0403; 0304 is in s1's ZOC
    result = CliRunner().invoke(cli, ["ask", "docs/examples/zoc-basics.yaml", "zoc", "0304", "--for", "g1", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["cases"] == ["7.0A", "7.0D", "7.1A", "7.0C", "4.1B", "7.0B", "7.0F", "7.4", "5.4B", "8.1B", "7.5A", "7.2",
                               "3.5B", "11.3D"]  # the ZOC Chart rows' own cases (an answer holds its lines' cases, session 16)
    assert [k for k in answer if k.startswith("blocks_")] == ["blocks_supply", "blocks_command", "blocks_retreat"]


def _m41_fact_space():
    temperatures = ("warm", "cold", "arctic")
    grounds = ("dry", "frozen", "mud", "drying", "snow", "deep_snow")
    classes = ("infantry", "cavalry", "armor", "mechanized", "hq", "remnant", "ski", "paratroop")
    for t, g, c, road, scope in itertools.product(temperatures, grounds, classes, (False, True), ("arctic", "winter")):
        yield {"temperature": t, "ground": g, "side": "german", "unit_class": c, "unit_size": "division",
               "road_or_town_hex": road, "no_zoc_scope": scope}


@pytest.mark.case("7.0A", "7.0D", "7.1A", "7.1B", "7.1C")
def test_moscow41_citation_permits_change_no_verdict():
    # A permit line that fires wins over a forbid line: the permit lines carrying 7.0A, 7.0D, 7.1A
    # must fire exactly where no forbid line of their action does.
    from casebook.script.engine import load_engine

    rules = load_engine("moscow41").rules
    checked = 0
    for facts in _m41_fact_space():
        for action in ("exert_zoc", "zoc_into_hex"):
            fired = [ln for ln in rules.permission(action, facts).lines if ln.fired]
            permits = [ln for ln in fired if ln.kind == "permit"]
            forbids = [ln for ln in fired if ln.kind == "forbid"]
            assert bool(permits) != bool(forbids), (action, facts, [ln.text for ln in fired])
            checked += 1
    assert checked == 2 * 3 * 6 * 8 * 2 * 2
    arctic = {"temperature": "arctic", "ground": "snow", "unit_class": "infantry"}
    assert rules.permission("exert_zoc", arctic).cases == ("4.6A", "7.1C")
    mud_armor = {"temperature": "warm", "ground": "mud", "unit_class": "armor", "road_or_town_hex": False}
    assert rules.permission("zoc_into_hex", mud_armor).value is False
    assert rules.permission("zoc_into_hex", {**mud_armor, "road_or_town_hex": True}).cases == ("7.0A", "7.0D")
