"""``ask retreat`` and the retreat prompt list the same paths (issue #18), on the full Moscow '41
engine: 6.2F (rulebook: "If no other route is available, a unit can retreat into a
friendly-occupied hex, resulting in an overstack situation") is applied by both, through the
stacking area's validator of the ``retreat`` action.

Inline 8 x 8 map (flat-top-even-q): 0303 touches 0302, 0304, 0202, 0203, 0402, 0403. 0304 holds
a German division and a regiment, the German stacking limit (6.0A).
"""

from __future__ import annotations

import pytest

from casebook.areas._results_retreat import retreat_options
from casebook.games.moscow41.plugins import results
from tests.conftest import m41_inline

G_DIV = "side: german, class: infantry, size: division, strength: 7, ma: 4"
G_REG = "side: german, class: armor, size: regiment, strength: 4, ma: 8"
S_DIV = "side: soviet, class: infantry, size: division, strength: 6, ma: 4"


def pos(units):
    lines = "".join(f'  - {{id: {uid}, {kind}, hex: "{h}"}}\n' for uid, kind, h in units)
    return m41_inline(lines, step="combat", phasing="soviet", turn=None, ip=None)


FULL = [("d1", G_DIV, "0304"), ("r1", G_REG, "0304"), ("g1", G_DIV, "0303")]


@pytest.mark.case("6.2F", "11.2B")
def test_6_2F_no_retreat_into_an_overstack_while_another_route_is_open(position):
    ctx = position(pos(FULL))
    paths = [o["path"] for o in retreat_options(ctx, results.setup(ctx), ["g1"], "0303", "german", 1)]
    assert ["0304"] not in paths and ["0302"] in paths
    asked = results.retreat_answer(ctx, "g1", 1)
    assert [o["path"] for o in asked["options"]] == paths


@pytest.mark.case("6.2F")
def test_6_2F_the_overstack_is_the_only_route_left(position):
    ring = [(f"s{i}", S_DIV, h) for i, h in enumerate(["0202", "0203", "0302", "0402", "0403"])]
    ctx = position(pos(FULL + ring))
    paths = [o["path"] for o in retreat_options(ctx, results.setup(ctx), ["g1"], "0303", "german", 1)]
    assert paths == [["0304"]]
    assert [o["path"] for o in results.retreat_answer(ctx, "g1", 1)["options"]] == [["0304"]]
