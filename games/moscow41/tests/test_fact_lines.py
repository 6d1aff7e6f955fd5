"""A refusal names the lines that computed the fact its deciding line read (issue #15 deliverable
3; docs/rule-language.md, "Which lines an event names", rule 6): ``forbid build_fort by 14.1C
when not hex_supplied`` names the supply lines that left the hex unsupplied — the answer ``ask
supply`` gives of a unit there, or of the supply probe of an empty hex — and ``by 14.1E when
in_german_zoc`` the ZOC lines of the hex; in ``ask why``, at the play prompt, and the same on a
pack copy where cookbook recipe 1's Mud line shortens supply paths (its line named by ``ask
supply`` of a unit the 4-MP path leaves unsupplied, and by the refusal).

The position is docs/examples/fortification-line.yaml (Turn 5, Mud; the Soviet 133rd in 0305,
German divisions in 0304 and 0306); file:line values are those of the shipped rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.tools.cli import cli
from tests._pack_edits import copy_edited

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "docs" / "examples" / "fortification-line.yaml"
GERMANS = '  - {counter: g-6id, hex: "0304"}\n  - {counter: g-26id, hex: "0306"}\n'
MUD_LINE = "  4            by 5.2B        when ground in [mud, drying]\n"   # cookbook recipe 1


def _ask(position: Path, *args: str) -> dict:
    import json

    out = CliRunner().invoke(cli, ["ask", str(position), *args, "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _sources(answer: dict) -> list[str]:
    return [ln["source"] for ln in answer.get("lines", [])]


@pytest.mark.case("14.1C", "14.1E")
def test_14_1C_a_refused_fortification_names_the_supply_and_zoc_lines_of_its_hex():
    """0305 (the 133rd's hex): unsupplied (the enemy units and EZOCs around it, 5.4A-B, and the
    8-MP path, 5.2B-C) and in a German ZOC (7.0A, 7.1A): before, only fortification.rules:10, 12."""
    answer = _ask(EXAMPLE, "why", "build-fort hex=0305")
    assert answer["cases"] == ["14.1C", "14.1E"]
    # the length, the EZOC blocks, the through-enemy forbid (its search met the Germans in 0304, 0306)
    assert _sources(answer) == ["supply.rules:7", "zoc.rules:28", "supply.rules:27", "zoc.rules:20", "zoc.rules:19",
                                "fortification.rules:10", "fortification.rules:12"]
    supply = _ask(EXAMPLE, "supply", "s-133rd")   # the same supply lines as the unit's own answer
    assert _sources(supply) == ["supply.rules:7", "zoc.rules:28", "supply.rules:27"]


@pytest.mark.case("14.1C", "14.1D")
def test_14_1C_an_empty_hex_names_the_lines_of_its_supply_probe():
    """0101, no unit there: the supply probe (a Soviet infantry division placed there, 14.1C)
    cannot trace supply; the refusal names the probe's supply lines, and 14.1D's line (no
    combat unit: no line decided that fact)."""
    answer = _ask(EXAMPLE, "why", "build-fort hex=0101")
    assert answer["cases"] == ["14.1C", "14.1D"]
    # the probe's search met EZOCs but no enemy-occupied hex: no through-enemy forbid (session 16)
    assert _sources(answer) == ["supply.rules:7", "zoc.rules:28", "fortification.rules:10", "fortification.rules:11"]


@pytest.mark.case("14.1C", "14.1E")
def test_14_1C_the_play_prompt_names_the_fact_lines_why_prints(tmp_path):
    """At the play prompt the refusal lists the same lines as ``why`` (short), in the same order."""
    typed = "build-fort hex=0305"
    args = ["play", "moscow41", "--load", str(EXAMPLE), "--player", "soviet=human", "--player", "german=bot:greedy",
            "--out", str(tmp_path / "out"), "--quiet"]
    out = CliRunner().invoke(cli, args, input=f"{typed}\nwhy {typed}\nquit\n").output
    refusal = out.split("refused: ", 1)[1].splitlines()
    assert refusal[1] == ("  lines: supply.rules:7, zoc.rules:28, supply.rules:27, zoc.rules:20, zoc.rules:19, "
                          "fortification.rules:10, fortification.rules:12 (why … prints them)"), refusal[:2]


@pytest.fixture(scope="module")
def mud_pack(tmp_path_factory) -> Path:
    """A copy of the pack with cookbook recipe 1 (supply paths of 4 MPs in Mud, 5.2B) and the
    example position without its German units, in it."""
    root = tmp_path_factory.mktemp("recipe1")
    pack = copy_edited(root, "rules/supply.rules",
                       ("  otherwise 8  by 5.2B, 5.2C\n", "  otherwise 8  by 5.2B, 5.2C\n" + MUD_LINE))
    position = pack / "positions" / "alone.yaml"   # inside the copy: ask reads it on the copy
    position.parent.mkdir(exist_ok=True)
    text = EXAMPLE.read_text(encoding="utf-8")
    assert GERMANS in text
    position.write_text(text.replace(GERMANS, ""), encoding="utf-8")
    return position


@pytest.mark.case("5.2B", "5.2C")
def test_5_2B_recipe_1_an_unsupplied_answer_names_the_mud_length_line(mud_pack):
    """No enemy near: the 133rd (0305) is out of supply only because of the Mud line's 4 MPs —
    ``ask supply`` names that line (supply.rules:8, the copy's) and cites its case, 5.2B."""
    answer = _ask(mud_pack, "supply", "s-133rd")
    assert answer["in_supply"] is False and answer["blocked"] == []
    assert "5.2B" in answer["cases"]
    assert _sources(answer)[0] == "supply.rules:8"
    assert answer["lines"][0]["text"] == "4            by 5.2B        when ground in [mud, drying]"


@pytest.mark.case("14.1C", "5.2B")
def test_14_1C_recipe_1_the_refusal_names_the_mud_length_line(mud_pack):
    answer = _ask(mud_pack, "why", "build-fort hex=0305")
    assert answer["cases"] == ["14.1C"]
    assert _sources(answer)[0] == "supply.rules:8"
    assert _sources(answer)[-1] == "fortification.rules:10"


@pytest.mark.case("5.2C")
def test_5_2C_without_the_recipe_the_same_unit_is_supplied(tmp_path):
    """The control: on the shipped pack the 8-MP path reaches the east edge from 0305."""
    position = tmp_path / "alone.yaml"
    position.write_text(EXAMPLE.read_text(encoding="utf-8").replace(GERMANS, ""), encoding="utf-8")
    assert _ask(position, "supply", "s-133rd")["in_supply"] is True


@pytest.mark.case("12.1C")
def test_12_1C_a_refused_railhead_names_the_supply_lines_of_its_probe(tmp_path):
    """docs/examples/reinforcements-turn10.yaml with German divisions in 0502, 0403 and 0704: the
    railhead 0603 cannot trace supply (its EZOCs, 5.4B, 7.4; the 8-MP path, 5.2C), 0505 can (a
    friendly city, 5.1C). Placing s-174rd in 0603 is refused by 12.1C's line, reading
    ``hex_supplied``: the refusal names the supply lines of the reinforcement's probe there."""
    text = (ROOT / "docs" / "examples" / "reinforcements-turn10.yaml").read_text(encoding="utf-8")
    remnant = '  - {counter: s-rem-01, hex: "0303"}\n'
    assert remnant in text
    germans = "".join(f'  - {{counter: {c}, hex: "{h}"}}\n' for c, h in (("g-6id", "0502"), ("g-26id", "0403"),
                                                                          ("g-31id", "0704")))
    position = tmp_path / "railheads.yaml"
    position.write_text(text.replace(remnant, remnant + germans), encoding="utf-8")
    answer = _ask(position, "why", "place-reinforcement unit=s-174rd hex=0603")
    assert (answer["legal"], answer["cases"]) == (False, ["12.1C"])
    # in the order the probe read them: the length, the EZOC blocks (read key by key), the enemy-unit
    # block its search met (session 16: named after the search)
    assert _sources(answer) == ["supply.rules:7", "zoc.rules:28", "supply.rules:27", "reinforcement.rules:65"]
    assert _ask(position, "why", "place-reinforcement unit=s-174rd hex=0505")["legal"] is True


@pytest.mark.case("2.4A")
def test_2_4A_a_refused_reaction_names_the_supply_lines_of_its_asked_fact(tmp_path):
    """The reaction's ``supplied`` and ``in_command`` are asked only when 2.4A's line reads them
    (``AskedFacts``): the example's Soviet 133rd moved to 0102, out of supply (the enemy's
    EZOCs, 8 MPs), may not react — the refusal names the lines of its supply answer (and 16.3A's
    line: the Fortification marker in 0505 is no ZOC source), not those of command, which the
    line did not read; s-174rd by its HQ in the east may."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in (("phase: first_initiative", "phase: first_player"), ("step: replacement_reinforcement",
                     "step: reaction_movement"), ("phasing: soviet", "phasing: german\nip: {german: 5, soviet: 5}"),
                     ('{counter: s-133rd, hex: "0305"}', '{counter: s-133rd, hex: "0102"}\n'
                      '  - {counter: s-174rd, hex: "0707"}\n  - {counter: s-22a, hex: "0708"}')):
        assert old in text
        text = text.replace(old, new)
    position = tmp_path / "react.yaml"
    position.write_text(text.replace("fp: {normal: 3, moscow: 2}\n", ""), encoding="utf-8")
    answer = _ask(position, "why", "react stack=0102")
    assert (answer["legal"], answer["cases"]) == (False, ["2.4A"])
    assert _sources(answer) == ["zoc.rules:42", "supply.rules:7", "zoc.rules:28", "initiative.rules:60"]
    assert _ask(position, "why", "react stack=0707")["legal"] is True
