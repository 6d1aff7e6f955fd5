"""Issue #15, trial 13's gaps in the tools: a DRM term's condition read from its script line
drops the line's trailing comment (as the ``lines:`` block does)."""

from __future__ import annotations

from casebook.tools.account import term_words


def test_10_4_1A_a_drm_terms_condition_drops_the_lines_trailing_comment(tmp_path):
    (tmp_path / "combat.rules").write_text(
        "quantity drm = sum by 10.4\n"
        "  +1 by 10.4.1A  when count(attackers having class is infantry) >= 2   # house rule: massed\n",
        encoding="utf-8")
    words = term_words({"case": "10.4.1A", "value": 1, "source": "combat.rules:2"},
                       {"10.4.1A": "Armor DRMs, A"}, tmp_path)
    assert words == " +1  10.4.1A Armor DRMs, A — count(attackers having class is infantry) >= 2"
