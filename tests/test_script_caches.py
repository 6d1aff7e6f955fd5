"""The caches the rule-script runtime keeps for speed (issue #14: the greedy Blitz game loop within
10% of session 6's), each against the answer computed without it:

- ``terrain(h)`` / ``town(h)`` / ``town_name(h)`` read a per-board cache (``spatial.hex_facts``):
  for every hex of the Moscow '41 map, the map's own answer (``Board.hex``);
- the standard collections' records (``map_units``, ``map_hexes``) are shared by every context of
  the engine, per state version: equal to the records of a context with a cache of its own, also
  after a change (the 18.1.3D Smolensk line reads them after every action);
- ``Ctx.allowed`` in a context that collects lines skips the explanation only when no line of the
  permission fires (then it would name none): the verdicts and the collected lines equal those of
  the explanation asked every time, for every permission of the pack;
- a context that collects lines keeps its own memo per state version (a new one after a change);
- the ``breakdown`` refusals (13.0A/B/D) kept per state version by the unit's facts equal the
  refusals asked every time, for every unit and side, before and after a change.
"""

from __future__ import annotations

import pytest

from casebook.core.hexgrid import hex_label
from casebook.script import compile_pack, compile_scripts, find_rule_pack
from casebook.script.spatial import hex_facts
from casebook.script.standard import KEPT, StandardFacts
from casebook.tools.bots import make_bot
from tests.conftest import played_blitz

M41 = compile_pack(find_rule_pack("moscow41"))


def test_18_1_3D_town_name_terrain_and_town_read_through_the_cache_give_the_maps_answers():
    state = played_blitz(0)
    ctx = state.ctx()
    board = ctx.board
    rules = compile_scripts([("t.rules", "quantity t = sum by 1.1\n  1 by 1.1 when town_name(hex) is \"Smolensk\"\n"
                                         "  10 by 1.1 when terrain(hex) is forest\n"
                                         "  100 by 1.1 when town(hex) is city\n")], M41.schema)
    smolensk = 0
    for h in board.hexes():
        label = hex_label(h)
        info = board.hex(h)
        want = (info.terrain, str(info.town.get("name", "")) if info.town else "",
                info.town.get("kind", "town") if info.town else "none")
        expected = (want[1] == "Smolensk") + 10 * (want[0] == "forest") + 100 * (want[2] == "city")
        for _ in range(2):  # the first reading fills the cache, the second reads it
            assert rules.value("t", {"hex": label}, ctx.engine.script_tables, ctx.standard) == expected, label
        assert hex_facts(board)[label] == want  # what the cache now holds is the map's answer
        smolensk += want[1] == "Smolensk"
    assert smolensk >= 1  # 18.1.3D's town is on the map


def test_18_1_3D_the_shared_records_equal_a_contexts_own_records_before_and_after_a_change():
    state = played_blitz(3)
    engine = state.game.engine
    fields = (("id", ""), ("side", "none"), ("class", "none"), ("size", "none"), ("hex", ""), ("oos", False))

    def own(data):
        return StandardFacts(data, engine.setting_defaults, engine.board_for(data), engine.derived_facts).records(
            "map_units", fields)

    shared = state.ctx().standard.records("map_units", fields)
    assert shared == own(state.data)
    assert state.ctx().standard.records("map_units", fields) is shared  # another context: the same list
    state.apply(make_bot("greedy", state.current_player(), 1).choose(state))
    after = state.ctx().standard.records("map_units", fields)
    assert after == own(state.data)
    assert len(engine._std_cache) <= KEPT


def test_18_1_3D_every_writer_of_the_shared_cache_keeps_it_within_its_bound():
    """The engine's shared cache holds at most ``KEPT`` entries whoever writes it: the records of
    the standard collections and the hexes ``distance to nearest`` matches (spatial), asked over
    more than ``KEPT`` state versions of real play (before: one nearest entry per question and
    version, never dropped — 9 > 8 after other tests had asked partisan and paratroop lines).
    The nearest answers equal those of a context without the shared cache."""
    state = played_blitz(0)
    engine = state.game.engine
    rules = compile_scripts([("t.rules", "quantity t = first by 16.2\n"
                                         "  otherwise distance to nearest(map_units having enemy from hex)  by 16.2\n")],
                            M41.schema)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    for _ in range(2 * KEPT):
        std = state.ctx().standard
        own = StandardFacts(state.data, engine.setting_defaults, engine.board_for(state.data), engine.derived_facts)
        for hex_, side in (("0303", "german"), ("1010", "soviet"), ("2020", "german")):
            facts = {"hex": hex_, "side": side}
            assert rules.value("t", facts, engine.script_tables, std) == rules.value("t", facts, engine.script_tables, own)
        assert len(engine._std_cache) <= KEPT
        state.apply(bots[state.current_player()].choose(state))


