"""Moscow '41 rules plugin ``weather``: the Weather Phase (0.7.1.1-0.7.1.2, 3.0-3.5) and the
weather in force with its effects (4.0-4.6).

- Step ``temperature`` (0.7.1.1): one die + the Turn Track's Temp. Mod. (rule-script quantity
  ``temperature_roll``) on the Temperature column of the Weather Table (table ``weather_table``).
- Step ``ground`` (0.7.1.2): one die + the Ground Mod. + the temperature box DRM (quantity
  ``precipitation_roll``, table ``temperature_box``) on the Precipitation column, cross-indexed
  with the temperature on the Ground Condition Matrix (quantities ``precipitation_result`` and
  ``matrix_ground`` look up ``weather_table`` and ``ground_condition_matrix``), then the
  transitions of 3.1-3.5 (quantity ``ground_condition`` in ``weather.rules``) against the
  previous turn's ground, which this plugin keeps in its plugin data.
- Turn 1 under setting ``turn1_weather: fixed`` (interpretation blitz-turn1-weather, 18.2.4A) is
  not rolled: the scenario's weather stands.
- :func:`weather_effects` lists the effects of the weather in force, each computed by the rule
  scripts of the area that owns the number (``ip_income``, ``ma``, ``move_cost``,
  ``force_march_drm``, ``attack_drm``, ``tec_column``, ``zoc_column``, ``exert_zoc``,
  ``rail_capacity``); see :mod:`casebook.games.moscow41.plugins._weather_effects`.

Plugin data (``state.plugin_data("weather")``): ``{"turn", "previous_ground", "temperature_roll",
"precipitation", "table_ground"}`` for the turn whose weather was last determined.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.core.dice import roll
from casebook.core.errors import QuestionError
from casebook.core.hooks import hookimpl
from casebook.core.trace import Trace
from casebook.games.moscow41.plugins._weather_effects import effects_of
from casebook.games.moscow41.plugins._weather_effects import setting as _setting

__all__ = ["REQUIRES", "STATE_SCHEMA",
    "QUESTIONS", "PLUGIN", "weather_fixed", "turn_row", "roll_temperature", "roll_ground",
    "previous_ground", "weather_effects", "weather_answer",
    "casebook_step_start", "casebook_weather_effects", "casebook_answer",
]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {
    "tables": ["ground_condition_matrix", "tec", "turn_track", "weather_table"],
    "quantities": ["attack_drm", "force_march_drm", "ground_condition", "ground_marker", "ip_income", "ma", "move_cost",
                   "precipitation_roll", "rail_capacity", "temperature_marker", "temperature_roll"],
}

PLUGIN = "weather"
_SRC = "weather"

#: question -> usage line, for `casebook ask` (see docs/ask/weather.md)
QUESTIONS: dict[str, str] = {
    "weather": "weather — the temperature and ground condition in force and their effects (3.0-4.6)",
}


def _die(ctx: Any, purpose: str, cases: tuple[str, ...], source: str) -> int:
    """One die through :func:`casebook.core.dice.roll` (a scratch trace for a context without one)."""
    trace = ctx.trace if ctx.trace is not None else Trace()
    return roll(ctx.state, 1, purpose=purpose, cases=list(cases), trace=trace, source=source)


def _on_table(table: Any, dim: str, value: int) -> int:
    """``value`` limited to the rows of ``table``'s ``dim`` (reconstructed: a modified roll beyond
    the printed rows reads the nearest row; the pack's rows cover every reachable roll)."""
    rows = dict(table.dims)[dim]
    return max(min(rows), min(max(rows), value))


def weather_fixed(ctx: Any) -> bool:
    """True on Turn 1 when setting ``turn1_weather`` is ``fixed`` (18.2.4A, interpretation
    blitz-turn1-weather): the scenario's weather stands and nothing is rolled."""
    return ctx.state.turn == 1 and _setting(ctx, "turn1_weather") == "fixed"


def turn_row(ctx: Any, turn: int | None = None) -> Mapping[str, Any]:
    """The Turn Track row (records ``turn_track``) of ``turn`` (default: the current turn).
    Raises ``KeyError`` naming the turn if the track has no such row."""
    turn = ctx.state.turn if turn is None else turn
    for row in ctx.records("turn_track"):
        if row.get("turn") == turn:
            return row
    raise KeyError(f"the Turn Track (turn_track) has no row for turn {turn}")


