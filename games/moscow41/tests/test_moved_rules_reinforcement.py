"""Reinforcement and replacement rules moved from Moscow '41 Python into rule scripts (issue
#15, part B; split from games/moscow41/tests/test_moved_rules_b.py): 12.1-12.4 — RPs, rebuilding,
blocked entries, withdrawals and substitutes. A copy of the pack's scripts with one line edited
is compiled into an engine and play changes."""

from __future__ import annotations

import pytest

from casebook.script.engine import Engine
from games.moscow41.tests.test_moved_rules_b import _entry_ctx, edited

# ---- replacements and rebuilding (12.2G, 12.3B, 12.4D) ------------------------------------------

def _ctx(engine: Engine, text: str):
    from tests.conftest import make_ctx

    return make_ctx(engine, "kind: position\nformat: 1\ngame: moscow41\nturn: 5\n"
                            "weather: {temperature: warm, ground: dry}\n"
                            "phase: first_initiative\nstep: replacement_reinforcement\nphasing: soviet\n" + text)


@pytest.mark.case("12.2G")
def test_12_2G_an_rp_keeps_the_fatigue_until_the_script_line_goes(m41, tmp_path):
    from casebook.areas.replacements import apply_assign
    from casebook.core.actions import Action
    from casebook.games.moscow41.plugins.reinforcement import replacements

    unit = ("units:\n  - {counter: s-133rd, hex: '0309', losses: 1, fatigued: true}\n"
            "rp: {soviet: {infantry: 1, armor: 0}, german: {infantry: 0, armor: 0}}\n")
    assign = Action.make("assign-rp", "soviet", unit="s-133rd", rp="infantry")
    ctx = _ctx(m41, unit)
    apply_assign(ctx, replacements(ctx), assign)
    assert ctx.state.unit("s-133rd").get("fatigued") is True and not ctx.state.unit("s-133rd").get("losses")
    house = edited(m41, tmp_path, "reinforcement.rules", "forbid replacement_removes_fatigue  by 12.2G", "")
    ctx = _ctx(house, unit)
    apply_assign(ctx, replacements(ctx), assign)
    assert not ctx.state.unit("s-133rd").get("fatigued")


@pytest.mark.case("12.4D")
def test_12_4D_an_asterisked_division_is_rebuilt_once_the_script_line_goes(m41, tmp_path):
    from casebook.areas.replacements import rebuildable
    from casebook.games.moscow41.plugins.reinforcement import replacements

    marked = {**m41.pack.counters["s-133rd"], "withdraw": 22}
    ctx = _ctx(m41, "")
    assert rebuildable(ctx, replacements(ctx), marked, "soviet") is False
    house = edited(m41, tmp_path, "reinforcement.rules", "forbid rebuild_as  by 12.4D  when withdraw_marked", "")
    ctx = _ctx(house, "")
    assert rebuildable(ctx, replacements(ctx), marked, "soviet") is True


# ---- reinforcement entry and withdrawal (12.1B, 12.1D, 12.4C) ------------------------------------

@pytest.mark.case("12.1B")
def test_12_1B_a_blocked_reinforcement_waits_the_scripts_turns(m41, tmp_path):
    from casebook.games.moscow41.plugins import reinforcement as R
    from games.moscow41.tests._fakes import FakeAreas

    blockers = "units:\n  - {counter: s-133rd, hex: '0401'}\n  - {counter: s-174rd, hex: '0501'}"

    def pending(engine):
        ctx = _entry_ctx(engine, blockers, turn=4, phasing="german")
        R.casebook_step_start(ctx, "first_initiative", "replacement_reinforcement")
        return [dict(p) for p in ctx.state.pending if p["unit"] == "g-31id"]

    fake = FakeAreas()
    plain = edited(m41, tmp_path / "a", "reinforcement.rules", "# 12.1F: a", "# 12.1F: a", fake=fake)
    assert pending(plain) == [{"unit": "g-31id", "turn": 5, "area": "A"}]
    two = edited(m41, tmp_path / "b", "reinforcement.rules", "  otherwise 1  by 12.1B\n", "  otherwise 2  by 12.1B\n",
                 fake=fake)
    assert pending(two) == [{"unit": "g-31id", "turn": 6, "area": "A"}]


@pytest.mark.case("12.1D")
def test_12_1D_entry_into_an_enemy_hex_is_the_scripts_forbid_line(m41, tmp_path):
    from casebook.areas.reinforcement import placeable

    text = "units:\n  - {counter: g-102id, hex: '0603'}\n"
    assert placeable(_entry_ctx(m41, text), "0603", "soviet", railhead=False) is False
    assert placeable(_entry_ctx(m41, text), "0505", "soviet", railhead=False) is True
    house = edited(m41, tmp_path, "reinforcement.rules",
                   "forbid place_reinforcement  by 12.1D         when enemy_occupied", "")
    assert placeable(_entry_ctx(house, text), "0603", "soviet", railhead=False) is True


@pytest.mark.case("12.4C")
def test_12_4C_a_withdrawal_costs_the_scripts_ips(m41, tmp_path):
    from casebook.areas.reinforcement import withdraw_due
    from games.moscow41.tests._fakes import FakeAreas

    row = {"unit": "s-133rd", "type": "rifle division", "strength": 6, "side": "soviet", "turn": 10}
    unit = "units:\n  - {counter: s-133rd, hex: '0303'}\n"

    def ips_after(engine):
        ctx = _entry_ctx(engine, unit + f"plugin_state: {{reinforcement: {{owed: [{_flow(row)}]}}}}")
        done = withdraw_due(ctx, "soviet")
        assert [d["unit"] for d in done] == ["s-133rd"]
        return ctx.state.track("ip", "soviet")

    fake = FakeAreas()
    assert ips_after(edited(m41, tmp_path / "a", "reinforcement.rules", "# 12.1F: a", "# 12.1F: a", fake=fake)) == 10
    costly = edited(m41, tmp_path / "b", "reinforcement.rules", "  otherwise 0  by 12.4C", "  otherwise 1  by 12.4C",
                    fake=fake)
    assert ips_after(costly) == 9


def _flow(row: dict) -> str:
    return "{" + ", ".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {v}" for k, v in row.items()) + "}"


@pytest.mark.case("12.4A")
def test_12_4A_which_units_may_substitute_is_the_scripts(m41, tmp_path):
    from casebook.areas.reinforcement import withdrawal_candidates
    from games.moscow41.tests._fakes import FakeAreas

    units = ("units:\n  - {id: s-weak, side: soviet, class: infantry, size: division, strength: 5, "
             "type: rifle division, hex: '0303'}\n")
    row = {"unit": "s-absent", "type": "rifle division", "strength": 6, "side": "soviet"}
    fake = FakeAreas()
    plain = edited(m41, tmp_path / "a", "reinforcement.rules", "# 12.1F: a", "# 12.1F: a", fake=fake)
    assert withdrawal_candidates(_entry_ctx(plain, units), row) == []        # 5 < 6: no substitute
    weaker = edited(m41, tmp_path / "b", "reinforcement.rules", "when not same_type or strength_difference < 0",
                    "when not same_type or strength_difference < -1", fake=fake)
    assert withdrawal_candidates(_entry_ctx(weaker, units), row) == ["s-weak"]
