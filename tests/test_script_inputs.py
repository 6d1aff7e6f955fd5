"""Standard facts and declared inputs (issue #15): the engine gives every evaluation the turn, the
weather, the phasing side, the scenario and the settings; `facts.yaml` declares each fact's
provider and what the callers of each quantity or permission give; `rules check` refuses a line
that reads a fact its callers never give, and games give only what is declared."""

from __future__ import annotations

import json
from collections import OrderedDict, defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from casebook.core.errors import ContentError, ScriptSyntaxError
from casebook.script import compile_scripts, facts_from_mapping, load_facts
from casebook.script.ruleset import RuleSet
from casebook.script.standard import StandardFacts
from tests.conftest import make_ctx

ROOT = Path(__file__).resolve().parent.parent
M41 = ROOT / "games" / "moscow41" / "rules"
SUPPLY_BY_GROUND = """
quantity supply_path_mp = first by 5.2B, 5.2C
  otherwise 8  by 5.2B, 5.2C
  4            by 5.2B        when ground in [mud, drying]
"""


def m41_sources(**replaced: str) -> list[tuple[str, str]]:
    """The Moscow '41 scripts as (file, text), with some files' text replaced."""
    return [(f"games/moscow41/rules/{p.name}", replaced.get(p.stem, p.read_text(encoding="utf-8")))
            for p in sorted(M41.glob("*.rules"))]


def m41_rules(**replaced: str) -> RuleSet:
    return compile_scripts(m41_sources(**replaced), load_facts(M41 / "facts.yaml", "games/moscow41/rules/facts.yaml"))


def position(ground: str, phasing: str = "german") -> str:
    return json.dumps({
        "kind": "position", "format": 1, "game": "moscow41", "turn": 3,
        "map": {"layout": "flat-top-even-q", "size": {"columns": 4, "rows": 1}, "terrain": {"default": "clear"},
                "hexsides": [], "towns": {}, "entry_areas": {}},
        "weather": {"temperature": "cold", "ground": ground},
        "phase": "first_player", "step": "movement", "phasing": phasing, "first_player": phasing,
        "ip": {"german": 10, "soviet": 10}, "units": [], "control": {}, "plugin_state": {}}, indent=1)


@pytest.mark.case("5.2B")
def test_5_2B_a_supply_length_by_ground_works_from_script(m41):
    """supply_path_mp's caller (games/moscow41/plugins/supply.py) gives no facts at all; `ground` is standard,
    so a line shortening supply paths in Mud compiles and reads the state's weather."""
    rules = m41_rules(supply=SUPPLY_BY_GROUND)
    engine = replace(m41, rules=rules, _boards={}, _memos=OrderedDict(), _lasting=OrderedDict(),
                     _recent=[None, None], _settings={})
    assert make_ctx(engine, position("mud")).value("supply_path_mp", {}) == 4
    assert make_ctx(engine, position("dry")).value("supply_path_mp", {}) == 8
    explained = make_ctx(engine, position("drying")).quantity("supply_path_mp", {})
    # the Mud line decided (5.2B); the `otherwise` (5.2B, 5.2C) is not named, nor its 5.2C cited
    assert explained.value == 4 and explained.cases == ("5.2B",)
    assert [ln.source.rsplit(":", 1)[-1] for ln in explained.deciding()] == ["4"]


def test_5_2B_a_line_reading_a_fact_its_callers_never_give_is_refused():
    """The issue's failure: `rules check` passed, then every supply question failed at run time."""
    with pytest.raises(ScriptSyntaxError) as exc:
        m41_rules(supply=SUPPLY_BY_GROUND + "  6            by 5.2C        when side is soviet\n")
    [problem] = exc.value.problems
    assert (problem.file, problem.line, problem.column) == ("games/moscow41/rules/supply.rules", 5, 36)
    assert problem.message.startswith("`side` is never given to quantity `supply_path_mp`: its callers give "
                                      "no facts and the standard facts")
    assert problem.context.splitlines()[1] == " " * 39 + "^^^^"


