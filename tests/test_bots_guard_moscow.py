"""Guards of the Moscow hexes against a panzer stack (issue #16, session 12; 18.1.3B): the facing
hexes need a share of the threat in themselves, a garrison overrun there takes its losses and stays,
and the greedy bot's key hexes come from the victory block."""

from __future__ import annotations

import pytest

from casebook.core.game import Game
from casebook.core.hexgrid import hex_label
from casebook.tools.bots import make_bot
from casebook.tools.bots_guard import (
    GUARD_CORE,
    GUARD_SHARE,
    bolsters,
    core_need,
    empties,
    exposed,
    facing,
    garrison,
    guard_hexes,
    need,
    short_guards,
    threat,
)
from tests.test_bots_guard_threat import SMOLENSK, _dest


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


# ------------------------------------------------- the Moscow hexes against a panzer stack (session 12)

#: 11th Panzer Division (three units, 6 each) and 5th Panzer Division (three, 7 each): in session 11's
#: planner games (seeds 4, 14, 21, 25, 36, 39, 40) 11th Panzer took 2242 from 1638 or nearer.
PANZERS = {"g-11pz-15": "1638", "g-11pz-110": "1638", "g-11pz-111": "1638",
           "g-5pz-31": "1338", "g-5pz-13": "1338", "g-5pz-14": "1338"}
#: A tank brigade (2 points) in each Moscow hex: no hex open, each one short of a garrison.
BRIGADES = {"s-127tb": "2242", "s-128tb": "2342", "s-143tb": "2343", "s-126tb": "2344", "s-144tb": "2442"}


def _moscow(game, panzers: bool = True, rifle_at: str = "2444"):
    """The Blitz setup in the Soviet movement step of Turn 1: a tank brigade in each Moscow hex, the
    133rd Rifle Division (6 points, full strength) activated at ``rifle_at``, and (``panzers``)
    11th and 5th Panzer Divisions within reach of Moscow."""
    data = game.new_initial_state(1).data.to_dict()
    data["phase"], data["step"], data["phasing"] = "second_player", "movement", "soviet"
    for u in data["units"]:
        if panzers and u.get("id") in PANZERS:
            u["hex"] = PANZERS[u["id"]]
        if u.get("id") in BRIGADES:
            u["hex"] = BRIGADES[u["id"]]
        if u.get("id") == "s-133rd":
            u["hex"], u["activated"] = rifle_at, True
    return game.state_from_dict(data)


def test_18_1_3B_the_moscow_hexes_facing_the_panzers_need_a_share_of_them_in_themselves(blitz):
    """The threat that meets the Moscow hexes first (``facing``: the panzers within reach, no more
    than a hex farther than from the nearest Moscow hex) asks GUARD_SHARE of it in each facing hex
    and its ring, and GUARD_CORE of it in the hex itself; the hex behind the others (2344, east)
    asks nothing; in the setup (no German unit within reach) no hex asks anything."""
    state = _moscow(blitz)
    panzer = sum(u["strength"] for u in blitz.new_initial_state(1).data.units if u["id"] in PANZERS)
    assert panzer == 39
    assert threat(state, "soviet", "2242") == panzer
    assert facing(state, "soviet", "2242") == panzer and facing(state, "soviet", "2344") == 0.0
    assert need(state, "soviet", "2242") == pytest.approx(GUARD_SHARE * panzer)
    assert exposed(state, "soviet", "2242") > 0
    assert core_need(state, "soviet", "2242") == pytest.approx(GUARD_CORE * panzer)
    assert garrison(state, "soviet", "2242") == 2.0
    # the ring of 2242 holds the brigades of 2342 and 2343: the ring need is met sooner than the core
    assert short_guards(state, "soviet")["2242"] == pytest.approx(GUARD_CORE * panzer - 2.0)
    assert "2344" not in short_guards(state, "soviet") and core_need(state, "soviet", "2344") == 0.0
    control = _moscow(blitz, panzers=False)
    assert short_guards(control, "soviet") == {}
    assert all(core_need(control, "soviet", m) == 0.0 for m in guard_hexes(control, "soviet"))


