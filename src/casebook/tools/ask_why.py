"""``casebook ask POSITION why ACTION``: the play prompt's ``why`` asked of a position file.

The position becomes the play ``play --load`` would resume (a save, or any position at a step:
:meth:`casebook.core.game.Game.state_from_dict`), or — a scenario start, which has no step yet —
the play ``casebook play`` begins from it (its setup and first turn start, the position's seed,
else 1). ACTION, in notation (docs/actions.md; the side may be left out: the side deciding), is
judged by :func:`casebook.tools.cmd_ask.why_not_lines`, the function of the prompt's ``why`` and
of serve's refusals: legal, or the refusal with its cases and the rule-script lines that made
it — and, for an action made only in other steps (an attack in a movement step), the step it is
made in and that step's case (:func:`step_note`). A legal action names the lines that made it
allowed (:func:`allowed_lines`).
"""

from __future__ import annotations

from typing import Any

from casebook.core.errors import QuestionError

__all__ = ["USAGE", "allowed_lines", "held_state", "offer_state", "play_state", "question_state",
           "refusal", "step_note", "usage", "why_answer"]

#: The usage line of the question, ``{example}`` an action's notation (:func:`usage` fills in one
#: of the game's own; ``casebook ask POSITION --help`` lists it for every game).
USAGE = ("why ACTION — whether ACTION (its notation, quoted: \"{example}\") is legal now, else "
         "the refusal, its cases and rule lines, as play's why (a scenario start: as play begins it)")


def refusal(state: Any, action: Any, exc: Any) -> tuple[tuple[str, ...], str, list[dict[str, Any]]]:
    """``(cases, reason, lines)`` of an action the rules refused when applied (``exc``, an
    :class:`~casebook.core.errors.IllegalActionError`), as the play prompt and serve say it: the
    refusal's own reason and cases — or, for an action made only in other steps (an attack in a
    movement step), the step it is made in and its case first, as ``why`` says it — and the
    rule-script lines that refused it (:func:`casebook.tools.cmd_ask.why_not_lines`)."""
    from casebook.tools.cmd_ask import why_not_lines

    cases, reason, lines = why_not_lines(state, action)
    if step_note(state, action) is None:
        cases, reason = exc.cases, exc.reason
    return tuple(cases), reason, lines


def allowed_lines(state: Any, action: Any) -> list[dict[str, Any]]:
    """The lines that made the legal ``action`` allowed, judged by play's validators (the code
    path of play): a declared action's offer, cost, held ``require`` and deciding ``permit`` lines
    (:func:`casebook.script.declared.allowed_lines`); of the other lines that fired, those of its
    own rule — citing a case of its permission's lines (the rule-script lines naming the action)
    or of theirs, or of a move's MA and path as play walks it (``casebook_move_cases``: 9.1A,
    9.2A-B), or another case of the same rule (12.3B, its cost, beside 12.3A), and those that
    computed a fact a kept line read (:func:`casebook.script.factlines.rule_lines`; play's
    ``move`` event keeps the same) — not those of the
    board-wide searches met on the way (supply, command, ZOC, the weather) — and after them the
    table cells and rows a kept line looked up (``table ip_costs[…]``: the Initiative Point Chart
    row of an HQ activation's cost, tables/ip_costs.yaml:11; a move's TEC cells), as ``ask`` cites
    them (:func:`casebook.content.tablelines.cite_tables`)."""
    from casebook.content.tablelines import cite_tables, reading_tables
    from casebook.core.actions import parse_action
    from casebook.script.declared import allowed_lines as declared_lines
    from casebook.script.explain import unique_lines
    from casebook.script.factlines import rule_lines

    if isinstance(action, str):  # the notation (legal: it parses), its side the one deciding
        action = parse_action(action, side=state.current_player())
    engine = state.game.engine
    ctx = engine.ctx(state.data)
    with engine.recording_lines() as lines, reading_tables() as reads:
        engine.hook.casebook_validate_action(ctx=ctx, action=action)
        declared = declared_lines(ctx, action)
    permission = engine.rules.permissions.get(action.kind.replace("-", "_"))
    own = {c for _, code, _ in (permission.lines if permission is not None else ()) for c in code.cases}
    own |= {c for ln in declared for c in ln["cases"]}
    own |= set(engine.hook.casebook_move_cases(ctx=ctx, action=action) or ())  # a move: its MA's, its path's
    own_lines = rule_lines(lines, own)  # and the lines of a fact a kept line read (an unsupplied MA's supply, 5.7B)
    found = {"lines": unique_lines([*declared, *own_lines])}
    cite_tables(engine.pack, found, reads, lambda _answer, _lines: [])  # the cells its lines looked up (a TEC's)
    return list(found["lines"])


