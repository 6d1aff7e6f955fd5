"""The case registry and `casebook cases`: index, implements/register_cases, static test scan, coverage."""

from __future__ import annotations

import csv
import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.content.cases import REGISTRY, CaseIndex, coverage, implements, register_cases, scan_tests
from casebook.core.errors import shown_path
from casebook.tools.cli import cli

TSV = Path("/work/shared/rulebook/cases.tsv")


def _tsv_leaf_rules() -> list[str]:
    with TSV.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [r["case"] for r in rows if r["leaf"] == "yes" and r["kind"] in ("rule", "errata")]


@pytest.fixture
def index() -> CaseIndex:
    return CaseIndex.for_game("moscow41")


def test_index_of_moscow41_has_362_leaf_rule_and_errata_cases(index) -> None:
    leaves = index.leaves()
    assert len(leaves) == 362
    assert index["9.6C"].kind == "rule" and index["9.6C"].leaf
    assert index["0.7.3.6"].title == "Step 6"
    assert "14.4D2" in index and "P1A" in index            # case ids beyond N.N[A]
    if TSV.is_file():
        assert [c.id for c in leaves] == _tsv_leaf_rules()


def test_implements_and_register_cases_fill_the_registry() -> None:
    @implements("9.6C", "9.5A")
    def force_march(state): return state

    source = f"{__name__}.test_implements_and_register_cases_fill_the_registry.<locals>.force_march"
    try:
        assert force_march.__casebook_cases__ == ("9.6C", "9.5A") and force_march(3) == 3
        register_cases("movement.rules:12", ["9.6C"])
        by_case = REGISTRY.by_case()
        # other implementers may be registered already (plugins imported by earlier tests)
        assert {source, "movement.rules:12"} <= set(by_case["9.6C"]) and source in by_case["9.5A"]
        with pytest.raises(ValueError, match="not a case id"):
            register_cases("x.rules:1", ["nine point six"])
    finally:
        REGISTRY.unregister(source)
        REGISTRY.unregister("movement.rules:12")


def _write_tests(root: Path) -> None:
    (root / "sub").mkdir()
    (root / "test_a.py").write_text(textwrap.dedent('''
        import pytest
        from pytest import mark

        @pytest.mark.case("9.6C", "9.5A")
        def test_force_march(): pass

        def test_10_4_5C_clamp(): pass          # named after its case

        def test_9_6_unknown_section_name(): pass   # 9.6 is in the index but not a leaf: counted, not shown

        @mark.case("99.9Z")
        def test_bad_mark(): pass

        def helper_9_6C(): pass                 # not a test

        @pytest.mark.case("1.0A")
        class TestIp:
            def test_one(self): pass
            @pytest.mark.case("1.0B")
            def test_two(self): pass
    '''), encoding="utf-8")
    (root / "sub" / "test_b.py").write_text(
        'import pytest\npytestmark = [pytest.mark.case("0.7.3.6"), pytest.mark.slow]\n'
        'def test_loop(): pass\ndef test_14_4D2_hedgehog(): pass\n', encoding="utf-8")
    (root / "test_broken.py").write_text("def test_x(:\n", encoding="utf-8")


def test_static_scan_finds_marks_names_classes_and_module_marks(tmp_path, index) -> None:
    _write_tests(tmp_path)
    scan = scan_tests(tmp_path, index)
    assert scan.tested["9.6C"] == ["test_a.py::test_force_march"]
    assert scan.tested["10.4.5C"] == ["test_a.py::test_10_4_5C_clamp"]
    assert scan.tested["1.0A"] == ["test_a.py::TestIp::test_one", "test_a.py::TestIp::test_two"]
    assert scan.tested["1.0B"] == ["test_a.py::TestIp::test_two"]
    assert scan.tested["0.7.3.6"] == ["sub/test_b.py::test_loop", "sub/test_b.py::test_14_4D2_hedgehog"]
    assert scan.tested["14.4D2"] == ["sub/test_b.py::test_14_4D2_hedgehog"]
    assert scan.unknown == [("test_a.py::test_bad_mark", "99.9Z")]
    assert not any("helper" in t for ts in scan.tested.values() for t in ts)


def test_coverage_statuses(index) -> None:
    report = coverage(index, {"9.6C": ["p.f"], "9.5A": ["p.g"]}, {"9.6C": ["t"], "1.0A": ["t2"]})
    rows = {r["case"]: r for r in report["cases"]}
    assert (rows["9.6C"]["status"], rows["9.5A"]["status"], rows["1.0A"]["status"], rows["1.0B"]["status"]) == (
        "done", "implemented", "tested", "missing")
    assert report["summary"]["total"] == 362 and report["summary"]["done"] == 1
    assert report["summary"]["implemented"] == 2 and report["summary"]["tested"] == 2


