"""Lint catches what a modder breaks (#14 item 6): the tables keyed by result code, unit, side and
hex are checked against the CRT, the counter mix, the vocabulary and the map; the side enums of
``rules/facts.yaml`` against the vocabulary (src/casebook/content/crossref.py). Each on a copy of
Kestrel Pass, at its file:line:column; ``play`` refuses the pack with the same message."""

from __future__ import annotations

import pytest

from casebook.tools.cli import main
from tests._pack_edits import copy_pack as _kestrel
from tests._pack_edits import edit as _edit
from tests._pack_edits import line_of as _line
from tests._pack_edits import lint_errors as _lint


def test_a_crt_code_without_a_crt_results_row_fails_lint_and_play(tmp_path, capsys):
    pack = _kestrel(tmp_path)
    results = pack / "tables" / "crt_results.yaml"
    _edit(results, "  - {result: EX,", "  # - {result: EX,")
    expected = (f"crt_results.yaml:{_line(results, 'rows:')}:1: rows: no row for the crt result code(s) EX "
                "(every code of table 'crt' needs a row; rolling one would stop the game)")
    assert expected in _lint(pack)
    with pytest.raises(SystemExit) as exc:
        main(["play", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_a_new_crt_code_without_a_row_fails_lint(tmp_path):
    pack = _kestrel(tmp_path)
    crt = pack / "tables" / "crt.yaml"
    _edit(crt, "values: [A1, NE, DR, D1, DE, EX]", "values: [A1, NE, DR, D1, DE, EX, XX]")
    _edit(crt, "5: DR, 6: EX}", "5: DR, 6: XX}")
    assert "rows: no row for the crt result code(s) XX" in _lint(pack)


def test_a_renamed_crt_results_row_is_located_with_a_did_you_mean(tmp_path):
    pack = _kestrel(tmp_path)
    results = pack / "tables" / "crt_results.yaml"
    _edit(results, "{result: DR,", "{result: RD,")
    out = _lint(pack)
    assert (f"crt_results.yaml:{_line(results, 'result: RD')}:6: rows.2.result: 'RD' is not a result code of "
            "table 'crt' (A1, NE, DR, D1, DE, EX) (did you mean 'DR'?)") in out


def test_a_counter_without_a_unit_steps_row_fails_lint(tmp_path):
    pack = _kestrel(tmp_path)
    steps = pack / "tables" / "unit_steps.yaml"
    _edit(steps, "  - {unit: b-4, full: 8, reduced: 4}\n", "")
    assert (f"unit_steps.yaml:{_line(steps, 'rows:')}:1: rows: no row for counter(s) b-4 (table 'unit_steps' is "
            "keyed by unit: every counter of the counter mix needs a row)") in _lint(pack)


def test_a_unit_steps_row_for_an_unknown_unit_fails_lint_with_a_did_you_mean(tmp_path):
    pack = _kestrel(tmp_path)
    steps = pack / "tables" / "unit_steps.yaml"
    _edit(steps, "{unit: b-4,", "{unit: b-44,")
    out = _lint(pack)
    assert (f"unit_steps.yaml:{_line(steps, 'b-44')}:6: rows.3.unit: no counter 'b-44' in the counter mix "
            "(did you mean 'b-4'?)") in out


def test_a_misspelt_side_in_a_table_fails_lint(tmp_path):
    pack = _kestrel(tmp_path)
    hexes = pack / "tables" / "victory_hexes.yaml"
    _edit(hexes, "side: blue,", "side: bleu,")
    assert (f"victory_hexes.yaml:{_line(hexes, 'bleu')}:51: rows.0.side: 'bleu' is not a side of the vocabulary "
            "(sides: blue, red; or any / both) (did you mean 'blue'?)") in _lint(pack)


def test_a_victory_hex_off_the_map_fails_lint(tmp_path):
    pack = _kestrel(tmp_path)
    hexes = pack / "tables" / "victory_hexes.yaml"
    _edit(hexes, '{hex: "0404"', '{hex: "1404"')
    assert f"victory_hexes.yaml:{_line(hexes, '1404')}:6: rows.2.hex: hex '1404' is not on the map" in _lint(pack)


def test_a_misspelt_side_in_the_facts_fails_lint(tmp_path):
    pack = _kestrel(tmp_path)
    facts = pack / "rules" / "facts.yaml"
    _edit(facts, "attacker_side: {type: enum, values: [blue, red]", "attacker_side: {type: enum, values: [bleu, red]")
    assert (f"facts.yaml:{_line(facts, 'attacker_side')}:40: facts.attacker_side.values.0: 'bleu' is not a side "
            "of the vocabulary (blue, red) (did you mean 'blue'?)") in _lint(pack)


def test_a_side_renamed_in_the_vocabulary_is_an_error_wherever_the_old_name_is_left(tmp_path):
    pack = _kestrel(tmp_path)
    _edit(pack / "game.yaml", "    blue: {name: Blue,", "    bleu: {name: Blue,")
    out = _lint(pack)
    for where in ("counters.yaml:", "facts.yaml:", "victory_hexes.yaml:", "meeting.yaml:", "victory.rules:"):
        assert where in out, where
    assert "rows.0.side: 'blue' is not a side of the vocabulary (sides: bleu, red; or any / both) " \
           "(did you mean 'bleu'?)" in out
    assert "facts.side.values.0: 'blue' is not a side of the vocabulary (bleu, red) (did you mean 'bleu'?)" in out


def test_a_misspelt_step_of_the_sequence_no_plugin_acts_in_fails_lint_and_play(tmp_path, capsys):
    """``movment``: Blue would never move (the game used to play on without a word)."""
    pack = _kestrel(tmp_path)
    sequence = pack / "sequence.yaml"
    _edit(sequence, "{id: movement, case: \"KP4.1A\"", "{id: movment, case: \"KP4.1A\"")
    expected = (f"sequence.yaml:{_line(sequence, 'movment')}:10: phases.0.steps.0.id: no listed plugin acts in step "
                "'movment' and no rule script names it: nothing would happen in it (did you mean 'movement'?)")
    assert expected in _lint(pack)
    with pytest.raises(SystemExit) as exc:
        main(["play", str(pack), "--out", str(tmp_path / "out"), "--quiet"])
    assert exc.value.code == 1 and expected in capsys.readouterr().err


def test_a_table_whose_shared_area_is_not_listed_fails_lint(tmp_path):
    pack = _kestrel(tmp_path)
    manifest = pack / "game.yaml"
    _edit(manifest, "plugins: [zoc, combat, ", "plugins: [zoc, ")
    assert (f"game.yaml:{_line(manifest, 'plugins: [')}:1: plugins: the pack has table 'crt', which only the shared "
            "area(s) combat read: list one under plugins: (or drop the table)") in _lint(pack)
