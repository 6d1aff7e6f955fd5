"""`casebook rules check` warnings (issue #15): lines that can never fire, `first` lines always
decided before them, forbids always overridden, and permits that can fire with a forbid they do
not override (the precedence of src/casebook/script/quantities.py: the forbid wins)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.errors import ScriptSyntaxError
from casebook.script import compile_scripts, facts_from_mapping
from casebook.script.checks import UNKNOWN, satisfiable
from casebook.script.values import Env
from casebook.tools.cli import cli

ROOT = Path(__file__).resolve().parent.parent

SCHEMA = facts_from_mapping({
    "kind": "facts", "format": 1,
    "facts": {
        "ground": {"type": "enum", "values": ["dry", "mud", "snow"]},
        "flag": {"type": "bool"},
        "n": {"type": "int"},
    },
    "actions": {"march": "move again"},
    "inputs": {"march": ["ground", "flag", "n"], "q": ["ground", "flag", "n"]},
}, "f.yaml")


def warnings(text: str) -> list[str]:
    rules = compile_scripts([("t.rules", text)], SCHEMA)
    return [f"{w.line}: {w.message}" for w in rules.warnings if not w.key.startswith("inputs.")]


def test_a_line_whose_condition_nothing_satisfies_never_fires():
    found = warnings("quantity q = sum by 1.1\n  1 by 1.1 when ground is mud and ground is dry\n"
                     "  2 by 1.2 when ground is mud and flag\n"
                     "forbid march by 1.3 when not flag and flag\n")
    assert found == ["2: this line never fires: no situation satisfies its condition",
                     "4: this forbid line never fires: no situation satisfies its condition"]


def test_a_first_line_after_lines_that_cover_it_never_decides():
    found = warnings("quantity q = first by 1.1\n  otherwise 0 by 1.1\n  1 by 1.2 when ground in [dry, mud]\n"
                     "  2 by 1.3 when ground is snow\n  3 by 1.4 when flag\n")
    assert found == ["5: this line never decides: an earlier line of this `first` quantity always fires first"]


def test_a_permit_that_can_fire_with_a_forbid_it_does_not_name_is_warned_and_loses():
    text = ("forbid march by 9.8B when ground is mud\n"
            "permit march by 9.6A when flag\n")
    [found] = warnings(text)
    assert found == ("2: this permit and the forbid at t.rules:1 can both fire (ground=mud, flag=true): the "
                     "forbid wins, as the permit names none of its cases (9.8B); write `over 9.8B` to make it "
                     "an exception")
    rules = compile_scripts([("t.rules", text)], SCHEMA)
    assert not rules.allowed("march", {"ground": "mud", "flag": True})
    assert warnings(text.replace("by 9.6A", "by 9.6A over 9.8B")) == []


def test_a_forbid_always_overridden_never_takes_effect():
    found = warnings("forbid march by 9.8B when ground is mud\npermit march by 9.6A over 9.8B when ground != dry\n")
    assert found == ["1: this forbid never takes effect: whenever it fires, a permit overriding it fires too "
                     "(t.rules:2)"]


def test_conditions_over_numbers_are_not_judged():
    assert warnings("quantity q = sum by 1.1\n  1 by 1.1 when n > 3 and n < 2\n") == []
    assert satisfiable(lambda env: env.facts["n"] > 3, SCHEMA) is UNKNOWN
    assert satisfiable(lambda env: env.facts["flag"] and env.facts["ground"] == "snow", SCHEMA) == {
        "flag": True, "ground": "snow"}
    assert satisfiable(lambda env: Env({}, None, None).facts == 1, SCHEMA) is None


def test_rules_check_prints_the_warnings_and_still_exits_0(tmp_path):
    (tmp_path / "facts.yaml").write_text(
        "kind: facts\nformat: 1\nfacts:\n  flag: {type: bool}\nactions:\n  march: move\ninputs:\n  march: [flag]\n",
        encoding="utf-8")
    (tmp_path / "a.rules").write_text("forbid march by 1.1 when flag and not flag\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["rules", "check", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("1 rule scripts compiled, no errors, 1 warnings")
    assert lines[1].startswith("warning: ") and lines[1].endswith(
        "a.rules:1:1: march: this forbid line never fires: no situation satisfies its condition")
    assert lines[2:4] == ["    forbid march by 1.1 when flag and not flag", "    ^"]


def test_the_installed_packs_have_no_line_warnings():
    from casebook.script import compile_pack, find_rule_pack

    for game in ("moscow41", "battle_for_moscow"):
        rules = compile_pack(find_rule_pack(game))
        assert [str(w) for w in rules.warnings if "are not declared" not in w.message] == []


@pytest.mark.case("5.7A", "5.7E")
def test_5_7A_5_7E_rules_check_is_clean_for_every_installed_game():
    """`rules check` warns of nothing in the installed games: ``receive_ip`` / ``receive_rp``
    (supply.rules, 5.7A, 5.7E, 8.4C) declare what their callers give, so a line reading a fact
    no caller gives is now refused where it is written instead of passing unchecked."""
    for game in ("moscow41", "battle_for_moscow", "kestrel_pass"):
        result = CliRunner().invoke(cli, ["rules", "check", game])
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0].endswith("compiled, no errors"), result.output
        assert "warning" not in result.output
    from tests.test_script_inputs import m41_rules

    text = (ROOT / "games/moscow41/rules/supply.rules").read_text(encoding="utf-8")
    with pytest.raises(ScriptSyntaxError) as err:
        m41_rules(supply=text + "forbid receive_rp  by 5.7E  when hex_city\n")
    assert "hex_city" in str(err.value) and "receive_rp" in str(err.value)
