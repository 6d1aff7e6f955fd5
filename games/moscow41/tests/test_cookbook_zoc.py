"""The modder's cookbook, recipe 37 (docs/modding.md): several ZOCs add up on a fluid step EZOC
to EZOC — 7.0F's line `forbid add_zoc_effects` of zoc.rules replaced by a permit on a copy of the
Moscow '41 pack (no Python). The test checks the changed answers (`casebook ask … move` and
`… reach --pack COPY`, as a player sees them) and the line each names; every edit and position
line used here is text of docs/modding.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.moscow41.tests.test_cookbook import DOC
from games.moscow41.tests.test_cookbook_areas import EXAMPLES, _in_doc, _sources, ask, cook, position

S1 = '  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0505"}'
S2 = '  - {id: s2, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0604"}'
PATH = ("0104", "0204", "0304", "0404", "0504")


def _two(tmp_path: Path) -> Path:
    """docs/examples/reach-move.yaml with s2 in 0604: s1 and s2 both exert a ZOC into 0504."""
    _in_doc(S2)
    return position(tmp_path, "reach-move.yaml", S1, f"{S1}\n{S2}")


@pytest.mark.case("7.0F", "7.3")
def test_recipe_37_several_zocs_add_up_on_a_fluid_step(tmp_path):
    line = "forbid add_zoc_effects by 7.0F"
    pack = cook(tmp_path, "rules/zoc.rules", (line, "permit add_zoc_effects by 7.0F"))
    two = _two(tmp_path)
    before, after = ask(two, "move", *PATH), ask(two, "move", *PATH, pack=pack)
    assert (before["legal"], before["mp_spent"], before["steps"][-1]["cost"]) == (True, 5, 2)
    assert (after["legal"], after["mp_spent"], after["steps"][-1]["cost"]) == (True, 6, 3)   # +1 for s1, +1 for s2
    assert _sources(before)["zoc.rules:24"] == line and "zoc.rules:24" in DOC
    assert _sources(after)["zoc.rules:24"] == "permit add_zoc_effects by 7.0F"
    assert _sources(after)["movement.rules:23"] == _sources(before)["movement.rules:23"] == (
        "+1 * zoc_effects by 7.3   when fluid_ezoc_to_ezoc")
    assert "movement.rules:23" in DOC and "7.0F" in after["cases"]
    # s1 alone: one ZOC, nothing for 7.0F to decide — the same 5 MP, no line 24 named
    alone = [ask(EXAMPLES / "reach-move.yaml", "move", *PATH, pack=p) for p in (None, pack)]
    assert [a["mp_spent"] for a in alone] == [5, 5]
    assert all("zoc.rules:24" not in _sources(a) and "7.0F" not in a["cases"] for a in alone)


@pytest.mark.case("7.0F", "7.3")
def test_recipe_37_reach_prices_several_zocs_as_the_move_does(tmp_path):
    pack = cook(tmp_path, "rules/zoc.rules", ("forbid add_zoc_effects by 7.0F", "permit add_zoc_effects by 7.0F"))
    swamps = '"0603": swamp, "0403": swamp, "0503": swamp'
    _in_doc('"0403": swamp, "0503": swamp')
    text = _two(tmp_path).read_text(encoding="utf-8")
    start = tmp_path / "p1-in-0404.yaml"
    start.write_text(text.replace('ma: 8, hex: "0104"', 'ma: 8, hex: "0404"').replace('"0603": swamp', swamps),
                     encoding="utf-8")
    before, after = ask(start, "reach", "0404"), ask(start, "reach", "0404", pack=pack)
    assert (before["hexes"]["0504"], after["hexes"]["0504"]) == (2, 3)
    moved = ask(start, "move", "0404", "0504", pack=pack)
    assert moved["mp_spent"] == after["hexes"]["0504"] == 3                  # one code path: ask move, reach
    # "Deleting the line does the same, with no line to name."
    _in_doc("Deleting the line does the same, with no line to name.")
    deleted = cook(tmp_path / "deleted", "rules/zoc.rules", ("forbid add_zoc_effects by 7.0F\n", "\n"))
    gone = ask(start, "move", "0404", "0504", pack=deleted)
    assert gone["mp_spent"] == 3 and not any(s.startswith("zoc.rules:24") for s in _sources(gone))
