"""kernel.schema: strict models, located readable problems."""

from __future__ import annotations

import pytest

from casebook.content.schema import cited_cases, parse_provenance, validate
from casebook.content.yamlio import load_yaml

COUNTERS = """\
kind: counters
format: 1
provenance: "reconstructed: test"
units:
  - {id: g1, name: "1", side: german, class: infantry, size: division, strength: seven, ma: 4}
  - {id: g2, name: "2", side: german, clas: infantry, size: division, strength: 3, ma: 4}
  - {id: g3, name: "3", side: germn, class: hq, radius: -1, ma: 6}
"""


def _problems(text):
    _, problems = validate(load_yaml("f.yaml", text=text))
    return [(p.line, p.column, p.key, p.message) for p in problems]


def _col(line_no, word):
    return COUNTERS.splitlines()[line_no - 1].index(word) + 1


def test_problems_name_line_column_key_and_expectation():
    got = _problems(COUNTERS)
    assert (5, _col(5, "strength"), "units.0.strength", "expected an integer, got 'seven'") in got
    assert (6, 5, "units.1", "missing required key 'class'") in got
    assert (6, _col(6, "clas:"), "units.1.clas", "unknown key 'clas' (did you mean 'class'?)") in got
    assert (7, _col(7, "radius"), "units.2.radius", "expected a value >= 0, got -1") in got
    # sides, classes and sizes are the game's vocabulary: checked with the pack (tests/test_vocabulary.py)
    assert len(got) == 4


def test_unquoted_hex_label_is_explained():
    text = "kind: map\nformat: 1\nlayout: flat-top-even-q\nsize: {columns: 6, rows: 6}\nmoscow: [0303]\n"
    (problem,) = _problems(text)
    assert problem[2] == "moscow.0" and 'quoted string like "0303"' in problem[3]


def test_unknown_kind_suggests():
    (problem,) = _problems("kind: mapp\nformat: 1\n")
    assert "unknown kind 'mapp' (did you mean 'map'?)" in problem[3]


@pytest.mark.parametrize(
    "text, source, cases",
    [
        ("rulebook: 10.4.5C", "rulebook", ["10.4.5C"]),
        ("rulebook: 10.4.7, 14.2C", "rulebook", ["10.4.7", "14.2C"]),
        ("errata: 0.2.3.3A", "errata", ["0.2.3.3A"]),
        ("reconstructed: historical OOB", "reconstructed", []),
    ],
)
def test_provenance_forms(text, source, cases):
    assert parse_provenance(text)[0] == source
    assert cited_cases(text) == cases


@pytest.mark.parametrize("text", ["rulebook: the map", "printed: 4.6A", "reconstructed:", "errata:"])
def test_bad_provenance_is_refused(text):
    with pytest.raises(ValueError):
        parse_provenance(text)


TABLE = """\
kind: table
format: 1
id: tec
title: TEC
provenance: "reconstructed: test"
dims:
  - {name: terrain, values: [clear, forest]}
  - {name: roll, values: [1, 2]}
value: int
cells:
  clear: {1: 1, 2: x}
  forst: {1: 1, 2: {value: 2, provenance: "rulebook: 8.1"}}
"""


def test_table_cells_complete_and_typed():
    got = {(p[2], p[3]) for p in _problems(TABLE)}
    assert got == {
        ("cells", "missing cell terrain='forest'"),
        ("cells.clear.2", "expected an integer, got 'x'"),
        ("cells.forst", "'forst' is not a value of dim 'terrain' (did you mean 'forest'?)"),
    }


RECORDS = """\
kind: records
format: 1
id: turn_track
title: Turn Track
provenance: "reconstructed: test"
key: turn
fields: {turn: int, date: str, note: str?, hexes: "list[hex]", ip: {german: int, soviet: int}}
rows:
  - {turn: 1, date: "1941-10-02", hexes: ["0101"], ip: {german: 10, soviet: 5}}
  - {turn: 1, date: 2, hexes: ["101"], ip: {german: 8}, extra: 1}
"""


def test_records_rows_typed_and_keys_unique():
    got = {(p[0], p[2], p[3]) for p in _problems(RECORDS)}
    assert got == {
        (10, "rows.1.turn", "duplicate turn 1 (also row 0)"),
        (10, "rows.1.date", "expected a string, got 2"),
        (10, "rows.1.hexes.0", "expected a hex label like '0303', got '101'"),
        (10, "rows.1.ip", "missing field 'soviet'"),
        (10, "rows.1.extra", "unknown field 'extra'"),
    }


CODES_TABLE = """\
kind: table
format: 1
id: crt
title: CRT
provenance: "reconstructed: test"
dims:
  - {name: roll, values: [1, 2, 3]}
value: str
values: [DR, EX, NE, 4]
cells: {1: DR, 2: DX, 3: {value: QQ, provenance: "rulebook: 8.1"}}
"""


def test_table_values_restrict_cells_all_errors_at_once():
    got = {(p[0], p[2], p[3]) for p in _problems(CODES_TABLE)}
    assert got == {
        (9, "values.3", "expected a string, got 4"),
        (10, "cells.2", "'DX' is not one of the table's values: 'DR', 'EX', 'NE', 4"),
        (10, "cells.3.value", "'QQ' is not one of the table's values: 'DR', 'EX', 'NE', 4"),
    }


def test_table_values_accept_declared_cells():
    assert _problems(CODES_TABLE.replace(", 4]", "]").replace("DX", "EX").replace("QQ", "NE")) == []


CODES_RECORDS = """\
kind: records
format: 1
id: readings
title: Readings
provenance: "reconstructed: test"
fields: {odds: str, roll: int, result: str, alts: "list[str]"}
values: {result: [DR, EX], roll: [1, 2], rsult: [DR]}
rows:
  - {odds: "4:1", roll: 3, result: EX, alts: [DR]}
  - {odds: "4:1", roll: 1, result: QQ, alts: [EX]}
"""


def test_records_values_restrict_fields():
    got = {(p[0], p[2], p[3]) for p in _problems(CODES_RECORDS)}
    assert got == {
        (7, "values.rsult", "values for 'rsult': not a field with a basic or list type (did you mean 'result'?)"),
        (9, "rows.0.roll", "3 is not one of the values of 'roll': 1, 2"),
        (10, "rows.1.result", "'QQ' is not one of the values of 'result': 'DR', 'EX'"),
    }
