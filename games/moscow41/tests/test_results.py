"""Moscow '41 combat results (11.0-11.4, 10.6) on small inline maps.

Results are applied through ``casebook_combat`` with a forced CRT cell: the tests call
``results.apply_outcome`` with the outcome the combat plugin would return.
Layout flat-top-even-q: 0304 touches 0303, 0305, 0203, 0204, 0403, 0404.
"""

from __future__ import annotations

import json

import pytest

from casebook.areas._results_losses import apply_loss, distribute_losses
from casebook.areas._results_retreat import advance_paths, retreat_options
from casebook.core.actions import Action
from casebook.games.moscow41.plugins import results
from casebook.games.moscow41.plugins.results import parse_result
from games.moscow41.tests._fakes import FakeAreasWithStacking as FakeAreas
from games.moscow41.tests._fakes import engine_with
from tests.conftest import m41_inline, make_ctx

INF = "class: infantry, size: division, strength: 7, ma: 4"
SINF = "class: infantry, size: division, strength: 6, ma: 4"
HQ = "class: hq, ma: 4, radius: 3"
FAKE = FakeAreas()


@pytest.fixture(scope="module")
def engine(m41):
    return engine_with(m41, fake_combat=FAKE)


@pytest.fixture
def pos(engine):
    FAKE.reset()

    def make(units: str, ip: str = "{german: 5, soviet: 5}", extra: str = ""):
        return make_ctx(engine, m41_inline(units, ip=ip, extra=extra), trace=True)
    return make


def _unit(side, uid, hex_, kind, more):
    fields = dict(part.split(": ", 1) for part in kind.split(", "))
    fields.update({k: json.dumps(v) if isinstance(v, str) else str(v).lower() for k, v in more.items()})
    return f'  - {{id: {uid}, side: {side}, {", ".join(f"{k}: {v}" for k, v in fields.items())}, hex: "{hex_}"}}\n'


def g(uid, hex_, kind=INF, **more):
    return _unit("german", uid, hex_, kind, more)


def s(uid, hex_, kind=SINF, **more):
    return _unit("soviet", uid, hex_, kind, more)


def outcome(ctx, result, attackers=("g1",), hex_="0304", kind="attack"):
    defenders = [u["id"] for u in ctx.state.units_at(hex_)]
    a_side = ctx.state.unit(attackers[0])["side"]
    return {"attackers": list(attackers), "defenders": defenders, "hex": hex_, "kind": kind,
            "attacker_side": a_side, "defender_side": ctx.state.other_side(a_side), "result": result}


def settle(ctx, result, **kw):
    return results.apply_outcome(ctx, outcome(ctx, result, **kw), interactive=False)


# ---------------------------------------------------------------------------- 11.0
@pytest.mark.case("11.0A", "11.0B")
def test_11_0A_attacker_result_before_the_slash(pos):
    r = parse_result("F1/FR")
    assert r["attacker"] == {"fatigue": True, "retreat": False, "number": 1}
    assert r["defender"] == {"fatigue": True, "retreat": True, "number": 0}
    assert parse_result("-/3")["defender"]["number"] == 3 and parse_result("-/-")["attacker"]["number"] == 0
    with pytest.raises(ValueError):
        parse_result("X/1")


# ---------------------------------------------------------------------------- 11.1 fatigue
@pytest.mark.case("11.1A", "11.1B")
def test_11_1A_fatigue_negated_for_one_ip_when_supplied_and_in_command(pos):
    ctx = pos(g("g1", "0303") + g("g2", "0403") + s("s1", "0304", strength=30))
    rec = ctx.state.plugin_data("combat") or {}
    ctx.state.set_plugin_data("combat", {**rec, "interactive": True})
    out = results.apply_outcome(ctx, outcome(ctx, "F/-", ("g1", "g2")), interactive=True)
    assert out["pending"] and out["awaiting"] == "fatigue" and out["decider"] == "german"
    assert ctx.hook.casebook_decider(ctx=ctx, phase="first_player", step="combat") == "german"
    ctx.hook.casebook_apply_action(ctx=ctx, action=Action.make("negate-fatigue", "german", negate=True))
    assert ctx.state.track("ip", "german") == 4 and not any(ctx.state.unit(u).get("fatigued") for u in ("g1", "g2"))
    assert ctx.state.plugin_data("results") is None
    # 11.1B: out of command at the instant of combat, no choice: the unit is fatigued
    FAKE.out_of_command.add("g1")
    out = results.apply_outcome(ctx, outcome(ctx, "F/-", ("g1",)), interactive=True)
    assert out["pending"] is False and ctx.state.unit("g1")["fatigued"] and ctx.state.track("ip", "german") == 4


