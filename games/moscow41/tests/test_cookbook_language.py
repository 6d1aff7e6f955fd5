"""The modder's cookbook, recipes 13 and 17-22 (docs/modding.md): retreat length, overrun cost,
force-march DRM, partisan placement distance, a paratroop house rule written with a spatial term,
an IP chart cell, a trigger. Each is applied to a copy of the Moscow '41 pack (no Python), and
the test checks the changed answer and the line it cites."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.script.engine import Engine, load_engine
from games.moscow41.tests.test_cookbook import DOC, ROOT, cooked
from tests._pack_edits import copy_edited
from tests.conftest import make_ctx

POSITION = """
kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {columns: 20, rows: 20}
  terrain: {default: clear}
turn: 5
weather: {temperature: cold, ground: frozen}
phase: second_initiative
step: replacement_reinforcement
phasing: soviet
first_player: german
rng: {seed: 0, state: null}
units:
  - {id: s1, side: soviet, counter: s-5rd, hex: "0101"}
  - {id: g1, side: german, counter: g-7id, hex: "0505"}
"""


def _line_of(tmp_path: Path, file: str, text: str) -> str:
    """``file:N`` of the line holding ``text`` in the copied pack's script."""
    lines = (tmp_path / "moscow41" / "rules" / file).read_text(encoding="utf-8").split("\n")
    return f"{file}:{next(i for i, t in enumerate(lines, 1) if text in t)}"


def _fired(e) -> list[str]:
    return [ln.source.rsplit("/", 1)[-1] for ln in e.lines if ln.fired]


@pytest.mark.case("4.3G")
def test_recipe_13_force_march_in_mud_at_minus_2(tmp_path):
    new = "  -2 by 4.3G, 3.1B  when ground in [mud, drying]"
    rules = cooked(tmp_path, "movement.rules", ("replace", "  -3 by 4.3G, 3.1B  when ground in [mud, drying]", new))
    e = rules.explain("force_march_drm", {"supplied": True}, standard={"ground": "mud", "temperature": "cold"})
    assert e.value == -2
    assert _line_of(tmp_path, "movement.rules", new.strip()) in _fired(e)


@pytest.mark.case("11.0B")
def test_recipe_17_an_r_result_retreats_two_hexes(tmp_path):
    new = "  +2 by 11.0B  when result_retreat"
    rules = cooked(tmp_path, "combat.rules", ("replace", "  +1 by 11.0B  when result_retreat", new))
    e = rules.explain("retreat_hexes", {"result_number": 0, "result_retreat": True})
    assert e.value == 2
    assert rules.value("retreat_hexes", {"result_number": 2, "result_retreat": False}) == 2
    assert _line_of(tmp_path, "combat.rules", new.strip()) in _fired(e)


@pytest.mark.case("9.5A")
def test_recipe_18_an_overrun_costs_two_mps_more(tmp_path):
    new = "  otherwise 2  by 9.5A"
    rules = cooked(tmp_path, "movement.rules", ("replace", "  otherwise 1  by 9.5A", new))
    tables = load_engine("moscow41").script_tables
    facts = {"hex_terrain": "clear", "move_class": "armor", "tec_column": "dry", "hexside_feature": "none",
             "fluid_ezoc_to_ezoc": False, "overrun": True}
    std = {"ground": "dry", "temperature": "cold"}
    assert rules.value("move_cost", facts, tables, std) == 3            # clear 1 + overrun 2
    assert rules.value("move_cost", {**facts, "overrun": False}, tables, std) == 1
    assert _line_of(tmp_path, "movement.rules", new.strip()) in _fired(rules.explain("overrun_mp", {}))


def _engine_ctx(tmp_path: Path):
    return make_ctx(Engine.load(tmp_path / "moscow41"), POSITION)


@pytest.mark.case("16.2")
def test_recipe_19_partisans_placed_three_hexes_from_the_enemy(tmp_path):
    old = "forbid place_partisan by 16.2         when partisan_enemy_distance <= 5"
    new = "forbid place_partisan by 16.2         when partisan_enemy_distance <= 2"
    cooked(tmp_path, "partisans.rules", ("replace", old, new))
    ctx = _engine_ctx(tmp_path)
    facts = {"side": "soviet", "partisan_points": 1, "partisan_markers": 0}
    assert ctx.value("partisan_enemy_distance", {"hex": "0508", "side": "soviet"}) == 3
    assert ctx.allowed("place_partisan", {**facts, "hex": "0508"})     # 3 hexes: allowed now (5 before)
    v = ctx.permission("place_partisan", {**facts, "hex": "0507"})      # 2 hexes: still refused
    assert not v.value and list(v.cases) == ["16.2"]
    assert _line_of(tmp_path, "partisans.rules", new) in _fired(v)


