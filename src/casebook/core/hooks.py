"""The lifecycle hook specifications (pluggy) and the plugin manager of a game.

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

:func:`make_plugin_manager` builds a manager from the manifest's ``plugins:`` list. Names resolve
*only* to an entry point named ``<name>`` in group ``casebook.plugins``; anything else (a dotted
path, an unknown name) is a :class:`ContentError` naming the plugin. With ``pm.record_calls()`` the last hook calls are recorded as
:class:`HookCall` s (which plugins answered) in ``pm.calls`` (bounded by ``CALLS_KEPT``), for
tests and debugging.
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pluggy

from casebook.core.errors import ContentError, Problem

__all__ = [
    "PROJECT", "ENTRY_POINT_GROUP", "SPECS_GROUP", "hookspec", "hookimpl", "Specs", "Refusal", "HookCall",
    "CasebookPluginManager", "make_plugin_manager", "resolve_plugin",
]

PROJECT = "casebook"
ENTRY_POINT_GROUP = "casebook.plugins"
#: Entry-point group of the hook specifications of the rules areas (classes of ``@hookspec`` methods).
SPECS_GROUP = "casebook.hookspecs"
hookspec = pluggy.HookspecMarker(PROJECT)
#: Decorate plugin functions with ``@hookimpl`` (``from casebook.core.hooks import hookimpl``).
hookimpl = pluggy.HookimplMarker(PROJECT)

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Refusal:
    """Why an action is illegal: ``reason`` (one sentence) and the ``cases`` that forbid it."""

    reason: str
    cases: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class HookCall:
    """One recorded hook call: the hook, the plugins called (in call order), the plugins whose
    implementation returned a value (``answered_by``), and the error text if the call raised."""

    hook: str
    called: tuple[str, ...]
    answered_by: tuple[str, ...] = ()
    error: str | None = None


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


class _Proxy:
    """The object registered with pluggy for one plugin: its wrapped hook implementations as
    attributes. Compared by identity (two plugins with equal attributes are still two)."""

    def __init__(self, name: str) -> None:
        self._casebook_plugin = name

    def __repr__(self) -> str:
        return f"<plugin {self._casebook_plugin}>"


#: How many recent hook calls a plugin manager keeps in ``calls``.
CALLS_KEPT = 1000


class CasebookPluginManager(pluggy.PluginManager):
    """A pluggy manager for project ``casebook`` that can record hook calls in :attr:`calls`."""

    def __init__(self) -> None:
        super().__init__(PROJECT)
        self.add_hookspecs(Specs)
        for specs in _area_specs():
            self.add_hookspecs(specs)
        #: The last :data:`CALLS_KEPT` hook calls, oldest first (see :class:`HookCall`): which
        #: plugins were called and which answered, once :meth:`record_calls` is on. Bounded: a
        #: game makes millions of hook calls.
        self.calls: deque[HookCall] = deque(maxlen=CALLS_KEPT)
        #: Plugin name -> the module (or object) the name resolved to.
        self.modules: dict[str, Any] = {}
        self._answered: list[list[str]] = []
        self._stop_recording: Callable[[], None] | None = None

    def record_calls(self, on: bool = True) -> None:
        """Start (or stop) recording hook calls in :attr:`calls`. Off by default: the monitoring
        costs every hook call of a game (about a tenth of the time); tests and debugging turn it on."""
        if on and self._stop_recording is None:
            self._stop_recording = self.add_hookcall_monitoring(self._before, self._after)
        elif not on and self._stop_recording is not None:
            self._stop_recording()
            self._stop_recording = None

    def register_plugin(self, name: str, plugin: Any) -> None:
        """Register ``plugin`` (module or object) under ``name``; its hook implementations are
        wrapped so each call knows which plugin returned a value."""
        proxy = _Proxy(name)
        for attr in dir(plugin):
            if attr.startswith("__") or not hasattr(getattr(plugin, attr, None), f"{PROJECT}_impl"):
                continue  # not marked by @hookimpl (a cheap test first: a module has hundreds of names)
            opts = self.parse_hookimpl_opts(plugin, attr)
            if opts is None:
                continue
            fn = getattr(plugin, attr)
            if opts.get("wrapper") or opts.get("hookwrapper"):
                setattr(proxy, attr, fn)
            else:
                setattr(proxy, attr, self._answering(name, fn))
        self.modules[name] = plugin
        self.register(proxy, name=name)

    def _answering(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = fn(*args, **kwargs)
            if result is not None and self._answered:
                self._answered[-1].append(name)
            return result

        return wrapper

    def _before(self, hook_name: str, hook_impls: Sequence[Any], kwargs: Any) -> None:
        self._answered.append([])

    def _after(self, outcome: Any, hook_name: str, hook_impls: Sequence[Any], kwargs: Any) -> None:
        answered = self._answered.pop()
        error = None if outcome.exception is None else repr(outcome.exception)
        called = tuple(i.plugin_name for i in reversed(hook_impls))  # pluggy calls LIFO
        self.calls.append(HookCall(hook_name, called, tuple(answered), error))


@functools.lru_cache(maxsize=1)
def _area_specs() -> tuple[Any, ...]:
    """The spec classes of group ``casebook.hookspecs``, loaded once per process, in name order."""
    eps = sorted(importlib.metadata.entry_points(group=SPECS_GROUP), key=lambda ep: ep.name)
    return tuple(ep.load() for ep in eps)


@functools.lru_cache(maxsize=1)
def _plugin_entry_points() -> tuple[Any, ...]:
    """The entry points of group ``casebook.plugins``, read once per process (scanning every
    installed distribution's metadata costs milliseconds per call, and a game resolves a dozen
    plugins)."""
    return tuple(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def resolve_plugin(name: Any) -> Any:
    """The module (or entry-point object) for plugin ``name``: only an entry point ``<name>`` of
    group ``casebook.plugins``; raises ``LookupError`` with the reason otherwise (the caller turns
    it into a ContentError)."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise LookupError(f"plugin name {name!r} is not a plain name (lower case, digits, _): "
                          f"plugins are registered names, never module paths")
    for ep in _plugin_entry_points():
        if ep.name == name:
            return ep.load()
    raise LookupError(f"unknown plugin {name!r}: no entry point {name!r} in group {ENTRY_POINT_GROUP}")


