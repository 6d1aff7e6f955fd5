"""Batch studies: many seeded games, played serially, in a local process pool or on Dask.

A game is described by a picklable :class:`GameSpec` (pack, scenario, seed, a bot per side,
setting overrides, where to stop); :func:`play_one` plays it and returns a :class:`GameRecord`
that is a pure function of the spec (only ``seconds``, the time of the play without loading the
pack, varies between runs), so the same seeds give
the same records whatever the :class:`Backend` and its worker count. :func:`run_batch` plays a
list of specs and returns the records in spec order; :func:`summarize` (in
:mod:`casebook.tools.batch_summary`) turns them into win rates, mean VPs and game lengths.

A game that raises is recorded with its error (``GameRecord.error``) and the batch goes on.
Setting overrides are validated against the pack's interpretations register with
:func:`check_settings`; they are put into the scenario position before its setup, so a setting
read at the very start (``turn1_weather``) takes effect.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from multiprocessing import get_context
from typing import Any

__all__ = ["GameSpec", "GameRecord", "Backend", "play_one", "run_batch", "game_sides",
           "check_settings", "load_game", "default_workers"]


@dataclass(frozen=True)
class GameSpec:
    """One game to play. ``game`` is a game id or a pack directory (made absolute by the caller
    when workers run elsewhere); ``bots`` is ``((side, kind), …)`` with kinds of
    :data:`casebook.tools.bots.BOT_KINDS`, each bot seeded with ``seed``; ``settings`` is
    ``((name, value), …)`` overriding the scenario's interpretation settings. The game stops,
    scored as it stands, once turn ``max_turns`` is over or after ``max_actions`` decisions.
    ``vps`` asks the rules for both sides' victory points at the end; ``check`` (a picklable
    function of the state) runs after every action and may raise, e.g. invariant checks."""

    game: str
    scenario: str
    seed: int
    bots: tuple[tuple[str, str], ...]
    settings: tuple[tuple[str, Any], ...] = ()
    max_turns: int | None = None
    max_actions: int | None = None
    vps: bool = True
    check: Callable[[Any], None] | None = None


@dataclass(frozen=True)
class GameRecord:
    """What one game came to. ``over`` says the rules ended it (``winner``/``level``/``reason``
    are its result); otherwise ``stopped`` names the limit that cut it short (``max_turns``,
    ``max_actions``) and the result is the victory-point level as it stands (None without VPs).
    ``turns`` counts the turns played, ``actions`` the players' decisions, ``vps`` the victory
    points per side (None when not asked or the game has no ``vp`` answer), ``digest`` a SHA-256
    of the whole trace (equal digests: the same play, event for event). ``error`` is set when the
    game raised (``where`` says at which point, ``detail`` holds the traceback). ``timeline``:
    per turn, who holds the victory places and the losses (:mod:`casebook.tools.batch_timeline`)."""

    game: str
    scenario: str
    seed: int
    bots: dict[str, str]
    settings: dict[str, Any]
    winner: str | None = None
    level: str | None = None
    reason: str = ""
    over: bool = False
    stopped: str | None = None
    turns: int = 0
    actions: int = 0
    vps: dict[str, float] | None = None
    events: int = 0
    digest: str = ""
    error: str | None = None
    where: str = ""
    detail: str = ""
    timeline: dict[str, Any] | None = None
    seconds: float = field(default=0.0, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (the ``--json`` file's records)."""
        return asdict(self)

    def play(self) -> dict[str, Any]:
        """Everything but the timing: equal for the same spec whatever the backend."""
        out = self.to_dict()
        del out["seconds"]
        return out


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# ---------------------------------------------------------------------------------- games
@lru_cache(maxsize=16)
def load_game(game: str, scenario: str, settings: tuple[tuple[str, Any], ...] = ()) -> Any:
    """The :class:`~casebook.core.game.Game` (cached per process: a Game is immutable) with
    ``settings`` written into its scenario position, so they hold from the setup on."""
    from casebook.core.game import Game
    from casebook.tools.runtime import tune_gc

    configured = Game.load(game, scenario)
    tune_gc()  # the loaded game lives as long as the worker: out of the collector's way
    return configured.with_settings(dict(settings)) if settings else configured


def game_sides(game: Any) -> tuple[str, ...]:
    """The sides of a loaded game: its vocabulary's (game.yaml), else in the order the counter mix
    and the scenario name them."""
    pack = game.engine.pack
    if pack.vocabulary.side_ids:
        return pack.vocabulary.side_ids
    units = list(pack.counters.values()) + [u for u in pack.scenario(game.scenario).units]
    sides: dict[str, None] = {}
    for unit in units:
        side = unit.get("side") if isinstance(unit, Mapping) else getattr(unit, "side", None)
        if side:
            sides[str(side)] = None
    return tuple(sides)


