"""Actions: the decisions players (and chance) take, as immutable values with a text notation.

An :class:`Action` is a ``kind`` (``"move"``, ``"activate-hq"``, ``"attack"``, ``"pass"`` …), the
``side`` taking it and named ``args`` (str, int, bool, or tuples of str for lists such as a path
of hexes). Plugins create the actions they offer in ``casebook_legal_actions`` and recognise their
own kinds in ``casebook_validate_action`` / ``casebook_apply_action``.

Notation (paired :func:`format_action` / :func:`parse_action`)::

    blue: move stack=2032 path=2033,2134
    red: attack hex=2134 with=r-5,r-7 support=2
    blue: pass

``side: kind`` then ``name=value`` words in name order; a list is comma-separated; ``true`` /
``false`` are booleans and digit strings with a sign or none are ints — except values of names
listed in :data:`TEXT_ARGS` (hexes and unit ids stay strings: ``hex=0303``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Action", "format_action", "parse_action", "TEXT_ARGS"]

#: Argument names whose values are always text (hex labels like ``0303`` must not become ints).
TEXT_ARGS = frozenset({"hex", "from", "to", "stack", "path", "with", "unit", "units", "hq",
                       "stacks", "target", "area", "hexes", "into", "via"})

_WORD = re.compile(r"^[a-z][a-z0-9_-]*$")
_INT = re.compile(r"^[+-]?[0-9]+$")


@dataclass(frozen=True, order=True)
class Action:
    """One decision: ``kind`` by ``side`` with ``args`` (sorted ``(name, value)`` pairs).

    Build with :meth:`make`; read arguments with :meth:`get`. Hashable and ordered, so legal
    action lists can be sorted deterministically and membership-tested cheaply.
    """

    kind: str
    side: str
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, kind: str, side: str, **args: Any) -> Action:
        """An action; list values become tuples, ``None`` values are dropped. Raises ValueError
        on a malformed kind, side or argument name."""
        for word in (kind, side, *args):
            if not isinstance(word, str) or not _WORD.match(word):
                raise ValueError(f"not a valid action word: {word!r}")
        items = []
        for name, value in sorted(args.items()):
            if value is None:
                continue
            if isinstance(value, (list, tuple)):
                value = tuple(str(v) for v in value)
            items.append((name, value))
        return cls(kind, side, tuple(items))

    def get(self, name: str, default: Any = None) -> Any:
        """The value of argument ``name`` (``default`` if absent)."""
        for key, value in self.args:
            if key == name:
                return value
        return default

    def values_of(self, *names: str) -> list[str]:
        """The text values of the arguments ``names``, in that order, lists flattened (e.g. the
        hexes an action enters: ``action.values_of("path", "to", "hex")``)."""
        out: list[str] = []
        for name in names:
            value = self.get(name)
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, tuple):
                out.extend(value)
        return out

    @property
    def params(self) -> Mapping[str, Any]:
        """The arguments as a dict."""
        return dict(self.args)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"kind", "side", "args": {...}}`` (lists as lists)."""
        return {"kind": self.kind, "side": self.side,
                "args": {k: list(v) if isinstance(v, tuple) else v for k, v in self.args}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_dict`."""
        return cls.make(d["kind"], d["side"], **dict(d.get("args") or {}))

    def __str__(self) -> str:
        return format_action(self)


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


def format_action(action: Action) -> str:
    """The notation of ``action`` (``blue: move stack=2032 path=2033,2134``)."""
    words = [f"{action.side}: {action.kind}"]
    words += [f"{name}={_format_value(value)}" for name, value in action.args]
    return " ".join(words)


def parse_action(text: str, side: str | None = None) -> Action:
    """Parse the notation; ``side`` fills in a missing ``side:`` prefix. Raises ValueError quoting
    the text and saying what was expected."""
    original = text
    if not isinstance(text, str):
        raise ValueError(f"an action is text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ValueError(f"an action of {len(text)} characters (at most {MAX_TEXT})")
    text = text.strip()
    if ":" in text.split(" ", 1)[0]:
        head, _, text = text.partition(":")
        side = head.strip()
    if not side:
        raise ValueError(f"{original!r}: expected 'side: kind name=value …' (e.g. 'blue: pass')")
    words = text.split()
    if not words:
        raise ValueError(f"{original!r}: missing the action kind after the side")
    kind, args = words[0], dict[str, Any]()
    for word in words[1:]:
        name, eq, raw = word.partition("=")
        if not eq or not name or raw == "":
            raise ValueError(f"{original!r}: expected name=value, got {word!r}")
        if name in args:
            raise ValueError(f"{original!r}: argument {name!r} given twice")
        if name in _RESERVED or not _WORD.match(name):
            raise ValueError(f"{original!r}: {name!r} is not an argument name (the side and kind come first: "
                             f"'side: kind name=value …')")
        if name in TEXT_ARGS:
            args[name] = tuple(raw.split(",")) if ("," in raw or name in _LIST_ARGS) else raw
        elif raw in ("true", "false"):
            args[name] = raw == "true"
        elif _INT.match(raw):
            args[name] = int(raw)
        elif "," in raw:
            args[name] = tuple(raw.split(","))
        else:
            args[name] = raw
    try:
        return Action.make(kind, side, **args)
    except ValueError as exc:
        raise ValueError(f"{original!r}: {exc}") from None


#: Names that are not arguments (the action's own fields).
_RESERVED = frozenset({"kind", "side"})
#: Longest action text parsed (characters): a long path is a few hundred.
MAX_TEXT = 4096

#: Text arguments that are always lists (a one-hex path is still a list).
_LIST_ARGS = frozenset({"path", "with", "units", "stacks", "hexes"})
