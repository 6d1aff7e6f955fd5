"""Player decisions the engine used to take away (#18), played through ``State`` on the October
Blitz: which stacks an activated HQ takes (0.7.3.1B), and one standing pass for the reactions of
the rest of the Steps 1-5 loop (0.7.3.4-0.7.3.6, 2.4A)."""

from __future__ import annotations

import pytest

from casebook.core.errors import IllegalActionError
from casebook.core.game import Game


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


@pytest.fixture(scope="module")
def start(blitz):
    return blitz.new_initial_state(1).to_dict()


@pytest.mark.case("0.7.3.1B", "8.3.1A", "2.1A")
def test_0_7_3_1B_the_player_indicates_which_stacks_the_hq_activates(blitz, start):
    state = blitz.state_from_dict(start)
    assert (state.data.step, state.current_player(), state.data.track("ip", "german")) == ("command", "german", 28)
    listed = [str(a) for a in state.legal_actions() if a.kind == "activate-hq" and a.get("hq") == "g-ix"]
    assert listed == ["german: activate-hq hq=g-ix stacks=1213,1113,1313"]   # every eligible, nearest first
    [tpl] = [t for t in state.action_templates() if dict(t.fixed).get("hq") == "g-ix"]
    assert "at most 3" in dict(tpl.free)["stacks"]                            # IX's Command Limit (8.3.1A)
    # one stack of the three: legal (it used to answer "not among the legal actions")
    assert state.why_not("german: activate-hq hq=g-ix stacks=1313") == ((), "legal")
    cases, _ = state.why_not("german: activate-hq hq=g-ix stacks=1213,1113,1313,1411")
    assert cases == ("8.3.1A", "0.2.4.7")                                     # four named, limit 3
    cases, _ = state.why_not("german: activate-hq hq=g-ix stacks=3809")
    assert "8.1A" in cases                                                    # outside IX's command radius
    with pytest.raises(IllegalActionError):
        state.apply("german: activate-hq hq=g-ix stacks=3809")
    out = state.apply("german: activate-hq hq=g-ix stacks=1313")
    assert out["units"] == ["g-183id"] and out["ip"] == 1                    # 2.1A: 1 IP in supply
    assert state.data.track("ip", "german") == 27 and state.data.unit("g-183id").get("activated")
    others = [u for u in state.data.units_at("1113") if u.get("class") != "hq"]
    assert others and not any(u.get("activated") for u in others)           # 1113 was not named


def _to_reaction(state, stack):
    """From the German Command Step: activate one stack, pass Movement and Combat."""
    state.apply(f"german: activate-stack stack={stack}")
    while state.current_player() == "german" and state.data.step != "command":
        state.apply("german: pass")


@pytest.mark.case("0.7.3.4", "0.7.3.6", "2.4A")
def test_0_7_3_4_no_more_reactions_until_the_loop_ends(blitz, start):
    data = {**start, "turn": 2, "ip": {"german": 27, "soviet": 12}}  # 2.4B: no Soviet reaction on Turn 1
    state = blitz.state_from_dict(data)
    _to_reaction(state, "1313")
    assert (state.data.step, state.current_player()) == ("reaction_movement", "soviet")
    assert any(a.kind == "react" for a in state.legal_actions())
    assert "soviet: pass until=loop" not in [str(a) for a in state.legal_actions()]   # bots never see it
    assert [str(t) for t in state.action_templates()][-1] == "soviet: pass until=loop"
    state.apply("soviet: pass until=loop")
    # the Reaction Attacks Step and every reaction step of the next repetitions pass by themselves
    assert (state.data.step, state.current_player()) == ("command", "german")
    _to_reaction(state, "1113")
    assert (state.data.step, state.current_player()) == ("command", "german")
    standing = [e for e in state.trace if e.kind == "auto-pass" and e.data.get("standing")]
    assert [e.data["step"] for e in standing] == ["reaction_attacks", "reaction_movement", "reaction_attacks"]
    assert all(set(e.cases) >= {"0.7.3.6"} for e in standing)
    assert state.data.track("ip", "soviet") == 12                                   # nothing was spent
    # the phasing player passes: the loop ends (0.7.3.6), and with it the standing pass
    state.apply("german: pass")
    assert state.data.step != "command" and state._driver().get("standing") is None


@pytest.mark.case("0.7.3.6")
def test_0_7_3_6_the_standing_pass_is_not_offered_at_the_loops_first_step(blitz, start):
    state = blitz.state_from_dict(start)
    assert state.data.step == "command"
    assert "german: pass until=loop" not in [str(t) for t in state.action_templates()]
    with pytest.raises(IllegalActionError):
        state.apply("german: pass until=loop")


@pytest.mark.case("0.7.3.6")
def test_0_7_3_6_a_save_made_after_a_standing_pass_loads_and_the_pass_still_stands(blitz, start, tmp_path):
    """``play --load`` reads saves through ``load_save``: the driver's ``standing`` note (who passed,
    turn, phase, loop steps, cases) is part of a save's schema (it was refused as an extra key), is
    checked like the rest (an unknown key in it is still refused, file:line:column), and the loaded
    position goes on passing the Soviet reactions of the loop."""
    from casebook.content.position import position_to_dict
    from casebook.content.savecheck import load_save
    from casebook.content.yamlio import dump_yaml
    from casebook.core.errors import PositionError

    state = blitz.state_from_dict({**start, "turn": 2, "ip": {"german": 27, "soviet": 12}})
    _to_reaction(state, "1313")
    state.apply("soviet: pass until=loop")
    saved = state.to_dict()
    assert saved["plugin_state"]["driver"]["standing"] == {
        "side": "soviet", "turn": 2, "phase": "first_player",
        "steps": ["command", "movement", "combat", "reaction_movement", "reaction_attacks"],
        "cases": ["0.7.3.4", "0.7.3.6"]}
    path = tmp_path / "save.yaml"
    path.write_text(dump_yaml(saved), encoding="utf-8")
    loaded = blitz.state_from_dict(position_to_dict(load_save(path, blitz.engine)))  # as play --load
    assert loaded._driver()["standing"] == saved["plugin_state"]["driver"]["standing"]
    _to_reaction(loaded, "1113")  # the Soviet reaction steps pass by themselves, as before the save
    assert (loaded.data.step, loaded.current_player()) == ("command", "german")
    assert [e.data["step"] for e in loaded.trace if e.kind == "auto-pass" and e.data.get("standing")] == [
        "reaction_movement", "reaction_attacks"]

    saved["plugin_state"]["driver"]["standing"]["bogus"] = 1
    path.write_text(dump_yaml(saved), encoding="utf-8")
    with pytest.raises(PositionError, match=r"save\.yaml:\d+:\d+: plugin_state\.driver\.standing\.bogus: Extra inputs"):
        load_save(path, blitz.engine)
