"""Each plugin's stored state (``plugin_state``) against the schema the plugin declares
(``STATE_SCHEMA``, read by ``src/casebook/content/savecheck.py``): a corrupt record is refused
with its key, and the saves of seeded games, taken at many points, are accepted and round-trip.
``casebook ask`` checks a save as ``play --load`` does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _secutil import run

from casebook.content.position import dump_save, position_to_dict
from casebook.content.savecheck import load_save, plugin_state_problems, state_schema, state_slots
from casebook.core.errors import PositionError
from casebook.core.game import Game
from casebook.tools.bots import make_bot

GAMES = {"moscow41": ("october-blitz", "campaign"), "battle_for_moscow": ("campaign",)}


@pytest.fixture(scope="module")
def games() -> dict[tuple[str, str], Game]:
    return {(g, s): Game.load(g, s) for g, scenarios in GAMES.items() for s in scenarios}


def _plugins(game: Game) -> tuple[str, ...]:
    return tuple(game.engine.pack.manifest.get("plugins") or ())


def test_every_plugin_slot_of_both_games_declares_a_schema(games):
    for (game_id, _), game in games.items():
        slots = state_slots(_plugins(game))
        assert {k for k, plugin in slots.items() if state_schema(plugin) is None} == set(), game_id


_UNIT = {"id": "g-6id", "side": "german", "class": "infantry", "size": "division", "strength": 6, "ma": 4}
_CUR = {"units": ["g-6id"], "hex": "2605", "spent": 2, "budget": 4, "mode": "stack", "supplied": {"g-6id": True},
        "spent_all": False, "stopped": False, "hexes": 1, "allotment": 1, "rail": False}
_BFM_REC = {"code": "EX", "cases": ["BM8.5E"], "hex": "0605", "attackers": ["g-1"], "defenders": ["s-1"],
            "lost": 1, "attacker_side": "german", "defender_side": "soviet",
            "stages": [{"kind": "attacker_loss", "owed": 1}]}
GE = "Input should be greater than or equal to"
EXTRA = "Extra inputs are not permitted"

# (game, slot, a legitimate record, (corrupted record, its key under plugin_state.SLOT, message), …)
CASES: list[tuple[str, str, dict[str, Any], list[tuple[dict[str, Any], str, str]]]] = [
    ("moscow41", "movement", {"moved": ["g-6id"], "current": _CUR, "react": [], "railed": [], "rail_units": 2,
                              "rail_hq": False}, [
        ({"moved": [], "bogus": 1}, "bogus", EXTRA),
        ({"rail_units": "2"}, "rail_units", "Input should be a valid integer"),
        ({"rail_units": -1}, "rail_units", GE),
        ({"current": {**_CUR, "spent": -2}}, "current.spent", GE),
        ({"current": {**_CUR, "colour": "red"}}, "current.colour", EXTRA),
        ({"moved": "g-6id"}, "moved", "Input should be a valid list"),
    ]),
    ("moscow41", "movement", {"current": None}, []),
    ("moscow41", "results", {"combat": {"hex": "2605", "attackers": ["g-6id"], "defenders": ["s-5rd"],
                                        "attacker_side": "german", "defender_side": "soviet", "kind": "attack",
                                        "result": "D1"},
                             "queue": [{"type": "defender", "side": "soviet", "n": 1, "forced": False,
                                        "number": 1, "hq_alone": False}],
                             "effects": [{"unit": "s-5rd", "effect": "loss"}], "retreated": 0}, [
        ({"queue": [{"type": "defender", "n": -1}]}, "queue.0.n", GE),
        ({"queue": [{"type": "advance", "hold": True}]}, "queue.0.hold", EXTRA),
        ({"retreated": -1}, "retreated", GE),
        ({"combat": {"hex": 2605}}, "combat.hex", "Input should be a valid string"),
        ({"whatever": []}, "whatever", EXTRA),
    ]),
    ("moscow41", "reinforcement", {"at": "1:soviet", "available": [{"unit": "s-1", "area": "A", "areas": ["A"]}],
                                   "placed": False, "delayed": [], "arrived": {"s-2": 1},
                                   "owed": [{"side": "soviet", "unit": "s-3", "turn": 1}]}, [
        ({"arrived": {"s-2": 0}}, "arrived.s-2", GE),
        ({"available": [{"unit": "s-1", "hex": "0101"}]}, "available.0.hex", EXTRA),
        ({"placed": "yes"}, "placed", "Input should be a valid boolean"),
        ({"extra": 1}, "extra", EXTRA),
    ]),
    ("moscow41", "fortification", {"builders": {"s-1": 2}, "acted": {"g-1": "2:first_player"},
                                   "unhedged": {}, "scatter_fatigued": ["s-p1"]}, [
        ({"builders": {"s-1": -2}}, "builders.s-1", GE),
        ({"acted": {"g-1": 2}}, "acted.g-1", "Input should be a valid string"),
        ({"fp": 3}, "fp", EXTRA),
    ]),
    ("moscow41", "paratroops", {"drops": {"3": "s-p1"}, "dropped": {"s-p1": 3}}, [
        ({"dropped": {"s-p1": -3}}, "dropped.s-p1", GE),
        ({"drops": {"3": 1}}, "drops.3", "Input should be a valid string"),
        ({"planes": 1}, "planes", EXTRA),
    ]),
    ("moscow41", "area_breakdown", {"divisions": {"g-6id": _UNIT}}, [
        ({"divisions": {"g-6id": "gone"}}, "divisions.g-6id", "Input should be a valid dictionary"),
        ({"regiments": []}, "regiments", EXTRA),
    ]),
    ("moscow41", "victory", {"moscow_taken": ["3015"], "result": {"winner": "german", "level": "decisive"}}, [
        ({"moscow_taken": "3015"}, "moscow_taken", "Input should be a valid list"),
        ({"vp": 5}, "vp", EXTRA),
    ]),
    ("moscow41", "area_stacking", {}, [({"anything": 1}, "anything", EXTRA)]),
    ("moscow41", "zoc", {}, [({"anything": 1}, "anything", EXTRA)]),
    ("battle_for_moscow", "bfm_turn", {"key": "1:german_turn", "left": 2}, [
        ({"left": -1}, "left", GE),
        ({"left": "2"}, "left", "Input should be a valid integer"),
        ({"key": "1:x", "spent": 1}, "spent", EXTRA),
    ]),
    ("battle_for_moscow", "area_movement", {"key": "1:german_turn:movement", "moved": ["g-1"]}, [
        ({"moved": [1]}, "moved.0", "Input should be a valid string"),
        ({"rail": True}, "rail", EXTRA),
    ]),
    ("battle_for_moscow", "results", {"queue": [_BFM_REC]}, [
        ({"queue": [{**_BFM_REC, "lost": -1}]}, "queue.0.lost", GE),
        ({"queue": [{**_BFM_REC, "stages": [{"kind": "attacker_loss", "owed": -2}]}]}, "queue.0.stages.0.owed", GE),
        ({"queue": [{**_BFM_REC, "pending": True}]}, "queue.0.pending", EXTRA),
        ({"queue": {}}, "queue", "Input should be a valid list"),
    ]),
    ("battle_for_moscow", "bfm_victory", {"final": True}, [
        ({"final": 1}, "final", "Input should be a valid boolean"),
        ({"winner": "german"}, "winner", EXTRA),
    ]),
]


def _problems(game: Game, slot: str, record: Any) -> dict[str, str]:
    found = plugin_state_problems({slot: record}, _plugins(game), lambda kp: ("<save>", 0, 0))
    return {p.key: p.message for p in found}


@pytest.mark.parametrize(("game_id", "slot", "good", "bad"), [c[:3] + (c[3],) for c in CASES],
                         ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_each_new_schema_accepts_its_record_and_refuses_a_corrupted_one(games, game_id, slot, good, bad):
    game = games[(game_id, GAMES[game_id][0])]
    assert _problems(game, slot, good) == {}
    for record, key, says in bad:
        got = _problems(game, slot, record)
        where = f"plugin_state.{slot}.{key}"
        assert where in got and got[where].startswith(says), (record, got)


def test_a_corrupted_slot_is_refused_whole_by_state_from_dict(games):
    game = games[("moscow41", "october-blitz")]
    data = game.new_initial_state(1).to_dict()
    data["plugin_state"].update(movement={"rail_units": -1}, paratroops={"dropped": {"s-p1": "x"}})
    with pytest.raises(PositionError) as exc:
        game.state_from_dict(data)
    keys = {p.key for p in exc.value.problems}
    assert {"plugin_state.movement.rail_units", "plugin_state.paratroops.dropped.s-p1"} <= keys, keys


def _save_text(game_id: str, scenario: str, record: dict[str, Any] | None = None) -> str:
    game = Game.load(game_id, scenario)
    state = game.new_initial_state(3)
    bots = {s: make_bot("random", s, 3) for s in ("german", "soviet")}
    for _ in range(20):
        state.apply(bots[state.current_player()].choose(state))
    data = state.to_dict()
    data["plugin_state"].update(record or {})
    return dump_save(data)


def test_ask_refuses_a_corrupt_save_as_play_load_does(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(_save_text("moscow41", "october-blitz", {"movement": {"rail_units": -4}}))
    code, out = run("ask", path, "weather")
    assert code == 1 and "plugin_state.movement.rail_units" in out, out
    code, out = run("play", "--load", path, "--quiet", "--out", tmp_path / "o")
    assert code == 1 and "plugin_state.movement.rail_units" in out, out
    line = next(ln for ln in out.splitlines() if "plugin_state.movement.rail_units" in ln)
    assert line.startswith(f"{path}:") and not line.startswith(f"{path}:0:"), line  # located in the file


def test_ask_answers_on_a_good_save(tmp_path: Path):
    path = tmp_path / "good.yaml"
    path.write_text(_save_text("battle_for_moscow", "campaign"))
    code, out = run("ask", path, "victory")
    assert code == 0, out


@pytest.mark.parametrize(("game_id", "scenario", "seed", "bot", "max_turns"), [
    ("moscow41", "october-blitz", 1, "random", None),
    ("moscow41", "october-blitz", 2, "greedy", None),
    ("moscow41", "campaign", 1, "random", 3),
    ("moscow41", "campaign", 2, "greedy", 3),
    ("battle_for_moscow", "campaign", 1, "random", None),
    ("battle_for_moscow", "campaign", 2, "greedy", None),
])
def test_saves_taken_during_seeded_games_are_accepted_and_round_trip(games, game_id, scenario, seed, bot, max_turns):
    game = games[(game_id, scenario)]
    state = game.new_initial_state(seed)
    bots = {s: make_bot(bot, s, seed) for s in ("german", "soviet")}
    actions, slots_seen = 0, set()
    while not state.is_terminal() and (max_turns is None or state.data.turn <= max_turns) and actions < 1500:
        state.apply(bots[state.current_player()].choose(state))
        actions += 1
        data = state.to_dict()
        slots_seen |= set(data["plugin_state"])
        assert _all_problems(game, data) == [], (actions, data["plugin_state"])
        if actions % 40 == 0:
            first = dump_save(data)
            again = game.state_from_dict(position_to_dict(load_save(first, game.engine)))
            assert dump_save(again.to_dict()) == first, actions
    assert len(slots_seen) >= 4, slots_seen


def _all_problems(game: Game, data: dict[str, Any]) -> list[Any]:
    return plugin_state_problems(data["plugin_state"], _plugins(game), lambda kp: ("<save>", 0, 0))