def previous_ground(ctx: Any) -> str | None:
    """The ground condition of the previous turn (3.1-3.5): kept by :func:`roll_temperature`
    in the plugin data; before that step (a position saved at the ground step) the Weather
    Display still shows it. None before the first Weather Phase."""
    data = ctx.state.plugin_data(PLUGIN) or {}
    if data.get("turn") == ctx.state.turn and "previous_ground" in data:
        return data["previous_ground"]
    weather = ctx.state.weather
    return None if weather is None else weather.get("ground")


def _store(ctx: Any, **fields: Any) -> None:
    data = ctx.state.plugin_data(PLUGIN) or {}
    if data.get("turn") != ctx.state.turn:
        data = {"turn": ctx.state.turn}
    data.update(fields)
    ctx.state.set_plugin_data(PLUGIN, data)


@implements("0.7.1.1A", "0.7.1.1C", "3.0B")
def roll_temperature(ctx: Any, die: int | None = None) -> dict[str, Any]:
    """Temperature Step (0.7.1.1, 3.0B): roll one die (or use ``die``, 1-6), add the Turn
    Track's Temp. Mod., read the Temperature column of the Weather Table and place the marker
    (``state.set_weather``). Keeps the previous turn's ground for the ground step.

    Returns ``{"temperature", "die", "modified", "cases", "fixed"}``; with fixed Turn 1 weather
    (:func:`weather_fixed`) nothing is rolled and ``fixed`` is True.
    """
    weather = ctx.state.weather or {}
    if weather_fixed(ctx):
        out = {"temperature": weather.get("temperature"), "die": None, "modified": None,
               "cases": ["18.2.4A"], "fixed": True}
        ctx.record("weather-fixed", ("18.2.4A",), {"step": "temperature", **out},
                   source=f"{_SRC}.roll_temperature", side=None)
        return out
    _store(ctx, previous_ground=weather.get("ground"))
    die = _die(ctx, "temperature", ("0.7.1.1A", "3.0B"), f"{_SRC}.roll_temperature") if die is None else die
    row = turn_row(ctx)
    e = ctx.quantity("temperature_roll", {"weather_die": die, "turn_temperature_drm": row["temperature_drm"]})
    table_roll = _on_table(ctx.table("weather_table"), "roll", e.value)
    e_table = ctx.quantity("temperature_result", {"table_roll": table_roll})  # 0.7.1.1B in weather.rules
    e_marker = ctx.quantity("temperature_marker", {"new_temperature": e_table.value})  # 0.7.1.1C in weather.rules
    temperature = e_marker.value
    ctx.state.set_weather(temperature=temperature)
    _store(ctx, temperature_roll=e.value)
    cases = ["0.7.1.1A", "0.7.1.1B", "0.7.1.1C", "3.0B"]
    out = {"temperature": temperature, "die": die, "modified": e.value, "cases": cases, "fixed": False}
    ctx.record("temperature", cases, {**out, "drm": row["temperature_drm"], "lines": ctx.fired_lines(e, e_table, e_marker)},
               source=f"{_SRC}.roll_temperature", side=None)
    return out