def usage(engine: Any) -> str:
    """:data:`USAGE` with the example of ``engine``'s game: its manifest's ``examples: {why: …}``
    (an action legal at its first scenario's start as play begins it, e.g. Kestrel Pass's ``move
    path=0104 stack=0105``; tests/test_play_ux.py asks it of that start), read from data so that
    ``--help`` sets up no scenario; ``ACTION`` for a game that gives none."""
    example = (engine.pack.manifest.get("examples") or {}).get("why")
    return USAGE.format(example=example if isinstance(example, str) and example.strip() else "ACTION")


def play_state(pos: Any, engine: Any) -> tuple[Any, Any]:
    """``(state, passed)``: the play of the validated position ``pos`` as play has it — a save or
    a position at a step as ``play --load`` resumes it (:meth:`casebook.core.game.Game.state_from_dict`),
    a scenario start as ``casebook play`` begins it (its setup and first turn start, turn-start
    triggers included; the position's seed, else 1) — and ``passed``, the ``auto-pass`` event of
    the position's own step when resuming passed it (:func:`_passed_step`), else None. The state
    ``why`` and ``offer`` judge an action in (tools/cmd_ask.py); QuestionError when the game has no
    scenario to play the position in."""
    from casebook.content.position import position_to_dict
    from casebook.core.game import Game

    scenarios = engine.pack.scenarios
    info = getattr(pos, "scenario", None)
    scenario = info.id if info is not None and info.id in scenarios else next(iter(scenarios), None)
    if scenario is None:
        raise QuestionError(f"why: the game {engine.pack.id!r} has no scenario to play the position in")
    game = Game(engine, scenario)
    data = position_to_dict(pos)
    if data.get("step") is None:  # a scenario start: the play `casebook play` begins from it,
        game._position = pos  # the file's own (an edited copy's units, engineers…), not the pack's
        seed = (data.get("rng") or {}).get("seed")
        return game.new_initial_state(seed=int(seed) if isinstance(seed, int) else 1), None
    state = game.state_from_dict(data)
    return state, _passed_step(state, data)


def held_state(game: Any, data: dict[str, Any]) -> Any:
    """The play of the position ``data`` held as the file has it (no step entered, nothing
    passed): where ``why`` and ``offer`` judge an action at a step play passes."""
    from casebook.core.play import State
    from casebook.core.state import GameState
    from casebook.core.trace import Trace

    settings = {**game.setting_defaults(), **(data.get("settings") or {})}
    return State(game, game.engine.declare(GameState.from_dict({**data, "settings": settings})), Trace())


def offer_state(pos: Any, engine: Any) -> Any:
    """The game state ``ask offer`` judges a declared action in: the one ``why`` judges it in
    (:func:`play_state`: a scenario start after its setup and first turn start, so a turn-start
    trigger's track points count, KP11.1) — the position as the file holds it when play passes
    its step (:func:`held_state`), or when the game has no scenario to play it in."""
    from casebook.content.position import position_to_dict
    from casebook.script.engine import state_from_position

    if not engine.pack.scenarios:
        return state_from_position(pos)
    state, passed = play_state(pos, engine)
    return state.data if passed is None else held_state(state.game, position_to_dict(pos)).data


def question_state(pos: Any, engine: Any, question: str) -> Any:
    """The game state ``ask QUESTION`` answers about the validated position ``pos``: ``offer``'s
    (:func:`offer_state`), and so every question of a scenario start (a position with its
    ``scenario:`` and no step — a scenario file — as ``casebook play`` begins it: its setup and
    first turn start, the turn-start triggers applied, the first step's automatic work done) and
    ``reinforcements`` of any position without a step (its side and RPs, 12.2A); a position at a
    step, or a hand-made one without a scenario, as the file has it."""
    from casebook.script.engine import state_from_position

    start = getattr(pos, "step", None) is None and (question == "reinforcements" or pos.scenario is not None)
    return offer_state(pos, engine) if question == "offer" or start else state_from_position(pos)