@pytest.mark.parametrize("kind", ["greedy", "planner"])
def test_18_1_3B_the_soviet_bot_sends_a_division_into_the_moscow_hex_facing_the_panzers(blitz, kind):
    """With every Moscow hex held by a 2-point brigade and two panzer divisions within reach, both
    bots move the 133rd Rifle Division into a Moscow hex facing the panzers, where the garrison then
    holds at least GUARD_CORE (0.2) of the panzer strength (2 + 6 >= 7.8); without the panzers the
    division does not go into Moscow."""
    state = _moscow(blitz)
    facing_hexes = {m for m in guard_hexes(state, "soviet") if facing(state, "soviet", m) > 0}
    choice = make_bot(kind, "soviet", 1).choose(state)
    assert choice.get("stack") == "2444" and _dest(choice) in facing_hexes
    after = state.peek(choice)
    assert garrison(after, "soviet", _dest(choice)) >= GUARD_CORE * facing(state, "soviet", _dest(choice))
    assert bolsters(state, choice) == pytest.approx(min(6.0, short_guards(state, "soviet")[_dest(choice)]))
    control = _moscow(blitz, panzers=False)
    assert _dest(make_bot(kind, "soviet", 1).choose(control)) not in guard_hexes(control, "soviet")


def _overrun(game, defender: str, drop_18_1_3B: bool = False):
    """The Blitz setup in the German movement step of Turn 1: 11th Panzer Division (18 points)
    activated next to Moscow (2241), ``defender`` alone in 2242; the panzers overrun it with a die
    of 2 (rng.fixed), and the Soviet player chooses the retreat (or the losses to stay)."""
    data = game.new_initial_state(1).data.to_dict()
    data["step"] = "movement"
    for u in data["units"]:
        if u.get("id") in ("g-11pz-15", "g-11pz-110", "g-11pz-111"):
            u["hex"], u["activated"] = "2241", True
        if u.get("id") == defender:
            u["hex"] = "2242"
    data["rng"]["fixed"] = [2]
    if drop_18_1_3B:
        victory = data["scenario"]["victory"]
        victory["german"] = [c for c in victory["german"] if c.get("case") != "18.1.3B"]
    state = game.state_from_dict(data)
    state.apply(next(a for a in state.legal_actions() if a.kind == "overrun" and a.get("hex") == "2242"))
    assert state.current_player() == "soviet" and all(a.kind == "retreat" for a in state.legal_actions())
    return state


@pytest.mark.parametrize("kind", ["greedy", "planner"])
def test_18_1_3B_a_garrison_overrun_in_moscow_takes_the_losses_and_stays(blitz, kind):
    """Session 11's seed 7 (planner Germans, greedy Soviets): a 6-point division in 2242, overrun at
    3:2, retreated and 11th Panzer moved in (18.1.3B). A retreat out of a guard hex empties it
    (``empties``, peeked), so both bots take the losses that let the 133rd stay; a division already
    worn (the 112th, one loss) would be eliminated by them, so it retreats as before; without
    18.1.3B the full-strength division retreats too."""
    state = _overrun(blitz, "s-133rd")
    leave = [a for a in state.legal_actions() if a.get("path")]
    stay = [a for a in state.legal_actions() if not a.get("path")]
    assert leave and stay and all(empties(state, a) == "2242" for a in leave)
    assert all(empties(state, a) is None for a in stay)
    choice = make_bot(kind, "soviet", 1).choose(state)
    kept = [u for u in state.peek(choice).data.units_at("2242") if u["side"] == "soviet"]
    assert not choice.get("path") and kept  # what stays may be a remnant (11.3C): no garrison, but it bars entry
    worn = _overrun(blitz, "s-112rd")
    assert all(empties(worn, a) == "2242" for a in worn.legal_actions())
    assert make_bot(kind, "soviet", 1).choose(worn).get("path")
    control = _overrun(blitz, "s-133rd", drop_18_1_3B=True)
    assert make_bot(kind, "soviet", 1).choose(control).get("path")


def test_18_1_3B_18_1_3D_greedy_objectives_read_the_decisive_hexes_from_the_victory_block(blitz):
    """bots.py names no map hex set: the +KEY_HEX objectives are the victory block's strike hexes
    (18.1.3B's Moscow hexes, 18.1.3D's Smolensk) and capital hexes it scores; with 18.1.3B dropped
    from the same position the Moscow hexes are towns like any other (those that are towns)."""
    from pathlib import Path

    import casebook.tools.bots as bots_module
    from casebook.tools.bots import KEY_HEX, _key_hexes, _objectives

    state = blitz.new_initial_state(1)
    board = blitz.engine.board_for(state.data)
    moscow = {hex_label(h) for h in board.hex_set("moscow")}
    assert _key_hexes(state, board) == moscow | {SMOLENSK}
    values = _objectives(state)
    towns = {hex_label(h): float(t.get("ip") or 1) for h, t in board.towns().items()}
    assert all(values[m] == towns.get(m, 1.0) + KEY_HEX for m in moscow)
    data = state.data.to_dict()
    data["scenario"]["victory"]["german"] = [c for c in data["scenario"]["victory"]["german"]
                                             if c.get("case") != "18.1.3B"]
    control = blitz.state_from_dict(data)
    assert _key_hexes(control, board) == {SMOLENSK}
    assert all(_objectives(control).get(m) == towns.get(m) for m in moscow)
    assert '"moscow"' not in Path(bots_module.__file__).read_text(encoding="utf-8")


