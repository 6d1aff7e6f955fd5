"""Recipe 28 of docs/modding.md: the configuration Moscow '41's reinforcement, fortification and
movement plugins once wrote in Python is config files — config/replacements.yaml (12.2-12.3),
config/worksites.yaml (14.1) and the refusals, rule-line texts and event cases of
config/movement.yaml (9.x). Each is edited on a copy of the pack and the refusal or event changes
(message and cases) with no Python touched; a misspelt key, a wrong type or an unknown case is a
located ``casebook lint`` error, all at once, and ``Engine.load`` refuses the pack."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.core.actions import Action
from casebook.core.errors import ContentError
from casebook.games.moscow41.plugins import fortification as F
from casebook.games.moscow41.plugins import movement as mv
from casebook.games.moscow41.plugins import reinforcement as R
from casebook.script.engine import Engine
from games.moscow41.tests import _fakes, _movement_fixtures
from games.moscow41.tests.test_pack_config import copied, edit, lint
from tests.conftest import make_ctx

RP = """kind: position
format: 1
game: moscow41
turn: 5
weather: {temperature: warm, ground: dry}
phase: first_initiative
step: replacement_reinforcement
phasing: soviet
rp: {soviet: {infantry: 0, armor: 0}, german: {infantry: 0, armor: 0}}
units:
  - {counter: s-133rd, hex: '0309', losses: 1}
"""


def rp_refusals(engine: Engine) -> list[tuple[str, tuple[str, ...]]]:
    ctx = make_ctx(engine, RP)
    assign = Action.make("assign-rp", "soviet", unit="s-133rd", rp="infantry")
    return [(r.reason, tuple(r.cases)) for r in R.casebook_validate_action(ctx, assign)]


@pytest.mark.case("12.2A", "12.2C")
def test_12_2C_a_modder_changes_the_no_rp_left_refusal_in_replacements_yaml(m41, tmp_path):
    """config/replacements.yaml's ``points`` names the RPs in a refusal, ``cases.empty`` is what
    assigning an RP none is left of cites (12.2A, 12.2C: RPs come from the Turn Track)."""
    assert rp_refusals(m41) == [("no infantry RPs left on the soviet Replacement Track", ("12.2A", "12.2C"))]
    pack = copied(tmp_path, "replacements.yaml",
                  ("points: RPs ", "points: Replacement Points "),
                  ('  empty: ["12.2A", "12.2C"]\n', '  empty: ["12.2C"]\n'))
    assert rp_refusals(Engine.load(pack)) == [
        ("no infantry Replacement Points left on the soviet Replacement Track", ("12.2C",))]
    assert rp_refusals(m41)[0][1] == ("12.2A", "12.2C")  # each pack its own


FORT = """kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {columns: 6, rows: 6}
  terrain: {default: clear}
  towns: {"0303": {name: Fortgrad, kind: city, ip: 2}}
turn: 5
phase: first_initiative
step: replacement_reinforcement
phasing: soviet
fp: {normal: 0, moscow: 0}
units:
  - {counter: s-133rd, hex: '0303'}