@pytest.mark.case("11.1C", "10.6B")
def test_11_1C_all_defenders_flip_and_a_stacked_hq_ignores_fatigue(pos):
    ctx = pos(g("g1", "0303") + s("s1", "0304") + s("s2", "0304") + s("h1", "0304", HQ), ip="{german: 0, soviet: 0}")
    out = settle(ctx, "-/F")
    assert ctx.state.unit("s1")["fatigued"] and ctx.state.unit("s2")["fatigued"]
    assert "fatigued" not in ctx.state.unit("h1")
    assert {"unit": "h1", "effect": "ignored", "cases": ["10.6B"]} in out["effects"]


@pytest.mark.case("11.1D")
def test_11_1D_fatigue_on_a_fatigued_unit_is_a_loss(pos):
    ctx = pos(g("g1", "0303") + s("s1", "0304", fatigued=True), ip="{german: 0, soviet: 0}")
    settle(ctx, "-/F")
    assert ctx.state.unit("s1")["losses"] == 1 and ctx.state.unit("s1")["fatigued"] is True


# ---------------------------------------------------------------------------- 11.2 retreats
@pytest.mark.case("11.2A")
def test_11_2A_r_forces_a_retreat_a_number_lets_the_defender_choose(pos):
    ctx = pos(g("g1", "0303") + s("s1", "0304"))
    ctx.state.set_plugin_data("combat", {"interactive": True})
    results.apply_outcome(ctx, outcome(ctx, "-/R"), interactive=True)
    offers = results.casebook_legal_actions(ctx, "first_player", "combat")
    assert offers and all(a.kind == "retreat" and len(a.get("path")) == 1 and a.get("losses") == 0 for a in offers)
    ctx.hook.casebook_apply_action(ctx=ctx, action=offers[0])
    ctx2 = pos(g("g1", "0303") + s("s1", "0304"))
    results.apply_outcome(ctx2, outcome(ctx2, "-/2"), interactive=True)
    offers = results.casebook_legal_actions(ctx2, "first_player", "combat")
    assert {(len(a.get("path") or ()), a.get("losses")) for a in offers} == {(2, 0), (1, 1), (0, 2)}


@pytest.mark.case("11.2B", "7.5B")
def test_11_2B_retreat_refuses_ezoc_unless_friendly_occupied_and_a_loss_per_hex_short(pos):
    ctx = pos(g("g1", "0303") + s("s1", "0304") + s("s2", "0305"))
    around = {"0303", "0305", "0203", "0204", "0403", "0404"}
    FAKE.zoc["soviet"] = set(around) | {"0306", "0205", "0405"}
    opts = retreat_options(ctx, results.setup(ctx), ["s1"], "0304", "soviet", 2, ["g1"])
    # 0305 is in an EZOC but held by a friendly division: the only way out; beyond it, EZOC again
    assert [o["path"] for o in opts] == [["0305"]] and opts[0]["losses"] == 1
    FAKE.zoc["soviet"] = set(around)
    ctx2 = pos(g("g1", "0303") + s("s1", "0304") + s("s2", "0305", "class: remnant, strength: 1, ma: 4"))
    none = retreat_options(ctx2, results.setup(ctx2), ["s1"], "0304", "soviet", 1, ["g1"])
    assert none == [{"path": [], "hexes": 0, "losses": 1, "toward_supply": False,
                     "ends_adjacent_to_attacker": True, "cases": ["11.2B", "11.2C", "7.5B"]}]  # a remnant does not cover (7.5A)
    settle(ctx2, "-/R")
    assert ctx2.state.unit("s1")["losses"] == 1 and ctx2.state.unit("s1")["hex"] == "0304"