def test_a_context_collecting_lines_gives_the_explained_verdicts_and_lines_when_it_skips_the_explanation():
    state = played_blitz(40)  # into the first German Movement Step: stacks, supply and ZOC asked
    engine = state.game.engine
    asked = list(M41.permissions)
    facts_list = [{"side": s, "unit_class": c, "unit_size": z}
                  for s in ("german", "soviet") for c in ("infantry", "armor", "hq") for z in ("division", "regiment")]
    compared = shortcut = 0
    for action in asked:
        for facts in facts_list:
            fast = engine.ctx(state.data, event_lines=True)
            slow = engine.ctx(state.data, event_lines=True)
            try:
                got = fast.allowed(action, dict(facts))
            except Exception as exc:  # a fact this permission reads is not given: both refuse alike
                with pytest.raises(type(exc)):
                    slow.permission(action, dict(facts))
                continue
            verdict = slow.permission(action, dict(facts))
            assert got == bool(verdict.value), (action, facts)
            assert list(fast.event_lines) == list(slow.event_lines), (action, facts)
            compared += 1
            shortcut += engine.rules.permission_unless_clear(action, dict(facts), engine.script_tables,
                                                             fast.standard) is None
    assert compared and shortcut  # verdicts compared, some of them without an explanation


def test_a_context_collecting_lines_keeps_its_own_memo_per_state_version():
    state = played_blitz(3)
    ctx = state.game.engine.ctx(state.data, event_lines=True)
    memo = ctx.memo
    memo["probe"] = 1
    assert ctx.memo is memo
    assert "probe" not in state.game.engine.ctx(state.data).memo  # never the engine's shared memo
    ctx.changed()
    assert ctx.memo is not memo and "probe" not in ctx.memo


def test_an_off_map_hex_is_refused_by_a_hex_term_every_time_and_never_cached():
    from casebook.script.values import MissingFactError

    ctx = played_blitz(0).ctx()
    rules = compile_scripts([("t.rules", "quantity t = sum by 1.1\n  1 by 1.1 when terrain(hex) is forest\n")],
                            M41.schema)
    for _ in range(2):
        with pytest.raises(MissingFactError, match="not on the map"):
            rules.value("t", {"hex": "9999"}, ctx.engine.script_tables, ctx.standard)
    assert "9999" not in hex_facts(ctx.board)


def test_a_played_prefix_records_the_same_trace_with_every_cache_switched_off(monkeypatch):
    from casebook.script import ruleset, spatial, standard

    def trace_of(actions: int) -> str:
        return played_blitz(actions).trace.dumps()

    cached = trace_of(60)
    init = standard.StandardFacts.__init__

    def own_cache(self, *args, **kwargs):
        kwargs.pop("cache", None)
        init(self, *args[:4], **kwargs)
        self.hexes = None  # no board cache held: hex_facts (below) is asked each time

    monkeypatch.setattr(ruleset.RuleSet, "permission_unless_clear", ruleset.RuleSet.permission)  # explain every time
    monkeypatch.setattr(spatial, "hex_facts", lambda board: {})                 # read the map every time
    monkeypatch.setattr(standard.StandardFacts, "__init__", own_cache)         # a records cache per context
    assert trace_of(60) == cached


@pytest.mark.parametrize("points", [0, 1, 3])
def test_16_1C_a_cost_read_once_for_every_hex_lists_what_reading_it_for_each_hex_lists(points, monkeypatch):
    from casebook.script import declared
    from tests.test_declared_actions import _ctx

    def listing():
        ctx = _ctx(points=points)
        with ctx.engine.recording_lines() as lines:
            actions = declared.casebook_legal_actions(ctx, "second_initiative", "replacement_reinforcement")
        return [str(a) for a in actions], lines

    cached, cached_lines = listing()
    short = declared._short
    seen = []

    def every_time(ctx, offer, facts, same=None):  # the amount read for each hex
        seen.append(facts["hex"])
        return short(ctx, offer, facts)

    monkeypatch.setattr(declared, "_short", every_time)
    assert listing() == (cached, cached_lines)
    assert len(seen) > 100 and (points == 0 or cached)  # every hex asked; with points, some offered
    assert any(ln["source"].startswith("partisans.rules") for ln in cached_lines)


