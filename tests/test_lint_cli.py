"""`casebook lint` and `casebook provenance` on the mini pack and broken copies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli


@pytest.fixture
def copy(mini_pack, tmp_path, monkeypatch) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(mini_pack, dest)
    monkeypatch.chdir(tmp_path)
    return dest


def _run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _set_line(path: Path, n: int, old: str, new: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    assert old in lines[n - 1]
    lines[n - 1] = lines[n - 1].replace(old, new, 1)
    path.write_text("".join(lines))


def test_lint_mini_pack_ok(mini_pack):
    out = _run("lint", str(mini_pack))
    assert out.exit_code == 0, out.output
    assert out.output.count("\n") == 1 and ": ok — game mini, 10 files," in out.output


def test_wrong_typed_value_names_file_line_column_and_key(copy):
    _set_line(copy / "counters.yaml", 7, "ma: 8", "ma: fast")
    out = _run("lint", "mini")
    assert out.exit_code == 1
    col = (copy / "counters.yaml").read_text().splitlines()[6].index("ma: fast") + 1
    assert f"mini/counters.yaml:7:{col}: units.2.ma: expected an integer, got 'fast'" in out.output
    assert out.output.rstrip().endswith("mini: 1 error")


def test_three_broken_values_three_errors(copy, snapshot):
    _set_line(copy / "counters.yaml", 5, "strength: 7", "strength: seven")
    _set_line(copy / "map.yaml", 14, '"0202", "0203"', '"0202", "0209"')
    _set_line(copy / "scenarios/skirmish.yaml", 7, "ground: dry", "ground: wet")
    out = _run("lint", "mini")
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert len(lines) == 4 and lines[-1] == "mini: 3 errors"
    assert out.output == snapshot


def test_python_object_tag_is_refused(copy):
    _set_line(copy / "counters.yaml", 4, "units:", "units: !!python/object/apply:os.system [echo hi]")
    out = _run("lint", "mini")
    assert out.exit_code == 1
    assert "mini/counters.yaml:4:8: units: tags are not allowed (!!python/object/apply:os.system)" in out.output


def test_provenance_counts(mini_pack):
    out = _run("provenance", str(mini_pack), "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["totals"] == {"rulebook": 51, "errata": 7, "reconstructed": 195, "untagged": 0}  # 37 of them the vocabulary
    counters = next(f for f in data["files"] if f["file"] == "counters.yaml")
    assert counters["errata"] == 1
    table = _run("provenance", str(mini_pack))
    assert table.exit_code == 0 and table.output.splitlines()[-1].split() == ["total", "51", "7", "195", "0"]


def test_provenance_untagged_exits_1(copy):
    _set_line(copy / "map.yaml", 3, 'provenance: "reconstructed: a 6x6 test board"', "")
    out = _run("provenance", "mini")
    assert out.exit_code == 1
    row = next(line for line in out.output.splitlines() if line.startswith("map.yaml"))
    assert row.split() == ["map.yaml", "map", "0", "0", "0", "22"]


def test_provenance_counts_the_config_files_the_manifest_names(copy):
    """`casebook provenance` left out the manifest's `config:` files (Moscow '41's config/*.yaml):
    each is a row of kind `config`, its values counted by their provenance as a table's are — the
    file's, or a mapping's own — and a value without any is untagged (exit 1)."""
    (copy / "config").mkdir()
    (copy / "config" / "steps.yaml").write_text(
        'kind: config\nformat: 1\nprovenance: "reconstructed: casebook\'s names"\nstep: movement\n'
        'cases: {provenance: "rulebook: 9.0A", walk: ["9.0A", "9.2C"]}\n', encoding="utf-8")
    (copy / "config" / "bare.yaml").write_text("kind: config\nformat: 1\nflag: hedgehog\n", encoding="utf-8")
    _set_line(copy / "game.yaml", 17, "rules: []", "rules: []\nconfig: {steps: config/steps.yaml, bare: config/bare.yaml}")
    out = _run("provenance", "mini", "--json")
    assert out.exit_code == 1, out.output
    rows = {f["file"]: f for f in json.loads(out.output)["files"]}
    assert rows["config/steps.yaml"] == {"file": "config/steps.yaml", "kind": "config", "rulebook": 2, "errata": 0,
                                         "reconstructed": 1, "untagged": 0}
    assert rows["config/bare.yaml"] == {"file": "config/bare.yaml", "kind": "config", "rulebook": 0, "errata": 0,
                                        "reconstructed": 0, "untagged": 1}
    (copy / "config" / "bare.yaml").write_text('kind: config\nformat: 1\nprovenance: "reconstructed: x"\nflag: h\n')
    table = _run("provenance", "mini")
    # +2 reconstructed: the manifest's two config: paths
    assert table.exit_code == 0 and table.output.splitlines()[-1].split() == ["total", "53", "7", "199", "0"]


def test_provenance_of_moscow41_lists_each_config_file():
    from casebook.content.loader import find_pack, load_pack

    out = _run("provenance", "moscow41", "--json")
    assert out.exit_code == 0, out.output
    rows = [f for f in json.loads(out.output)["files"] if f["kind"] == "config"]
    config = load_pack(find_pack("moscow41")).manifest["config"]
    assert [r["file"] for r in rows] == list(config.values()) and len(rows) >= 7
    assert all(r["reconstructed"] > 0 and r["untagged"] == 0 for r in rows)


@pytest.mark.parametrize("game", ["moscow41", "kestrel_pass"])
def test_lint_counts_the_files_and_values_provenance_counts(game):
    """`casebook lint`'s summary left out the manifest's `config:` files (Moscow '41: 30 files,
    13,160 values against provenance's 39 files, 13,549): it now counts the files and values
    `casebook provenance` counts, config files included."""
    import re

    rows = json.loads(_run("provenance", game, "--json").output)
    out = _run("lint", game)
    assert out.exit_code == 0, out.output
    found = re.search(r"ok — game \w+, (\d+) files, (\d+) values,", out.output)
    assert found, out.output
    assert int(found[1]) == len(rows["files"]) and int(found[2]) == sum(rows["totals"].values())
    assert any(f["kind"] == "config" for f in rows["files"]) or game != "moscow41"


def test_lint_lists_a_counter_files_schema_and_vocabulary_errors_at_once(copy):
    # session 16's fresh-user trial: the misspelt classes showed only after the strength was fixed
    counters = copy / "counters.yaml"
    _set_line(counters, 5, "strength: 7", "strength: ten")
    _set_line(counters, 8, "class: infantry", "class: infantri")
    _set_line(counters, 9, "class: cavalry", "class: 5")
    out = _run("lint", "mini")
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert [ln.split(": ", 2)[1] for ln in lines[:-1]] == ["units.0.strength", "units.3.class", "units.4.class"], lines
    assert lines[0].endswith("expected an integer, got 'ten'")
    assert lines[1].endswith("got 'infantri' (did you mean 'infantry'?)")
    assert lines[2].endswith("expected a string, got 5")                 # said once, by the schema
    assert lines[-1] == "mini: 3 errors"
