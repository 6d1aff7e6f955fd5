"""Issue #15, trial 13's gaps in the tools: a DRM term's condition read from its script line
drops the line's trailing comment (as the ``lines:`` block does)."""

from __future__ import annotations

from pathlib import Path

from casebook.tools.account import term_words

ROOT = Path(__file__).resolve().parents[1]


def test_10_4_1A_a_drm_terms_condition_drops_the_lines_trailing_comment(tmp_path):
    (tmp_path / "combat.rules").write_text(
        "quantity drm = sum by 10.4\n"
        "  +1 by 10.4.1A  when count(attackers having class is infantry) >= 2   # house rule: massed\n",
        encoding="utf-8")
    words = term_words({"case": "10.4.1A", "value": 1, "source": "combat.rules:2"},
                       {"10.4.1A": "Armor DRMs, A"}, tmp_path)
    assert words == " +1  10.4.1A Armor DRMs, A — count(attackers having class is infantry) >= 2"


def _edited_meeting(tmp_path):
    """A copy of Kestrel Pass's meeting scenario with r-1 moved next to b-1 (0205, beside 0204)
    and blue's engineers track set to 3."""
    text = (ROOT / "games/kestrel_pass/scenarios/meeting.yaml").read_text(encoding="utf-8")
    assert '{counter: r-1, hex: "0904"}' in text
    text = text.replace('{counter: r-1, hex: "0904"}', '{counter: r-1, hex: "0205"}') + "engineers: {blue: 3}\n"
    path = tmp_path / "meeting-edited.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _why(position, action):
    from casebook.tools.ask_why import why_answer
    from casebook.tools.cmd_ask import _position_engine

    pos, engine = _position_engine(position)  # as `casebook ask FILE why ACTION`
    return why_answer(pos, engine, [action])


def test_KP5_2_ask_why_on_an_edited_scenario_copy_sees_its_units(tmp_path):
    from casebook.tools.cmd_ask import ask_position

    copy = _edited_meeting(tmp_path)
    assert ask_position(copy, "zoc", ["0204"], {})["exerted_by"] == ["r-1"]  # the copy's r-1, as zoc sees it
    answer = _why(copy, "blue: move stack=0204 path=0205")
    assert answer["legal"] is False and answer["cases"] == ["KP5.2"]
    assert "0205 holds enemy units" in answer["reason"]


def test_KP11_2_ask_why_on_an_edited_scenario_copy_reads_its_engineers(tmp_path):
    answer = _why(_edited_meeting(tmp_path), "blue: dig-in hex=0204")
    assert answer["legal"] is True  # the copy's 3 engineers, +1 at the turn's start (KP11.1), pay the 2 (KP11.2)
    shipped = _why(str(ROOT / "games/kestrel_pass/scenarios/meeting.yaml"), "blue: dig-in hex=0204")
    assert shipped["legal"] is False and "holds 1" in shipped["reason"]


def test_12_0A_cases_gives_the_reason_of_each_python_only_case():
    from casebook.tools.cmd_cases import gather_report

    warnings: list[str] = []
    report = gather_report("moscow41", None, warnings)
    only = {r["case"]: r.get("python_only_reason") for r in report["cases"] if r["implemented_in"] == ["python"]}
    assert len(only) == report["summary"]["python_only"] == 35
    assert all(only.values()), [c for c, why in only.items() if not why]
    assert only["12.0A"].startswith("procedure: the reinforcement procedure as a whole")
    assert not [w for w in warnings if "python_only" in w or "Python-only" in w]


def test_12_0A_cases_prints_the_reason_in_text_and_json():
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    text = CliRunner().invoke(cli, ["cases", "moscow41", "--status", "done"]).output
    block = text.split("\n12.0A ", 1)[1].split("\n12.", 1)[0]
    assert "python-only: procedure: the reinforcement procedure as a whole" in block
    import json

    rows = json.loads(CliRunner().invoke(cli, ["cases", "moscow41", "--json"]).output)["cases"]
    row = next(r for r in rows if r["case"] == "11.0A")
    assert row["python_only_reason"] == "procedure: the CRT cell notation, the cells' parser"


