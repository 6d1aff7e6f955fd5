"""The tools on the second game: render (a legend for this map), ask (answers citing Battle for
Moscow cases), lint and rules check."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main

SCENARIO = "games/battle_for_moscow/scenarios/campaign.yaml"


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
    assert ">Canal<" in m41.read_text() and "Fortification hex" not in m41.read_text()


def test_ask_attack_cites_bfm_cases(repo_root):
    """The attack's answer cites Battle for Moscow's own cases: the odds (BM8.2A) and the die
    (BM8.4); no column shift moved 3:1, so no BM8.3 (a shift's case is cited where one fired)."""
    r = _run(repo_root, "ask", SCENARIO, "attack", "0304", "--with", "g-ix,g-xl-pz", "--json")
    assert r.exit_code == 0, r.output
    a = json.loads(r.output)
    assert (a["attack_strength"], a["defense_strength"], a["column"]) == (15, 4, "3:1")
    # BM8.5: the CRT row listed cites it (an answer holds its lines' cases, session 16)
    assert a["cases"] == ["BM8.2A", "BM8.4", "BM8.5"] and len(a["outcomes"]) == 6


def test_lint_and_rules_check_pass(repo_root):
    assert _run(repo_root, "lint", "games/battle_for_moscow").exit_code == 0
    r = _run(repo_root, "rules", "check", "battle_for_moscow")
    assert r.exit_code == 0 and "column_shift" in r.output


def test_human_header_shows_only_what_the_game_has(bfm, m41):
    """Battle for Moscow has no IPs and no temperature: the header shows its ground (mud turns);
    Moscow '41's header keeps its IPs and weather."""
    from casebook.core.game import Game
    from casebook.tools.human import position_header

    state = Game(bfm, "campaign").new_initial_state(seed=1)
    header = position_header(state, "german")
    assert header == f"Turn 1 · german_turn / {state.data.step} · german to decide · ground dry"
    m = Game(m41, "october-blitz").new_initial_state(seed=1)
    d, w = m.data, m.data.weather or {}
    assert position_header(m, "german") == (
        f"Turn {d.turn} · {d.phase} / {d.step} · german to decide · "
        f"IP german {d.track('ip', 'german')}, soviet {d.track('ip', 'soviet')} · "
        f"RP german infantry {d.track('rp', 'german', 'infantry')}, armor {d.track('rp', 'german', 'armor')}, "
        f"soviet infantry {d.track('rp', 'soviet', 'infantry')}, armor {d.track('rp', 'soviet', 'armor')} · "
        f"FP normal {d.track('fp', 'normal')}, moscow {d.track('fp', 'moscow')} · "
        f"weather {w.get('temperature', '?')}/{w.get('ground', '?')}")


@pytest.mark.case("BM8.5")
def test_BM8_5_lint_and_load_refuse_unknown_crt_result_codes(repo_root, tmp_path):
    """A result code outside BM8.5A-F in the CRT or in a reading is a content error at load/lint
    (file:line:column and key, all at once), never a traceback in play."""
    import shutil

    from casebook.content.loader import load_pack
    from casebook.core.errors import ContentError

    pack = tmp_path / "bfm"
    shutil.copytree(repo_root / "games" / "battle_for_moscow", pack)
    crt, readings = pack / "tables" / "crt.yaml", pack / "tables" / "crt_readings.yaml"
    crt.write_text(crt.read_text().replace('"1:1": {1: DR, 2: EX', '"1:1": {1: DR, 2: DX'))
    readings.write_text(readings.read_text().replace("roll: 3, result: EX}", "roll: 3, result: QQ}"))
    r = _run(repo_root, "lint", str(pack))
    assert r.exit_code == 1
    crt_line = next(i for i, t in enumerate(crt.read_text().splitlines(), 1) if "2: DX" in t)
    col = crt.read_text().splitlines()[crt_line - 1].index("2: DX") + 1   # the key of the cell
    assert f"{crt}:{crt_line}:{col}: cells.1:1.2: 'DX' is not one of the table's values: " \
        "'AL', 'DR', 'DRL', 'DE', 'EX', 'NE'" in r.output
    assert "crt_readings.yaml:" in r.output and "rows.1.result: 'QQ' is not one of the values of 'result'" in r.output
    assert r.output.rstrip().endswith(": 2 errors")
    with pytest.raises(ContentError) as exc:
        load_pack(pack)
    assert {p.key for p in exc.value.problems} == {"cells.1:1.2", "rows.1.result"}


@pytest.mark.case("BM8.5")
def test_BM8_5_crt_values_are_the_codes_the_results_plugin_applies(bfm):
    """The CRT's declared values, the readings' result values and the codes crt_results (read by the
    shared area_results) applies are the same six (AL DR DRL DE EX NE, BM8.5A-F)."""
    from casebook.content.yamlio import load_yaml

    tables = bfm.pack.dir / "tables"
    crt = load_yaml(str(tables / "crt.yaml")).data
    readings = load_yaml(str(tables / "crt_readings.yaml")).data
    codes = ["AL", "DR", "DRL", "DE", "EX", "NE"]
    assert crt["values"] == readings["values"]["result"] == [r["result"] for r in bfm.pack.records["crt_results"]] == codes
    assert readings["values"]["odds"] == crt["dims"][0]["values"]


@pytest.mark.case("BM3.4A", "BM3.4B")
def test_BM3_4_render_counts_the_units_it_draws(repo_root, tmp_path):
    """The campaign sets up 35 units on the map; the 4 of the Soviet pool (5th, 10th, 40th Armies
    and the 1st Shock Army, off the map at the start) are not drawn: the message counts what is."""
    import re

    from casebook.content.yamlio import load_yaml

    out = tmp_path / "bfm.svg"
    r = _run(repo_root, "render", "battle_for_moscow", "--scenario", "campaign", "-o", str(out))
    assert r.exit_code == 0, r.output
    units = load_yaml(str(repo_root / SCENARIO)).data["units"]
    on_map = [u for u in units if u.get("hex")]
    assert (len(on_map), len(units) - len(on_map)) == (35, 4)
    assert r.output.strip() == f"wrote {out} (35 units drawn; 4 off the map)"
    counters = [m for m in re.findall(r'<rect [^>]*rx="1.2"[^>]*>', out.read_text()) if 'width="14"' not in m]
    assert len(counters) == 35                                # the legend's two swatches are 14 wide