@pytest.mark.case("11.2C", "11.2D")
def test_11_2C_retreat_toward_supply_not_next_to_the_attackers(pos):
    ctx = pos(g("g1", "0303") + g("g2", "0403") + s("s1", "0304"))
    opts = retreat_options(ctx, results.setup(ctx), ["s1"], "0304", "soviet", 2, ["g1", "g2"])
    best = opts[0]
    assert best["toward_supply"] and not best["ends_adjacent_to_attacker"] and best["hexes"] == 2
    assert best["path"][-1][:2] > "03"  # east, toward the Soviet supply edge (5.1C)
    # 11.2D: the retreat ends two hexes from the combat hex, never doubling back into it
    assert all("0304" not in o["path"] for o in opts)
    answer = results.retreat_answer(ctx, "s1", 2)
    assert answer["options"][0] == {**best, "offered": True} and answer["losses"] == 0


@pytest.mark.case("10.6A")
def test_10_6A_hq_alone_retreats_on_any_result_or_is_eliminated(pos):
    ctx = pos(g("g1", "0303") + s("h1", "0304", HQ))
    settle(ctx, "-/F")
    assert ctx.state.unit("h1")["hex"] != "0304" and "fatigued" not in ctx.state.unit("h1")
    ctx2 = pos(g("g1", "0303") + s("h1", "0304", HQ))
    FAKE.zoc["soviet"] = {"0305", "0203", "0204", "0403", "0404"}
    out = settle(ctx2, "-/1")
    assert not ctx2.state.has_unit("h1") and {"unit": "h1", "effect": "eliminated", "cases": ["10.6A"]} in out["effects"]


# ---------------------------------------------------------------------------- 11.3 losses
@pytest.mark.case("11.3A", "11.3B")
def test_11_3B_german_1_loss_2_loss_then_eliminated_breakdown_regiment_at_2(pos):
    ctx = pos(g("g1", "0303") + g("r1", "0304", "class: infantry, size: regiment, strength: 2, ma: 4"))
    assert [apply_loss(ctx, "g1")["effect"] for _ in range(2)] == ["1-loss", "2-loss"]
    assert apply_loss(ctx, "g1")["effect"] == "eliminated" and not ctx.state.has_unit("g1")
    assert apply_loss(ctx, "r1")["effect"] == "1-loss"
    assert apply_loss(ctx, "r1")["effect"] == "eliminated"


@pytest.mark.case("11.3C", "11.3D")
def test_11_3C_soviet_1_loss_then_a_remnant_from_the_pool_eliminated_by_any_loss(pos):
    ctx = pos(s("s1", "0304", fatigued=True) + s("s-rem-01", "0505", "class: remnant, strength: 1, ma: 4"))
    assert apply_loss(ctx, "s1")["effect"] == "1-loss"
    event = apply_loss(ctx, "s1")
    assert event == {"unit": "s1", "effect": "remnant", "remnant": "s-rem-02", "cases": ["11.3C", "11.3D"]}
    rem = ctx.state.unit("s-rem-02")
    assert (rem["class"], rem["strength"], rem["ma"], rem["hex"], rem["fatigued"]) == ("remnant", 1, 4, "0304", True)
    assert ctx.state.removed[-1] == {"unit": "s1", "reason": "eliminated", "turn": 3}
    assert apply_loss(ctx, "s-rem-02")["effect"] == "eliminated" and not ctx.state.has_unit("s-rem-02")


