"""Shared rules area ``weather``: the weather of each turn, a temperature rolled on the game's
Weather Table and a ground condition cross-indexed on its ground-condition matrix, then carried
over from the previous turn's ground by the game's transition lines.

It holds no number and no case id: the game's rule scripts and tables give both (e.g. Moscow
'41's ``rules/weather.rules``). What the area asks of the game, all by name:

- quantities ``temperature_step`` and ``ground_step``: the sequence step of each check (a step id);
- records ``turn_track``: a row per turn (field ``turn``) with the turn's ``temperature_drm``
  and ``ground_drm``, given to the scripts as facts ``turn_temperature_drm`` and ``turn_ground_drm``;
- table ``weather_table`` with a dimension ``roll`` (a modified roll beyond its rows reads the
  nearest row);
- the temperature check: quantity ``temperature_roll`` (facts ``weather_die``,
  ``turn_temperature_drm``), ``temperature_result`` (fact ``table_roll``: the roll on the table's
  rows) and ``temperature_marker`` (fact ``new_temperature``) — the temperature placed;
- the ground check: quantity ``precipitation_roll`` (facts ``weather_die``, ``turn_ground_drm``,
  ``temperature``), ``precipitation_result`` (fact ``table_roll``: a box of the table's
  precipitation column, :data:`WET` or another), ``matrix_ground`` (facts ``precipitation_box``,
  ``temperature``), ``ground_condition`` (facts ``previous_ground``, ``temperature``,
  ``table_ground``, ``precipitation``: the transitions from the previous turn's ground; not asked
  before the first turn with a ground) and ``ground_marker`` (fact ``new_ground``);
- permission ``roll_weather``: a ``forbid`` line keeps the weather in force instead of rolling
  (e.g. a scenario's fixed first turn); a ``weather-fixed`` event cites its cases.

Each check rolls one die (a ``roll`` event citing the cases of the roll quantity's line that adds
fact ``weather_die``) and records a ``temperature`` or ``ground`` event with the lines that fired.
The ``weather`` question answers the weather in force with the effects the game's
``casebook_weather_effects`` hook lists (the area lists none of its own).

Public API: :func:`roll_temperature`, :func:`roll_ground`, :func:`previous_ground`,
:func:`weather_fixed`, :func:`turn_row`, :func:`weather_answer`.

Plugin data (``state.plugin_data("weather")``): ``{"turn", "previous_ground", "temperature_roll",
"precipitation", "table_ground"}`` for the turn whose weather was last determined.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.content.tablelines import reading_tables
from casebook.core.dice import roll
from casebook.core.errors import QuestionError
from casebook.core.hooks import hookimpl
from casebook.core.trace import Trace

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "PLUGIN", "WET", "weather_fixed", "turn_row",
           "roll_temperature", "roll_ground", "previous_ground", "weather_answer",
           "casebook_step_start", "casebook_answer"]

#: What the pack must hold for this area (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {
    "tables": ["turn_track", "weather_table"],
    "quantities": ["ground_condition", "ground_marker", "ground_step", "matrix_ground", "precipitation_result",
                   "precipitation_roll", "temperature_marker", "temperature_result", "temperature_roll",
                   "temperature_step"],
}

PLUGIN = "weather"
#: The box of the Weather Table's precipitation column that means precipitation fell (fact
#: ``precipitation`` of the ground transitions); any other box means none.
WET = "precipitation"

#: question -> usage line, for `casebook ask` (see docs/ask/weather.md)
QUESTIONS: dict[str, str] = {
    "weather": "weather — the temperature and ground condition in force and their effects",
}


def _die(ctx: Any, purpose: str, quantity: str, source: str) -> int:
    """One die through :func:`casebook.core.dice.roll` citing the cases of ``quantity``'s line
    that adds fact ``weather_die`` (a scratch trace for a context without one)."""
    code = ctx.rules.quantities[quantity]
    cases = next((list(t.code.cases) for t in code.terms if t.code.text.strip().startswith("weather_die")),
                 list(code.code.cases))
    trace = ctx.trace if ctx.trace is not None else Trace()
    return roll(ctx.state, 1, purpose=purpose, cases=cases, trace=trace, source=source)


def _on_table(table: Any, dim: str, value: int) -> int:
    """``value`` limited to the rows of ``table``'s ``dim`` (the nearest row beyond them)."""
    rows = dict(table.dims)[dim]
    return max(min(rows), min(max(rows), value))


