"""A play in progress: the mutable :class:`State` of the game API (its :class:`~casebook.core.game.Game`
makes one with ``game.new_initial_state(seed)``). A :class:`State` drives the sequence of play
through the plugins' hooks (docs/plugins.md, "Hooks"):

- on entering a step, ``casebook_step_start`` (automatic work: weather rolls, IP collection);
- while ``casebook_decider`` names a side and there are legal actions, the play waits for that
  side: :meth:`State.current_player`, :meth:`State.legal_actions` (deterministic order, a
  list; membership is a cheap ``in``), :meth:`State.apply`;
- a step whose decider is ``None``/``"none"``, or whose only legal action is ``pass``, ends by
  itself (the pass is recorded as automatic) — unless a human plays the decider (a side of
  :attr:`State.humans`) and a template offers it a real decision (an attack no listed group
  makes, :meth:`State.action_templates`): then that side is asked (its plain ``pass`` there is
  recorded as the ``auto-pass`` a bot's play has; the setup event lists the human sides, so
  replay asks them too); then ``casebook_step_end`` and the sequence
  machine advances. A step ended without any action taken in it counts as *passed*: at the first
  step of a loop that ends the loop (0.7.3.6: the phasing player passes); after an action (an
  activation) play goes on to the next step;
- leaving the last step of a turn fires ``casebook_turn_end``; after every action and turn
  ``casebook_game_result`` may end the game, and so does passing the scenario's last turn.

An action that is not listed but matches one of :meth:`State.action_templates` (a parameterised
action whose free arguments the player fills in, docs/actions.md) is legal when no validator
refuses it. Every action is validated first (an illegal one raises :class:`IllegalActionError` naming the
forbidding cases and leaves the state unchanged) and applied inside one transaction, so a state
never holds a half-applied action. The trace records every action, roll and automatic step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from casebook.core.actions import Action, parse_action
from casebook.core.errors import CasebookError, IllegalActionError
from casebook.core.sequence import SequenceMachine
from casebook.core.standing import UNTIL, covers, lapsed, standing_record
from casebook.core.standing import offer as standing_offer
from casebook.core.state import GameState
from casebook.core.templates import ActionTemplate
from casebook.core.trace import Trace

if TYPE_CHECKING:
    from casebook.core.game import Game

__all__ = ["State", "DRIVER"]

#: Source name of the driver's trace events and the plugin_state key of its bookkeeping (checked
#: in a save by :class:`casebook.content.savecheck.DriverRecord`).
DRIVER = "driver"
_SETTLE_LIMIT = 100_000


def _readable(exc: Exception) -> str:
    """What was wrong with a typed action, in words (a refusal, never a class name): a rules
    error's own message; an unknown key named as such."""
    detail = str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc).strip()
    if isinstance(exc, CasebookError) or isinstance(exc, ValueError):
        return detail or "a value that cannot be read"
    if isinstance(exc, KeyError):
        return f"{detail!r} is not known here"
    return f"a value of the wrong kind ({detail})" if detail else "a value of the wrong kind"