def test_cli_reports_every_leaf_rule_and_errata_case(tmp_path) -> None:
    _write_tests(tmp_path)
    register_cases("tests.fake_plugin.force_march", ["9.6C"])
    try:
        result = CliRunner().invoke(cli, ["cases", "moscow41", "--json", "--tests", str(tmp_path)])
    finally:
        REGISTRY.unregister("tests.fake_plugin.force_march")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    ids = [r["case"] for r in data["cases"]]
    assert len(ids) == 362 and len(set(ids)) == 362
    if TSV.is_file():
        assert ids == _tsv_leaf_rules()
    row = next(r for r in data["cases"] if r["case"] == "9.6C")
    assert set(row) == {"case", "title", "implemented_by", "implemented_in", "tested_by", "status", "cited_by"}
    # the force march roll's cases are a config file's (a citation: it implements nothing)
    assert row["cited_by"] == ["config:config/movement.yaml"] and not any("config" in s for s in row["implemented_by"])
    assert "tests.fake_plugin.force_march" in row["implemented_by"]
    rows = {r["case"]: r for r in data["cases"]}
    # 9.2B: the move_cost script line and the TEC charts it looks up, besides the plugin
    assert rows["9.2B"]["implemented_in"] == ["python", "script", "table"]
    assert "table:tec" in rows["9.2B"]["implemented_by"]
    assert rows["0.2.3.3A"]["implemented_in"] == ["errata"]
    assert data["summary"]["python_only"] == sum(1 for r in data["cases"] if r["implemented_in"] == ["python"])
    assert 0 < data["summary"]["python_only"] < 362
    # named by its path (outside the current folder: absolute), not relative to the --tests folder
    assert row["tested_by"] == [f"{(tmp_path / 'test_a.py').resolve()}::test_force_march"] and row["status"] == "done"
    assert data["summary"]["total"] == 362 and data["summary"]["tested"] == 7   # 9.6C 9.5A 10.4.5C 1.0A 1.0B 0.7.3.6 14.4D2


def test_cli_text_ends_with_the_summary_line(tmp_path) -> None:
    _write_tests(tmp_path)
    result = CliRunner().invoke(cli, ["cases", "moscow41", "--tests", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("implemented ") and "/362, tested " in lines[-1]
    assert ", python-only " in lines[-1]
    assert "99.9Z" in result.stderr
    at = next(i for i, line in enumerate(lines) if line.startswith("10.4.5C "))
    assert lines[at].split()[1] in ("tested", "done")
    assert f"tested by: {(tmp_path / 'test_a.py').resolve()}::test_10_4_5C_clamp" in "\n".join(lines[at + 1:at + 3])
    assert sum(1 for line in lines if not line.startswith(" ")) == 362 + 1


def test_implemented_in_names_the_kind_of_every_source() -> None:
    from casebook.tools.cmd_cases import implemented_in

    assert implemented_in(["casebook.games.moscow41.plugins.supply.trace"]) == ["python"]
    assert implemented_in(["rules:ma", "casebook.games.moscow41.plugins.movement.ma"]) == ["python", "script"]
    assert implemented_in(["table:tec", "errata:0.2.3.3.yaml", "sequence:sequence.yaml",
                           "scenario:campaign"]) == ["data", "errata", "table"]
    assert implemented_in([]) == []


def test_errata_patches_count_as_implementing_their_cases() -> None:
    from casebook.tools.cmd_cases import gather_implemented

    warnings: list[str] = []
    found = gather_implemented("moscow41", warnings)
    assert "errata:0.2.3.3.yaml" in found["0.2.3.3A"]
    assert "errata:0.2.4.9.yaml" in found["0.2.4.9E"]


def test_coverage_of_two_games_does_not_mix_their_cases():
    """Battle for Moscow's ids carry the BM prefix: its report counts only its own tests and code,
    counts its set-up (scenario data) as implemented, and neither game warns about the other's ids."""
    from casebook.tools.cmd_cases import gather_report

    tests_dir = Path(__file__).parent
    warnings: list[str] = []
    bfm = gather_report("battle_for_moscow", tests_dir, warnings)
    rows = {r["case"]: r for r in bfm["cases"]}
    assert all(c.startswith("BM") for c in rows)
    # its tests are its own folder's (games/battle_for_moscow/tests/), none of the engine's tests/
    bfm_tests = Path(shown_path(tests_dir.parent / "games" / "battle_for_moscow" / "tests")).as_posix()
    assert all(t.startswith(f"{bfm_tests}/test_bfm_") for r in rows.values() for t in r["tested_by"])
    assert rows["BM3.4A"]["implemented_by"] == ["scenario:campaign"]
    assert not [w for w in warnings if "unknown case" in w and " BM" not in w]
    m41_warnings: list[str] = []
    m41 = gather_report("moscow41", tests_dir, m41_warnings)
    assert m41["summary"]["done"] == m41["summary"]["total"] == 362
    # every test named by its path from the current folder, wherever it lies (casebook cases showed
    # games/moscow41/tests/test_initiative.py as tests/test_initiative.py and tests/test_mapfit.py bare)
    named = {t.split("::")[0] for r in m41["cases"] for t in r["tested_by"]}
    assert Path(shown_path(tests_dir / "test_mapfit.py")).as_posix() in named
    assert Path(shown_path(tests_dir.parent / "games/moscow41/tests/test_initiative.py")).as_posix() in named
    assert not [w for w in m41_warnings if "BM" in w]
