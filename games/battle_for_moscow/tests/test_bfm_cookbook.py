"""The modder's cookbook (docs/modding.md), Battle for Moscow recipes: applied to a copy of the pack
by games/moscow41/tests/test_cookbook.py's `cooked` (each recipe line must be in docs/modding.md)."""

from __future__ import annotations

import pytest

from games.moscow41.tests.test_cookbook import cooked


@pytest.mark.case("BM8.6A")
def test_recipe_14_bfm_soviet_units_retreat_three_hexes(tmp_path):
    rules = cooked(tmp_path, "movement.rules", ("after", "  otherwise 2 by BM8.6A\n",
                                                "  3 by BM8.6A  when side is soviet"), game="battle_for_moscow")
    assert rules.value("retreat_hexes", {"side": "soviet"}) == 3
    assert rules.value("retreat_hexes", {"side": "german"}) == 2


@pytest.mark.case("BM8.3D")
def test_recipe_15_bfm_a_river_shift_when_any_attacker_crosses(tmp_path):
    rules = cooked(tmp_path, "combat.rules", ("replace", "  -1 by BM8.3D  when all attackers have across_river",
                                              "  -1 by BM8.3D  when any attacker has across_river"),
                   game="battle_for_moscow")
    one_across = {"attackers": [{"across_river": True}, {"across_river": False}], "defender_terrain": "clear",
                  "defender_in_moscow": False, "defender_side": "german", "defender_fortified": False}
    assert rules.value("column_shift", one_across) == -1
    assert rules.value("column_shift", {**one_across, "attackers": [{"across_river": False}]}) == 0
