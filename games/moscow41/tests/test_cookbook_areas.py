"""The modder's cookbook, recipes 29-36 (docs/modding.md): stacking, reaction cost, a CRT cell, a
DRM for a terrain and weather, ZOC by ground, victory towns, an erratum, a new terrain type. Each is
applied to a copy of the Moscow '41 pack (tables, scripts, scenario, errata, map — no Python), and
the test checks the changed answer (`casebook ask … --pack COPY` where a question shows it, as a
player would see it) and the line it cites; every edit made here is text of docs/modding.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli
from games.moscow41.tests.test_cookbook import DOC, ROOT
from tests._pack_edits import copy_edited, edit, line_of

EXAMPLES = ROOT / "docs" / "examples"


def _in_doc(*texts: str) -> None:
    for text in texts:
        assert text.strip() in DOC, f"recipe text not in docs/modding.md: {text.strip()}"


def cook(tmp_path: Path, file: str, *edits: tuple[str, str]) -> Path:
    """A copy of the pack with each ``(old, new)`` made in ``file``; ``new`` must be in the doc."""
    _in_doc(*(new for _, new in edits))
    return copy_edited(tmp_path, file, *edits)


def ask(position: Path | str, *question: str, pack: Path | None = None) -> dict:
    """``casebook ask POSITION QUESTION … --json [--pack PACK]``'s answer."""
    args = ["ask", str(position), *question, "--json"] + (["--pack", str(pack)] if pack else [])
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def position(tmp_path: Path, example: str, old: str, new: str) -> Path:
    """docs/examples/``example`` with ``old`` replaced by ``new`` (once), written to tmp_path."""
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / example
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _sources(answer: dict) -> dict[str, str]:
    return {ln["source"]: ln["text"] for ln in answer["lines"]}


@pytest.mark.case("6.0A")
def test_recipe_29_a_german_hex_holds_five_stacking_points(tmp_path):
    pack = cook(tmp_path, "rules/stacking.rules", ("  4 by 6.0A  when side is german", "  5 by 6.0A  when side is german"))
    before = ask(EXAMPLES / "stacking-overstack.yaml", "stacking", "0303")
    after = ask(EXAMPLES / "stacking-overstack.yaml", "stacking", "0303", pack=pack)
    assert (before["limit"], before["overstacked"], before["must_leave"]) == (4, True, ["g-inf"])
    assert (after["limit"], after["overstacked"], after["must_leave"], after["points"]) == (5, False, [], 5)
    where = f"stacking.rules:{line_of(pack / 'rules' / 'stacking.rules', '5 by 6.0A  when side is german')}"
    assert where == "stacking.rules:15" and where in DOC
    assert _sources(after)[where] == "5 by 6.0A  when side is german"


