"""What the game driver needs of an engine (:class:`Runtime`), so that the core names no layer
above it: :class:`casebook.script.engine.Engine` — content, compiled rule scripts and plugins —
is one (docs/architecture.md, "Layers")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from casebook.core.errors import Problem
    from casebook.core.sequence import Sequence
    from casebook.core.state import GameState
    from casebook.core.trace import Trace

__all__ = ["Runtime"]


class Runtime(Protocol):
    """A loaded game as the driver (:mod:`casebook.core.game`) uses it: ``pack`` (its
    ``id``, ``scenarios``, ``scenario(id)``, ``interpretations``), the ``sequence`` of play, the
    plugins' ``hook`` relay, and the context every hook receives."""

    @property
    def pack(self) -> Any: ...

    @property
    def sequence(self) -> Sequence: ...

    @property
    def hook(self) -> Any: ...

    def ctx(self, state: GameState, trace: Trace | None = None, *, event_lines: bool = False) -> Any:
        """The context binding the engine to ``state`` (and ``trace`` for recorded play; with
        ``event_lines`` each event carries the rule-script lines that fired for it)."""

    def triggered(self, ctx: Any, event: str, facts: Mapping[str, Any]) -> dict[str, Any] | None:
        """Carry out the rule-script triggers of ``event`` with ``facts``; the game result of an
        ``end the game`` line that fired, else None."""

    def declare(self, state: GameState) -> GameState:
        """``state`` with the game's sides and tracks attached."""

    def position_data(self, position: Any) -> dict[str, Any]:
        """A loaded scenario position as the plain dict a :class:`GameState` is built from."""

    def save_problems(self, data: Mapping[str, Any]) -> list[Problem]:
        """Every problem of a saved position ``data`` under this game."""