def _fixed(ctx: Any) -> Any:
    """The verdict of permission ``roll_weather`` (None when the game has no such permission)."""
    return ctx.permission("roll_weather", {}) if "roll_weather" in ctx.rules.permissions else None


def weather_fixed(ctx: Any) -> bool:
    """True when the game's ``roll_weather`` lines forbid rolling now: the weather in force stands."""
    verdict = _fixed(ctx)
    return verdict is not None and not verdict.value


def turn_row(ctx: Any, turn: int | None = None) -> Mapping[str, Any]:
    """The Turn Track row (records ``turn_track``) of ``turn`` (default: the current turn).
    Raises ``KeyError`` naming the turn if the track has no such row."""
    turn = ctx.state.turn if turn is None else turn
    for row in ctx.records("turn_track"):
        if row.get("turn") == turn:
            return row
    raise KeyError(f"the Turn Track (turn_track) has no row for turn {turn}")


def previous_ground(ctx: Any) -> str | None:
    """The ground condition of the previous turn: kept by :func:`roll_temperature` in the plugin
    data; before that step (a position saved at the ground step) the weather in force still shows
    it. None before the first weather check."""
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


def _fixed_out(ctx: Any, step: str, key: str, source: str) -> dict[str, Any] | None:
    """The ``weather-fixed`` answer and event when ``roll_weather`` is forbidden, else None."""
    verdict = _fixed(ctx)
    if verdict is None or verdict.value:
        return None
    cases = list(verdict.cases)
    out = {key: (ctx.state.weather or {}).get(key), "die": None, "modified": None, "cases": cases, "fixed": True}
    ctx.record("weather-fixed", cases, {"step": step, **out}, source=source, side=None)
    return out


def roll_temperature(ctx: Any, die: int | None = None) -> dict[str, Any]:
    """The temperature check: roll one die (or use ``die``, 1-6), modified by quantity
    ``temperature_roll``, read on the Weather Table (``temperature_result``) and placed
    (``temperature_marker``, ``state.set_weather``). Keeps the previous turn's ground for the
    ground check. Returns ``{"temperature", "die", "modified", "cases", "fixed"}``; when
    :func:`weather_fixed`, nothing is rolled and ``fixed`` is True."""
    fixed = _fixed_out(ctx, "temperature", "temperature", f"{PLUGIN}.roll_temperature")
    if fixed is not None:
        return fixed
    _store(ctx, previous_ground=(ctx.state.weather or {}).get("ground"))
    if die is None:
        die = _die(ctx, "temperature", "temperature_roll", f"{PLUGIN}.roll_temperature")
    row = turn_row(ctx)
    e = ctx.quantity("temperature_roll", {"weather_die": die, "turn_temperature_drm": row["temperature_drm"]})
    with reading_tables() as reads:  # the Weather Table cell read: its file:line, after the rule lines
        e_table = ctx.quantity("temperature_result", {"table_roll": _on_table(ctx.table("weather_table"), "roll", e.value)})
    e_marker = ctx.quantity("temperature_marker", {"new_temperature": e_table.value})
    temperature = e_marker.value
    ctx.state.set_weather(temperature=temperature)
    _store(ctx, temperature_roll=e.value)
    cases = _cited(ctx, e, e_table, e_marker)
    out = {"temperature": temperature, "die": die, "modified": e.value, "cases": cases, "fixed": False}
    lines = ctx.fired_lines(e, e_table, e_marker) + _cells(ctx, reads)
    ctx.record("temperature", cases, {**out, "drm": row["temperature_drm"], "lines": lines},
               source=f"{PLUGIN}.roll_temperature", side=None)
    return out


def _case_key(case: str) -> tuple[tuple[int, int | str], ...]:
    """Case-index order of a case id (``0.7.1.1A`` before ``3.0B``)."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|[^\d.]+", case))


def _cells(ctx: Any, reads: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """The file:line of each chart cell in ``reads`` (:func:`reading_tables`), for an event's lines."""
    found = [ctx.pack.table_lines.cell(t, **dict(c)) for t, c, *_ in reads if not isinstance(c, Mapping)]
    return [{"source": ln["source"], "cases": list(ln["cases"])} for ln in found if ln is not None]


def _cited(ctx: Any, *explanations: Any) -> list[str]:
    """The cases of the lines that fired in ``explanations``, in case-index order."""
    return sorted({c for ln in ctx.fired_lines(*explanations) for c in ln["cases"]}, key=_case_key)


