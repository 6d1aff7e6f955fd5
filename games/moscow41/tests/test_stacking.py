"""Moscow '41 stacking (6.0-6.2) on small inline maps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.areas import stacking
from casebook.core.actions import Action
from tests.conftest import m41_inline

ROOT = Path(__file__).resolve().parents[3]

G_DIV = "side: german, class: infantry, size: division, strength: 7, ma: 4"
G_REG = "side: german, class: armor, size: regiment, strength: 4, ma: 8"
S_DIV = "side: soviet, class: infantry, size: division, strength: 6, ma: 4"
S_BDE = "side: soviet, class: armor, size: brigade, strength: 3, ma: 8"
S_INF = "side: soviet, class: infantry, size: division, strength: 6, ma: 4"
HQ = "side: german, class: hq, ma: 6, radius: 4, limit: 3"


def pos(*units: tuple[str, str, str], extra: str = "") -> str:
    lines = "".join(f'  - {{id: {uid}, {kind}, hex: "{h}"{extra_u}}}\n'
                    for uid, kind, h, *rest in units for extra_u in [rest[0] if rest else ""])
    return m41_inline(lines, step="movement", turn=None, ip=None, first_player=None, extra=extra)


def over(ctx, hex_: str) -> tuple[int, int, bool]:
    a = stacking.stacking_answer(ctx, hex_)
    return a["points"], a["limit"], a["overstacked"]


@pytest.mark.case("6.0A")
def test_6_0A_german_one_division_and_a_regiment_or_four_regiments(position):
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303"),
                       ("r2", G_REG, "0505"), ("r3", G_REG, "0505"), ("r4", G_REG, "0505"), ("r5", G_REG, "0505"),
                       ("d2", G_DIV, "0707"), ("r6", G_REG, "0707"), ("r7", G_REG, "0707"),
                       ("d3", G_DIV, "0101"), ("d4", G_DIV, "0101")))
    assert over(ctx, "0303")[2] is False                 # division + regiment
    assert over(ctx, "0505")[2] is False                 # four regiments
    assert over(ctx, "0707")[2] is True                  # division + two regiments
    assert over(ctx, "0101")[2] is True                  # two divisions


@pytest.mark.case("6.0B")
def test_6_0B_soviet_two_divisions_and_one_other_a_division_counting_two(position):
    ctx = position(pos(("d1", S_DIV, "0303"), ("d2", S_DIV, "0303"), ("b1", S_BDE, "0303"),
                       *[(f"b{i}", S_BDE, "0505") for i in range(2, 7)],
                       ("d3", S_DIV, "0707"), ("d4", S_DIV, "0707"), ("b7", S_BDE, "0707"), ("b8", S_BDE, "0707"),
                       ("d5", S_DIV, "0101"), ("d6", S_DIV, "0101"), ("d7", S_DIV, "0101")))
    assert over(ctx, "0303") == (5, 5, False)            # two divisions + one other
    assert over(ctx, "0505") == (5, 5, False)            # five smaller units
    assert over(ctx, "0707")[2] is True                  # two divisions + two others
    assert over(ctx, "0101")[2] is True                  # three divisions


@pytest.mark.case("6.1")
def test_6_1_any_number_of_hqs_stack_free(position):
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303"),
                       ("h1", HQ, "0303"), ("h2", HQ, "0303"), ("h3", HQ, "0303")))
    answer = stacking.stacking_answer(ctx, "0303")
    assert (answer["points"], answer["overstacked"]) == (4, False)
    assert {r["id"]: r["points"] for r in answer["units"]}["h1"] == 0
    # 6.1: one or more HQs add one strength point to the hex (script combat_strength)
    units = [{"class": "infantry", "strength": 7, "guards": False, "printed_guards": False, "hedgehog": False},
             *[{"class": "hq", "strength": 0, "guards": False, "printed_guards": False, "hedgehog": False}] * 3]
    assert ctx.value("combat_strength", {"units": units, "attacking": False, "fortified": False}) == 8


@pytest.mark.case("6.2A")
def test_6_2A_stacking_is_not_checked_while_passing_through(position):
    # d2 moves through the full hex 0303 (division + regiment) and ends in the empty 0305.
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303"), ("d2", G_DIV, "0302")))
    assert stacking.casebook_validate_action(
        ctx, Action.make("move", "german", stack="0302", path=("0303", "0304", "0305"))) == []
    # …and it is checked at the end of the Command Step (recorded for correction, 6.2F)
    traced = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303"), ("d2", G_DIV, "0303")), trace=True)
    found = stacking.overstack_check(traced, "command")
    assert [a["hex"] for a in found] == ["0303"]
    assert [e.kind for e in traced.trace] == ["overstacked"]
    assert traced.state.unit("d2").get("fatigued") is None         # no fatigue at the Command Step


@pytest.mark.case("6.2B")
def test_6_2B_a_move_cannot_end_overstacked(position):
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303"), ("d2", G_DIV, "0302", ", activated: true")))
    refused = stacking.casebook_validate_action(ctx, Action.make("move", "german", stack="0302", path=("0303",)))
    assert len(refused) == 1 and refused[0].cases[0] == "6.2B" and "7 stacking points" in refused[0].reason
    r2 = position(pos(("d1", G_DIV, "0303"), ("r2", G_REG, "0302", ", activated: true")))
    assert stacking.casebook_validate_action(r2, Action.make("move", "german", stack="0302", path=("0303",))) == []


@pytest.mark.case("6.2B")
def test_6_2B_an_unlisted_move_is_judged_by_the_units_it_moves(position):
    """A typed ``move stack=0302`` without ``units=`` moves only the units that may move (9.4A:
    the activated division d2, not the unactivated regiment r9 beside it): in 0303 it joins the
    regiment r1, 3 + 1 = 4 points against the German limit 4 (6.0A) — not overstacked, so not
    refused by 6.2B, though 3 + 1 + 1 would be."""
    ctx = position(pos(("r1", G_REG, "0303"), ("d2", G_DIV, "0302", ", activated: true"), ("r9", G_REG, "0302")))
    move = Action.make("move", "german", stack="0302", path=("0303",))
    assert stacking.casebook_validate_action(ctx, move) == []
    with_all = Action.make("move", "german", stack="0302", path=("0303",), units=("d2", "r9"))
    (refused,) = stacking.casebook_validate_action(ctx, with_all)
    assert refused.cases[0] == "6.2B" and "5 stacking points against a limit of 4" in refused.reason


@pytest.mark.case("6.0A", "6.2B")
def test_6_0A_a_unit_named_twice_counts_once(position):
    """A division and a regiment are within the German limit (6.0A: 3 + 1 of 4 points); naming
    the regiment twice — in the units asked about (`casebook_stacking`, the offer paths) or in a
    move's `units=` (6.2B's end-hex check) — must not count it twice (3 + 1 + 1 would overstack)."""
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0302", ", activated: true")))
    twice = stacking.casebook_stacking(ctx, "0303", ["d1", "r1", "r1"])
    assert (twice["points"], twice["limit"], twice["overstacked"]) == (4, 4, False)
    assert [u["id"] for u in twice["units"]] == ["d1", "r1"]
    move = Action.make("move", "german", stack="0302", path=("0303",), units=("r1", "r1"))
    assert stacking.casebook_validate_action(ctx, move) == []


@pytest.mark.case("6.2C")
def test_6_2C_may_overstack_to_overrun_and_unactivated_units_must_leave(position):
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303", ", activated: true"),
                       ("r2", G_REG, "0302", ", activated: true")))
    action = Action.make("move", "german", stack="0302", path=("0303",), overrun="0304")
    assert stacking.casebook_validate_action(ctx, action) == []
    after = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303", ", activated: true"),
                         ("r2", G_REG, "0303", ", activated: true")))
    answer = stacking.stacking_answer(after, "0303")
    assert answer["overstacked"] and answer["must_leave"] == ["d1"] and "6.2C" in answer["cases"]


@pytest.mark.case("6.2D")
def test_6_2D_overstacked_fact_and_only_the_limit_may_attack(position):
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303"), ("r2", G_REG, "0303"),
                       ("s1", S_INF, "0304")))
    assert stacking.casebook_facts(ctx, "0303")["overstacked"]["value"] is True
    assert stacking.casebook_facts(ctx, "r1")["overstacked"]["value"] is True
    assert stacking.casebook_facts(ctx, "s1")["overstacked"]["value"] is False
    too_many = Action.make("attack", "german", hex="0304", **{"with": ("d1", "r1", "r2")})
    assert [r.cases for r in stacking.casebook_validate_action(ctx, too_many)] == [("6.2D",)]
    limit = Action.make("attack", "german", hex="0304", **{"with": ("d1", "r1")})
    assert stacking.casebook_validate_action(ctx, limit) == []
    # the -1 DRM the combat script gives an attack from an overstacked hex
    base = {"class": "infantry", "fatigued": False, "supplied": True, "across_river": False,
            "across_fortification": False}
    facts = {"ground": "dry", "temperature": "warm", "attacker_side": "german", "defender_side": "soviet",
             "attacker_support_ips": 0, "defender_support_ips": 0, "whole_division": False,
             "defenders": [{"class": "infantry", "hedgehog": False}]}
    drm = lambda o: ctx.value("attack_drm", {**facts, "attackers": [{**base, "overstacked": o}]})  # noqa: E731
    assert drm(True) == drm(False) - 1


@pytest.mark.case("6.2E")
def test_6_2E_overstacked_units_fatigue_at_the_end_of_the_movement_step(position):
    ctx = position(pos(("d1", G_DIV, "0303"), ("r1", G_REG, "0303", ", fatigued: true"),
                       ("r2", G_REG, "0303"), ("h1", HQ, "0303"), ("r3", G_REG, "0505"),
                       ("s1", S_DIV, "0707"), ("s2", S_DIV, "0707"), ("s3", S_DIV, "0707")), trace=True)
    ctx.hook.casebook_step_end(ctx=ctx, phase="first_player", step="movement")
    assert ctx.state.unit("d1")["fatigued"] is True and ctx.state.unit("r2")["fatigued"] is True
    assert ctx.state.unit("r3").get("fatigued") is None                  # not overstacked
    assert ctx.state.unit("h1").get("fatigued") is None                  # HQs have no fatigued side
    assert ctx.state.unit("s1").get("fatigued") is None                  # not the moving player's
    kinds = sorted((e.kind, e.data.get("unit")) for e in ctx.trace if e.kind != "overstacked")
    assert ("fatigue-loss", "r1") in kinds and ("fatigue", "d1") in kinds    # 11.1D for r1
    # 11.1D: the fatigued r1 takes a combat loss, applied as combat losses are (11.3B)
    (loss,) = [e for e in ctx.trace if e.kind == "combat-loss"]
    assert loss.data["unit"] == "r1" and loss.cases[:2] == ("6.2E", "11.1D")
    assert (loss.data["effect"], ctx.state.unit("r1")["losses"]) == ("1-loss", 1)


@pytest.mark.case("6.2F")
def test_6_2F_retreat_into_an_overstack_only_if_no_other_route(position):
    # g1 retreats from 0303 into 0304 (full: division + regiment); 0302 would be open.
    units = [("d1", G_DIV, "0304"), ("r1", G_REG, "0304"), ("g1", G_DIV, "0303")]
    retreat = Action.make("retreat", "german", unit="g1", path=("0304",))
    ctx = position(pos(*units))
    refused = stacking.casebook_validate_action(ctx, retreat)
    assert len(refused) == 1 and refused[0].cases[0] == "6.2F"
    # every other neighbour of 0303 enemy-occupied: the overstack is allowed
    ring = [(f"s{i}", S_DIV, h) for i, h in enumerate(["0202", "0203", "0302", "0402", "0403"])]
    hemmed = position(pos(*units, *ring))
    assert stacking.casebook_validate_action(hemmed, retreat) == []


@pytest.mark.case("6.0A", "6.0B")
@pytest.mark.parametrize("hex_", ["0303", "0304"])
def test_ask_stacking_json(hex_, snapshot, position):
    """What `casebook ask docs/examples/stacking-overstack.yaml stacking HEX --json` prints (same
    hook call as src/casebook/tools/cmd_ask.py, on the session's engine)."""
    ctx = position((ROOT / "docs/examples/stacking-overstack.yaml").read_text())
    answer = ctx.hook.casebook_answer(ctx=ctx, question="stacking", args=[hex_], options={})
    assert json.loads(json.dumps(answer)) == snapshot


@pytest.mark.case("6.0A", "6.0B", "6.2C")
def test_kept_stacking_answers_equal_fresh_ones_over_a_played_prefix():
    """Stacking answers are kept across state changes by the unit fields they read (issue #9):
    over 60 actions of a random Blitz, every occupied hex's answer — and the answer with a
    unit from the next hex added, as a movement listing asks — equals a fresh engine's."""
    from casebook.core.game import Game
    from casebook.script.engine import Engine
    from casebook.tools.bots import RandomBot
    game = Game.load("moscow41", "october-blitz")
    state = game.new_initial_state(seed=3)
    bots = {s: RandomBot(s, 3) for s in ("german", "soviet")}
    e = game.engine
    checked = 0
    for i in range(60):
        if state.is_terminal():
            break
        state.apply(bots[state.current_player()].choose(state))
        if i % 6:
            continue
        warm, cold = state.ctx(), Engine(e.pack, e.board, e.rules, e.pm, e.sequence).ctx(state.data)
        hexes = sorted({u["hex"] for u in state.data.units if u.get("hex")})
        for h, nxt in zip(hexes, hexes[1:] + hexes[:1]):
            here = [u["id"] for u in state.data.units_at(h)]
            for units in (None, here + [state.data.units_at(nxt)[0]["id"]]):
                a = warm.hook.casebook_stacking(ctx=warm, hex=h, units=units)
                assert a == cold.hook.casebook_stacking(ctx=cold, hex=h, units=units), (h, units)
                checked += 1
    assert checked > 1000