def test_a_quantity_used_by_another_is_held_to_its_users_inputs():
    schema = facts_from_mapping({"kind": "facts", "facts": {
        "n": {"type": "int"}, "m": {"type": "int"}, "turn": {"type": "int", "provider": "engine"}},
        "inputs": {"outer": ["n"], "inner": ["n", "m"]}}, "f.yaml")
    with pytest.raises(ScriptSyntaxError, match=r"t.rules:4:3: inner: `m` is never given to quantity `outer` "
                                                r"\(through quantity `inner`\): its callers give n"):
        compile_scripts([("t.rules", "quantity outer = sum by 1.1\n  inner by 1.1\nquantity inner = sum by 1.2\n"
                                     "  m + turn by 1.2\n")], schema)
    ok = compile_scripts([("t.rules", "quantity outer = sum by 1.1\n  n + turn by 1.1\n")], schema)
    assert ok.value("outer", {"n": 2}, standard={"turn": 5}) == 7


def test_facts_yaml_inputs_and_providers_are_checked():
    with pytest.raises(ContentError) as exc:
        facts_from_mapping({"kind": "facts", "facts": {
            "ground": {"type": "enum", "values": ["dry"], "provider": "engine"},
            "weird": {"type": "int", "provider": "engine"}},
            "inputs": {"ma": ["grond"]}}, "f.yaml")
    messages = [p.message for p in exc.value.problems]
    assert messages[0].startswith("the engine gives no fact `weird` (it gives: turn, temperature, ground,")
    assert messages[1] == "unknown fact `grond`; did you mean `ground`?"


def test_standard_facts_read_the_live_state_and_the_register_defaults():
    class State:
        turn, weather, phasing, first_player, scenario = 7, {"temperature": "cold", "ground": "mud"}, "soviet", \
            "german", {"id": "campaign"}
        settings = {"road_bridges": "river_added"}

        def setting(self, name, default=None):
            return self.settings.get(name, default)

    std = StandardFacts(State(), {"road_bridges": "bridged", "mud_zoc_roads": "road_in_hex"})
    assert (std["turn"], std["ground"], std["phasing_side"], std["scenario_id"]) == (7, "mud", "soviet", "campaign")
    assert std["road_bridges"] == "river_added" and std["mud_zoc_roads"] == "road_in_hex"
    assert "hq_movement_class" not in std and "turn" in std


def test_moscow41_and_bfm_declare_the_inputs_of_every_evaluated_quantity_and_permission():
    from casebook.script import compile_pack, find_rule_pack

    for game in ("moscow41", "battle_for_moscow"):
        rules = compile_pack(find_rule_pack(game))
        undeclared = [w for w in rules.warnings if "are not declared" in w.message]
        # receive_ip / receive_rp (5.7A, 5.7E): declared too (their callers: the supply and command tests)
        assert [w.key for w in undeclared] == []


def test_games_give_every_quantity_only_its_declared_inputs(monkeypatch):
    """Every call a played game makes gives only facts the declaration lists for it (or standard
    ones, or facts the game does not declare at all): the declaration `rules check` trusts is true."""
    from casebook.tools.batch import GameSpec, play_one

    given: dict[tuple[str, str], set[str]] = defaultdict(set)
    for meth in ("value", "explain", "allowed", "permission"):
        orig = getattr(RuleSet, meth)

        def record(self, name, facts, *a, _orig=orig, **k):
            if name in self.quantities or name in self.permissions:  # no lines: nothing reads the facts
                given[self.schema.file, name].update(facts)
            return _orig(self, name, facts, *a, **k)
        monkeypatch.setattr(RuleSet, meth, record)
    bots = (("german", "greedy"), ("soviet", "greedy"))
    play_one(GameSpec("battle_for_moscow", "campaign", 1, bots, vps=False))
    play_one(GameSpec("moscow41", "october-blitz", 1, bots, max_turns=1, vps=False))
    bfm = ROOT / "games/battle_for_moscow/rules/facts.yaml"
    schemas = {str(M41 / "facts.yaml"): load_facts(M41 / "facts.yaml"), str(bfm): load_facts(bfm)}
    assert {Path(f).parent.parent.name for f, _ in given} == {"moscow41", "battle_for_moscow"}  # games/<game>/rules
    for (file, name), keys in given.items():
        schema = schemas[str(Path(file).resolve())]
        declared = {k for k in keys if k in schema.facts and not schema.facts[k].standard}
        extra = declared - set(schema.inputs.get(name, ()))
        assert not extra, f"{file}: {name} is given {sorted(extra)}, not in its inputs"
