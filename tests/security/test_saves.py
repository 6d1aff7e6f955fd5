"""Saves and positions refused whole (issue #19, "corrupt saves accepted, then a crash"; #18):
the RNG state, every track's bounds from the pack, each plugin's record against the schema the
plugin declares, units in any documented form, every problem at once; save → load → save gives
the same bytes; a save of another game or scenario is a usage error."""

from __future__ import annotations

from pathlib import Path

import pytest
from _secutil import run

from casebook.content.position import dump_save, load_position, position_to_dict
from casebook.content.tracks import track_bounds
from casebook.core.errors import PositionError
from casebook.core.game import Game
from casebook.tools.bots import make_bot


@pytest.fixture(scope="module")
def blitz():
    return Game.load("moscow41", "october-blitz")


@pytest.fixture(scope="module")
def midgame(blitz):
    """A Moscow '41 save after 30 random decisions (a combat may be pending)."""
    state = blitz.new_initial_state(4)
    bots = {s: make_bot("random", s, 4) for s in ("german", "soviet")}
    for _ in range(30):
        state.apply(bots[state.current_player()].choose(state))
    return state


def _messages(exc: PositionError) -> dict[str, str]:
    return {p.key: p.message for p in exc.problems}


@pytest.mark.case("1.4")
def test_1_4_the_ip_track_bound_is_read_from_the_rules(blitz):
    """The vocabulary declares ``ip: {high: ip_total}``: the one source of the maximum is the
    script's ``at most 99 by 1.4``; without the rules it is unknown (unbounded), not invented."""
    decls = blitz.engine.pack.vocabulary.tracks
    assert decls["ip"].high == "ip_total"
    bound = track_bounds(decls, blitz.engine.rules)["ip"]
    assert (bound.low, bound.high, bound.cases) == (0, 99, ("1.4",))  # "The maximum … is 99" (1.4)
    assert track_bounds(decls)["ip"].high is None
    assert blitz.engine.track_bounds["ip"] == bound


@pytest.mark.case("1.4")
@pytest.mark.parametrize(("ips", "message"), [(999, "999 is above the track's maximum 99 (1.4)"),
                                              (-10, "-10 is below the track's minimum 0")])
def test_1_4_a_save_with_ips_out_of_bounds_is_refused(blitz, midgame, ips, message):
    data = midgame.to_dict()
    data["ip"]["german"] = ips
    with pytest.raises(PositionError) as exc:
        blitz.state_from_dict(data)
    assert _messages(exc.value)["ip.german"] == message


@pytest.mark.parametrize(("rng", "key", "says"), [
    ({"seed": 1, "state": "abc"}, "rng.state", "the generator state must be null or an int in [0, 2**64)"),
    ({"seed": 1, "state": -1}, "rng.state", "the generator state must be null or an int in [0, 2**64)"),
    ({"seed": -5, "state": None}, "rng.seed", "the seed must be an int >= 0"),
])
def test_a_corrupt_rng_is_refused_on_load_not_at_the_first_roll(blitz, midgame, rng, key, says):
    data = midgame.to_dict()
    data["rng"] = rng
    with pytest.raises(PositionError) as exc:
        blitz.state_from_dict(data)
    assert _messages(exc.value)[key].startswith(says)


@pytest.mark.parametrize(("slot", "record", "key", "says"), [
    ("combat", [1, 2], "plugin_state.combat", "a plugin's record is a mapping"),
    # the combat area keeps one list of noted unit ids per flag a game's note_FLAG lines name
    # (areas/_combat_notes.py): any other key must be such a list
    ("combat", {"phase": "1:x", "bogus": 1}, "plugin_state.combat.bogus", "Input should be a valid list"),
    ("combat", {"phase": "1:x", "bogus": [1]}, "plugin_state.combat.bogus.0", "Input should be a valid string"),
    ("combat", {"phase": "1:x", "pending": {"attackers": [], "hex": "0101", "kind": "attack", "attacker_support": -3,
                                           "attacker_side": "german", "defender_side": "soviet"}},
     "plugin_state.combat.pending.attacker_support", "Input should be greater than or equal to 0"),
    ("partisans", {"removed_remnants": -1}, "plugin_state.partisans.removed_remnants",
     "Input should be greater than or equal to 0"),
    ("nosuchplugin", {}, "plugin_state.nosuchplugin", "no plugin keeps 'nosuchplugin' in this game"),
])
def test_each_plugins_record_is_checked_against_the_schema_it_declares(blitz, midgame, slot, record, key, says):
    data = midgame.to_dict()
    data.setdefault("plugin_state", {})[slot] = record
    with pytest.raises(PositionError) as exc:
        blitz.state_from_dict(data)
    assert _messages(exc.value)[key].startswith(says), exc.value


