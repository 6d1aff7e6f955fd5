"""Issue #15 deliverable 3: a combat answer and a combat event name the lines that decided them, and
only those. Where the terrain DRM line (10.4B: ``table combat_modifiers[id: defender_terrain_row].drm``)
fires, the Combat Modifiers Chart row it read is named beside it (``tables/combat_modifiers.yaml``,
the row ``terrain_<town kind or terrain>``); a defender in clear names neither. The stacking lines
that compute an attacker's ``overstacked`` fact are read apart: an attack whose stacks are not
overstacked names none of them (6.1's HQ line was named when an HQ's +1, 6.1, was cited).

docs/examples/attack.yaml: g1 (0303) and g2 (0403) attack s1 in the forest 0304."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.hexgrid import parse_hex
from casebook.tools.cli import cli
from tests._pack_edits import line_of
from tests.conftest import played_blitz

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "games" / "moscow41"
ATTACK = (ROOT / "docs" / "examples" / "attack.yaml").read_text(encoding="utf-8")
CHART = PACK / "tables" / "combat_modifiers.yaml"
TERRAIN_LINE = f"combat.rules:{line_of(PACK / 'rules' / 'combat.rules', 'table combat_modifiers[id: defender_terrain_row]')}"


def _row(terrain: str) -> str:
    key = 'id: "terrain_' + terrain + '"'
    return f"tables/combat_modifiers.yaml:{line_of(CHART, key)}"


def _ask(tmp_path: Path, text: str, *extra: str) -> dict:
    pos = tmp_path / "attack.yaml"
    pos.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(cli, ["ask", str(pos), "attack", "0304", "--with", "g1,g2", *extra, "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _sources(answer: dict) -> list[str]:
    return [ln["source"] for ln in answer["lines"]]


@pytest.mark.case("10.4B")
def test_10_4B_ask_attack_names_the_combat_modifiers_row_of_the_terrain_drm(tmp_path):
    forest = _ask(tmp_path, ATTACK, "--roll", "8")
    assert (TERRAIN_LINE, _row("forest")) == ("combat.rules:15", "tables/combat_modifiers.yaml:26")
    assert ("10.4B", -1, TERRAIN_LINE) in [(t["case"], t["value"], t["source"]) for t in forest["drm"]["terms"]]
    [row] = [ln for ln in forest["lines"] if ln["source"].startswith("tables/combat_modifiers.yaml")]
    assert row == {"source": "tables/combat_modifiers.yaml:26", "cases": ["10.4B"], "text": (
        '- {id: "terrain_forest", drm: -1, applies: "defender in forest", side: "any", provenance: '
        '"reconstructed: era-typical terrain DRM (10.4B names terrain modifiers; values not in the text)"}')}
    assert _sources(forest).index(TERRAIN_LINE) < _sources(forest).index(_row("forest"))
    # a defender in clear: no terrain DRM, no line of it, no row of the chart
    clear = _ask(tmp_path, ATTACK.replace('"0304": forest', '"0304": clear'), "--roll", "8")
    assert not [s for s in _sources(clear) if s == TERRAIN_LINE or s.startswith("tables/combat_modifiers")]


@pytest.mark.case("10.4B")
def test_10_4B_a_city_replaces_the_hex_terrain_and_its_row_is_named(tmp_path):
    city = ATTACK.replace('  hexsides:', '  towns: {"0304": {name: Testgrad, kind: city, ip: 2}}\n  hexsides:')
    answer = _ask(tmp_path, city)
    assert ("10.4B", -2, TERRAIN_LINE) in [(t["case"], t["value"], t["source"]) for t in answer["drm"]["terms"]]
    assert [s for s in _sources(answer) if s.startswith("tables/combat_modifiers")] == [_row("city")]
    assert _row("city") == "tables/combat_modifiers.yaml:29"   # not the forest's: the city replaces it
    [row] = [ln for ln in answer["lines"] if ln["source"] == _row("city")]
    assert row["cases"] == ["10.4B"] and "10.4B" in answer["cases"]  # its provenance names 10.4B (rows17)


@pytest.mark.case("6.1", "10.6A", "6.2D")
def test_6_1_an_attack_with_an_hq_names_its_plus_one_not_the_stacking_lines_of_its_stacks(tmp_path):
    # HQ gh stacked with the attacker g1, HQ sh with the defender s1: +1 to s1's strength (6.1, 10.6A)
    hqs = ATTACK.replace('limit: 3, hex: "0302"', 'limit: 3, hex: "0303"').replace('hex: "0406"}', 'hex: "0304"}')
    assert hqs.count('"0303"') == 3 and hqs.count('"0304"') == 4
    for extra in ((), ("--support", "2,0")):
        answer = _ask(tmp_path, hqs, *extra)
        assert "6.1" in answer["cases"] and "combat.rules:38" in _sources(answer)
        assert not [s for s in _sources(answer) if s.startswith("stacking.rules")]   # 6.2D's DRM did not fire


@pytest.mark.case("10.4B")
def test_10_4B_a_combat_event_names_the_chart_row_where_the_terrain_line_fired():
    state = played_blitz(49)  # the 49th action attacks 0915, a forest hex
    combats = [e for e in state.trace if e.kind == "combat"]
    assert combats
    board = state.game.engine.ctx(state.data).board
    checked = 0
    for event in combats:
        sources = [ln["source"] for ln in event.data["lines"]]
        fired = any(t["source"] == TERRAIN_LINE for t in event.data["terms"])
        rows = [s for s in sources if s.startswith("tables/combat_modifiers")]
        if not fired:
            assert rows == []
            continue
        info = board.hex(parse_hex(event.data["hex"]))
        kind = (info.town or {}).get("kind") or info.terrain
        assert rows == [_row(kind)]
        checked += 1
        assert sources.index(TERRAIN_LINE) < sources.index(rows[0]) < sources.index(
            next(s for s in sources if s.startswith("tables/crt.yaml")))
    assert checked == 1 and combats[-1].data["hex"] == "0915"
    assert [ln for ln in combats[-1].data["lines"] if ln["source"].startswith("tables/combat_m")] == [
        {"source": "tables/combat_modifiers.yaml:26", "cases": ["10.4B"]}]
