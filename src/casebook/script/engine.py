"""The engine of one game: content, map, compiled rule scripts and plugins, and the per-query
context (:class:`Ctx`) every hook receives.

An :class:`Engine` is loaded once per pack (``Engine.load("mini")``, a game id or a pack folder) and is immutable; a
:class:`Ctx` binds it to one :class:`~casebook.core.state.GameState` (and optionally a
:class:`~casebook.core.trace.Trace`). Plugins compute through the context:

- ``ctx.state``, ``ctx.board`` (the position's inline map or the pack's map), ``ctx.pack``;
- ``ctx.quantity(name, facts)`` / ``ctx.value(name, facts)`` — a rule-script quantity with (or
  without) its explanation, tables of the pack available to the script;
- ``ctx.permission(action, facts)`` — a rule-script permission verdict;
- ``ctx.hook`` — the plugin manager's hooks, to ask another rules area (plugins never import each
  other);
- ``ctx.record(kind, cases, data)`` — a trace event (no-op for a pure query without a trace);
- ``ctx.memo`` — a cache for derived maps (ZOC, supply) keyed by the state's version, so it is
  shared by every context on the same content and never outlives a change;
  ``ctx.lasting(name, *depends_on)`` — a cache that survives changes, for values that depend
  only on the board and what the caller names (terrain costs under a weather); ``ctx.kept`` reads
  and fills it keeping each value's rule-script lines, ``ctx.apart()`` runs a search whose lines
  are no event's (``ctx.apart(recorded=False)``: nor an answer's or a refusal's;
  docs/rule-language.md, "Which lines an event names").

The kernel names no game: which plugins and scripts run is the manifest's choice.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any

from casebook.content.loader import find_pack, load_pack
from casebook.content.mapdata import board_from_map
from casebook.content.pack import Pack
from casebook.content.plugins import CasebookPluginManager, make_plugin_manager
from casebook.content.sequence_data import sequence_from_dict
from casebook.core.board import Board
from casebook.core.sequence import Sequence
from casebook.core.state import GameState
from casebook.core.trace import Trace

from .ctx import Ctx, Lasting
from .explain import line_entry

__all__ = ["Engine", "Ctx", "load_engine", "state_from_position"]  # Ctx: re-exported (docs/plugins.md names it here)

#: How many state versions keep their derived-map caches.
_MEMO_VERSIONS = 32
#: How many distinct dependency keys keep a lasting cache (least recently used dropped first:
#: the caches of a weather no longer in force go; bounds the memory of a long game).
_LASTING_KEYS = 128


@dataclass(frozen=True, eq=False)
class Engine:
    """One loaded game: ``pack`` (content), ``board`` (the pack's map), ``rules`` (compiled rule
    scripts, a :class:`casebook.script.RuleSet`), ``pm`` (plugins of the manifest) and
    ``sequence`` (the sequence of play)."""

    pack: Pack
    board: Board
    rules: Any
    pm: CasebookPluginManager
    sequence: Sequence
    _boards: dict[str, Board] = field(default_factory=dict, repr=False)
    _memos: OrderedDict[int, dict[Any, Any]] = field(default_factory=OrderedDict, repr=False)
    _lasting: OrderedDict[Any, dict[Any, Any]] = field(default_factory=OrderedDict, repr=False)
    _recent: list[Any] = field(default_factory=lambda: [None, None], repr=False)
    _settings: dict[str, Any] = field(default_factory=dict, repr=False)
    #: the standard facts' records cache, shared by every context (keyed by state version)
    _std_cache: dict[Any, Any] = field(default_factory=dict, repr=False)
    #: ``[None]``, or ``[{source: line}]`` while :meth:`recording_lines` collects the script lines
    _recording: list[Any] = field(default_factory=lambda: [None], repr=False)

    @property
    def setting_defaults(self) -> Mapping[str, Any]:
        """name -> the interpretations register's reading of every setting (computed once)."""
        found = self._settings.get("defaults")
        if found is None:
            from casebook.script.standard import setting_defaults

            found = self._settings["defaults"] = setting_defaults(self.pack.interpretations)
        return found

    @property
    def derived_facts(self) -> Mapping[str, tuple[str, str]]:
        """fact -> (``track`` | ``markers``, what it reads): the facts.yaml facts given by
        ``provider: track`` / ``markers`` (computed once)."""
        found = self._settings.get("derived")
        if found is None:
            schema = getattr(self.rules, "schema", None)
            facts = getattr(schema, "facts", {}) or {}
            found = self._settings["derived"] = {n: (t.provider, t.of, *t.keys) for n, t in facts.items()
                                                 if t.provider in ("track", "markers")}
        return found

    @contextmanager
    def recording_lines(self) -> Iterator[list[dict[str, Any]]]:
        """Collect every rule-script line that fires while the block runs — the ``lines`` of an
        ask answer or a refusal: ``[{"source": "x.rules:12", "cases": [...], "text": "..."}]``
        in the order they first fired, each once. Every evaluation is explained meanwhile, and
        the derived-map caches start empty (restored after), so a cached number still names
        the lines that made it. Nested in another: the lines fired in the block (the caches as
        they are), added to the outer block's too."""
        out: list[dict[str, Any]] = []
        outer = self._recording[0]
        if outer is not None:  # nested: its own lines, and the outer block's
            mine: dict[str, dict[str, Any]] = {}
            self._recording[0] = mine
            try:
                yield out
            finally:
                self._recording[0] = outer
                for source, entry in mine.items():
                    outer.setdefault(source, entry)
                out.extend(mine.values())
            return
        saved = (OrderedDict(self._memos), list(self._recent), OrderedDict(self._lasting))
        self._memos.clear()
        self._recent[:] = [None, None]
        self._lasting.clear()
        seen: dict[str, dict[str, Any]] = {}
        self._recording[0] = seen
        try:
            yield out
        finally:
            self._recording[0] = None
            self._memos.clear()
            self._memos.update(saved[0])
            self._recent[:] = saved[1]
            self._lasting.clear()
            self._lasting.update(saved[2])
            out.extend(seen.values())

    @property
    def recording(self) -> bool:
        """Whether a :meth:`recording_lines` block is running."""
        return self._recording[0] is not None

    @contextmanager
    def lines_apart(self, add: bool = True) -> Iterator[dict[str, dict[str, Any]]]:
        """Inside :meth:`recording_lines`: run the block as a recording of its own — the derived-map
        caches empty (restored after), its lines collected in the dict yielded — then add those
        lines to the recording, in their order (those it holds already left; none with ``add``
        false: a listing no answer names, ``Ctx.apart(recorded=False)``). A value made in the
        block and kept elsewhere (a cache across processes) so keeps the lines that made it, to
        be noted again where it is reused (:meth:`note_entries`). Outside a recording: a plain
        block (the dict stays empty)."""
        outer = self._recording[0]
        mine: dict[str, dict[str, Any]] = {}
        if outer is None:
            yield mine
            return
        saved = (OrderedDict(self._memos), list(self._recent), OrderedDict(self._lasting))
        self._memos.clear()
        self._recent[:] = [None, None]
        self._lasting.clear()
        self._recording[0] = mine
        try:
            yield mine
        finally:
            self._recording[0] = outer
            self._memos.clear()
            self._memos.update(saved[0])
            self._recent[:] = saved[1]
            self._lasting.clear()
            self._lasting.update(saved[2])
            for source, entry in mine.items() if add else ():
                outer.setdefault(source, entry)

    def note_entries(self, entries: list[dict[str, Any]]) -> None:
        """Add recorded line entries (``{"source", "cases", "text"}``, e.g. kept by
        :meth:`lines_apart` with a cached value) to the lines being recorded, in order."""
        seen = self._recording[0]
        if seen is not None:
            for entry in entries:
                seen.setdefault(entry["source"], dict(entry))

    def note_lines(self, explanation: Any, into: dict[str, dict[str, Any]] | None = None) -> None:
        """Add the lines of ``explanation`` that decided it (:meth:`Explanation.deciding
        <casebook.script.explain.Explanation.deciding>`: a term that adds 0 or a permit a deciding
        forbid overrules is none of them) to the lines being recorded (:meth:`recording_lines`; or
        to ``into``, an event's lines), each once, in the order first seen."""
        seen = self._recording[0] if into is None else into
        if seen is None:
            return
        for m in explanation.deciding():
            if m.source not in seen:
                seen[m.source] = line_entry(m)

    def noting_into(self, event_lines: dict[str, dict[str, Any]] | None) -> list[dict[str, dict[str, Any]]]:
        """The dicts a verdict's deciding lines go into now: the lines being recorded
        (:meth:`recording_lines`) and ``event_lines`` (an event's), those that are not None."""
        return [d for d in (self._recording[0], event_lines) if d is not None]

    @property
    def script_tables(self) -> Mapping[str, Any]:
        """The tables rule scripts read: the pack's charts and its records tables (rows) by id."""
        found = self._settings.get("script_tables")
        if found is None:
            found = self._settings["script_tables"] = {**self.pack.records, **self.pack.tables}
        return found

    @property
    def track_bounds(self) -> Mapping[str, Any]:
        """name -> the :class:`~casebook.content.tracks.TrackBound` of each track the vocabulary
        declares, resolved under the compiled rules (computed once)."""
        found = self._settings.get("tracks")
        if found is None:
            from casebook.content.tracks import track_bounds

            found = self._settings["tracks"] = track_bounds(self.pack.vocabulary.tracks, self.rules)
        return found

    def declare(self, state: GameState) -> GameState:
        """``state`` with the game's sides and tracks attached (:meth:`GameState.declare`)."""
        if not state.declared:
            state.declare(self.pack.vocabulary.side_ids, self.track_bounds)
        return state

    def position_data(self, position: Any) -> dict[str, Any]:
        """A loaded position (a scenario's :class:`~casebook.content.schema_position.Position`) as
        the plain dict a :class:`GameState` is built from."""
        from casebook.content.position import position_to_dict

        return position_to_dict(position)

    def save_problems(self, data: Mapping[str, Any]) -> list[Any]:
        """Every problem of a saved position ``data`` under this game
        (:func:`casebook.content.savecheck.save_problems`, located at ``<save>``)."""
        from casebook.content.savecheck import save_problems

        return save_problems(data, self, lambda kp: ("<save>", 0, 0))

    def lasting(self, board: Board, depends_on: tuple[Any, ...]) -> dict[Any, Any]:
        """A cache that outlives state changes, for values that depend only on the board and on
        ``depends_on`` (e.g. the weather and a setting, for terrain costs)."""
        key = (id(board), depends_on)
        lasting = self._lasting
        cache = lasting.get(key)
        if cache is None:
            cache = lasting[key] = Lasting()
            while len(lasting) > _LASTING_KEYS:
                lasting.popitem(last=False)  # the least recently used: e.g. an old weather's tables
        else:
            lasting.move_to_end(key)
        return cache

    def memo_for(self, state: GameState) -> dict[Any, Any]:
        """The cache of derived maps for this content of ``state`` (by :attr:`GameState.version`;
        the last few versions are kept, so a clone or a rollback to a known content reuses it)."""
        version = state.version
        recent = self._recent
        if recent[0] == version:  # the same version as the last call: most calls of a step
            return recent[1]
        memos = self._memos
        memo = memos.get(version)
        if memo is None:
            memo = memos[version] = {}
            while len(memos) > _MEMO_VERSIONS:
                memos.popitem(last=False)
        else:
            memos.move_to_end(version)
        recent[0], recent[1] = version, memo
        return memo

    @classmethod
    def load(cls, game_or_dir: str | Path, *, extra_plugins: Mapping[str, Any] | None = None) -> Engine:
        """Load pack ``game_or_dir`` (a game id or a pack directory), build its board, compile its
        rule scripts and register its plugins (plus ``extra_plugins``: name -> plugin object, for
        tests and tools).

        Raises ContentError (content, plugins, the tables and script quantities a listed plugin
        requires: :mod:`casebook.content.requires`) or ScriptSyntaxError (rule scripts), each listing
        every problem found.
        """
        from casebook.content.packcache import pack_board
        from casebook.script.pack import compile_loaded_pack

        pack = load_pack(game_or_dir)
        board = pack_board(pack)
        rules = compile_loaded_pack(pack)
        from casebook.content.requires import pack_requirement_problems
        from casebook.core.errors import ContentError

        missing = pack_requirement_problems(pack, rules)
        if missing:  # what a listed plugin needs is not in the pack: refused as lint refuses it
            raise ContentError(missing)
        pm = make_plugin_manager(pack.manifest.get("plugins") or [],
                                 file=str(pack.dir / "game.yaml"), extra=dict(extra_plugins or {}))
        sequence = sequence_from_dict(pack.sequence, file=str(pack.dir / pack.manifest["sequence"]))
        lines_per_function(pm)
        return cls(pack, board, rules, pm, sequence)

    @property
    def hook(self) -> Any:
        """The plugin manager's hook relay (``engine.hook.casebook_zoc(ctx=…, …)``)."""
        return self.pm.hook

    def board_for(self, state: GameState) -> Board:
        """The board a state is played on: its inline map (built once per distinct map) or the
        pack's board."""
        inline = state.map
        if not inline:
            return self.board
        key = json.dumps(inline, sort_keys=True, default=str)
        board = self._boards.get(key)
        if board is None:
            board = self._boards[key] = board_from_map(inline)
        return board

    def triggered(self, ctx: Any, event: str, facts: Mapping[str, Any]) -> dict[str, Any] | None:
        """Carry out the rule-script triggers of ``event`` (``action_ends``, ``step_ends``,
        ``turn_starts``) with ``facts``: :func:`casebook.script.effects.triggered`; the game result
        of an ``end the game`` line that fired, else None."""
        from casebook.script.effects import triggered

        return triggered(ctx, event, facts)

    def ctx(self, state: GameState, trace: Trace | None = None, *, event_lines: bool = False) -> Ctx:
        """A context binding this engine to ``state`` (and ``trace`` for recorded play).

        ``event_lines``: the context collects the rule-script lines that fire through it and
        attaches them to the next event it records (``data["lines"]``, see :meth:`Ctx.record`);
        it then keeps its own derived-map caches, so the lines an event names never depend on
        what an earlier query left in a cache (a replay records the same lines as the play)."""
        if not state.declared:
            self.declare(state)
        return Ctx(self, state, self.board_for(state), trace, {} if event_lines else None)


