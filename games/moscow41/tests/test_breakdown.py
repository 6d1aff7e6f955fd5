"""German infantry breakdown and recombination (13.0)."""

from __future__ import annotations

import pytest

from casebook.areas import breakdown as B
from casebook.core.actions import Action
from tests.conftest import make_ctx


def pos(m41, units: str, step: str = "command", phasing: str = "german"):
    return make_ctx(m41, f"""
kind: position
format: 1
game: moscow41
map: {{layout: flat-top-even-q, size: {{columns: 6, rows: 6}}, terrain: {{default: clear}}}}
phase: first_player
step: {step}
phasing: {phasing}
units:
{units}
""", trace=True)


DIV = "  - {counter: g-6id, hex: '0303', activated: true}"


def cases(ctx, action):
    return {c for r in B.casebook_validate_action(ctx, action) for c in r.cases}


def breakdown(side="german", unit="g-6id"):
    return Action.make("breakdown", side, unit=unit)


@pytest.mark.case("13.0A")
def test_13_0A_division_breaks_into_regiments_and_back(m41):
    ctx = pos(m41, DIV)
    result = B.casebook_apply_action(ctx, breakdown())
    assert result["regiments"] == ["g-ir-01", "g-ir-02", "g-ir-03"]
    assert [u["id"] for u in ctx.state.units_at("0303")] == ["g-ir-01", "g-ir-02", "g-ir-03"]
    # reconstructed strengths (counters.yaml, force ratio of 2 Oct 1941): regiment 3, division 10
    assert all(u["strength"] == 3 and u["size"] == "regiment" for u in ctx.state.units_at("0303"))
    back = Action.make("recombine", "german", units=["g-ir-01", "g-ir-02", "g-ir-03"], into="g-6id")
    assert back in B.casebook_legal_actions(ctx, "first_player", "command")
    B.casebook_apply_action(ctx, back)
    assert [u["id"] for u in ctx.state.units_at("0303")] == ["g-6id"]
    assert ctx.state.unit("g-6id")["strength"] == 10 and not ctx.state.unit("g-6id").get("losses")


@pytest.mark.case("13.0B")
def test_13_0B_only_in_command_or_movement_step_when_activated(m41):
    assert cases(pos(m41, DIV.replace("activated: true", "activated: false")), breakdown()) == {"13.0B"}
    assert cases(pos(m41, DIV, step="combat"), breakdown()) == {"13.0B"}
    assert cases(pos(m41, "  - {counter: s-133rd, hex: '0303', activated: true}", phasing="soviet"),
                 breakdown("soviet", "s-133rd")) == {"13.0A"}


@pytest.mark.case("13.0C")
def test_13_0C_break_down_during_movement_regiments_stay_activated(m41):
    ctx = pos(m41, DIV, step="movement")
    assert breakdown() in B.casebook_legal_actions(ctx, "first_player", "movement")
    result = B.casebook_apply_action(ctx, breakdown())
    assert "13.0C" in result["cases"]
    assert all(u["activated"] for u in ctx.state.units_at("0303"))


@pytest.mark.case("13.0C", "9.1D")
def test_13_0C_broken_down_mid_move_regiments_go_on_with_the_mps_left(m41):
    """13.0C: a division broken down during its movement (no MP cost) is replaced by regiments
    that continue its move with the MPs it has left — not a fresh move with a full MA — and, its
    move over, they cannot move again (9.1D). The division (MA 4) spent 2 MPs (two clear hexes)."""
    from casebook.games.moscow41.plugins import movement as mv
    from casebook.games.moscow41.plugins._movement_state import data, finish_current, save

    ctx = pos(m41, DIV, step="movement")

    def longest(hex_):
        paths = [a.get("path") for a in mv.casebook_legal_actions(ctx, "first_player", "movement")
                 if a.kind == "move" and a.get("stack") == hex_]
        return max((len(p) for p in paths), default=0)
    assert longest("0303") == 4
    mv.casebook_apply_action(ctx, Action.make("move", "german", stack="0303", path=["0304", "0305"]))
    assert longest("0305") == 2
    B.casebook_apply_action(ctx, breakdown())
    assert longest("0305") == 2  # the MPs left, not the regiments' full MA of 4
    cur = ctx.state.plugin_data("movement")["current"]
    assert (cur["units"], cur["spent"]) == (["g-ir-01", "g-ir-02", "g-ir-03"], 2)
    mv.casebook_apply_action(ctx, Action.make("move", "german", stack="0305", path=["0306"]))
    d = data(ctx)
    finish_current(ctx, d)  # the move ends (e.g. another stack starts moving, 9.1D)
    save(ctx, d)
    assert sorted(d["moved"]) == ["g-ir-01", "g-ir-02", "g-ir-03"] and longest("0306") == 0


