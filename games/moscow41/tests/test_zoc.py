"""Moscow '41 zones of control (7.0-7.5, errata 0.2.3.1) on small inline maps.

Layout flat-top-even-q: odd columns sit half a hex higher than even ones, so 0303 (odd column)
touches 0202/0402 and 0203/0403, while 0203 (even column) touches 0103/0104 and 0303/0304.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.areas import zoc
from casebook.areas._zoc_map import chart_kind, zoc_map
from casebook.core.actions import Action
from tests.conftest import m41_inline

ROOT = Path(__file__).resolve().parents[3]


def pos(units: str, weather: str = "{temperature: warm, ground: dry}", extra: str = "") -> str:
    return m41_inline(units, terrain='{default: clear, "0204": forest}', extra=extra, weather=weather, turn=None,
                      phase=None, step=None, first_player=None, ip=None)


INF = "class: infantry, size: division, strength: 6, ma: 4"
ARM = "class: armor, size: regiment, strength: 4, ma: 8"


def s_unit(uid: str, hex_: str, kind: str = INF, **more: str) -> str:
    tail = "".join(f", {k}: {v}" for k, v in more.items())
    return f'  - {{id: {uid}, side: soviet, {kind}, hex: "{hex_}"{tail}}}\n'


def g_unit(uid: str, hex_: str, kind: str = INF, **more: str) -> str:
    tail = "".join(f", {k}: {v}" for k, v in more.items())
    return f'  - {{id: {uid}, side: german, {kind}, hex: "{hex_}"{tail}}}\n'


def move(side: str, stack: str, *path: str, **args) -> Action:
    return Action.make("move", side, stack=stack, path=path, **args)


# ---------------------------------------------------------------------------- 7.0: where
@pytest.mark.case("7.0A")
def test_7_0A_zoc_covers_the_six_hexes_around_an_odd_column_unit(position):
    ctx = position(pos(s_unit("s1", "0303")))
    assert sorted(zoc_map(ctx, "german")) == ["0202", "0203", "0302", "0304", "0402", "0403"]
    assert zoc_map(ctx, "soviet") == {}          # a side's own units are no EZOC to it


@pytest.mark.case("7.0D")
def test_7_0D_zoc_extends_into_all_adjacent_hexes_even_column_forest_river(position):
    extra = '  hexsides: [{hexes: ["0203", "0204"], river: true}, {hexes: ["0203", "0303"], major_river: true}]'
    ctx = position(pos(s_unit("s1", "0203"), extra=extra))
    assert sorted(zoc_map(ctx, "german")) == ["0103", "0104", "0202", "0204", "0303", "0304"]
    edge = position(pos(s_unit("s1", "0101")))   # at the map corner: only on-map hexes
    assert sorted(zoc_map(edge, "german")) == ["0102", "0201"]


@pytest.mark.case("7.0E")
def test_7_0E_an_enemy_zoc_does_not_affect_a_units_own_zoc(position):
    # s1 stands in g1's ZOC (and next to it); it still exerts its ZOC, into g1's hex too.
    ctx = position(pos(g_unit("g1", "0303") + s_unit("s1", "0304")))
    assert zoc.zoc_answer(ctx, "0304", "soviet")["exerted_by"] == ["g1"]
    assert zoc.zoc_answer(ctx, "0303", "german")["exerted_by"] == ["s1"]
    assert zoc.zoc_answer(ctx, "0305", "german")["exerted_by"] == ["s1"]


@pytest.mark.case("7.0F")
def test_7_0F_several_zocs_have_no_additional_effect(position):
    one = position(pos(s_unit("s1", "0403") + g_unit("g2", "0101", ARM)))
    two = position(pos(s_unit("s1", "0403") + s_unit("s2", "0305") + g_unit("g2", "0101", ARM)))
    a1, a2 = zoc.zoc_answer(one, "0304", "german"), zoc.zoc_answer(two, "0304", "german")
    assert a2["exerted_by"] == ["s1", "s2"] and a1["exerted_by"] == ["s1"]
    assert a1["kind"] == a2["kind"] == "locking"
    f1, f2 = zoc.zoc_for_unit(one, "0304", "g2"), zoc.zoc_for_unit(two, "0304", "g2")
    assert f1["ezoc_to_ezoc"] == f2["ezoc_to_ezoc"] == "+1 MP"      # one +1 MP, not two


# ---------------------------------------------------------------------------- 7.0B-C: kind
@pytest.mark.case("7.0B")
def test_7_0B_infantry_is_locked_and_armor_is_fluid_in_dry_weather(position):
    ctx = position(pos(s_unit("s1", "0403") + g_unit("g1", "0101") + g_unit("g2", "0102", ARM)))
    assert zoc.zoc_for_unit(ctx, "0304", "g1")["kind"] == "locking"
    assert zoc.zoc_for_unit(ctx, "0304", "g1")["must_stop_on_entering"] is True
    assert zoc.zoc_for_unit(ctx, "0304", "g2")["kind"] == "fluid"
    assert zoc.zoc_for_unit(ctx, "0601", "g1")["kind"] == "none"     # no EZOC there at all


@pytest.mark.case("7.0C")
def test_7_0C_the_chart_column_follows_the_weather(position):
    for ground, column in [("dry", "dry"), ("frozen", "frozen"), ("mud", "mud"), ("drying", "mud"),
                           ("snow", "snow"), ("deep_snow", "snow")]:
        ctx = position(pos(s_unit("s1", "0403"), weather=f"{{temperature: cold, ground: {ground}}}"))
        kind, cases = chart_kind(ctx, "armor")
        assert kind == ctx.table("zoc_chart").lookup(unit="armor", weather=column), ground
        assert "7.0C" in cases


# ---------------------------------------------------------------------------- 7.1: who
@pytest.mark.case("7.1A")
def test_7_1A_hqs_and_remnants_exert_no_zoc(position):
    hq = "class: hq, ma: 6, radius: 4, limit: 3"
    rem = "class: remnant, strength: 1, ma: 4"
    ctx = position(pos(s_unit("h1", "0303", hq) + s_unit("r1", "0606", rem)))
    assert zoc_map(ctx, "german") == {}
    answer = zoc.zoc_answer(ctx, "0304", "german")
    assert answer["exerted_by"] == [] and answer["kind"] == "none"


@pytest.mark.case("7.1B")
def test_7_1B_mud_armor_zoc_only_into_town_road_and_trail_hexes(position):
    extra = ('  towns: {"0202": {name: Testgrad, kind: town, ip: 1}}\n'
             '  hexsides: [{hexes: ["0304", "0305"], road: true}, {hexes: ["0402", "0401"], trail: true}]')
    arm = "class: armor, size: brigade, strength: 3, ma: 8"
    mud = "{temperature: warm, ground: mud}"
    ctx = position(pos(s_unit("s1", "0303", arm), weather=mud, extra=extra))
    assert sorted(zoc_map(ctx, "german")) == ["0202", "0304", "0402"]
    drying = position(pos(s_unit("s1", "0303", arm), weather="{temperature: warm, ground: drying}", extra=extra))
    assert sorted(zoc_map(drying, "german")) == ["0202", "0304", "0402"]      # 3.1B
    infantry = position(pos(s_unit("s1", "0303"), weather=mud, extra=extra))
    assert len(zoc_map(infantry, "german")) == 6
    dry = position(pos(s_unit("s1", "0303", arm), extra=extra))
    assert len(zoc_map(dry, "german")) == 6
    # the alternative reading: only across a road or trail hexside from the unit's hex
    alt = position(pos(s_unit("s1", "0303", arm), weather=mud,
                       extra=extra + "\nsettings: {mud_zoc_roads: road_hexside}"))
    assert sorted(zoc_map(alt, "german")) == ["0202"]


@pytest.mark.case("7.1C", "0.2.3.1")
def test_7_1C_0_2_3_1_no_unit_has_a_zoc_in_arctic(position, m41):
    ctx = position(pos(s_unit("s1", "0303") + g_unit("g1", "0101"),
                       weather="{temperature: arctic, ground: snow}"))
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex="0304", side="german")
    assert answer["exerted_by"] == [] and answer["kind"] == "none"
    assert "7.1C" in answer["cases"]
    # the chart itself (errata overlay applied): Arctic column none for every class
    for row in ("infantry", "cavalry", "armor", "ski"):
        kind, cases = chart_kind(ctx, row)
        assert kind == "none" and "0.2.3.1" in cases
    assert zoc.zoc_for_unit(ctx, "0304", "g1")["kind"] == "none"


@pytest.mark.case("0.2.3.1")
def test_0_2_3_1_winter_reading_removes_zoc_in_snow(position):
    snow = "{temperature: cold, ground: snow}"
    assert zoc_map(position(pos(s_unit("s1", "0303"), weather=snow)), "german")
    winter = position(pos(s_unit("s1", "0303"), weather=snow, extra="settings: {no_zoc_scope: winter}"))
    assert zoc_map(winter, "german") == {}


# ---------------------------------------------------------------------------- 7.2, 7.3: moves
@pytest.mark.case("7.2")
def test_7_2_locking_unit_cannot_go_ezoc_to_ezoc_of_the_same_enemy_unit(position):
    # g1 at 0303 (odd column) and 0304 are both in s1's ZOC (s1 at 0403, even column).
    ctx = position(pos(s_unit("s1", "0403") + g_unit("g1", "0303")))
    refused = zoc.casebook_validate_action(ctx, move("german", "0303", "0304"))
    assert [r.cases[0] for r in refused] == ["7.2"]
    assert zoc.casebook_validate_action(ctx, move("german", "0303", "0302")) == []  # leaving is free


@pytest.mark.case("7.2")
def test_7_2_locking_unit_must_stop_on_entering_an_ezoc(position):
    ctx = position(pos(s_unit("s1", "0403") + g_unit("g1", "0301")))
    assert zoc.casebook_validate_action(ctx, move("german", "0301", "0302", "0303")) == []
    refused = zoc.casebook_validate_action(ctx, move("german", "0301", "0302", "0303", "0203"))
    assert len(refused) == 1 and "must stop" in refused[0].reason and "7.2" in refused[0].cases


@pytest.mark.case("7.2")
def test_7_2_different_enemy_units_follow_the_setting(position):
    # 0304 is in s1's ZOC only (s1 at 0403), the adjacent 0305 in s2's only (s2 at 0306).
    units = s_unit("s1", "0403") + s_unit("s2", "0306") + g_unit("g1", "0304")
    ctx = position(pos(units))
    assert zoc_map(ctx, "german")["0304"] == ("s1",) and zoc_map(ctx, "german")["0305"] == ("s2",)
    assert zoc.casebook_validate_action(ctx, move("german", "0304", "0305"))       # any: refused
    same = position(pos(units, extra="settings: {locking_ezoc_to_ezoc: same_unit}"))
    assert zoc.casebook_validate_action(same, move("german", "0304", "0305")) == []
    assert zoc.casebook_validate_action(same, move("german", "0304", "0303"))      # s1 both: refused


@pytest.mark.case("7.3")
def test_7_3_fluid_unit_moves_ezoc_to_ezoc_at_one_more_mp(position):
    ctx = position(pos(s_unit("s1", "0403") + g_unit("g2", "0303", ARM)))
    assert zoc.casebook_validate_action(ctx, move("german", "0303", "0304", "0305")) == []
    answer = zoc.zoc_for_unit(ctx, "0304", "g2")
    assert answer["kind"] == "fluid" and answer["ezoc_to_ezoc"] == "+1 MP" and "7.3" in answer["cases"]
    facts = {"hex_terrain": "clear", "move_class": "armor", "hexside_feature": "none",
             "ground": "dry", "temperature": "warm", "overrun": False}
    plain = ctx.value("move_cost", {**facts, "fluid_ezoc_to_ezoc": False})
    assert ctx.value("move_cost", {**facts, "fluid_ezoc_to_ezoc": True}) == plain + 1


# ---------------------------------------------------------------------------- 7.4, 7.5
@pytest.mark.case("7.4")
def test_7_4_supply_and_command_not_through_an_ezoc_unless_a_friendly_combat_unit(position):
    rem = "class: remnant, strength: 1, ma: 4"
    hq = "class: hq, ma: 6, radius: 4, limit: 3"
    ctx = position(pos(s_unit("s1", "0403") + g_unit("g1", "0304") + g_unit("h1", "0303", hq)
                       + s_unit("s9", "0808") + g_unit("r1", "0503", rem)))
    assert zoc.zoc_answer(ctx, "0304", "german")["blocks_supply"] is False      # g1 there
    assert zoc.zoc_answer(ctx, "0303", "german")["blocks_command"] is True      # only an HQ
    assert zoc.zoc_answer(ctx, "0503", "german")["blocks_supply"] is True       # only a remnant
    assert zoc.zoc_answer(ctx, "0302", "german")["blocks_supply"] is False      # no EZOC


@pytest.mark.case("7.5A")
def test_7_5A_retreat_cannot_enter_an_ezoc_without_a_friendly_combat_unit(position):
    retreat = Action.make("retreat", "german", unit="g1", path=("0302", "0303"))
    alone = position(pos(s_unit("s1", "0403") + g_unit("g1", "0301")))
    assert [r.cases for r in zoc.casebook_validate_action(alone, retreat)] == [("7.5A", "7.5B")]
    held = position(pos(s_unit("s1", "0403") + g_unit("g1", "0301") + g_unit("g2", "0303")))
    assert zoc.casebook_validate_action(held, retreat) == []                       # g2 is there
    rem = "class: remnant, strength: 1, ma: 4"
    remnant = position(pos(s_unit("s1", "0403") + g_unit("g1", "0301") + g_unit("r2", "0303", rem)))
    assert zoc.casebook_validate_action(remnant, retreat)                          # not a remnant
    away = Action.make("retreat", "german", unit="g1", path=("0201", "0202"))
    assert zoc.casebook_validate_action(alone, away) == []                         # no EZOC


@pytest.mark.case("7.5B")
def test_7_5B_a_unit_hemmed_in_by_ezocs_cannot_retreat(position):
    # g1 at 0101 (corner): 0102 and 0201 are both in s1's ZOC (s1 at 0202).
    ctx = position(pos(s_unit("s1", "0202") + g_unit("g1", "0101") + g_unit("g2", "0808")))
    facts = zoc.casebook_facts(ctx, "g1")
    assert facts["zoc_retreat_blocked"]["value"] is True and facts["in_ezoc"]["value"] is False
    assert zoc.casebook_facts(ctx, "g2")["zoc_retreat_blocked"]["value"] is False
    freed = position(pos(s_unit("s1", "0202") + g_unit("g1", "0101") + g_unit("g3", "0102")))
    assert zoc.casebook_facts(freed, "g1")["zoc_retreat_blocked"]["value"] is False


# ---------------------------------------------------------------------------- ask --json
@pytest.mark.case("7.0A", "7.0B")
@pytest.mark.parametrize("args,options", [(["0304"], {}), (["0304"], {"for": "g2"}),
                                          (["0304", "soviet"], {})])
def test_ask_zoc_json(args, options, snapshot, position):
    """What `casebook ask docs/examples/zoc-basics.yaml zoc … --json` prints (same hook call as
    src/casebook/tools/cmd_ask.py, on the session's engine)."""
    ctx = position((ROOT / "docs/examples/zoc-basics.yaml").read_text())
    answer = ctx.hook.casebook_answer(ctx=ctx, question="zoc", args=args, options=options)
    assert json.loads(json.dumps(answer)) == snapshot


@pytest.mark.case("7.1B")
def test_7_1B_ask_zoc_names_the_forbid_line_that_keeps_a_zoc_out():
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    def ask(example: str) -> dict:
        out = CliRunner().invoke(cli, ["ask", str(ROOT / "docs" / "examples" / example), "zoc", "0103", "soviet", "--json"])
        assert out.exit_code == 0, out.output
        return json.loads(out.output)

    rules = (ROOT / "games" / "moscow41" / "rules" / "zoc.rules").read_text(encoding="utf-8").splitlines()
    forbid = next(i for i, line in enumerate(rules, 1) if line.startswith("forbid zoc_into_hex by 7.1B"))
    mud, dry = ask("zoc-mud.yaml"), ask("zoc-basics.yaml")   # g2, armor in 0203: in Mud its ZOC stops short of 0103
    assert mud["exerted_by"] == [] and dry["exerted_by"] == ["g2"]
    cited = {ln["source"]: ln["text"] for ln in mud["lines"]}
    assert cited[f"zoc.rules:{forbid}"] == rules[forbid - 1]
    assert "zoc.rules:20" in cited                                                  # the exert_zoc permit (7.1A)
    assert "7.1B" in mud["cases"] and "7.1B" not in dry["cases"]
    assert f"zoc.rules:{forbid}" not in [ln["source"] for ln in dry["lines"]]
