"""Every trace event names its lines (issue #15 item 3): the rule-script lines that fired while an
event's values were computed are the event's ``data["lines"]`` — recorded by the engine for every
plugin (``Ctx.record`` in play's context), never by the plugin — and a replay records the same
lines as the play. Refusals (``why``, ``casebook serve``) and ``ask`` answers name only the lines
that decided them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casebook.tools.golden import GOLDEN, golden_dir, play_golden

ROOT = Path(__file__).resolve().parent.parent


def _text(game: str, source: str) -> str:
    """The rule line at ``file:N``, a line continued with ``\\`` joined (as ``explain`` prints it)."""
    file, _, n = source.partition(":")
    rows = (ROOT / "games" / game / "rules" / file).read_text(encoding="utf-8").split("\n")[int(n) - 1:]
    out = [rows[0]]
    while out[-1].rstrip().endswith("\\") and len(out) < len(rows):
        out.append(rows[len(out)])
    return "\n".join(out)


def _events(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def kp_trace() -> str:
    spec = next(g for g in GOLDEN if g.game == "kestrel_pass" and g.seed == 1)
    return play_golden(spec)


@pytest.mark.case("KP5.1A")
def test_KP5_1A_a_move_event_names_the_ma_line_that_fired(kp_trace):
    moves = [e for e in _events(kp_trace) if e["kind"] == "move"]
    assert moves and all("lines" in e["data"] for e in moves)
    first = moves[0]["data"]["lines"]
    ma = next(ln for ln in first if "KP5.1A" in ln["cases"])
    assert _text("kestrel_pass", ma["source"]).strip() == "otherwise printed_ma by KP5.1A"  # the MA line (KP5.1A)


def test_driver_events_carry_no_lines_and_every_line_is_a_real_rule_line(kp_trace):
    for e in _events(kp_trace):
        if e["kind"] in ("setup", "action", "auto-pass") or e["source"] == "sequence":
            assert "lines" not in e["data"], e   # the driver's and the sequence's bookkeeping
        for ln in e["data"].get("lines", ()):
            if ln["source"].endswith(".yaml", 0, ln["source"].rindex(":")):  # a table row (the CRT's):
                row = int(ln["source"].rsplit(":", 1)[1])                    # a line of the pack's file
                file = ROOT / "games" / "kestrel_pass" / ln["source"].rsplit(":", 1)[0]
                assert file.read_text(encoding="utf-8").split("\n")[row - 1].strip(), ln
                continue
            text = _text("kestrel_pass", ln["source"])
            assert all(c in text for c in ln["cases"]), (ln, text)   # the line cites its cases


def test_a_replay_records_the_same_lines_as_the_play(kp_trace, tmp_path):
    from casebook.tools.cmd_replay import replay_trace

    path = tmp_path / "kp.jsonl"
    path.write_text(kp_trace, encoding="utf-8")
    ok, message = replay_trace(path)
    assert ok, message
    assert sum('"lines"' in line for line in kp_trace.splitlines()) >= 20


@pytest.mark.case("16.3B")
def test_16_3B_partisan_removed_events_of_the_golden_games_name_their_trigger_line():
    seen = 0
    for path in sorted(golden_dir("moscow41").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if '"partisan-removed"' not in line:
                continue
            e = json.loads(line)
            texts = [_text("moscow41", ln["source"]) for ln in e["data"]["lines"]]
            assert any("remove marker partisan" in t or "forbid keep_partisan" in t for t in texts), texts
            seen += 1
    assert seen > 0


@pytest.mark.case("10.4B", "10.4.1A")
def test_10_4B_an_attack_answer_names_no_zoc_or_airdrop_supply_line():
    from casebook.tools.cmd_ask import ask_position

    answer = ask_position(str(ROOT / "docs" / "examples" / "attack.yaml"), "attack", ["0304"], {"with": ["g1", "g2"]})
    cases = {c for ln in answer["lines"] for c in ln["cases"]}
    assert {"10.4B", "10.4.1A"} <= cases
    assert not cases & {"7.1A", "7.0A", "15.4A", "5.2B"}     # ZOC, airdrop supply, supply length: incidental