# ------------------------------------------------- remnants and HQs are no garrison (session 13)

def _open_2242(game, remnant: bool = False, rifle: bool = False):
    """``_moscow`` with 2242's tank brigade moved off to 2444 (2242 open, the panzers within reach),
    and optionally a Soviet remnant (the pack's s-rem-01, 1 point) or the 133rd Rifle Division in 2242."""
    data = _moscow(game).data.to_dict()
    for u in data["units"]:
        if u.get("id") == "s-127tb":
            u["hex"] = "2444"
        if rifle and u.get("id") == "s-133rd":
            u["hex"] = "2242"
    if remnant:
        counter = game.engine.pack.counters["s-rem-01"]
        data["units"].append({**counter, "counter": "s-rem-01", "hex": "2242", "losses": 0, "fatigued": False,
                              "oos": False, "activated": False, "reserve": False})
    return game.state_from_dict(data)


@pytest.mark.case("11.3D")
def test_11_3D_a_remnant_is_no_garrison_of_a_guard_hex(blitz):
    """11.3D: a remnant does not count as a combat unit (the Blitz's victory block lists it in
    ``non_combat``): a Moscow hex holding only a remnant stays open to the guard (the bots send a
    garrison) and counts no garrison strength; a move that leaves only a remnant behind opens it.
    The keep rule (``empties``) still counts the remnant: it bars the enemy's entry, so a garrison
    may take the losses that leave a remnant rather than retreat (test_18_1_3B_a_garrison_overrun…)."""
    from casebook.core.actions import Action
    from casebook.tools.bots_guard import open_guards
    from casebook.tools.planner_goals import non_combat

    assert {"hq", "remnant"} <= non_combat(blitz.new_initial_state(1).data.scenario)
    state = _open_2242(blitz, remnant=True)
    assert [u["class"] for u in state.data.units_at("2242")] == ["remnant"]
    assert "2242" in open_guards(state, "soviet") and garrison(state, "soviet", "2242") == 0.0
    rifle = _open_2242(blitz, rifle=True)  # the control: a rifle division there is a garrison
    assert "2242" not in open_guards(rifle, "soviet") and garrison(rifle, "soviet", "2242") == 6.0
    both = _open_2242(blitz, remnant=True, rifle=True)
    leave = Action.make("move", "soviet", stack="2242", path=("2243",), units=("s-133rd",))
    assert "2242" not in open_guards(both, "soviet") and garrison(both, "soviet", "2242") == 6.0
    assert empties(both, leave) is None     # the keep rule: the remnant left behind bars the entry
    assert empties(rifle, Action.make("move", "soviet", stack="2242", path=("2243",), units=("s-133rd",))) == "2242"


def test_an_hq_placed_on_an_open_guard_hex_is_no_garrison_for_greedy(blitz):
    """bot:greedy values a reinforcement placed on an open, threatened guard hex GUARD_SEND more
    (it garrisons it): only when the unit placed is a combat unit — an HQ is none."""
    from casebook.core.actions import Action
    from casebook.tools.bots import action_value
    from casebook.tools.bots_guard import GUARD_BOLSTER, GUARD_SEND, open_guards

    state = _open_2242(blitz)
    assert "2242" in open_guards(state, "soviet")
    hq = Action.make("place-reinforcement", "soviet", unit="s-16a", hex="2242")
    rifle = Action.make("place-reinforcement", "soviet", unit="s-133rd", hex="2242")
    assert action_value(state, state.ctx(), hq) == 1.0
    assert action_value(state, state.ctx(), rifle) == 1.0 + GUARD_SEND + GUARD_BOLSTER * bolsters(state, rifle)
    assert bolsters(state, rifle) > 0
