"""The tools on the second game: render (a legend for this map), ask (answers citing Battle for
Moscow cases), lint and rules check."""

from __future__ import annotations

import json

from click.testing import CliRunner

from casebook.tools.cli import cli as main

SCENARIO = "content/battle_for_moscow/scenarios/campaign.yaml"


def _run(repo_root, *args):
    import os

    old = os.getcwd()
    os.chdir(repo_root)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


def test_render_draws_the_bfm_map_with_its_own_legend(repo_root, tmp_path):
    out = tmp_path / "bfm.svg"
    r = _run(repo_root, "render", "battle_for_moscow", "--scenario", "campaign", "-o", str(out))
    assert r.exit_code == 0, r.output
    svg = out.read_text()
    assert "Fortification hex" in svg and "Rail line" in svg and ">Moscow<" in svg
    assert "Swamp" not in svg and "canal" not in svg and "entry area" not in svg
    assert svg.count('stroke-dasharray="3,1.5"') >= 22 + 1   # 22 fortification hexes + the swatch
    m41 = tmp_path / "m41.svg"
    assert _run(repo_root, "render", "moscow41", "-o", str(m41)).exit_code == 0
    assert "Moscow-Volga canal" in m41.read_text() and "Fortification hex" not in m41.read_text()


def test_ask_attack_cites_bfm_cases(repo_root):
    r = _run(repo_root, "ask", SCENARIO, "attack", "0304", "--with", "g-ix,g-xl-pz", "--json")
    assert r.exit_code == 0, r.output
    a = json.loads(r.output)
    assert (a["attack_strength"], a["defense_strength"], a["column"]) == (15, 4, "3:1")
    assert a["cases"] == ["BM8.2A", "BM8.3", "BM8.4"] and len(a["outcomes"]) == 6


def test_lint_and_rules_check_pass(repo_root):
    assert _run(repo_root, "lint", "content/battle_for_moscow").exit_code == 0
    r = _run(repo_root, "rules", "check", "battle_for_moscow")
    assert r.exit_code == 0 and "column_shift" in r.output


def test_human_header_shows_only_what_the_game_has(bfm, m41):
    """Battle for Moscow has no IPs and no temperature: the header shows its ground (mud turns);
    Moscow '41's header keeps its IPs and weather."""
    from casebook.kernel.game import Game
    from casebook.tools.human import position_header

    state = Game(bfm, "campaign").new_initial_state(seed=1)
    header = position_header(state, "german")
    assert header == f"Turn 1 · german_turn / {state.data.step} · german to decide · ground dry"
    m = Game(m41, "october-blitz").new_initial_state(seed=1)
    d, w = m.data, m.data.weather or {}
    assert position_header(m, "german") == (
        f"Turn {d.turn} · {d.phase} / {d.step} · german to decide · "
        f"IPs german {d.ip('german')} soviet {d.ip('soviet')} · "
        f"weather {w.get('temperature', '?')}/{w.get('ground', '?')}")
