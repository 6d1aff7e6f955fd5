"""What the shared combat and ZOC areas cite and ask comes from Moscow '41's own data (issue #15:
an area holds no case id): the manifest's ``area_cases:`` (the steps no rule line states) and
the ``counts_as_combat_unit`` lines of zoc.rules (which units lift an EZOC). Editing the data
changes the answer; no Python is touched."""

from __future__ import annotations

from games.moscow41.tests.test_moved_rules_b import edited
from tests._pack_edits import engine_edited
from tests.conftest import make_ctx

UNITS = """kind: position
format: 1
game: moscow41
turn: 5
phase: first_player
step: combat
phasing: german
units:
  - {counter: g-6id, hex: '0614'}
  - {counter: s-rem-01, hex: '0615'}
"""


def test_7_5A_a_remnant_is_no_combat_unit_by_the_counts_as_combat_unit_line(m41, tmp_path):
    """7.5A, 11.3D: a retreat may enter an EZOC hex only with a friendly combat unit other than a
    remnant there — the remnant in 0615 does not lift the German EZOC; without the zoc.rules line
    that says a remnant is no combat unit, it does."""
    from casebook.areas import zoc

    answer = zoc.zoc_answer(make_ctx(m41, UNITS), "0615", "soviet")
    assert answer["exerted_by"] == ["g-6id"]
    assert answer["friendly_combat_unit"] is False and answer["blocks_retreat"] is True
    free = edited(m41, tmp_path, "zoc.rules", "forbid counts_as_combat_unit by 11.3D  when unit_class is remnant", "")
    answer = zoc.zoc_answer(make_ctx(free, UNITS), "0615", "soviet")
    assert answer["friendly_combat_unit"] is True and answer["blocks_retreat"] is False


def test_10_3A_an_attack_on_an_empty_hex_cites_the_manifests_area_cases(m41, tmp_path):
    """10.3A: the combat area's refusal of an attack on a hex without an enemy unit cites what
    the manifest's ``area_cases: combat: no_target`` gives (10.3A); a copy of the pack that gives
    another case cites that one."""
    from casebook.areas._combat_rules import attack_refusals
    (refused,) = attack_refusals(make_ctx(m41, UNITS), "german", "0616", ["g-6id"], "attack")
    assert refused.cases == ("10.3A",) and refused.reason == "no enemy unit in hex 0616 to attack"
    other = engine_edited(tmp_path, "game.yaml", ('no_target: ["10.3A"]', 'no_target: ["10.1A"]'))
    (refused,) = attack_refusals(make_ctx(other, UNITS),
                                 "german", "0616", ["g-6id"], "attack")
    assert refused.cases == ("10.1A",)


def test_9_2A_a_mechanized_hq_reads_the_mechanized_row_by_the_chart_row_line(m41, tmp_path):
    """9.2A (interpretation hq-movement-class): an HQ marked mechanized is read on the
    mechanized row of the ZOC Chart and the TEC — zoc.rules' ``chart_row`` line; without it, on
    its own class's row (hq)."""
    from casebook.areas._zoc_map import chart_row

    text = UNITS + "  - {counter: g-xxxxi-pz, hex: '0612'}\n  - {counter: g-xii, hex: '0611'}\n"
    ctx = make_ctx(m41, text)
    assert [chart_row(ctx, ctx.state.unit(u)) for u in ("g-xxxxi-pz", "g-xii", "g-6id")] == \
        ["mechanized", "hq", "infantry"]
    plain = edited(m41, tmp_path, "zoc.rules", "  mechanized  by 9.2A  when unit_class is hq and unit_mechanized "
                   "and hq_movement_class is by_mechanized", "")
    ctx = make_ctx(plain, text)
    assert chart_row(ctx, ctx.state.unit("g-xxxxi-pz")) == "hq"
