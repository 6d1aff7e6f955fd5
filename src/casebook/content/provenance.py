"""Provenance of content values and the errata overlay (docs/content-format.md).

Every scalar value of a content file has an *effective provenance*: the nearest ``provenance:``
key above it (a mapping's own key applies to it and everything below), or the provenance an
errata patch gave it. :func:`count_provenance` counts a file's scalar values by source
(``rulebook`` / ``errata`` / ``reconstructed`` / ``untagged``); untagged values are errors.
:func:`apply_patch` applies one errata patch (``set`` / ``add`` / ``remove``) to raw data and
returns the key path whose values now carry ``errata: <case>``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "SOURCES",
    "Counts",
    "count_provenance",
    "effective_provenance",
    "resolve_path",
    "apply_patch",
    "PatchError",
]

SOURCES = ("rulebook", "errata", "reconstructed")
_STRUCTURAL = ("kind", "format")


@dataclass
class Counts:
    """Scalar values of one file by source; ``first_untagged`` is the key path of the first
    value without provenance (or None)."""

    rulebook: int = 0
    errata: int = 0
    reconstructed: int = 0
    untagged: int = 0
    first_untagged: tuple | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, int]:
        """``{"rulebook": n, "errata": n, "reconstructed": n, "untagged": n}``."""
        return {"rulebook": self.rulebook, "errata": self.errata,
                "reconstructed": self.reconstructed, "untagged": self.untagged}

    def add(self, source: str | None, path: tuple) -> None:
        if source in SOURCES:
            setattr(self, source, getattr(self, source) + 1)
        else:
            self.untagged += 1
            if self.first_untagged is None:
                self.first_untagged = path


def _source(text: Any) -> str | None:
    if not isinstance(text, str) or ":" not in text:
        return None
    head = text.split(":", 1)[0].strip()
    return head if head in SOURCES else None


def count_provenance(data: Any, overrides: Mapping[tuple, str] | None = None) -> Counts:
    """Count the scalar values of one document by effective source.

    ``provenance`` keys themselves and the top-level ``kind`` / ``format`` are not values;
    ``overrides`` maps key paths to the provenance an errata patch gave them.
    """
    overrides = overrides or {}
    counts = Counts()

    def walk(node: Any, path: tuple, current: str | None) -> None:
        if path in overrides:
            current = overrides[path]
        if isinstance(node, dict):
            own = node.get("provenance")
            if isinstance(own, str):
                current = own
            for k, v in node.items():
                if k == "provenance" or (not path and k in _STRUCTURAL):
                    continue
                walk(v, path + (k,), current)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + (i,), current)
        else:
            counts.add(_source(current), path)

    walk(data, (), None)
    return counts


def effective_provenance(data: Any, path: tuple, overrides: Mapping[tuple, str] | None = None) -> str | None:
    """The provenance string in force at ``path`` of ``data`` (None if untagged)."""
    overrides = overrides or {}
    current: str | None = None
    node = data
    for depth in range(len(path) + 1):
        here = path[:depth]
        if here in overrides:
            current = overrides[here]
        if isinstance(node, dict) and isinstance(node.get("provenance"), str):
            current = node["provenance"]
        if depth == len(path):
            break
        try:
            node = node[path[depth]]
        except (KeyError, IndexError, TypeError):
            break
    return current


class PatchError(ValueError):
    """A patch path that does not resolve; ``index`` is the path element that failed."""

    def __init__(self, index: int, message: str) -> None:
        self.index = index
        super().__init__(message)


def _selector_problem(selector: dict[Any, Any], items: list[Any], hits: int) -> str:
    """One line for a ``{field: value}`` selector that picks no item or several: the selector as
    written in YAML, and for none the closest values of its fields (``did you mean s-312rd?``)."""
    words = "{" + ", ".join(f"{k}: {v}" for k, v in selector.items()) + "}"
    if hits:
        return f"selector {words} matches {hits} items: it must pick exactly one (add a field)"
    close = []
    for key, value in selector.items():
        if not any(isinstance(item, dict) and item.get(key) == value for item in items):
            known = sorted({str(item[key]) for item in items if isinstance(item, dict) and key in item})
            found = difflib.get_close_matches(str(value), known, n=3)
            close += [f"{key}: {', '.join(found)}"] if found else []
    return f"selector {words} matches no item" + (f"; did you mean {'; '.join(close)}?" if close else "")


def resolve_path(data: Any, path: list[Any]) -> tuple[Any, tuple]:
    """Follow a patch path (keys, list indices, ``{field: value}`` selectors) through ``data``.

    Returns ``(node, concrete key path)``. Raises :class:`PatchError` when an element does not
    resolve (missing key, index out of range, a selector matching no item or several).
    """
    node = data
    concrete: tuple = ()
    for i, el in enumerate(path):
        if isinstance(el, dict):
            if not isinstance(node, list):
                raise PatchError(i, f"selector {el} needs a list here")
            hits = [j for j, item in enumerate(node)
                    if isinstance(item, dict) and all(item.get(k) == v for k, v in el.items())]
            if len(hits) != 1:
                raise PatchError(i, _selector_problem(el, node, len(hits)))
            node, concrete = node[hits[0]], concrete + (hits[0],)
        elif isinstance(node, dict):
            if el not in node:
                close = difflib.get_close_matches(str(el), [str(k) for k in node], n=3)
                raise PatchError(i, f"no key {el} here" + (f"; did you mean {', '.join(close)}?" if close else ""))
            node, concrete = node[el], concrete + (el,)
        elif isinstance(node, list) and isinstance(el, int) and not isinstance(el, bool):
            if not -len(node) <= el < len(node):
                raise PatchError(i, f"index {el} is out of range (list of {len(node)})")
            idx = el % len(node)
            node, concrete = node[idx], concrete + (idx,)
        else:
            raise PatchError(i, f"cannot follow {el!r} into {type(node).__name__}")
    return node, concrete


def apply_patch(data: Any, path: list[Any], op: str, value: Any = None) -> tuple:
    """Apply one errata patch in place; return the key path of the patched value(s).

    ``op`` is ``set`` (replace or create the last key / item), ``add`` (append ``value`` to the
    list at ``path``) or ``remove`` (delete the key or item at ``path``). Raises
    :class:`PatchError` if the path does not resolve.
    """
    if op == "add":
        target, concrete = resolve_path(data, path)
        if not isinstance(target, list):
            raise PatchError(len(path) - 1, "add needs a list at the end of the path")
        target.append(value)
        return concrete + (len(target) - 1,)
    parent, concrete = resolve_path(data, path[:-1])
    last = path[-1]
    if isinstance(last, dict):
        _, full = resolve_path(parent, [last])
        key: Any = full[0]
    elif isinstance(parent, dict):
        if last not in parent and op == "remove":
            raise PatchError(len(path) - 1, f"no key {last!r} to remove")
        key = last
    elif isinstance(parent, list) and isinstance(last, int) and -len(parent) <= last < len(parent):
        key = last % len(parent)
    else:
        raise PatchError(len(path) - 1, f"cannot follow {last!r} into {type(parent).__name__}")
    if op == "remove":
        del parent[key]
        return concrete
    parent[key] = value
    return concrete + (key,)
