"""Triggers (issue #15): `when unit enters hex where …: remove marker <kind> by CASE` — the event,
its condition held to the event's declared inputs, and an effect the engine carries out with no
game code (casebook.script.effects); 16.3B (a Partisan marker removed when a German unit enters its
hex during a German movement action) is such a line now."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casebook.core.errors import ScriptSyntaxError
from casebook.script import compile_pack, compile_scripts, find_rule_pack
from casebook.script.effects import carry_out

ROOT = Path(__file__).resolve().parent.parent
M41 = compile_pack(find_rule_pack("moscow41"))


@pytest.mark.case("16.3B")
def test_16_3B_a_german_movement_action_fires_the_marker_removal():
    """16.3B: "A Partisan marker is automatically removed from the map if a German unit enters its
    hex during a German movement action." """
    [effect] = M41.fire("unit_enters_hex", {"hex": "0505", "side": "german", "action_kind": "move"})
    assert (effect["effect"], effect["arg"], effect["cases"]) == ("remove_marker", "partisan", ["16.3B"])
    assert effect["source"].endswith("partisans.rules:24") and effect["text"].startswith("when unit enters hex")
    assert M41.fire("unit_enters_hex", {"hex": "0505", "side": "soviet", "action_kind": "move"}) == []
    assert M41.fire("unit_enters_hex", {"hex": "0505", "side": "german", "action_kind": "overrun"}) == []


@pytest.mark.case("16.3B")
def test_16_3B_editing_the_trigger_in_a_copy_changes_what_removes_a_marker(tmp_path):
    shutil.copytree(ROOT / "games" / "moscow41", tmp_path / "m", ignore=shutil.ignore_patterns("golden"))
    script = tmp_path / "m" / "rules" / "partisans.rules"
    text = script.read_text(encoding="utf-8")
    old = "action_kind in [move, force_march, rail_move, react_move]"
    assert text.count(old) == 1
    script.write_text(text.replace(old, "action_kind in [move, force_march, rail_move, react_move, overrun]"),
                      encoding="utf-8")
    rules = compile_pack(find_rule_pack(tmp_path / "m"))
    assert len(rules.fire("unit_enters_hex", {"hex": "0505", "side": "german", "action_kind": "overrun"})) == 1


def test_carry_out_removes_or_places_a_marker_only_when_it_changes_something():
    class _State:
        def __init__(self):
            self.markers = [{"kind": "partisan", "hex": "0505"}]

        def remove_marker(self, kind, hex_):
            self.markers.remove({"kind": kind, "hex": hex_})

        def add_marker(self, kind, hex_):
            self.markers.append({"kind": kind, "hex": hex_})

    ctx = type("C", (), {"state": _State()})()
    remove = {"effect": "remove_marker", "arg": "partisan"}
    assert carry_out(ctx, remove, "0505") and ctx.state.markers == []
    assert not carry_out(ctx, remove, "0505")
    place = {"effect": "place_marker", "arg": "partisan"}
    assert carry_out(ctx, place, "0606") and not carry_out(ctx, place, "0606")
    assert ctx.state.markers == [{"kind": "partisan", "hex": "0606"}]


def test_trigger_mistakes_are_located_errors():
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_scripts([("t.rules", "when unit leaves hex: remove marker partisan by 16.3B\n"
                                     "when unit enters hex where ground is mud and turn_ips > 2: "
                                     "remove marker partisan by 16.3B\n")], M41.schema)
    text = str(exc.value)
    assert "t.rules:1:6: unit_leaves_hex: unknown event `unit leaves hex`" in text
    assert "t.rules:2:" in text and "unknown fact `turn_ips`" in text
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_scripts([("t.rules", "when unit enters hex where hex_supplied: remove marker p by 16.3B\n")],
                        M41.schema)
    assert "`hex_supplied` is never given to trigger `unit_enters_hex`" in str(exc.value)


# ---- the events of the sequence of play and the game effects (issue #15) --------------------

