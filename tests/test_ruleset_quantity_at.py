"""``RuleSet.quantity_at``: the compiled rule scripts say which quantity a ``file:line`` (as trace
events name lines) belongs to — what the account's column-shift words ask (``areas/combat_words.
shift_terms``; session 19's final read: they read the script's text upward with a regex). Moscow
'41's combat.rules: ``attack_drm`` (10.4.5B, its 10.4.5C clamp at line 31), ``loss_shift`` (10.3B-C,
lines 65-67), permissions between them (10.7A at line 56)."""

from __future__ import annotations

import pytest

from casebook.core.game import Game


@pytest.fixture(scope="module")
def rules():
    return Game.load("moscow41", "october-blitz").engine.rules


@pytest.mark.case("10.3B", "10.3C")
def test_10_3B_the_loss_marker_lines_belong_to_loss_shift(rules):
    assert [rules.quantity_at(f"combat.rules:{n}") for n in (64, 65, 66, 67, 68)] == \
        [None, "loss_shift", "loss_shift", "loss_shift", None]


@pytest.mark.case("10.4.5C")
def test_10_4_5C_a_bound_line_belongs_to_its_quantity_and_a_permission_line_to_none(rules):
    assert rules.quantity_at("combat.rules:31") == "attack_drm"  # clamp -4 to +4 by 10.4.5C
    assert rules.quantity_at("combat.rules:56") is None  # forbid note_guards by 10.7A
    assert rules.quantity_at("nowhere.rules:1") is None and rules.quantity_at("") is None
