"""Which lines fired (issue #15 deliverable 3; docs/rule-language.md, "Which lines fired"): a line
is named by an event or an answer when its condition held *and* it made the value or verdict what
it is — a term that adds 0, a line a `first` did not take, a permit a deciding forbid overrules are
not (a sum's start, its base, is, even at 0) — and each line is named once. The fast path (``Ctx.value``/``Ctx.allowed``,
noting without an explanation) and the explained one (``Ctx.quantity``/``Ctx.permission``,
``Ctx.fired_lines``) name the same lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.script.explain import Explanation, Line, unique_lines

ROOT = Path(__file__).resolve().parent.parent
POSITION = """kind: position
format: 1
game: moscow41
map: {layout: flat-top-even-q, size: {columns: 6, rows: 6}, terrain: {default: clear}}
turn: 5
phase: first_player
step: combat
phasing: german
weather: {temperature: warm, ground: dry}
units:
  - {counter: g-6id, hex: '0303', activated: true}
"""


def _line(file: str, text: str) -> str:
    """``file:N`` of the rule line of ``games/moscow41/rules/FILE`` starting (stripped) with ``text``."""
    rows = (ROOT / "games" / "moscow41" / "rules" / file).read_text(encoding="utf-8").split("\n")
    [n] = [i for i, row in enumerate(rows, 1) if row.strip().startswith(text)]
    return f"{file}:{n}"


HEDGEHOG = _line("combat.rules", "-(total(strength of units having hedgehog) / 2)  by 14.4D")
GUARDS = _line("combat.rules", "count(units having guards and not printed_guards)   by 10.7C")
START = _line("combat.rules", "start total(strength of units)")


def _unit(strength: int, **flags: bool) -> dict:
    out = {"class": "infantry", "strength": strength}
    for flag in ("guards", "hedgehog", "scattered"):
        out[flag] = flags.get(flag, False)
        out[f"printed_{flag}"] = flags.get(f"printed_{flag}", False)
    return out


def _named(m41, name: str, facts: dict) -> tuple[object, list[str]]:
    """``name``'s value for ``facts`` and the lines it names, the fast path and the explained one
    asserted equal (the event's lines and :meth:`Ctx.fired_lines`)."""
    from casebook.content.position import load_position
    from casebook.script.engine import state_from_position

    state = state_from_position(load_position(POSITION, pack=m41.pack))
    fast, slow = m41.ctx(state, event_lines=True), m41.ctx(state, event_lines=True)
    value = fast.value(name, dict(facts))
    e = slow.quantity(name, dict(facts))
    assert e.value == value
    assert list(fast.event_lines) == list(slow.event_lines) == [ln["source"] for ln in slow.fired_lines(e)]
    return value, list(fast.event_lines)


@pytest.mark.case("14.4D")
def test_14_4D_hedgehog_line_named_only_when_halving(m41):
    """14.4D: "A unit attacking while in hedgehog formation has its strength halved": the halving
    line is named for an attacking stack with a hedgehog unit (7 halved: 7/2), not for one
    without (it takes 0 off) nor for a defending hedgehog (its condition, attacking, is false)."""
    value, named = _named(m41, "combat_strength", {"units": [_unit(7, hedgehog=True)], "attacking": True,
                                                    "fortified": False})
    assert value == pytest.approx(3.5) and HEDGEHOG in named and START in named
    value, named = _named(m41, "combat_strength", {"units": [_unit(7)], "attacking": True, "fortified": False})
    assert value == 7 and HEDGEHOG not in named and named == [START]
    value, named = _named(m41, "combat_strength", {"units": [_unit(7, hedgehog=True)], "attacking": False,
                                                    "fortified": False})
    assert value == 7 and HEDGEHOG not in named


@pytest.mark.case("10.7C")
def test_10_7C_guard_line_named_only_for_a_guards_unit(m41):
    """10.7C: a unit raised to Guards status adds 1 to its strength (a division printed with it
    has no marker: ``printed_guards``). The guards line is named for a Guards unit (6 + 1 = 7),
    not for a unit without the status, nor for one printed with it (it counts 0)."""
    value, named = _named(m41, "combat_strength", {"units": [_unit(6, guards=True)], "attacking": False,
                                                    "fortified": False})
    assert value == 7 and GUARDS in named
    value, named = _named(m41, "combat_strength", {"units": [_unit(6)], "attacking": False, "fortified": False})
    assert value == 6 and named == [START]
    value, named = _named(m41, "combat_strength", {"units": [_unit(6, guards=True, printed_guards=True)],
                                                    "attacking": False, "fortified": False})
    assert value == 6 and GUARDS not in named


@pytest.mark.case("10.3B", "10.3C")
def test_10_3B_a_loss_line_named_only_for_the_side_with_losses(m41):
    """10.3B-C: the largest Loss marker of each side shifts the ratio. With a 1-Loss attacker and
    no defender losses the shift is -1 and only the attackers' line is named; with no losses
    anywhere the shift is 0 and no line is (no condition held)."""
    attacker = _line("combat.rules", "-highest(losses of attackers)")
    defender = _line("combat.rules", "highest(losses of defenders)")
    value, named = _named(m41, "loss_shift", {"attackers": [{"losses": 1}], "defenders": [{"losses": 0}]})
    assert value == -1 and named == [attacker] and defender not in named
    value, named = _named(m41, "loss_shift", {"attackers": [{"losses": 0}], "defenders": [{"losses": 0}]})
    assert value == 0 and named == []


@pytest.mark.case("11.0B")
def test_11_0B_a_retreat_length_names_its_start_and_the_R_line_only_for_an_R(m41):
    """11.0B: "R" retreats 1 hex, a number that many. A sum's ``start`` is its base and is named
    even at 0: an "R" alone (number 0, +1) names the start and the +1 line; a "2" the start only."""
    start = _line("combat.rules", "start result_number  by 11.0B")
    plus_r = _line("combat.rules", "+1 by 11.0B  when result_retreat")
    assert _named(m41, "retreat_hexes", {"result_number": 0, "result_retreat": True}) == (1, [start, plus_r])
    assert _named(m41, "retreat_hexes", {"result_number": 2, "result_retreat": False}) == (2, [start])


@pytest.mark.case("16.1B")
def test_16_1B_partisan_points_name_the_remnants_start_even_at_1(m41):
    """16.1B: one Partisan Track point for every three remnants, fractions lost. One remnant: the
    product's start (1, the base: named), × 1/3 and the round down (1/3 -> 0) are all named."""
    start = _line("partisans.rules", "start remnants_disbanded")
    third = _line("partisans.rules", "× ⅓")
    down = _line("partisans.rules", "round down                by 16.1B")
    assert _named(m41, "partisan_points_gained", {"remnants_disbanded": 1}) == (0, [start, third, down])
    assert _named(m41, "partisan_points_gained", {"remnants_disbanded": 3}) == (1, [start, third])


def _perm(lines: list[tuple[str, bool, bool]], value: bool) -> Explanation:
    out = tuple(Line(kind, (f"1.{i}",), f"x.rules:{i}", kind, fired, overridden=over)
                for i, (kind, fired, over) in enumerate(lines, 1))
    return Explanation("act", "permission", "permission", value, out)


def test_a_refusal_names_its_forbid_lines_not_a_permit_the_forbid_overrules():
    """A refused action names the forbid lines that took effect, never a permit that fired but
    did not override them; an allowed one names the permits that fired (one overriding a forbid,
    or one standing alone), never the forbid it overrode."""
    refused = _perm([("forbid", True, False), ("permit", True, False), ("forbid", False, False)], False)
    assert [ln.source for ln in refused.deciding()] == ["x.rules:1"]
    allowed = _perm([("forbid", True, True), ("permit", True, False), ("permit", False, False)], True)
    assert [ln.source for ln in allowed.deciding()] == ["x.rules:2"]


def test_a_min_or_max_names_the_line_whose_value_it_took():
    """``min``/``max``: the one line whose value is taken (the first, on a tie), not every line
    that fired; a ``first``: the line that decided, its ``otherwise`` only when no other fired."""
    lines = (Line("start", ("1.1",), "x.rules:1", "start", True, 4), Line("term", ("1.2",), "x.rules:2", "t", True, 2),
             Line("term", ("1.3",), "x.rules:3", "t", True, 3), Line("term", ("1.4",), "x.rules:4", "t", True, 2))
    assert [ln.source for ln in Explanation("q", "quantity", "min", 2, lines).deciding()] == ["x.rules:2"]
    assert [ln.source for ln in Explanation("q", "quantity", "max", 4, lines).deciding()] == ["x.rules:1"]
    first = (lines[0], lines[1], Line("term", ("1.3",), "x.rules:3", "t", False))
    assert [ln.source for ln in Explanation("q", "quantity", "first", 2, first).deciding()] == ["x.rules:2"]
    assert [ln.source for ln in Explanation("q", "quantity", "first", 4, first[:1]).deciding()] == ["x.rules:1"]


def test_a_line_is_named_once_in_the_order_first_seen(m41):
    """An event or answer names a line once however often it fired: ``Ctx.fired_lines`` of the
    same explanation twice (e.g. the dice line of two dice rolls), an event given a list with a
    line twice, and an answer's lines (``unique_lines``)."""
    from casebook.content.position import load_position
    from casebook.core.trace import Trace
    from casebook.script.engine import state_from_position

    state = state_from_position(load_position(POSITION, pack=m41.pack))
    ctx = m41.ctx(state, Trace(), event_lines=True)
    e = ctx.quantity("combat_dice", {})
    named = ctx.fired_lines(e, e)
    assert len(named) == 1 and named[0]["cases"] == ["10.0D"]
    twice = [{"source": "a.rules:1", "cases": ["1"]}, {"source": "a.rules:2", "cases": ["2"]},
             {"source": "a.rules:1", "cases": ["1"]}]
    event = ctx.record("probe", (), {"lines": twice})
    assert event is not None and [ln["source"] for ln in event.data["lines"]] == ["a.rules:1", "a.rules:2"]
    assert unique_lines(twice) == twice[:2]
