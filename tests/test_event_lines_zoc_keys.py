"""The ZOC answer's blocking verdicts name their own lines, key by key (issue #15 deliverable 3: an
event or answer names the lines that decided it, and only those). A ``casebook_zoc`` answer holds
``blocks_supply``, ``blocks_command`` and ``blocks_retreat`` at once (Moscow '41 zoc.rules: ``forbid
trace_supply_through_ezoc`` 7.4/5.4B, ``forbid trace_command_through_ezoc`` 7.4/8.1B, ``forbid
retreat_into_ezoc`` 7.5A); before, every reader of the answer named all three lines, so a
combat-results event whose retreat met an EZOC named the supply and command lines too.

- reading the answer names none of the three; reading one key names that key's line only; the
  values are the same whether lines are collected or not (fast path = explained path);
- 7.5A: a combat result whose retreat is kept out of EZOC hexes names the retreat line and the
  lines that make the ZOC (7.0A, 7.1A), not the supply or command line;
- ``ask zoc`` answers every key: it names all three; where a friendly combat unit stands in the
  hex (7.4, 7.5A) none of the three forbid lines fires, so none is named;
- ``ask supply`` names the supply line only, ``ask command`` the command line only;
- the retreat steps are the ``retreat_into_ezoc`` line's: a house rule dropping its condition
  closes an EZOC hex a friendly combat unit holds, and the refusal names the edited line.

The lines are found by reading games/moscow41/rules/zoc.rules, not by number.
"""

from __future__ import annotations

from typing import Any

import pytest

from casebook.areas import zoc
from casebook.areas._zoc_cites import answer_closes
from casebook.core.trace import Trace
from casebook.tools.cmd_ask import answer_ctx
from tests.conftest import m41_inline, played_blitz
from tests.test_event_lines_supply_command import rule_line

INF = "class: infantry, size: division, strength: 7, ma: 4"
SUPPLY, COMMAND, RETREAT = (rule_line("zoc.rules", f"forbid {a}") for a in
                            ("trace_supply_through_ezoc", "trace_command_through_ezoc", "retreat_into_ezoc"))
EXERT, INTO = rule_line("zoc.rules", "permit exert_zoc "), rule_line("zoc.rules", "permit zoc_into_hex")


def _unit(side: str, uid: str, hex_: str) -> str:
    return f'  - {{id: {uid}, side: {side}, {INF}, hex: "{hex_}"}}\n'


def _ctx(m41, units: str, event_lines: bool = True):
    """A context on an 8x8 clear map (0304 touches 0303, 0305, 0203, 0204, 0403, 0404), collecting
    an event's lines (``event_lines``) or nothing (the fast path of play's look-ahead and bots)."""
    from casebook.content.position import load_position
    from casebook.script.engine import state_from_position

    state = state_from_position(load_position(m41_inline(units), pack=m41.pack))
    return m41.ctx(state, Trace(), event_lines=event_lines)


def _zoc_lines(sources: Any) -> set[str]:
    return {s for s in sources if s.startswith("zoc.rules:")}


def _event(ctx, read) -> tuple[object, set[str]]:
    """``read(ctx)`` and the zoc.rules lines of the one event recorded after it."""
    value = read(ctx)
    event = ctx.record("test-read")
    assert event is not None
    return value, _zoc_lines(ln["source"] for ln in event.data.get("lines", ()))


@pytest.mark.case("7.4", "7.5A")
def test_7_4_reading_one_blocking_key_names_that_keys_line_only(m41):
    units = _unit("soviet", "s1", "0304")  # its ZOC covers 0303 against the Germans; no one there
    answer, named = _event(_ctx(m41, units), lambda c: zoc.zoc_answer(c, "0303", "german"))
    assert answer["blocks_supply"] and answer["blocks_command"] and answer["blocks_retreat"]
    assert named == {EXERT, INTO}  # the answer read: who exerts the ZOC, no blocking verdict
    for key, line in (("blocks_supply", SUPPLY), ("blocks_command", COMMAND), ("blocks_retreat", RETREAT)):
        def read(c, key=key):
            return answer_closes(c, zoc.zoc_answer(c, "0303", "german"), key)
        closed, named = _event(_ctx(m41, units), read)
        assert closed is True and named == {EXERT, INTO, line}, key
        fast = _ctx(m41, units, event_lines=False)  # nothing collected: the same verdict
        assert read(fast) is True and zoc.zoc_answer(fast, "0303", "german") == answer