def test_units_given_by_counter_reference_are_refused_with_a_clear_error_not_a_keyerror(blitz, midgame):
    data = midgame.to_dict()
    data["units"] = [{"counter": "g-98id", "hex": "2605"}] + data["units"][1:]
    with pytest.raises(PositionError) as exc:
        blitz.state_from_dict(data)
    assert "counter: reference that was not expanded" in _messages(exc.value)["units.0"]


def test_every_problem_of_a_save_is_listed_at_once(pack_copy, tmp_path):
    text = (pack_copy / "scenarios" / "skirmish.yaml").read_text()
    text = (text.replace("class: infantry, size: brigade", "class: tank, size: brigade")  # a schema error
            .replace('hex: "0505"}', 'hex: "0909"}')                                     # off the map
            .replace("step: movement", "step: nosuchstep")                              # unknown step
            .replace("rng: {seed: 1}", "rng: {seed: 1, state: abc}"))                    # the dice
    pos = tmp_path / "bad.yaml"
    pos.write_text(text)
    with pytest.raises(PositionError) as exc:
        load_position(pos)
    keys = {p.key for p in exc.value.problems}
    assert {"units.3.class", "units.3.hex", "step", "rng.state"} <= keys, keys


@pytest.mark.parametrize("game_id", ["moscow41", "battle_for_moscow"])
def test_save_load_save_is_byte_identical(game_id, tmp_path):
    game = Game.load(game_id, "october-blitz" if game_id == "moscow41" else "campaign")
    state = game.new_initial_state(2)
    bots = {s: make_bot("random", s, 2) for s in ("german", "soviet")}
    for _ in range(60):  # moscow41: regiments from a breakdown are in the save (units added in play)
        state.apply(bots[state.current_player()].choose(state))
    first = dump_save(state.to_dict())
    path = tmp_path / "s.yaml"
    path.write_text(first)
    again = game.state_from_dict(position_to_dict(load_position(path, pack=game.engine.pack)))
    assert dump_save(again.to_dict()) == first


def _a_save(tmp_path: Path, game: str) -> Path:
    code, out = run("play", game, "--out", tmp_path / "o", "--quiet")
    assert code == 0, out
    return tmp_path / "o" / "final.yaml"


def test_a_save_of_another_game_is_a_usage_error(tmp_path):
    save = _a_save(tmp_path, "battle_for_moscow")
    code, out = run("play", "moscow41", "campaign", "--load", save, "--out", tmp_path / "p", "--quiet")
    assert code == 2 and "is a save of 'battle_for_moscow', not of 'moscow41'" in out
    code, out = run("play", "battle_for_moscow", "nosuch", "--load", save, "--out", tmp_path / "p", "--quiet")
    assert code == 2 and "is a save of scenario 'campaign', not 'nosuch'" in out


def test_a_negative_seed_is_a_usage_error():
    code, out = run("play", "--seed", "-5", "--quiet")
    assert code == 2 and "-5" in out and "Traceback" not in out


@pytest.mark.case("10.0D")
def test_10_0D_a_save_keeps_the_fixed_rolls_not_yet_used_and_loads_again(blitz, midgame, tmp_path):
    """docs/positions.md: ``play --rolls`` faces not used yet stay in the save's ``rng.fixed``;
    such a save loads (it was refused as ``rng.fixed: unknown key``), and bad faces are refused."""
    from casebook.content.savecheck import load_save

    data = midgame.to_dict()
    data["rng"] = {**data["rng"], "fixed": [1, 1]}
    path = tmp_path / "sv.yaml"
    path.write_text(dump_save(data), encoding="utf-8")
    loaded = load_save(path, blitz.engine)
    assert loaded.rng.fixed == [1, 1]
    data["rng"]["fixed"] = [0, "x"]
    path.write_text(dump_save(data), encoding="utf-8")
    with pytest.raises(PositionError) as exc:
        load_save(path, blitz.engine)
    assert _messages(exc.value)["rng.fixed"].startswith("expected a list of die faces")
