"""Battle for Moscow movement (BM5.x), ZOC (BM6.x), stacking (BM7.1), replacements (BM9.x), victory (BM10.x)
and a whole game with bots (replayed identically)."""

from __future__ import annotations

import pytest

from casebook.areas.movement import in_ezoc, overstack_check, rail_reach, reach
from casebook.core.game import Game
from casebook.games.battle_for_moscow.plugins.bfm_turn import communication, replacement_actions
from casebook.games.battle_for_moscow.plugins.bfm_victory import verdict
from casebook.tools.bots import GreedyBot
from casebook.tools.cmd_replay import replay_trace


@pytest.mark.case("BM5.1A", "BM5.1B", "BM5.2")
def test_BM5_1_forest_costs_two_and_the_ma_limits(position):
    ctx = position([("g-vii", "0606", None)], step="movement")
    r = reach(ctx, "g-vii")                                   # MA 4, all clear around 0606
    assert r["0603"]["mp"] == 4 and "0602" not in r           # 0605 1 + 0604 forest 2 + 0603 1; no further
    assert r["0604"]["mp"] == 3                               # 0605 (1) then 0604 forest (2)


@pytest.mark.case("BM6.2", "BM6.3")
def test_BM6_2_entering_an_enemy_zoc_stops_leaving_is_free(position):
    ctx = position([("g-vii", "0606", None), ("s-3a", "0804", 4)], step="movement")
    r = reach(ctx, "g-vii")
    assert "0705" in r                                        # adjacent to 0804: in its ZOC
    assert not any(p["path"][:-1] and "0705" in p["path"][:-1] for p in r.values())
    start_in_zoc = position([("g-vii", "0705", None), ("s-3a", "0804", 4)], step="movement")
    assert "0605" in reach(start_in_zoc, "g-vii")             # BM6.3: leaves freely


@pytest.mark.case("BM5.5A")
def test_BM5_5A_mud_one_hex(position):
    ctx = position([("g-xxiv-pz", "0606", None)], ground="mud", step="movement")
    assert {len(v["path"]) for v in reach(ctx, "g-xxiv-pz").values()} == {1}


@pytest.mark.case("BM5.3")
def test_BM5_3_only_panzers_in_the_panzer_phase(position):
    ctx = position([("g-xxiv-pz", "0606", None), ("g-vii", "0303", None)], step="panzer_movement")
    offered = [a for xs in ctx.hook.casebook_legal_actions(ctx=ctx, phase="german_turn", step="panzer_movement")
               for a in xs if a.kind == "move"]
    assert offered and {a.get("stack") for a in offered} == {"0606"}


@pytest.mark.case("BM5.4A", "BM5.4B", "BM5.5B")
def test_BM5_4_soviet_rail_movement(position):
    ctx = position([("s-3a", "1103", 4), ("g-vii", "0604", None)], ground="mud", step="rail_movement",
                   phasing="soviet")
    r = rail_reach(ctx, "s-3a")
    assert "0803" in r and "0603" not in r                    # Vyazma 0603 is in the German ZOC
    assert "0204" in r                                        # Smolensk by the southern lines
    assert not any(in_ezoc(ctx, h, "soviet") for v in r.values() for h in v["path"])
    assert len(r["0204"]["path"]) > 1                         # any distance, mud or not (BM5.5B)
    german = position([("g-vii", "0603", None)], step="rail_movement", phasing="soviet")
    assert rail_reach(german, "g-vii") and not german.permission(
        "rail_move", {"side": "german", "ground": "dry", "by_rail": True}).value


@pytest.mark.case("BM7.1")
def test_BM7_1_one_unit_per_hex_at_phase_end(position):
    ctx = position([("s-3a", "0606", 8), ("s-13a", "0606", 4), ("s-5a", "0707", 4)], step="movement",
                   phasing="soviet", trace=True)
    assert overstack_check(ctx) == ["s-13a"]                  # the weaker of the two goes
    assert not ctx.state.unit("s-13a").get("hex") and ctx.state.unit("s-3a")["hex"] == "0606"
    moves = reach(ctx, "s-5a")
    assert "0606" not in moves                                # a move never ends on a unit
    assert any("0606" in v["path"] for v in moves.values())   # but may pass through one


@pytest.mark.case("BM9.1", "BM9.2", "BM9.3", "BM9.4", "BM9.5")
def test_BM9_replacements(bfm):
    state = Game(bfm, "campaign").new_initial_state(seed=1)
    state.apply("german: pass")                              # no German steps on turn 1 anyway
    while state.data.step != "replacements" or state.data.phasing != "soviet":
        state.apply(state.legal_actions()[-1])                # pass through the German turn
    ctx = state.ctx()
    actions = replacement_actions(ctx, "soviet")
    placed = {a.get("unit") for a in actions if a.kind == "place-reinforcement"}
    assert placed == {"s-5a", "s-10a", "s-40a"}               # 1st Shock only from turn 4
    hexes = {a.get("hex") for a in actions if a.kind == "place-reinforcement"}
    assert "1405" in hexes and "1410" in hexes                # Ryazan; the east edge
    assert all(communication(ctx, h, "soviet") is not None or h == "1103" for h in hexes)
    for _ in range(5):
        state.apply(replacement_actions(state.ctx(), "soviet")[0])
    assert state.data.step != "replacements" or not replacement_actions(state.ctx(), "soviet")


@pytest.mark.case("BM10.1", "BM10.2")
def test_BM10_victory_rules(position):
    ctx = position([("g-vii", "1103", None)])
    ctx.state.set_control("1103", "german")
    assert verdict(ctx)["winner"] == "german"
    ctx.state.set_control("1103", "soviet")
    ctx.state.set_control("1405", "soviet")
    ctx.state.set_setting("victory_rule", "later")
    assert verdict(ctx)["winner"] == "soviet"
    for h in [h for h in verdict(ctx)["cities"] if h != "1103"]:
        ctx.state.set_control(h, "german")
    assert verdict(ctx)["winner"] is None


@pytest.mark.case("BM1.1", "BM1.2", "BM4.1", "BM4.2")
def test_BM1_a_whole_game_with_bots_replays_identically(bfm, tmp_path):
    state = Game(bfm, "campaign").new_initial_state(seed=3)
    bots = {s: GreedyBot(s, 3) for s in ("german", "soviet")}
    for _ in range(3000):
        if state.is_terminal():
            break
        state.apply(bots[state.current_player()].choose(state))
    assert state.is_terminal() and state.data.turn == 7
    result = state.result()
    assert result["cases"][0] == "BM1.2" and set(result["cases"]) & {"BM10.1", "BM10.2"}
    steps = {(e.phase, e.step) for e in state.trace}
    assert ("german_turn", "panzer_movement") in steps and ("soviet_turn", "rail_movement") in steps
    index = set(bfm.pack.cases)
    cited = {c for e in state.trace for c in e.cases}
    assert cited and cited <= index, cited - index         # every event cites this game's cases
    path = tmp_path / "trace.jsonl"
    state.trace.write(path)
    ok, message = replay_trace(path)
    assert ok, message