@pytest.mark.case("2.4A")
def test_recipe_30_a_reaction_costs_two_ips_a_stack(tmp_path):
    from casebook.areas._combat_rules import reaction_cost
    from casebook.games.moscow41.plugins._movement_actions import react_cost
    from casebook.script.engine import Engine, load_engine
    from games.moscow41.tests.test_cookbook_language import POSITION
    from tests.conftest import make_ctx

    per = 'per: "stack, for a reaction move or a reaction attack, paid separately", provenance: '
    old = ('{action: "reaction", side: "both", ip: 1, ' + per
           + '"reconstructed: 2.4A gives no cost; taken as the 1 IP of 2.2B (interpretation reaction-cost)"}')
    new = '{action: "reaction", side: "both", ip: 2, ' + per + '"reconstructed: house rule, 2 IPs a reacting stack"}'
    pack = cook(tmp_path, "tables/ip_costs.yaml", (old, new))
    two_stacks = POSITION + '  - {id: s2, side: soviet, counter: s-5rd, hex: "0103"}\n'
    engine = Engine.load(pack)
    ctx, base = make_ctx(engine, two_stacks), make_ctx(load_engine("moscow41"), two_stacks)
    # the movement plugin's reaction move (one stack) and the combat area's reaction attack (two stacks)
    assert (react_cost(base, "soviet", ["s1"]), react_cost(ctx, "soviet", ["s1"])) == (1, 2)
    assert (reaction_cost(base, "soviet", ["s1", "s2"]), reaction_cost(ctx, "soviet", ["s1", "s2"])) == (2, 4)
    e = engine.rules.explain("ip_cost", {"ip_use": "reaction", "side": "soviet", "supplied": True},
                             engine.script_tables)
    reaction = 'table ip_costs[action: "reaction"].ip'
    where = f"initiative.rules:{line_of(pack / 'rules' / 'initiative.rules', reaction)}"
    assert e.value == 2 and where == "initiative.rules:48" and where in DOC
    assert where in [ln.source.rsplit("/", 1)[-1] for ln in e.lines if ln.fired]
    # the recipe's command: the Soviet s1's reaction attack on 0303 with one IP
    _in_doc("`step: reaction_attacks` and `ip: {german: 10, soviet: 1}`", "`legal: no`", "`legal: yes`",
            "`casebook ask POSITION attack 0303 --with s1 --pack", "`soviet has 1 IPs, the attack needs 2`",
            "citing `2.4A, 0.7.3.5A`")
    react = position(tmp_path, "attack.yaml", "step: combat\nphasing: german\nfirst_player: german\n"
                     "ip: {german: 10, soviet: 6}", "step: reaction_attacks\nphasing: german\nfirst_player: german\n"
                     "ip: {german: 10, soviet: 1}")
    runs = [CliRunner().invoke(cli, ["ask", str(react), "attack", "0303", "--with", "s1", *more])
            for more in ([], ["--pack", str(pack)])]
    assert [r.exit_code for r in runs] == [0, 0], [r.output for r in runs]
    printed, mine = (r.output.splitlines() for r in runs)
    assert "kind: reaction" in printed and "legal: yes" in printed
    assert "legal: no" in mine
    # the refusal cites the reaction's cost (2.4A, the rule the recipe changes) and its step (0.7.3.5A), not 2.3A
    refusal = [ln.split() for ln in mine if ln.strip().startswith("soviet has 1 IPs, the attack needs 2")]
    assert [" ".join(r[-2:]) for r in refusal] == ["2.4A, 0.7.3.5A"]  # a cell's list: ", " (#15 item 6g)


@pytest.mark.case("10.0D", "11.0B")
def test_recipe_31_a_crt_cell_1_1_roll_8_only_retreats(tmp_path):
    row = '  "1:1": {-2: "2/-", -1: "2/-", 0: "F1/-", 1: "F1/-", 2: "F1/-", 3: "1/F", 4: "1/F", 5: "1/1", 6: "F/1", 7: "F/R", 8: "F/R", '
    _in_doc('8: "-/R"')
    pack = copy_edited(tmp_path, "tables/crt.yaml", (row, row.replace('8: "F/R"', '8: "-/R"')))
    column = '"1:1":'
    where = f"tables/crt.yaml:{line_of(pack / 'tables' / 'crt.yaml', column)}"
    assert where == "tables/crt.yaml:18" and where in DOC
    q = ("attack", "0304", "--with", "g1,g2", "--roll", "7")
    before, after = ask(EXAMPLES / "attack.yaml", *q), ask(EXAMPLES / "attack.yaml", *q, pack=pack)
    for a in (before, after):
        assert (a["column"], a["drm"]["net"], a["result"]["modified_roll"]) == ("1:1", 1, 8)
    assert (before["result"]["result"], after["result"]["result"]) == ("F/R", "-/R")
    outcome = {o["roll"]: o["result"] for o in after["outcomes"]}
    assert outcome[7] == "-/R" and outcome[6] == "F/R"      # only the cell of modified roll 8 changed
    assert "10.0D" in after["cases"]
    # the answer cites the row it read, as the recipe says (it said ask cites no table line)
    _in_doc("under `lines:`, the row of the table it read: `tables/crt.yaml:18  10.4.5C, 11.0B")
    [cited] = [ln for ln in after["lines"] if ln["source"] == "tables/crt.yaml:18"]
    assert cited["cases"] == ["10.4.5C", "11.0B"] and '8: "-/R"' in cited["text"]


