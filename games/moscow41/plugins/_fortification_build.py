"""Building fortifications with FPs (14.1) for ``games/moscow41/plugins/fortification.py``.

The plugin's record (``state.plugin_data("fortification")``) keeps ``builders``: unit -> the
turn it had a fortification built in its hex (14.1D: it cannot move or attack that turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas import fieldworks as fw
from casebook.areas.reinforcement import probe
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

from ._fortification_effects import works

__all__ = ["collect_fps", "expire_moscow_fps", "hex_facts", "build_refusals",
           "build_actions", "apply_build", "combat_units", "has_marker"]

_PROBE = {"id": "_fortification_probe", "side": "soviet", "class": "infantry", "size": "division",
          "strength": 1, "ma": 4}

has_marker = fw.has_marker


@implements("14.1A")
def collect_fps(ctx: Any) -> dict[str, int]:
    """The Soviet FPs of this turn (quantity ``fp_income``, 14.1H), received in the Soviet
    Reinforcement Step (14.1A), added to those the scripts let be saved (``save_fp``: normal
    FPs, 14.1F; Moscow FPs are not, 14.1G). Returns the totals."""
    return fw.collect_points(ctx, works(ctx))


def expire_moscow_fps(ctx: Any) -> int:
    """Unused FPs the scripts do not let be saved (Moscow FPs, 14.1G) are lost at the end of the
    Soviet Reinforcement Step. Returns the number lost."""
    return fw.expire_points(ctx, works(ctx))


def combat_units(ctx: Any, hex_: str, side: str = "soviet") -> list[str]:
    """Combat units of ``side`` in ``hex_`` (not HQs, not remnants: 11.3D), in stack order."""
    return [u["id"] for u in ctx.state.units_at(hex_)
            if u.get("side") == side and u.get("class") not in ("hq", "remnant")]


def _hex_supplied(ctx: Any, hex_: str) -> bool:
    """14.1C: a Soviet supply line from ``hex_`` — a Soviet unit there is asked about, else a
    probe unit placed there (the reinforcement area's supply probe)."""
    here = [u["id"] for u in ctx.state.units_at(hex_) if u.get("side") == "soviet"]
    return probe.supplied(ctx, here[0]) if here else probe_supply(ctx, [hex_])[hex_]


def probe_supply(ctx: Any, hexes: list[str]) -> dict[str, bool]:
    """Whether a Soviet infantry division could trace supply from each of ``hexes`` (empty of
    Soviet units), all probes asked together (see ``casebook.areas.reinforcement.probe``)."""
    return probe.probe_supply(ctx, hexes, _PROBE)


def _german_zoc(ctx: Any, hex_: str) -> bool:
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side="soviet")
    return answer is not None and answer.get("kind", "none") != "none"


def _board_facts(ctx: Any, hex_: str) -> dict[str, Any]:
    """The facts of ``hex_`` printed on the map: city, town, road or trail (any hexside of the
    hex), hexes to Moscow. Kept per board (``ctx.lasting``); ValueError/TypeError for a label
    that is no hex, KeyError for a hex off the map (as the board answers)."""
    cache = ctx.lasting("fortification.board_facts")
    found = cache.get(hex_)
    if found is None:
        h = parse_hex(hex_)
        town = ctx.board.hex(h).town or {}
        road = any(ctx.board.side(h, n).road or ctx.board.side(h, n).trail for n in ctx.board.neighbours(h))
        moscow = min((ctx.board.grid.distance(h, m) for m in ctx.board.hex_set("moscow")), default=999)
        found = cache[hex_] = {"side": "soviet", "hex_city": town.get("kind") == "city",
                               "hex_town": bool(town) and town.get("kind") != "city", "hex_road": road,
                               "moscow_distance": moscow}
    return found


@implements("14.1B", "14.1C", "14.1D", "14.1E")
def hex_facts(ctx: Any, hex_: str, supplied: bool | None = None) -> dict[str, Any]:
    """The facts of ``fort_cost`` / ``build_fort`` / ``spend_moscow_fp`` for ``hex_``: city,
    town, road or trail (any hexside of the hex), hexes to Moscow, supply (14.1C), German ZOC
    (14.1E, asked of ``casebook_zoc``), a Soviet combat unit present (14.1D). ``supplied``
    given: taken as ``hex_supplied`` instead of asking (a pre-check)."""
    return {**_board_facts(ctx, hex_),
            "hex_supplied": _hex_supplied(ctx, hex_) if supplied is None else supplied,
            "in_german_zoc": _german_zoc(ctx, hex_),
            "combat_unit_present": bool(combat_units(ctx, hex_)),
            "already_fortified": has_marker(ctx, "fortification", hex_)}