@pytest.mark.case("13.0C")
def test_13_0C_breakdown_mp_cost_line_decides_what_a_breakdown_costs_mid_move(m41, tmp_path):
    """apply_breakdown reads `breakdown_mp_cost`: no MPs (13.0C) — the regiments of a division that
    spent 2 of its 4 MPs go on with 2 (the breakdown event cites the line); with the line's 0
    edited to 1, with 1."""
    from games.moscow41.tests.test_moved_rules import edited

    def left_after_breakdown(engine):
        ctx = pos(engine, DIV, step="movement")
        from casebook.games.moscow41.plugins import movement as mv
        mv.casebook_apply_action(ctx, Action.make("move", "german", stack="0303", path=["0304", "0305"]))
        B.casebook_apply_action(ctx, breakdown())
        cur = ctx.state.plugin_data("movement")["current"]
        [event] = ctx.trace.of_kind("breakdown")
        return cur["budget"] - cur["spent"], event.data["lines"]
    left, lines = left_after_breakdown(m41)
    assert left == 2 and {"source": "breakdown.rules:31", "cases": ["13.0C"]} in lines
    eng = edited(tmp_path, "breakdown.rules", "  otherwise 0  by 13.0C\n", "  otherwise 1  by 13.0C\n")
    assert left_after_breakdown(eng) == (1, lines)


@pytest.mark.case("13.0D")
def test_13_0D_one_loss_three_regiments_two_losses_two(m41):
    ctx = pos(m41, DIV.replace("}", ", losses: 1}"))
    B.casebook_apply_action(ctx, breakdown())
    assert [(u["id"], u["losses"]) for u in ctx.state.units_at("0303")] == \
        [("g-ir-01", 1), ("g-ir-02", 1), ("g-ir-03", 1)]
    ctx = pos(m41, DIV.replace("}", ", losses: 2}"))
    B.casebook_apply_action(ctx, breakdown())
    assert [(u["id"], u["losses"]) for u in ctx.state.units_at("0303")] == [("g-ir-01", 1), ("g-ir-02", 1)]
    assert cases(pos(m41, DIV.replace("}", ", losses: 3}")), breakdown()) == {"13.0D"}


@pytest.mark.case("13.0E")
def test_13_0E_recombined_division_fatigued_and_with_the_losses(m41):
    ctx = pos(m41, DIV.replace("}", ", losses: 1}"))
    B.casebook_apply_action(ctx, breakdown())
    ctx.state.update_unit("g-ir-02", fatigued=True)
    regs = ["g-ir-01", "g-ir-02", "g-ir-03"]
    ctx.state.set_sequence_position("first_player", "movement", "german")
    assert cases(ctx, Action.make("recombine", "german", units=regs, into="g-6id")) == {"13.0B", "13.0E"}
    ctx.state.set_sequence_position("first_player", "command", "german")
    result = B.casebook_apply_action(ctx, Action.make("recombine", "german", units=regs, into="g-6id"))
    assert (result["losses"], result["fatigued"]) == (1, True)
    assert ctx.state.unit("g-6id")["losses"] == 1 and ctx.state.unit("g-6id")["fatigued"] is True
    # two regiments with 1-Loss make a division with two losses (13.0D read backwards)
    ctx = pos(m41, DIV.replace("}", ", losses: 2}"))
    B.casebook_apply_action(ctx, breakdown())
    B.casebook_apply_action(ctx, Action.make("recombine", "german", units=["g-ir-01", "g-ir-02"], into="g-6id"))
    assert ctx.state.unit("g-6id")["losses"] == 2


