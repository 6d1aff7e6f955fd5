"""Queries the ``reinforcement`` area (and a game's reinforcement plugin) asks of other areas
(supply, command, ZOC), degrading when an area does not answer, and small state helpers.
Private to :mod:`casebook.areas.reinforcement`; a game's plugin reaches them through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.content.schema_position import counter_fields
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

from .supply import supplied_lines

__all__ = ["PLUGIN", "data", "set_data", "supplied", "supplied_lines", "in_command", "in_ezoc", "hex_supplied",
           "probe_supply", "probe_lines", "refusals", "counter_unit", "unit_side", "enemy_occupied", "friendly_railheads",
           "hexes", "distance"]

#: The plugin-data key of the reinforcement step's record (the game's plugin of that name).
PLUGIN = "reinforcement"


def data(ctx: Any) -> dict[str, Any]:
    """This plugin's private record (a fresh dict when it keeps none)."""
    return ctx.state.plugin_data(PLUGIN) or {}


def set_data(ctx: Any, value: Mapping[str, Any]) -> None:
    ctx.state.set_plugin_data(PLUGIN, dict(value))
    ctx.changed()


def supplied(ctx: Any, uid: str) -> bool:
    """Whether unit ``uid`` can trace supply (asks ``casebook_supply``; True when unanswered)."""
    answer = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
    return True if answer is None else bool(answer.get("in_supply"))


def in_command(ctx: Any, uid: str) -> bool:
    """Whether unit ``uid`` is in command (asks ``casebook_command``; True when unanswered)."""
    answer = ctx.hook.casebook_command(ctx=ctx, unit=uid)
    return True if answer is None else bool(answer.get("in_command"))


def in_ezoc(ctx: Any, hex_: str, side: str) -> bool:
    """Whether ``hex_`` is in an enemy ZOC for ``side`` (asks ``casebook_zoc``; False when
    unanswered)."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    if answer is None:
        return False
    return answer.get("kind", "none") != "none" and bool(answer.get("exerted_by", [1]))


def hex_supplied(ctx: Any, hex_: str, probe: Mapping[str, Any]) -> bool:
    """Whether unit ``probe`` (plain unit data, not on the map) could trace supply from ``hex_``
    (see :func:`probe_supply`). True when the supply area does not answer."""
    return probe_supply(ctx, [hex_], probe)[hex_]


def probe_supply(ctx: Any, hexes: list[str], probe: Mapping[str, Any]) -> dict[str, bool]:
    """Whether a unit like ``probe`` could trace supply from each of ``hexes``: the supply hook
    is asked about units, so copies of ``probe`` are put on one copy of the state and asked about
    together (the supply area computes its maps once); a hex in an EZOC gets a copy of its own,
    as a probe there could open the EZOC on another probe's path. Memoised per hex
    and kind of unit in ``ctx.memo``."""
    kind = (probe.get("side"), probe.get("class"), bool(probe.get("mechanized")))
    memo = ctx.memo.setdefault(("reinforcement.probe", kind), {})
    lines = ctx.memo.setdefault(("reinforcement.probe-lines", kind), {})  # filled only collecting
    todo = [h for h in hexes if h not in memo]
    if todo:
        side = str(probe.get("side"))
        batch = [h for h in todo if not in_ezoc(ctx, h, side)]
        groups = ([batch] if batch else []) + [[h] for h in todo if h not in batch]
        for group in groups:
            trial = ctx.state.clone()
            for h in group:
                trial.add_unit({**probe, "id": f"_probe_{h}", "hex": h})
            tctx = ctx.engine.ctx(trial, event_lines=ctx.event_lines is not None)  # play's too: its lines kept
            for h in group:  # the lines of each probe's answer, for a fact read by a refusal
                memo[h], lines[h] = supplied_lines(tctx, f"_probe_{h}")
    return {h: memo[h] for h in hexes}


def probe_lines(ctx: Any, hex_: str, probe: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """The rule-script lines that decided :func:`probe_supply`'s answer for ``hex_`` (asked
    before, while lines were collected: ``casebook ask``, a refusal, or play's context, which
    collects its events' lines); else ``()``."""
    kind = (probe.get("side"), probe.get("class"), bool(probe.get("mechanized")))
    return ctx.memo.get(("reinforcement.probe-lines", kind), {}).get(hex_, ())


def refusals(ctx: Any, action: str, facts: Mapping[str, Any]) -> list[Refusal]:
    """One :class:`Refusal` per rule-script ``forbid`` line on ``action`` that fires."""
    verdict = ctx.permission(action, facts)
    return [Refusal(ctx.rules.forbid_reason(line, action), tuple(line.cases), source=line.source)
            for line in verdict.lines if line.fired and line.kind == "forbid" and not line.overridden]


def counter_unit(ctx: Any, uid: str) -> dict[str, Any]:
    """Plain unit data for counter ``uid`` of the pack's counter mix (the fields a position takes
    from it); KeyError if the mix has no such counter."""
    counter = ctx.pack.counters[uid]
    return {"id": uid, **{k: counter[k] for k in counter_fields(ctx.pack.vocabulary) if k in counter and k != "id"}}


def unit_side(ctx: Any, uid: str) -> str | None:
    """The side of ``uid``: on the map, else from the counter mix; None if unknown."""
    if ctx.state.has_unit(uid):
        return ctx.state.unit(uid).get("side")
    counter = ctx.pack.counters.get(uid)
    return None if counter is None else counter.get("side")


def enemy_occupied(ctx: Any, hex_: str, side: str) -> bool:
    """Whether a unit of another side stands in ``hex_``."""
    return any(u.get("side") != side for u in ctx.state.units_at(hex_))


def friendly_railheads(ctx: Any, side: str) -> list[str]:
    """Railhead hexes (labels, sorted) controlled by ``side``."""
    out = [hex_label(h) for h in ctx.board.railheads]
    return sorted(h for h in out if ctx.state.control(h) == side)


def hexes(labels: Any) -> list[str]:
    """Hex labels of a collection of :class:`Hex` es or labels, sorted."""
    return sorted(h if isinstance(h, str) else hex_label(h) for h in labels)


def distance(ctx: Any, a: str, b: str) -> int:
    """Hexes from label ``a`` to label ``b`` on the board's grid."""
    return ctx.board.grid.distance(parse_hex(a), parse_hex(b))