def _script_errors(tmp_path, added: str) -> tuple[str, int]:
    """The compile errors of a copy of Moscow '41 with ``added`` appended to initiative.rules, and
    the number of the first added line."""
    import shutil

    import pytest

    from casebook.core.errors import ScriptSyntaxError
    from casebook.script import compile_pack, find_rule_pack

    shutil.copytree(ROOT / "games" / "moscow41", tmp_path / "m", ignore=shutil.ignore_patterns("golden", "tests"))
    script = tmp_path / "m" / "rules" / "initiative.rules"
    text = script.read_text(encoding="utf-8")
    first = text.count("\n") + 1 + (0 if text.endswith("\n") else 1)
    script.write_text(text + ("" if text.endswith("\n") else "\n") + added, encoding="utf-8")
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_pack(find_rule_pack(tmp_path / "m"))
    return str(exc.value), first


def test_0_2_2_6_a_row_field_typo_is_pointed_at_with_the_fields_listed(tmp_path):
    errors, n = _script_errors(tmp_path, 'quantity x = first by 2.0\n'
                                         '  otherwise table ip_costs[action: "guards_status"].ipp by 2.0\n'
                                         'quantity y = first by 2.0\n'
                                         '  otherwise table ip_costs[action: "guards_status"].cost by 2.0\n')
    col = len('  otherwise table ip_costs[action: "guards_status"].') + 1  # the field, after the dot
    ipp, cost = f"initiative.rules:{n + 1}:{col}:", f"initiative.rules:{n + 3}:{col}:"
    assert ipp in errors and cost in errors, errors
    assert "table `ip_costs` has no field `ipp` (it has: action, side, ip, per); did you mean `ip`?" in errors
    assert "table `ip_costs` has no field `cost` (it has: action, side, ip, per)" in errors
    assert "^^^^" in errors.split(cost, 1)[1].split("\n")[2]  # the caret is under `cost`, 4 wide


def test_9_2A_a_lookup_coordinate_typo_is_pointed_at_the_key(tmp_path):
    errors, n = _script_errors(tmp_path, "quantity x = first by 9.2A\n"
                                         "  lookup tec(terain: hex_terrain, unit: move_class, column: tec_column) by 9.2A\n")
    at = f"initiative.rules:{n + 1}:{len('  lookup tec(') + 1}:"
    assert f"{at} x: table `tec` has no coordinate `terain`" in errors or \
        (at in errors and "has no coordinate `terain`" in errors.split(at, 1)[1].split("\n")[0]), errors
    line, caret = errors.split(at, 1)[1].split("\n")[1:3]
    assert caret.index("^") == line.index("terain") and caret.strip() == "^^^^^^"


def test_9_2A_a_syntax_error_hides_only_the_rest_of_its_statement(tmp_path):
    errors, n = _script_errors(tmp_path, "quantity zz = first by 9.2A\n"
                                         "  grund by 9.2A\n"
                                         "  min(4) by 9.2A\n"
                                         "  1 by 5.2Z\n"
                                         "  2 by 9.2A when distance(hex) < 3\n"
                                         "  grund by 9.2A\n"
                                         "  otherwise 1 by 9.2A\n")
    assert f"initiative.rules:{n + 1}:3: zz: unknown fact `grund`" in errors
    assert f"initiative.rules:{n + 2}:3: zz: `min` takes two or more amounts" in errors
    assert f"initiative.rules:{n + 3}:8: zz: unknown case `5.2Z`" in errors
    assert f"initiative.rules:{n + 4}:30: syntax error" in errors
    assert f"initiative.rules:{n + 5}:" not in errors  # the rest of the statement: hidden
    assert "needs an `otherwise" not in errors  # its otherwise line is in the hidden rest
    assert errors.rstrip().endswith("4 errors")
