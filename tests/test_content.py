"""kernel.content: load_pack of the mini pack, errata overlays, cross-file checks, snapshots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.content.loader import find_pack, load_pack, scan_pack
from casebook.content.pack import Pack
from casebook.content.provenance import effective_provenance
from casebook.core.errors import ContentError


@pytest.fixture
def pack(mini_pack) -> Pack:
    return load_pack(mini_pack)


@pytest.fixture
def copy(mini_pack, tmp_path, monkeypatch) -> Path:
    """A writable copy of the mini pack; the working directory is its parent (stable paths)."""
    dest = tmp_path / "mini"
    shutil.copytree(mini_pack, dest)
    monkeypatch.chdir(tmp_path)
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _errors(pack_dir) -> list[str]:
    with pytest.raises(ContentError) as exc:
        load_pack(pack_dir)
    return [str(p) for p in exc.value.problems]


def test_mini_pack_loads_everything(pack):
    assert pack.id == "mini" and pack.manifest["plugins"] == []
    assert len(pack.cases) == 11 and pack.cases["0.7.3.3"]["title"] == "Step 3: Movement"
    assert [s["id"] for s in pack.sequence["phases"][0]["steps"]] == ["movement", "combat"]
    assert pack.map["size"] == {"columns": 6, "rows": 6}
    assert pack.counters["g-1id"]["strength"] == 7
    assert pack.tables["tec"].dims == (("terrain", ("clear", "forest", "city")), ("mover", ("foot", "mech")))
    assert pack.tables["tec"].lookup(terrain="forest", mover="mech") == 3
    assert pack.tables["tec"].provenance_of(terrain="forest", mover="mech").startswith("reconstructed: mechanized")
    assert pack.records["calendar"][2] == {"turn": 3, "date": "1941-10-16", "temperature_drm": 2, "ip": {"german": 6, "soviet": 7}}
    assert set(pack.scenarios) == {"skirmish"} and pack.scenarios["skirmish"].is_file()
    assert "ip-weather-multiplier-scope" in pack.interpretations
    assert pack.rule_files == ()


def test_table_lookup_refuses_bad_coordinates(pack):
    with pytest.raises(KeyError, match="swamp"):
        pack.tables["tec"].lookup(terrain="swamp", mover="foot")
    with pytest.raises(KeyError, match="coordinates"):
        pack.tables["tec"].lookup(terrain="clear")


@pytest.mark.case("0.2.4.9A")
def test_0_2_4_9A_errata_patch_applied_with_its_provenance(pack, mini_pack):
    # counters.yaml prints s-252rd at strength 6; errata/counters.yaml sets 5 (0.2.4.9A)
    assert "strength: 6" in (mini_pack / "counters.yaml").read_text()
    assert pack.counters["s-252rd"]["strength"] == 5
    counters = next(f for f in pack.files if f.kind == "counters")
    assert counters.counts == {"rulebook": 0, "errata": 1, "reconstructed": 38, "untagged": 0}
    overrides = {(("units", 3, "strength")): "errata: 0.2.4.9A"}
    assert effective_provenance({"units": [{}] * 3 + [{"strength": 5}]}, ("units", 3, "strength"), overrides) == "errata: 0.2.4.9A"
    assert pack.scenario("skirmish").units[2].strength == 5


def test_find_pack(mini_pack):
    assert find_pack(mini_pack) == mini_pack
    assert find_pack(mini_pack / "game.yaml") == mini_pack
    with pytest.raises(ContentError, match="no content pack"):
        find_pack("no-such-game")


def test_all_problems_of_all_files_at_once(copy):
    _edit(copy / "counters.yaml", "strength: 7", "strength: seven")
    _edit(copy / "map.yaml", '["0202", "0203"]', '["0202", "0204"]')
    _edit(copy / "interpretations.yaml", '"1.3A"', '"1.3Z"')
    _edit(copy / "game.yaml", "plugins: []", "plugins: [no_such_plugin]")
    _edit(copy / "tables/turn_track.yaml", "id: calendar", "id: tec")
    errors = _errors(copy)
    assert len(errors) == 5
    assert any(e.startswith("mini/counters.yaml:5:") and "units.0.strength: expected an integer, got 'seven'" in e for e in errors)
    assert any("hexsides.1.hexes: hexes 0202 and 0204 are not adjacent" in e for e in errors)
    assert any("case 1.3Z is not in the case index" in e for e in errors)
    assert any("plugins.0: plugin 'no_such_plugin' is not registered" in e for e in errors)
    assert any("duplicate table id 'tec'" in e for e in errors)


def test_plugin_names_are_never_paths(copy):
    _edit(copy / "game.yaml", "plugins: []", "plugins: [os.path]")
    (error,) = _errors(copy)
    assert "never a path" in error


def test_patch_that_does_not_resolve(copy):
    _edit(copy / "errata/counters.yaml", "{id: s-252rd}", "{id: s-999rd}")
    (error,) = _errors(copy)
    assert error.startswith("mini/errata/counters.yaml:7:") and "selector {id: s-999rd} matches no item" in error


def test_patched_value_errors_point_at_the_patch(copy):
    _edit(copy / "errata/counters.yaml", "set: 5", "set: five")
    (error,) = _errors(copy)
    assert error.startswith("mini/errata/counters.yaml:8:5: units.3.strength: expected an integer")


def test_untagged_values_are_errors_and_counted(copy):
    _edit(copy / "sequence.yaml", 'provenance: "rulebook: 0.7"\n', "")
    (error,) = _errors(copy)
    assert "untagged value: 7 value(s)" in error
    seq = next(f for f in scan_pack(copy) if f.kind == "sequence")
    assert seq.counts["untagged"] == 7


def test_scenario_problems_are_part_of_the_load(copy):
    _edit(copy / "scenarios/skirmish.yaml", "counter: g-1id", "counter: g-1ix")
    (error,) = _errors(copy)
    assert "units.0.counter: unknown counter 'g-1ix' (did you mean 'g-1id'?)" in error


def test_large_map_loads(copy):
    lines = ["kind: map", "format: 1", 'provenance: "reconstructed: generated"', "layout: flat-top-even-q",
             "size: {columns: 50, rows: 50}", "terrain:", "  default: clear"]
    lines += [f'  "{c:02d}{r:02d}": forest' for c in range(1, 51) for r in range(1, 51, 2)]
    lines.append("hexsides:")
    lines += [f'  - {{hexes: ["{c:02d}{r:02d}", "{c:02d}{r + 1:02d}"], river: true}}' for c in range(1, 51) for r in range(1, 50)]
    (copy / "map.yaml").write_text("\n".join(lines) + "\n")
    pack = load_pack(copy)
    assert len(pack.map["hexsides"]) == 50 * 49 and pack.map["terrain"]["5049"] == "forest"


BROKEN = {
    "tag": ("counters.yaml", "units:\n", "units: !!python/object:os.system\n"),
    "indent": ("map.yaml", '  "0303": forest\n', ' "0303": forest\n'),
    "duplicate": ("sequence.yaml", "side: first\n", "side: first\n    side: second\n"),
    "unclosed": ("tables/tec.yaml", "clear: {foot: 1, mech: 1}\n", "clear: {foot: 1, mech: 1\n"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_yaml_messages(copy, name, snapshot):
    file, old, new = BROKEN[name]
    _edit(copy / file, old, new)
    with pytest.raises(ContentError) as exc:
        load_pack(copy)
    assert exc.value.render() == snapshot
