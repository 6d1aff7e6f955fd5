"""A refusal decided by a rule-script ``forbid`` line reads as words (session 11's fresh-user trial:
it quoted the raw line, ``forbidden: forbid hedgehog by 14.4A when removed_hedgehog``): what the
action does and what each fact of the condition means (the game's facts.yaml descriptions), the
cases, the condition, and the line's ``file:line`` — for every forbid line of every installed game."""

from __future__ import annotations

import re

import pytest

from casebook.script import compile_pack, find_rule_pack
from casebook.script.explain import Line, forbid_reason


@pytest.mark.case("14.4A")
def test_14_4A_the_reason_of_a_forbid_line_is_its_action_facts_cases_and_line():
    rules = compile_pack(find_rule_pack("moscow41"))
    (line,) = [ln for ln in rules.permission("hedgehog", {
        "side": "german", "activated": True, "moved_or_attacked": False, "removed_hedgehog": False,
        "formed_hedgehog": True}).lines if ln.fired and ln.kind == "forbid"]
    assert rules.forbid_reason(line) == (
        "put an activated German stack into hedgehog formation, or take it out of it: forbidden by 14.4A "
        "when formed_hedgehog — formed_hedgehog: the stack asked to leave hedgehog formation entered it in "
        f"this activation: it is not yet activated again [{line.source}]")
    assert line.source.endswith("fortification.rules:" + line.source.rsplit(":", 1)[1])


@pytest.mark.parametrize("game", ["moscow41", "battle_for_moscow", "kestrel_pass"])
def test_every_forbid_line_gives_a_reason_in_words_naming_its_line(game):
    """No reason quotes the raw line (``forbid NAME by …``): each starts with the action's
    description, cites the line's cases and ends with its ``[file:line]``."""
    rules = compile_pack(find_rule_pack(game))
    seen = 0
    for name, perm in rules.permissions.items():
        for verdict, code, _cond in perm.lines:
            if verdict != "forbid":
                continue
            line = Line("forbid", code.cases, code.source, code.text, True)
            reason = rules.forbid_reason(line, name)
            described = rules.schema.actions.get(name)
            assert not reason.startswith("forbid "), reason
            assert f"forbidden by {', '.join(code.cases)}" in reason and reason.endswith(f"[{code.source}]")
            if described and not code.text.startswith("require "):
                assert reason.startswith(re.split(r"\s*[(—]", described)[0]), (described, reason)
            seen += 1
    assert seen > 0


def test_a_line_without_schema_or_condition_still_names_its_cases_and_line():
    line = Line("forbid", ("X1",), "a.rules:3", "forbid helps  by X1", True)
    assert forbid_reason(line) == "helps: forbidden by X1 [a.rules:3]"