#: The hooks the driver of play calls with a context collecting an event's lines.
_DRIVER_HOOKS = ("casebook_setup", "casebook_step_start", "casebook_step_end", "casebook_turn_end",
                 "casebook_apply_action", "casebook_after_action", "casebook_game_result", "casebook_decider")


def lines_per_function(pm: CasebookPluginManager) -> None:
    """Let each plugin function of the driver's hooks (:data:`_DRIVER_HOOKS`) collect its events'
    lines afresh: the lines another plugin's function fired in the same hook call (asking
    whether its step has come, judging offers it then did not make) are never this one's
    (:meth:`Ctx.begin_lines`; a hook asked from inside a plugin function collects on)."""
    for name in _DRIVER_HOOKS:
        caller = getattr(pm.hook, name, None)
        for impl in caller.get_hookimpls() if caller is not None else ():
            if "ctx" in impl.argnames and not getattr(impl.function, "_lines_fresh", False):
                impl.function = _fresh_lines(impl.function, impl.argnames.index("ctx"))


def _fresh_lines(fn: Any, at: int) -> Any:
    @wraps(fn)
    def run(*args: Any) -> Any:
        ctx = args[at]
        mine = getattr(ctx, "__dict__", {})
        depth = mine.get("_in_driver_hook", 0)
        if not depth and getattr(ctx, "event_lines", None) is not None:
            ctx.begin_lines()
        mine["_in_driver_hook"] = depth + 1
        try:
            return fn(*args)
        finally:
            mine["_in_driver_hook"] = depth
    run._lines_fresh = True  # type: ignore[attr-defined]
    return run


@lru_cache(maxsize=8)
def _cached_engine(pack_dir: str) -> Engine:
    return Engine.load(pack_dir)


def load_engine(game_or_dir: str | Path) -> Engine:
    """:meth:`Engine.load` cached per pack directory (the engine is immutable)."""
    return _cached_engine(str(find_pack(game_or_dir).resolve()))


def state_from_position(position: Any) -> GameState:
    """A :class:`GameState` from a validated position (``load_position`` result) or a plain
    position dict."""
    from casebook.content.position import position_to_dict

    data = position if isinstance(position, Mapping) else position_to_dict(position)
    return GameState.from_dict(data)