def _copy(tmp_path, *appended: tuple[str, str]) -> Path:
    """A copy of the Moscow '41 pack with lines appended to its scripts: ``(file, text)``."""
    dst = tmp_path / "m"
    shutil.copytree(ROOT / "games" / "moscow41", dst, ignore=shutil.ignore_patterns("golden"))
    for name, text in appended:
        script = dst / "rules" / name
        script.write_text(script.read_text(encoding="utf-8") + text, encoding="utf-8")
    return dst


def _line(name: str, k: int) -> int:
    """The line number of the k-th line (1: the first) appended by :func:`_copy` after a blank one."""
    return len((ROOT / "games" / "moscow41" / "rules" / name).read_text(encoding="utf-8").splitlines()) + 1 + k


@pytest.mark.case("18.1.3D")
def test_18_1_3D_is_a_when_action_ends_line_that_ends_the_game():
    """18.1.3D: "The Soviets win automatically the instant any Soviet combat unit enters Smolensk." """
    [trig] = M41.triggers["action_ends"]
    assert (trig.effect, trig.arg, trig.code.cases) == ("end_game", "soviet", ("18.1.3D",))
    assert trig.code.source.endswith("victory.rules:31")
    assert dict(trig.params) == {"level": "automatic", "reason": "a Soviet combat unit entered Smolensk"}


@pytest.mark.case("18.1.3D")
def test_18_1_3D_editing_the_line_in_a_copy_moves_the_automatic_win(tmp_path):
    """Edit the town of the 18.1.3D line (Smolensk → Vyazma) in a copy: a Soviet combat unit in
    Vyazma now ends the Blitz, one in Smolensk does not."""
    from casebook.core.hexgrid import hex_label
    from casebook.core.trace import Trace
    from casebook.script.effects import triggered
    from casebook.script.engine import Engine, state_from_position

    dst = _copy(tmp_path)
    script = dst / "rules" / "victory.rules"
    text = script.read_text(encoding="utf-8")
    assert text.count('town_name(hex) is "Smolensk"') == 1
    script.write_text(text.replace('town_name(hex) is "Smolensk"', 'town_name(hex) is "Vyazma"'), encoding="utf-8")
    engine = Engine.load(dst)
    vyazma = next(hex_label(h) for h, t in engine.ctx(state_from_position(engine.pack.scenario("october-blitz")))
                  .board.towns().items() if t.get("name") == "Vyazma")
    ctx = engine.ctx(state_from_position(engine.pack.scenario("october-blitz")), Trace())
    soviet_unit = next(u["id"] for u in ctx.state.units if u.get("side") == "soviet" and u.get("class") == "infantry")
    ctx.state.move_unit(soviet_unit, "1308")
    assert triggered(ctx, "action_ends", {"side": "soviet", "action_kind": "move"}) is None
    ctx.state.move_unit(soviet_unit, vyazma)
    result = triggered(ctx, "action_ends", {"side": "soviet", "action_kind": "move"})
    assert (result["winner"], result["cases"]) == ("soviet", ["18.1.3D"])


def test_step_ends_and_turn_starts_fire_in_play_and_tracks_keep_their_bounds(tmp_path):
    """A copy with three new lines: at the end of the Ground Condition step 2 Partisan points
    are added, at the end of the Temperature step 5 are taken away (held at the track's low bound,
    0), and the driver records each change with its line; the turn-start line ends the game on
    turn 2, before its first step."""
    from casebook.core.game import Game

    dst = _copy(tmp_path, ("partisans.rules",
                           "\nwhen step ends where phase is weather and step is temperature: "
                           "add -5 to track partisans by 16.1B\n"
                           "when step ends where phase is weather and step is ground: "
                           "add 1 + 1 to track partisans by 16.1B\n"
                           "when turn starts where turn = 2: "
                           'end the game, german wins (automatic) "test" by 18.1.3B\n'))
    state = Game.load(str(dst), "october-blitz").new_initial_state(seed=1)
    assert state.data.track("partisans") == 2
    events = state.trace.of_kind("trigger")
    assert [(e.step, e.data["added"], e.data["value"]) for e in events] == [("ground", 2, 2)]
    assert events[0].data["lines"] == [{"source": f"partisans.rules:{_line('partisans.rules', 2)}", "cases": ["16.1B"]}]
    assert events[0].cases == ("16.1B",)


