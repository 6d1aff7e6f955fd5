"""Events name the supply and command lines behind them (issue #15 deliverable 3): a unit's supply
answer and its command answer are kept in their side store with the lines that decided them
(``ctx.kept``, those citing a case the answer cites, as ``casebook ask`` keeps them), and every
read notes them again — so an event whose number or permission came from a unit's supply (a
move's MA, 5.7B; an IP spent on a unit, 5.7A) or from an HQ's command paths (an activation,
8.1A) names those ``file:line``s, whatever the caches held (tests/test_event_lines_kept.py plays
the same Blitz cold and warm and checks these lines there too).

The lines are found by reading games/moscow41/rules/{supply,command}.rules, not by number.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.tools.cmd_ask import answer_ctx

_RULES = Path(__file__).resolve().parents[1] / "games" / "moscow41" / "rules"


def rule_line(name: str, text: str) -> str:
    """``name:N`` of the first line of rules/``name`` that starts with ``text`` (indent aside)."""
    lines = (_RULES / name).read_text().splitlines()
    return f"{name}:{next(i for i, ln in enumerate(lines, 1) if ln.strip().startswith(text))}"


def supply_path_mp_line() -> str:
    """The line deciding ``supply_path_mp`` (5.2B-C): the ``otherwise`` row after its head."""
    lines = (_RULES / "supply.rules").read_text().splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("quantity supply_path_mp"))
    number = next(i for i in range(head + 1, len(lines)) if lines[i].strip().startswith("otherwise"))
    return f"supply.rules:{number + 1}"


@pytest.fixture(scope="module")
def blitz_events():
    """The Blitz (greedy, seed 1) played until it has an HQ activation and a move: the first of
    each with the position it was played from."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    state = Game.load("moscow41", "october-blitz").new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    found: dict[str, tuple] = {}
    for _ in range(80):
        before, seen = state.clone(), len(state.trace)
        state.apply(bots[state.current_player()].choose(state))
        for e in list(state.trace)[seen:]:
            if e.kind in ("move", "activate-hq") and e.kind not in found:
                found[e.kind] = (e, before)
        if len(found) == 2:
            return found
    raise AssertionError(f"no move and HQ activation in 80 actions: {sorted(found)}")


def _sources(lines) -> list[str]:
    return [ln["source"] for ln in lines]


@pytest.mark.case("5.7B", "0.7.3.2A")
def test_5_7B_a_supplied_stacks_move_names_no_supply_line_and_not_whose_units_move(blitz_events):
    """A move's MA read its units' supply, but only 5.7B's ``× ½ when not supplied`` reads it:
    supplied, the move names neither the supply search's lines nor ``movement_side`` (whose units
    move now: a permission of the step, not of the move), as ``ask move`` and ``why`` (session 17;
    games/moscow41/tests/test_move_lines_agree.py has an unsupplied stack's)."""
    move, before = blitz_events["move"]
    named = _sources(move.data["lines"])
    for uid in move.data["units"]:
        assert answer_ctx(before.ctx(), "supply", [uid], {})["in_supply"], uid
    assert rule_line("movement.rules", "× ½  by 5.7B") not in named
    assert not [s for s in named if s.startswith("supply.rules:")], named
    assert rule_line("movement.rules", "otherwise phasing_side") not in named
    assert rule_line("movement.rules", "start printed_ma") in named  # the MA (9.1A) it moved with


@pytest.mark.case("8.1A", "8.1B", "5.7A")
def test_8_1A_an_hq_activation_names_its_command_path_and_supply_lines(blitz_events):
    activation, before = blitz_events["activate-hq"]
    named = _sources(activation.data["lines"])
    # the command path's length (8.1A, 0.2.4.8) and the enemy units it never passes (8.0A, 8.1B)
    assert rule_line("command.rules", "otherwise command_radius") in named
    assert rule_line("command.rules", "forbid trace_command_through_enemy") in named
    # the IP spent on each stack (5.7A: only a unit in supply receives IPs) read its supply
    assert supply_path_mp_line() in named
    # the EZOC hexes no command path passes (7.4, 8.1B): Soviet ZOCs lie next to the German front
    assert rule_line("zoc.rules", "forbid trace_command_through_ezoc") in named
    for uid in activation.data["units"]:
        answer = answer_ctx(before.ctx(), "command", [uid], {})
        assert answer["in_command"]
        # the activation traces its HQ's paths (the command area's path), not whether the unit
        # must trace one at all (trace_command_path): every other command.rules line ask command
        # names is named (ask also names the ZOC answers' own verdicts of the hexes the EZOC map
        # asked, e.g. blocks_supply: that map is worked out apart in play)
        asked = [ln["source"] for ln in answer["lines"] if ln["source"].startswith("command.rules:")
                 and not ln["text"].lstrip().startswith(("permit trace_command_path", "forbid trace_command_path"))]
        assert asked and set(asked) <= set(named), (uid, asked, named)


def test_without_the_kept_answer_lines_the_events_name_no_supply_line(monkeypatch):
    """The same play with the supply answer worked out apart again (the old behaviour): the HQ
    activation names no supply line, so the test above can fail."""
    from casebook.areas import supply_trace
    from tests.conftest import played_blitz

    kept_answer = supply_trace.answer

    def apart(cfg, ctx, uid, may_use_hq, compose):
        if ctx.event_lines is None:
            return kept_answer(cfg, ctx, uid, may_use_hq, compose)
        with ctx.apart():
            return kept_answer(cfg, ctx, uid, may_use_hq, compose)

    monkeypatch.setattr(supply_trace, "answer", apart)
    state = played_blitz(45)
    activation = next(e for e in state.trace if e.kind == "activate-hq")
    assert supply_path_mp_line() not in _sources(activation.data["lines"])
