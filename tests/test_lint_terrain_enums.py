"""Enums that must agree (content/crossref.py): every enum fact named ``terrain`` or
``…_terrain`` of ``rules/facts.yaml`` (Moscow '41's ``defender_terrain``, 10.4B) lists the values of
the ``map_hexes.terrain`` enum (9.2A: the terrains of the map), no more and no fewer — docs/modding.md
recipe 32 and 36 tell the modder to add a new terrain to both. Checked by ``casebook lint`` and every
pack load, located at file:line:column with the key, a did-you-mean, and reported with the other
problems of the load, all at once. On a copy of the Moscow '41 pack."""

from __future__ import annotations

import pytest

from casebook.content.loader import load_pack
from casebook.core.errors import ContentError
from tests._pack_edits import copy_edited, edit, line_of, lint_errors

MAP_ENUM = "      terrain: {type: enum, values: [clear, forest, swamp]}"
DEFENDER = "  defender_terrain: {type: enum, values: [clear, forest, swamp],"


@pytest.mark.case("9.2A", "10.4B")
def test_9_2A_a_map_terrain_missing_from_defender_terrain_is_located_with_the_other_problems(tmp_path):
    pack = copy_edited(tmp_path, "rules/facts.yaml", (MAP_ENUM, MAP_ENUM.replace("swamp]", "swamp, hills]")),
                       (DEFENDER, DEFENDER.replace("forest,", "forrest,")))
    edit(pack / "map.yaml", "'0116': forest", "'0116': hills")  # another problem of the same load: the TEC lacks hills
    facts = pack / "rules" / "facts.yaml"
    text = facts.read_text(encoding="utf-8").splitlines()
    n, m = line_of(facts, "  defender_terrain: {"), line_of(facts, MAP_ENUM.replace("swamp]", "swamp, hills]"))
    values, typo = text[n - 1].index("values:") + 1, text[n - 1].index("forrest") + 1
    at = f"{facts}:{m}:{text[m - 1].index('values:') + 1}"
    out = lint_errors(pack)
    assert (f"facts.yaml:{n}:{typo}: facts.defender_terrain.values.1: 'forrest' is not a terrain of the fact "
            f"map_hexes.terrain (clear, forest, swamp, hills) at {at} (did you mean 'forest'?)") in out, out
    assert (f"facts.yaml:{n}:{values}: facts.defender_terrain.values: lacks 'forest', 'hills' of the fact "
            f"map_hexes.terrain (clear, forest, swamp, hills) at {at}: an enum of a terrain lists every terrain "
            "of the map (add it here too)") in out, out
    assert "terrain.0116: terrain 'hills' is not a row of table 'tec'" in out  # all at once
    with pytest.raises(ContentError) as refused:                             # every load, not lint alone
        load_pack(pack)
    keys = [p.key for p in refused.value.problems]
    assert "facts.defender_terrain.values" in keys and "facts.defender_terrain.values.1" in keys
    assert "terrain.0116" in keys


@pytest.mark.case("9.2A", "10.4B")
def test_9_2A_both_enums_with_the_new_terrain_agree(tmp_path):
    pack = copy_edited(tmp_path, "rules/facts.yaml", (MAP_ENUM, MAP_ENUM.replace("swamp]", "swamp, hills]")),
                       (DEFENDER, DEFENDER.replace("swamp],", "swamp, hills],")))
    edit(pack / "map.yaml", "'0116': forest", "'0116': hills")
    out = lint_errors(pack)  # the TEC still lacks the row: that alone is left
    assert "terrain.0116: terrain 'hills' is not a row of table 'tec'" in out
    assert "defender_terrain" not in out and "map_hexes.terrain" not in out, out
