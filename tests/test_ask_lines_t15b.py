"""Which lines an answer names (docs/rule-language.md "Which lines an event names"): a line is named
when its condition held and it made the value or verdict what it is — only those. Exact
``file:line`` sets, each quoted from the rule script."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.tools.cmd_ask import ask_position

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
RULES = ROOT / "games" / "moscow41" / "rules"


def _text(source: str) -> str:
    file, _, n = source.partition(":")
    return (RULES / file).read_text(encoding="utf-8").split("\n")[int(n) - 1].split("#")[0].strip()


@pytest.mark.case("5.2B", "5.2C")
def test_5_2B_supply_on_a_map_with_no_rail_names_no_rail_forbid():
    """supply-road.yaml's map has no rail: the forbid on German rail supply lines (5.2B, 5.2C)
    decides nothing there and is not named (it was, as if it had made the route)."""
    answer = ask_position(str(EXAMPLES / "supply-road.yaml"), "supply", ["g1"], {})
    sources = {ln["source"] for ln in answer["lines"] if ln["source"].startswith("supply.rules:")}
    # nor the through-enemy forbid (supply.rules:27, 5.4A): g1's road path (1202 to 0102) passes no
    # hex next to the Soviet s1 in 1502, so no search met an enemy-occupied hex (session 16)
    assert sources == {"supply.rules:7", "supply.rules:50"}
    assert _text("supply.rules:7") == "otherwise 8  by 5.2B, 5.2C"
    assert _text("supply.rules:50") == "forbid supply_line_off_hexside by 5.2D"
    assert not any("line_kind is rail" in ln["text"] for ln in answer["lines"])


@pytest.mark.case("0.7.2.1B")
def test_0_7_2_1B_ask_income_names_the_ip_dice_line_that_fired(tmp_path):
    """A modder's ``2d6 by 0.7.2.1B when turn >= 2`` on ``ip_dice``: the collection's roll event
    named it, ``ask income`` did not; now its answer (terms and lines) does, and the shipped
    ``otherwise 1d6`` line when that is the one that gave the dice."""
    from casebook.tools.cmd_ask import _ask_position
    from tests._pack_edits import copy_edited

    pack = copy_edited(tmp_path, "rules/initiative.rules", (
        "quantity ip_dice = first by 0.7.2.1B\n",
        "quantity ip_dice = first by 0.7.2.1B\n  2d6 by 0.7.2.1B  when turn >= 2\n"))
    position = str(EXAMPLES / "income-turn13.yaml")
    answer = _ask_position(position, "income", ["german"], {"roll": 10}, str(pack))[0]
    dice = [(t["source"], t["text"]) for t in answer["terms"] if t["quantity"] == "ip_dice"]
    assert dice == [("initiative.rules:81", "2d6 by 0.7.2.1B  when turn >= 2")]
    assert answer["range"] == [19 + 7 + 2, 19 + 7 + 12] and answer["total"] == 19 + 10 + 7
    lines = {ln["source"] for ln in answer["lines"] if ln["source"].startswith("initiative.rules:8")}
    assert lines == {"initiative.rules:81"}
    shipped = ask_position(position, "income", ["german"], {"roll": 5})
    assert [t["source"] for t in shipped["terms"] if t["quantity"] == "ip_dice"] == ["initiative.rules:81"]
    assert _text("initiative.rules:81") == "otherwise 1d6  by 0.7.2.1B, 1.0C"
    assert "initiative.rules:81" in {ln["source"] for ln in shipped["lines"]}


@pytest.mark.case("6.0A", "5.2B")
@pytest.mark.parametrize("label, column, suggestion", [("6.0AB", 8, "6.0A"), ("5.2b", 8, "5.2B")])
def test_6_0A_a_malformed_case_label_is_not_a_case_id_with_a_did_you_mean(tmp_path, label, column, suggestion):
    """`4 by 6.0AB` said "syntax error: unexpected `.`" with no hint; it is located at the word,
    caret under it, with the closest case of the index, as an unknown well-formed case is."""
    from click.testing import CliRunner

    from casebook.tools.cli import cli
    from tests._pack_edits import copy_edited

    pack = copy_edited(tmp_path, "rules/stacking.rules",
                       ("  4 by 6.0A  when side is german", f"  4 by {label}  when side is german"))
    out = CliRunner().invoke(cli, ["rules", "check", str(pack / "rules")])
    assert out.exit_code == 1, out.output
    first, src, caret = out.output.splitlines()[:3]
    assert first == (f"{pack / 'rules'}/stacking.rules:15:{column}: not a case id: `{label}` — "
                     f"did you mean `{suggestion}`?")
    assert caret == " " * (4 + column - 1) + "^" * len(label) and src.strip().startswith(f"4 by {label}")


@pytest.mark.case("6.2B", "6.0B")
def test_6_2B_a_move_refused_overstacked_names_the_limit_and_points_lines():
    """`ask rail 0106` (docs/examples/rail.yaml): the rail move refused "0306 would hold 8
    stacking points against a limit of 5" named the end_move_overstacked forbid only; now also the
    lines of its numbers: the Soviet limit of 5 and the points of the units moved (a division 2,
    an HQ 0) — not the German lines that did not fire."""
    answer = ask_position(str(EXAMPLES / "rail.yaml"), "rail", ["0106"], {})
    refusal = next(r for r in answer["refusals"] if "overstacked" in r["reason"])
    assert refusal["reason"] == "a move cannot end overstacked: 0306 would hold 8 stacking points against a limit of 5"
    stacking = {ln["source"] for ln in answer["lines"] if ln["source"].startswith("stacking.rules:")}
    assert stacking == {"stacking.rules:9", "stacking.rules:10", "stacking.rules:14", "stacking.rules:26"}
    assert _text("stacking.rules:14") == "otherwise 5  by 6.0B"
    assert _text("stacking.rules:26").startswith("forbid end_move_overstacked  by 6.2B, 6.2A")
    assert _text("stacking.rules:10").startswith("2 by 6.0B  when side is soviet")
    assert _text("stacking.rules:9").startswith("0 by 6.1")


@pytest.mark.case("8.1B")
def test_8_1B_ask_command_with_no_enemy_on_the_map_names_no_through_enemy_forbid(tmp_path):
    """command-hqs.yaml has no Soviet unit: the forbid on command paths through enemy units
    (command.rules:35, 8.0A, 8.1B) blocks no hex and is not named; a Soviet unit added far off
    (0101) is a hex it blocks, and the line is named again."""
    def sources(path: Path) -> list[str]:
        return [ln["source"] for ln in ask_position(str(path), "command", ["pz"], {})["lines"]]

    assert _text("command.rules:35") == "forbid trace_command_through_enemy by 8.0A, 8.1B"
    assert sources(EXAMPLES / "command-hqs.yaml") == [
        "command.rules:55", "command.rules:58", "command.rules:31", "command.rules:17"]
    text = (EXAMPLES / "command-hqs.yaml").read_text(encoding="utf-8")
    enemy = tmp_path / "enemy.yaml"
    enemy.write_text(text + '  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, '
                     'hex: "0101"}\n', encoding="utf-8")
    assert "command.rules:35" in sources(enemy)
