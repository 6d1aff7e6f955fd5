"""The per-query context every hook receives: :class:`Ctx`, an :class:`~casebook.script.engine.Engine`
bound to one :class:`~casebook.core.state.GameState` (and optionally a :class:`~casebook.core.trace.Trace`),
made by :meth:`Engine.ctx <casebook.script.engine.Engine.ctx>`.

Plugins compute through it (the list is in :mod:`casebook.script.engine`'s docstring): the state,
board and pack, rule-script quantities and permissions with their explanations, the hooks of the
other rules areas, trace events (``ctx.record``) and the caches ``ctx.memo`` (per state version)
and ``ctx.lasting`` (kept across changes, keyed by what the caller names).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from casebook.content.pack import Pack, Table
from casebook.content.tablelines import cite_again, reads_apart
from casebook.core.board import Board
from casebook.core.state import GameState
from casebook.core.trace import Event, Trace

from .explain import line_entry, unique_lines
from .factlines import borrow, borrowing

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["Ctx", "Lasting"]

_T = TypeVar("_T")
_MISSING = object()
_MEMO_KEPT = ("ctx.memo_kept",)  # the key of :meth:`Ctx.memo_lasting`'s cache in ctx.memo


class Lasting(dict):
    """A lasting cache (:meth:`Ctx.lasting`): key -> value, and in :attr:`lines` key -> the
    rule-script line entries that fired while the value was computed (:meth:`Ctx.kept`), and in
    :attr:`reads` key -> the table cells and rows it read while ``ask`` collected them."""

    __slots__ = ("lines", "reads")

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[Any, tuple[dict[str, Any], ...]] = {}
        self.reads: dict[Any, tuple[Any, ...]] = {}


@dataclass(eq=False)
class Ctx:
    """What every hook receives: the engine bound to one state (see the module docstring)."""

    engine: Engine
    state: GameState
    board: Board
    trace: Trace | None = None
    #: ``None``, or ``{source: line}``: the script lines fired since the last event (:meth:`Engine.ctx`)
    event_lines: dict[str, dict[str, Any]] | None = None
    #: ``None``, or the action :meth:`State.peek` found listed: applied without listing its choices again
    listed: Any = None

    @property
    def memo(self) -> dict[Any, Any]:
        """A cache for derived maps, valid for the state's current content (a new, empty one
        after any change: caches never outlive the content they were computed from)."""
        if self.event_lines is not None:  # a cache of this context alone: its lines never come
            own = self.__dict__.get("_own")  # from another query's cache; only the current
            version = self.state._version    # content's memo is kept
            if own is None or own[0] != version:
                own = self.__dict__["_own"] = (version, {})
            return own[1]
        recent = self.engine._recent  # the version asked last: most calls (inlined, a hot path)
        if recent[0] == self.state._version:
            return recent[1]
        return self.engine.memo_for(self.state)

    @property
    def pack(self) -> Pack:
        return self.engine.pack

    @property
    def rules(self) -> Any:
        return self.engine.rules

    @property
    def hook(self) -> Any:
        return self.engine.pm.hook

    def table(self, table_id: str) -> Any:
        """A chart of the pack by id (KeyError naming it if absent)."""
        try:
            return self.engine.pack.tables[table_id]
        except KeyError:
            raise KeyError(f"the pack has no table {table_id!r}") from None

    def records(self, table_id: str) -> list[dict[str, Any]]:
        """A records table of the pack by id (KeyError naming it if absent)."""
        try:
            return self.engine.pack.records[table_id]
        except KeyError:
            raise KeyError(f"the pack has no records table {table_id!r}") from None

    @property
    def standard(self) -> Mapping[str, Any]:
        """The standard facts of this state (turn, weather, phasing side, scenario, settings:
        :class:`casebook.script.standard.StandardFacts`), given to every evaluation."""
        std = self.__dict__.get("_standard")
        if std is None:
            from casebook.script.standard import StandardFacts

            std = self.__dict__["_standard"] = StandardFacts(self.state, self.engine.setting_defaults, self.board,
                                                             self.engine.derived_facts, self.engine._std_cache)
        return std

    def value(self, name: str, facts: Mapping[str, Any]) -> Any:
        """Rule-script quantity ``name`` for ``facts`` (fast path: no explanation); the standard
        facts (:attr:`standard`) fill in what ``facts`` does not give."""
        if self.engine._recording[0] is not None or self.event_lines is not None:  # its lines noted
            into = self.engine.noting_into(None if self.__dict__.get("_paused") else self.event_lines)
            with self._rows_read():
                return self.engine.rules.value_noting(name, facts, into, line_entry, self.engine.script_tables,
                                                      self.standard)
        return self.engine.rules.value(name, facts, self.engine.script_tables, self.standard)

    def quantity(self, name: str, facts: Mapping[str, Any]) -> Any:
        """Rule-script quantity ``name`` for ``facts`` with its :class:`Explanation`
        (``.value``, and every line with cases and ``file:line``)."""
        made: list[Any] = []
        with self._rows_read(made) as rows:
            e = self.engine.rules.explain(name, facts, self.engine.script_tables, self.standard)
            made.append(e)
            self._note(e)
        if rows:  # the records rows its lines selected: for fired_lines
            object.__setattr__(e, "_table_rows", rows)
        object.__setattr__(e, "_lent", borrow(self, e, facts))  # a read fact's lines (factlines): for fired_lines
        return e

    @contextmanager
    def _rows_read(self, explanation: list[Any] | None = None) -> Iterator[list[dict[str, Any]]]:
        """The file:line of each records row a ``table T[…].field`` term of a *deciding* line
        selects in the block (:data:`casebook.script.tablerows.ROW_READS`): noted for this
        context's next event (a table line after its rule lines) and yielded; an outer collector
        (``ask``) gets those rows too. ``explanation``: a one-item list the block fills with the
        :class:`Explanation` whose deciding lines are meant (else the lines noted meanwhile)."""
        from casebook.script.tablerows import ROW_READS

        outer = ROW_READS[0]
        reads: list[tuple[str, Mapping[str, Any], str]] = []
        ROW_READS[0] = reads
        found: list[dict[str, Any]] = []
        try:
            yield found
        finally:
            ROW_READS[0] = outer
            ev = None if self.__dict__.get("_paused") else self.event_lines
            if explanation:
                deciding = {m.source for m in explanation[0].deciding()}
            else:
                deciding = {*(ev or ()), *(self.engine._recording[0] or ())}
            names = {s.rsplit("/", 1)[-1] for s in deciding}
            kept = [r for r in reads if r[2] in names]
            if outer is not None:
                outer.extend(kept)
            for table, row, _ in kept:
                entry = self.engine.pack.table_lines.row(table, row)
                if entry is not None and entry not in found:
                    found.append(entry)
            if ev is not None:
                for entry in found:
                    ev.setdefault(entry["source"], entry)

    def permission(self, action: str, facts: Mapping[str, Any]) -> Any:
        """Rule-script verdict on ``action`` for ``facts`` (allowed, and the cases deciding)."""
        lent = borrowing(self, facts)
        e = self.engine.rules.permission(action, facts, self.engine.script_tables, self.standard)
        self._note(e)
        if lent:  # the lines that computed a fact a deciding line read
            borrow(self, e, facts)
        return e

    def _note(self, e: Any) -> None:
        """Note the lines of explanation ``e`` for the recording and this context's next event."""
        self.engine.note_lines(e)
        if self.event_lines is not None and not self.__dict__.get("_paused"):
            self.engine.note_lines(e, self.event_lines)

    def allowed(self, action: str, facts: Mapping[str, Any]) -> bool:
        """Whether the rule scripts allow ``action`` for ``facts`` (fast path: no explanation)."""
        engine = self.engine
        if engine._recording[0] is None and (self.event_lines is None or self.__dict__.get("_paused")):
            return bool(engine.rules.allowed(action, facts, engine.script_tables, self.standard))
        if engine._recording[0] is not None and hasattr(facts, "lines"):  # its facts' lines lent
            return bool(self.permission(action, facts).value)
        into = engine.noting_into(None if self.__dict__.get("_paused") else self.event_lines)
        # the deciding lines noted as :meth:`permission` notes them, each line explained once
        return bool(engine.rules.allowed_noting(action, facts, into, line_entry, engine.script_tables, self.standard))

    def fire(self, event: str, facts: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The effects of the rule scripts' triggers of ``event`` that fire for ``facts``
        (:meth:`casebook.script.RuleSet.fire`; carried out by :mod:`casebook.script.effects`)."""
        effects = self.engine.rules.fire(event, facts, self.engine.script_tables, self.standard)
        seen_by = (self.engine._recording[0], None if self.__dict__.get("_paused") else self.event_lines)
        for seen in (d for d in seen_by if d is not None):
            for e in effects:
                seen.setdefault(e["source"], {"source": e["source"], "cases": e["cases"], "text": e["text"]})
        return effects

    def fired_lines(self, *explanations: Any) -> list[dict[str, Any]]:
        """``[{"source": "x.rules:12", "cases": [...]}]``: every script line that decided one of
        ``explanations`` (:meth:`Explanation.deciding <casebook.script.explain.Explanation.deciding>`:
        a term adding 0 is none; a most-severe group: its winning member), each once in the order
        first seen, for a trace event's ``lines`` (``casebook explain`` prints each line's text).
        Sources are relative to the game's rules folder, as every rule line the engine names."""
        out: dict[str, dict[str, Any]] = {}
        for e in explanations:
            for m in e.deciding():  # each after the lines that computed a fact it read (``_lent``)
                for ln in getattr(e, "_lent", {}).get(m.source, ()):
                    out.setdefault(ln["source"], {"source": ln["source"], "cases": list(ln["cases"])})
                out.setdefault(m.source, {"source": m.source, "cases": list(m.cases)})
        for e in explanations:  # then the table rows its lines selected
            for ln in getattr(e, "_table_rows", ()):
                out.setdefault(ln["source"], {"source": ln["source"], "cases": list(ln["cases"])})
        return list(out.values())

    def record(self, kind: str, cases: Any = (), data: Mapping[str, Any] | None = None, *,
               source: str = "", side: str | None = None, lines: bool = True) -> Event | None:
        """Append a trace event (``seq`` from the state); None when this context has no trace.

        In an ``event_lines`` context (:meth:`Engine.ctx`, play's) the rule-script lines that
        fired through it since its last event are the event's ``data["lines"]``
        (``[{"source": "x.rules:12", "cases": [...]}]``, in the order they first fired) unless
        ``data`` names its own ``lines`` or ``lines=False`` (the driver's bookkeeping events);
        then the collection starts again. No line fired: no ``lines`` key."""
        if self.trace is None:
            return None
        payload = dict(data or {})
        if isinstance(payload.get("lines"), list):  # a line named once (the order first seen)
            payload["lines"] = unique_lines(payload["lines"])
        fired = self.event_lines
        if fired is not None:
            if lines and fired and "lines" not in payload:
                payload["lines"] = [{"source": ln["source"], "cases": list(ln["cases"])} for ln in fired.values()]
            fired.clear()
            self.__dict__["_paused"] = False
        return self.trace.record(self.state, kind, cases=tuple(cases), source=source, data=payload, side=side)

    def begin_lines(self) -> None:
        """Start collecting an event's lines afresh (the driver calls it before each hook it
        runs, so lines fired for one rules area never go to another's event)."""
        if self.event_lines is not None:
            self.event_lines.clear()
            self.__dict__["_paused"] = False

    @contextmanager
    def apart(self, recorded: bool = True) -> Iterator[None]:
        """A block whose lines are not the next event's: a board-wide search or table filled
        for many events (a reach over every hex), whose values an event does not all use — the
        event names the lines of what it uses, read again through :meth:`kept`. (The lines still
        go to a :meth:`Engine.recording_lines` answer; with ``recorded`` false not even there: a
        listing a refusal or an answer reads, which then names the lines of the entries it is
        about, evaluated again outside the block — ``Engine.lines_apart(add=False)``. The table
        cells it reads go to no answer's table lines: :func:`casebook.content.tablelines.reads_apart`.)"""
        if not recorded:
            with self.engine.lines_apart(add=False), self.apart():
                yield
            return
        mine = self.__dict__
        paused, own = mine.get("_paused"), mine.get("_own")
        # a memo of its own (kept between blocks): a map the block makes never hides the lines
        # of that map from an event that reads it later
        mine["_paused"], mine["_own"] = True, mine.get("_apart_own")
        try:
            with reads_apart():
                yield
        finally:
            mine["_apart_own"] = mine.get("_own")
            mine["_paused"], mine["_own"] = paused, own

    def lasting(self, *depends_on: Any, pause: bool = True) -> dict[Any, Any]:
        """A cache kept across state changes for values that depend only on the board and on
        ``depends_on`` — name everything else the values depend on, e.g.
        ``ctx.lasting("movement.cell", temperature, ground)``. Use :attr:`memo` for anything
        that depends on where the units are.

        A value computed from rule-script lines goes through :meth:`kept`, which keeps its lines
        with it. Read directly, in an ``event_lines`` context the lines that fire from here to
        the next event are not collected (whether a value was computed now or found must not
        change what an event names) — unless ``pause=False`` says that no script line is evaluated
        for these values but through :meth:`kept` or in an :meth:`apart` block (or none at all:
        board geometry, the cases a line cites)."""
        if pause and self.event_lines is not None:
            self.__dict__["_paused"] = True
        return self.engine.lasting(self.board, depends_on)

    def kept(self, depends_on: tuple[Any, ...] | Lasting, key: Any, compute: Callable[[], _T],
             cited: Callable[[_T], Collection[str]] | None = None) -> _T:
        """The value of ``key`` in the lasting cache ``ctx.lasting(*depends_on)`` (or the lasting
        cache ``depends_on`` itself, found with ``pause=False``), made by
        ``compute()`` on a miss — with its lines: while lines are collected (an ``event_lines``
        context, :meth:`Engine.recording_lines`), the script lines that fired in ``compute`` are
        kept beside the value and noted again at every read, hit or miss, so an event or an
        answer names the same lines whatever the cache held. A value computed while nothing
        collected is computed once more the first time it is read collecting (then kept).
        ``cited``: the lines kept are only those citing a case ``cited(value)`` gives (an answer
        keeps the lines that decided what it cites, as ``casebook ask`` filters its lines)."""
        engine = self.engine
        cache: Any = depends_on if depends_on.__class__ is Lasting else engine.lasting(self.board, depends_on)  # type: ignore[arg-type]
        outer_rec, outer_ev = engine._recording[0], self.event_lines
        if outer_ev is None and outer_rec is None:  # the fast path: play's look-ahead, bots
            found = cache.get(key, _MISSING)
            if found is _MISSING:
                found = cache[key] = compute()
            return found
        fired = cache.lines.get(key)
        if fired is not None and (Table.reads is None or key in cache.reads):  # cells kept when ask collects them
            found = cache.get(key, _MISSING)
            if found is not _MISSING:
                self._replay(fired)
                cite_again(cache.reads.get(key))
                return found
        frame: dict[str, dict[str, Any]] = {}
        mine = self.__dict__
        paused, own = mine.get("_paused"), mine.get("_own")
        self.event_lines = frame if outer_ev is not None else None
        if outer_rec is not None:
            engine._recording[0] = frame
        # computed afresh: no line lost to what this context's memo already held
        mine["_paused"], mine["_own"] = False, None
        reads = None
        try:
            if Table.reads is None:  # no table cell collected (play): no block
                found = compute()
            else:
                with reads_apart() as reads:  # the table cells it reads: kept with it, cited again
                    found = compute()
        finally:
            self.event_lines = outer_ev
            engine._recording[0] = outer_rec
            mine["_paused"], mine["_own"] = paused, own
        cache[key] = found
        lines = cache.lines
        if len(lines) > 2 * len(cache) + 64:  # the values' own bound evicted some: theirs go
            for gone in [k for k in lines if k not in cache]:
                del lines[gone]
        if cited is None:
            lines[key] = fired = tuple(frame.values())
        else:
            cases = set(cited(found))
            lines[key] = fired = tuple(e for e in frame.values() if cases.intersection(e["cases"]))
        self._replay(fired)
        if reads is not None:
            cache.reads[key] = tuple(reads)
            cite_again(reads)
        for gone in [k for k in cache.reads if k not in cache] if len(cache.reads) > len(cache) + 64 else ():
            del cache.reads[gone]
        return found

    def memo_lasting(self) -> Lasting:
        """The :class:`Lasting` kept in :attr:`memo` (per state version) for :meth:`kept`:
        ``ctx.kept(ctx.memo_lasting(), key, compute)`` keeps a value for the state's current
        content with its lines, noted again at every read (:meth:`memo_kept`)."""
        memo = self.memo
        found = memo.get(_MEMO_KEPT)
        if found is None:
            found = memo[_MEMO_KEPT] = Lasting()
        return found

    def memo_kept(self, key: Any, compute: Callable[[], _T]) -> _T:
        """The value of ``key`` kept per state version, made by ``compute()`` on a miss: in
        :attr:`memo` on the fast path (nothing collects lines: play's look-ahead, bots), else
        through :meth:`kept` in :meth:`memo_lasting`, so every event of the version that reads
        it names the lines that made it, not only the first."""
        if self.event_lines is None and self.engine._recording[0] is None:
            memo = self.memo
            found = memo.get(key, _MISSING)
            if found is _MISSING:
                found = memo[key] = compute()
            return found
        return self.kept(self.memo_lasting(), key, compute)

    def note_lines(self, fired: tuple[dict[str, Any], ...]) -> None:
        """Note line entries kept with a value read outside :meth:`kept` (e.g. a board-wide map
        that keeps each hex's lines: an event names those of the hexes it reads), as a hit does."""
        self._replay(fired)

    def _replay(self, fired: tuple[dict[str, Any], ...]) -> None:
        """Note kept line entries again: for the recording, and for the next event unless paused."""
        rec = self.engine._recording[0]
        ev = None if self.__dict__.get("_paused") else self.event_lines
        for entry in fired:
            if rec is not None and entry["source"] not in rec:
                rec[entry["source"]] = dict(entry)
            if ev is not None and entry["source"] not in ev:
                ev[entry["source"]] = entry

    def changed(self) -> None:
        """Announce a change: the memo follows the state's version, which every state method
        already renews; this renews it too (for changes the state cannot see)."""
        self.state.touch()
