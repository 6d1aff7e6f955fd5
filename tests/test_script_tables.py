"""Tables by row and column (issue #15): `table ip_costs[action: …, side: …].ip` reads one row of a
records table; `rules check` holds it to the table's fields and rows; the Initiative Point Chart
(tables/ip_costs.yaml, 0.2.2.6) is the one source of every IP cost."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.core.errors import ScriptSyntaxError
from casebook.script import compile_pack, find_rule_pack
from casebook.script.engine import Engine

ROOT = Path(__file__).resolve().parent.parent


def _ip(engine, **facts):
    return engine.rules.explain("ip_cost", facts, engine.script_tables)


@pytest.mark.case("2.1A")
def test_2_0_every_ip_cost_is_a_cell_of_the_ip_chart(m41):
    """2.1A: 1 IP for a supplied HQ, 2 (German) / 3 (Soviet) unsupplied; 2.2B: 1 a stack;
    10.4.2A: 2 / 3 IPs per support DRM; 2.5A: 1 per division; 11.1A: 1; 10.7A: 2."""
    cases = [({"ip_use": "activate_hq", "side": "german", "supplied": True}, 1),
             ({"ip_use": "activate_hq", "side": "german", "supplied": False}, 2),
             ({"ip_use": "activate_hq", "side": "soviet", "supplied": False}, 3),
             ({"ip_use": "activate_stack"}, 1),
             ({"ip_use": "combat_support", "side": "german", "support_drm": 2}, 4),
             ({"ip_use": "combat_support", "side": "soviet", "support_drm": 2}, 6),
             ({"ip_use": "remove_fatigue", "recovering_divisions": 3}, 3),
             ({"ip_use": "negate_fatigue", "side": "soviet"}, 1),
             ({"ip_use": "guards", "side": "soviet"}, 2)]
    for facts, want in cases:
        e = _ip(m41, **facts)
        assert e.value == want, facts
        fired = [ln for ln in e.lines if ln.fired and ln.kind == "term"]
        assert fired and "table ip_costs[" in fired[0].text, facts


@pytest.mark.case("10.4.2A")
def test_10_4_2A_editing_the_chart_in_a_copy_changes_the_cost(tmp_path):
    shutil.copytree(ROOT / "games" / "moscow41", tmp_path / "moscow41", ignore=shutil.ignore_patterns("golden"))
    chart = tmp_path / "moscow41" / "tables" / "ip_costs.yaml"
    text = chart.read_text(encoding="utf-8")
    old = '{action: "combat_support", side: "soviet", ip: 3,'
    assert text.count(old) == 1
    chart.write_text(text.replace(old, '{action: "combat_support", side: "soviet", ip: 2,'), encoding="utf-8")
    engine = Engine.load(tmp_path / "moscow41")
    e = _ip(engine, ip_use="combat_support", side="soviet", support_drm=2)
    assert e.value == 4
    lines = (tmp_path / "moscow41" / "rules" / "initiative.rules").read_text(encoding="utf-8").split("\n")
    at = next(i for i, t in enumerate(lines, 1) if 'table ip_costs[action: "combat_support", side: "soviet"]' in t)
    assert [ln.source for ln in e.lines if ln.fired and ln.kind == "term"] == [f"initiative.rules:{at}"]


def _check(tmp_path, line: str) -> str:
    shutil.copytree(ROOT / "games" / "moscow41", tmp_path / "m", ignore=shutil.ignore_patterns("golden"))
    script = tmp_path / "m" / "rules" / "initiative.rules"
    script.write_text(script.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_pack(find_rule_pack(tmp_path / "m"))
    return str(exc.value)


def test_a_row_term_is_checked_against_the_tables_fields_and_rows(tmp_path):
    text = _check(tmp_path, "quantity x = first by 2.0\n  otherwise table ip_costs[action: \"activate_hq\"].ip by 2.0\n"
                  "quantity y = first by 2.0\n  otherwise table ip_costs[acton: \"guards_status\"].ip by 2.0\n"
                  "quantity z = first by 2.0\n  otherwise table ip_costs[action: \"guard_status\"].cost by 2.0\n")
    assert "`ip_costs[action: activate_hq]` selects 3 rows of the table" in text
    assert "table `ip_costs` has no field `acton`" in text and "did you mean `action`?" in text
    assert "`guard_status` is not one of" in text and "did you mean `guards_status`?" in text
    assert "table `ip_costs` has no field `cost`" in text


@pytest.mark.case("9.2A")
def test_9_2A_a_chart_is_read_by_row_and_column_too(tmp_path, m41):
    """9.2A: the TEC cell of a terrain, a unit and a ground column — `table tec[…]` is `lookup tec(…)`."""
    shutil.copytree(ROOT / "games" / "moscow41", tmp_path / "m", ignore=shutil.ignore_patterns("golden"))
    script = tmp_path / "m" / "rules" / "movement.rules"
    script.write_text(script.read_text(encoding="utf-8") + "quantity tec_cell = first by 9.2A\n"
                      '  otherwise table tec[terrain: "forest", unit: "armor", column: "mud"]  by 9.2A\n',
                      encoding="utf-8")
    engine = Engine.load(tmp_path / "m")
    assert engine.rules.value("tec_cell", {}, engine.script_tables) == \
        m41.pack.tables["tec"].lookup(terrain="forest", unit="armor", column="mud")
    text = _check(tmp_path / "x", 'quantity y = first by 2.0\n  otherwise table tec[terrain: "forest"] by 2.0\n')
    assert "table `tec` also needs unit, column" in text