@pytest.mark.case("10.6B")
def test_10_6B_hq_survives_when_losses_exactly_equal_its_stack(pos):
    ctx = pos(g("g1", "0303") + s("r1", "0304", "class: remnant, strength: 1, ma: 4")
              + s("r2", "0304", "class: remnant, strength: 1, ma: 4") + s("h1", "0304", HQ))
    distribute_losses(ctx, ["r1", "r2", "h1"], 2)
    assert not ctx.state.has_unit("r1") and not ctx.state.has_unit("r2") and ctx.state.has_unit("h1")
    ctx2 = pos(g("g1", "0303") + s("r1", "0304", "class: remnant, strength: 1, ma: 4") + s("h1", "0304", HQ))
    events = distribute_losses(ctx2, ["r1", "h1"], 2)
    assert [e["effect"] for e in events] == ["eliminated", "eliminated"] and not ctx2.state.has_unit("h1")


@pytest.mark.case("10.6B")
def test_10_6B_hq_accompanies_its_stack_in_retreat(pos):
    ctx = pos(g("g1", "0303") + s("s1", "0304") + s("h1", "0304", HQ), ip="{german: 0, soviet: 0}")
    out = settle(ctx, "-/R")
    assert ctx.state.unit("h1")["hex"] == ctx.state.unit("s1")["hex"] != "0304"
    assert "10.6B" in next(e for e in out["effects"] if e.get("effect") == "retreat")["cases"]


# ---------------------------------------------------------------------------- 11.4 advance
@pytest.mark.case("11.4A", "11.4B")
def test_11_4B_after_elimination_advance_into_the_cleared_hex_only(pos):
    ctx = pos(g("g1", "0303") + s("r1", "0304", "class: remnant, strength: 1, ma: 4"), ip="{german: 0, soviet: 0}")
    FAKE.zoc["german"] = {"0304"}
    out = settle(ctx, "-/2")
    assert out["cleared"] and ctx.state.unit("g1")["hex"] == "0304"  # EZOC ignored (11.4B)
    assert advance_paths(ctx, "german", "0304", 2, eliminated=True) == [["0304"]]


@pytest.mark.case("11.4C", "11.4D")
def test_11_4C_after_a_retreat_advance_as_far_stopping_in_ezoc(pos):
    ctx = pos(g("g1", "0303") + s("s9", "0306"))
    FAKE.zoc["german"] = {"0304", "0305", "0205"}
    paths = advance_paths(ctx, "german", "0304", 2, eliminated=False)
    assert paths[0] == ["0304"] and all(p[0] == "0304" and len(p) <= 2 for p in paths)
    assert ["0304", "0305"] in paths and ["0304", "0404"] in paths
    assert not any("0306" in p for p in paths)  # never into an enemy-occupied hex (11.4D)
    # stopping on entering an EZOC: with three hexes, nothing continues past 0305 or 0205
    longer = advance_paths(ctx, "german", "0304", 3, eliminated=False)
    assert not any(len(p) == 3 and p[1] in ("0305", "0205") for p in longer)
    assert any(len(p) == 3 and p[1] == "0404" for p in longer)


@pytest.mark.case("11.4A", "10.0F")
def test_11_4A_advance_decided_at_once_by_the_attacker(pos):
    ctx = pos(g("g1", "0303") + s("s1", "0304"), ip="{german: 0, soviet: 0}")
    out = results.apply_outcome(ctx, outcome(ctx, "-/R"), interactive=True)
    retreat = results.casebook_legal_actions(ctx, "first_player", "combat")[0]
    out = ctx.hook.casebook_apply_action(ctx=ctx, action=retreat)
    assert out["pending"] and out["awaiting"] == "advance"
    offers = results.casebook_legal_actions(ctx, "first_player", "combat")
    assert offers[0] == Action.make("advance", "german", hold=True)
    assert offers[1] == Action.make("advance", "german", path=["0304"], **{"with": ["g1"]})
    done = ctx.hook.casebook_apply_action(ctx=ctx, action=offers[1])
    assert done["pending"] is False and ctx.state.unit("g1")["hex"] == "0304"
    assert ctx.state.plugin_data("results") is None


def test_ask_retreat_json_snapshot(repo_root, snapshot):
    from casebook.tools.cmd_ask import ask_position
    answer = ask_position(str(repo_root / "docs/examples/retreat.yaml"), "retreat", ["s1"], {"hexes": 2})
    assert answer == snapshot