@pytest.mark.case("15.1D")
def test_recipe_20_no_drop_within_two_hexes_of_the_enemy(tmp_path):
    new = "forbid paratroop_drop by 15.1D  when distance to nearest(map_units having enemy from target) <= 2"
    cooked(tmp_path, "paratroops.rules", ("append", None, new))
    ctx = _engine_ctx(tmp_path)
    facts = {"side": "soviet", "drop_eligible": True, "drops_this_turn": 0, "drop_distance": 4}
    v = ctx.permission("paratroop_drop", {**facts, "target": "0504"})   # adjacent: 15.1D allows it in print
    assert not v.value and _line_of(tmp_path, "paratroops.rules", new) in _fired(v)
    assert ctx.allowed("paratroop_drop", {**facts, "target": "0502"})   # three hexes away


#: a plain attacking infantry unit: the fields combat.rules reads of an attacker
ATTACKER = {"class": "infantry", "across_fortification": False, "fatigued": False, "overstacked": False,
            "across_river": False, "in_command": True, "supplied": True}


@pytest.mark.case("10.4.2A")
def test_recipe_21_soviet_support_at_two_ips_a_drm(tmp_path):
    old = '{action: "combat_support", side: "soviet", ip: 3,'
    new = '{action: "combat_support", side: "soviet", ip: 2,'
    assert new in DOC
    engine = Engine.load(copy_edited(tmp_path, "tables/ip_costs.yaml", (old, new)))
    e = engine.rules.explain("ip_cost", {"ip_use": "combat_support", "side": "soviet", "support_drm": 3},
                             engine.script_tables)
    assert e.value == 6                                                   # 3 DRMs at 2 IPs (9 in print)
    assert _line_of(tmp_path, "initiative.rules", 'side: "soviet"].ip  by 10.4.2A') in _fired(e)
    # ... and the DRM 4 support IPs buy reads the same cell (combat.rules): 2 DRMs (1 in print)
    facts = {"attacker_side": "soviet", "attacker_support_ips": 4, "attackers": [ATTACKER],
             "defender_side": "german", "defender_support_ips": 0, "defender_terrain_drm": 0,
             "defenders": [{"class": "infantry", "hedgehog": False}], "whole_division": False,
             "ground": "dry", "temperature": "warm", "turn": 1}
    base = Engine.load(ROOT / "games" / "moscow41")

    def support_drm(eng):  # the DRM with 4 support IPs less the DRM without them
        return (eng.rules.explain("attack_drm", facts, eng.script_tables).value
                - eng.rules.explain("attack_drm", {**facts, "attacker_support_ips": 0}, eng.script_tables).value)

    assert (support_drm(base), support_drm(engine)) == (1, 2)
    drm = engine.rules.explain("attack_drm", facts, engine.script_tables)
    assert _line_of(tmp_path, "combat.rules", 'side: "soviet"].ip rounded down  by 10.4.2A  when attacker') in _fired(drm)


@pytest.mark.case("16.3B")
def test_recipe_22_german_overruns_remove_partisan_markers_too(tmp_path):
    old = "action_kind in [move, force_march, rail_move, react_move]:"
    new = "action_kind in [move, force_march, rail_move, react_move, overrun]:"
    rules = cooked(tmp_path, "partisans.rules", ("replace", old, new))
    [effect] = rules.fire("unit_enters_hex", {"hex": "0505", "side": "german", "action_kind": "overrun"})
    assert effect["arg"] == "partisan" and effect["source"].endswith(_line_of(tmp_path, "partisans.rules", new))


