"""A position's own inline ``map:`` is checked on load as lint checks a pack's map
(content/crossref.py): a terrain id that is not a row of the Terrain Effects Chart (9.2A: play
failed on it only when a move was costed, with an unlocated "evaluating move_cost: … was not
given") or not a value of the ``map_hexes.terrain`` enum of facts.yaml is refused at its
file:line:column and key, the position whole (exit 1 in `ask` and `play --load`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security._secutil import run

ROOT = Path(__file__).resolve().parents[1]
ATTACK = ROOT / "docs" / "examples" / "attack.yaml"


def _edited(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """docs/examples/attack.yaml with ``old`` replaced by ``new``, and where ``new`` starts (line:column)."""
    text = ATTACK.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "attack.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    line = next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if new in ln)
    column = path.read_text(encoding="utf-8").splitlines()[line - 1].index(new) + 1
    return path, f"{path}:{line}:{column}"


@pytest.mark.case("9.2A")
def test_9_2A_an_inline_map_terrain_missing_from_the_tec_and_the_facts_is_refused_located(tmp_path):
    path, at = _edited(tmp_path, '"0304": forest', '"0304": hills')
    code, out = run("ask", path, "attack", "0304", "--with", "g1,g2")
    assert code == 1 and "Traceback" not in out and "was not given" not in out, out
    assert f"{at}: map.terrain.0304: terrain 'hills' is not a row of table 'tec' (city, clear, forest, " in out
    assert (f"{at}: map.terrain.0304: terrain 'hills' is not a value of the fact map_hexes.terrain "
            "(clear, forest, swamp) at games/moscow41/rules/facts.yaml:") in out
    code, out = run("play", "--load", path, "--player", "german=bot:greedy", "--player", "soviet=bot:greedy",
                    "--quiet", "--out", tmp_path / "out")
    assert code == 1 and f"{at}: map.terrain.0304: terrain 'hills' is not a row of table 'tec'" in out, out
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.case("9.2A")
def test_9_2A_a_tec_row_that_is_not_a_map_terrain_and_a_bad_default_are_refused_whole(tmp_path):
    from casebook.content.position import PositionError, load_position

    # `town` is a row of the TEC (a town replaces the hex terrain) but not a hex terrain of map_hexes
    path, at = _edited(tmp_path, '{default: clear, "0304": forest}', '{default: swampy, "0304": town}')
    with pytest.raises(PositionError) as refused:
        load_position(path)
    found = {(p.key, p.message.split(" (")[0]) for p in refused.value.problems}
    assert found == {("map.terrain.default", "terrain 'swampy' is not a row of table 'tec'"),
                     ("map.terrain.default", "terrain 'swampy' is not a value of the fact map_hexes.terrain"),
                     ("map.terrain.0304", "terrain 'town' is not a value of the fact map_hexes.terrain")}
    assert all(f"{p.file}:{p.line}" == at.rsplit(":", 1)[0] for p in refused.value.problems)
    # the example itself (clear and forest) loads
    assert load_position(ATTACK).map is not None


@pytest.mark.case("9.2A")
def test_9_2A_a_position_load_reads_no_facts_file_for_the_map_terrain_enum(tmp_path, monkeypatch):
    """The ``map_hexes.terrain`` enum an inline map is checked against is the pack's compiled facts
    declaration (read once per pack: script/pack.py ``pack_facts``), not facts.yaml read again at
    every position load; the refusal is the same, located in facts.yaml as before."""
    from casebook.content.loader import load_pack
    from casebook.content.position import PositionError, load_position

    pack = load_pack("moscow41")
    path, at = _edited(tmp_path, '"0304": forest', '"0304": hills')
    with pytest.raises(PositionError) as first:
        load_position(path, pack=pack)
    read: list[str] = []
    for name in ("read_bytes", "read_text", "open"):
        real = getattr(Path, name)

        def spy(self, *args, _real=real, **kwargs):
            read.append(str(self))
            return _real(self, *args, **kwargs)
        monkeypatch.setattr(Path, name, spy)
    with pytest.raises(PositionError) as again:
        load_position(path, pack=pack)
    assert [str(p) for p in again.value.problems] == [str(p) for p in first.value.problems]
    assert any(p.key == "map.terrain.0304" and "is not a value of the fact map_hexes.terrain (clear, forest, swamp) "
               "at games/moscow41/rules/facts.yaml:" in p.message for p in again.value.problems)
    assert str(path) in read and not [f for f in read if f.endswith("facts.yaml")], read