def check_settings(game: Any, overrides: Mapping[str, str]) -> dict[str, Any]:
    """``overrides`` (name -> text) checked against the interpretations register of ``game``:
    ValueError naming the known settings or the choices; returns name -> the register's value."""
    register = {i["setting"]["name"]: i["setting"] for i in game.engine.pack.interpretations.values()
                if isinstance(i.get("setting"), Mapping)}
    out: dict[str, Any] = {}
    for name, text in overrides.items():
        if name not in register:
            known = ", ".join(sorted(register)) or "none"
            raise ValueError(f"unknown setting {name!r} (settings of {game.engine.pack.id}: {known})")
        choices = list(register[name].get("choices") or [])
        match = [c for c in choices if str(c) == str(text)]
        if not match:
            raise ValueError(f"setting {name}: expected one of {', '.join(map(str, choices))}, got {text!r}")
        out[name] = match[0]
    return out


def _digest(trace: Iterable[Any]) -> tuple[int, str]:
    h = hashlib.sha256()
    n = 0
    for event in trace:
        h.update(json.dumps(event.to_dict(), sort_keys=True, default=str).encode())
        h.update(b"\n")
        n += 1
    return n, h.hexdigest()


def _vp_answer(state: Any) -> Mapping[str, Any] | None:
    """The rules' ``vp`` answer for the position (as ``casebook ask … vp``), None if no plugin
    answers it."""
    ctx = state.ctx()
    answer = ctx.hook.casebook_answer(ctx=ctx, question="vp", args=[], options={})
    return answer if isinstance(answer, Mapping) else None


def play_one(spec: GameSpec) -> GameRecord:
    """Play ``spec`` to its end or its limit; never raises for a failing game (the record says)."""
    from casebook.tools.batch_timeline import Timeline
    from casebook.tools.bots import make_bot

    start = time.perf_counter()
    base: dict[str, Any] = {"game": spec.game, "scenario": spec.scenario, "seed": spec.seed,
            "bots": dict(spec.bots), "settings": dict(spec.settings)}
    state, actions = None, 0
    try:
        game = load_game(spec.game, spec.scenario, spec.settings)
        start = time.perf_counter()  # the play, not the (per-process, cached) loading
        state = game.new_initial_state(spec.seed)
        bots = {side: make_bot(kind, side, spec.seed) for side, kind in spec.bots}
        stopped, timeline = None, Timeline(state)
        while not state.is_terminal():
            if spec.max_turns is not None and state.data.turn > spec.max_turns:
                stopped = "max_turns"
                break
            if spec.max_actions is not None and actions >= spec.max_actions:
                stopped = "max_actions"
                break
            side = state.current_player()
            if side not in bots:
                raise ValueError(f"no bot plays side {side!r} (bots: {', '.join(bots)})")
            state.apply(bots[side].choose(state))
            actions += 1
            timeline.after(state)
            if spec.check is not None:
                spec.check(state)
        timeline.close(state, spec.max_turns)
        return _record(spec, {**base, "timeline": timeline.data()}, state, actions, stopped, time.perf_counter() - start)
    except Exception as exc:  # a failing game is reported with its seed; the batch goes on
        where = ("loading" if state is None else
                 f"turn {state.data.turn}, {state.data.phase}/{state.data.step}, after {actions} actions")
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return GameRecord(**base, error=f"{type(exc).__name__}: {first}".rstrip(": "), where=where, actions=actions,
                          detail=traceback.format_exc(), seconds=time.perf_counter() - start)


def _record(spec: GameSpec, base: dict[str, Any], state: Any, actions: int, stopped: str | None,
            seconds: float) -> GameRecord:
    sides = [side for side, _ in spec.bots]
    answer = _vp_answer(state) if spec.vps else None
    vps = None
    if answer is not None:
        vps = {s: answer[s]["vp"] for s in sides if isinstance(answer.get(s), Mapping) and "vp" in answer[s]}
    result = state.result()
    turn = state.data.turn
    turns = spec.max_turns if stopped == "max_turns" else turn
    if result is not None:
        winner, level, reason = result.get("winner"), result.get("level"), str(result.get("reason") or "")
    else:
        why = f"turn {turns} was the last played (--max-turns)" if stopped == "max_turns" else \
            f"stopped after {actions} actions (--max-actions), in turn {turn}"
        if answer is not None:
            winner, level = answer.get("winner"), answer.get("level")
            reason = f"{why}; scored by victory points as it stands"
        else:
            winner, level, reason = None, None, f"{why}; not scored"
    events, digest = _digest(state.trace)
    return GameRecord(**base, winner=winner, level=level, reason=reason, over=result is not None,
                      stopped=stopped, turns=int(turns or 0), actions=actions, vps=vps, events=events,
                      digest=digest, seconds=seconds)