@pytest.mark.case("16.1C")
def test_recipe_23_a_partisan_marker_costs_two_points(tmp_path):
    from casebook.core.actions import Action
    from casebook.script import declared

    # the block's cost line takes quantity partisan_marker_cost: the recipe edits that quantity
    cost = "  cost partisan_marker_cost from track partisans  by 16.1C"
    assert cost in (ROOT / "games/moscow41/rules/partisans.rules").read_text(encoding="utf-8")
    cooked(tmp_path, "partisans.rules", ("replace", "  start 1  by 16.1C", "  start 2  by 16.1C"))
    new = cost
    engine = Engine.load(tmp_path / "moscow41")
    ctx = make_ctx(engine, POSITION + "partisans: 1\n")
    step = ("second_initiative", "replacement_reinforcement")
    assert declared.casebook_legal_actions(ctx, *step) == []                        # 1 point: nothing offered
    [refusal] = declared.casebook_validate_action(ctx, Action.make("place-partisan", "soviet", hex="1515"))
    assert refusal.cases == ("16.1C",) and f"[{_line_of(tmp_path, 'partisans.rules', new.strip())}]" in refusal.reason
    assert "costs 2 from track partisans, which holds 1" in refusal.reason
    ctx2 = make_ctx(engine, POSITION + "partisans: 2\n", trace=True)
    assert Action.make("place-partisan", "soviet", hex="1515") in declared.casebook_legal_actions(ctx2, *step)
    out = declared.casebook_apply_action(ctx2, Action.make("place-partisan", "soviet", hex="1515"))
    assert (out["cost"], ctx2.state.track("partisans")) == (2, 0)
    base = make_ctx(load_engine("moscow41"), POSITION + "partisans: 1\n")        # the printed rule: 1 point
    assert Action.make("place-partisan", "soviet", hex="1515") in declared.casebook_legal_actions(base, *step)


@pytest.mark.case("KP11.2")
def test_recipe_24_kestrel_pass_dig_in_only_facing_the_enemy(tmp_path):
    from casebook.core.actions import Action
    from casebook.script import declared

    anchor = "  require count(map_units within 0 of hex having own) >= 1  by KP11.2\n"
    new = "  require distance to nearest(map_units having enemy from hex) <= 1  by KP11.2"
    cooked(tmp_path, "fieldworks.rules", ("after", anchor, new), game="kestrel_pass")
    engine = Engine.load(tmp_path / "kestrel_pass")
    kp = ["kind: position", "format: 1", "game: kestrel_pass", "turn: 2", "weather: {temperature: warm, ground: dry}",
          "phase: blue_turn", "step: movement", "first_player: blue", "phasing: blue", "engineers: {blue: 2}",
          "units:", '  - {counter: b-1, hex: "0202"}', '  - {counter: b-2, hex: "0304"}',
          '  - {counter: r-1, hex: "0305"}']
    ctx = make_ctx(engine, "\n".join(kp) + "\n")
    listed = [a.get("hex") for a in declared.casebook_legal_actions(ctx, "blue_turn", "movement")]
    assert listed == ["0304"]                                   # 0304 is beside r-1 (0305); 0202 is not
    [refusal] = declared.casebook_validate_action(ctx, Action.make("dig-in", "blue", hex="0202"))
    where = f"fieldworks.rules:{_kp_line(tmp_path, new.strip())}"
    assert refusal.cases == ("KP11.2",) and refusal.reason.startswith("not met: require distance")
    assert f"[{where}]" in refusal.reason
    base = make_ctx(load_engine("kestrel_pass"), "\n".join(kp) + "\n")   # the rule as written: both hexes
    assert [a.get("hex") for a in declared.casebook_legal_actions(base, "blue_turn", "movement")] == ["0202", "0304"]


def _kp_line(tmp_path: Path, text: str) -> int:
    lines = (tmp_path / "kestrel_pass" / "rules" / "fieldworks.rules").read_text(encoding="utf-8").split("\n")
    return next(i for i, t in enumerate(lines, 1) if text in t)


@pytest.mark.case("11.0B")
def test_recipe_17_the_check_explain_names_the_retreat_length_line():
    """Recipe 17's check: `casebook explain` of an R result's combat-results event names the
    retreat_hexes line (combat.rules:47, as the recipe says) and shows the retreat's path."""
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    line = "  +1 by 11.0B  when result_retreat"
    assert _line_of(ROOT / "games", "combat.rules", line.strip()) == "combat.rules:47"
    assert "combat.rules:47  +2 by 11.0B  when result_retreat" in DOC
    trace = ROOT / "games/moscow41/golden/october-blitz-greedy-seed1.jsonl"
    out = CliRunner().invoke(cli, ["explain", str(trace), "30"]).output
    assert "combat-results" in out and "combat.rules:47  +1 by 11.0B  when result_retreat" in out
    assert "retreat (units s-229rd; path 1115)" in out  # one hex, as 11.0B prints (explain prints words, polE)
