"""Lines through lasting caches (issue #15 item 3): a value kept across state changes
(``Ctx.kept``: ZOC verdicts and the ZOC Chart's kind, terrain costs, stacking points, command
radii …) keeps the rule-script lines that made it, and every read notes them again, so an event
names the same lines whatever the caches held when it was recorded.

- the Blitz (greedy, seed 1) played cold (every lasting cache and memo of the engine emptied
  before each action is applied) and played again warm (the caches as the first play and the
  bots' look-aheads left them) records the same trace, lines and all — and a move names the ``move_cost`` lines
  (movement.rules) that priced its path, found through the terrain-cost caches, and the supply
  lines of its units' supply (supply.rules), an HQ activation its command path lines (command.rules);
- the same two plays with ``kept`` reading its cache without noting the kept lines again (the
  old behaviour, less the pause) record different lines: the test can fail;
- ``kept`` computes once per key, and a value first computed where nothing collected lines is
  computed again the first time it is read collecting (then it names its lines);
- a block :meth:`apart <casebook.script.ctx.Ctx.apart>` notes no line for the next event, and
  the pause a lasting cache read directly sets inside it ends with it.
"""

from __future__ import annotations

import json

from casebook.script import ctx as ctx_module
from tests.conftest import played_blitz

_ACTIONS = 45


