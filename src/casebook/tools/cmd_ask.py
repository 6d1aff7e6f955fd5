"""``casebook ask POSITION QUESTION [ARGS]…`` — the rules lawyer's questions about a position.

The position file is loaded and validated (its own inline map or its pack's map), the game's
engine is built, and the question goes to the plugins through the ``casebook_answer`` hook; the
plugin owning the question answers with a plain dict whose ``cases`` list names the cases that
decided it. ``--json`` prints that dict; otherwise it is printed as readable text
(:mod:`casebook.tools.ask_text`: one line per value, tables, DRM terms in words).
Every question is documented with an example in ``docs/ask.md``; each plugin lists the questions
it answers in its module constant ``QUESTIONS`` (question -> usage line; a later plugin of the
manifest may restate a question of a shared one for its game). ``casebook ask POSITION --help``
lists the questions of POSITION's game; without a position, those of every installed game.
"""

from __future__ import annotations

import gc
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from casebook.core.errors import ContentError, QuestionError
from casebook.core.hexgrid import parse_hex
from casebook.tools.ask_cases import cite_lines, deciding_lines

__all__ = ["ask", "ask_position", "answer_ctx", "UnknownQuestionError", "QuestionUsageError", "deciding_lines",
           "why_not_lines", "render_text", "questions_of", "installed_games"]


def _csv(value: str | None) -> list[str] | None:
    return None if value is None else [v for v in value.split(",") if v]


