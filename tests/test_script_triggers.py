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
