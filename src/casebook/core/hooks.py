"""The lifecycle hook specifications (pluggy) of a game, and the markers plugins use.

The core is a thin driver that calls these hooks in order; every game rule lives in a plugin (an
entry point of group ``casebook.plugins``) or in a rule script. Project name ``"casebook"``; every
hook is named ``casebook_<what>``. Implementations may take fewer arguments than the spec (pluggy
passes only the ones they name), so specs can grow.

Lifecycle, in the order the driver fires the hooks:

1. **Setup** — :meth:`Specs.casebook_setup` once per game after the position is loaded.
2. **Step** — :meth:`Specs.casebook_step_start` when the sequence machine enters a step;
   :meth:`Specs.casebook_decider` and :meth:`Specs.casebook_legal_actions` while in it;
   :meth:`Specs.casebook_step_end` when it leaves the step.
3. **Action** — :meth:`Specs.casebook_validate_action` then :meth:`Specs.casebook_apply_action`
   for each action a player (or chance) takes, inside ``state.transaction``.
4. **Turn** — :meth:`Specs.casebook_turn_end` after the last step of the end phase (0.7.5).
5. **Queries** (any time, never change the state) — :meth:`Specs.casebook_facts`,
   :meth:`Specs.casebook_answer` (for ``casebook ask``).

The hooks by which one rules area asks another (``casebook_zoc``, ``casebook_supply``, …) are
specified by the areas that own them (:mod:`casebook.areas.hookspecs`), each spec class an entry
point of group ``casebook.hookspecs``; every manager adds them all (:data:`SPECS_GROUP`).

:func:`casebook.content.plugins.make_plugin_manager` builds a manager from the manifest's
``plugins:`` list (names resolve *only* to registered entry points).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pluggy

__all__ = [
    "PROJECT", "ENTRY_POINT_GROUP", "SPECS_GROUP", "hookspec", "hookimpl", "Specs", "Refusal",
]

PROJECT = "casebook"
ENTRY_POINT_GROUP = "casebook.plugins"
#: Entry-point group of the hook specifications of the rules areas (classes of ``@hookspec`` methods).
SPECS_GROUP = "casebook.hookspecs"
hookspec = pluggy.HookspecMarker(PROJECT)
#: Decorate plugin functions with ``@hookimpl`` (``from casebook.core.hooks import hookimpl``).
hookimpl = pluggy.HookimplMarker(PROJECT)


@dataclass(frozen=True)
class Refusal:
    """Why an action is illegal: ``reason`` (one sentence) and the ``cases`` that forbid it."""

    reason: str
    cases: tuple[str, ...] = ()
    source: str = ""


class Specs:
    """The hook specifications. Each docstring is the contract: summary, parameters, ``Return:``
    (firstresult or list) and ``Fires:`` (where in the sequence of play it is called).

    Every hook takes ``ctx`` first: a :class:`casebook.script.engine.Ctx` carrying ``ctx.state``
    (the :class:`~casebook.core.state.GameState`; change it only through its methods),
    ``ctx.board`` (the map), ``ctx.rules`` (the compiled rule scripts), ``ctx.pack`` (the content),
    ``ctx.trace`` (the :class:`~casebook.core.trace.Trace`, or None for a pure query) and
    ``ctx.hook`` (to ask other plugins: plugins never import each other). ``phase``/``step`` are
    ids from the game's sequence of play.

    Query hooks (group 5) return plain JSON-ready dicts shaped like the ``casebook ask --json``
    answers (docs/ask.md), each with a ``"cases"`` list naming the cases that decided it.
    """

    # -- 1. setup -----------------------------------------------------------------------------
    @hookspec
    def casebook_setup(self, ctx: Any) -> None:
        """Prepare a plugin for one game; may add derived state through ``ctx.state`` methods.

        Return: ignored (list hook: every plugin is called).
        Fires: once, after the position is loaded and before the first step starts.
        """

    # -- 2. steps -----------------------------------------------------------------------------
    @hookspec
    def casebook_step_start(self, ctx: Any, phase: str, step: str) -> None:
        """Do the automatic work of ``phase``/``step`` on entering it (record it in ``ctx.trace``).

        Return: ignored (list hook).
        Fires: right after the sequence machine enters the step, before any legal-action query.
        """

    @hookspec(firstresult=True)
    def casebook_decider(self, ctx: Any, phase: str, step: str) -> str | None:
        """Who decides now: a side (``"blue"``), ``"chance"`` or ``"none"`` (nothing to decide).

        Return: the first non-None result (firstresult); None means "not my step".
        Fires: at each decision point within a step.
        """

    @hookspec
    def casebook_legal_actions(self, ctx: Any, phase: str, step: str) -> list[Any]:
        """The actions this plugin offers in ``step`` now, each already legal, in a deterministic
        order; never changes the state.

        Return: a list per plugin; the driver concatenates them in plugin order (list hook).
        Fires: while the step waits for the decider's choice.
        """

    @hookspec
    def casebook_action_templates(self, ctx: Any, phase: str, step: str) -> list[Any]:
        """The parameterised actions this plugin offers now (``casebook.core.templates.
        ActionTemplate``: a listed action whose free arguments the player may set otherwise, e.g.
        a subset of stacks or an IP amount); this plugin's ``casebook_validate_action`` must
        refuse, naming the cases, every filling that is not legal. Never changes the state.

        Return: a list per plugin (list hook); bots see only ``casebook_legal_actions``.
        Fires: when a player's action is not listed, for ``why``, and for the human prompt.
        """

    @hookspec
    def casebook_step_end(self, ctx: Any, phase: str, step: str) -> None:
        """Do the closing work of ``phase``/``step`` (e.g. remove Activation markers, 0.7.3.8B).

        Return: ignored (list hook).
        Fires: when the decider passed or nothing is left to do, before the machine advances.
        """

    # -- 3. actions ---------------------------------------------------------------------------
    @hookspec
    def casebook_validate_action(self, ctx: Any, action: Any) -> list[Refusal]:
        """Check ``action`` against the rules this plugin owns; never changes the state.

        Return: a list of :class:`Refusal` per plugin, empty when it has no objection (list hook);
        the driver gathers all and raises ``IllegalActionError`` with their cases if any.
        Fires: for every chosen action, before ``casebook_apply_action``.
        """

    @hookspec(firstresult=True)
    def casebook_apply_action(self, ctx: Any, action: Any) -> Any:
        """Apply a validated ``action`` this plugin owns: change ``ctx.state`` through its
        methods, roll with :func:`casebook.core.dice.roll`, record events in ``ctx.trace``.

        Return: a non-None result (a summary) when this plugin applied it, None when the action
        is not its own (firstresult: the first owner wins).
        Fires: after validation, inside ``state.transaction(trace)`` (raising undoes everything).
        """

    @hookspec
    def casebook_after_action(self, ctx: Any, action: Any, result: Any) -> None:
        """React to an action just applied by any plugin (``result`` is what its owner returned):
        update town control (1.1B), check instant victory (18.1.3B/D), drop cached maps.

        Return: ignored (list hook: every plugin is called).
        Fires: right after ``casebook_apply_action``, inside the same transaction.
        """

    @hookspec(firstresult=True)
    def casebook_game_result(self, ctx: Any) -> dict[str, Any] | None:
        """The result if the game is over: ``{"winner": side or None, "level": str, "reason",
        "cases"}``; None while it goes on.

        Return: firstresult (the victory plugin answers).
        Fires: after every action and at the end of every turn.
        """

    # -- 4. turn ------------------------------------------------------------------------------
    @hookspec
    def casebook_turn_end(self, ctx: Any, turn: int) -> None:
        """End-of-turn work for ``turn`` (victory checks, withdrawals).

        Return: ignored (list hook).
        Fires: in the End Phase (0.7.5), before the turn marker advances.
        """

    # -- 5. queries (never change the state) -----------------------------------------------------
    @hookspec
    def casebook_facts(self, ctx: Any, subject: Any) -> dict[str, Any] | None:
        """Derived facts about ``subject`` (a unit id, a hex label, a side), each with its cases:
        ``{"in_supply": {"value": True, "cases": ["5.2A"]}}``.

        Return: a mapping or None per plugin; the driver merges them (list hook; a key given by
        two plugins is an error).
        Fires: any time (queries, rule scripts asking for a fact).
        """

    @hookspec(firstresult=True)
    def casebook_answer(self, ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
        """Answer a rules-lawyer question for ``casebook ask`` (``question`` is the first word:
        ``supply``, ``reach``, ``move``, ``zoc``, ``attack`` …; ``args`` the rest; ``options`` the
        flags such as ``{"as": "reaction", "with": ["g1"], "roll": 7}``).

        Return: the first non-None answer (firstresult): a JSON-ready dict with a ``"cases"``
        list, shaped as documented in docs/ask.md; None when the question is not this plugin's.
        Fires: any time, on a user's question.
        """