@pytest.mark.case("10.4B", "4.3H")
def test_recipe_32_a_drm_for_forest_in_mud(tmp_path):
    anchor = "  table combat_modifiers[id: defender_terrain_row].drm  by 10.4B  when defender_terrain_drm != 0\n"
    new = ("  -1 by 10.4B, 4.3H  when defender_terrain is forest and defender_town is none"
           " and ground in [mud, drying]")
    _in_doc(anchor, new)
    pack = copy_edited(tmp_path, "rules/combat.rules", (anchor, anchor + new + "\n"))
    where = f"combat.rules:{line_of(pack / 'rules' / 'combat.rules', new.strip())}"
    assert where == "combat.rules:16" and where in DOC
    q = ("attack", "0304", "--with", "g1,g2")
    mud = position(tmp_path, "attack.yaml", "weather: {temperature: cold, ground: dry}",
                   "weather: {temperature: warm, ground: mud}")
    before, after = ask(mud, *q), ask(mud, *q, pack=pack)
    terms = [(t["case"], t["value"], t["source"]) for t in after["drm"]["terms"]]
    assert ("10.4B, 4.3H", -1, where) in terms and ("10.4B", -1, "combat.rules:15") in terms    # the new one, forest's
    assert after["drm"]["raw"] == before["drm"]["raw"] - 1 == -2                          # -2 mud -1 forest +2 armor -1
    assert _sources(after)[where] == new.strip()
    # a swamp: the same -1 on the Combat Modifiers Chart (10.4B), but not forest: as printed
    (tmp_path / "swamp").mkdir()
    swamp = position(tmp_path / "swamp", "attack.yaml", '"0304": forest', '"0304": swamp')
    swamp.write_text(swamp.read_text(encoding="utf-8").replace("ground: dry", "ground: mud"), encoding="utf-8")
    in_swamp, printed = ask(swamp, *q, pack=pack), ask(swamp, *q)
    assert ("10.4B", -1, "combat.rules:15") in [(t["case"], t["value"], t["source"]) for t in in_swamp["drm"]["terms"]]
    assert where not in [t["source"] for t in in_swamp["drm"]["terms"]]
    assert in_swamp["drm"]["raw"] == printed["drm"]["raw"] == before["drm"]["raw"] == -1
    dry = ask(EXAMPLES / "attack.yaml", *q, pack=pack)                                   # a Dry turn: as printed
    assert where not in [t["source"] for t in dry["drm"]["terms"]]
    assert dry["drm"]["raw"] == ask(EXAMPLES / "attack.yaml", *q)["drm"]["raw"]


@pytest.mark.case("7.1B")
def test_recipe_33_no_zoc_into_open_ground_in_mud(tmp_path):
    from casebook.script import compile_pack, find_rule_pack

    forbid = "forbid zoc_into_hex by 7.1B, 3.1B  when ground in [mud, drying] and not road_or_town_hex"
    permit = "permit zoc_into_hex by 7.0A, 7.0D  when ground not in [mud, drying] or road_or_town_hex"
    pack = cook(tmp_path, "rules/zoc.rules",
                (forbid.replace("and not", "and unit_class in [armor, mechanized] and not"), forbid),
                (permit.replace("] or road", "] or unit_class not in [armor, mechanized] or road"), permit))
    mud = position(tmp_path, "zoc-basics.yaml", "ground: dry", "ground: mud")
    before, after = ask(mud, "zoc", "0303"), ask(mud, "zoc", "0303", pack=pack)
    assert (before["exerted_by"], before["kind"]) == (["s1"], "locking")
    assert (after["exerted_by"], after["kind"]) == ([], "none")
    assert ask(EXAMPLES / "zoc-basics.yaml", "zoc", "0303", pack=pack)["exerted_by"] == ["s1"]   # Dry: as printed
    where = f"zoc.rules:{line_of(pack / 'rules' / 'zoc.rules', forbid)}"
    assert where == "zoc.rules:12" and where in DOC
    assert _sources(after)[where] == forbid and where not in _sources(before)      # ask zoc names the stopping line
    rules = compile_pack(find_rule_pack(pack))
    v = rules.permission("zoc_into_hex", {"unit_class": "infantry", "road_or_town_hex": False},
                         standard={"ground": "mud"})
    assert not v.value and v.cases == ("7.1B", "3.1B")
    assert [ln.source.rsplit("/", 1)[-1] for ln in v.lines if ln.fired] == [where]
    assert rules.allowed("zoc_into_hex", {"unit_class": "infantry", "road_or_town_hex": True}, standard={"ground": "mud"})


