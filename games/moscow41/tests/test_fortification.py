"""Fortifications (14.0-14.3), hedgehogs (14.4) and the scatter fatigue of 14.4D2."""

from __future__ import annotations

from fractions import Fraction

import pytest

from casebook.core.actions import Action
from casebook.games.moscow41.plugins import fortification as F
from casebook.games.moscow41.plugins._fortification_build import hex_facts
from games.moscow41.tests._fakes import FakeAreas, engine_with
from tests.conftest import make_ctx

FAKE = FakeAreas()
STEP = "replacement_reinforcement"


@pytest.fixture(scope="module")
def engine(m41):
    return engine_with(m41, fake=FAKE)


MAP = """
map:
  layout: flat-top-even-q
  size: {columns: 10, rows: 10}
  terrain: {default: clear}
  towns: {"0505": {name: Fortgrad, kind: city, ip: 2}, "0603": {name: Halt, kind: town, ip: 1}}
  moscow: ["0808"]
  hexsides:
    - {hexes: ["0202", "0203"], road: true}
    - {hexes: ["0304", "0305"], fortification: {protects: "0305"}}
"""


@pytest.fixture
def pos(engine):
    FAKE.reset()

    def build(extra: str = "", turn: int = 5, phase: str = "first_initiative", step: str = STEP,
              phasing: str = "soviet", fp: str = "{normal: 0, moscow: 0}", engine_=None):
        text = f"""
kind: position
format: 1
game: moscow41
{MAP}
turn: {turn}
phase: {phase}
step: {step}
phasing: {phasing}
fp: {fp}
{extra}
"""
        return make_ctx(engine_ or engine, text, trace=True)

    return build


def cases(ctx, action):
    return {c for r in F.casebook_validate_action(ctx, action) for c in r.cases}


def fort(hex_, **kw):
    return Action.make("build-fort", "soviet", hex=hex_, **kw)


def drm(ctx, across=False, hedgehog=False):
    attacker = {"class": "infantry", "fatigued": False, "supplied": True, "overstacked": False,
                "across_river": False, "across_fortification": across}
    facts = {"ground": "dry", "temperature": "warm", "attacker_side": "german", "defender_side": "soviet",
             "attacker_support_ips": 0, "defender_support_ips": 0, "whole_division": False,
             "defender_terrain_drm": 0, "attackers": [attacker],
             "defenders": [{"class": "infantry", "hedgehog": hedgehog}]}
    return ctx.value("attack_drm", facts)


def strength(ctx, units, attacking, fortified):
    recs = [{"class": "infantry", "strength": s, "guards": False, "printed_guards": False, "hedgehog": h} for s, h in units]
    return ctx.value("combat_strength", {"units": recs, "attacking": attacking, "fortified": fortified})


# ---------------------------------------------------------------- 14.1 building
@pytest.mark.case("14.1A", "14.1H")
def test_14_1A_14_1H_fps_received_in_the_soviet_reinforcement_step(pos):
    for turn, expected in ((3, (3, 0)), (5, (3, 2)), (7, (3, 2)), (8, (3, 0)), (12, (3, 0)), (13, (0, 0))):
        ctx = pos(turn=turn)
        F.casebook_step_start(ctx, "first_initiative", STEP)
        assert (ctx.state.track("fp", "normal"), ctx.state.track("fp", "moscow")) == expected, turn
    ctx = pos(turn=5, phasing="german")
    F.casebook_step_start(ctx, "first_initiative", STEP)
    assert ctx.state.track("fp", "normal") == 0
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0505'}", step="command", phase="first_player", fp="{normal: 3}")
    assert cases(ctx, fort("0505")) == {"14.1A"}


