"""Errors a modder can act on: syntax errors, unknown names and unknown cases, every one of a file
at once with file:line:column, the source line and a caret (syrupy snapshots, reviewed), and the
``casebook rules check`` command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.errors import ContentError, ScriptSyntaxError
from casebook.script import compile_scripts, facts_from_mapping, find_rule_pack, load_facts
from casebook.tools.cmd_rules import rules

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
PACK = find_rule_pack("moscow41")
SCHEMA = load_facts(PACK.facts)


def problems_of(name: str) -> ScriptSyntaxError:
    text = (SCRIPTS / name).read_text()
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_scripts([(f"scripts/{name}", text)], SCHEMA, PACK.cases)
    return exc.value


def test_syntax_errors_point_at_the_spot_and_say_what_was_expected(snapshot):
    err = problems_of("syntax_error.rules")
    assert [(p.line, p.column) for p in err.problems] == [(4, 6), (7, 32)]
    assert "a term needs its case" in err.problems[0].message
    assert str(err) == snapshot


def test_unknown_names_get_a_suggestion(snapshot):
    err = problems_of("unknown_fact.rules")
    messages = [p.message for p in err.problems]
    assert "unknown fact `grund`; did you mean `ground`?" in messages
    assert any("unknown value `snwo`" in m and "did you mean `snow`?" in m for m in messages)
    assert "unknown field or fact `fatigue`; did you mean `fatigued`?" in messages
    assert "unknown action `force_marhc`; did you mean `force_march`?" in messages
    assert str(err) == snapshot


def test_a_case_not_in_the_case_index_is_an_error(snapshot):
    err = problems_of("unknown_case.rules")
    assert [(p.line, p.column, p.message.split(" (")[0]) for p in err.problems] == [
        (4, 9, "unknown case `10.4.9`"), (6, 21, "unknown case `10.4.5D`")]
    assert str(err) == snapshot


def test_errors_of_several_files_are_reported_together():
    sources = [(f"scripts/{n}", (SCRIPTS / n).read_text())
               for n in ("syntax_error.rules", "unknown_fact.rules", "unknown_case.rules")]
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_scripts(sources, SCHEMA, PACK.cases)
    # + attack_drm defined again in the two other files: the syntax error's statement is checked up
    # to its error line (docs/rule-language.md), so its attack_drm is the first definition
    assert len(exc.value.problems) == 2 + 4 + 2 + 2
    assert exc.value.summary == "10 errors"


def test_facts_declaration_problems_are_all_reported():
    bad = {"kind": "facts", "facts": {"a": {"type": "enum"}, "b": {"type": "float"},
                                      "c": {"type": "records", "fields": {"x": {"type": "records"}}}},
           "extra": 1}
    with pytest.raises(ContentError) as exc:
        facts_from_mapping(bad, "f.yaml")
    keys = sorted(p.key for p in exc.value.problems)
    assert keys == ["extra", "facts.a.values", "facts.b.type", "facts.c.fields.x.type"]


def test_facts_yaml_refuses_tags(tmp_path):
    f = tmp_path / "facts.yaml"
    f.write_text("kind: facts\nfacts: !!python/object:os.system {}\n")
    with pytest.raises(ContentError, match="tags are not allowed"):
        load_facts(f)


def test_rules_check_moscow41_prints_a_summary():
    out = CliRunner().invoke(rules, ["check", "moscow41"])
    assert out.exit_code == 0, out.output
    assert re.match(r"moscow41: \d+ rule scripts compiled, no errors", out.output), out.output
    assert "attack_drm" in out.output and "sum" in out.output
    assert "10.4.5C" in out.output.split("cases cited")[1]


def test_rules_check_a_broken_rules_dir_lists_every_error_and_exits_1():
    out = CliRunner().invoke(rules, ["check", str(SCRIPTS / "broken")])
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert any("bad.rules:2:18: q: unknown fact `groud`; did you mean `ground`?" in ln for ln in lines)
    assert any("bad.rules:4:25: syntax error: unexpected end of line; the condition after `when` is incomplete" in ln
               for ln in lines)
    assert lines[-1].endswith("2 errors")


def test_rules_check_unknown_game_is_a_usage_error_exit_2():
    out = CliRunner().invoke(rules, ["check", "no-such-game"])  # as every command's unknown GAME
    assert out.exit_code == 2 and "no game 'no-such-game': expected an installed game id" in out.output
