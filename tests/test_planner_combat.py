"""The planning bot's combat judgement (session 6): CRT cells read as losses, retreats and fatigue,
combat support bought by whole DRMs from spare IPs, both games' CRT notations."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.core.hexgrid import parse_hex
from casebook.tools.bots import make_bot
from casebook.tools.planner import PlannerBot
from casebook.tools.planner_combat import ATTACKER_STEP, FATIGUE, expected_value, side_value, spare_ips, support_options
from casebook.tools.planner_eval import build_view
from casebook.tools.planner_goals import goals_for
from tests._planner_positions import hq as _hq
from tests._planner_positions import inf as _inf
from tests._planner_positions import state as _state


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


@pytest.fixture(scope="module")
def bfm():
    return Game.load("battle_for_moscow", "campaign")


# ------------------------------------------------------------------ combat judgement (session 6)

@pytest.mark.case("11.0B")
def test_11_0B_crt_codes_read_as_losses_or_hexes_and_fatigue():
    assert side_value("-") == (0.0, 0.0)
    assert side_value("F") == (0.0, 1.0)
    assert side_value("R") == (1.0, 0.0)
    assert side_value("2") == (2.0, 0.0)
    assert side_value("F1") == (1.0, 1.0)
    assert side_value("FR") == (1.0, 1.0)
    assert side_value("F3") == (3.0, 1.0)
    assert side_value("Ex") == (0.0, 0.0)   # a notation it does not know counts as nothing
    # half the rolls -/2, half 1/F: 0.5 * 2 * DEFENDER_STEP + 0.5 * (FATIGUE - ATTACKER_STEP)
    answer = {"outcomes": [{"roll": 7, "probability": "1/2", "result": "-/2"},
                           {"roll": 3, "probability": "1/2", "result": "1/F"}]}
    assert expected_value(answer) == pytest.approx(0.5 * 2 + 0.5 * (FATIGUE - ATTACKER_STEP))
    assert expected_value({"outcomes": []}) is None


@pytest.mark.case("10.4.2A")
def test_10_4_2A_support_is_filled_by_whole_DRMs_and_only_from_spare_IPs(blitz):
    # 6 against 6 (1:1) in the radius of an activated HQ (10.4.2B); the German has 9 IPs and one
    # other HQ not yet activated: 8 IPs to spare
    units = (_inf("german", "g1", "0303", 6, True) + _inf("soviet", "s1", "0304", 6)
             + _hq("german", "g-hq", "0203", True) + _hq("german", "g-hq2", "0808", False))
    state = _state(blitz, units, "combat", ip=9)
    assert spare_ips(state, "german") == 8
    listed = [a for a in state.legal_actions() if a.kind == "attack"]
    bot = PlannerBot("german", 1)
    nets = {}

    def net(a):
        from casebook.tools.planner import _answer
        found = _answer(state, state.ctx(), a, bot._answers)
        nets[int(a.get("support"))] = found[3]
        return found[3]

    offered = sorted(int(a.get("support")) for a in support_options(listed, 8, net))
    # 2 IPs a DRM for the Germans (10.4.2A): 0, 2, 4, 6, 8 until the net DRM cap (10.4.5C) stops it
    assert offered[:2] == [0, 2] and all(k % 2 == 0 for k in offered) and len(offered) >= 3
    assert all(nets[b] == nets[a] + 1 for a, b in zip(offered, offered[1:]))
    choice = bot.choose(state)
    assert choice.kind == "attack" and int(choice.get("support")) % 2 == 0
    assert state.why_not(choice) == ((), "legal")


def test_spare_ips_keep_one_per_hq_still_to_activate(blitz):
    units = (_inf("german", "g1", "0303", 6, True) + _hq("german", "g-a", "0101", False)
             + _hq("german", "g-b", "0102", False) + _hq("german", "g-c", "0103", True))
    state = _state(blitz, units, "combat")
    assert state.data.track("ip", "german") == 0 and spare_ips(state, "german") == 0


def test_view_distance_is_the_grids(blitz, bfm):
    for game in (blitz, bfm):
        state = game.new_initial_state(1)
        board = game.engine.board_for(state.data)
        view = build_view(state, "german", goals_for(state.data.scenario, board, state.data.sides))
        labels = sorted({u["hex"] for u in state.data.units if u.get("hex")})[:40]
        for a in labels:
            for b in labels:
                assert view.distance(a, b) == board.grid.distance(parse_hex(a), parse_hex(b))


def test_classic_crt_codes_are_read_as_battle_for_moscow_prints_them(bfm):
    # BM8.5: the 3:1 column of Battle for Moscow's CRT (DR DR DR EX EX DRL), asked of the rules
    state = bfm.new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in state.data.sides}
    while not any(a.kind == "attack" for a in state.legal_actions()):
        state.apply(bots[state.current_player()].choose(state))
    ctx = state.ctx()
    answers = [ctx.hook.casebook_answer(ctx=ctx, question="attack", args=[a.get("hex")],
                                        options={"with": list(a.get("with")), "support": [0, 0]})
               for a in state.legal_actions() if a.kind == "attack"]
    three = next(a for a in answers if a["column"] == "3:1")
    assert [o["result"] for o in three["outcomes"]] == ["DR", "DR", "DR", "EX", "EX", "DRL"]
    # defender: 3/6 * 1 + 2/6 * 1 + 1/6 * 2 steps or retreats; attacker: 2/6 * 1 step (EX)
    assert expected_value(three) == pytest.approx(7 / 6 - ATTACKER_STEP * 2 / 6)
