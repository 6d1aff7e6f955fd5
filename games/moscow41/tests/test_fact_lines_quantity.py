"""A quantity's line that reads a computed fact names the lines that computed it (issue #15 item
3; docs/rule-language.md, "Which lines an event names", rule 6): 5.7D's ``-2 … when any attacker
is not supplied`` of ``attack_drm`` reads the attackers' ``supplied`` field, so ``ask attack``
and play's ``combat`` event (one code path, ``_combat_odds.gather``) name the supply lines that
left an attacker out of supply — the lines ``ask supply`` names of that unit — beside the DRM line
(combat.rules:25), and only when that line fired: a supplied attacker's supply lines are never
lent. file:line values are those of the shipped rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from casebook.core.game import Game
from casebook.script.engine import load_engine
from games.moscow41.tests.test_fact_lines import _ask, _sources

ROOT = Path(__file__).resolve().parents[3]
ATTACK = ROOT / "docs" / "examples" / "attack.yaml"
FORT = ROOT / "docs" / "examples" / "fortification-line.yaml"
SUPPLY = ["supply.rules:7", "zoc.rules:28", "supply.rules:27"]   # length, EZOC and enemy-unit blocks


@pytest.fixture(scope="module")
def cut_off(tmp_path_factory) -> Path:
    """docs/examples/attack.yaml with five Soviet 1-SP divisions in 0201-0205: g1 (0303) is cut
    off from the west edge (enemy units 5.4A, their EZOCs 5.4B); g2 (0403) still traces 8 MPs."""
    data = yaml.safe_load(ATTACK.read_text(encoding="utf-8"))
    data["units"] += [{"id": f"sx{i}", "side": "soviet", "class": "infantry", "size": "division", "strength": 1,
                       "ma": 4, "hex": h} for i, h in enumerate(["0201", "0202", "0203", "0204", "0205"])]
    path = tmp_path_factory.mktemp("cut") / "cut.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.case("5.7D", "10.4.5A")
def test_5_7D_an_unsupplied_attackers_drm_names_its_supply_lines(cut_off):
    assert _ask(cut_off, "supply", "g1")["in_supply"] is False
    assert _sources(_ask(cut_off, "supply", "g1")) == SUPPLY
    assert _ask(cut_off, "supply", "g2")["in_supply"] is True
    answer = _ask(cut_off, "attack", "0304", "--with", "g1,g2")
    assert {"case": "5.7D, 10.4.5A", "value": -2, "source": "combat.rules:25"} in answer["drm"]["terms"]
    assert _sources(answer) == ["combat.rules:35", *SUPPLY, "combat.rules:67", "combat.rules:15",
                                "combat.rules:16", "combat.rules:25", "combat.rules:84", "tables/crt.yaml:18",
                                "tables/combat_modifiers.yaml:26"]  # the forest row of the terrain DRM (cite16)


@pytest.mark.case("5.7D")
def test_5_7D_supplied_attackers_lend_no_supply_lines():
    """docs/examples/attack.yaml: g1 and g2 trace supply (supply.rules:7 fires for both), the -2
    does not apply, and the answer names no supply line."""
    answer = _ask(ATTACK, "attack", "0304", "--with", "g1,g2")
    assert all(t["source"] != "combat.rules:25" for t in answer["drm"]["terms"])
    assert _sources(answer) == ["combat.rules:35", "combat.rules:67", "combat.rules:15", "combat.rules:16",
                                "combat.rules:84", "tables/crt.yaml:18",
                                "tables/combat_modifiers.yaml:26"]  # the forest row of the terrain DRM (cite16)


@pytest.mark.case("5.7D", "10.4.5A")
def test_5_7D_the_soviet_133rd_in_the_fortification_line_example():
    """The 133rd (0305, unsupplied in Mud between two German divisions) attacking 0304: its supply
    lines (as ``ask supply s-133rd`` names them) beside the Mud DRM (4.3H) and 5.7D's."""
    answer = _ask(FORT, "attack", "0304", "--with", "s-133rd")
    assert _sources(_ask(FORT, "supply", "s-133rd")) == SUPPLY
    assert _sources(answer) == ["combat.rules:35", *SUPPLY, "combat.rules:7", "combat.rules:25", "combat.rules:84",
                                "tables/crt.yaml:17"]