@pytest.mark.case("18.1.3A")
def test_recipe_34_the_october_blitz_is_won_with_two_towns(tmp_path):
    from casebook.core.trace import Trace
    from casebook.games.moscow41.plugins import victory
    from casebook.script.engine import Engine, load_engine, state_from_position

    _in_doc("at_least: 2")
    pack = copy_edited(tmp_path, "scenarios/october-blitz.yaml", ('"Kaluga"], at_least: 3}', '"Kaluga"], at_least: 2}'))
    where = f"scenarios/october-blitz.yaml:{line_of(pack / 'scenarios' / 'october-blitz.yaml', 'at_least: 2')}"
    assert where == "scenarios/october-blitz.yaml:15" and where in DOC

    def result(engine):
        state = state_from_position(engine.pack.scenario("october-blitz"))
        state.set_turn(4)
        ctx = engine.ctx(state, Trace())
        for h in ("3733", "2733"):                                  # Kalinin, Volokolamsk
            ctx.state.set_control(h, "german")
        victory.casebook_turn_end(ctx, 4)
        return victory.casebook_game_result(ctx)

    after, before = result(Engine.load(pack)), result(load_engine("moscow41"))
    assert (after["winner"], after["cases"], after["condition"]) == ("german", ["18.1.3A"], "three-towns")
    assert after["reason"] == "german controls 2 of 3733, 2733, 2032, 1435, 0833: 3733, 2733"
    assert (before["winner"], before["cases"]) == ("soviet", ["18.1.3C"])
    # the recipe's command: `ask … vp` lists what each condition needs
    line = "three-towns   18.1.3A  end      at least {} of 3733, 2733, 2032, 1435, 0833"
    _in_doc("`casebook ask\n~/packs/moscow41/scenarios/october-blitz.yaml vp --pack ~/packs/moscow41`",
            f"`{line.format(2)}`", "(in print `at least 3 of …`)")
    runs = [CliRunner().invoke(cli, ["ask", str(p / "scenarios" / "october-blitz.yaml"), "vp", "--pack", str(p)])
            for p in (ROOT / "games" / "moscow41", pack)]
    assert [r.exit_code for r in runs] == [0, 0], [r.output for r in runs]
    assert [[ln.strip() for ln in r.output.splitlines() if ln.strip().startswith("three-towns")] for r in runs] == [
        [line.format(3)], [line.format(2)]]
    # and the condition's line as the copy has it (session 16: ask vp cites the scenario's lines)
    assert [[ln.strip().endswith(f"at_least: {n}}}") for ln in r.output.splitlines()
             if ln.strip().startswith(where)] for r, n in zip(runs, (3, 2))] == [[True], [True]]


ERRATUM = """kind: errata
format: 1
provenance: "errata: 0.2.3.3B"
patches:
  - {case: "0.2.3.3B", file: tables/reinforcements.yaml, path: [rows, {unit: s-312rd}, turn], set: 4}
"""


