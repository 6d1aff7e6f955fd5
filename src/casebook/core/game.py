"""The game API (OpenSpiel-like): an immutable :class:`Game`; a play in progress is a
:class:`~casebook.core.play.State` (the driver of the sequence of play, :mod:`casebook.core.play`).

``Game.load("mini", "skirmish")`` loads the engine and a scenario; ``game.new_initial_state(
seed)`` starts a play, ``game.state_from_dict(save)`` resumes one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from casebook.core.play import State
from casebook.core.state import GameState
from casebook.core.trace import Trace

if TYPE_CHECKING:
    from casebook.core.runtime import Runtime

__all__ = ["Game"]


class Game:
    """An immutable game: an engine (a :class:`~casebook.core.runtime.Runtime`, in practice a
    :class:`casebook.script.engine.Engine`) and a scenario id (``first_turn``, ``last_turn``)."""

    def __init__(self, engine: Runtime, scenario: str) -> None:
        if scenario not in engine.pack.scenarios:
            known = ", ".join(sorted(engine.pack.scenarios))
            raise KeyError(f"{engine.pack.id} has no scenario {scenario!r} (scenarios: {known})")
        self.engine = engine
        self.scenario = scenario
        self._position = engine.pack.scenario(scenario)

    @classmethod
    def load(cls, game: str, scenario: str | None = None) -> Game:
        """Load ``game`` (id or pack dir) and its ``scenario`` (default: the first its manifest
        lists); raises ContentError / ScriptSyntaxError on bad content, KeyError on an unknown
        scenario. The one place the core reaches the layers above it, at call time
        (docs/architecture.md, "Layers"): the engine is built by the rule-script runtime."""
        from casebook.script.engine import load_engine

        engine = load_engine(game)
        return cls(engine, scenario if scenario is not None else next(iter(engine.pack.scenarios), ""))

    def with_settings(self, settings: Mapping[str, Any]) -> Game:
        """The same game and scenario, its starting position carrying ``settings`` (interpretation
        and option names, as in a position's ``settings:``) over the scenario's own, so they hold
        from the setup on (a batch study of an interpretation). Values are not checked here."""
        other = Game(self.engine, self.scenario)
        merged = {**self._position.settings, **dict(settings)}
        other._position = self._position.model_copy(update={"settings": merged})
        return other

    def starting_settings(self) -> dict[str, Any]:
        """The settings a game of this scenario starts with: the register's defaults, then the
        scenario position's own (and any :meth:`with_settings` put there)."""
        return {**self.setting_defaults(), **dict(self._position.settings)}

    def setting_defaults(self) -> dict[str, Any]:
        """The default of every setting of the pack's interpretations register (its ``value``):
        a position that does not name a setting plays with the register's reading, so a modder
        changes a default by editing the register."""
        out: dict[str, Any] = {}
        for item in self.engine.pack.interpretations.values():
            setting = item.get("setting")
            if isinstance(setting, Mapping) and "name" in setting and "value" in setting:
                out[setting["name"]] = setting["value"]
        return out

    @property
    def last_turn(self) -> int | None:
        """The scenario's last turn (None if open-ended)."""
        info = self._position.scenario
        return None if info is None else getattr(info, "last_turn", None)

    def new_initial_state(self, seed: int = 1, rolls: Sequence[int] = (), humans: Iterable[str] = ()) -> State:
        """The scenario's setup, dice seeded with ``seed``, settled to the first decision.
        ``rolls``: faces (1-6) the first dice show (src/casebook/core/dice.py; recorded in the setup
        event). ``humans``: the sides a person plays (:attr:`State.humans`). Raises ValueError for
        a face outside 1-6."""
        bad = [r for r in rolls if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 6]
        if bad:
            raise ValueError(f"fixed rolls must be die faces 1-6, got {bad}")
        data = self.engine.position_data(self._position)
        data["rng"] = {"seed": int(seed), "state": None, **({"fixed": list(rolls)} if rolls else {})}
        data["settings"] = {**self.setting_defaults(), **(data.get("settings") or {})}
        state = State(self, self.engine.declare(GameState.from_dict(data)), Trace())
        state.humans = frozenset(humans)
        state._setup()
        state._settle()
        return state

    def state_from_dict(self, data: Mapping[str, Any], trace: Trace | None = None,
                        humans: Iterable[str] = ()) -> State:
        """A play resumed from a saved position (``State.to_dict()``); draws no random number.
        Settings the position does not name take the register's defaults; ``humans`` as for
        :meth:`new_initial_state`. Raises PositionError
        listing every problem of :func:`casebook.content.savecheck.save_problems`."""
        from casebook.core.errors import PositionError

        problems = self.engine.save_problems(data)
        if problems:  # refused whole: the RNG, the tracks, each plugin's record, the units
            raise PositionError(problems)
        settings = data.get("settings")
        data = {**data, "settings": {**self.setting_defaults(), **(settings if isinstance(settings, Mapping) else {})}}
        state = State(self, self.engine.declare(GameState.from_dict(data)), trace if trace is not None else Trace())
        state.humans = frozenset(humans)
        state._settle()
        return state
