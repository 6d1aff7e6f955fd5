"""Parameterised actions: a listed *template* whose free arguments the player fills in.

Some decisions are the player's choice among too many combinations to list one action each:
which stacks an activated HQ takes (a subset), how many IPs of combat support to spend (an
amount), which units advance after combat (a subset). The owning plugin lists one concrete
action (the one bots choose, e.g. every stack up to the limit) in ``casebook_legal_actions`` and,
through ``casebook_action_templates``, an :class:`ActionTemplate` naming the arguments the player
may set otherwise. ``State.apply`` of a concrete action that is not listed but matches a template
asks the validators (``casebook_validate_action``); it is applied when none refuses it, and
refused with the forbidding cases otherwise (``State.why_not`` gives the same answer).

Notation of a template (``str(template)``)::

    blue: activate-hq hq=b-v stacks=<a subset of 0405,0506,0607, at most 2>

A template with no free argument is an action offered but not listed (bots never see it), such
as the kernel's standing pass ``pass until=loop`` (docs/actions.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from casebook.core.actions import Action, format_action

__all__ = ["ActionTemplate"]


@dataclass(frozen=True)
class ActionTemplate:
    """``kind`` by ``side`` with ``fixed`` arguments (sorted ``(name, value)`` pairs, as in an
    :class:`Action`) and ``free`` arguments (sorted ``(name, hint)`` pairs: what the player may
    put there, in words). ``cases`` are the cases that give the player the choice; ``example`` is
    one concrete action of the template (the listed one)."""

    kind: str
    side: str
    fixed: tuple[tuple[str, Any], ...] = ()
    free: tuple[tuple[str, str], ...] = ()
    cases: tuple[str, ...] = ()
    example: Action | None = None

    @classmethod
    def of(cls, example: Action, free: Mapping[str, str], cases: tuple[str, ...] | list[str] = ()) -> ActionTemplate:
        """The template of the listed ``example`` whose arguments named in ``free`` (name ->
        hint) may take other values; its other arguments stay fixed."""
        fixed = tuple((k, v) for k, v in example.args if k not in free)
        return cls(example.kind, example.side, fixed, tuple(sorted(free.items())), tuple(cases), example)

    def matches(self, action: Action) -> bool:
        """Whether ``action`` is an instance of the template: same kind and side, the fixed
        arguments equal, no argument other than the fixed and free ones. (Whether the free values
        are legal is the validators' answer, not the template's.)"""
        if action.kind != self.kind or action.side != self.side:
            return False
        given = dict(action.args)
        free = {name for name, _ in self.free}
        for name, value in self.fixed:
            if given.pop(name, None) != value:
                return False
        return set(given) <= free

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"kind", "side", "fixed", "free", "cases", "example"}``."""
        return {"kind": self.kind, "side": self.side,
                "fixed": {k: list(v) if isinstance(v, tuple) else v for k, v in self.fixed},
                "free": dict(self.free), "cases": list(self.cases),
                "example": None if self.example is None else format_action(self.example)}

    def __str__(self) -> str:
        words = [f"{self.side}: {self.kind}"]
        args = [(k, ",".join(v) if isinstance(v, tuple) else _text(v)) for k, v in self.fixed]
        args += [(k, f"<{hint}>") for k, hint in self.free]
        words += [f"{k}={v}" for k, v in sorted(args)]
        return " ".join(words)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