def test_turn_starts_can_end_the_game_before_the_first_step(tmp_path):
    from casebook.core.game import Game

    dst = _copy(tmp_path, ("victory.rules",
                           '\nwhen turn starts where turn = 1: end the game, german wins "a test" by 18.1.3B\n'))
    state = Game.load(str(dst), "october-blitz").new_initial_state(seed=1)
    assert state.is_terminal()
    assert state.result() == {"winner": "german", "reason": "a test", "cases": ["18.1.3B"],
                              "lines": [{"source": f"victory.rules:{_line('victory.rules', 1)}", "cases": ["18.1.3B"]}]}
    assert state.data.step == "temperature"   # no step ran


def test_sequence_and_vocabulary_names_are_checked(tmp_path):
    """`rules check` holds a step and phase to the pack's sequence.yaml, a winner to the
    vocabulary's sides, a track to its tracks and their keys; a marker effect needs an event with
    a hex. Every mistake is a located error with a suggestion."""
    dst = _copy(tmp_path, ("partisans.rules",
                           "\nwhen step ends where step is movment: add 1 to track partisans by 16.1B\n"
                           'when action ends: end the game, sovet wins "x" by 18.1.3D\n'
                           "when step ends: add 1 to track partisan by 16.1B\n"
                           "when step ends: add 1 to track ip by 16.1B\n"
                           "when turn starts: add 1 to track ip of sovet by 16.1B\n"
                           "when step ends: remove marker partisan by 16.3C\n"
                           "when turn starts: add hex_terrain to track partisans by 16.1B\n"))
    with pytest.raises(ScriptSyntaxError) as exc:
        compile_pack(find_rule_pack(dst))
    text = str(exc.value)
    at = [f"partisans.rules:{_line('partisans.rules', k)}:" for k in range(1, 8)]
    assert at[0] in text and "movment" in text and "did you mean `movement`" in text
    assert at[1] in text and "unknown side `sovet`" in text and "did you mean `soviet`" in text
    assert at[2] in text and "unknown track `partisan`" in text
    assert at[3] in text and "track `ip` is kept by 1 key(s)" in text
    assert at[4] in text and "`sovet` is neither a fact nor a key" in text
    assert at[5] in text and "has none" in text
    assert at[6] in text and "hex_terrain" in text


def test_a_track_key_may_be_a_fact_of_the_event(tmp_path):
    """`add 3 to track ip of side` at the end of an action: the actor's side, read when it fires,
    held to the IP track's maximum (ip_total's `at most 99 by 1.4`)."""
    dst = _copy(tmp_path, ("initiative.rules", "\nwhen action ends: add 150 to track ip of side by 1.0C\n"))
    rules = compile_pack(find_rule_pack(dst))
    [effect] = rules.fire("action_ends", {"side": "soviet", "action_kind": "move", "scenario_id": "campaign"})
    assert (effect["effect"], effect["arg"], effect["amount"], effect["keys"]) == ("add_to_track", "ip", 150, ["soviet"])


@pytest.mark.case("18.1.3D")
def test_18_1_3D_ask_vp_names_the_line_and_whether_it_ends_the_game_now():
    """`casebook ask … vp` on the Blitz lists the `end the game` line of 18.1.3D, its whole text
    (a continued line joined) and whether it fires in the position asked about."""
    from casebook.games.moscow41.plugins import victory
    from casebook.script.engine import load_engine, state_from_position

    engine = load_engine("moscow41")
    ctx = engine.ctx(state_from_position(engine.pack.scenario("october-blitz")))
    [line] = victory.casebook_answer(ctx, "vp", [], {})["script_conditions"]
    assert (line["source"], line["cases"], line["fires"]) == ("victory.rules:31", ["18.1.3D"], False)
    assert line["text"].endswith('end the game, soviet wins (automatic) "a Soviet combat unit entered Smolensk"  by 18.1.3D')
    soviet = next(u["id"] for u in ctx.state.units if u.get("side") == "soviet" and u.get("class") == "infantry")
    ctx.state.move_unit(soviet, "1308")
    [line] = victory.casebook_answer(ctx, "vp", [], {})["script_conditions"]
    assert line["fires"] is True