class State:
    """A play in progress (see the module docstring). ``data`` is the
    :class:`~casebook.core.state.GameState`, ``trace`` the :class:`Trace`, ``history`` the
    actions applied by players (automatic passes excluded). ``humans`` (a frozenset of sides,
    empty by default: bots everywhere) are the sides a person plays: a step of theirs whose only
    listed action is ``pass`` still asks them when a template (other than a pass) is offered,
    since the template may hold the decision no listed action makes. Set it when the play is
    created (``Game.new_initial_state(humans=…)``); set later, it holds from the next settling on."""

    def __init__(self, game: Game, data: GameState, trace: Trace,
                 history: Iterable[Action] = ()) -> None:
        self.game = game
        self.data = data
        self.trace = trace
        self.history: list[Action] = list(history)
        self._machine = SequenceMachine(game.engine.sequence, data)
        self._legal: list[Action] | None = None
        self._decider: str | None = None
        self.humans: frozenset[str] = frozenset()

    # ------------------------------------------------------------------ the public API
    def current_player(self) -> str | None:
        """The side to decide now, or None when the game is over."""
        return None if self.is_terminal() else self._decider

    def legal_actions(self) -> list[Action]:
        """The legal actions now, in a deterministic order (empty when terminal)."""
        if self.is_terminal():
            return []
        if self._legal is None:
            self._legal = self._gather()
        return list(self._legal)

    def action_templates(self) -> list[ActionTemplate]:
        """The parameterised actions open to the current player (src/casebook/core/templates.py): the
        owners' ``casebook_action_templates`` in plugin order, then the kernel's standing pass
        ``pass until=loop`` where it is offered (src/casebook/core/standing.py). Empty when terminal."""
        if self.is_terminal() or not self._decider:
            return []
        phase, step = self._machine.current
        ctx = self.game.engine.ctx(self.data)
        lists = self.game.engine.hook.casebook_action_templates(ctx=ctx, phase=phase.id, step=step.id)
        out = [t for ts in reversed(lists) for t in ts or () if t.side == self._decider]
        standing = standing_offer(phase, step, self._decider, self.legal_actions())
        return out + ([standing] if standing else [])

    def apply(self, action: Action | str) -> Any:
        """Apply ``action`` (an :class:`Action` or its notation) for the current player.

        Raises :class:`IllegalActionError` with the forbidding cases (the state is unchanged) if
        it is not legal now; returns the owner's summary of what happened.
        """
        if isinstance(action, str):
            try:
                action = parse_action(action, side=self._decider)
            except ValueError as exc:
                raise IllegalActionError(str(action), (), f"not an action: {exc}") from None  # notation, no rule
        if self.is_terminal():
            raise IllegalActionError(str(action), (), "the game is over")
        if action not in self.legal_actions() and not self._accepts(action):
            raise IllegalActionError(str(action), *self._why_not_safe(action))
        ctx = self._ctx()
        decider, legal = self._decider, self._legal
        try:
            with self.data.transaction(self.trace):
                result = self._apply(ctx, action)
                self._settle()
        except BaseException:
            self._decider, self._legal = decider, legal
            raise
        self.history.append(action)
        return result

    def peek(self, action: Action) -> State:
        """A copy of this play with the legal ``action`` applied but nothing after it settled
        (no automatic steps, no legal-action search): a cheap look-ahead for bots. Raises
        IllegalActionError like :meth:`apply`; this play is unchanged."""
        listed = action in self.legal_actions()
        if not listed and not self._accepts(action):
            raise IllegalActionError(str(action), *self._why_not_safe(action))
        other = State(self.game, self.data.clone(), Trace(), self.history)
        other._decider, other.humans = self._decider, self.humans
        ctx = other._ctx(event_lines=False)  # a look-ahead: no lines collected, the shared caches used
        ctx.listed = action if listed else None  # checked here: its owner need not list it again
        with other.data.transaction(other.trace):
            other._apply(ctx, action)
        return other

    def why_not(self, action: Action | str) -> tuple[tuple[str, ...], str]:
        """(cases, reason) why ``action`` is not legal now; ``((), "legal")`` if it is."""
        if isinstance(action, str):
            try:
                action = parse_action(action, side=self._decider)
            except ValueError as exc:
                return (), f"not an action: {exc}"  # the notation is wrong: no rule case forbids it
        if action in self.legal_actions() or self._accepts(action):
            return (), "legal"
        return self._why_not_safe(action)

    def is_terminal(self) -> bool:
        """The game is over (a result is declared, or the scenario's last turn has passed)."""
        return self.result() is not None

    def result(self) -> dict[str, Any] | None:
        """``{"winner", "level", "reason", "cases"}`` once the game is over, else None."""
        declared = self.data.plugin_data(DRIVER) or {}
        return declared.get("result")

    def clone(self) -> State:
        """An independent copy (state, trace and history)."""
        other = State(self.game, self.data.clone(), Trace(list(self.trace)), self.history)
        other._legal = None if self._legal is None else list(self._legal)
        other._decider, other.humans = self._decider, self.humans
        return other

    def to_dict(self) -> dict[str, Any]:
        """The play as a position document (a save); ``game.state_from_dict`` resumes it."""
        return self.data.to_dict()

    def ctx(self) -> Any:
        """A query context on this state (for ``ask``-style questions; records nothing)."""
        return self.game.engine.ctx(self.data)

    # ------------------------------------------------------------------ the driver
    def _ctx(self, event_lines: bool = True) -> Any:
        """The recording context of play: each event carries the rule-script lines that fired
        for it (:meth:`casebook.script.engine.Ctx.record`)."""
        return self.game.engine.ctx(self.data, self.trace, event_lines=event_lines)

    def _driver(self) -> dict[str, Any]:
        return self.data.plugin_data(DRIVER) or {}

    def _set_driver(self, **fields: Any) -> None:
        record = self._driver()
        record.update(fields)
        self.data.set_plugin_data(DRIVER, record)

    def _offered(self) -> bool:
        """A human decider is offered a template other than a pass (the decision no listed action
        makes, e.g. 10.3A's attack by a group not listed): its step is not settled by itself."""
        return self._decider in self.humans and any(t.kind != "pass" for t in self.action_templates())

    def _setup(self) -> None:
        ctx = self._ctx()
        ctx.begin_lines()
        self.game.engine.hook.casebook_setup(ctx=ctx)
        setup = {"game": self.game.engine.pack.id, "scenario": self.game.scenario, "seed": self.data.rng.get("seed")}
        if self.data.rng.get("fixed"):
            setup["rolls"] = list(self.data.rng["fixed"])  # replay puts them back (src/casebook/core/dice.py)
        if self.humans:  # replay asks them as play did (a template's action at a step bots pass)
            setup["humans"] = sorted(self.humans)
        ctx.record("setup", (), setup, source=DRIVER, side=None, lines=False)

    def _gather(self) -> list[Action]:
        phase, step = self._machine.current
        ctx = self.game.engine.ctx(self.data)
        lists = self.game.engine.hook.casebook_legal_actions(ctx=ctx, phase=phase.id, step=step.id)
        seen: set[Action] = set()
        out: list[Action] = []
        for actions in reversed(lists):  # pluggy calls LIFO: restore manifest order
            for a in actions or ():
                if a not in seen and a.side == self._decider:
                    seen.add(a)
                    out.append(a)
        return out

    def _why_not_safe(self, action: Action) -> tuple[tuple[str, ...], str]:
        """:meth:`_why_not`, and for an action a plugin's validator cannot even read (an enemy
        unit in ``with=``, a word where a number belongs, a hex off the map) the step's case and
        what was malformed: a typed action is untrusted input and is refused, never a crash."""
        try:
            return self._why_not(action)
        except IllegalActionError:
            raise
        except (CasebookError, KeyError, ValueError, TypeError, AttributeError, IndexError, LookupError) as exc:
            phase, step = self._machine.current
            return (step.case,), (f"not among the legal actions of the {step.id} step ({phase.id}); "
                                  f"malformed action: {_readable(exc)[:160]}")

    def _refusals(self, action: Action) -> list[Any]:
        ctx = self.game.engine.ctx(self.data)
        return [r for rs in self.game.engine.hook.casebook_validate_action(ctx=ctx, action=action)
                for r in (rs or ())]

    def _accepts(self, action: Action) -> bool:
        """An unlisted ``action`` of the current player that fills in one of the templates and
        that no validator refuses."""
        if self.is_terminal() or action.side != self._decider:
            return False
        if not any(t.matches(action) for t in self.action_templates()):
            return False
        try:
            return not self._refusals(action)
        except (CasebookError, KeyError, ValueError, TypeError, AttributeError, IndexError, LookupError):
            return False  # a filling a validator cannot even read is refused (by _why_not_safe)

    def _why_not(self, action: Action) -> tuple[tuple[str, ...], str]:
        refusals = self._refusals(action)
        if refusals:
            cases = tuple(dict.fromkeys(c for r in refusals for c in r.cases))
            return cases, "; ".join(r.reason for r in refusals)
        phase, step = self._machine.current
        who = self._decider or "nobody"
        return (step.case,), (f"not among the legal actions of the {step.id} step "
                              f"({phase.id}, {who} to decide)")

    def _apply(self, ctx: Any, action: Action) -> Any:
        phase, step = self._machine.current
        if action == Action.make("pass", action.side) and not any(a.kind != "pass" for a in self.legal_actions()):
            # a human asked only for a template's sake (_offered) passes: the step ends as it would by
            # itself for a bot, recorded the same, so play and replay (which knows no humans) agree
            ctx.record("auto-pass", (step.case,), {"step": step.id, "acted": bool(self._driver().get("acted"))},
                       source=DRIVER, side=action.side, lines=False)
            self._end_step(ctx, passed=not self._driver().get("acted"))
            return {"passed": step.id}
        ctx.record("action", (step.case,), {"action": str(action)}, source=DRIVER, side=action.side, lines=False)
        if action.kind == "pass":
            if action.get("until") == UNTIL:  # the standing pass (src/casebook/core/standing.py)
                note = standing_record(phase, step, action.side, self.data.turn)
                self._set_driver(standing=note)
                ctx.record("standing-pass", note["cases"], note, source=DRIVER, side=action.side, lines=False)
            self._end_step(ctx, passed=not self._driver().get("acted"))
            return {"passed": step.id}
        ctx.begin_lines()
        result = self.game.engine.hook.casebook_apply_action(ctx=ctx, action=action)
        if result is None:
            raise IllegalActionError(str(action), (step.case,), "no rules plugin applies this action")
        self._set_driver(acted=True)
        ctx.changed()
        ctx.begin_lines()
        self.game.engine.hook.casebook_after_action(ctx=ctx, action=action, result=result)
        self._check_result(ctx)
        self._fire(ctx, "action_ends", {"side": action.side, "action_kind": action.kind.replace("-", "_")})
        self._legal = None
        return result

    def _fire(self, ctx: Any, event: str, facts: Mapping[str, Any]) -> None:
        """Carry out the rule-script triggers of ``event`` (src/casebook/script/effects.py); an
        ``end the game`` line that fires ends the game, unless it is over already. The engine
        carries them out (``Runtime.triggered``: the core imports no rule-script runtime)."""
        if self.result() is not None:
            return
        ctx.begin_lines()
        result = self.game.engine.triggered(ctx, event, facts)
        if result is not None:
            ctx.changed()
            self._set_driver(result=dict(result))
            ctx.record("game-over", result.get("cases", ()), dict(result), source=DRIVER, side=None)

    def _check_result(self, ctx: Any) -> None:
        if self.result() is not None:
            return
        ctx.begin_lines()
        result = self.game.engine.hook.casebook_game_result(ctx=ctx)
        if result is not None:
            self._set_driver(result=dict(result))
            ctx.record("game-over", result.get("cases", ()), dict(result), source=DRIVER, side=None)

    def _end_step(self, ctx: Any, passed: bool) -> None:
        phase, step = self._machine.current
        engine = self.game.engine
        ctx.begin_lines()
        engine.hook.casebook_step_end(ctx=ctx, phase=phase.id, step=step.id)
        self._fire(ctx, "step_ends", {"phase": phase.id, "step": step.id})
        last_phase = engine.sequence.phases[-1]
        if phase.id == last_phase.id and step.id == phase.steps[-1].id:
            turn = self.data.turn
            ctx.begin_lines()
            engine.hook.casebook_turn_end(ctx=ctx, turn=turn)
            self._check_result(ctx)
            last = self.game.last_turn
            if self.result() is None and last is not None and turn >= last:
                outcome: dict[str, Any] = {"winner": None, "level": "draw", "reason": f"turn {turn} was the scenario's last",
                           "cases": []}
                self._set_driver(result=outcome)
                ctx.record("game-over", (), outcome, source=DRIVER, side=None, lines=False)
        if self.result() is None:
            # only a pass at a loop's first step ends the loop (0.7.3.6: the *phasing* player
            # passes in the Command Step); elsewhere a step ending without action just ends it
            passed = passed and phase.loop_starting(step.id) is not None
            self._machine.advance(passed=passed, trace=self.trace)
        if self._driver().get("standing") is not None and lapsed(self._driver()["standing"],
                                                                 *self._machine.current, self.data.turn):
            self._set_driver(standing=None)
        self._set_driver(started=False, acted=False)
        self._legal = None

    def _settle(self) -> None:
        """Run automatic work until a player must decide or the game is over."""
        ctx = self._ctx()
        for _ in range(_SETTLE_LIMIT):
            if self.is_terminal():
                self._decider = None
                return
            phase, step = self._machine.current
            if not self._driver().get("started"):
                self._set_driver(started=True)
                first = self.game.engine.sequence.phases[0]
                if phase.id == first.id and step.id == first.steps[0].id:
                    self._fire(ctx, "turn_starts", {})
                    if self.is_terminal():
                        continue
                ctx.begin_lines()
                self.game.engine.hook.casebook_step_start(ctx=ctx, phase=phase.id, step=step.id)
                ctx.changed()
                self._check_result(ctx)
                if self.is_terminal():
                    continue
            decider = self.game.engine.hook.casebook_decider(ctx=ctx, phase=phase.id, step=step.id)
            self._decider = decider if decider not in (None, "none") else None
            self._legal = None
            legal = self.legal_actions() if self._decider else []
            standing = self._driver().get("standing")
            held = covers(standing, phase, step, self._decider, self.data.turn, legal)
            if self._decider and not held and (any(a.kind != "pass" for a in legal)
                                                   or (bool(legal) and self._offered())):
                return
            acted = bool(self._driver().get("acted"))
            if held and standing is not None:  # the decider's standing pass answers this step (core/standing.py)
                ctx.record("auto-pass", tuple(dict.fromkeys([step.case, *standing["cases"]])),
                           {"step": step.id, "acted": acted, "standing": True}, source=DRIVER,
                           side=self._decider, lines=False)
            else:
                ctx.record("auto-pass", (step.case,), {"step": step.id, "acted": acted}, source=DRIVER,
                           side=self._decider, lines=False)
            self._end_step(ctx, passed=not acted)
        raise RuntimeError("the sequence of play did not reach a decision (driver loop limit)")