"""


def fort_refusals(engine: Engine) -> list[tuple[str, tuple[str, ...]]]:
    ctx = make_ctx(_fakes.engine_with(engine, fake=_fakes.FakeAreas()), FORT)
    build = Action.make("build-fort", "soviet", hex="0303")
    return [(r.reason, tuple(r.cases)) for r in F.casebook_validate_action(ctx, build)]


@pytest.mark.case("14.1B")
def test_14_1B_a_modder_changes_the_fp_cost_refusal_in_worksites_yaml(m41, tmp_path):
    """config/worksites.yaml's ``texts.cost`` and ``cases.cost``: a fortification in a city costs
    1 FP (14.1B, the line of rules/fortification.rules), and the Soviets have none."""
    assert fort_refusals(m41) == [("a fortification in 0303 costs 1 FPs", ("14.1B", "14.1G"))]
    pack = copied(tmp_path, "worksites.yaml",
                  ('  cost: ["14.1B", "14.1G"]\n', '  cost: ["14.1B"]\n'),
                  ('  cost: "a fortification in {hex} costs {cost} FPs"\n',
                   '  cost: "{cost} FP(s) needed to fortify {hex}"\n'))
    assert fort_refusals(Engine.load(pack)) == [("1 FP(s) needed to fortify 0303", ("14.1B",))]


G2 = """- {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0202", activated: true}
- {id: g2, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0205", activated: true}"""


def force_march(engine: Engine) -> tuple[list[tuple[str, tuple[str, ...]]], list[str], list[str]]:
    """The refusal of g1's force march after g2 moved (0.7.3.2B), the event of g2's own and the
    cases of g1's move event."""
    eng = _movement_fixtures.engine_with(engine, fake=_movement_fixtures.FakeAreas())
    ctx = make_ctx(eng, _movement_fixtures.position_text(G2), trace=True)
    for text in ("german: move stack=0202 path=0201", "german: move stack=0205 path=0206"):
        mv.casebook_apply_action(ctx, _movement_fixtures.act(text))
    refused = [(r.reason, tuple(r.cases)) for r in
               mv.casebook_validate_action(ctx, _movement_fixtures.act("german: force-march stack=0201"))]
    mv.casebook_apply_action(ctx, _movement_fixtures.act("german: force-march stack=0206"))
    event = next(e for e in ctx.trace if e.kind == "force-march")
    return refused, list(event.cases), list(next(e for e in ctx.trace if e.kind == "move").cases)


@pytest.mark.case("0.7.3.2B", "9.6A")
def test_0_7_3_2B_a_modder_changes_a_movement_refusal_and_an_event_in_movement_yaml(m41, tmp_path):
    """config/movement.yaml: the text a forbid line of ``declare_force_march`` citing 0.7.3.2B
    picks (``forbidden.force_march``; the line's cases are cited) and the cases of the
    force-march event (``events.force_march``); what a hex entered at its TEC cost cites
    (``answers.cost``) is in the move event."""
    refused, cases, moved = force_march(m41)
    assert refused == [("a force march is declared right after the stack's normal movement, before any other unit "
                        "moves", ("9.6A", "0.7.3.2B"))]
    assert cases == ["9.6A", "9.6B"] and moved == ["9.0A", "9.2A"]
    pack = copied(tmp_path, "movement.yaml",
                  ('    "0.7.3.2B": "a force march is declared right after',
                   '    "0.7.3.2B": "too late: another stack has moved since; a force march is declared right after'),
                  ('  force_march: ["9.6A", "9.6B"]', '  force_march: ["9.6A"]'))
    edit(pack, "movement.yaml", '  cost: ["9.2A"]', '  cost: ["9.2A", "9.1A"]')
    refused, cases, moved = force_march(Engine.load(pack))
    assert refused == [("too late: another stack has moved since; a force march is declared right after the "
                        "stack's normal movement, before any other unit moves", ("9.6A", "0.7.3.2B"))]
    assert cases == ["9.6A"] and moved == ["9.0A", "9.1A", "9.2A"]


def located(pack: Path, file: str, *keys: str) -> tuple[list[str], str, dict[str, int]]:
    """``casebook lint``'s lines for ``pack``, the file as lint names it, and the line of each key."""
    text = (pack / "config" / file).read_text(encoding="utf-8").splitlines()
    return lint(pack), str(pack / "config" / file), {k: next(i for i, ln in enumerate(text, 1) if ln.startswith(k))
                                                     for k in keys}


def test_replacements_yaml_problems_are_located_all_at_once(tmp_path):
    pack = copied(tmp_path, "replacements.yaml", ("track: rp ", "trak: rp "),
                  ("rebuild_kind: infantry", "rebuild_kind: [infantry]"),
                  ('  not_rebuildable: ["12.3B"]', '  not_rebuildable: ["12.3X"]'),
                  ("  rebuild_cost: [", "  rebuild_cots: ["), doc=False)
    out, where, line = located(pack, "replacements.yaml", "trak:", "rebuild_kind:", "  not_rebuildable:",
                               "  rebuild_cots:", "cases:")
    assert f"{where}:{line['trak:']}:1: trak: unknown key 'trak' (did you mean 'track'?)" in out
    assert f"{where}:{line['rebuild_kind:']}:1: rebuild_kind: expected a string, got a list" in out
    assert any(o.startswith(f"{where}:{line['  not_rebuildable:']}:21: cases.not_rebuildable.0: case '12.3X' is not "
                            "in the pack's case index") for o in out), out
    assert f"{where}:{line['  rebuild_cots:']}:3: cases.rebuild_cots: unknown key 'rebuild_cots' " \
           "(did you mean 'rebuild_cost'?)" in out
    assert f"{where}:{line['cases:']}:1: cases: missing required key 'rebuild_cost'" in out
    assert out[-1].endswith(": 6 errors")  # and `track` missing
    with pytest.raises(ContentError, match="unknown key 'trak'"):
        Engine.load(pack)


def test_worksites_yaml_problems_are_located_all_at_once(tmp_path):
    pack = copied(tmp_path, "worksites.yaml", ("city_kind: city", "city_kin: city"),
                  ("road_kinds: [road, trail]", "road_kinds: road"),
                  ('  unit: ["14.1D"]', '  unit: ["14.1Q"]'),
                  ('  unit: "{unit} is not', '  unit: "{units} is not'), doc=False)
    out, where, line = located(pack, "worksites.yaml", "city_kin:", "road_kinds:", '  unit: ["', '  unit: "')
    cited, text = line['  unit: ["'], line['  unit: "']
    assert f"{where}:{line['city_kin:']}:1: city_kin: unknown key 'city_kin' (did you mean 'city_kind'?)" in out
    assert f"{where}:{line['road_kinds:']}:1: road_kinds: expected a list, got 'road'" in out
    assert any(o.startswith(f"{where}:{cited}:10: cases.unit.0: case '14.1Q' is not in the pack's "
                            "case index") for o in out), out
    assert any(o.startswith(f"{where}:{text}:3: texts.unit: placeholder {{units}} is not filled in")
               for o in out), out
    assert out[-1].endswith(": 5 errors")  # and `city_kind` missing
    with pytest.raises(ContentError, match="unknown key 'city_kin'"):
        Engine.load(pack)


def test_movement_yaml_refusal_and_event_problems_are_located_all_at_once(tmp_path):
    pack = copied(tmp_path, "movement.yaml", ("  no_path: {", "  no_pth: {"),
                  ('"the TEC prohibits entering {target}"', '"the TEC prohibits entering {hex}"'),
                  ('    "9.9A": "only the Soviets', '    "9.9Z": "only the Soviets'),
                  ('  rail_hq: ["9.9E"]', '  rail_hq: "9.9E"'), doc=False)
    out, where, line = located(pack, "movement.yaml", "  no_pth:", "  tec_prohibits:", '    "9.9Z"', "  rail_hq:")
    rail = line['    "9.9Z"']
    assert f"{where}:{line['  no_pth:']}:3: refusals.no_pth: unknown key 'no_pth' (did you mean 'no_path'?)" in out
    assert any(o.startswith(f"{where}:{line['  tec_prohibits:']}:") and "refusals.tec_prohibits" in o
               and "placeholder {hex} is not filled in (this text has {target})" in o for o in out), out
    assert any(o.startswith(f"{where}:{rail}:5: forbidden.rail.9.9Z: key: case '9.9Z' is not in the pack's case index")
               for o in out), out
    assert f"{where}:{line['  rail_hq:']}:3: events.rail_hq: expected a list, got '9.9E'" in out
    assert out[-1].endswith(": 5 errors")  # and `no_path` missing
    with pytest.raises(ContentError, match="unknown key 'no_pth'"):
        Engine.load(pack)
