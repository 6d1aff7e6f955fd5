"""Facts that carry the rule-script lines that computed them (issue #15 deliverable 3): a refusal
whose deciding line reads such a fact names those lines too.

A plugin computes a fact from other rule lines (Moscow '41's ``hex_supplied``: a supply answer
made of the ``supply_path_mp`` and path-block lines) inside :func:`lines_of`, which returns the
lines that fired meanwhile (still noted for the recording and the event as usual), and passes
the facts as :class:`FactLines` (``lines``: fact -> those line entries). When
:meth:`Ctx.permission <casebook.script.ctx.Ctx.permission>` evaluates them, :func:`borrow` marks
the entries of each fact a *deciding* line reads (``RuleSet.line_reads``) with ``"via"``: that
line's ``file:line``. ``casebook ask`` and a refusal keep a line citing one of their cases — and
a line ``via`` a line they keep, whatever it cites (:func:`kept_lines`), so ``build-fort``
refused by ``forbid build_fort by 14.1C when not hex_supplied`` names the supply lines that made
the hex unsupplied.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

__all__ = ["FactLines", "lines_of", "borrowing", "borrow", "kept_lines", "lend", "rule_of", "rule_lines"]

_T = TypeVar("_T")


class FactLines(dict):
    """Facts (name -> value, a plain dict to the rule scripts) and in :attr:`lines` fact name ->
    the line entries (``{"source", "cases", "text"}``) that computed its value."""

    __slots__ = ("lines",)

    def __init__(self, facts: Mapping[str, Any] | None = None,
                 lines: Mapping[str, tuple[dict[str, Any], ...]] | None = None) -> None:
        super().__init__(facts or {})
        self.lines = {k: tuple(v) for k, v in (lines or {}).items() if v}

    def given(self, **more: Any) -> FactLines:
        """These facts with ``more`` set (their lines kept)."""
        return FactLines({**self, **more}, self.lines)


def lines_of(ctx: Any, compute: Callable[[], _T]) -> tuple[_T, tuple[dict[str, Any], ...]]:
    """``(compute(), the line entries that fired in it)``, each noted for the running recording
    and the context's next event as they would be without this block. The lines returned are
    those an event would name (a search run ``apart`` names none: only what it kept for the
    value read). Nothing collecting (the fast path): ``()``, at no cost."""
    engine = ctx.engine
    outer_rec, outer_ev = engine._recording[0], ctx.event_lines
    if outer_rec is None and outer_ev is None:
        return compute(), ()
    frame: dict[str, dict[str, Any]] = {}
    rec: dict[str, dict[str, Any]] = {}
    mine = ctx.__dict__
    paused = mine.get("_paused")
    if outer_rec is not None:
        engine._recording[0] = rec
    ctx.event_lines, mine["_paused"] = frame, False
    try:
        value = compute()
    finally:  # a lasting cache read in the block pauses the event's collection after it, as without the block
        stopped = outer_ev is not None and bool(mine.get("_paused"))
        engine._recording[0], ctx.event_lines, mine["_paused"] = outer_rec, outer_ev, paused or stopped
    for source, entry in rec.items():
        outer_rec.setdefault(source, entry)
    for source, entry in frame.items() if outer_ev is not None and not paused else ():
        outer_ev.setdefault(source, entry)
    return value, tuple(frame.values())


def borrowing(ctx: Any, facts: Mapping[str, Any]) -> bool:
    """Whether a verdict on ``facts`` borrows its facts' lines now (a recording runs and the
    facts carry lines: a :class:`FactLines`, or an ``AskedFacts`` whose questions are then asked
    through :func:`lines_of`)."""
    if ctx.engine._recording[0] is None or not hasattr(facts, "lines"):
        return False
    if hasattr(facts, "collect"):
        facts.collect = lambda compute: lines_of(ctx, compute)
    return True


def borrow(ctx: Any, explanation: Any, facts: Mapping[str, Any]) -> dict[str, tuple[dict[str, Any], ...]]:
    """The lines of each fact of ``facts`` (a :class:`FactLines`) that a deciding line of
    ``explanation`` reads (a field of a collection's records read as ``collection.field``), per
    deciding line (``file:line`` -> entries; a term that added nothing lends none); for the
    running recording and the context's next event each is noted marked ``"via"`` that line (a
    move event keeps the lines :func:`rule_lines` keeps, as ``why`` does)."""
    own = getattr(facts, "lines", None)
    if not own:
        return {}
    reads = getattr(ctx.rules, "line_reads", {})
    lent: dict[str, tuple[dict[str, Any], ...]] = {}
    for m in explanation.deciding():
        entries = tuple(entry for fact in sorted(reads.get(m.source, ())) for entry in own.get(fact, ()))
        if entries:
            lent[m.source] = entries
            _note_via(ctx, entries, m.source, again=False)
    return lent


def _note_via(ctx: Any, entries: Iterable[dict[str, Any]], via: str, again: bool) -> None:
    """Note ``entries`` for the running recording and the context's next event marked ``"via"``
    line ``via`` (a copy each: a kept entry is shared by every read); one marked already keeps its
    mark unless ``again`` (:func:`lend`: the value that read it decides)."""
    ev = None if ctx.__dict__.get("_paused") else ctx.event_lines
    for into in (d for d in (ctx.engine._recording[0], ev) if d is not None):
        for entry in entries:
            have = into.get(entry["source"], entry)
            into[entry["source"]] = {**have, "via": via if again else have.get("via", via)}


def kept_lines(lines: Iterable[dict[str, Any]], cases: Iterable[str]) -> list[dict[str, Any]]:
    """Of ``lines`` (recorded entries, in order), those citing one of ``cases`` and those ``via``
    a line kept (at any depth), each once, without the ``via`` mark; a line ``via`` another of
    ``lines`` is kept only through it (:func:`lend`)."""
    from .explain import unique_lines

    lines, wanted = list(lines), set(cases)
    sources = {ln["source"] for ln in lines}
    # a line lent to another (noted "via" it) decides only through it, whatever it cites: the TEC
    # column's `otherwise dry by 4.1B` goes with the step cost that read it, not with 4.1B's ZOC column
    # a chart cell a step read (noted "cell") is named by the table reads, in the order of the steps
    # (cite_tables; moving_stack.move_lines), not by the cases it cites: 9.2A is a move's case too
    kept = {ln["source"] for ln in lines if wanted.intersection(ln.get("cases") or ()) and ln.get("via") not in sources
            and not ln.get("cell")}
    grew = True
    while grew:
        more = {ln["source"] for ln in lines if ln.get("via") in kept} - kept
        kept |= more
        grew = bool(more)
    return unique_lines({k: v for k, v in ln.items() if k not in ("via", "cell")} for ln in lines if ln["source"] in kept)


def lend(ctx: Any, lines: Iterable[dict[str, Any]], to: Iterable[dict[str, Any]]) -> None:
    """Mark ``lines`` (the entries that computed a fact, :func:`lines_of`) ``"via"`` the first of
    ``to`` (the lines of the value that read it) in the running recording and the context's next
    event: they decide only through that line (:func:`kept_lines`) — the TEC column's line goes
    with the step cost's ``lookup tec(…)`` line (areas/terrain_costs)."""
    lines = list(lines)
    first = next((t["source"] for t in to if all(t["source"] != e["source"] for e in lines)), None)
    if first is not None:
        _note_via(ctx, lines, first, again=True)


def rule_of(case: str) -> str:
    """The rule a case is of: its id without the trailing capital letters (12.3B -> 12.3)."""
    return re.sub(r"[A-Z]+$", "", case)


def rule_lines(lines: Iterable[dict[str, Any]], cases: Iterable[str]) -> list[dict[str, Any]]:
    """:func:`kept_lines` by rule: of ``lines``, those citing a case of a rule of ``cases`` (9.2B
    for 9.2A; 4.3E, 4.3F for 4.3D) and those ``via`` a line kept — the lines of a legal move
    (``why``, play's ``move`` event: the MA's and the path's rules, and the supply lines an
    unsupplied MA line read, 5.7B), not those of the searches met on the way (issue #15)."""
    lines, rules = list(lines), {rule_of(c) for c in cases}
    return kept_lines(lines, {c for ln in lines for c in ln.get("cases") or () if rule_of(c) in rules})