def roll_ground(ctx: Any, die: int | None = None) -> dict[str, Any]:
    """The ground check: roll one die (or use ``die``), modified by ``precipitation_roll``, read
    on the Weather Table's precipitation column (``precipitation_result``), cross-indexed with
    the temperature on the matrix (``matrix_ground``), then carried over from the previous
    turn's ground (``ground_condition``) and placed (``ground_marker``).

    Returns ``{"ground", "table_ground", "precipitation", "previous_ground", "die", "modified",
    "cases", "fixed"}``. Raises ``ValueError`` if no temperature is in force."""
    fixed = _fixed_out(ctx, "ground", "ground", f"{PLUGIN}.roll_ground")
    if fixed is not None:
        return fixed
    temperature = (ctx.state.weather or {}).get("temperature")
    if temperature is None:
        raise ValueError("the ground condition check needs this turn's temperature (the temperature check first)")
    previous = previous_ground(ctx)
    if die is None:
        die = _die(ctx, "ground condition", "precipitation_roll", f"{PLUGIN}.roll_ground")
    row = turn_row(ctx)
    e = ctx.quantity("precipitation_roll", {"weather_die": die, "turn_ground_drm": row["ground_drm"],
                                            "temperature": temperature})
    with reading_tables() as reads:  # the Weather Table and ground matrix cells read
        e_precip = ctx.quantity("precipitation_result", {"table_roll": _on_table(ctx.table("weather_table"), "roll", e.value)})
        e_matrix = ctx.quantity("matrix_ground", {"precipitation_box": e_precip.value, "temperature": temperature})
    table_ground, precipitation = e_matrix.value, e_precip.value == WET
    ground, lines, carried = table_ground, [], []  # no earlier turn with a ground: the matrix decides alone
    if previous is not None:
        g = ctx.quantity("ground_condition", {"previous_ground": previous, "temperature": temperature,
                                              "table_ground": table_ground, "precipitation": precipitation})
        ground, carried = g.value, list(g.cases)
        lines = [{"case": c, "source": ln.source, "text": ln.text} for ln in g.lines if ln.fired for c in ln.cases]
    e_marker = ctx.quantity("ground_marker", {"new_ground": ground})
    ground = e_marker.value
    cases = _cited(ctx, e, e_precip, e_matrix, e_marker)
    cases += [c for c in carried if c not in cases]
    ctx.state.set_weather(ground=ground)
    _store(ctx, previous_ground=previous, precipitation=precipitation, table_ground=table_ground)
    out = {"ground": ground, "table_ground": table_ground, "precipitation": precipitation,
           "previous_ground": previous, "die": die, "modified": e.value, "cases": cases, "fixed": False}
    fired = ctx.fired_lines(e, e_precip, e_matrix, e_marker) + _cells(ctx, reads)
    ctx.record("ground", cases, {**out, "transitions": lines, "lines": fired},
               source=f"{PLUGIN}.roll_ground", side=None)
    return out


def weather_answer(ctx: Any) -> dict[str, Any]:
    """``casebook ask POSITION weather``: the turn, whether the weather was fixed, the previous
    turn's ground, and the weather in force with its effects (hook ``casebook_weather_effects``;
    none listed when no plugin answers). Raises ``ValueError`` when no weather is in force."""
    weather = ctx.state.weather or {}
    if weather.get("temperature") is None or weather.get("ground") is None:
        raise ValueError("no weather is in force: the position has no temperature and ground condition")
    answer = ctx.hook.casebook_weather_effects(ctx=ctx) or {
        "temperature": weather["temperature"], "ground": weather["ground"], "effects": [], "cases": []}
    data = ctx.state.plugin_data(PLUGIN) or {}
    extra = {"turn": ctx.state.turn, "fixed": weather_fixed(ctx)}
    if data.get("turn") == ctx.state.turn:
        extra.update({k: data[k] for k in ("previous_ground", "precipitation", "table_ground") if k in data})
    return {**extra, **answer}


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """The temperature and ground checks, each in the step the game's quantities
    ``temperature_step`` and ``ground_step`` name."""
    if step == ctx.value("temperature_step", {}):
        roll_temperature(ctx)
        ctx.changed()
    elif step == ctx.value("ground_step", {}):
        roll_ground(ctx)
        ctx.changed()


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
    temperature_roll: int  # a modified roll (may fall outside the table's rows)
    precipitation: bool
    table_ground: str