# Session 9 (#14 item 7, #15 figure 3): the value path's shortcuts, each against the explained answer.
_SHAPES = """quantity q_sum = sum by 10.4.5B
  start attacker_support_ips by 10.4.2A
  -2 by 4.3H  when ground in [mud, drying]
  most severe by 4.6A
    -1 by 4.4F  when ground is snow
    -4 by 4.6A  when temperature is arctic
    -4 by 4.6A  when temperature is arctic and attacker_side is german
  end
  attacker_support_ips / table ip_costs[action: "combat_support", side: "german"].ip rounded down  by 10.4.2A
  round down by 10.4.5B
  clamp -4 to +4 by 10.4.5C
quantity q_first = first by 10.4.5B
  otherwise 7 by 10.4.5C
  3 by 4.3H  when ground is mud
  -1 by 4.4F  when ground is snow
  -2 by 4.5H  when temperature is arctic
  5 by 10.4.2A  when attacker_support_ips > 2
quantity q_product = product by 1.3B
  start attacker_support_ips by 1.3B
  × ½  by 4.3B  when ground in [mud, drying]
  × ⅔  by 4.3C  when attacker_side is soviet
  round nearest by 1.3B
  at least 1 by 4.3D  when ground is mud
  at most 3 by 4.3D
quantity q_max = max by 1.3B
  otherwise 1 by 1.3B
  attacker_support_ips by 1.3B  when attacker_side is german
  attacker_support_ips / 3 by 1.3B
"""


def _shape_facts():
    for ground in ("dry", "mud", "snow", "drying"):
        for temperature in ("normal", "arctic"):
            for side in ("german", "soviet"):
                for ips in (0, 1, 3, 7, 12):
                    yield {"ground": ground, "temperature": temperature, "attacker_side": side,
                           "attacker_support_ips": ips}


def test_a_quantitys_value_noting_its_lines_equals_its_explanation_and_the_lines_noted_from_it():
    from casebook.script.explain import line_entry

    engine = played_blitz(0).game.engine
    rules = compile_scripts([("t.rules", _SHAPES)], M41.schema)
    compared = 0
    for name in rules.quantities:
        for facts in _shape_facts():
            explained = rules.explain(name, facts, engine.script_tables)
            want: dict = {"t.rules:99": {"source": "t.rules:99"}}  # a line the dict holds already stays
            engine.note_lines(explained, want)
            got: dict = {"t.rules:99": {"source": "t.rules:99"}}
            other: dict = {}
            value = rules.value_noting(name, facts, [got, other], line_entry, engine.script_tables)
            assert value == explained.value and type(value) is type(explained.value), (name, facts)
            assert list(got.items()) == list(want.items()), (name, facts)
            assert list(other.items()) == list(want.items())[1:], (name, facts)
            assert value == rules.value(name, facts, engine.script_tables), (name, facts)
            compared += 1
    assert compared == 4 * 80


def test_a_context_collecting_lines_values_a_quantity_as_it_explains_it():
    state = played_blitz(40)
    engine = state.game.engine
    facts_list = [dict(f, defender_side="soviet", defender_support_ips=2, whole_division=w, defender_terrain_drm=0,
                       attackers=[{"class": c, "fatigued": w, "supplied": not w, "overstacked": False,
                                   "across_river": True, "across_fortification": False}],
                       defenders=[{"class": "infantry", "hedgehog": w}])
                  for f in list(_shape_facts())[::7] for c in ("armor", "ski") for w in (True, False)]
    compared = 0
    for name in M41.quantities:
        for facts in facts_list:
            fast = engine.ctx(state.data, event_lines=True)
            slow = engine.ctx(state.data, event_lines=True)
            try:
                got = fast.value(name, dict(facts))
            except Exception as exc:  # a fact it reads is not given: both refuse alike
                with pytest.raises(type(exc)):
                    slow.quantity(name, dict(facts))
                continue
            assert got == slow.quantity(name, dict(facts)).value, (name, facts)
            assert list(fast.event_lines.items()) == list(slow.event_lines.items()), (name, facts)
            compared += 1
    assert compared >= len(facts_list)  # attack_drm at least, for every fact set


