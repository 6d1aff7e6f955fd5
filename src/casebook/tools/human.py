"""A human player in the terminal: shows the position and the legal actions, reads a choice.

At the prompt, type the number of a legal action or its notation (``german: move stack=2032
path=2033``; the side may be left out), or a command:

- ``list`` — every legal action (the prompt shows the first 30) and every template;
- a template (shown under the actions, ``<…>`` saying what may go there) is typed with your
  own values: ``activate-hq hq=g-ix stacks=1308`` (the HQ takes only that stack), ``attack
  hex=1309 with=g-183id support=3``; ``pass until=loop`` passes every reaction step until the
  phasing player's Steps 1-5 loop ends;
- ``why ACTION`` — the cases that forbid ACTION now (or "legal"); ``why`` alone asks it of the
  last action refused at this decision (or says none was);
- ``ask QUESTION ARGS… [--with U,U] [--as MODE] [--roll N] …`` — as ``casebook ask``;
- ``map [FILE]`` — write the SVG map of the position (default ``map.svg``);
- ``save FILE`` — write the position to FILE (and its trace to FILE.trace.jsonl; a path that
  cannot be written is named and nothing is written);
- ``undo`` — take back your last decision (the game is replayed up to it);
- ``help``, ``quit``.

A typed action is checked as input first (:func:`typed_action`, :mod:`casebook.tools.typed`):
an unknown kind, a hex off the map, a unit unknown or named twice, an empty argument is refused
naming what is wrong, and nothing is applied. After a refusal (of the input, or of the rules when
the action is applied) the prompt says :data:`HINT` instead of the position and its actions again.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from casebook.core.actions import Action, format_action, parse_action
from casebook.core.errors import CasebookError
from casebook.tools.typed import empty_argument

__all__ = ["HINT", "HumanPlayer", "UNDO", "complete_action", "typed_action", "header_weather", "header_tracks", "help_text",
           "parse_ask_words", "position_header", "tracks_text", "weather_text", "TRACKS"]

#: Header labels of some tracks (others show under their name); every non-empty track is shown.
TRACKS = {"ip": "IP", "rp": "RP", "fp": "FP", "partisans": "Partisans"}

#: Returned by :meth:`HumanPlayer.choose` when the player asks to take back a decision.
UNDO = Action.make("undo", "chance")
_SHOWN = 30
#: Said under a refusal at the prompt (instead of the position and its actions again).
HINT = "  (type `help` for the commands, `list` to see the actions again)"
_SHOWN_TEMPLATES = 8


def parse_ask_words(words: list[str]) -> tuple[str, list[str], dict[str, Any], bool]:
    """``["attack", "2134", "--with", "g1,g2", "--roll", "7"]`` → (question, args, options,
    as_json). ValueError on a flag without its value."""
    if not words:
        raise ValueError("usage: ask QUESTION [ARGS] [--with U,U] [--as MODE] [--for UNIT] "
                         "[--support A,D] [--overrun] [--roll N] [--hexes N] [--path HEX,…] [--json]")
    question, as_json = words[0], False
    args: list[str] = []
    options: dict[str, Any] = {}
    it = iter(words[1:])
    for w in it:
        if w == "--json":
            as_json = True
        elif w == "--overrun":
            options["overrun"] = True
        elif w in ("--with", "--as", "--for", "--support", "--roll", "--hexes", "--path"):
            value = next(it, None)
            if value is None:
                raise ValueError(f"{w} needs a value")
            key = w[2:]
            if key in ("with", "path"):
                options[key] = [v for v in value.split(",") if v]
            elif key == "support":
                options[key] = [int(v) for v in value.split(",")]
            elif key in ("roll", "hexes"):
                options[key] = int(value)
            else:
                options[key] = value
        else:
            args.append(w)
    return question, args, options, as_json


def complete_action(state: Any, action: Action) -> Action:
    """``action`` as typed, or — when it is neither listed nor a template's filling and leaves
    out arguments — the one listed action that agrees with every argument given and adds only
    the ones left out: an argument a game does not use (Kestrel Pass lists every attack with
    ``support=0``: it has no combat support) need not be typed. Two or more such actions (Moscow
    '41's ``support=0`` and ``support=3``) leave it as typed, to be refused with its cases."""
    legal = state.legal_actions()
    if action in legal or state.why_not(action)[1] == "legal":
        return action
    given = dict(action.args)
    found = [a for a in legal if a.kind == action.kind and a.side == action.side
             and len(a.args) > len(given) and all(dict(a.args).get(k, object()) == v for k, v in given.items())]
    return found[0] if len(found) == 1 else action


def typed_action(state: Any, text: str, side: str) -> tuple[Action, str | None]:
    """The action typed as ``text`` (completed by :func:`complete_action`) and what is wrong with
    it as input — an empty argument, an unknown kind, a hex off the map, an unknown or repeated
    unit (:mod:`casebook.tools.typed`) — or None. ValueError on text that is no action."""
    from casebook.tools.typed import typed_problem

    empty = empty_argument(text)
    if empty is not None:
        raise ValueError(empty)
    action = complete_action(state, parse_action(text, side=side))
    return action, typed_problem(state, action)


def help_text(state: Any, side: str) -> str:
    """The ``help`` of the prompt with examples of the game being played: its first listed
    action, a template, and the questions its ``ask`` answers (none of another game's)."""
    from casebook.tools.cmd_ask import questions_of

    engine = state.game.engine
    acts = [a for a in state.legal_actions() if a.kind != "pass"] or state.legal_actions()
    example = format_action(acts[0]).split(": ", 1)[-1] if acts else "pass"
    templates = state.action_templates() if hasattr(state, "action_templates") else []
    questions = questions_of(engine)
    lines = [
        "At the prompt, type the number of a legal action or its notation, e.g.",
        f"  {example}",
        "(the side may be left out, and so may an argument when only one listed action matches the rest",
        "of what you typed), or a command:",
        "- list — every legal action (the prompt shows the first 30) and every template;",
    ]
    if templates:
        lines.append(f"- a template, typed with your own values in place of <…>, e.g. {str(templates[0]).split(': ', 1)[-1]}")
    lines += [
        "- why ACTION — the reason and the cases that forbid ACTION now (or \"legal\"); why alone: of the last refusal;",
        "- ask QUESTION ARGS… — as casebook ask; this game answers: " + (", ".join(sorted(questions)) or "nothing"),
        "- map [FILE] — write the SVG map of the position (default map.svg);",
        "- save FILE — write the position to FILE (and its trace to FILE.trace.jsonl);",
        f"- undo — take back {side}'s last decision (the game is replayed up to it);",
        "- help, quit.",
    ]
    return "\n".join(lines)


def _has_weather_phase(state: Any) -> bool:
    """Whether the game's sequence of play has a weather phase or step (Moscow '41 does; Battle
    for Moscow's mud comes from its Turn Record instead): :func:`casebook.content.savecheck.weather_phase`."""
    from casebook.content.savecheck import weather_phase

    pack = getattr(getattr(getattr(state, "game", None), "engine", None), "pack", None)
    return pack is not None and weather_phase(pack) is not None


def _grounds(state: Any) -> tuple[str, ...]:
    """The ground conditions the game's vocabulary names (none known: an empty tuple)."""
    engine = getattr(getattr(state, "game", None), "engine", None)
    return tuple(getattr(getattr(getattr(engine, "pack", None), "vocabulary", None), "grounds", ()) or ())


def header_weather(state: Any) -> dict[str, str]:
    """What of the weather a header shows — one path for ``play``'s prompt and ``serve``'s page:
    temperature and ground when the game's sequence has a weather phase (Moscow '41), the ground
    alone when the game's vocabulary has more than one (Battle for Moscow's mud), else nothing
    (Kestrel Pass, always dry)."""
    weather = state.data.weather or {}
    if _has_weather_phase(state):
        return {"temperature": str(weather.get("temperature", "?")), "ground": str(weather.get("ground", "?"))}
    if weather.get("ground") and len(_grounds(state)) > 1:
        return {"ground": str(weather["ground"])}
    return {}


def weather_text(shown: dict[str, str]) -> str:
    """The header's words for :func:`header_weather`'s answer: ``weather warm/dry``, ``ground
    mud`` or ``""``."""
    if "temperature" in shown:
        return f"weather {shown['temperature']}/{shown['ground']}"
    return f"ground {shown['ground']}" if "ground" in shown else ""


def header_tracks(state: Any) -> dict[str, Any]:
    """The tracks a header shows — one path for ``play``'s prompt and ``serve``'s page: every
    non-empty track the game declares (its vocabulary), under its :data:`TRACKS` label."""
    return {TRACKS.get(key, key): value for key, value in state.data.tracks().items() if value}


def tracks_text(tracks: Mapping[str, Any]) -> str:
    """The header's words for :func:`header_tracks`'s answer, as the page writes them:
    ``IP german 10, soviet 12 · engineers blue 3, red 1``."""
    def words(v: Any) -> str:
        return ", ".join(f"{k} {words(x)}" for k, x in v.items()) if isinstance(v, Mapping) else str(v)

    return " · ".join(f"{label} {words(value)}" for label, value in tracks.items())


def position_header(state: Any, side: str) -> str:
    """The line shown above the legal actions: turn, phase / step, who decides, then only what the
    game has: its tracks as :func:`header_tracks` shows them (serve's header too), the weather as
    :func:`header_weather` shows it."""
    d = state.data
    parts = [f"Turn {d.turn}", f"{d.phase} / {d.step}", f"{side} to decide"]
    tracks = tracks_text(header_tracks(state))
    if tracks:
        parts.append(tracks)
    weather = weather_text(header_weather(state))
    if weather:
        parts.append(weather)
    return " · ".join(parts)


class HumanPlayer:
    """Reads decisions for ``side`` from ``read`` (default: ``input``) and writes with ``echo``."""

    interactive = True

    def __init__(self, side: str, game: str, echo: Callable[[str], Any] = print,
                 read: Callable[[str], str] = input) -> None:
        self.side = side
        self.game = game
        self.echo = echo
        self.read = read
        self._refused = False
        self._last: Action | str | None = None  # the action (or typed text) refused at this decision

    def _show(self, state: Any, everything: bool = False) -> None:
        self.echo("\n" + position_header(state, self.side))
        actions = state.legal_actions()
        limit = len(actions) if everything else _SHOWN
        engine = state.game.engine
        ctx = engine.ctx(state.data)
        for i, a in enumerate(actions[:limit], 1):  # with a note where it leaves a stack overstacked (6.2F, 6.2E)
            note = engine.hook.casebook_stacking_note(ctx=ctx, action=a)
            self.echo(f"  {i:3d}. {a}" + (f"  — {note}" if note else ""))
        if len(actions) > limit:
            self.echo(f"  … {len(actions) - limit} more ('list' shows all)")
        templates = state.action_templates() if hasattr(state, "action_templates") else []
        if templates:
            self.echo("  or type one of these with your own values in place of <…> ('why ACTION' explains a refusal):")
            shown = len(templates) if everything else _SHOWN_TEMPLATES
            for t in templates[:shown]:
                self.echo(f"       {t}")
            if len(templates) > shown:
                self.echo(f"       … {len(templates) - shown} more ('list' shows all)")

    def refused(self, action: Action | None = None) -> None:
        """The action chosen (``action``) was refused (the refusal is said): the next prompt shows a
        one-line hint instead of the position and its actions again (``list`` shows them), and
        ``why`` alone explains that refusal."""
        self._refused = True
        self._last = action if action is not None else self._last

    def _chosen(self, action: Action | None) -> Action | None:
        self._last = None  # a new decision: an earlier refusal is no longer the one to explain
        return action

    def choose(self, state: Any) -> Action | None:
        """The chosen legal action, :data:`UNDO`, or None to quit."""
        if self._refused:
            self._refused = False
            self.echo(HINT)
        else:
            self._show(state)
        while True:
            try:
                line = self.read(f"{self.side}> ").strip()
            except EOFError:
                return None
            if not line:
                continue
            word, _, rest = line.partition(" ")
            try:
                if word in ("quit", "exit"):
                    return self._chosen(None)
                if word == "help":
                    self.echo(help_text(state, self.side))
                elif word == "list":
                    self._show(state, everything=True)
                elif word == "undo":
                    return self._chosen(UNDO)
                elif word == "why":
                    from casebook.tools.ask_text import line_words
                    from casebook.tools.cmd_ask import why_not_lines

                    if not rest.strip():  # why alone: the last refusal, as `why ACTION` says it
                        if self._last is None:
                            self.echo("no action was refused at this decision: type why ACTION to ask of one")
                            continue
                        rest = self._last if isinstance(self._last, str) else format_action(self._last)
                    try:
                        asked: Action | str
                        asked, problem = typed_action(state, rest, self.side)
                    except ValueError:
                        asked, problem = rest, empty_argument(rest)  # else why_not says what is wrong
                    # the action asked of, as `ask … why` names it (`action: SIDE: …`): typed or the last refused
                    self.echo(f"why {format_action(asked) if problem is None and not isinstance(asked, str) else rest}:")
                    if problem is not None:
                        self.echo(problem)
                        continue
                    cases, reason, lines = why_not_lines(state, asked)
                    self.echo(f"{reason}" + (f" (cases {', '.join(cases)})" if cases else ""))
                    for text in line_words(lines, "  "):  # the rule-script lines that refused it
                        self.echo(text)
                elif word == "ask":
                    self._ask(state, shlex.split(rest))
                elif word == "map":
                    from casebook.tools.cmd_play import write_turn_map

                    path = Path(rest or "map.svg")
                    write_turn_map(state, path, f"{self.game}: turn {state.data.turn}")
                    self.echo(f"wrote {path}")
                elif word == "save":
                    self._save(state, rest)
                elif line.isdigit():
                    actions = state.legal_actions()
                    n = int(line)
                    if not 1 <= n <= len(actions):
                        self.echo(f"no action number {n}: choose 1–{len(actions)}")
                        continue
                    return self._chosen(actions[n - 1])
                elif (empty := empty_argument(line)) is not None:  # ``units=``: refused as any bad input
                    self._last = line
                    self.echo(f"refused: {empty}")
                    self.echo(HINT)
                else:
                    action, problem = typed_action(state, line, self.side)
                    if problem is None:
                        return self._chosen(action)
                    self._last = line
                    self.echo(f"refused: {problem}")  # the input itself is wrong: nothing is applied
                    self.echo(HINT)
            except (CasebookError, ValueError, KeyError) as exc:
                self.echo(f"error: {exc}")
            except OSError as exc:  # a bad path for map: say so, play on
                self.echo(f"error: cannot write {exc.filename or ''}: {exc.strerror or exc}")

    def _ask(self, state: Any, words: list[str]) -> None:
        from casebook.tools.cmd_ask import answer_ctx, render_text

        question, args, options, as_json = parse_ask_words(words)
        ctx = state.ctx()
        answer = answer_ctx(ctx, question, args, options)
        self.echo(json.dumps(answer, ensure_ascii=False) if as_json else render_text(answer, ctx.engine))

    def _save(self, state: Any, target: str) -> None:
        from casebook.tools.saves import write_save

        if not target:
            raise ValueError("usage: save FILE")
        path = Path(target)
        try:
            write_save(state, path)  # and FILE.trace.jsonl, linked by its digest
        except OSError as exc:  # the save's own path, whichever of its two files failed; play on
            self.echo(f"error: cannot save to {path}: {exc.strerror or exc} — nothing was written; the game goes on")
            return
        self.echo(f"saved {path} (continue with: casebook play --load {path} --player {self.side}=human)")
