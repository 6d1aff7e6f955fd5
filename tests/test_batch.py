"""``casebook batch`` and :mod:`casebook.tools.batch`: seeded games give the same records on every
backend (serial, process pool, Dask), settings reach the setup, limits stop games where asked,
failing games are reported with their seed, and the summary counts what the records say.

Moscow '41 games are cut after a few decisions (a whole Blitz takes minutes); the limits and the
error path are played on the mini pack with a tiny rules plugin, :class:`Ticker`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.actions import Action
from casebook.core.game import Game
from casebook.core.hooks import hookimpl
from casebook.script.engine import Engine
from casebook.tools import batch as batch_mod
from casebook.tools.batch import Backend, GameRecord, GameSpec, load_game, play_one, run_batch
from casebook.tools.batch_summary import changed_seeds, compare_rows, summarize, summary_rows
from casebook.tools.cli import cli

PACKS = Path(__file__).resolve().parent / "packs"

BOTS = (("german", "greedy"), ("soviet", "random"))


def _blitz(seed: int, **kw) -> GameSpec:
    return GameSpec("moscow41", "october-blitz", seed, BOTS, max_actions=kw.pop("max_actions", 3),
                    vps=kw.pop("vps", False), **kw)


@pytest.fixture(scope="module")
def serial_blitz() -> list[GameRecord]:
    return run_batch([_blitz(s) for s in (1, 2)])


def test_the_same_seeds_give_the_same_records_serially_in_a_pool_and_on_dask(serial_blitz):
    specs = [_blitz(s) for s in (1, 2)]
    pooled = run_batch(specs, Backend("pool", 2))
    dask = run_batch(specs, Backend("dask", 1, "local", processes=False))
    assert [r.play() for r in pooled] == [r.play() for r in serial_blitz]
    assert [r.play() for r in dask] == [r.play() for r in serial_blitz]
    assert [r.seed for r in serial_blitz] == [1, 2]
    assert all(r.error is None and r.stopped == "max_actions" and r.actions == 3 for r in serial_blitz)
    assert len({r.digest for r in serial_blitz}) == 2  # the seeds make different games


def test_the_cli_on_a_dask_scheduler_writes_the_serial_records(serial_blitz, tmp_path):
    from dask.distributed import LocalCluster

    out = tmp_path / "b.json"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        result = CliRunner().invoke(cli, ["batch", "--games", "2", "--max-actions", "3", "--no-vp",
                                          "--bot", "german=greedy", "--bot", "soviet=bot:random",
                                          "--scheduler", cluster.scheduler_address,
                                          "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert f"on the Dask scheduler {cluster.scheduler_address}" in result.output
    records = json.loads(out.read_text())["arms"][0]["records"]
    expected = [r.play() for r in serial_blitz[:2]]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in records] == expected


def test_a_setting_override_holds_from_the_setup():
    """turn1_weather=rolled (interpretations register; 18.2.4A) makes Turn 1's weather a roll,
    which only a setting present before the setup can do."""
    fixed = load_game("moscow41", "october-blitz").new_initial_state(1)
    rolled = load_game("moscow41", "october-blitz", (("turn1_weather", "rolled"),)).new_initial_state(1)
    weather_rolls = lambda state: [e for e in state.trace if e.kind == "roll" and e.phase == "weather"]
    assert weather_rolls(fixed) == [] and len(weather_rolls(rolled)) >= 1
    record = play_one(_blitz(1, max_actions=0, settings=(("turn1_weather", "rolled"),)))
    assert record.settings == {"turn1_weather": "rolled"}
    assert record.events == len(rolled.trace)


def test_an_unfinished_game_is_scored_by_the_rules_vp_answer():
    record = play_one(_blitz(1, max_actions=0, vps=True))
    state = load_game("moscow41", "october-blitz").new_initial_state(1)
    ctx = state.ctx()
    answer = ctx.hook.casebook_answer(ctx=ctx, question="vp", args=[], options={})
    assert record.vps == {"german": answer["german"]["vp"], "soviet": answer["soviet"]["vp"]}
    assert (record.winner, record.level) == (answer["winner"], answer["level"])
    assert not record.over and "as it stands" in record.reason


@pytest.mark.parametrize("args, message", [
    (["no-such-game"], "no game 'no-such-game'"),
    (["moscow41", "no-such-scenario"], "scenarios: campaign, october-blitz"),
    (["--set", "turn1_weather=sunny"], "expected one of fixed, rolled, got 'sunny'"),
    (["--set", "no_such_setting=1"], "unknown setting 'no_such_setting'"),
    (["--set", "turn1_weather"], "expected NAME=VALUE"),
    (["--bot", "finnish=greedy"], "unknown side 'finnish' (sides: german, soviet)"),
    (["--bot", "german=bot:clever"], "unknown bot 'clever'"),
    (["--compare-set", "road_bridges=ferries"], "expected one of bridged, river_added"),
    (["--compare-pack", str(PACKS / "mini")], "is a pack of 'mini'; the batch plays 'moscow41'"),
    (["--scheduler", "bogus"], "expected local or tcp://HOST:PORT, got 'bogus'"),
    (["--first-seed", "-5"], "-5 is not in the range x>=0"),
    (["--bot", "soviet"], "expected SIDE=KIND, got 'soviet'"),
    (["--set", "road_bridges=bridged", "--set", "road_bridges=river_added"], "road_bridges given twice"),
])
def test_bad_arguments_are_usage_errors(args, message):
    result = CliRunner().invoke(cli, ["batch", *args, "--games", "1"])
    assert result.exit_code == 2
    assert message in result.output


# ---------------------------------------------------------------- limits and errors (mini pack)
class Ticker:
    """Mini-pack rules for these tests: in every German movement step the 1 ID steps between 0303
    and 0304 (east on odd turns, back on even ones): one decision a turn; seed 13 breaks in turn 2."""

    @hookimpl
    def casebook_decider(self, ctx, step):
        return ctx.state.phasing if step == "movement" else None

    @hookimpl
    def casebook_legal_actions(self, ctx, step):
        side = ctx.state.phasing
        if step != "movement" or side != "german":
            return []
        here, there = ("0303", "0304") if ctx.state.turn % 2 else ("0304", "0303")
        if ctx.state.unit("g-1id")["hex"] == here:
            return [Action.make("move", side, stack=here, path=[there])]
        return [Action.make("pass", side)]

    @hookimpl
    def casebook_apply_action(self, ctx, action):
        if action.kind != "move":
            return None
        if ctx.state.rng["seed"] == 13 and ctx.state.turn == 2:
            raise RuntimeError("the ticker broke")
        ctx.state.move_unit("g-1id", action.get("path")[-1])
        return {"moved": "g-1id"}


@pytest.fixture
def ticker(monkeypatch, mini_pack):
    game = Game(Engine.load(mini_pack, extra_plugins={"ticker": Ticker()}), "skirmish")
    monkeypatch.setattr(batch_mod, "load_game", lambda *args: game)
    return str(mini_pack)


def _mini(ticker: str, seed: int, **kw) -> GameSpec:
    return GameSpec(ticker, "skirmish", seed, (("german", "greedy"), ("soviet", "greedy")), **kw)


def test_limits_stop_a_game_and_an_unlimited_one_ends_by_the_rules(ticker):
    whole, cut, short = (play_one(_mini(ticker, 1, **kw)) for kw in ({}, {"max_turns": 1}, {"max_actions": 2}))
    assert (whole.over, whole.level, whole.turns, whole.actions, whole.stopped) == (True, "draw", 3, 3, None)
    assert whole.reason == "turn 3 was the scenario's last" and whole.vps is None
    assert (cut.over, cut.stopped, cut.turns, cut.actions, cut.winner) == (False, "max_turns", 1, 1, None)
    assert cut.reason == "turn 1 was the last played (--max-turns); not scored"
    assert (short.stopped, short.turns, short.actions) == ("max_actions", 3, 2)


def _no_third_turn(state) -> None:
    if state.data.turn >= 3:
        raise AssertionError("an invariant of this test: no turn 3")


def test_a_failing_game_is_reported_with_its_seed_and_the_batch_goes_on(ticker):
    records = run_batch([_mini(ticker, s) for s in (12, 13, 14)])
    assert [r.error for r in records] == [None, "RuntimeError: the ticker broke", None]
    assert records[1].where == "turn 2, first_player/movement, after 1 actions"
    assert "the ticker broke" in records[1].detail.splitlines()[-1]
    checked = play_one(_mini(ticker, 1, check=_no_third_turn))
    assert checked.error == "AssertionError: an invariant of this test: no turn 3"
    assert checked.where == "turn 3, first_player/movement, after 2 actions"
    assert summarize(records)["errors"] == [13]
    result = CliRunner().invoke(cli, ["batch", ticker, "skirmish", "--first-seed", "12", "--games", "3",
                                      "--workers", "1"])
    assert result.exit_code == 1
    assert "seed 13 (mini): RuntimeError: the ticker broke — at turn 2" in result.output
    assert "1 (seeds 13)" in result.output and "2 of 3" in result.output


def test_compare_pack_plays_the_same_seeds_on_the_other_pack(ticker, tmp_path):
    out = tmp_path / "p.json"
    result = CliRunner().invoke(cli, ["batch", ticker, "skirmish", "--compare-pack", ticker, "--games", "2",
                                      "--workers", "1", "--json", str(out)])
    assert result.exit_code == 0, result.output
    base, alt = json.loads(out.read_text())["arms"]
    assert [r["seed"] for r in alt["records"]] == [r["seed"] for r in base["records"]] == [1, 2]
    assert {r["game"] for r in alt["records"]} == {str(PACKS / "mini")}
    assert [r["digest"] for r in alt["records"]] == [r["digest"] for r in base["records"]]
    assert "seeds whose outcome changed: 0 (none)" in result.output
    assert "seeds whose play differs (trace digests): 0 (none: the alternative changed nothing)" in result.output


# ---------------------------------------------------------------- summaries
def _rec(seed, winner, level, vps, turns, actions, over=True, error=None) -> GameRecord:
    return GameRecord("moscow41", "october-blitz", seed, dict(BOTS), {}, winner=winner, level=level,
                      over=over, vps=vps, turns=turns, actions=actions, error=error)


def test_summary_counts_wins_levels_vps_and_lengths():
    records = [_rec(1, "german", "strategic", {"german": 40, "soviet": 10}, 4, 400),
               _rec(2, "german", "marginal", {"german": 30, "soviet": 20}, 4, 600),
               _rec(3, "soviet", "decisive", {"german": 5, "soviet": 35}, 2, 100),
               _rec(4, None, None, None, 0, 0, over=False, error="RuntimeError: x")]
    s = summarize(records)
    assert (s["games"], s["played"], s["errors"]) == (4, 3, [4])
    assert s["wins"] == {"german": 2, "soviet": 1}
    assert s["outcomes"] == {"error": 1, "german marginal": 1, "german strategic": 1, "soviet decisive": 1}
    assert s["vp_mean"] == {"german": 25, "soviet": 65 / 3}
    assert s["turns"] == {"mean": 10 / 3, "min": 2, "max": 4}
    assert s["actions_per_turn"] == pytest.approx((100 + 150 + 50) / 3)
    rows = {r.label: r.text for r in summary_rows(s)}
    assert rows["german wins"] == "2/3 (67%)" and rows["mean VPs soviet"] == "21.7"
    assert rows["errors"] == "1 (seeds 4)"
    other = summarize([_rec(1, "german", "strategic", None, 4, 400), _rec(2, "soviet", "marginal", None, 3, 300),
                       _rec(3, "soviet", "decisive", None, 2, 100)])
    diff = {label: d for label, _, _, d in compare_rows(s, other)}
    assert diff["german wins"] == "-33.3 pp" and diff["soviet wins"] == "+33.3 pp"
    assert diff["  soviet marginal"] == "+33.3 pp" and diff["turns"] == "-0.3"
    assert changed_seeds(records, [_rec(1, "german", "strategic", None, 4, 1),
                                   _rec(2, "soviet", "marginal", None, 3, 1)]) == [2]


def test_compare_set_plays_the_same_seeds_twice_and_prints_both(tmp_path):
    out = tmp_path / "c.json"
    result = CliRunner().invoke(cli, ["batch", "--games", "1", "--max-actions", "0", "--no-vp", "--workers", "1",
                                      "--compare-set", "turn1_weather=rolled", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "difference" in result.output and "turn1_weather=rolled" in result.output
    assert "seeds whose outcome changed: 0 (none)" in result.output
    assert "seeds whose play differs (trace digests): 1 (1)" in result.output
    base, alt = json.loads(out.read_text())["arms"]
    assert base["records"][0]["seed"] == alt["records"][0]["seed"] == 1
    assert alt["records"][0]["settings"] == {"turn1_weather": "rolled"}
    assert base["records"][0]["digest"] != alt["records"][0]["digest"]


def test_a_scheduler_that_never_answers_is_a_clear_error_not_a_hang(monkeypatch):
    """A port that accepts but never completes Dask's handshake (a web server, the dashboard port)
    and a service answering garbage both end in one ConnectionError naming the address."""
    import time

    monkeypatch.setattr(batch_mod, "CONNECT_SECONDS", 1)

    class Silent:
        def __init__(self, address, timeout):
            time.sleep(30)

    class Garbage:
        def __init__(self, address, timeout):
            raise MemoryError()

    import socket

    with socket.socket() as listening:  # a port that accepts connections, answering nothing
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        address = f"tcp://127.0.0.1:{listening.getsockname()[1]}"
        start = time.monotonic()
        with pytest.raises(ConnectionError, match=rf"no Dask scheduler at {address} \(no answer"):
            batch_mod._connect(Silent, address)
        assert time.monotonic() - start < 10
        with pytest.raises(ConnectionError, match="MemoryError"):
            batch_mod._connect(Garbage, address)
    # a closed port is refused at once, before any Dask client waits
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="connection refused"):
        batch_mod._connect(Silent, address)
    assert time.monotonic() - start < 5


def test_json_goes_into_a_new_folder_made_before_the_games(tmp_path):
    out = tmp_path / "not" / "yet" / "batch.json"
    result = CliRunner().invoke(cli, ["batch", "--games", "1", "--max-actions", "0", "--no-vp",
                                      "--workers", "1", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["arms"][0]["records"][0]["seed"] == 1


def test_an_interrupted_batch_keeps_the_games_it_finished(tmp_path, monkeypatch):
    """Ctrl-C (or SIGTERM) after two of four games: the summary and --json hold those two,
    the title says so, and the exit status is 130 (not 1, a game that raised)."""
    real = batch_mod.run_batch

    def two_then_interrupt(specs, backend=None, on_done=None):
        for spec in specs[:2]:
            on_done(play_one(spec))
        raise KeyboardInterrupt
    monkeypatch.setattr(batch_mod, "run_batch", two_then_interrupt)
    out = tmp_path / "b.json"
    result = CliRunner().invoke(cli, ["batch", "--games", "4", "--max-actions", "3", "--no-vp", "--workers", "1",
                                      "--quiet", "--json", str(out)])
    monkeypatch.setattr(batch_mod, "run_batch", real)
    assert result.exit_code == 130, result.output
    assert "interrupted: 2 of 4 games finished" in result.output
    doc = json.loads(out.read_text())
    assert doc["interrupted"] is True and [r["seed"] for r in doc["arms"][0]["records"]] == [1, 2]


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), [root]
    while todo:
        for c in children.get(todo.pop(), ()):
            out.add(c)
            todo.append(c)
    return out


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_end_when_the_batch_process_is_killed_outright():
    """SIGKILL (or the OOM killer) gives the batch no chance to stop its workers; they notice
    their parent is gone within a second or two and end: no game is left playing on."""
    import os
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "casebook.tools", "batch", "--games", "6", "--workers", "2",
                             "--quiet", "--no-vp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 3:  # forkserver and its workers
            time.sleep(0.5)
            workers = _descendants(proc.pid)
        assert len(workers) >= 3, "the pool did not start"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(p) for p in workers):
        time.sleep(0.5)
    alive = [p for p in workers if _running(p)]
    for p in alive:  # leave nothing behind whatever the verdict
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not alive


def test_comparing_against_a_reading_already_in_force_is_a_usage_error():
    """--compare-set with the value the games already play by (the register's default here)
    would play every seed twice for nothing: refused before any game, naming the option."""
    result = CliRunner().invoke(cli, ["batch", "--games", "2", "--compare-set", "road_bridges=bridged"])
    assert result.exit_code == 2 and "--compare-set" in result.output and "already in force" in result.output
    result = CliRunner().invoke(cli, ["batch", "--games", "1", "--max-actions", "0", "--no-vp", "--workers", "1",
                                      "--quiet", "--set", "road_bridges=river_added",
                                      "--compare-set", "road_bridges=bridged"])
    assert result.exit_code == 0, result.output  # against --set, the default is an alternative


def test_an_interrupted_comparison_compares_only_the_seeds_both_sides_finished(tmp_path, monkeypatch):
    """Interrupted after seeds 1-2 of the base and seed 1 of the alternative: both summaries
    and the differences count seed 1 only (not a base of two against an alternative of one);
    --json keeps every finished game."""
    real = batch_mod.run_batch

    def some_then_interrupt(specs, backend=None, on_done=None):
        for spec in (specs[0], specs[1], specs[3]):  # base seeds 1, 2; alternative seed 1
            on_done(play_one(spec))
        raise KeyboardInterrupt
    monkeypatch.setattr(batch_mod, "run_batch", some_then_interrupt)
    out = tmp_path / "c.json"
    result = CliRunner().invoke(cli, ["batch", "--games", "3", "--max-actions", "3", "--no-vp", "--workers", "1",
                                      "--quiet", "--compare-set", "road_bridges=river_added", "--json", str(out)])
    monkeypatch.setattr(batch_mod, "run_batch", real)
    assert result.exit_code == 130, result.output
    assert "3 of 6 games finished; compared on the 1 seed both sides finished" in result.output
    doc = json.loads(out.read_text())
    assert [[r["seed"] for r in arm["records"]] for arm in doc["arms"]] == [[1, 2], [1]]
    assert [arm["summary"]["games"] for arm in doc["arms"]] == [1, 1]
