"""The manifest's ``area_cases:`` and ``area_procedures:`` blocks checked against the shared areas.

``area_cases: AREA: STEP: [ids]`` gives the cases a shared area cites for the steps of its
procedure no rule line states (:mod:`casebook.areas._game_cases`); ``area_procedures: AREA:
FUNCTION: [ids]`` says which of the game's cases an area's Python implements (counted by
``casebook cases``). Both are read by name, so a misspelt name would change nothing, silently:
:func:`area_block_problems` lists, located in ``game.yaml`` with a did-you-mean,

- an area the manifest's ``plugins:`` does not list (``combatt:``);
- a step key the area does not ask for (its module's ``AREA_CASES``: ``no_targt:``);
- a function that is not one of the area's modules (the area's module and its private
  ``_<area>_*.py`` siblings: ``suport_options:``);
- a case id not in the pack's case index (``10.3Q``).

``casebook lint`` reports them and :meth:`casebook.script.engine.Engine.load` refuses the pack
(through :func:`casebook.content.requires.pack_requirement_problems`).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

from casebook.core.errors import Problem

__all__ = ["area_step_keys", "area_functions", "area_block_problems"]

Locate = Callable[[tuple], tuple[str, int, int]]


def _module(area: str) -> Any:
    from casebook.content.plugins import resolve_plugin

    try:
        return resolve_plugin(area)
    except LookupError:
        return None


def area_step_keys(area: str) -> tuple[str, ...]:
    """The steps shared area ``area`` asks ``area_cases:`` for (its module's ``AREA_CASES``)."""
    return tuple(getattr(_module(area), "AREA_CASES", None) or ())


def area_functions(area: str) -> frozenset[str]:
    """The names of the functions defined by shared area ``area``'s module and its private
    ``_<area>_*`` sibling modules (what ``area_procedures:`` may name)."""
    module = _module(area)
    if module is None:
        return frozenset()
    modules = [module]
    package, _, base = module.__name__.rpartition(".")
    path = getattr(importlib.import_module(package), "__path__", None) if package else None
    for info in pkgutil.iter_modules(path or []):
        if info.name.startswith(f"_{base}_"):
            modules.append(importlib.import_module(f"{package}.{info.name}"))
    return frozenset(name for m in modules for name, f in vars(m).items()
                     if inspect.isfunction(f) and f.__module__ == m.__name__)


def area_block_problems(pack: Any, locate: Locate) -> list[Problem]:
    """Every problem of the manifest's ``area_cases:`` and ``area_procedures:`` of ``pack`` (a
    loaded :class:`~casebook.content.pack.Pack`); ``locate`` gives a key path's place."""
    from casebook.content.schema import did_you_mean

    plugins = [str(p) for p in pack.manifest.get("plugins") or ()]
    cases = frozenset(pack.cases)
    out: list[Problem] = []

    def problem(path: tuple, message: str) -> None:
        file, line, col = locate(path)
        out.append(Problem(file, line, col, ".".join(map(str, path)), message))

    for block, what in (("area_cases", "step"), ("area_procedures", "function")):
        for area, entries in (pack.manifest.get(block) or {}).items():
            listed = area in plugins
            if not listed:
                problem((block, area), f"area {area!r} is not one the manifest's plugins: load"
                                       f"{did_you_mean(area, plugins)}")
            known = sorted(area_step_keys(area) if what == "step" else area_functions(area))
            for key, ids in (entries or {}).items():
                if listed and key not in known:
                    asks = "asks for no such step" if what == "step" else "has no such function"
                    hint = did_you_mean(key, known) or ("" if known else f" (it {what}s none)")
                    problem((block, area, key), f"area {area!r} {asks} {key!r}{hint}")
                for i, case in enumerate(ids or ()):
                    if str(case) not in cases:
                        problem((block, area, key, i), f"case {case!r} is not in the pack's case index"
                                                       f"{did_you_mean(str(case), cases)}")
    return out