def ask_position(position: str, question: str, args: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """Answer ``question`` about the position file ``position``; raises PositionError (bad file)
    or QuestionError (no plugin answers, or the question is malformed)."""
    return _ask_position(position, question, args, options)[0]


def _position_engine(position: str, pack: str | None = None) -> tuple[Any, Any]:
    """(validated position, the engine of its game) for a position file (or text), on the pack
    folder ``pack`` if given (it must be of the position's game). A save (a position with
    ``plugin_state`` or ``rng.state``) is read on the pack ``play --load`` would resume it on
    (:func:`casebook.tools.saves.save_pack`: the folder it names) and checked whole as
    ``play --load`` checks it (:func:`casebook.content.savecheck.load_save`): a corrupt save is
    refused, every problem at once; any position past its Weather Phase without weather as well."""
    from casebook.content.confine import is_game_id
    from casebook.content.position import load_position, pack_dir_near
    from casebook.content.savecheck import is_save, load_save, weather_problems
    from casebook.content.yamlio import read_yaml
    from casebook.script.engine import load_engine

    here = Path(position) if "\n" not in position and Path(position).is_file() else None
    doc, _ = read_yaml(here, text=None) if here is not None else read_yaml("<position>", text=position)
    raw = doc.data if doc is not None else None
    game = raw.get("game") if isinstance(raw, dict) else None
    if here is not None:
        from casebook.tools.save_faults import truncated_save

        if (cut := truncated_save(here, raw)) is not None:
            raise cut
    if is_save(raw) and is_game_id(game):
        from casebook.tools.saves import save_pack

        chosen, warning = save_pack(raw, here or "<position>", pack)
        if warning:
            click.echo(warning, err=True)
        engine = _engine_of_game(load_engine(chosen), game, pack)
        return load_save(position, engine), engine
    if pack is not None:
        engine = load_engine(pack)
        pos = load_position(position, pack=engine.pack, extra=lambda d, at: weather_problems(d, engine.pack, at))
        return pos, _engine_of_game(engine, pos.game, pack)
    try:  # the game the file names: a copied pack above the file, as load_position finds it
        engine = load_engine(pack_dir_near(game, here) or game) if isinstance(game, str) and is_game_id(game) else None
    except ContentError:
        engine = None
    if engine is None:  # unreadable, no game id, or no pack of it: load_position says why
        pos = load_position(position)
        engine = load_engine(pack_dir_near(pos.game, here) or pos.game)
    # read and checked once, with its weather (every problem at once, as with --pack)
    return load_position(position, pack=engine.pack, extra=lambda d, at: weather_problems(d, engine.pack, at)), engine


def _engine_of_game(engine: Any, game: Any, pack: str | None) -> Any:
    if pack is not None and engine.pack.id != game:
        raise click.BadParameter(f"{pack} is a pack of {engine.pack.id!r}, the position a position of {game!r}",
                                 param_hint="--pack")
    return engine


def _ask_position(position: str, question: str, args: list[str], options: dict[str, Any],
                  pack: str | None = None) -> tuple[dict[str, Any], Any]:
    from casebook.script.values import MissingFactError
    from casebook.tools.ask_why import question_state
    from casebook.tools.save_faults import missing_field

    pos, engine = _position_engine(position, pack)
    try:
        state = question_state(pos, engine, question)
        return answer_ctx(engine.ctx(state), question, args, options), engine
    except MissingFactError as exc:  # a hand-edited position without a field the rules read
        found = missing_field(position, exc, engine.pack.vocabulary.side_ids)
        if found is None:
            raise
        raise found from None


def questions_of(engine: Any) -> dict[str, str]:
    """question -> usage line, for every question the plugins of ``engine``'s game answer (in
    manifest order; a later plugin's line for the same question replaces an earlier one), quoting
    the game's own cases (:func:`casebook.areas.help.module_questions`)."""
    from casebook.areas.help import module_questions

    return dict(sorted(module_questions(engine.rules, engine.pm.modules.values()).items()))


def installed_games() -> list[str]:
    """The ids of the installed games (entry points of group ``casebook.games``)."""
    from casebook.content.loader import installed_games as games

    return list(games())


def answer_ctx(ctx: Any, question: str, args: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """Answer ``question`` on a context (a position bound to its engine); QuestionError if no
    plugin answers it (the message lists them), or for a wrong option (:func:`_check_options`)."""
    _check_options(ctx, question, options)
    _check_hexes(ctx, question, list(args))
    from casebook.content.tablelines import cite_tables, reading_tables

    with ctx.engine.recording_lines() as lines, reading_tables() as reads:
        answer = ctx.hook.casebook_answer(ctx=ctx, question=question, args=list(args), options=options)
    if isinstance(answer, dict) and lines and "lines" not in answer:
        answer["lines"] = deciding_lines(answer, lines)  # the rule-script lines that decided it (file:line)
    if isinstance(answer, dict) and ("table_lines" in answer or reads):  # then the table rows it read
        cite_tables(ctx.pack, answer, reads, deciding_lines)
    if isinstance(answer, dict):
        cite_lines(answer)
    if answer is None:
        known = questions_of(ctx.engine)
        import difflib

        for meant in difflib.get_close_matches(question, list(known), n=1, cutoff=0.6):  # a typo: the one meant
            raise UnknownQuestionError(f"no rules plugin of {ctx.pack.id} answers {question!r} (did you mean "
                                       f"{meant!r}?); usage: {known[meant].split(' — ', 1)[0]}")
        listing = "\n".join(f"  {usage}" for usage in known.values()) or "  (none: no plugin answers questions)"
        raise UnknownQuestionError(f"no rules plugin of {ctx.pack.id} answers {question!r}; questions:\n{listing}")
    return answer


def _check_options(ctx: Any, question: str, options: Mapping[str, Any]) -> None:
    """QuestionError for an option its usage line (as ``ask --help`` shows it) does not name, e.g.
    Kestrel Pass's ``attack --support``, or a ``--path`` hex off the map (docs/ask.md)."""
    head = questions_of(ctx.engine).get(question, "").split(" — ", 1)[0]
    for key in options if head else ():
        if not re.search(re.escape(f"--{key}") + r"(?![\w-])", head):
            raise QuestionError(f"--{key}: {ctx.pack.manifest.get('name', ctx.pack.id)}'s {question} "
                                f"takes no --{key} (usage: {head})")
    for h in options.get("path") or ():
        if not (re.fullmatch(r"[0-9]{4}", str(h)) and ctx.board.contains(parse_hex(str(h)))):
            raise QuestionError(f"--path: {h!r} is not a hex of the map")


def _check_hexes(ctx: Any, question: str, args: list[str]) -> None:
    """QuestionError (exit 2) for an argument its usage line names ``HEX`` (or ``[HEX]``) that is
    a hex label off the map (``partisans 9999``, ``drop UNIT 9999``: docs/ask.md), before any
    plugin judges it. The usage line's positional words are matched to the arguments in order; a
    repeated ``HEX …`` checks every remaining argument. A word not a hex label is the plugin's."""
    head = questions_of(ctx.engine).get(question, "").split(" — ", 1)[0].split()
    slots: list[str] = []
    for w in (w for w in head[1:] if not w.startswith(("--", "[--"))):
        if w == "…":  # the word before repeats (move STACK HEX HEX …)
            slots.extend(slots[-1:] * len(args))
            break
        slots.append(w.strip("[]"))
    for word, arg in zip(slots, args):
        if word == "HEX" and re.fullmatch(r"[0-9]{4}", arg) and not ctx.board.contains(parse_hex(arg)):
            raise QuestionError(f"hex {arg} is off the map ({ctx.board.grid.describe()})")
    from casebook.tools.typed import HEX_ARGS, bad_hex_values

    for name, value in (t.split("=", 1) for a in args if question == "offer" for t in a.split() if "=" in t):
        problem = bad_hex_values(ctx.board.grid, name, value.split(",")) if name in HEX_ARGS else None
        if problem is not None:  # an offer's hex=… as play's prompt checks it
            raise QuestionError(problem)


class UnknownQuestionError(QuestionError):
    """No plugin of the game answers the question asked: a usage error of ``casebook ask`` (exit 2),
    a one-line refusal at the play prompt."""


class QuestionUsageError(click.ClickException):
    """A question asked wrongly (a :class:`QuestionError`: a malformed or missing argument, an
    unknown unit or side, a hex off the map, a die roll the dice cannot show, a side the position
    cannot give): a usage error of ``casebook ask``, exit 2 as every command's usage error (the
    README's "Commands"); its one-line message is printed as it is, as the play prompt shows it.
    A bad position file stays a content error (exit 1)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(self.format_message(), err=True)


def why_not_lines(state: Any, action: Any) -> tuple[tuple[str, ...], str, list[dict[str, Any]]]:
    """``state.why_not(action)`` (a :class:`casebook.core.play.State`; ``action`` an Action or its
    notation) with the rule-script lines that fired in the refusal: ``(cases, reason, lines)``,
    lines ``[{"source": "x.rules:9", "cases": [...], "text": "forbid …"}]``): of the lines that
    fired while it was judged, those citing one of its cases (not, say, the retreat or supply
    lines a ZOC search also fired) and those that computed a fact a deciding line read (the
    supply lines behind ``hex_supplied``: :mod:`casebook.script.factlines`), then the table cells a
    kept ``lookup T(…)`` line read (a refused step's TEC cells); legal, the lines that allowed it
    (:func:`casebook.tools.ask_why.allowed_lines`)."""
    from casebook.content.tablelines import cite_tables, reading_tables

    state.legal_actions()  # listed first: only the refusal's own lines are recorded
    with state.game.engine.recording_lines() as lines, reading_tables() as reads:
        cases, reason = state.why_not(action)
    from casebook.tools.ask_why import allowed_lines, step_note

    if not cases:  # legal: the lines that allowed it; else (a malformed notation) none
        return cases, reason, allowed_lines(state, action) if reason == "legal" else []
    from casebook.script.factlines import kept_lines

    found = kept_lines(lines, cases)  # and the lines that computed a fact a deciding line read
    kept = {"lines": found, "cases": list(cases)}
    cite_tables(state.game.engine.pack, kept, reads, deciding_lines)  # the table rows its lines looked up
    found = kept["lines"]
    note = step_note(state, action)
    if note is not None:  # an attack in a movement step: where it is made, and the case saying so
        generic = reason.startswith("not among the legal actions")
        cases = tuple(dict.fromkeys([*note[0], *([] if generic else cases)]))
        reason = note[1] if generic else f"{note[1]}; {reason}"
    return cases, reason, found


def render_text(answer: dict[str, Any], engine: Any = None) -> str:
    """An answer as readable text (:func:`casebook.tools.ask_text.render_answer`); ``engine``
    gives case titles and DRM words."""
    from casebook.tools.ask_text import render_answer

    return render_answer(answer, engine)


class _AskCommand(click.Command):
    """``casebook ask``: the help ends with the questions of the game named before ``--help`` (a
    position of it, its id or its pack folder; else of every installed game), and its Options
    block lists only the options those questions take."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["ask.argv"] = list(args)
        return super().parse_args(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        sections = self._sections(ctx)
        ctx.meta["ask.sections"] = sections
        super().format_help(ctx, formatter)
        for title, known in sections:
            with formatter.section(title):
                formatter.write_dl([(q, usage.split(" — ", 1)[-1] if " — " in usage else usage)
                                    for q, usage in known.items()] or [("", "(none)")])
                formatter.write_paragraph()
                for usage in known.values():
                    formatter.write_text(usage.split(" — ", 1)[0])

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The options the listed questions take (their usage lines name them: a game without
        combat support shows no ``--support``), and those of every question (``--json``,
        ``--pack``, ``--help``); all of them when no game's questions could be listed."""
        known = {q: u for _, qs in ctx.meta.get("ask.sections", ()) for q, u in qs.items()}
        rows = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None or not isinstance(param, click.Option):
                continue
            if known and param.name not in _EVERY_QUESTION and "--help" not in param.opts:
                taking = [q for q, usage in known.items()
                          if any(re.search(re.escape(o) + r"(?![\w-])", usage) for o in param.opts)]
                if not taking:
                    continue  # none of the listed questions takes it
                record = (record[0], re.sub(r" \([^)]*\)", "", record[1]).rstrip(".") + f" ({', '.join(taking)}).")
            rows.append(record)
        if rows:
            with formatter.section("Options"):
                formatter.write_dl(rows)

    @staticmethod
    def _sections(ctx: click.Context) -> list[tuple[str, dict[str, str]]]:
        """(title, question -> usage) of the game named before ``--help`` — by a position file, an
        installed game id or a pack folder — or of every installed game."""
        from casebook.core.errors import CasebookError
        from casebook.script.engine import load_engine
        from casebook.tools.ask_why import usage
        from casebook.tools.cli import folder_here

        argv = [a for a in ctx.meta.get("ask.argv", []) if not a.startswith("-")]
        sections: list[tuple[str, dict[str, str]]] = []
        try:
            named = argv[0] if argv else None
            if named is not None and Path(named).is_file():
                pos, engine = _position_engine(named)
                sections.append((f"Questions of {engine.pack.manifest.get('name', pos.game)} ({pos.game})",
                                 questions_of(engine) | {"why": usage(engine)}))
            elif named is not None and (named in installed_games() or (Path(named) / "game.yaml").is_file()):
                engine = load_engine(folder_here(named))  # a folder here named as a game id: as GAME reads it
                game = engine.pack.id
                sections.append((f"Questions of {engine.pack.manifest.get('name', game)} ({game})",
                                 questions_of(engine) | {"why": usage(engine)}))
            else:
                for game in installed_games():
                    engine = load_engine(game)
                    sections.append((f"Questions of {engine.pack.manifest.get('name', game)} ({game}; "
                                     "name a position of it, or the game, before --help for its questions "
                                     "alone)", questions_of(engine) | {"why": usage(engine)}))
        except CasebookError as exc:
            sections.append((f"(its game could not be loaded: {str(exc).splitlines()[0]})", {}))
        return sections


#: ``ask`` options every question takes (always listed by ``--help``)
_EVERY_QUESTION = frozenset({"as_json", "pack"})


@click.command(cls=_AskCommand, context_settings={"ignore_unknown_options": False})
@click.argument("position", type=click.Path(exists=True, dir_okay=False))
@click.argument("question")
@click.argument("args", nargs=-1)
@click.option("--as", "as_", metavar="MODE", help="Movement mode or step (reach, move): the game's own.")
@click.option("--for", "for_", metavar="UNIT", help="Ask on behalf of this unit (zoc).")
@click.option("--with", "with_", metavar="U,U…", help="Attacking units (attack, fortification).")
@click.option("--support", metavar="A,D", help="Combat support, attacker then defender (attack; games with support).")
@click.option("--overrun", is_flag=True, help="The attack is an overrun (attack; games with overruns).")
@click.option("--roll", type=int, help="Resolve with this die roll (attack, income).")
@click.option("--hexes", type=int, help="Hexes of retreat (retreat; games that ask for them).")
@click.option("--path", metavar="HEX,…", help="A retreat path to judge (retreat; games that ask for them).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--pack", type=click.Path(exists=True, file_okay=False, resolve_path=True), default=None,
              help="The pack folder to answer on (a copied or edited pack; default: the folder above "
                   "POSITION with its game, the folder a save names, else the installed game).")
def ask(position: str, question: str, args: tuple[str, ...], as_: str | None, for_: str | None,
        with_: str | None, support: str | None, overrun: bool, roll: int | None, hexes: int | None,
        path: str | None, as_json: bool, pack: str | None) -> None:
    """Ask QUESTION about the position in POSITION; every answer lists the cases that decided it.

    The questions are those the rules plugins of POSITION's game answer (listed below; examples
    in docs/ask.md). Text by default, one JSON object with --json.
    """
    # one question, then the process ends: reference counting frees what the answer drops, and the
    # cycle collector would only walk the loaded modules, pack and board again and again (about a
    # sixth of a warm ``ask``'s CPU, benchmarks/bench_cli.py)
    gc.disable()
    try:
        ips = None if support is None else [int(p) for p in _csv(support) or []]
    except ValueError:
        ips = []
    if ips is not None and (len(ips) != 2 or min(ips) < 0):  # as play's template: 0 or more (10.4.2A)
        raise click.BadParameter(f"expected two IP numbers 'A,D', each a whole number 0 or more (10.4.2A), "
                                 f"got {support!r}", param_hint="--support")
    given = (("as", as_), ("for", for_), ("with", _csv(with_)), ("support", ips), ("overrun", True if overrun else None),
             ("roll", roll), ("hexes", hexes), ("path", _csv(path)))
    options: dict[str, Any] = {key: value for key, value in given if value is not None}
    try:
        if question == "why":  # the play prompt's why, of a position (casebook.tools.ask_why)
            from casebook.tools.ask_why import why_answer

            pos, engine = _position_engine(position, pack)
            answer = why_answer(pos, engine, list(args))
        else:
            answer, engine = _ask_position(position, question, list(args), options, pack)
    except UnknownQuestionError as exc:  # a question no plugin answers is a usage error (exit 2)
        raise click.UsageError(str(exc)) from None
    except QuestionError as exc:  # a question asked wrongly (its arguments, a side it needs): exit 2
        raise QuestionUsageError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False, sort_keys=False))
    else:
        click.echo(render_text(answer, engine))
    sys.stdout.flush()