def _payment(ctx: Any, facts: Mapping[str, Any], cost: int) -> dict[str, int] | None:
    """Moscow FPs first where they may be used (they are lost at the end of the step anyway,
    14.1G), then normal FPs; None if there are not enough."""
    return fw.payment(ctx, works(ctx), ("moscow", "normal"), {"moscow": "spend_moscow_fp"}, facts, cost)


@implements("14.1A", "14.1B", "14.1C", "14.1D", "14.1E", "14.1G")
def build_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``build-fort hex=H [unit=U]`` is illegal: not the Soviet Reinforcement Step (14.1A),
    the ``build_fort`` permission (14.1C-E, 14.1G), U not a Soviet combat unit in H (14.1D), or
    FPs short of ``fort_cost`` (14.1B; Moscow FPs only within two hexes of Moscow, 14.1G)."""
    if ctx.state.step != "replacement_reinforcement" or ctx.state.phasing != action.side:
        return [Refusal("fortifications are placed in the Soviet Reinforcement Step", ("14.1A",))]
    hex_ = action.get("hex")
    try:
        facts = hex_facts(ctx, hex_)
    except (ValueError, TypeError):
        return [Refusal(f"{hex_!r} is not a hex of the map", ("14.1A",))]
    out = fw.forbidding(ctx, "build_fort", {**facts, "side": action.side})
    unit = action.get("unit")
    if unit is not None and unit not in combat_units(ctx, hex_):
        out.append(Refusal(f"{unit} is not a Soviet combat unit in {hex_}", ("14.1D",)))
    cost = ctx.value("fort_cost", facts)
    if not out and _payment(ctx, facts, cost) is None:
        out.append(Refusal(f"a fortification in {hex_} costs {cost} FPs", ("14.1B", "14.1G")))
    return out


def _candidates(ctx: Any) -> list[str]:
    """Hexes worth asking about: those with a Soviet combat unit, cities and towns, and hexes
    within two hexes of Moscow (14.1D: nowhere else can a fortification stand)."""
    out = {u["hex"] for u in ctx.state.units if u.get("side") == "soviet" and "hex" in u}
    return sorted(out | _printed_candidates(ctx))


def _printed_candidates(ctx: Any) -> frozenset[str]:
    """Towns, cities and the hexes within two hexes of Moscow: the map's, kept per board."""
    cache = ctx.lasting("fortification.candidates")
    if "printed" not in cache:
        printed = {hex_label(h) for h in ctx.board.towns()}
        for m in ctx.board.hex_set("moscow"):
            printed |= {hex_label(h) for h in ctx.board.hexes() if ctx.board.grid.distance(h, m) <= 2}
        cache["printed"] = frozenset(printed)
    return cache["printed"]


def build_actions(ctx: Any, side: str) -> list[Action]:
    """Every legal ``build-fort`` now (none without FPs). Hexes are first checked as if in supply;
    supply (the costly question) is asked only of those that pass, all probes at once."""
    if side != "soviet" or ctx.state.track("fp", "normal") + ctx.state.track("fp", "moscow") == 0 \
            or ctx.state.step != "replacement_reinforcement" or ctx.state.phasing != side:
        return []
    maybe = []
    for hex_ in _candidates(ctx):
        facts = hex_facts(ctx, hex_, supplied=True)
        if ctx.allowed("build_fort", facts) and _payment(ctx, facts, ctx.value("fort_cost", facts)):
            maybe.append(hex_)
    empty = [h for h in maybe if not any(u.get("side") == "soviet" for u in ctx.state.units_at(h))]
    probe_supply(ctx, empty)
    return [Action.make("build-fort", side, hex=h) for h in maybe if _hex_supplied(ctx, h)]


@implements("14.1A", "14.1B", "14.1D")
def apply_build(ctx: Any, action: Action) -> dict[str, Any]:
    """Pay ``fort_cost`` FPs (Moscow FPs first where allowed) and place a Fortification marker
    in H. Outside cities, towns and the Moscow ring, the combat unit U (default: the first in the
    hex) may not move or attack this turn (14.1D). Returns ``{"hex", "cost", "paid", "unit"}``."""
    hex_ = action.get("hex")
    facts = hex_facts(ctx, hex_)
    explained = ctx.quantity("fort_cost", facts)
    paid = _payment(ctx, facts, explained.value)
    pinned = not ctx.allowed("builder_moves", facts)  # 14.1D in fortification.rules
    builder = (action.get("unit") or combat_units(ctx, hex_)[0]) if pinned else None
    return fw.build_work(ctx, works(ctx), action, explained, paid or {}, builder)