@pytest.mark.case("7.5A", "11.2B")
def test_7_5A_a_combat_result_retreating_past_an_ezoc_names_the_retreat_line_not_supply_or_command(m41):
    """g1 (0303) attacks s1 (0304), -/2: the retreat may not enter 0203 or 0403 (g1's ZOC; 7.5A);
    the combat-results event names the retreat line and the lines of g1's ZOC (7.0A, 7.1A) —
    before, also the supply and command lines of the same ZOC answers (7.4)."""
    from casebook.games.moscow41.plugins import results

    ctx = _ctx(m41, _unit("german", "g1", "0303") + _unit("german", "g2", "0503") + _unit("soviet", "s1", "0304"))
    outcome = {"attackers": ["g1"], "defenders": ["s1"], "hex": "0304", "kind": "attack",
               "attacker_side": "german", "defender_side": "soviet", "result": "-/2"}
    done = results.apply_outcome(ctx, outcome, interactive=False)
    retreat = next(e for e in done["effects"] if e["effect"] == "retreat")
    assert not {"0203", "0403"} & set(retreat["path"]) and len(retreat["path"]) == 2
    event = next(e for e in ctx.trace if e.kind == "combat-results")
    assert _zoc_lines(ln["source"] for ln in event.data["lines"]) == {EXERT, INTO, RETREAT}


@pytest.mark.case("7.4", "7.5A")
def test_7_4_ask_zoc_names_every_blocking_line_and_none_where_a_friendly_combat_unit_stands(m41):
    alone = answer_ctx(_ctx(m41, _unit("soviet", "s1", "0304")), "zoc", ["0303", "german"], {})
    assert alone["blocks_supply"] and alone["blocks_command"] and alone["blocks_retreat"]
    assert _zoc_lines(ln["source"] for ln in alone["lines"]) == {EXERT, INTO, SUPPLY, COMMAND, RETREAT}
    held = answer_ctx(_ctx(m41, _unit("soviet", "s1", "0304") + _unit("german", "g1", "0303")),
                      "zoc", ["0303", "german"], {})
    assert not (held["blocks_supply"] or held["blocks_command"] or held["blocks_retreat"])
    assert _zoc_lines(ln["source"] for ln in held["lines"]) == {EXERT, INTO}


@pytest.fixture(scope="module")
def blitz():
    # 120 greedy actions into Turn 1: since session 19 every unit starts in supply with no path
    # meeting an enemy ZOC (test_setup_supply), so the first position names no supply line
    return played_blitz(120)


@pytest.mark.case("5.4B", "8.1B")
def test_5_4B_ask_supply_names_the_supply_line_and_ask_command_the_command_line_only(blitz):
    """The Blitz 120 actions into Turn 1 (German stacks up to the Soviet line), each German unit asked: a supply answer names no command or
    retreat line (and some name the supply line: their paths meet Soviet ZOCs), a command answer
    no supply or retreat line (before: the supply line too, from the ZOC answers its map read)."""
    named = {"supply": set[str](), "command": set[str]()}
    for unit in [u for u in blitz.data.units if u.get("side") == "german" and u.get("hex")][:30]:
        for question in named:
            answer = answer_ctx(blitz.ctx(), question, [unit["id"]], {})
            named[question] |= _zoc_lines(ln["source"] for ln in answer.get("lines", ()))
    assert SUPPLY in named["supply"] and not {COMMAND, RETREAT} & named["supply"]
    assert COMMAND in named["command"] and not {SUPPLY, RETREAT} & named["command"]


@pytest.mark.case("7.5A")
def test_7_5A_the_retreat_line_decides_a_retreat_step_a_house_rule_edit_changes_it(m41, tmp_path):
    """The retreat steps read the ``retreat_into_ezoc`` lines, not Python: with the house rule
    "no retreat into an EZOC, whoever is there" (the line's condition dropped), 0403 — in g1's ZOC,
    held by the Soviet s2 — closes to s1's retreat and the zoc area refuses that retreat too."""
    from casebook.areas._results_retreat import retreat_options
    from casebook.core.actions import Action
    from casebook.games.moscow41.plugins.results import setup
    from tests._pack_edits import rules_edited

    units = _unit("german", "g1", "0303") + _unit("soviet", "s1", "0304") + _unit("soviet", "s2", "0403")
    line = "forbid retreat_into_ezoc          by 7.5A  when not friendly_combat_unit"
    house = rules_edited(m41, tmp_path, "zoc.rules", (line, "forbid retreat_into_ezoc          by 7.5A"))
    retreat = Action.make("retreat", "soviet", unit="s1", path=("0403",))
    for engine, held_open in ((m41, True), (house, False)):
        ctx = _ctx(engine, units)
        paths = [o["path"] for o in retreat_options(ctx, setup(ctx), ["s1"], "0304", "soviet", 1, ["g1"])]
        assert (["0403"] in paths) is held_open
        assert (zoc.casebook_validate_action(ctx, retreat) == []) is held_open
        if not held_open:
            ctx = _ctx(engine, units)  # (an edited pack's lines are named by their full path)
            [refusal] = zoc.casebook_validate_action(ctx, retreat)
            event = ctx.record("test-read")
            assert event is not None and "even with a friendly combat unit" in refusal.reason
            assert any(ln["source"].endswith(f"/rules/{RETREAT}") for ln in event.data["lines"])
