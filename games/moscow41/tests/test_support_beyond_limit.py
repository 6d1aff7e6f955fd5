"""Support beyond the DRM limit is paid, and warned of (session 18's fresh user: `support=10` was
paid in full while only +4 counted, silently). 10.4.5C: "The total adjusted DRM can never be
greater than +4 or less than -4. This limit applies after calculations have been completed."
Nothing forbids paying more (10.4.2A: "Combat support is bought by spending IPs"), so the attack
stays legal; ``ask attack``, the ``combat`` event and play's account say how many of the IPs buy
no DRM that counts, in the account's words for the limit (``areas/combat_words.limit_words``).

docs/examples/attack.yaml: g1 and the armoured g2 attack s1 in the forest 0304 — DRM -1 (10.4B),
+2 (10.4.1A); 10 German IPs buy +5 (10.4.2A: 2 a DRM): +6, limited to +4, so 2 DRMs (4 IPs) count
for nothing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.areas.combat_words import limit_words, wasted_drm
from casebook.content.position import load_position, position_to_dict
from casebook.tools.cli import cli as main
from games.moscow41.tests.test_cookbook import ROOT
from games.moscow41.tests.test_decisions_attackers import game  # noqa: F401 (the game fixture)

EXAMPLE = ROOT / "docs" / "examples" / "attack.yaml"
GERMAN = "10 german IPs of support: 4 of them buy no DRM that counts: DRM +6 limited to +4 (10.4.5C)"


def _ask(*args: str) -> str:
    r = CliRunner().invoke(main, ["ask", str(EXAMPLE), "attack", "0304", "--with", "g1,g2", *args])
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.case("10.4.5C", "10.4.2A")
def test_10_4_5C_ask_attack_warns_of_support_beyond_the_limit_and_says_the_limit():
    answer = json.loads(_ask("--support", "10,0", "--json"))
    assert answer["legal"] is True  # paid, not refused: no case forbids it
    assert (answer["drm"]["raw"], answer["drm"]["net"]) == (6, 4)
    assert answer["drm"]["limit"] == "DRM +6 limited to +4 (10.4.5C)"
    assert answer["warnings"] == [{"warning": GERMAN, "cases": ["10.4.5C", "10.4.2A"]}]
    text = _ask("--support", "10,0")
    assert "  limit: DRM +6 limited to +4 (10.4.5C)" in text.splitlines() and GERMAN in text
    within = json.loads(_ask("--support", "2,0", "--json"))  # +1 of support: +2 in all, within the limit
    assert "limit" not in within["drm"] and "warnings" not in within


@pytest.mark.case("10.4.5C", "10.4.5B")
def test_10_4_5C_the_rulebook_example_wastes_nothing_and_the_side_over_the_limit_does():
    """10.4.5C's example: "Attacker with a +7 DRM against a defender with a -3 DRM would have a
    final +4 DRM" — they cancel first (10.4.5B), nothing is beyond the limit. At +8 against -3 the
    attacker's +1 beyond +4 and all the defender's -3 change nothing (+8 alone is limited to +4)."""
    assert (wasted_drm("attacker", 7, 4, 4), wasted_drm("defender", 3, 4, 4)) == (0, 0)
    assert (wasted_drm("attacker", 8, 5, 4), wasted_drm("defender", 3, 5, 4)) == (1, 3)
    assert (wasted_drm("defender", 3, -6, -4), wasted_drm("attacker", 2, -6, -4)) == (2, 2)
    assert limit_words(-6, -4, ("10.4.5C",)) == "DRM -6 limited to -4 (10.4.5C)"


@pytest.mark.case("10.4.5C", "10.4.2A")
def test_10_4_5C_play_pays_the_support_and_its_event_and_account_warn(game):  # noqa: F811
    from casebook.tools.account import Narrator, narrate_all

    state = game.state_from_dict(position_to_dict(load_position(EXAMPLE.read_text(), pack=game.engine.pack)))
    state.apply("german: attack hex=0304 with=g1,g2 support=10")
    state.apply("soviet: support ips=3")  # -1: +5 in all, still beyond +4: the Soviet IPs change nothing
    assert state.data.track("ip", "german") == 0 and state.data.track("ip", "soviet") == 3  # paid in full
    [event] = [e for e in state.trace if e.kind == "combat"]
    limited = "DRM +5 limited to +4 (10.4.5C)"
    warned = [f"10 german IPs of support: 2 of them buy no DRM that counts: {limited}",
              f"3 soviet IPs of support: 3 of them buy no DRM that counts: {limited}"]
    assert [w["warning"] for w in event.data["warnings"]] == warned and event.data["drm"] == 4
    told = "\n".join(narrate_all(list(state.trace), Narrator.for_engine(game.engine)))
    assert f"roll {event.data['roll']}, {limited} → {event.data['modified_roll']}" in told
    assert all(f"warning: {w}  [10.4.5C, 10.4.2A]" in told for w in warned)
