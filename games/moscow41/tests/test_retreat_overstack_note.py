"""``ask retreat`` notes a path that ends overstacked (session 18, a fresh user's report): a Soviet
division hemmed in by five German divisions may retreat only into 0305, held by two Soviet
divisions — 6 stacking points where the limit is 5 (6.0B) — which 6.2F allows ("if no other route
is available, a unit can retreat into a friendly-occupied hex, resulting in an overstack
situation") and 6.2E punishes at the end of the Movement Step. The option stays legal and
offered; it says the overstack and cites those cases. A path within the limit says nothing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli as main
from games.moscow41.tests.test_cookbook import ROOT

EXAMPLE = ROOT / "docs" / "examples" / "retreat.yaml"
HEMMED = """units:
  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0303", activated: true}
  - {id: g2, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0403", activated: true}
  - {id: g3, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0203"}
  - {id: g4, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0404"}
  - {id: g5, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0204"}
  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0304"}
  - {id: s2, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0305"}
  - {id: s3, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0305"}
rng: {seed: 1, state: null}
"""


def _options(path, hexes: int = 1) -> list[dict]:
    r = CliRunner().invoke(main, ["ask", str(path), "retreat", "s1", "--hexes", str(hexes), "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)["options"]


@pytest.mark.case("6.2F", "6.2E")
def test_6_2F_a_retreat_into_an_overstack_is_offered_and_says_it_overstacks(tmp_path):
    hemmed = tmp_path / "hemmed.yaml"
    hemmed.write_text(EXAMPLE.read_text().split("units:", 1)[0] + HEMMED)
    [only] = _options(hemmed)
    assert (only["path"], only["offered"], only["losses"]) == (["0305"], True, 0)
    assert only["overstacks"] == "0305: 6 stacking points, limit 5"
    assert only["cases"] == ["11.2B", "11.2C", "6.2F", "7.5A", "6.2E"]
    within = _options(EXAMPLE, 2)  # 0204 → 0205 ends beside s2: two divisions, 4 points of 5
    assert ["0204", "0205"] in [o["path"] for o in within] and not any("overstacks" in o for o in within)


@pytest.mark.case("6.2F", "6.2E")
def test_6_2F_play_notes_a_listed_retreat_into_an_overstack(m41):
    """The same hemmed division after a -/2 (11.0B: two hexes of retreat and/or losses), every hex
    beyond 0305 in a German ZOC: it retreats into 0305 and takes a loss for the hex short (11.2B),
    or takes the losses in place. The retreat play lists says it overstacks 0305
    (``casebook_stacking_note``, which play's list of actions asks); the others say nothing."""
    from casebook.games.moscow41.plugins import results
    from games.moscow41.tests._fakes import FakeAreas, engine_with
    from tests.conftest import m41_inline, make_ctx

    fake = FakeAreas()  # supply and command as configured, ZOC as listed; the real stacking area
    fake.zoc["soviet"] = {"0306", "0205", "0405", "0204", "0404", "0203", "0303", "0403"}
    engine = engine_with(m41, fake_areas=fake)
    units = "".join(line + "\n" for line in HEMMED.splitlines()[1:-1])
    ctx = make_ctx(engine, m41_inline(units, ip="{german: 5, soviet: 5}"), trace=True)
    results.apply_outcome(ctx, {"attackers": ["g1", "g2"], "defenders": ["s1"], "hex": "0304", "kind": "attack",
                                "attacker_side": "german", "defender_side": "soviet", "result": "-/2"}, True)
    offers = results.casebook_legal_actions(ctx, "first_player", "combat")
    notes = [(str(a), ctx.hook.casebook_stacking_note(ctx=ctx, action=a)) for a in offers]
    into = [n for a, n in notes if "path=0305" in a]
    assert into == ["overstacks 0305: 6 stacking points, limit 5 (6.2F, 7.5A, 6.2E)"]
    assert all(n is None for a, n in notes if "path=0305" not in a)  # the losses taken in place: no note