@pytest.mark.case("14.1B")
def test_14_1B_cost_by_placement(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0202'}\n  - {counter: s-174rd, hex: '0102'}")
    cost = {h: ctx.value("fort_cost", hex_facts(ctx, h)) for h in ("0505", "0806", "0603", "0202", "0102", "0805")}
    assert cost == {"0505": 1, "0806": 1, "0603": 2, "0202": 2, "0102": 3, "0805": 3}


@pytest.mark.case("14.1B")
def test_14_1B_ask_fortification_allowed_agrees_with_play_when_fps_are_short(pos):
    # a town costs 2 FPs (14.1B): with 1 FP, ask answers play's verdict (the build-fort refusals)
    ctx = pos(turn=14, fp="{normal: 1, moscow: 0}")
    built = F.fortification_answer(ctx, "0603")["build"]
    play = [(r.reason, list(r.cases)) for r in F.casebook_validate_action(ctx, fort("0603"))]
    assert built["cost"] == 2 and built["allowed"] is False
    assert [(r["reason"], r["cases"]) for r in built["refused"]] == play
    assert play == [("a fortification in 0603 costs 2 FPs", ["14.1B", "14.1G"])]
    ctx = pos(turn=14, fp="{normal: 2, moscow: 0}")                      # enough: both say yes
    assert F.fortification_answer(ctx, "0603")["build"] == {"cost": 2, "allowed": True, "refused": []}
    assert F.casebook_validate_action(ctx, fort("0603")) == []
    ctx = pos(turn=14, step="command", phase="first_player", fp="{normal: 2}")  # not the step (14.1A)
    assert [r["cases"] for r in F.fortification_answer(ctx, "0603")["build"]["refused"]] == [["14.1A"]]


@pytest.mark.case("14.1C")
def test_14_1C_placed_in_a_hex_in_supply(pos):
    ctx = pos(fp="{normal: 3}")
    assert cases(ctx, fort("0505")) == set()
    FAKE.unsupplied.add("0505")
    ctx.changed()
    assert cases(ctx, fort("0505")) == {"14.1C"}


@pytest.mark.case("14.1D")
def test_14_1D_combat_unit_needed_outside_towns_and_it_stays(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0102'}\n  - {counter: s-rem-01, hex: '0202'}", fp="{normal: 9}")
    assert cases(ctx, fort("0202")) == {"14.1D"}          # a remnant is not a combat unit
    assert cases(ctx, fort("0505")) == set()              # a city needs none
    result = F.casebook_apply_action(ctx, fort("0102"))
    assert result["unit"] == "s-133rd" and result["cost"] == 3 and ctx.state.track("fp", "normal") == 6
    assert cases(ctx, Action.make("move", "soviet", stack="0102", path=["0103"])) == {"14.1D"}
    assert cases(ctx, Action.make("attack", "soviet", hex="0103", **{"with": ["s-133rd"]})) == {"14.1D"}
    ctx.state.set_turn(6)
    assert cases(ctx, Action.make("move", "soviet", stack="0102", path=["0103"])) == set()


@pytest.mark.case("14.1E")
def test_14_1E_not_in_a_german_zoc(pos):
    ctx = pos(fp="{normal: 3}")
    FAKE.zoc["soviet"].add("0505")
    assert cases(ctx, fort("0505")) == {"14.1E"}


@pytest.mark.case("14.1F")
def test_14_1F_normal_fps_accumulate_moscow_fps_do_not(pos):
    ctx = pos(turn=6, fp="{normal: 2, moscow: 1}")
    F.casebook_step_start(ctx, "first_initiative", STEP)
    assert (ctx.state.track("fp", "normal"), ctx.state.track("fp", "moscow")) == (5, 2)
    F.casebook_step_end(ctx, "first_initiative", STEP)
    assert (ctx.state.track("fp", "normal"), ctx.state.track("fp", "moscow")) == (5, 0)


@pytest.mark.case("14.1G")
def test_14_1G_moscow_fps_only_within_two_hexes_of_moscow(pos):
    ctx = pos(fp="{normal: 0, moscow: 2}")
    assert cases(ctx, fort("0505")) == {"14.1B", "14.1G"}      # a city, but far from Moscow
    result = F.casebook_apply_action(ctx, fort("0806"))
    assert result["paid"] == {"moscow": 1, "normal": 0}
    assert cases(ctx, fort("0806")) == {"14.1G"}               # already fortified


# ---------------------------------------------------------------- 14.0, 14.2 effects
@pytest.mark.case("14.0")
def test_14_0_printed_or_built_fortifications(pos):
    ctx = pos("markers:\n  - {kind: fortification, hex: '0505'}")
    assert F.casebook_facts(ctx, "0305")["fortification"]["value"] == \
        {"marker": False, "printed_from": ["0304"], "destroyed": False}
    assert F.casebook_facts(ctx, "0505")["fortification"]["value"]["marker"] is True


@pytest.mark.case("14.2A")
def test_14_2A_printed_fortification_only_across_its_hexside(pos):
    ctx = pos("units:\n  - {counter: g-6id, hex: '0304'}\n  - {counter: g-26id, hex: '0306'}\n"
              "  - {counter: s-133rd, hex: '0305'}")
    facts = F.casebook_facts(ctx, {"hex": "0305", "attackers": ["g-6id", "g-26id"]})
    assert facts["across_fortification"]["value"] == {"g-6id": True, "g-26id": False}
    assert facts["fortified"]["value"] is True                 # at least part of the attack
    alone = F.casebook_facts(ctx, {"hex": "0305", "attackers": ["g-26id"]})
    assert alone["fortified"]["value"] is False


@pytest.mark.case("14.2B")
def test_14_2B_marker_protects_from_any_direction(pos):
    ctx = pos("units:\n  - {counter: g-6id, hex: '0504'}\n  - {counter: g-26id, hex: '0506'}\n"
              "  - {counter: s-133rd, hex: '0505'}\nmarkers:\n  - {kind: fortification, hex: '0505'}")
    facts = F.casebook_facts(ctx, {"hex": "0505", "attackers": ["g-6id", "g-26id"]})
    assert facts["across_fortification"]["value"] == {"g-6id": True, "g-26id": True}


@pytest.mark.case("14.2C")
def test_14_2C_plus_one_strength_and_minus_one_drm(pos):
    ctx = pos()
    assert strength(ctx, [(6, False)], attacking=False, fortified=True) == 7
    assert strength(ctx, [(6, False)], attacking=False, fortified=False) == 6
    assert drm(ctx, across=True) - drm(ctx, across=False) == -1


@pytest.mark.case("14.2D")
def test_14_2D_no_effect_on_zocs(pos, m41):
    assert not hasattr(F, "casebook_zoc")
    plain = pos("units:\n  - {counter: s-133rd, hex: '0505'}", engine_=m41)
    forted = pos("units:\n  - {counter: s-133rd, hex: '0505'}\nmarkers:\n  - {kind: fortification, hex: '0505'}",
                 engine_=m41)
    a = plain.hook.casebook_zoc(ctx=plain, hex="0506", side="german")
    b = forted.hook.casebook_zoc(ctx=forted, hex="0506", side="german")
    assert a == b and "s-133rd" in a["exerted_by"]


@pytest.mark.case("14.2E")
def test_14_2E_no_bonus_attacking_out(pos):
    ctx = pos("units:\n  - {counter: s-133rd, hex: '0505'}\n  - {counter: g-6id, hex: '0506'}\n"
              "markers:\n  - {kind: fortification, hex: '0505'}")
    facts = F.casebook_facts(ctx, {"hex": "0506", "attackers": ["s-133rd"]})
    assert facts["attackers_fortified"]["value"] is False and facts["fortified"]["value"] is False
    assert strength(ctx, [(6, False)], attacking=True, fortified=True) == 6


# ---------------------------------------------------------------- 14.3 destruction
@pytest.mark.case("14.3A")
def test_14_3A_german_advance_onto_unoccupied_fortification_destroys_it(pos):
    ctx = pos("units:\n  - {counter: g-6id, hex: '0505'}\n  - {counter: s-133rd, hex: '0707'}\n"
              "markers:\n  - {kind: fortification, hex: '0505'}\n  - {kind: fortification, hex: '0707'}",
              phase="first_player", step="combat", phasing="german")
    F.casebook_after_action(ctx, Action.make("advance", "german", path=["0505"], **{"with": ["g-6id"]}), {})
    assert [m["hex"] for m in ctx.state.markers if m["kind"] == "fortification"] == ["0707"]
    F.casebook_after_action(ctx, Action.make("move", "soviet", stack="0707", path=["0707"]), {})
    F.casebook_after_action(ctx, Action.make("advance", "german", path=["0707"], **{"with": ["g-6id"]}), {})
    assert [m["hex"] for m in ctx.state.markers if m["kind"] == "fortification"] == ["0707"]  # occupied


@pytest.mark.case("14.3B")
def test_14_3B_printed_fortification_gets_a_destroyed_marker(pos):
    ctx = pos("units:\n  - {counter: g-6id, hex: '0305'}", phase="first_player", step="movement", phasing="german")
    F.casebook_after_action(ctx, Action.make("move", "german", stack="0304", path=["0305"]), {})
    assert {"kind": "fort-destroyed", "hex": "0305"} in [dict(m) for m in ctx.state.markers]
    assert F.casebook_facts(ctx, "0305")["fortification"]["value"]["printed_from"] == []


# ---------------------------------------------------------------- 14.4 hedgehogs
HH = "units:\n  - {counter: g-6id, hex: '0303', activated: true}\n  - {counter: g-26id, hex: '0303', activated: true}"


def hh(remove=None):
    return Action.make("hedgehog", "german", stack="0303", remove=remove)


@pytest.mark.case("14.4A")
def test_14_4A_activated_stack_not_moved_forms_a_hedgehog(pos):
    ctx = pos(HH, phase="first_player", step="movement", phasing="german")
    assert hh() in F.casebook_legal_actions(ctx, "first_player", "movement")
    F.casebook_apply_action(ctx, hh())
    assert all(u["hedgehog"] for u in ctx.state.units_at("0303"))
    assert {"kind": "hedgehog", "hex": "0303"} in [dict(m) for m in ctx.state.markers]
    moved = pos(HH, phase="first_player", step="movement", phasing="german")
    F.casebook_after_action(moved, Action.make("move", "german", stack="0302", path=["0303"]), {})
    assert cases(moved, hh()) == {"14.4A"}
    idle = pos(HH.replace("activated: true", "activated: false"), phase="first_player", step="movement",
               phasing="german")
    assert cases(idle, hh()) == {"14.4A"}


@pytest.mark.case("14.4B")
def test_14_4B_remove_by_spending_all_mps_force_march_allowed(pos):
    ctx = pos(HH.replace("}", ", hedgehog: true}") + "\nmarkers:\n  - {kind: hedgehog, hex: '0303'}",
              phase="first_player", step="movement", phasing="german")
    assert hh(True) in F.casebook_legal_actions(ctx, "first_player", "movement")
    F.casebook_apply_action(ctx, hh(True))
    assert not any(u.get("hedgehog") for u in ctx.state.units_at("0303"))
    assert cases(ctx, Action.make("move", "german", stack="0303", path=["0304"])) == {"14.4A"}
    assert cases(ctx, Action.make("force-march", "german", stack="0303")) == set()


@pytest.mark.case("14.4C")
def test_14_4C_cannot_move_minus_one_drm_ignores_r(pos):
    ctx = pos(HH.replace("}", ", hedgehog: true}"), phase="first_player", step="movement", phasing="german")
    assert cases(ctx, Action.make("move", "german", stack="0303", path=["0304"])) == {"14.4C"}
    facts = F.casebook_facts(ctx, "g-6id")
    assert facts["hedgehog"]["value"] is True and facts["hedgehog_ignores_retreat"]["value"] is True
    assert drm(ctx, hedgehog=True) - drm(ctx) == -1


@pytest.mark.case("14.4D")
def test_14_4D_attacking_from_a_hedgehog_halves_strength(pos):
    ctx = pos()
    assert strength(ctx, [(7, True)], attacking=True, fortified=False) == Fraction(7, 2)
    assert strength(ctx, [(7, True)], attacking=False, fortified=False) == 7   # defends normally


@pytest.mark.case("14.4D2")
def test_14_4D2_scattered_paratroop_is_fatigued_once(pos):
    ctx = pos("units:\n  - {counter: s-250ar, hex: '0404', scattered: true}", phase="first_initiative")
    F.casebook_after_action(ctx, Action.make("pass", "soviet"), {})
    assert ctx.state.unit("s-250ar")["fatigued"] is True
    assert ctx.trace[-1].cases == ("14.4D2",)
    ctx.state.update_unit("s-250ar", fatigued=None)        # recovered while still scattered
    F.casebook_after_action(ctx, Action.make("pass", "soviet"), {})
    assert not ctx.state.unit("s-250ar").get("fatigued")


def test_ask_fortification_snapshot(m41, repo_root, snapshot):
    from casebook.content.position import load_position
    from casebook.script.engine import state_from_position

    ctx = m41.ctx(state_from_position(load_position(repo_root / "docs/examples/fortification-line.yaml",
                                                    pack=m41.pack)))
    assert F.fortification_answer(ctx, "0305", ["g-6id", "g-26id"]) == snapshot
    assert F.fortification_answer(ctx, "0603") == snapshot


@pytest.mark.case("14.1D")
def test_14_1D_ask_reach_and_move_refuse_the_builder_this_turn(pos):
    """The unit that had a fortification built in its hex outside a city or town may not move this
    turn (14.1D): ``ask reach`` / ``ask move`` answer play's verdict (``mover_refusals``)."""
    from casebook.games.moscow41.plugins import movement as mv

    ctx = pos("units:\n  - {counter: s-133rd, hex: '0102'}", fp="{normal: 9}")
    assert mv.reach_answer(ctx, "s-133rd")["hexes"]                          # before: it reaches hexes
    F.casebook_apply_action(ctx, fort("0102"))
    reach = mv.reach_answer(ctx, "s-133rd")
    assert reach["hexes"] == {} and [r["cases"] for r in reach["refused"]] == [["14.1D"]]
    move = mv.move_answer(ctx, "s-133rd", ["0103"])
    assert move["legal"] is False and move["refused"]["cases"] == ["14.1D"]
    assert cases(ctx, Action.make("move", "soviet", stack="0102", path=["0103"])) == {"14.1D"}


@pytest.mark.case("14.1G")
def test_14_1G_ask_fortification_cites_the_cases_of_the_lines_that_decided(repo_root):
    """A hex already fortified: the only refusal is 14.1G (fortification.rules:13), the cost 14.1B
    (:6) — `cases:` named 14.1B-E and 14.2A-B, not the 14.1G that decided."""
    from tests.test_input_bounds import run

    res = run("ask", repo_root / "docs/examples/fortification-line.yaml", "fortification", "0505")
    assert res.exit_code == 0, res.output
    assert "\ncases: 14.1B, 14.1G\nlines:\n  fortification.rules:13  14.1G  forbid build_fort  by 14.1G" in res.output