@pytest.mark.case("0.2.3.3B")
def test_recipe_35_record_an_erratum(tmp_path):
    from casebook.core.errors import ContentError
    from casebook.script.engine import Engine

    _in_doc(*ERRATUM.splitlines(), "  - errata/312rd.yaml")
    where = "tables/reinforcements.yaml:102"
    printed = line_of(ROOT / "games" / "moscow41" / "tables" / "reinforcements.yaml", 'unit: "s-312rd"')
    assert f"tables/reinforcements.yaml:{printed}" == where and where in DOC

    def turn(pack: Path) -> int:
        [row] = [r for r in Engine.load(pack).pack.records["reinforcements"] if r.get("unit") == "s-312rd"]
        return int(row["turn"])

    without = copy_edited(tmp_path / "without", "game.yaml", ("  - errata/0.2.3.3.yaml\n", ""))
    assert turn(without) == 27                                   # as printed on the track
    mine = copy_edited(tmp_path / "mine", "game.yaml", ("  - errata/0.2.3.3.yaml\n", "  - errata/312rd.yaml\n"))
    (mine / "errata" / "312rd.yaml").write_text(ERRATUM, encoding="utf-8")
    assert turn(mine) == 4

    def errata_values(pack: Path) -> int:  # `casebook provenance`'s errata column of the schedule
        prov = CliRunner().invoke(cli, ["provenance", str(pack)])
        assert prov.exit_code == 0, prov.output
        [line] = [ln for ln in prov.output.splitlines() if ln.startswith("tables/reinforcements.yaml")]
        return int(line.split()[3])

    assert errata_values(mine) == errata_values(without) + 1     # the 312 RD's turn (0.2.3.2's rows besides)
    edit(mine / "errata" / "312rd.yaml", "{unit: s-312rd}", "{unit: s-312r}")
    out = CliRunner().invoke(cli, ["lint", str(mine)])
    assert out.exit_code == 1 and "312rd.yaml:5:" in out.output, out.output
    # one line: the selector as written and the closest units (it printed {'unit': 's-312r'})
    said = "selector {unit: s-312r} matches no item; did you mean unit: s-312rd"
    [problem] = [ln for ln in out.output.splitlines() if "312rd.yaml:5:" in ln]
    assert said in problem and "'" not in problem and said in DOC
    with pytest.raises(ContentError):  # nothing is loaded
        Engine.load(mine)


