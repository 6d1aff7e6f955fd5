"""A readable turn-by-turn account of a play, written from its trace events.

Each line starts with the event's number (``#27``), the one to hand to ``casebook explain TRACE 27``.
A decision and what it did are one line: the ``move`` event of ``german: move stack=1308 …``
stands for both (the decision's own event is shown only when nothing else tells of it, as for a
pass). A combat is one line (attackers, defenders, strengths, odds column, roll, DRM, result),
followed by one line per DRM term with its case, the case's title and the rule-script condition
that gave it; its results are told under the combat or the decision they followed (a retreat under
the defender's ``retreat``: :mod:`casebook.tools.account_effects`). A notice that repeats
unchanged step after step (``overstacked``) is shown once until it changes. At the end of each
turn a summary line per side counts its decisions, attacks and results, losses and control
changes. Bookkeeping events (step advances, automatic passes)
are left out. The account is a view of the trace; the trace is the record.

:class:`Narrator` keeps what a running account needs between batches (the turn, the notices
shown, the turn's tallies); :func:`narrate_all` is the account of a whole trace.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from casebook.areas.combat_words import limit_words, shift_terms, signed
from casebook.core.trace import Event
from casebook.tools.account_effects import combat_losses, decision_kind, effect_words, place_effects, value_words
from casebook.tools.account_oos import OosTally, leaving_kinds

__all__ = ["Narrator", "combat_line", "combat_losses", "data_words", "drm_lines", "effect_words", "narrate",
           "narrate_all", "QUIET_KINDS", "REPEATED_NOTICES", "term_words"]

#: Event kinds left out of the account (bookkeeping).
QUIET_KINDS = frozenset({"advance", "auto-pass", "setup"})
#: Notices shown again only when their content (all but the step) changed.
REPEATED_NOTICES = frozenset({"overstacked"})
#: decision kind -> event kinds that tell what the decision did (then the decision's own line goes)
_TOLD_BY = {"attack": ("combat",), "overrun": ("combat", "overrun"), "activate-stack": ("activate-stack",)}

#: event kinds that record one unit's loss by themselves (the unit's side is the event's) -> words
_UNIT_LOSS_KINDS = {"eliminated": "eliminated", "step-loss": "step loss"}

_SKIP_KEYS = frozenset({"terms", "explanation", "lines", "path_steps", "outcomes", "transitions",
                        "combat", "support", "cases"})


def _summary(data: Mapping[str, Any]) -> str:
    return "; ".join(f"{k}: {value_words(v)}" for k, v in data.items() if k not in _SKIP_KEYS and v not in (None, "", [], {}))


def data_words(data: Mapping[str, Any]) -> list[str]:
    """Every field of an event's data in words, one ``key: value`` a line (``explain``): flags
    as yes/no, effects as :func:`effect_words` says them, never a Python or JSON form."""
    return [f"{k}: {value_words(v)}" for k, v in data.items() if v not in (None, "", [], {})]


_SOURCES: dict[tuple[str, str], list[str]] = {}  # (rules folder, script file) -> its lines


def term_words(term: Mapping[str, Any], titles: Mapping[str, str] | None = None,
               rules_dir: Path | None = None) -> str:
    """One DRM (or rule-script) term in words: ``+2  10.4.1A Armor DRMs, A — any attacker has class
    in [armor, mechanized]``. ``term`` is a trace/answer term (``case``, ``value``, ``source``
    ``file:line``, and a column shift's ``from``: the units it comes from, said last); the title
    comes from the case index (``titles``: case id -> title; of several cases, the first's), the
    condition from the script line at ``source`` in ``rules_dir`` when it can be read."""
    case = str(term.get("case") or "")
    value = term.get("value")
    title = (titles or {}).get(case) or (titles or {}).get(case.split(", ")[0], "")  # several: the first's
    words = f"{signed(value):>3}  {case}" + (f" {title}" if title else "")
    cond = _condition(str(term.get("source") or ""), rules_dir)
    return words + (f" — {cond}" if cond else "") + (f": {term['from']}" if term.get("from") else "")


def _condition(source: str, rules_dir: Path | None) -> str:
    text = _rule_line(source, rules_dir).split("#")[0]  # a trailing comment is no condition
    _, sep, cond = text.partition(" when ")
    return " ".join(cond.split()) if sep else ""


def _rule_line(source: str, rules_dir: Path | None) -> str:
    """The text of the rule-script line ``file:line`` in ``rules_dir``; "" when it cannot be read."""
    file, _, line = source.rpartition(":")
    if not file or not line.isdigit() or rules_dir is None:
        return ""
    key = (str(rules_dir), file)  # two games (or a test's folder) may both have a combat.rules
    if key not in _SOURCES:
        try:
            _SOURCES[key] = (Path(rules_dir) / Path(file).name).read_text(encoding="utf-8").split("\n")
        except OSError:
            _SOURCES[key] = []
    lines = _SOURCES[key]
    n = int(line)
    return lines[n - 1] if 0 < n <= len(lines) else ""


_RULES: dict[str, Any] = {}  # rules folder -> the compiled rule scripts whose lines it holds (None: none)


def _quantity_at(rules_dir: Path | None) -> Callable[[str], str | None]:
    """``file:line`` -> the quantity whose line it is, as the compiled rule scripts of the game in
    ``rules_dir`` say (its engine: :meth:`Narrator.for_engine`'s, else the one loaded for the folder
    above it, cached per process); never a quantity for a folder that is no game's."""
    key = str(rules_dir)
    if rules_dir is not None and key not in _RULES:
        from casebook.core.errors import ContentError, ScriptSyntaxError
        from casebook.script.engine import load_engine

        try:
            _RULES[key] = load_engine(Path(rules_dir).parent).rules
        except (ContentError, ScriptSyntaxError):  # a test's lone script, a folder of no game
            _RULES[key] = None
    rules = _RULES.get(key)
    return rules.quantity_at if rules is not None else (lambda _source: None)


def _bound_cases(d: Mapping[str, Any], rules_dir: Path | None) -> list[str]:
    """The cases of the bound that limited a combat's DRM (Moscow '41's ``clamp -4 to +4 by
    10.4.5C``): those of the event's rule lines that read ``clamp``/``at least``/``at most``."""
    return [str(c) for ln in d.get("lines") or [] if isinstance(ln, Mapping)
            and _rule_line(str(ln.get("source", "")), rules_dir).lstrip().startswith(("clamp ", "at least ", "at most "))
            for c in ln.get("cases") or []]


def combat_line(event: Event, rules_dir: Path | None = None) -> str:
    """A ``combat`` event in the account's words (the terminal's and the page's *Last events*):
    ``german attacks 0415 (s-222rd) with …: 21 to 6, column 4:1 shifted +1; roll 7, DRM +3 → 10: -/3``."""
    d = event.data
    att = ", ".join(d.get("attackers") or [])
    dfn = ", ".join(d.get("defenders") or [])
    kind = "overruns" if d.get("kind") == "overrun" else "attacks"
    odds = d.get("column") or d.get("odds")
    shift = d.get("column_shift")
    shift_text = f" shifted {signed(shift)}" if shift else ""
    drm = d.get("drm")
    roll = f"roll {d.get('roll')}"
    terms = [t.get("value") for t in d.get("terms") or [] if isinstance(t, Mapping)]
    numbers = [v for v in terms if isinstance(v, (int, float)) and not isinstance(v, bool)]
    raw = sum(numbers) if numbers and len(numbers) == len(terms) else drm
    if raw != drm and isinstance(drm, (int, float)):  # the total was limited after it was summed
        roll += f", {limit_words(raw, drm, tuple(dict.fromkeys(_bound_cases(d, rules_dir))))} → {d.get('modified_roll')}"
    elif drm not in (None, 0):
        roll += f", DRM {signed(drm)} → {d.get('modified_roll')}"
    return (f"{d.get('attacker_side') or event.side} {kind} {d.get('hex')} ({dfn}) with {att}: "
            f"{d.get('attack_strength')} to {d.get('defense_strength')}, column {odds}{shift_text}; "
            f"{roll}: {d.get('result')}")


def narrate(event: Event, last_turn: int | None = None) -> list[str]:
    """Lines of the account for one ``event`` on its own (a turn header first when the turn
    changed); :class:`Narrator` is the running account with merging and summaries."""
    lines: list[str] = []
    if last_turn is not None and event.turn != last_turn:
        lines.append(f"\n=== Turn {event.turn} ===")
    if event.kind not in QUIET_KINDS:
        lines.append(_line(event))
    return lines


def _line(event: Event, titles: Mapping[str, str] | None = None, rules_dir: Path | None = None,
          effects: list[Mapping[str, Any]] | None = None) -> str:
    """``effects``: a ``combat-results`` event's effects not told at the decisions before it."""
    cases = f"  [{', '.join(event.cases)}]" if event.cases else ""
    who = f"{event.side}: " if event.side and event.kind != "action" else ""
    data = event.data if effects is None else {**event.data, "effects": effects or "told above"}
    if event.kind == "action":
        text = f"{data.get('action', '')}"
    elif event.kind == "roll":
        text = f"{who}rolls {data.get('total')} for {data.get('purpose', '?')}"
    elif event.kind == "combat":
        text = combat_line(event, rules_dir)
    elif event.kind == "game-over":
        winner = data.get("winner") or "nobody"
        return f"\n*** #{event.seq} Game over: {winner} wins ({data.get('level')}) — {data.get('reason', '')}{cases}"
    else:
        summary = _summary(data)
        text = f"{who}{event.kind}" + (f": {summary}" if summary else "")
    line = f"  #{event.seq:<5} {text}{cases}"
    if event.kind == "combat":
        line += "".join(f"\n          {w}" for w in drm_lines(data, titles, rules_dir))
        line += "".join(f"\n          warning: {w.get('warning')}  [{', '.join(w.get('cases') or ())}]"
                        for w in data.get("warnings") or [])
    return line


def drm_lines(data: Mapping[str, Any], titles: Mapping[str, str] | None = None, rules_dir: Path | None = None) -> list[str]:
    """The lines under a combat's account line: ``shift`` and each term its column shift comes from
    (:func:`~casebook.areas.combat_words.shift_terms`, e.g. 10.3B-C), then ``DRM`` and each term of its
    ``terms``, in words (:func:`term_words`)."""
    shifts = shift_terms(data, _quantity_at(rules_dir))
    return [*(f"shift {term_words(t, titles, rules_dir)}" for t in shifts),
            *(f"DRM {term_words(t, titles, rules_dir)}" for t in data.get("terms") or [] if isinstance(t, Mapping))]


class Narrator:
    """The running account of one play. :meth:`lines` takes the events recorded since the last
    call (all the events of the decisions applied meanwhile) and returns the account's lines.
    ``titles`` (case id -> title) and ``rules_dir`` give DRM terms their words."""

    def __init__(self, titles: Mapping[str, str] | None = None, rules_dir: Path | None = None) -> None:
        self.titles = dict(titles or {})
        self.rules_dir = rules_dir
        self.turn: int | None = None
        self._notices: dict[tuple[str | None, str], Any] = {}
        self._tally: dict[str, Counter[str]] = {}
        self._losses: dict[str, list[str]] = {}
        self._control: list[str] = []
        self.oos = OosTally()  # units out of supply, across turns (the summary's line)

    @classmethod
    def for_engine(cls, engine: Any, start: Any = None) -> Narrator:
        """A narrator with the case titles and rule scripts of a loaded engine; ``start``: the state
        where the trace to narrate begins (its units already out of supply, :meth:`OosTally.start`)."""
        pack = engine.pack
        narrator = cls({cid: str(c.get("title", "")) for cid, c in pack.cases.items()}, pack.rules_dir)
        narrator.oos = OosTally(leaving_kinds(pack))
        if _RULES.get(str(pack.rules_dir)) is None:
            _RULES[str(pack.rules_dir)] = engine.rules
        if start is not None:
            narrator.oos.start(start.data.units)
        return narrator

    def lines(self, events: Iterable[Event]) -> list[str]:
        """The account of ``events`` (in trace order), a turn summary and header at each new turn."""
        batch = list(events)
        placed = place_effects(batch)  # a combat's effects after the decisions they followed
        out: list[str] = []
        for i, event in enumerate(batch):
            if event.turn != self.turn:
                if self.turn is not None:
                    out += self.summary()
                out.append(f"\n=== Turn {event.turn} ===")
                self.turn = event.turn
            self._count(event)
            out += [f"          {w}" for w in placed.before.get(event.seq, ())]
            if self._shown(event, batch[i + 1:]):
                if event.kind == "game-over" and (self._tally or self._losses):  # the last turn's summary first
                    out += self.summary()
                    self.turn = None  # summarized: nothing left to sum at the end
                out.append(_line(event, self.titles, self.rules_dir, placed.remaining.get(event.seq)))
            out += [f"          {w}" for w in placed.after.get(event.seq, ())]
        return out

    def _shown(self, event: Event, rest: list[Event]) -> bool:
        """Whether ``event`` has a line of its own (not bookkeeping, a repeat, or told by a later event)."""
        if event.kind in QUIET_KINDS or self._repeated(event):
            return False
        if event.kind == "action" and self._told_later(event, rest):
            return False
        return not (event.kind == "roll" and self.roll_told(event, rest))

    def _told_later(self, action: Event, rest: list[Event]) -> bool:
        kind = decision_kind(action)
        told = _TOLD_BY.get(kind, (kind,))
        for later in rest:
            if later.kind == "action":
                return False
            if later.kind in told and later.kind not in QUIET_KINDS:
                return True
        return False

    @staticmethod
    def roll_told(roll: Event, rest: list[Event]) -> bool:
        """A combat roll is shown in its combat's line."""
        if roll.data.get("purpose") != "combat":
            return False
        for later in rest:
            if later.kind == "action":
                return False
            if later.kind == "combat":
                return True
        return False

    def _repeated(self, event: Event) -> bool:
        if event.kind not in REPEATED_NOTICES:
            return False
        key = (event.side, event.kind)
        content = {k: v for k, v in event.data.items() if k != "step"}
        hexes = self._notices.setdefault(key, {})
        where = str(content.get("hex", ""))
        if hexes.get(where) == content:
            return True
        hexes[where] = content
        return False

    def _count(self, event: Event, undo: bool = False) -> None:
        """Add ``event`` to the turn's tally (or, ``undo``, take it out again)."""
        step = -1 if undo else 1
        if not undo:  # forget takes the supply lists back whole
            self.oos.see(event)
        if event.kind == "action" and event.side:
            tally = self._tally.setdefault(event.side, Counter())
            tally[decision_kind(event)] += step
        elif event.kind == "combat":
            side = str(event.data.get("attacker_side") or event.side)
            tally = self._tally.setdefault(side, Counter())
            tally[f"result {event.data.get('result')}"] += step
        elif event.kind == "combat-loss" and event.side:
            loss = f"{event.data.get('unit')} {event.data.get('effect', 'loss')}"
            _add_or_remove(self._losses.setdefault(event.side, []), loss, undo)
        elif event.kind in _UNIT_LOSS_KINDS and event.side:  # a step lost or a unit eliminated on its own
            loss = f"{event.data.get('unit')} {_UNIT_LOSS_KINDS[event.kind]}"
            _add_or_remove(self._losses.setdefault(event.side, []), loss, undo)
        elif event.kind == "combat-results":  # the losses among a combat's effects (attack or overrun)
            for side, loss in combat_losses(event.data):
                _add_or_remove(self._losses.setdefault(side, []), loss, undo)
        elif event.kind == "control":
            _add_or_remove(self._control, f"{event.data.get('hex')} to {event.data.get('side')}", undo)

    def forget(self, events: Iterable[Event]) -> None:
        """Take events that were narrated but then undone (``undo`` in play) out of the running
        turn's summary, so it counts only the decisions that stand. Events of a turn whose summary
        is already printed are left (that summary is history); the out-of-supply lists go back to
        what they were before the first of them, whatever its turn."""
        events = list(events)
        for event in events:
            self.oos.see(event, undo=True)
        for event in events:
            if event.turn == self.turn:
                self._count(event, undo=True)
        for tally in self._tally.values():
            for kind in [k for k, n in tally.items() if n <= 0]:
                del tally[kind]
        self._tally = {side: tally for side, tally in self._tally.items() if tally}
        self._losses = {side: losses for side, losses in self._losses.items() if losses}

    def summary(self) -> list[str]:
        """The summary of the turn narrated so far (and a fresh tally for the next one)."""
        if self.turn is None or not (self._tally or self._losses or self._control):
            self._notices = {}
            return []  # nothing happened since the last summary (a quit): no empty header
        out = [f"--- Turn {self.turn} summary"]
        for side in sorted(set(self._tally) | set(self._losses)):
            tally = self._tally.get(side, Counter())
            decisions = ", ".join(f"{n} {k}" for k, n in sorted(tally.items()) if not k.startswith("result "))
            results = ", ".join(f"{k[7:]} ×{n}" for k, n in sorted(tally.items()) if k.startswith("result "))
            losses = self._losses.get(side, [])
            text = f"    {side}: {decisions or 'no decisions'}"
            if results:
                text += f"; its attacks: {results}"
            if losses:
                text += f"; losses: {len(losses)} ({', '.join(losses[:6])}{', …' if len(losses) > 6 else ''})"
            out.append(text)
        if self._control:
            out.append(f"    control: {', '.join(self._control)}")
        out += self.oos.lines()
        self._tally, self._losses, self._notices, self._control = {}, {}, {}, []
        return out


def _add_or_remove(items: list[str], item: str, remove: bool) -> None:
    if not remove:
        items.append(item)
    elif item in items:
        del items[len(items) - 1 - items[::-1].index(item)]  # the last one told


def narrate_all(events: Iterable[Event], narrator: Narrator | None = None) -> list[str]:
    """The account of a whole trace (with the last turn's summary)."""
    narrator = narrator or Narrator()
    return narrator.lines(events) + narrator.summary()