@pytest.mark.case("5.7D", "10.0E")
def test_5_7D_the_combat_event_in_play_names_the_supply_lines_before_the_drm_line(cut_off):
    """Play's ``combat`` event (rule 12: the same gather as ``ask attack``) names g1's supply lines
    just before the line that read them; dice fixed at 4 + 4."""
    data = yaml.safe_load(cut_off.read_text(encoding="utf-8"))
    data["rng"] = {"seed": 1, "state": None, "fixed": [4, 4]}
    state = Game(load_engine("moscow41"), "october-blitz").state_from_dict(data)
    state.apply("german: attack hex=0304 with=g1,g2")
    for _ in range(10):
        if not state.trace.of_kind("combat"):
            state.apply(state.legal_actions()[0])
    combat = state.trace.of_kind("combat")[-1]
    assert [ln["source"] for ln in combat.data["lines"]] == [
        "combat.rules:35", "combat.rules:67", "combat.rules:15", "combat.rules:16", *SUPPLY, "combat.rules:25",
        "combat.rules:84", "tables/combat_modifiers.yaml:26",
                                "tables/crt.yaml:18"]  # the forest row of the terrain DRM (cite16)


def _ctx(position: Path, event_lines: bool):
    from casebook.content.position import load_position
    from casebook.script.engine import state_from_position

    engine = load_engine("moscow41")
    return engine.ctx(state_from_position(load_position(position, pack=engine.pack)), event_lines=event_lines)


@pytest.mark.case("14.1C")
def test_14_1C_play_keeps_the_supply_probes_lines_as_ask_does():
    """A supply probe's lines (0101 of the fortification-line example: no unit there, the probe
    cannot trace supply) are kept in play's context too (it collects its events' lines), not only
    while a recording runs: the ``hex_supplied`` fact carries the lines the refusal names."""
    from casebook.games.moscow41.plugins._fortification_build import hex_facts

    facts = hex_facts(_ctx(FORT, event_lines=True), "0101")
    assert facts["hex_supplied"] is False
    assert [ln["source"] for ln in facts.lines["hex_supplied"]] == SUPPLY[:2]   # no enemy hex met (0304 far)
    assert _sources(_ask(FORT, "why", "build-fort hex=0101"))[:2] == SUPPLY[:2]   # the same lines as ask's
    quiet = hex_facts(_ctx(FORT, event_lines=False), "0101")                   # nothing collects: none
    assert quiet["hex_supplied"] is False and "hex_supplied" not in quiet.lines


@pytest.mark.case("12.1C")
def test_12_1C_play_keeps_a_railheads_probe_lines(tmp_path):
    """docs/examples/reinforcements-turn10.yaml with German divisions in 0502, 0403 and 0704: the
    railhead 0603 cannot trace supply; in play's context the probe's lines are those the refusal
    of placing s-174rd there names (test_fact_lines.py)."""
    from casebook.areas import reinforcement as entry

    text = (ROOT / "docs" / "examples" / "reinforcements-turn10.yaml").read_text(encoding="utf-8")
    remnant = '  - {counter: s-rem-01, hex: "0303"}\n'
    germans = "".join(f'  - {{counter: {c}, hex: "{h}"}}\n' for c, h in (("g-6id", "0502"), ("g-26id", "0403"),
                                                                          ("g-31id", "0704")))
    position = tmp_path / "railheads.yaml"
    position.write_text(text.replace(remnant, remnant + germans), encoding="utf-8")
    ctx = _ctx(position, event_lines=True)
    item = {"unit": "s-174rd"}
    assert entry.railhead_supply(ctx, item, ["0603"]) == {"0603": False}
    assert [ln["source"] for ln in entry.railhead_lines(ctx, item, "0603")] == SUPPLY
