"""The plugin manager of a game: the manifest's ``plugins:`` list resolved to registered plugins.

:func:`make_plugin_manager` builds a manager from that list. Names resolve *only* to an entry
point named ``<name>`` in group ``casebook.plugins`` (:func:`resolve_plugin`); anything else (a
dotted path, an unknown name) is a :class:`ContentError` naming the plugin, so a downloaded pack
stays data. Every manager has the core's lifecycle specs (:class:`casebook.core.hooks.Specs`) and
the rules areas' (entry points of group ``casebook.hookspecs``). With ``pm.record_calls()`` the last
hook calls are recorded as :class:`HookCall` s (which plugins answered) in ``pm.calls`` (bounded by
``CALLS_KEPT``), for tests and debugging.
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pluggy

from casebook.core.errors import ContentError, Problem
from casebook.core.hooks import ENTRY_POINT_GROUP, PROJECT, SPECS_GROUP, Specs

__all__ = ["HookCall", "CasebookPluginManager", "CALLS_KEPT", "make_plugin_manager", "resolve_plugin"]

#: A plugin name: a plain lower-case name, never a module path.
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class HookCall:
    """One recorded hook call: the hook, the plugins called (in call order), the plugins whose
    implementation returned a value (``answered_by``), and the error text if the call raised."""

    hook: str
    called: tuple[str, ...]
    answered_by: tuple[str, ...] = ()
    error: str | None = None



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
