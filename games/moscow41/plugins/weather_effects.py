"""Moscow '41 rules plugin ``weather_effects``: the effects of the weather in force (4.0-4.6),
the hook ``casebook_weather_effects`` the shared ``weather`` area's ``weather`` answer lists
(the weather itself, 0.7.1.1-0.7.1.2 and 3.0-3.5, is rolled by that area from
``rules/weather.rules`` and the pack's tables).

Each effect is computed by the rule-script quantity (or permission) of the area that owns the
number — this plugin only asks it for a neutral case (an unfatigued, supplied infantry
stack, no support, no river) and reports what the weather lines did:

=================  =====================================================================
quantity           effect reported
=================  =====================================================================
``ip_income``      the multiplier on each side's new IPs (1.3B, 4.3B-C, 4.4A, 4.5A-B)
``ma``             the MA multiplier (4.3D, 4.5C)
``tec_column``     the TEC column used (4.1B, 4.2B, 4.3E, 4.4B, 4.5E)
``zoc_column``     the ZOC Chart column used (4.1B, 4.2B, 4.3F, 4.4C, 4.5D)
``exert_zoc``      no unit has a ZOC (4.6A, 7.1C)
``move_cost``      MPs added to every terrain cost (4.6A)
``force_march_drm``  the force march DRM (4.3G, 4.4D, 4.5F, 4.6A)
``attack_drm``     each side's attack DRM, and the ski exception (4.3H, 4.4F, 4.5H, 4.6A)
``rail_capacity``  the Soviet rail capacity (4.4E, 4.5G)
=================  =====================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.core.hooks import hookimpl
from casebook.script.values import MissingFactError

__all__ = ["REQUIRES", "STATE_SCHEMA", "effects_of", "SIDES", "weather_effects", "casebook_weather_effects"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {
    "tables": ["tec"],
    "quantities": ["attack_drm", "force_march_drm", "ip_income", "ma", "move_cost", "rail_capacity"],
}

#: The two sides of Moscow '41 (the rule scripts' ``side`` enum).
SIDES = ("german", "soviet")
#: The ground conditions that state "no effect" of their own, and the cases stating it.
_NO_EFFECT = {
    "dry": ("no effect on IP collection, MAs, force march die rolls or combat", ("4.1A",)),
    "frozen": ("no effect on IP collection, force march die rolls or combat; as Dry ground but "
               "for ZOCs and ski units", ("4.2A", "3.5B")),
}


def _fired_terms(e: Any) -> list[Any]:
    """The term lines of an explanation that counted (a group's winning member)."""
    out = []
    for ln in e.lines:
        if ln.kind == "term" and ln.fired:
            out.append(ln)
        elif ln.kind == "group" and ln.fired:
            out += [m for m in ln.members if m.won]
    return out


def _cases(lines: list[Any]) -> list[str]:
    return list(dict.fromkeys(c for ln in lines for c in ln.cases))


def _fraction(value: Fraction | int) -> str:
    return str(Fraction(value))


def _ip(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    out = []
    for side in SIDES:
        e = ctx.quantity("ip_income", {"new_ips": 0, "side": side, "ground": ground})
        terms = _fired_terms(e)
        factor = Fraction(1)
        for ln in terms:
            factor *= Fraction(ln.amount)
        if factor != 1:
            rounding = [ln for ln in e.lines if ln.kind == "round"]
            out.append({"effect": f"{side} new IPs x {_fraction(factor)}, fractions rounded down",
                        "value": _fraction(factor), "cases": _cases(terms + rounding)})
    return out


def _ma(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    e = ctx.quantity("ma", {"printed_ma": 4, "reaction": False, "ground": ground, "supplied": True})
    terms = _fired_terms(e)
    factor = Fraction(1)
    for ln in terms:
        factor *= Fraction(ln.amount)
    if factor == 1:
        return []
    return [{"effect": f"MAs x {_fraction(factor)}, rounded down", "value": _fraction(factor),
             "cases": _cases(terms)}]


def _columns(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    out = []
    for name, chart in (("tec_column", "TEC"), ("zoc_column", "ZOC Chart")):
        e = ctx.quantity(name, {"ground": ground})
        fired = [ln for ln in e.lines if ln.fired]
        out.append({"effect": f"{chart} column {e.value}", "value": e.value,
                    "cases": _cases(fired[-1:] if fired else [])})
    return out


def _zoc(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    facts = {"temperature": temperature, "ground": ground, "unit_class": "infantry",
             "no_zoc_scope": ctx.state.setting("no_zoc_scope", ctx.engine.setting_defaults.get("no_zoc_scope"))}
    verdict = ctx.permission("exert_zoc", facts)
    if verdict.value:
        return []
    fired = [ln for ln in verdict.lines if ln.fired]
    return [{"effect": "no unit possesses a ZOC", "value": False, "cases": _cases(fired)}]


def _move_cost(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    tec = dict(ctx.table("tec").dims)
    facts = {"hex_terrain": tec["terrain"][0], "move_class": tec["unit"][0], "hexside_feature": "none",
             "fluid_ezoc_to_ezoc": False, "overrun": False, "ground": ground, "temperature": temperature}
    e = ctx.quantity("move_cost", facts)
    return [{"effect": f"{ln.amount:+d} MP to all terrain costs", "value": ln.amount, "cases": list(ln.cases)}
            for ln in _fired_terms(e) if not ln.text.lstrip().startswith("lookup")]


def _force_march(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    e = ctx.quantity("force_march_drm", {"ground": ground, "temperature": temperature, "supplied": True})
    if e.value == 0:
        return []
    return [{"effect": f"{e.value:+d} DRM to all force march die rolls", "value": e.value,
             "cases": _cases(_fired_terms(e))}]


def _attack_facts(ground: str, temperature: str, side: str, cls: str) -> dict[str, Any]:
    attacker = {"class": cls, "fatigued": False, "supplied": True, "overstacked": False,
                "across_river": False, "across_fortification": False}
    return {"ground": ground, "temperature": temperature, "attacker_side": side,
            "defender_side": SIDES[1] if side == SIDES[0] else SIDES[0],
            "attacker_support_ips": 0, "defender_support_ips": 0, "whole_division": False,
            "attackers": [attacker], "defenders": [{"class": "infantry", "hedgehog": False}]}


def _attack(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    out = []
    for side in SIDES:
        e = ctx.quantity("attack_drm", _attack_facts(ground, temperature, side, "infantry"))
        if e.value == 0:
            continue
        effect = {"effect": f"{e.value:+d} DRM to all {side} attacks", "value": e.value,
                  "cases": _cases(_fired_terms(e))}
        ski = ctx.quantity("attack_drm", _attack_facts(ground, temperature, side, "ski"))
        if ski.value != e.value:
            effect["effect"] += f" ({ski.value:+d} for attacks made solely by ski units)"
            effect["ski"] = ski.value
        out.append(effect)
    return out


def _rail(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    e = ctx.quantity("rail_capacity", {"ground": ground})
    terms = _fired_terms(e)
    if not terms:
        return []
    return [{"effect": f"Soviet rail capacity reduced to {e.value}", "value": e.value, "cases": _cases(terms)}]


_PARTS: tuple[tuple[str, Callable[[Any, str, str], list[dict[str, Any]]]], ...] = (
    ("ip_income", _ip), ("ma", _ma), ("tec_column", _columns), ("exert_zoc", _zoc),
    ("move_cost", _move_cost), ("force_march_drm", _force_march), ("attack_drm", _attack),
    ("rail_capacity", _rail),
)


@implements("4.1A", "4.2A", "3.5B", "4.6A")
def effects_of(ctx: Any, temperature: str, ground: str) -> list[dict[str, Any]]:
    """The effects of ``temperature`` with ``ground`` (4.0-4.6), in a fixed order: the ground's
    own "no effect" statement (4.1A, 4.2A, 3.5B), IPs, MA, chart columns, ZOC, MP costs, force
    march, attacks, rail. Each is ``{"effect": text, "value", "cases"}``; effects of Arctic
    temperature appear alone or beside those of Snow and Deep Snow, the most severe of one kind
    only (4.6A, as the scripts' ``most severe`` groups compute). A quantity that needs a fact this
    plugin does not know gives ``{"effect": "<quantity>: not computed (…)", "value": None,
    "cases": []}`` rather than failing the whole answer."""
    out: list[dict[str, Any]] = []
    if ground in _NO_EFFECT:
        text, cases = _NO_EFFECT[ground]
        out.append({"effect": f"{ground} ground: {text}", "value": None, "cases": list(cases)})
    for name, part in _PARTS:
        try:
            out += part(ctx, temperature, ground)
        except MissingFactError as exc:
            out.append({"effect": f"{name}: not computed ({exc})", "value": None, "cases": []})
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
