"""A row of Moscow '41's tables/weather_effects.yaml (read by src/casebook/areas/weather_effects.py)
asking a quantity the rule scripts lack, or with a label placeholder the area does not fill, passed
lint in a fresh-user trial and then printed ``mahh: not computed`` and a literal ``{valu}``; now lint
locates each at its row's field with a did-you-mean and ``Engine.load`` refuses the pack."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.areas import weather_effects
from casebook.script.engine import Engine
from tests._pack_edits import copy_edited, line_of, located_and_refused

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.case("4.0")
def test_4_0_a_weather_effect_asking_no_quantity_or_with_an_unfilled_label_is_located(tmp_path):
    pack = copy_edited(tmp_path, "tables/weather_effects.yaml",
                       ('{report: value, ask: tec_column, label: "TEC column {value}"}',
                        '{report: value, ask: mahh, label: "TEC column {valu}"}'),
                       ('label: "no unit possesses a ZOC"', 'label: "no unit possesses a ZOC ({value})"'))
    table = pack / "tables" / "weather_effects.yaml"
    row, zoc = line_of(table, "ask: mahh"), line_of(table, "possesses a ZOC")
    located_and_refused(pack, [
        f"{table}:{row}:21: rows.4.ask: the rules have no quantity 'mahh' (did you mean 'ma'?)",
        f"{table}:{row}:32: rows.4.label: placeholder {{valu}} is not filled in (this label has {{value}}, "
        "{ground}, {temperature}) (did you mean 'value'?)",
        # a forbidden row has no value to fill in
        f"{table}:{zoc}:6: rows.6.label: placeholder {{value}} is not filled in (this label has {{ground}}, "
        "{temperature})"], "no quantity 'mahh'")


def test_every_row_of_the_shipped_table_passes():
    """The check is not vacuous on the pack: each shipped row names a quantity or permission of
    the compiled rules and fills every placeholder it uses."""
    engine = Engine.load(ROOT / "games" / "moscow41")
    rows = engine.pack.records["weather_effects"]
    assert len(rows) > 5
    assert [p for row in rows for p in weather_effects.row_problems(row, engine.rules)] == []
    assert weather_effects.row_problems({"report": "forbidden", "ask": "ma", "label": "x"}, engine.rules) == \
        [("ask", "the rules have no permission 'ma'")]
