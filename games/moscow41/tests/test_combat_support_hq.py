"""10.4.2B on the full Moscow '41 engine: "This path must be to the activating HQ for the attacker
or to any HQ for the defender." (setting ``combat_support_hq``, interpretation
combat-support-every-unit; ``any`` is the other reading, kept as a setting).

Inline 10 x 3 map (flat-top-even-q), the German west-edge supply source is column 01 (5.1A).
The German infantry g1 in 0503 was activated by HQ h1 in 0103 (radius 2: 0503 is 4 hexes away,
out of its radius); HQ h2 in 0403 (radius 2) is next to it. The Soviet s1 stands in 0603.
"""

from __future__ import annotations

import pytest

from casebook.areas import combat
from casebook.areas._combat_listing import attack_actions
from tests.conftest import m41_inline

HQ = "side: german, class: hq, strength: 0, ma: 6, limit: 3"
INF = "side: german, class: infantry, size: division, strength: 7, ma: 4"
SOV = "side: soviet, class: infantry, size: division, strength: 6, ma: 4"


def pos(setting=None, activated_by="h1"):
    settings = f"settings: {{combat_support_hq: {setting}}}" if setting else ""
    return m41_inline(f"""  - {{id: h1, {HQ}, radius: 2, hex: "0103", activated: true}}
  - {{id: h2, {HQ}, radius: 2, hex: "0403"}}
  - {{id: g1, {INF}, hex: "0503", activated: true}}
  - {{id: s1, {SOV}, hex: "0603"}}""", size="{columns: 10, rows: 3}", ip="{german: 10, soviet: 10}",
                      extra=f"{settings}\nplugin_state: {{command: {{activated_by: {{g1: {activated_by}}}}}}}")


def supports(ctx):
    return sorted(a.get("support") for a in attack_actions(ctx, "german", "attack") if a.get("with") == ("g1",))


@pytest.mark.case("10.4.2B", "2.3B")
def test_10_4_2B_attacker_support_path_must_be_to_the_activating_hq(position):
    ctx = position(pos())
    command = ctx.hook.casebook_answer(ctx=ctx, question="command", args=["g1"], options={})
    assert command["in_command"] is True and [e["hq"] for e in command["hqs"]] == ["h2"]
    assert command["activated_by"] == "h1"
    a = combat.attack_answer(ctx, "0603", ["g1"], support=(2, 0))
    assert a["legal"] is False and "10.4.2B" in a["cases"]
    assert supports(ctx) == [0]
    # activated by h2, whose radius covers it: support may be bought (2 German IPs a DRM, 10.4.2A)
    by_h2 = position(pos(activated_by="h2"))
    assert combat.attack_answer(by_h2, "0603", ["g1"], support=(2, 0))["legal"] is True
    assert 0 in supports(by_h2) and max(supports(by_h2)) >= 2


@pytest.mark.case("10.4.2B")
def test_10_4_2B_setting_any_hq_keeps_the_other_reading(position):
    ctx = position(pos(setting="any"))
    assert combat.attack_answer(ctx, "0603", ["g1"], support=(2, 0))["legal"] is True
