"""Issue #15's trial 13 gaps: the lines behind a number are named where the number is shown —
the IP dice (``ip_dice``) in the collection's ``roll`` and ``ip-collection`` events; each town's
IP (``town_ip``) in ``ask income`` / ``ask vp``."""

from __future__ import annotations

from casebook.areas.initiative import collect_ips
from games.moscow41.tests.test_moved_rules_b import _ip_ctx, edited
from tests._pack_edits import GAMES, line_of

DICE = "otherwise 1d6  by 0.7.2.1B, 1.0C"


def _sources(lines):
    return [ln["source"] for ln in lines]


def test_0_7_2_1B_the_collection_events_name_the_ip_dice_line(m41, tmp_path):
    engine = edited(m41, tmp_path, "initiative.rules", DICE,
                    f"2d6  by 0.7.2.1B, 1.0C  when turn >= 2\n  {DICE}")
    ctx = _ip_ctx(engine)  # turn 5: the modder's 2d6 line fires
    collect_ips(ctx, "german")
    roll = next(e for e in ctx.trace if e.kind == "roll")
    collection = next(e for e in ctx.trace if e.kind == "ip-collection")
    two = f"initiative.rules:{line_of(tmp_path / 'moscow41/rules/initiative.rules', '2d6  by 0.7.2.1B')}"
    assert roll.data["dice"] == 2
    assert [s.rsplit("/", 1)[-1] for s in _sources(roll.data["lines"])] == [two]
    assert two in [s.rsplit("/", 1)[-1] for s in _sources(collection.data["lines"])]


def test_0_7_2_1B_the_shipped_dice_line_is_named_with_a_given_roll(m41):
    ctx = _ip_ctx(m41)
    collect_ips(ctx, "german", die=3)  # a given roll: the collection still names the dice line
    collection = next(e for e in ctx.trace if e.kind == "ip-collection")
    one = f"initiative.rules:{line_of(GAMES / 'moscow41/rules/initiative.rules', DICE)}"
    assert one in _sources(collection.data["lines"])


def _line(text: str) -> str:
    return f"initiative.rules:{line_of(GAMES / 'moscow41/rules/initiative.rules', text)}"


def test_1_1C_ask_income_names_the_initiative_chart_line_of_each_towns_ip():
    from casebook.tools.cmd_ask import ask_position

    answer = ask_position(str(GAMES.parent / "docs/examples/income-turn13.yaml"), "income", ["german"], {"roll": 5})
    assert [t["ip"] for t in answer["held"]] == [1, 2, 3, 2, 1, 1, 2]  # the chart's rows (0.2.2.10)
    assert _line("table initiative_chart[hex: hex].ip") in _sources(answer["lines"])
    assert {"0.2.2.10", "1.1C"} <= set(answer["cases"])


def test_1_1A_ask_vp_names_the_town_ip_line_of_a_positions_own_map():
    from casebook.tools.cmd_ask import ask_position

    answer = ask_position(str(GAMES.parent / "docs/examples/vp-endgame.yaml"), "vp", [], {})
    assert [t["ip"] for t in answer["soviet"]["towns"]] == [1, 3]  # the position's own map's towns
    assert _line("otherwise map_town_ip  by 1.1A") in _sources(answer["lines"])


def test_0_7_2_1B_explain_prints_the_ip_dice_line_of_a_played_collection():
    from click.testing import CliRunner

    from casebook.tools.cli import cli

    trace = GAMES / "moscow41/golden/october-blitz-greedy-seed1.jsonl"  # seq 10: the roll; 11: the collection
    dice = f"{_line(DICE)}  {DICE}"
    for seq, kind in (("10", "roll"), ("11", "ip-collection")):
        out = CliRunner().invoke(cli, ["explain", str(trace), seq]).output
        assert f"· {kind} ·" in out and dice in out, out
