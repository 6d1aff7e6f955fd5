"""Moscow '41 rules plugin ``weather_effects``: the effects of the weather in force (4.0-4.6),
the hook ``casebook_weather_effects`` the shared ``weather`` area's ``weather`` answer lists
(the weather itself, 0.7.1.1-0.7.1.2 and 3.0-3.5, is rolled by that area from
``rules/weather.rules`` and the pack's tables).

The report is the shared area :mod:`casebook.areas.weather_effects`, reading the pack's records
``tables/weather_effects.yaml``: which quantity or permission of the rule scripts is asked for
each effect (IP income, MA, chart columns, ZOCs, MP costs, force march, attacks, rail capacity),
for which neutral case, and how the effect reads; every number and case is the line that
fired. What stays here is 4.0 (the effects apply as soon as the weather is marked: the report
is computed on the weather in force, nothing to compute).
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.areas import weather_effects as area
from casebook.content.cases import implements
from casebook.core.hooks import hookimpl

__all__ = ["REQUIRES", "TABLES", "TABLE_CHECKS", "STATE_SCHEMA", "weather_effects", "casebook_weather_effects"]

#: The records table of the report (tables/weather_effects.yaml; read by ``casebook cases`` too).
TABLES = ("weather_effects",)
#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": list(TABLES)}
#: What ``casebook lint`` checks of each row (src/casebook/content/requires.py): its quantity and labels.
TABLE_CHECKS = {TABLES[0]: area.row_problems}


@implements("4.0", "4.3A")
def weather_effects(ctx: Any, temperature: str | None = None, ground: str | None = None) -> dict[str, Any]:
    """The weather in force (or ``temperature``/``ground`` given) and its effects (4.0: they apply
    as soon as the weather is marked): ``{"temperature", "ground", "effects": [{"effect",
    "value", "cases"}], "cases"}``. Raises ``ValueError`` when no weather is in force."""
    return area.report(ctx, TABLES[0], temperature, ground, cases=("4.0",))


@hookimpl
def casebook_weather_effects(ctx: Any) -> dict[str, Any] | None:
    """The weather in force and its effects (None before any weather is marked)."""
    weather = ctx.state.weather or {}
    if weather.get("temperature") is None or weather.get("ground") is None:
        return None
    return weather_effects(ctx)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.weather_effects``: the plugin keeps no state (the weather is the area's)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