@pytest.mark.case("9.2A", "16.2")
def test_recipe_36_a_new_terrain_type_hills(tmp_path):
    from casebook.script.engine import Engine
    from games.moscow41.tests.test_cookbook_language import POSITION
    from tests.conftest import make_ctx

    dim = '  - {name: "terrain", values: ["clear", "forest", "swamp", "town", "city", "road", "trail"]}'
    enum = "      terrain: {type: enum, values: [clear, forest, swamp, hills]}"
    block = ('  "hills":\n    "infantry": {dry: 2, frozen: 2, mud: 2, snow: 3}\n', [
        '    "cavalry": {dry: 2, frozen: 2, mud: 2, snow: 3}\n', '    "armor": {dry: 3, frozen: 3, mud: 3, snow: 4}\n',
        '    "mechanized": {dry: 3, frozen: 3, mud: 3, snow: 4}\n', '    "hq": {dry: 2, frozen: 2, mud: 2, snow: 3}\n',
        '    "remnant": {dry: 2, frozen: 2, mud: 2, snow: 3}\n', '    "ski": {dry: 2, frozen: 2, mud: 2, snow: 2}\n',
        '    "paratroop": {dry: 2, frozen: 2, mud: 2, snow: 3}\n'])
    _in_doc('"hills":', block[0].splitlines()[1], enum, "'0116': hills")
    pack = copy_edited(tmp_path, "map.yaml", ("'0116': forest", "'0116': hills"))
    # 1. the map alone: lint names the TEC and the facts.yaml enum, at the map's line
    errors = CliRunner().invoke(cli, ["lint", str(pack)])
    facts = pack / "rules" / "facts.yaml"
    at = f"{line_of(facts, 'terrain: {type: enum, values: [clear, forest, swamp]}')}:29"
    assert errors.exit_code == 1 and "map.yaml:12:3: terrain.0116: terrain 'hills' is not a row of table 'tec'" in errors.output
    assert (f"map.yaml:12:3: terrain.0116: terrain 'hills' is not a value of the fact map_hexes.terrain "
            f"(clear, forest, swamp) at {facts}:{at}: add it there") in errors.output
    assert f"rules/facts.yaml:{at}: add it there" in DOC  # the doc quotes the line as it is
    # 2. the TEC's row: only the enum is left
    edit(pack / "tables" / "tec.yaml", dim, dim.replace('"trail"]', '"trail", "hills"]'))
    tec = pack / "tables" / "tec.yaml"
    tec.write_text(tec.read_text(encoding="utf-8").rstrip("\n") + "\n" + block[0] + "".join(block[1]), encoding="utf-8")
    errors = CliRunner().invoke(cli, ["lint", str(pack)])
    assert errors.exit_code == 1 and "not a row of table" not in errors.output
    assert "not a value of the fact map_hexes.terrain" in errors.output
    # ... and a line naming hills is refused by `rules check` at its column
    line = "forbid place_partisan  by 16.2  when terrain(hex) is hills"
    _in_doc(line)
    partisans = pack / "rules" / "partisans.rules"
    partisans.write_text(partisans.read_text(encoding="utf-8").rstrip("\n") + "\n" + line + "\n", encoding="utf-8")
    check = CliRunner().invoke(cli, ["rules", "check", str(pack)])
    assert check.exit_code == 1 and (
        "partisans.rules:38:54: place_partisan: unknown value `hills`: expected one of clear, forest, swamp") in check.output
    # 3. the enums: with map_hexes' alone, lint names defender_terrain's (they must agree); with
    # both, lint passes, the line compiles, a move into hills costs the TEC's 2 MPs
    edit(facts, "      terrain: {type: enum, values: [clear, forest, swamp]}", enum)
    errors = CliRunner().invoke(cli, ["lint", str(pack)])
    assert errors.exit_code == 1 and "facts.defender_terrain.values: lacks 'hills'" in errors.output
    defender = "  defender_terrain: {type: enum, values: [clear, forest, swamp, hills],"
    _in_doc(defender)
    edit(facts, defender.replace(", hills]", "]"), defender)
    ok = CliRunner().invoke(cli, ["lint", str(pack)])
    assert ok.exit_code == 0, ok.output
    hills = position(tmp_path, "reach-move.yaml", '"0303": forest', '"0303": hills')
    move = ask(hills, "move", "0202", "0303", pack=pack)
    assert (move["legal"], move["mp_spent"], move["mp_left"]) == (True, 2, 2)
    assert "movement.rules:19" in _sources(move) and "movement.rules:19" in DOC
    where = f"partisans.rules:{line_of(partisans, line)}"
    assert where == "partisans.rules:38" and where in DOC
    ctx = make_ctx(Engine.load(pack), POSITION.replace("terrain: {default: clear}", 'terrain: {default: clear, "0511": hills}'))
    facts_of = {"side": "soviet", "partisan_points": 1, "partisan_markers": 0}
    v = ctx.permission("place_partisan", {**facts_of, "hex": "0511"})
    assert not v.value and where in [ln.source.rsplit("/", 1)[-1] for ln in v.lines if ln.fired]
    assert ctx.allowed("place_partisan", {**facts_of, "hex": "0512"})      # clear, farther from g1 (0505)


def test_the_recipe_index_lists_every_recipe_once_by_area():
    import re

    headings = [int(n) for n in re.findall(r"^## (\d+)\. ", DOC, flags=re.M)]
    assert headings == list(range(1, 38))
    rows = re.findall(r"^\| (?!Area|---)(.+?) \| (.+?) \|$", DOC, flags=re.M)
    listed = [int(n) for _, numbers in rows for n in re.findall(r"\d+", re.sub(r"\(.*?\)", "", numbers))]
    listed += [int(n) for _, numbers in rows for n in re.findall(r"Battle for Moscow: (\d+)", numbers)]
    assert sorted(set(listed)) == headings                     # every recipe has an area
    assert {"Stacking (6.0)", "Errata (0.2.3)", "Victory: the towns of a scenario (18.1.3A)"} <= {a for a, _ in rows}