# ---------------------------------------------------------------------------------- backends
@dataclass(frozen=True)
class Backend:
    """Where games are played: ``serial`` (this process), ``pool`` (``workers`` local processes)
    or ``dask`` (a Dask distributed scheduler at ``address``; ``"local"`` starts a LocalCluster
    of ``workers`` single-threaded workers — processes, or threads with ``processes=False``)."""

    kind: str = "serial"
    workers: int = 1
    address: str | None = None
    processes: bool = True

    @classmethod
    def choose(cls, workers: int | None, scheduler: str | None) -> Backend:
        """Dask when a scheduler is named, else a pool of ``workers`` (serial for one worker)."""
        n = workers or default_workers()
        if scheduler:
            return cls("dask", n, scheduler)
        return cls("serial" if n <= 1 else "pool", n)

    def describe(self) -> str:
        if self.kind == "dask":
            where = f"a local Dask cluster of {self.workers} workers" if self.address == "local" \
                else f"the Dask scheduler {self.address}"
            return where
        return "this process" if self.kind == "serial" else f"a pool of {self.workers} processes"

    def imap(self, specs: Sequence[GameSpec]) -> Iterator[tuple[int, GameRecord]]:
        """``(index, record)`` for every spec, in the order they finish."""
        if self.kind == "serial":
            return ((i, play_one(s)) for i, s in enumerate(specs))
        if self.kind == "pool":
            return _pool(specs, self.workers)
        if self.kind == "dask":
            return _dask(specs, self.address or "local", self.workers, self.processes)
        raise ValueError(f"unknown backend {self.kind!r}: expected serial, pool or dask")


def _lost(spec: GameSpec, exc: BaseException) -> GameRecord:
    """The record of a game whose worker failed (the game itself never raises out of play_one)."""
    return GameRecord(spec.game, spec.scenario, spec.seed, dict(spec.bots), dict(spec.settings),
                      error=f"{type(exc).__name__}: {exc}", where="worker")


def _watch(parent: int) -> None:
    """Worker initializer: end this worker when the process that started the batch is gone (killed
    by SIGKILL or the OOM killer, it cannot stop its workers itself). A daemon thread checks once a
    second."""
    import threading

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # pragma: no cover - a pid reused by another user
                os._exit(1)

    threading.Thread(target=watch, daemon=True, name="casebook-parent-watch").start()


def _pool(specs: Sequence[GameSpec], workers: int) -> Iterator[tuple[int, GameRecord]]:
    # forkserver: no fork of a process that runs threads (the progress bar, a Dask client)
    ctx = get_context("forkserver") if os.name == "posix" else None
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_watch,
                             initargs=(os.getpid(),)) as pool:
        try:
            futures = {pool.submit(play_one, spec): i for i, spec in enumerate(specs)}
            for future in as_completed(futures):
                i = futures[future]
                try:
                    yield i, future.result()
                except Exception as exc:
                    yield i, _lost(specs[i], exc)
        except BaseException:  # interrupted or terminated: leave no worker playing on
            for process in list(getattr(pool, "_processes", {}).values()):  # no public handle
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


#: Seconds to wait for a Dask scheduler's handshake before giving up.
CONNECT_SECONDS = 45


def _connect(client_class: Any, address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or ConnectionError naming it: a port that
    accepts but never answers (a web server, the dashboard port) must not hang the batch, and
    garbage from a non-Dask service must not surface as a traceback."""
    import socket
    import threading
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.hostname and parts.port:  # a closed port is refused at once: no need to wait
        try:
            socket.create_connection((parts.hostname, parts.port), timeout=5).close()
        except ConnectionRefusedError as exc:
            raise ConnectionError(f"no Dask scheduler at {address} (connection refused: {exc})") from None
        except socket.gaierror as exc:
            raise ConnectionError(f"no Dask scheduler at {address} (host not found: {exc})") from None
        except OSError:  # unreachable or slow: let the Dask client say so below
            pass
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = client_class(address, timeout=f"{CONNECT_SECONDS - 5}s")
        except BaseException as exc:  # noqa: BLE001 - reported below, whatever it was
            box["error"] = exc

    thread = threading.Thread(target=connect, daemon=True)  # daemon: a hung handshake dies with us
    thread.start()
    thread.join(CONNECT_SECONDS)
    if "client" in box:
        return box["client"]
    why = f"{type(box['error']).__name__}: {box['error']}" if "error" in box else "no answer"
    raise ConnectionError(f"no Dask scheduler at {address} ({why}; waited up to "
                          f"{CONNECT_SECONDS} s)")


def _dask(specs: Sequence[GameSpec], address: str, workers: int,
          processes: bool) -> Iterator[tuple[int, GameRecord]]:
    from dask.distributed import Client, LocalCluster
    from dask.distributed import as_completed as dask_completed

    cluster = None
    if address == "local":  # ":0": any free port, never a clash with a cluster already on 8787
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = Client(cluster)
    else:
        client = _connect(Client, address)
    try:
        futures = [client.submit(play_one, spec, pure=False) for spec in specs]
        index = {f.key: i for i, f in enumerate(futures)}
        for future in dask_completed(futures):
            i = index[future.key]
            try:
                yield i, future.result()
            except Exception as exc:
                yield i, _lost(specs[i], exc)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_batch(specs: Sequence[GameSpec], backend: Backend | None = None,
              on_done: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play every spec on ``backend`` (default serial); records in spec order. ``on_done`` is
    called with each record as its game finishes (for a progress display)."""
    records: list[GameRecord | None] = [None] * len(specs)
    for i, record in (backend or Backend()).imap(specs):
        records[i] = record
        if on_done is not None:
            on_done(record)
    return [r for r in records if r is not None]
