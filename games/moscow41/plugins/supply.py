"""Moscow '41 rules plugin `supply` (5.0-5.7): sources, paths, OOS marking.

Supply is judged by whether a unit can trace a supply path (5.0C) at the instant it is asked
(5.6A): up to ``supply_path_mp`` MPs (games/moscow41/rules/supply.rules, 5.2B-C) to a usable source or
to a road/trail (Soviet: also rail) line leading unbroken to one (5.2D), or within the radius of
a friendly HQ that is itself in supply without another HQ (5.3). Enemy units and EZOCs without a
friendly non-remnant combat unit break a path (5.4, 7.4). OOS markers are placed only at the end
of the Recovery Step (5.5, 5.6B). The effects of being OOS (5.7B-D) are rule-script terms on the
fact ``supplied``, published here through ``casebook_facts``.

Plugin data ``supply``: ``{"entered": ["A", "B"]}`` — the entry areas German units entered
through (5.1B); ``oos_remnants_removed`` — remnants removed at the last OOS marking (5.5C).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.areas import supply_trace as trace_
from casebook.areas.supply_paths import SUPPLY_CONFIG
from casebook.content.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import hookimpl
from casebook.games.moscow41.plugins._area_config import is_panzer, supply_paths
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed
from casebook.games.moscow41.plugins._supply_recovery import mark_oos

__all__ = ["REQUIRES", "CONFIG", "STATE_SCHEMA", "QUESTIONS", "supply_answer", "in_supply", "oos_effects", "record_entry"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"quantities": ["move_cost", "supply_path_mp"]}
#: The configs it reads (src/casebook/content/packconfig.py): config/supply.yaml, what a blocked hex shows.
CONFIG = {"supply": SUPPLY_CONFIG}

#: question -> usage line, for `casebook ask` (see docs/ask/supply.md)
QUESTIONS: dict[str, str] = {"supply": "supply UNIT — is the unit in supply now, by which route (5.0-5.7)"}

_SOURCE = "supply"


def _path_cases(side: str) -> list[str]:
    return ["5.2B"] if side == "german" else ["5.2C"]


@implements("5.7A", "5.7B", "5.7C", "5.7D", "5.7E", "5.7F")
def oos_effects(side: str) -> list[dict[str, Any]]:
    """What being OOS does (5.7), for the answer of an unsupplied unit. The numbers live in the
    scripts (``ma`` 5.7B, ``force_march_drm`` 5.7C, ``attack_drm`` 5.7D, permissions
    ``receive_ip`` 5.7A, ``receive_rp`` 5.7E); defence is unaffected (5.7F)."""
    return [
        {"effect": "cannot receive IPs (an HQ can)", "cases": ["5.7A"]},
        {"effect": "MA halved", "cases": ["5.7B"]},
        {"effect": "-2 DRM on force march rolls", "cases": ["5.7C"]},
        {"effect": "-2 DRM when attacking", "cases": ["5.7D"]},
        {"effect": "cannot receive RPs", "cases": ["5.7E"]},
        {"effect": "no effect on defence", "cases": ["5.7F"]},
    ]


@implements("5.0A", "5.0B", "5.0C", "5.2A", "5.2B", "5.2C", "5.3", "5.6A", "2.2D")
def supply_answer(ctx: Any, uid: str) -> dict[str, Any]:
    """Whether unit ``uid`` can trace supply now (5.6A: judged at the instant asked).

    Return: ``{"unit", "in_supply": bool, "route": "mp"|"road"|"rail"|"hq"|None, "path": [hex
    labels from the unit to the source], "mp": MPs of the cross-country part (None by HQ),
    "hq": HQ id (route hq only), "cases", "blocked": [{"hex", "reason", "cases"}] (unsupplied
    only: what stops its path), "effects" (unsupplied only: 5.7)}``. A combat unit may use any
    friendly HQ's radius (5.3; German panzer divisions too, 2.2D). Raises KeyError if the unit
    is not on the map.
    """
    unit = ctx.state.unit(uid)
    side = unit["side"]

    def may_use_hq() -> bool:  # 5.3, 2.2D
        return memo_allowed(ctx, "supply_by_hq", {"unit_class": unit.get("class", "infantry"),
                                                  "panzer_division": is_panzer(unit)})

    def compose(found: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = {"unit": uid, "in_supply": found["in_supply"], "route": found["route"],
                                  "path": [hex_label(h) for h in found["path"]], "mp": found["mp"]}
        cases = ["5.0C", "5.2A", *_path_cases(side)]
        if found["route"] == "hq":
            answer["hq"] = found["hq"]
            cases += ["5.3", "0.2.4.8"] + (["2.2D"] if unit.get("division") else [])
        elif found["in_supply"]:
            cases += list(found["source"][2]) if found["source"] else []
            cases += ["5.2D"] if found["route"] in ("road", "rail") else []
        else:
            cases += sorted({c for _, cs in found["blocked"].values() for c in cs})
            length = found.get("length") or ()  # its length stopped it too: cite its line's case
            cases += [] if set(length) & set(cases) else list(length)
        answer["cases"] = list(dict.fromkeys([*cases, "5.6A"]))
        answer["blocked"] = [{"hex": hex_label(h), "reason": r, "cases": list(c)}
                             for h, (r, c) in sorted(found["blocked"].items())]
        if not found["in_supply"]:
            answer["effects"] = oos_effects(side)
        return answer

    return trace_.answer(supply_paths(ctx), ctx, uid, may_use_hq, compose)


def in_supply(ctx: Any, uid: str) -> bool:
    """Just the verdict of :func:`supply_answer`."""
    return bool(supply_answer(ctx, uid)["in_supply"])


@implements("5.1B")
def record_entry(ctx: Any, action: Any) -> str | None:
    """Remember that German units entered through an Entry Area (5.1B): a German
    ``place-reinforcement`` whose ``area`` (or ``hex``) is Entry Area A or B. Returns the area."""
    if action.side != "german" or action.kind != "place-reinforcement":
        return None
    area = action.get("area")
    if area not in ctx.board.entry_areas:
        area = None
        for name in ("hex", "to"):
            value = action.get(name)
            if isinstance(value, str) and len(value) == 4 and value.isdigit():
                h = parse_hex(value)
                area = ctx.board.hex(h).entry_area if ctx.board.contains(h) else None
                if area:
                    break
    if not area:
        return None
    data = dict(ctx.state.plugin_data("supply") or {})
    entered = set(data.get("entered", []))
    if area in entered:
        return area
    data["entered"] = sorted(entered | {area})
    ctx.state.set_plugin_data("supply", data)
    ctx.changed()
    ctx.record("supply-source-opened", ["5.1B"], {"area": area}, source=f"{_SOURCE}.record_entry")
    return area


# -- hooks -------------------------------------------------------------------------------------
@hookimpl
def casebook_supply(ctx: Any, unit: str) -> dict[str, Any] | None:
    if not ctx.state.has_unit(unit):
        return None
    return supply_answer(ctx, unit)


@hookimpl
def casebook_facts(ctx: Any, subject: Any) -> dict[str, Any] | None:
    """``supplied`` for a unit id (5.6A), the fact the scripts' 5.7B-D terms read."""
    if not isinstance(subject, str) or not ctx.state.has_unit(subject):
        return None
    answer = supply_answer(ctx, subject)
    return {"supplied": {"value": answer["in_supply"], "cases": answer["cases"]}}


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    record_entry(ctx, action)


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    """OOS marking of the phasing side (5.5) at the end of the step the ``mark_oos`` lines allow
    (supply.rules: the Recovery Step only, 5.6B)."""
    if ctx.state.phasing and memo_allowed(ctx, "mark_oos", {"ending_step": step}):
        mark_oos(ctx, ctx.state.phasing, in_supply)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Any) -> Any:
    if question != "supply":
        return None
    if len(args) != 1:
        raise QuestionError("usage: supply UNIT")
    if not ctx.state.has_unit(args[0]):
        raise QuestionError(f"supply: no unit {args[0]!r} on the map")
    try:
        return supply_answer(ctx, args[0])
    except KeyError as exc:
        raise QuestionError(f"supply: {exc.args[0]}") from None


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.supply``: hexes entered this turn that count for supply."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    entered: list[str]