def _play(actions: int, cold: bool) -> str:
    """The Blitz trace after ``actions`` actions; ``cold``: every lasting cache and memo of the
    engine emptied before each action is applied (after the bot chose it)."""
    from casebook.core.game import Game
    from casebook.tools.bots import make_bot

    game = Game.load("moscow41", "october-blitz")
    engine = game.engine
    state = game.new_initial_state(1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    for _ in range(actions):
        action = bots[state.current_player()].choose(state)
        if cold:
            engine._lasting.clear()
            engine._memos.clear()
            engine._recent[:] = [None, None]
        state.apply(action)
    return str(state.trace.dumps())


def _cold_then_warm(actions: int) -> tuple[str, str]:
    return _play(actions, cold=True), _play(actions, cold=False)


def _lines(trace: str) -> list[list[str]]:
    return [[ln["source"] for ln in (json.loads(e).get("data") or {}).get("lines", ())] for e in trace.splitlines()]


def test_an_events_lines_are_the_same_with_a_cold_and_a_warm_lasting_cache():
    cold, warm = _cold_then_warm(_ACTIONS)
    assert cold == warm
    moves = [json.loads(e) for e in cold.splitlines() if json.loads(e)["kind"] == "move"]
    assert moves
    # 9.2A: the terrain cost of the path's hexes, read through terrain_costs' lasting caches
    assert all(any(ln["source"].startswith("movement.rules:") and "9.2A" in ln["cases"]
                   for ln in m["data"]["lines"]) for m in moves)
    # 5.2B-C, 8.1A: the supply and command answers' lines, read through their side stores — a
    # move names its units' supply lines only where 5.7B's unsupplied MA line read them (session 17)
    from tests.test_event_lines_supply_command import rule_line, supply_path_mp_line
    half = rule_line("movement.rules", "× ½  by 5.7B")
    assert all((supply_path_mp_line() in [ln["source"] for ln in m["data"]["lines"]]) is
               (half in [ln["source"] for ln in m["data"]["lines"]]) for m in moves)
    hqs = [json.loads(e) for e in cold.splitlines() if json.loads(e)["kind"] == "activate-hq"]
    assert hqs and all(rule_line("command.rules", "otherwise command_radius") in
                       [ln["source"] for ln in h["data"]["lines"]] for h in hqs)


def test_without_noting_the_kept_lines_again_a_warm_cache_changes_what_events_name(monkeypatch):
    def kept_silent(self, depends_on, key, compute, cited=None):  # reads the cache, notes nothing found there
        cache = depends_on if isinstance(depends_on, ctx_module.Lasting) else \
            self.engine.lasting(self.board, depends_on)
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    monkeypatch.setattr(ctx_module.Ctx, "kept", kept_silent)
    cold, warm = _cold_then_warm(_ACTIONS)
    assert _lines(cold) != _lines(warm)


def test_kept_computes_once_and_again_when_first_computed_without_collecting():
    state = played_blitz(0)
    engine = state.game.engine
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return int(ctx.value("stacking_limit", {"side": "german"}))

    ctx = engine.ctx(state.data)  # collects nothing
    deps = ("test.kept", object())
    assert ctx.kept(deps, "k", compute) == ctx.kept(deps, "k", compute)
    assert len(calls) == 1
    play = engine.ctx(state.data, event_lines=True)
    ctx = play
    value = play.kept(deps, "k", compute)
    assert len(calls) == 2 and play.event_lines  # computed again, collecting: its lines named
    named = dict(play.event_lines)
    play.event_lines.clear()
    assert play.kept(deps, "k", compute) == value and len(calls) == 2
    assert play.event_lines == named  # found: the same lines noted again


def test_a_block_apart_names_no_line_and_ends_the_pause_set_inside_it():
    state = played_blitz(0)
    ctx = state.game.engine.ctx(state.data, event_lines=True)
    with ctx.apart():
        ctx.value("stacking_limit", {"side": "german"})
        ctx.lasting("test.apart")  # read directly: would pause until the next event
    assert ctx.event_lines == {}
    ctx.value("stacking_limit", {"side": "german"})
    assert ctx.event_lines  # collected again after the block


def test_9_2A_a_moves_cost_lines_read_through_a_cache_are_printed_by_explain(tmp_path):
    from pathlib import Path

    from click.testing import CliRunner

    from casebook.tools.cli import cli

    state = played_blitz(45)
    move = next(e for e in state.trace if e.kind == "move")
    path = tmp_path / "blitz.jsonl"
    path.write_text(state.trace.dumps())
    pack = Path(__file__).resolve().parents[1] / "games" / "moscow41"
    shown = CliRunner().invoke(cli, ["explain", str(path), str(move.seq), "--pack", str(pack)])
    assert shown.exit_code == 0, shown.output
    rules = (pack / "rules" / "movement.rules").read_text().splitlines()
    for ln in move.data["lines"]:
        assert ln["source"] in shown.output
    cost = next(ln["source"] for ln in move.data["lines"] if "9.2A" in ln["cases"] and ln["source"].startswith("movement"))
    text = rules[int(cost.split(":")[1]) - 1].split("  by")[0].strip()
    assert text.startswith("lookup tec(") and text in shown.output  # the Terrain Effects Chart's line


def test_10_3B_a_combat_event_names_its_strength_shift_and_dice_lines(tmp_path):
    """The fresh-user trial: the Blitz attack on 1314 ("column 3:1 shifted +1" by s-144rd's Loss
    marker, 10.3B) named only the dice line (combat.rules:84, 10.0D). Since session 11's guard
    (the greedy German moves the 183rd next to Smolensk on action 21) the Blitz's first attack is
    on 1214: s-229rd's Loss marker shifts 3:2 to 2:1 (10.3B), g-ix (an HQ) adds its +1. It names every line that
    decided it, as `ask attack` does: both stacks' strengths (10.3A, the HQ's +1 of 6.1/10.6A),
    the Loss-marker shift (10.3B-C) and the dice (10.0D) — and `explain` prints them."""
    from pathlib import Path

    from click.testing import CliRunner

    from casebook.tools.cli import cli

    state = played_blitz(30)
    combat = next(e for e in state.trace if e.kind == "combat" and e.data["hex"] == "1214")
    assert combat.data["column_shift"] == 1 and combat.data["basic_column"] == "3:2"
    cases = {c for ln in combat.data["lines"] for c in ln["cases"]}
    assert {"10.3A", "6.1", "10.6A", "10.3B", "10.3C", "10.0D"} <= cases, combat.data["lines"]
    pack = Path(__file__).resolve().parents[1] / "games" / "moscow41"
    rules = (pack / "rules" / "combat.rules").read_text().splitlines()
    shift = next(ln["source"] for ln in combat.data["lines"] if "10.3B" in ln["cases"])
    assert rules[int(shift.split(":")[1]) - 1].strip().startswith("highest(losses of defenders)")
    path = tmp_path / "blitz.jsonl"
    path.write_text(state.trace.dumps())
    shown = CliRunner().invoke(cli, ["explain", str(path), str(combat.seq), "--pack", str(pack)])
    assert shown.exit_code == 0, shown.output
    assert "highest(losses of defenders)" in shown.output and "start total(strength of units)" in shown.output
