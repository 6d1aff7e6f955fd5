"""The per-game timeline of ``casebook batch`` (:mod:`casebook.tools.batch_timeline`): the places
come from the scenario's victory data and the map's IP towns (18.1.3, 1.1B), the snapshots say
who controls them after each turn, the units eliminated and the units out of supply (5.5A).

The values of the October Blitz game below were read off its trace (greedy bots, seed 1, Turn 1):
the only change of control is Roslavl 0212 taken by the Soviets in their Movement Step (the
``control`` event of 1.1B, ``was: german``); no unit is eliminated; the Recovery Steps' ``oos-marking``
events (5.5A) mark 14 German and 12 Soviet units."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.tools.batch import GameSpec, load_game, play_one
from casebook.tools.batch_summary import summarize, summary_rows
from casebook.tools.batch_timeline import Timeline, places, summarize_timelines
from casebook.tools.cli import cli

GREEDY = (("german", "greedy"), ("soviet", "greedy"))


@pytest.fixture(scope="module")
def turn1():
    return play_one(GameSpec("moscow41", "october-blitz", 1, GREEDY, max_turns=1, vps=False))


def test_18_1_3_places_are_the_victory_hexes_and_the_ip_towns():
    state = load_game("moscow41", "october-blitz").new_initial_state(1)
    listed = {p["hex"]: p for p in places(state)}
    five = {"3733": "Kalinin", "2733": "Volokolamsk", "2032": "Mozhaisk", "1435": "Maloyaroslavets", "0833": "Kaluga"}
    for h, name in five.items():  # 18.1.3A
        assert listed[h]["name"] == name and "18.1.3A" in listed[h]["why"]
    assert listed["1308"] == {"hex": "1308", "name": "Smolensk", "why": ["18.1.3D", "ip 3"]}
    assert {h for h, p in listed.items() if "18.1.3B" in p["why"]} == {"2242", "2342", "2343", "2344", "2442"}
    assert listed["1722"]["why"] == ["ip 2"]  # Vyazma: IPs, no victory condition
    # towns with no IPs and no victory condition are not followed: Gzhatsk, Lyudinovo, Yukhnov
    assert not {"2127", "0122", "1128"} & set(listed)


def test_1_1B_the_turn1_timeline_reads_control_losses_and_oos_off_the_play(turn1):
    assert turn1.error is None and turn1.stopped == "max_turns"
    timeline = turn1.timeline
    assert timeline["start"]["control"]["0212"] == "german"
    [snap] = timeline["turns"]
    assert snap["turn"] == 1
    control = snap["control"]
    assert (control["1308"], control["0833"], control["0212"], control["3733"]) == ("german", "soviet", "soviet", "soviet")
    changed = {h for h, side in control.items() if side != timeline["start"]["control"][h]}
    assert changed == {"0212"}
    assert snap["eliminated"] == {"german": {"units": 0, "strength": 0}, "soviet": {"units": 0, "strength": 0}}
    assert snap["oos"] == {"german": 19, "soviet": 5}  # 5.5A: the trace's oos-marking events #463 and #861
    rows = {r.label: r.text for r in summary_rows(summarize([turn1]))}
    assert rows["Roslavl 0212 changed hands"] == "1/1 (100%), taken by soviet 1, first at turn 1"
    assert rows["Smolensk 1308 changed hands"] == "0/1 (0%)"
    assert rows["median units eliminated soviet"] == "0 (0 SP)"


def test_eliminated_units_count_with_their_strength_and_withdrawn_ones_do_not():
    state = load_game("moscow41", "october-blitz").new_initial_state(1)
    timeline = Timeline(state)
    state.data.remove_unit("s-50rd", "eliminated")  # a 6-strength rifle division (counters.yaml)
    state.data.remove_unit("s-2mil", "eliminated")  # a 4-strength militia division
    state.data.remove_unit("g-102id", "withdrawn")
    timeline.seen.pop("s-2mil")  # as a unit that entered after the last snapshot: its counter says
    timeline.close(state)
    [snap] = timeline.data()["turns"]
    assert snap["eliminated"] == {"german": {"units": 0, "strength": 0}, "soviet": {"units": 2, "strength": 10}}
    assert snap["eliminated_ids"] == {"german": [], "soviet": ["s-50rd", "s-2mil"]}
    assert snap["removed_ids"] == {"withdrawn": ["g-102id"]}


def _tl(*firsts):
    """A timeline of one place 'A' (start soviet) whose controller per turn is ``firsts``."""
    return {"places": [{"hex": "0101", "name": "A", "why": ["x"]}], "start": {"control": {"0101": "soviet"}},
            "turns": [{"turn": i + 1, "control": {"0101": s}, "eliminated": {"soviet": {"units": i, "strength": 2 * i}}}
                      for i, s in enumerate(firsts)]}


def test_summary_counts_changes_of_hands_and_median_first_turn_and_losses():
    s = summarize_timelines([_tl("soviet", "german", "german"), _tl("german", "soviet", "soviet"),
                             _tl("soviet", "soviet", "soviet"), None])
    a = s["places"]["0101"]
    assert (a["games"], a["changed"], a["first_turn_median"]) == (3, 2, 1.5)
    assert a["taken_by"] == {"german": 2} and a["end"] == {"german": 1, "soviet": 2}
    assert s["eliminated_median"] == {"soviet": {"units": 2, "strength": 4}}
    assert summarize_timelines([None]) is None


def test_the_json_records_carry_the_timeline(tmp_path):
    out = tmp_path / "k.json"
    result = CliRunner().invoke(cli, ["batch", "kestrel_pass", "--games", "1", "--workers", "1", "--bot",
                                      "blue=greedy", "--bot", "red=greedy", "--json", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    [record] = json.loads(out.read_text())["arms"][0]["records"]
    # Kestrel Pass scores its victory hexes in a plugin (KP9.2): no condition names a place
    assert record["timeline"]["places"] == [] and [t["turn"] for t in record["timeline"]["turns"]] == [1, 2, 3]
    assert "winner" in record and "digest" in record  # the keys BALANCE.md's scripts read stay
    assert "median units eliminated blue" in result.output


def test_the_printed_row_says_who_took_the_place():
    """trial19b: the summary rows said a place changed hands but not who took it (the JSON's
    ``taken_by``: who held it at its first change; ``None``: nobody)."""
    from casebook.tools.batch_summary import _timeline_rows

    taken, kept, emptied = _tl("german", "german"), _tl("soviet", "soviet"), _tl("soviet", None)
    [row, _] = _timeline_rows(summarize_timelines([taken, taken, kept, emptied]))
    assert (row.label, row.text) == ("A 0101 changed hands", "3/4 (75%), taken by german 2, nobody 1, first at turn 1")


@pytest.mark.case("5.5A")
def test_5_5A_the_timeline_start_counts_the_units_a_position_begins_out_of_supply():
    from casebook.content.position import position_to_dict
    from casebook.content.savecheck import load_save
    from casebook.content.yamlio import load_yaml

    path = "tests/positions/blitz-seed2-turn2-smolensk.yaml"
    units = load_yaml(path).data["units"]
    game = load_game("moscow41", "october-blitz")
    state = game.state_from_dict(position_to_dict(load_save(path, game.engine)))
    start = Timeline(state).data()["start"]
    assert start["oos"] == {side: sum(1 for u in units if u.get("oos") and u["side"] == side)
                            for side in ("german", "soviet")}
    assert sum(start["oos"].values()) == 27  # the file's `oos: true` units