@pytest.mark.case("13.0F")
def test_13_0F_any_regiments_recombine_into_any_division(m41):
    ctx = pos(m41, DIV + "\n  - {counter: g-26id, hex: '0304', activated: true}")
    B.casebook_apply_action(ctx, breakdown())
    B.casebook_apply_action(ctx, breakdown(unit="g-26id"))
    ctx.state.move_unit("g-ir-04", "0303")   # one of 26 ID's regiments joins two of 6 ID's
    mixed = Action.make("recombine", "german", units=["g-ir-01", "g-ir-02", "g-ir-04"], into="g-26id")
    assert cases(ctx, mixed) == set()
    B.casebook_apply_action(ctx, mixed)
    assert ctx.state.unit("g-26id")["hex"] == "0303"
    not_stacked = Action.make("recombine", "german", units=["g-ir-03", "g-ir-05"], into="g-6id")
    assert cases(ctx, not_stacked) == {"13.0E"}


# ---- the lines the shared area_breakdown reads (src/casebook/areas/breakdown.py) ---------------

@pytest.mark.case("13.0B")
def test_13_0B_the_steps_of_a_breakdown_are_a_line(m41, tmp_path):
    """Breakdown in the Command and Movement Steps only, by the phasing player: the `breakdown`
    line citing 13.0B refuses it in the Combat Step; edited to allow the Combat Step, it is offered."""
    from games.moscow41.tests.test_moved_rules import edited

    combat = pos(m41, DIV, step="combat")
    assert cases(combat, breakdown()) == {"13.0B"} and B.casebook_legal_actions(combat, "first_player", "combat") == []
    (refusal,) = B.casebook_validate_action(combat, breakdown())
    assert refusal.reason.startswith("break a German infantry division down into regiments: forbidden by 13.0B when ")
    assert refusal.reason.endswith("breakdown.rules:" + refusal.source.rsplit(":", 1)[1] + "]")
    assert cases(pos(m41, DIV, phasing="soviet"), breakdown()) == {"13.0B"}   # not the phasing player
    eng = edited(tmp_path, "breakdown.rules", "step not in [command, movement]", "step not in [command, movement, combat]")
    assert breakdown() in B.casebook_legal_actions(pos(eng, DIV, step="combat"), "first_player", "combat")


@pytest.mark.case("13.0A")
def test_13_0A_the_regiments_of_the_counter_mix_are_the_breakdown_piece_line(m41, tmp_path):
    """The pool: German infantry regiment counters not on the map, in id order (g-ir-01…);
    the `breakdown_piece` line names them — edited to German armor regiments, the pool is those."""
    from games.moscow41.tests.test_moved_rules import edited

    ctx = pos(m41, DIV)
    pool = B.piece_pool(ctx)
    assert pool[:3] == ["g-ir-01", "g-ir-02", "g-ir-03"]
    assert all(m41.pack.counters[c]["class"] == "infantry" and m41.pack.counters[c]["size"] == "regiment" for c in pool)
    line = "forbid breakdown_piece  by 13.0A  when side is soviet or unit_class is not infantry"
    eng = edited(tmp_path, "breakdown.rules", line, line.replace("infantry", "armor"))
    armor = B.piece_pool(pos(eng, DIV))
    assert armor and all(eng.pack.counters[c]["class"] == "armor" for c in armor) and not set(armor) & set(pool)


@pytest.mark.case("13.0E", "13.0F")
def test_13_0E_F_recombine_into_a_broken_down_division_and_fatigue_are_lines(m41, tmp_path):
    """13.0F: into any broken-down division off the map — a division on the map is refused by the
    `recombine … when not into_broken_down` line (13.0E, 13.0F); 13.0E: one fatigued regiment
    fatigues the division, by the `recombine_sheds_fatigue` line — deleted, the division is fresh."""
    from games.moscow41.tests.test_moved_rules import edited

    def recombined(engine):
        ctx = pos(engine, DIV + "\n  - {counter: g-26id, hex: '0305', activated: true}")
        B.casebook_apply_action(ctx, breakdown())
        ctx.state.update_unit("g-ir-02", fatigued=True)
        regs = ["g-ir-01", "g-ir-02", "g-ir-03"]
        on_map = Action.make("recombine", "german", units=regs, into="g-26id")
        refused = cases(ctx, on_map)
        return refused, B.casebook_apply_action(ctx, Action.make("recombine", "german", units=regs, into="g-6id"))

    refused, result = recombined(m41)
    assert refused == {"13.0E", "13.0F"} and result["fatigued"] is True
    eng = edited(tmp_path, "breakdown.rules", "forbid recombine_sheds_fatigue  by 13.0E  when any regiment has fatigued\n", "")
    assert recombined(eng)[1]["fatigued"] is False