def make_plugin_manager(
    names: Iterable[Any],
    *,
    file: str = "game.yaml",
    extra: dict[str, Any] | None = None,
) -> CasebookPluginManager:
    """A plugin manager with the plugins ``names`` (the manifest's ``plugins:`` list) registered
    in list order, then ``extra`` (name -> already-built plugin object; used by tests and tools).

    Raises :class:`ContentError` listing every plugin that cannot be resolved or imported, and
    every hook implementation without a spec (``pm.check_pending()``), each naming the plugin
    (``file: plugins.<i>: …``). Nothing is half-registered: the manager is only returned whole.
    """
    pm = CasebookPluginManager()
    problems: list[Problem] = []
    resolved: list[tuple[str, Any]] = []
    for i, name in enumerate(names):
        try:
            resolved.append((name, resolve_plugin(name)))
        except LookupError as exc:
            problems.append(Problem(file, 0, 0, f"plugins.{i}", str(exc)))
        except Exception as exc:  # an import error inside the plugin module
            problems.append(Problem(file, 0, 0, f"plugins.{i}",
                                    f"plugin {name!r} failed to import: {exc!r}"))
    resolved += list((extra or {}).items())
    for name, plugin in resolved:
        try:
            pm.register_plugin(name, plugin)
        except (ValueError, pluggy.PluginValidationError) as exc:
            problems.append(Problem(file, 0, 0, "plugins", f"plugin {name!r}: {exc}"))
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        plugin_name = pm.get_name(exc.plugin) if exc.plugin is not None else "?"
        problems.append(Problem(file, 0, 0, "plugins", f"plugin {plugin_name!r}: {exc}"))
    if problems:
        raise ContentError(problems)
    return pm