@implements("0.7.1.2A", "0.7.1.2C", "3.0C", "3.0D")
def roll_ground(ctx: Any, die: int | None = None) -> dict[str, Any]:
    """Ground Condition Step (0.7.1.2, 3.0C-D): roll one die (or use ``die``), add the Ground
    Mod. and the temperature box DRM, read precipitation or none on the Weather Table, cross-index
    it with the temperature on the Ground Condition Matrix, then apply 3.1-3.5 against the
    previous turn's ground (quantity ``ground_condition``) and place the marker.

    Returns ``{"ground", "table_ground", "precipitation", "previous_ground", "die", "modified",
    "cases", "fixed"}``. Raises ``ValueError`` if no temperature is in force.
    """
    weather = ctx.state.weather or {}
    if weather_fixed(ctx):
        out = {"ground": weather.get("ground"), "die": None, "modified": None,
               "cases": ["18.2.4A"], "fixed": True}
        ctx.record("weather-fixed", ("18.2.4A",), {"step": "ground", **out},
                   source=f"{_SRC}.roll_ground", side=None)
        return out
    temperature = weather.get("temperature")
    if temperature is None:
        raise ValueError("the ground condition step needs this turn's temperature (0.7.1.1 first)")
    previous = previous_ground(ctx)
    die = _die(ctx, "ground condition", ("0.7.1.2A", "3.0C"), f"{_SRC}.roll_ground") if die is None else die
    row = turn_row(ctx)
    e = ctx.quantity("precipitation_roll", {"weather_die": die, "turn_ground_drm": row["ground_drm"],
                                            "temperature": temperature})
    table_roll = _on_table(ctx.table("weather_table"), "roll", e.value)
    e_precip = ctx.quantity("precipitation_result", {"table_roll": table_roll})  # 3.0C in weather.rules
    precip = e_precip.value
    e_matrix = ctx.quantity("matrix_ground", {"precipitation_box": precip, "temperature": temperature})  # 0.7.1.2B
    table_ground = e_matrix.value
    precipitation = precip == "precipitation"
    cases = ["0.7.1.2A", "0.7.1.2B", "0.7.1.2C", "3.0C", "3.0D"]
    if previous is None:  # no earlier turn on the Weather Display: the matrix decides alone
        ground, lines = table_ground, []
    else:
        g = ctx.quantity("ground_condition", {"previous_ground": previous, "temperature": temperature,
                                              "table_ground": table_ground, "precipitation": precipitation})
        ground, lines = g.value, [{"case": c, "source": ln.source, "text": ln.text}
                                  for ln in g.lines if ln.fired for c in ln.cases]
        cases += [c for c in g.cases if c not in cases]
    e_marker = ctx.quantity("ground_marker", {"new_ground": ground})  # 0.7.1.2C in weather.rules
    ground = e_marker.value
    ctx.state.set_weather(ground=ground)
    _store(ctx, previous_ground=previous, precipitation=precipitation, table_ground=table_ground)
    out = {"ground": ground, "table_ground": table_ground, "precipitation": precipitation,
           "previous_ground": previous, "die": die, "modified": e.value, "cases": cases, "fixed": False}
    ctx.record("ground", cases, {**out, "transitions": lines, "lines": ctx.fired_lines(e, e_precip, e_matrix, e_marker)},
               source=f"{_SRC}.roll_ground", side=None)
    return out


@implements("4.0", "4.3A")
def weather_effects(ctx: Any, temperature: str | None = None, ground: str | None = None) -> dict[str, Any]:
    """The weather in force (or ``temperature``/``ground`` given) and its effects (4.0: they apply
    as soon as the weather is marked): ``{"temperature", "ground", "effects": [{"effect",
    "value", "cases"}], "cases"}``. Raises ``ValueError`` when no weather is in force."""
    weather = ctx.state.weather or {}
    temperature = temperature or weather.get("temperature")
    ground = ground or weather.get("ground")
    if temperature is None or ground is None:
        raise ValueError("no weather is in force: the position has no temperature and ground condition")
    effects = effects_of(ctx, temperature, ground)
    cases = list(dict.fromkeys(["4.0", *(c for e in effects for c in e["cases"])]))
    return {"temperature": temperature, "ground": ground, "effects": effects, "cases": cases}


def weather_answer(ctx: Any) -> dict[str, Any]:
    """``casebook ask POSITION weather``: :func:`weather_effects` plus the turn, the previous
    turn's ground and whether the weather was fixed (18.2.4A)."""
    answer = weather_effects(ctx)
    data = ctx.state.plugin_data(PLUGIN) or {}
    extra = {"turn": ctx.state.turn, "fixed": weather_fixed(ctx)}
    if data.get("turn") == ctx.state.turn:
        extra.update({k: data[k] for k in ("previous_ground", "precipitation", "table_ground") if k in data})
    return {**extra, **answer}


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """The Temperature and Ground Condition checks, each in the step of the sequence the rule
    scripts name (3.0A: quantities ``temperature_step`` and ``ground_step``, the Weather Phase's
    ``temperature`` and ``ground``, 0.7.1.1, 0.7.1.2)."""
    if step == ctx.value("temperature_step", {}):
        roll_temperature(ctx)
        ctx.changed()
    elif step == ctx.value("ground_step", {}):
        roll_ground(ctx)
        ctx.changed()


@hookimpl
def casebook_weather_effects(ctx: Any) -> dict[str, Any] | None:
    """The weather in force and its effects (None before any weather is marked)."""
    weather = ctx.state.weather or {}
    if weather.get("temperature") is None or weather.get("ground") is None:
        return None
    return weather_effects(ctx)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Any) -> dict[str, Any] | None:
    """``weather`` (no arguments)."""
    if question != "weather":
        return None
    if args:
        raise QuestionError(f"usage: {QUESTIONS['weather']} (got arguments {list(args)})")
    try:
        return weather_answer(ctx)
    except ValueError as exc:
        raise QuestionError(str(exc)) from None


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.weather``: the turn whose weather was last determined (see the module docstring)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    turn: Annotated[int, Field(ge=1)]
    previous_ground: str
    temperature_roll: int  # a modified roll (may fall outside 2-12)
    precipitation: bool
    table_ground: str