def why_answer(pos: Any, engine: Any, args: list[str]) -> dict[str, Any]:
    """The answer to ``why ACTION`` (``args``: the notation, one word or several) about the
    validated position ``pos`` of ``engine``'s game, judged in :func:`play_state`; QuestionError
    without an action."""
    from casebook.content.position import position_to_dict
    from casebook.core.actions import format_action, parse_action
    from casebook.tools.cmd_ask import why_not_lines
    from casebook.tools.human import complete_action
    from casebook.tools.typed import typed_problem

    text = " ".join(args).strip()
    if not text:
        raise QuestionError(f"usage: {USAGE.split(' — ', 1)[0]} (e.g. 'why \"move stack=HEX path=HEX\"')")
    state, passed = play_state(pos, engine)
    if passed is not None:  # play passed the step asked (its decider had nothing but pass)
        return _passed_answer(state.game, position_to_dict(pos), passed, text)
    decider = state.current_player()
    try:
        asked: Any = complete_action(state, parse_action(text, side=decider))  # as the prompt's why
    except ValueError:
        asked = text  # malformed: why_not_lines says what is wrong with it
    problem = None if isinstance(asked, str) else typed_problem(state, asked)
    if problem is not None:  # bad input, in the play prompt's words (an unknown kind, unit or hex): a usage error
        raise QuestionError(problem)
    cases, reason, lines = why_not_lines(state, asked)
    out = {"action": format_action(asked) if not isinstance(asked, str) else asked,
           "turn": state.data.turn, "phase": state.data.phase, "step": state.data.step, "deciding": decider,
           "legal": reason == "legal", "reason": reason, "cases": list(cases)}
    return out | ({"lines": lines} if lines else {})  # as every answer: lines only when some decided it


def _passed_step(state: Any, data: dict[str, Any]) -> Any:
    """The ``auto-pass`` event of the position's own step when resuming it passed that step (its
    decider had no legal action but pass, e.g. a Reaction step without the IPs), else None."""
    first = next(iter(state.trace), None)
    if first is None or first.kind != "auto-pass" or first.data.get("step") != data.get("step"):
        return None
    return first if first.phase == data.get("phase") and data.get("turn", first.turn) == first.turn else None


def _passed_answer(game: Any, data: dict[str, Any], passed: Any, text: str) -> dict[str, Any]:
    """``why`` about a step play passes (:func:`_passed_step`): ACTION judged in that step (the
    position as the file holds it, the step's decider the one play passed for) — its refusal,
    cases and lines, after the sentence saying that only a pass is legal there."""
    from casebook.core.actions import format_action, parse_action
    from casebook.tools.cmd_ask import why_not_lines

    held = held_state(game, data)
    side, step = passed.side, passed.data["step"]
    try:
        asked: Any = parse_action(text, side=side)
    except ValueError:
        asked = text  # malformed: why_not_lines says what is wrong with it
    only = f"{side} has no legal action in the {step} step but pass: play passes it"
    lines: list[dict[str, Any]] = []
    if not isinstance(asked, str) and asked.kind == "pass" and asked.side == side:
        cases, reason = tuple(passed.cases), "legal"
    else:
        cases, reason, lines = why_not_lines(held, asked)
        generic = reason.startswith("not among the legal actions")
        cases = tuple(dict.fromkeys([*passed.cases, *cases]))
        reason = only if generic else f"{only}; {reason}"
    out = {"action": format_action(asked) if not isinstance(asked, str) else asked, "turn": passed.turn,
           "phase": passed.phase, "step": step, "deciding": side, "legal": reason == "legal", "reason": reason,
           "cases": list(cases)}
    return out | ({"lines": lines} if lines else {})


def step_note(state: Any, action: Any) -> tuple[tuple[str, ...], str] | None:
    """For an action of a kind the current step offers no one (neither listed nor a template's),
    made by a rules area only in its own steps (its module's ``ACTIONS`` and ``STEPS``): the cases
    of the steps of the sequence where it is made (those of the current phase when it has one)
    and the sentence naming them — "attack is made in the combat step (Combat phase, KP4.1B),
    not in the movement step (KP4.1A)". None otherwise (the refusal stands as it is)."""
    from casebook.core.actions import parse_action

    if isinstance(action, str):
        try:
            action = parse_action(action, side=state.current_player())
        except ValueError:
            return None
    if any(a.kind == action.kind for a in state.legal_actions()) or any(
            t.kind == action.kind for t in state.action_templates()):
        return None
    engine = state.game.engine
    owners = [getattr(m, "STEPS", ()) for m in engine.pm.modules.values() if action.kind in getattr(m, "ACTIONS", ())]
    if not owners:
        return None

    def made_in(step_id: str) -> bool:
        return any(o(step_id) if callable(o) else step_id in o for o in owners)

    phase_id, step_id = state.data.phase, state.data.step
    if step_id is None or made_in(step_id):
        return None
    phases = engine.sequence.phases
    here = [p for p in phases if p.id == phase_id]
    steps = [s for p in here for s in p.steps if made_in(s.id)] or [s for p in phases for s in p.steps if made_in(s.id)]
    if not steps:
        return None
    now = next((s for p in here for s in p.steps if s.id == step_id), None)
    where = " or ".join(dict.fromkeys(f"the {s.id} step ({s.name}, {s.case})" for s in steps))
    cases = tuple(dict.fromkeys([*(s.case for s in steps), *([now.case] if now is not None else [])]))
    return cases, (f"{action.kind} is made in {where}, not in the {step_id} step"
                   + (f" ({now.case})" if now is not None else ""))
