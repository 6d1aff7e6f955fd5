"""One play behind the page: the Game API, its players, undo, save and load.

A :class:`Session` holds a :class:`~casebook.core.play.State` and who plays each side
(``human`` or a bot kind). Everything the page may do is a method here, and each one goes
through the Game API: a choice is matched against ``State.legal_actions()`` and applied with
``State.apply`` (same validation and trace as ``casebook play``), a number is an answer of the
rules' ``casebook_answer`` hook (the questions of ``casebook ask``). A refused request raises
:class:`ServeError` (HTTP status, one-line message, the forbidding cases) and changes nothing.

Paths the page names (save, load, a trace to watch) must lie inside one of the session's
``roots`` (the served folder and the pack), see :func:`confine`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from casebook.core.actions import Action, format_action, parse_action
from casebook.core.errors import CasebookError, IllegalActionError
from casebook.tools.ask_why import refusal
from casebook.tools.bots import BOT_KINDS
from casebook.tools.cmd_ask import why_not_lines
from casebook.tools.typed import bad_hexes, bad_units, empty_argument, typed_problem
from casebook.tools.web.loading import initial_of, load_state, position_label

__all__ = ["ServeError", "Session", "confine", "load_state", "parse_player_kind", "PLAYER_KINDS"]

#: What may play a side: a person at the page, or one of the bots of casebook.tools.bots
#: (every kind ``play`` and ``batch`` take: ``bot:random``, ``bot:greedy``, ``bot:planner``).
PLAYER_KINDS = ("human", *(f"bot:{kind}" for kind in BOT_KINDS))


class ServeError(Exception):
    """A request the server refuses: ``status`` (HTTP), ``message`` (one line), ``cases``."""

    #: longest message sent back (characters): a refused input is quoted, never echoed whole
    MAX_MESSAGE = 500

    def __init__(self, message: str, cases: Sequence[str] = (), status: int = 400,
                 lines: Sequence[Mapping[str, Any]] = (), errors: Sequence[str] = ()) -> None:
        #: every line of a many-line error (``message`` is its first): the page may shorten them
        self.errors = [str(e)[:self.MAX_MESSAGE] for e in errors] if len(errors) > 1 else []
        if len(message) > self.MAX_MESSAGE:
            message = message[:self.MAX_MESSAGE] + f"… ({len(message)} characters)"
        super().__init__(message)
        self.message = message
        self.cases = tuple(cases)
        self.status = status
        #: the rule-script lines that refused it (``{"source": "x.rules:9", "cases", "text"}``)
        self.lines = [dict(ln) for ln in lines]

    def to_dict(self) -> dict[str, Any]:
        """``{"error": message, "cases": [...], "lines": [...]}``, the JSON body of the refusal
        (``lines``: the rule-script lines that refused it, as ``why`` gives them; only when some did)."""
        out: dict[str, Any] = {"error": self.message, "cases": list(self.cases)}
        if self.errors:
            out["errors"] = self.errors
        if self.lines:
            out["lines"] = self.lines
        return out


def parse_player_kind(text: str) -> str:
    """``human``, ``bot:greedy``/``greedy`` (any bot of :data:`PLAYER_KINDS`, with or without
    ``bot:``) → the canonical kind;
    ValueError otherwise."""
    kind = text if text == "human" or text.startswith("bot:") else f"bot:{text}"
    if kind not in PLAYER_KINDS:
        raise ValueError(f"expected one of {', '.join(PLAYER_KINDS)}, got {text!r}")
    return kind


def confine(path: str | Path, roots: Iterable[Path]) -> Path:
    """``path`` resolved (relative to the first root) if it lies inside one of ``roots``;
    ServeError otherwise (a path outside the served folder and the pack is never opened)."""
    roots = [Path(r).resolve() for r in roots]
    text = str(path)
    if not text or "\x00" in text:
        raise ServeError("a file name is needed")
    p = Path(text)
    full = (p if p.is_absolute() else roots[0] / p).resolve()
    if not any(full == r or r in full.parents for r in roots):
        raise ServeError(f"{text}: outside the served folders ({', '.join(map(str, roots))})", status=403)
    return full


class Session:
    """A play in progress with its players. ``players`` maps every side to a kind of
    :data:`PLAYER_KINDS`; ``roots`` are the folders the page may read and write in; ``loaded`` the
    save it continues (its name labels a position that names no scenario, :attr:`label`)."""

    def __init__(self, state: Any, players: Mapping[str, str], seed: int = 1,
                 roots: Sequence[Path] = (), loaded: Path | None = None) -> None:
        self.lock = threading.RLock()
        self.seed = seed
        self.roots = [Path(r).resolve() for r in roots] or [Path.cwd().resolve()]
        self.roots.append(Path(state.game.engine.pack.dir).resolve())
        self.players = {side: parse_player_kind(players.get(side, "human")) for side in state.data.sides}
        self._start(state, loaded)

    def _start(self, state: Any, loaded: Path | None = None) -> None:
        from casebook.tools.bots import make_bot

        #: what the page calls the play: the scenario its position names, else ``position FILE``
        self.label = position_label(state, loaded)
        humans = self.humans()
        state.humans = humans  # a template-only decision of theirs is asked (core/game.py), from now on
        self.state = state
        self.initial = initial_of(state, humans) or state.clone()
        self.bots = {side: make_bot(kind.split(":", 1)[1], side, self.seed)
                     for side, kind in self.players.items() if kind != "human"}

    def humans(self) -> frozenset[str]:
        """The sides people play in this session."""
        return frozenset(side for side, kind in self.players.items() if kind == "human")

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Any:
        """The :class:`~casebook.core.game.Game` being played."""
        return self.state.game

    def decider(self) -> str | None:
        """The side to decide now (None when the game is over)."""
        return self.state.current_player()

    def human_decides(self) -> bool:
        """A person (not a bot) decides now."""
        side = self.decider()
        return side is not None and self.players.get(side) == "human"

    def ask(self, question: str, args: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """The rules' answer to ``question`` on the current position (as ``casebook ask``)."""
        from casebook.tools.cmd_ask import answer_ctx

        with self.lock:
            try:
                return answer_ctx(self.state.ctx(), question, [str(a) for a in args], dict(options))
            except (CasebookError, ValueError, KeyError) as exc:
                raise ServeError(f"{question}: {_one_line(exc)}", errors=_all_lines(exc)) from None

    def reach(self, stack: str, mode: str | None = None) -> dict[str, Any]:
        """``ask reach STACK [--as MODE]`` plus ``legal``: the hexes a legal action of this stack
        can end in now (hex -> list of the actions' notations)."""
        with self.lock:
            answer = dict(self.ask("reach", [stack], {"as": mode} if mode else {}))
            answer["legal"] = {h: [str(a) for a in acts] for h, acts in self._ends(stack).items()}
            return answer

    def why(self, text: str) -> dict[str, Any]:
        """``{"legal", "cases", "reason"}`` for the action ``text`` now (the ``why`` of ``play``)."""
        with self.lock:
            action = self._parse(text)
            problem = typed_problem(self.state, action)  # the input itself is wrong (tools/typed.py)
            cases, reason, lines = ((), problem, []) if problem else why_not_lines(self.state, action)
            return {"action": str(action), "legal": reason == "legal", "cases": list(cases), "reason": reason,
                    "lines": lines}

    # ------------------------------------------------------------------ choosing
    def _parse(self, text: str) -> Action:
        if not isinstance(text, str) or not text.strip():
            raise ServeError("an action in notation is needed (docs/actions.md)")
        try:
            from casebook.tools.human import complete_action

            empty = empty_argument(text)
            if empty is not None:
                raise ValueError(empty)
            return complete_action(self.state, parse_action(text.strip(), side=self.decider()))
        except ValueError as exc:
            message = _one_line(exc)
            prefix = "" if text.strip() in message else f"{text.strip()!r}: "
            raise ServeError(f"{prefix}{message} (notation: docs/actions.md)") from None

    def _units_at(self, stack: str) -> list[str]:
        data = self.state.data
        if data.has_unit(stack):
            return [stack]
        try:
            return [u["id"] for u in data.units_at(stack)]
        except (ValueError, KeyError):
            raise ServeError(f"{stack!r}: neither a unit id nor a hex label") from None

    def _stack_hex(self, stack: str) -> str:
        data = self.state.data
        return data.unit(stack).get("hex") if data.has_unit(stack) else stack

    def _ends(self, stack: str) -> dict[str, list[Action]]:
        """Legal actions now that move ``stack`` (a hex or unit id), by the hex they end in."""
        if not self.human_decides():
            return {}
        where, ids = self._stack_hex(stack), set(self._units_at(stack))
        out: dict[str, list[Action]] = {}
        for a in self.state.legal_actions():
            moved = a.get("stack") == where or bool(ids & set(a.values_of("with", "unit", "units")))
            if not moved:
                continue
            if a.get("units") and ids and not ids <= set(a.values_of("units")) and len(ids) == 1:
                continue
            path = a.values_of("path", "to") or ([a.get("hex")] if a.kind != "attack" and a.get("hex") else [])
            if path and path[-1] != where:
                out.setdefault(path[-1], []).append(a)
        return out

    def choices_to(self, stack: str, hex_: str) -> dict[str, Any]:
        """The legal actions that move ``stack`` into ``hex_`` now; when there is none, the
        refusal of a plain move there (the rules' own cases, from ``State.why_not``)."""
        with self.lock:
            side = self._require_human()
            found = self._ends(stack).get(hex_, [])
            if found:
                return {"actions": [str(a) for a in found]}
            mover = self._side_of(self._units_at(stack)) or side  # its own side's move: a pending decision says so
            return self._refusal(Action.make("move", mover, stack=self._stack_hex(stack), path=[hex_]))

    def attack_choices(self, hex_: str, attackers: Sequence[str]) -> dict[str, Any]:
        """The legal attack actions on ``hex_`` by exactly ``attackers`` (unit ids) now, with the
        refusal of such an attack by the attackers' side when there is none (while the other side
        decides, the decision it waits for: 10.0F)."""
        with self.lock:
            side = self._require_human()
            want = set(attackers)
            found = [a for a in self.state.legal_actions()
                     if a.kind in ("attack", "overrun") and a.get("hex") == hex_
                     and (set(a.values_of("with")) == want or (a.kind == "overrun" and not a.get("with")
                                                               and set(self._units_at(a.get("stack", ""))) == want))]
            if found:
                return {"actions": [str(a) for a in found]}
            attacker = self._side_of(want) or side  # the attackers' side's: says the decision it waits for
            return self._refusal(Action.make("attack", attacker, hex=hex_, **{"with": sorted(want)}))

    def _side_of(self, units: Iterable[str]) -> str | None:
        """The one side of these units (ids), or None (none known, or of several sides)."""
        data = self.state.data
        sides = {data.unit(u).get("side") for u in units if data.has_unit(u)}
        return sides.pop() if len(sides) == 1 else None

    def _refusal(self, probe: Action) -> dict[str, Any]:
        """No legal action matched: the rules' refusal of ``probe``, the plain action the page meant
        (a hex off the map or a unit the game lacks is said as such: tools/typed.py)."""
        try:
            problem = bad_hexes(self.state, probe) or bad_units(self.state, probe)
            cases, reason, lines = ((), problem, []) if problem else why_not_lines(self.state, probe)
        except (CasebookError, ValueError, KeyError) as exc:
            raise ServeError(f"{probe}: {_one_line(exc)}") from None
        return {"actions": [], "cases": list(cases), "reason": reason, "tried": str(probe), "lines": lines}

    # ------------------------------------------------------------------ changing
    def _require_human(self) -> str:
        side = self.decider()
        if side is None:
            raise ServeError("the game is over", status=409)
        if self.players.get(side) != "human":
            raise ServeError(f"{side} is played by {self.players.get(side)} here: let the bot play", status=409)
        return side

    def apply(self, text: str) -> dict[str, Any]:
        """Apply the action ``text`` (notation) for the human side deciding now; ServeError with
        the forbidding cases if it is not legal (the state is unchanged)."""
        with self.lock:
            side = self._require_human()
            action = self._parse(text)
            if action.side != side:  # and what waits for that decision, in play's words (State.why_not)
                cases, reason, lines = why_not_lines(self.state, action)
                raise ServeError(f"{action.side} does not decide now: {side} does — {reason}", cases, 409, lines)
            problem = typed_problem(self.state, action)
            if problem:
                raise ServeError(f"refused ({side}): {problem}", status=409)
            try:
                result = self.state.apply(action)
            except IllegalActionError as exc:  # said as the play prompt says it (the step first), with its lines
                cases, reason, lines = refusal(self.state, action, exc)
                raise ServeError(f"refused ({side}): {format_action(action).split(': ', 1)[-1]}: {reason}", cases, 409, lines) from None
            return {"applied": str(action), "result": _plain(result)}

    def bot(self, steps: int = 1) -> list[str]:
        """Let the bots decide, at most ``steps`` actions, until a human decides or the game ends;
        the actions they took, in order."""
        done: list[str] = []
        with self.lock:
            for _ in range(max(0, int(steps))):
                side = self.decider()
                if side is None or side not in self.bots:
                    break
                action = self.bots[side].choose(self.state)
                try:
                    self.state.apply(action)
                except IllegalActionError as exc:  # a bot's bug, never the page's: say so, change nothing
                    raise ServeError(f"the {side} bot chose an illegal action: {exc}", exc.cases, 500) from None
                done.append(str(action))
        return done

    def undo(self) -> dict[str, Any]:
        """Take back the last decision of a human side and everything after it (the play is
        re-executed from its start up to it, as ``play``'s ``undo``); ServeError if none."""
        with self.lock:
            history = self.state.history[len(self.initial.history):]
            humans = [i for i, a in enumerate(history) if self.players.get(a.side) == "human"]
            if not humans:
                raise ServeError("nothing to undo: no human decision yet", status=409)
            last = humans[-1]
            from casebook.tools.saves import redo_history

            self.state = redo_history(self.initial, history[:last], self.state.trace)  # asked passes too
            return {"took_back": str(history[last]), "also": [str(a) for a in history[last + 1:]]}

    def save(self, name: str) -> dict[str, Any]:
        """Write the position to ``name`` and its trace to ``name.trace.jsonl`` (inside the served
        folder); ``casebook play --load`` or ``casebook serve --load`` continues it."""
        from casebook.tools.saves import write_save

        with self.lock:
            path = confine(name, self.roots[:1])
            if path.suffix not in (".yaml", ".yml"):
                raise ServeError(f"{name}: a save is a .yaml file")
            path.parent.mkdir(parents=True, exist_ok=True)
            write_save(self.state, path)  # and its trace, linked by its digest (tools/saves.py)
            return {"saved": str(path), "trace": str(path) + ".trace.jsonl"}

    def load(self, name: str) -> dict[str, Any]:
        """Continue the saved game at ``name`` (a position file inside the served folders, of
        this game); a bad file is refused whole and the play goes on unchanged."""
        with self.lock:
            path = confine(name, self.roots)
            state = load_state(self.game, path, self.humans())  # its first decision settled knowing them
            self._start(state, path)
            return {"loaded": str(path)}

    def trace_text(self) -> str:
        """The play's trace as JSON Lines (what ``casebook replay`` re-executes)."""
        import io

        with self.lock:
            buf = io.StringIO()
            for event in self.state.trace:
                buf.write(event.to_json() + "\n")
            return buf.getvalue()


def _all_lines(exc: BaseException) -> list[str]:
    """Every line of an error's text (a many-line one goes whole into the JSON's ``errors``)."""
    return [ln.strip() for ln in str(exc.args[0] if len(exc.args) == 1 else exc).splitlines() if ln.strip()]


def _one_line(exc: BaseException) -> str:
    lines = _all_lines(exc)
    if not lines:
        return type(exc).__name__
    return lines[0] if len(lines) == 1 else f"{lines[0]} (+{len(lines) - 1} more lines, in errors)"


def _plain(value: Any) -> Any:
    """JSON-able copy of a plugin's result summary (tuples as lists, other objects as text)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