def test_10_4_2A_a_records_tables_row_found_through_its_index_is_the_row_a_scan_finds():
    from casebook.script import tablerows

    engine = played_blitz(0).game.engine
    rows = engine.script_tables["ip_costs"]
    index = tablerows._Index(("action", "side"))
    pairs = {(r.get("action"), r.get("side")) for r in rows} | {("combat_support", "nobody"), (None, None)}
    for action, side in sorted(pairs, key=str):
        keys = {"action": action, "side": side}
        assert index.selected(rows, keys) == tablerows._selected(rows, keys), keys
    assert index.selected([{"action": ["a list"]}], {"action": "x"}) == []  # an unhashable cell: the scan
    changed = [dict(r, ip=99) for r in rows]  # another table object: the index is rebuilt
    assert index.selected(changed, {"action": "combat_support", "side": "german"})[0]["ip"] == 99


@pytest.mark.parametrize("without_oos", [False, True])
def test_18_1_3D_any_map_unit_read_from_the_units_equals_reading_their_records(without_oos, monkeypatch):
    from casebook.script import standard

    state = played_blitz(60)
    if without_oos:  # units lacking a field the lines read: those are asked through their records
        for u in state.data._d["units"]:
            u.pop("oos", None)
        state.data.touch()
    ctx = state.ctx()
    script = ("quantity t = sum by 1.1\n"
              "  1 by 1.1 when any map_unit has (side is soviet and class not in [hq, remnant] and town(hex) is city)\n"
              "  10 by 1.1 when all map_units have (oos or side is german or size is division)\n"
              "  100 by 1.1 when no map_unit has (class is armor and town_name(hex) is \"Smolensk\")\n"
              "  1000 by 1.1 when any map_unit has (side is german and town(hex) is not none)\n"
              "  10000 by 1.1 when all map_units have (not oos)\n")
    rules = compile_scripts([("t.rules", script)], M41.schema)
    records = ctx.standard.records("map_units", tuple((f, False if f == "oos" else "")
                                                      for f in M41.schema.facts["map_units"].fields))
    given = rules.value("t", {"map_units": records}, ctx.engine.script_tables, ctx.standard)
    read = []
    views = standard.StandardFacts.unit_views
    monkeypatch.setattr(standard.StandardFacts, "unit_views", lambda self: read.append(1) or views(self))
    assert rules.value("t", {}, ctx.engine.script_tables, ctx.standard) == given
    assert len(read) == 5 and given % 10000 > 0  # every line read the units; some lines fired
    assert all("oos" not in u for u in ctx.state.units) == without_oos


@pytest.mark.parametrize("actions", [0, 25, 60])
def test_13_0B_breakdown_refusals_kept_per_state_version_equal_the_refusals_asked_every_time(actions):
    from casebook.areas import breakdown as B
    from casebook.core.actions import Action

    state = played_blitz(actions)
    ctx = state.ctx()
    verdicts = set()
    for u in ctx.state.units:
        for side in ("german", "soviet"):
            a = Action.make("breakdown", side, unit=u["id"])
            facts = {**B._unit_facts(u), **B._when(ctx, a)}
            want = B._refuse(ctx, "breakdown", facts)  # asked every time, never kept
            for _ in range(2):  # the first asking fills the memo, the second reads it
                assert B._refuse_kept(ctx, "breakdown", facts) == want, (u["id"], side)
            verdicts.add(bool(want))
    assert True in verdicts  # refusals exist to compare
    assert any(B._refuse(ctx, "breakdown", {**B._unit_facts(u), "step": "combat", "acting_phasing": True})
               for u in ctx.state.units)


def test_10_3A_combat_setting_facts_kept_per_state_version_equal_the_settings_read_every_time():
    from casebook.areas._combat_odds import _setting_facts

    state = played_blitz(10)
    ctx = state.ctx()

    def read() -> dict:  # asked every time, never kept
        return {n: v for n in ctx.rules.schema.facts if (v := ctx.state.setting(n)) is not None}

    for _ in range(2):  # the first asking fills the memo, the second reads it
        assert _setting_facts(ctx) == read()
    name = sorted(ctx.rules.schema.facts)[0]
    ctx.state.set_setting(name, "changed")  # a change: a new state version, a new memo
    assert _setting_facts(ctx)[name] == "changed" == read()[name]
