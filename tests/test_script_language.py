"""The rule-script language itself: parsing, combination modes, bounds, groups, permissions,
collections, lookups, explanations and the compile-time checks (on a small test declaration)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from casebook.core.errors import IllegalActionError, ScriptSyntaxError
from casebook.script import (
    Explanation,
    MissingFactError,
    RuleSet,
    compile_scripts,
    facts_from_mapping,
    parse_script,
)
from casebook.script.ast import Quantity, Term

SCHEMA = facts_from_mapping({
    "kind": "facts", "format": 1,
    "facts": {
        "ground": {"type": "enum", "values": ["dry", "mud", "snow"]},
        "side": {"type": "enum", "values": ["german", "soviet"]},
        "n": {"type": "int"},
        "flag": {"type": "bool"},
        "terrain": {"type": "str"},
        "units": {"type": "records", "each": "unit",
                  "fields": {"class": {"type": "enum", "values": ["infantry", "armor", "ski"]},
                             "strength": {"type": "int"}, "tired": {"type": "bool"}}},
    },
    "actions": {"march": "move again"},
}, "test-facts.yaml")


def rules(text: str, cases=None, tables=None) -> RuleSet:
    return compile_scripts([("t.rules", text)], SCHEMA, cases, tables)


def test_ast_is_frozen_and_positioned():
    stmts, problems = parse_script("# c\nquantity q = sum by 1.1\n  +2 by 1.2 when flag\n", "x.rules")
    assert problems == []
    (q,) = stmts
    assert isinstance(q, Quantity) and q.name == "q" and q.loc.line == 2
    (t,) = q.items
    assert isinstance(t, Term)
    assert (t.loc.file, t.loc.line, t.loc.column) == ("x.rules", 3, 3)
    assert [c.id for c in t.cases] == ["1.2"]
    with pytest.raises(AttributeError):
        t.times = True  # type: ignore[misc]


def test_sum_with_conditions_and_arithmetic_on_facts():
    rs = rules("quantity q = sum\n  +2 by 1.1 when flag\n  n * 2 - 1 by 1.2\n  -1 by 1.3 when not flag\n")
    assert rs.value("q", {"flag": True, "n": 3}) == 7
    assert rs.value("q", {"flag": False, "n": 0}) == -2


def test_product_rounds_as_stated():
    text = "quantity q = product\n  start n by 1.1\n  × ⅔ by 1.2 when flag\n  round {} by 1.3\n"
    for mode, expected in (("down", 8), ("up", 9), ("nearest", 9)):
        assert rules(text.format(mode)).value("q", {"n": 13, "flag": True}) == expected
    assert rules(text.format("down")).value("q", {"n": 13, "flag": False}) == 13


def test_unrounded_fraction_stays_exact():
    rs = rules("quantity q = product\n  start n by 1.1\n  × 1/2 by 1.2\n")
    assert rs.value("q", {"n": 7}) == Fraction(7, 2)
    assert rs.explain("q", {"n": 7}).to_dict()["value"] == "7/2"


def test_min_max_first_need_and_use_their_otherwise():
    rs = rules("quantity lo = min\n  otherwise 5 by 1.1\n  n by 1.2 when flag\n"
               "quantity pick: ground = first\n  otherwise dry by 1.1\n  mud by 1.2 when n > 2\n"
               "  snow by 1.3 when n > 1\n")
    assert rs.value("lo", {"n": 3, "flag": True}) == 3
    assert rs.value("lo", {"n": 9, "flag": True}) == 5
    assert rs.value("pick", {"n": 3}) == "mud"  # first line that fires wins
    assert rs.value("pick", {"n": 2}) == "snow"
    assert rs.value("pick", {"n": 0}) == "dry"
    with pytest.raises(ScriptSyntaxError, match="needs an `otherwise"):
        rules("quantity m = max\n  1 by 1.1\n")


def test_bounds_apply_after_the_whole_combination_in_order():
    rs = rules("quantity q = sum\n  n by 1.1\n  at least 1 by 1.2 when flag\n  at most 3 by 1.3\n")
    assert rs.value("q", {"n": 0, "flag": True}) == 1
    assert rs.value("q", {"n": 0, "flag": False}) == 0
    assert rs.value("q", {"n": 9, "flag": True}) == 3


def test_most_severe_group_takes_the_smallest_that_fires():
    rs = rules("quantity q = sum\n  +1 by 1.0\n  most severe by 1.1\n    -1 by 1.2 when flag\n"
               "    -3 by 1.3 when n > 0\n  end\n")
    assert rs.value("q", {"flag": True, "n": 1}) == -2
    assert rs.value("q", {"flag": True, "n": 0}) == 0
    assert rs.value("q", {"flag": False, "n": 0}) == 1
    group = rs.explain("q", {"flag": True, "n": 1}).lines[1]
    assert group.kind == "group" and group.amount == -3
    assert [(m.cases, m.fired, m.won) for m in group.members] == [(("1.2",), True, False),
                                                                  (("1.3",), True, True)]
    ex = rs.explain("q", {"flag": True, "n": 1})
    # the group's own case (its "only the most severe applies") is cited before its winner's; the line named is the winner
    assert ex.cases == ("1.0", "1.1", "1.3")
    assert [ln.cases for ln in ex.deciding()] == [("1.0",), ("1.3",)]
    assert rs.explain("q", {"flag": False, "n": 0}).cases == ("1.0",)   # no member fired: no group case


def test_collections_any_all_no_count_total():
    rs = rules("quantity q = sum\n"
               "  +10 by 1.1 when any unit has class is armor\n"
               "  +100 by 1.2 when all units are (class is ski)\n"
               "  +1000 by 1.3 when no unit has tired\n"
               "  count(units having class in [armor, ski]) by 1.4\n"
               "  total(strength of units having not tired) * 10000 by 1.5\n")
    units = [{"class": "armor", "strength": 4, "tired": False},
             {"class": "ski", "strength": 2, "tired": True}]
    assert rs.value("q", {"units": units}) == 10 + 2 + 40000
    assert rs.value("q", {"units": units[1:]}) == 100 + 1 + 0


def test_lookup_calls_the_table_with_named_coordinates():
    class Table:
        def lookup(self, **coords):
            return {("forest", "mud"): 3}.get((coords["terrain"], coords["column"]), 1)

    rs = rules("quantity cost = sum\n  lookup tec(terrain: terrain, column: ground) by 9.2A\n"
               "  +1 by 4.6A when flag\n", tables={"tec"})
    assert rs.value("cost", {"terrain": "forest", "ground": "mud", "flag": True}, {"tec": Table()}) == 4
    with pytest.raises(ScriptSyntaxError, match="unknown table `tek`; did you mean `tec`"):
        rules("quantity c = sum\n  lookup tek(terrain: terrain) by 9.2A\n", tables={"tec"})


def test_quantities_may_use_each_other_but_not_in_a_cycle():
    rs = rules("quantity a = sum\n  n by 1.1\nquantity b = product\n  start a by 1.2\n  × 2 by 1.3\n")
    assert rs.value("b", {"n": 4}) == 8
    with pytest.raises(ScriptSyntaxError, match="cycle: a → b → a"):
        rules("quantity a = sum\n  b by 1.1\nquantity b = sum\n  a by 1.2\n")


def test_permissions_forbid_unless_an_exception_permits():
    rs = rules("forbid march by 9.8B when flag\npermit march by 9.6A over 9.8B when n > 5\n")
    assert rs.allowed("march", {"flag": False, "n": 0})
    assert not rs.allowed("march", {"flag": True, "n": 0})
    assert rs.allowed("march", {"flag": True, "n": 6})
    verdict = rs.permission("march", {"flag": True, "n": 0})
    assert verdict.value is False and verdict.cases == ("9.8B",)
    with pytest.raises(IllegalActionError) as exc:
        rs.require("march", {"flag": True, "n": 0}, notation="march 0101")
    assert exc.value.cases == ("9.8B",) and "t.rules:1" in str(exc.value)


def test_a_permit_overrides_only_the_forbids_citing_its_cases():
    """Precedence: a firing forbid wins unless a firing permit cites one of its cases (by `by` or
    `over`): a permit written for 9.8B does not cancel a later forbid line of 9.9J."""
    rs = rules("forbid march by 9.8B when flag\npermit march by 9.6A over 9.8B when n > 5\n"
               "forbid march by 9.9J when ground is snow\npermit march by 9.9K when n = 9\n")
    assert rs.allowed("march", {"flag": True, "n": 6, "ground": "dry"})
    assert not rs.allowed("march", {"flag": True, "n": 6, "ground": "snow"})   # 9.9J: no permit cites it
    assert not rs.allowed("march", {"flag": False, "n": 9, "ground": "snow"})
    verdict = rs.permission("march", {"flag": True, "n": 6, "ground": "dry"})
    assert verdict.value is True and verdict.lines[0].note == "overridden by t.rules:2"
    assert verdict.lines[0].overridden and verdict.lines[0].to_dict()["overridden"] is True
    assert not verdict.lines[1].overridden and "overridden" not in verdict.lines[1].to_dict()
    assert verdict.lines[1].note == "an exception to t.rules:1"
    rs2 = rules("forbid march by 9.9J when ground is snow\npermit march by 9.9J when n = 9\n")
    assert rs2.allowed("march", {"ground": "snow", "n": 9})   # the permit's own case 9.9J names the forbid
    with pytest.raises(IllegalActionError) as exc:
        rs.require("march", {"flag": True, "n": 6, "ground": "snow"})
    assert exc.value.cases == ("9.9J",)


def test_over_must_name_a_forbid_case_of_the_same_action():
    with pytest.raises(ScriptSyntaxError,
                       match=r"t.rules:2:1: march: `over 9.9J`: no forbid line of `march` cites 9.9J"):
        rules("forbid march by 9.8B when flag\npermit march by 9.6A over 9.9J\n")


def test_asked_facts_are_put_only_when_a_line_reads_them_and_change_no_verdict():
    """AskedFacts (kernel.script): a fact given as a question is asked the first time a line
    reads it, once; ``not (flag and n > 5)`` reads ``n`` only when ``flag`` holds. Verdicts and
    their lines equal those of the plain facts."""
    from casebook.script import AskedFacts
    rs = rules("forbid march by 2.4A when not (flag and n > 5)\nforbid march by 2.4B when n = 9\n")
    for flag in (False, True):
        for n in (0, 6, 9):
            asked = []
            facts = AskedFacts({"flag": flag}, {"n": lambda n=n: asked.append("n") or n})  # noqa: B023 - called at once, inside the loop
            lazy, plain = rs.permission("march", facts), rs.permission("march", {"flag": flag, "n": n})
            assert (lazy.value, lazy.cases) == (plain.value, plain.cases)
            assert [(ln.fired, ln.cases) for ln in lazy.lines] == [(ln.fired, ln.cases) for ln in plain.lines]
            assert asked == ["n"]  # the second line always reads n; asked once however often read
    facts = AskedFacts({"flag": False}, {"n": lambda: pytest.fail("n must not be asked")})
    assert not rules("forbid march by 2.4A when not (flag and n > 5)\n").allowed("march", facts)


def test_explanation_lists_every_line_and_is_plain_data():
    rs = rules("quantity q = sum by 1.0\n  +2 by 1.1 when flag\n  -1 by 1.2 when not flag\n"
               "  clamp -1 to 1 by 1.3\n")
    e = rs.explain("q", {"flag": True})
    assert isinstance(e, Explanation) and e.value == 1
    assert [(ln.kind, ln.cases, ln.fired, ln.amount, ln.source) for ln in e.lines] == [
        ("term", ("1.1",), True, 2, "t.rules:2"),
        ("term", ("1.2",), False, None, "t.rules:3"),
        ("clamp", ("1.3",), True, 1, "t.rules:4"),
    ]
    assert e.cases == ("1.1", "1.3")
    assert json.loads(json.dumps(e.to_dict()))["lines"][0]["text"] == "+2 by 1.1 when flag"
    assert "✓" in e.render()


def test_missing_fact_is_a_clear_error():
    rs = rules("quantity q = sum\n  +1 by 1.1 when flag\n  count(units) by 1.2\n")
    with pytest.raises(MissingFactError, match="fact `flag` was not given"):
        rs.value("q", {})
    with pytest.raises(MissingFactError, match="units"):
        rs.value("q", {"flag": True})


def test_type_errors_are_reported():
    with pytest.raises(ScriptSyntaxError) as exc:
        rules("quantity q = sum\n  ground by 1.1\n  +1 by 1.2 when n\n  × 2 by 1.3\n")
    text = str(exc.value)
    assert "t.rules:2:3: q: a number is needed here" in text
    assert "t.rules:3:18: q: a condition must be true or false" in text
    assert "t.rules:4:3: q: `×` marks a multiplier, but `q` is a sum" in text


def test_duplicate_quantity_and_unknown_action():
    with pytest.raises(ScriptSyntaxError) as exc:
        rules("quantity q = sum\n  +1 by 1.1\nquantity q = sum\n  +1 by 1.1\nforbid marhc by 1.1\n")
    text = str(exc.value)
    assert "t.rules:3:10: q: quantity `q` is already defined at t.rules:1:10" in text
    assert "unknown action `marhc`; did you mean `march`?" in text


def test_no_eval_or_exec_in_the_language_package(repo_root):
    for path in (repo_root / "src" / "casebook" / "script").glob("*.py"):
        source = path.read_text()
        assert "eval(" not in source and "exec(" not in source, path


@pytest.mark.parametrize("n", [-7, -6, -5, -1, 0, 1, 2, 3, 5, 6, 7, 9])
def test_integer_quotient_rounding_matches_exact_fractions(n):
    """``a / k rounded …`` takes an integer fast path; it must agree with exact rational rounding
    (floor, ceiling, nearest with halves up) for negative numbers too."""
    import math

    for k in (2, 3, -2):
        for mode, exact in (("down", math.floor(Fraction(n, k))), ("up", math.ceil(Fraction(n, k))),
                            ("nearest", math.floor(Fraction(n, k) + Fraction(1, 2)))):
            rs = rules(f"quantity q = sum\n  n / {k} rounded {mode} by 1.1\n")
            assert rs.value("q", {"n": n}) == exact, (n, k, mode)
            assert rs.explain("q", {"n": n}).value == exact


def test_fused_tests_on_facts_and_fields_keep_their_meaning():
    """Comparisons of a plain fact or field with a constant run as one closure; the results, and
    a missing fact's error, are those of the general path."""
    rs = rules("quantity q = sum\n"
               "  +1 by 1.1 when ground is mud\n"
               "  +2 by 1.2 when ground in [snow, mud]\n"
               "  +4 by 1.3 when n >= 3\n"
               "  +8 by 1.4 when any unit has class not in [armor, ski]\n"
               "  +16 by 1.5 when all units have strength < 5\n"
               "  +32 by 1.6 when no unit has class is ski\n")
    units = [{"class": "infantry", "strength": 4, "tired": False},
             {"class": "armor", "strength": 3, "tired": True}]
    assert rs.value("q", {"ground": "mud", "n": 3, "units": units}) == 1 + 2 + 4 + 8 + 16 + 32
    assert rs.value("q", {"ground": "dry", "n": 2, "units": units[1:]}) == 16 + 32
    ski = [{"class": "ski", "strength": 6, "tired": False}]
    assert rs.value("q", {"ground": "snow", "n": 9, "units": ski}) == 2 + 4
    with pytest.raises(MissingFactError):
        rs.value("q", {"n": 3, "units": units})


def test_case_ids_with_a_game_prefix_are_cited_like_any_other():
    """A pack whose rules have no printed numbers may prefix its own ids (``BM8.3``) so they never
    collide with another game's; the script grammar accepts every id the case index does
    (casebook.content.cases.CASE_ID)."""
    from casebook.content.cases import CASE_ID

    ids = ["BM8.3", "BM2.2A", "B1", "10.4.5C", "0.2.3.1", "7", "AB12.1C2"]
    assert all(CASE_ID.match(i) for i in ids)
    text = "quantity q = sum by BM8\n" + "".join(f"  +1 by {i} when flag\n" for i in ids)
    rs = rules(text)
    assert rs.value("q", {"flag": True}) == len(ids)
    cited = [c for line in rs.explain("q", {"flag": True}).lines for c in line.cases]
    assert cited == ids
    assert set(rs.cases_cited()) == {*ids, "BM8"}
