"""Moscow '41 victory points (17.0-17.4): the terms of each side's VPs, private to ``victory``.

Readings (docs/ask/vp.md):

- town IP values are the initiative plugin's (quantity ``town_ip``: the Initiative Chart, 0.2.2.10:
  the chart is authoritative, on the pack's map; the inline map's ``towns`` on a test map);
- "controlled" is ``state.control`` (1.1B, kept by the control owner); "can trace a supply line
  to the hex" (17.1) is the supply plugin's ``casebook_supply`` for a friendly unit in the hex,
  else for a probe unit of the side put in the hex on a scratch copy of the state;
- a Moscow hex is "taken" (17.2) once a German combat unit stands in it or the Germans control
  it; the hexes are remembered in ``plugin_data("victory")["moscow_taken"]``;
- losses (17.3) are the ``removed`` records with reason ``eliminated`` whose unit is neither
  back on the map nor pending (17.3C); a panzer division counts when none of its regiments is
  left (interpretation panzer-division-elimination-vp).

Every number is the rule script's (games/moscow41/rules/victory.rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas.scenario_victory import points_verdict
from casebook.content.cases import implements
from casebook.core.hexgrid import hex_label

from .initiative import town_values

__all__ = ["PLUGIN", "NON_COMBAT", "is_combat_unit", "town_ips", "town_supplied", "moscow_taken",
           "moscow_hexes", "losses", "side_facts", "vp_answer"]

PLUGIN = "victory"
#: unit classes that are not combat units (11.3D remnants; HQs command, they do not fight)
NON_COMBAT = frozenset({"hq", "remnant"})
_PROBE = "_victory-supply-probe"


def is_combat_unit(unit: Mapping[str, Any]) -> bool:
    """A combat unit in the sense of 17.1 and 18.1.3B/D: any unit but HQs and remnants (11.3D)."""
    return unit.get("class") not in NON_COMBAT


def town_ips(ctx: Any) -> dict[str, int]:
    """Hex label -> IP value of every town and city hex (1.1A): the initiative plugin's
    :func:`~.initiative.town_values` (quantity ``town_ip``: the Initiative Chart's row of the hex
    on the pack's map, 1.1C and 0.2.2.10; the inline map's ``towns`` on a position with its own map)."""
    return {h: int(v["ip"]) for h, v in town_values(ctx).items()}


def moscow_hexes(ctx: Any) -> list[str]:
    """The Moscow city hexes of the board, as labels in order."""
    return sorted(hex_label(h) for h in ctx.board.hex_set("moscow"))


@implements("17.1")
def town_supplied(ctx: Any, hex_: str, side: str) -> bool | None:
    """Whether ``side`` can trace a supply line to ``hex_`` now (17.1): the supply plugin's
    verdict for a friendly unit there, else for a probe unit on a scratch copy of the state.
    None when no supply plugin answers (then the town counts; the answer says so)."""
    own = [u for u in ctx.state.units_at(hex_) if u.get("side") == side and is_combat_unit(u)]
    if own:
        answer = ctx.hook.casebook_supply(ctx=ctx, unit=str(own[0].get("id", own[0].get("counter"))))
    else:
        scratch = ctx.state.clone()
        scratch.add_unit({"id": _PROBE, "side": side, "class": "infantry", "size": "division",
                          "strength": 1, "ma": 4, "hex": hex_})
        probe_ctx = ctx.engine.ctx(scratch)
        answer = ctx.hook.casebook_supply(ctx=probe_ctx, unit=_PROBE)
    if answer is None:
        return None
    return bool(answer.get("in_supply"))


@implements("17.2")
def moscow_taken(ctx: Any) -> list[str]:
    """The Moscow hexes the Germans have taken so far (17.2: counted once each, even if lost
    later): those remembered in plugin_data plus any now held by a German combat unit or
    German-controlled."""
    data = ctx.state.plugin_data(PLUGIN) or {}
    taken = set(data.get("moscow_taken", []))
    for h in moscow_hexes(ctx):
        if ctx.state.control(h) == "german" or any(
                u.get("side") == "german" and is_combat_unit(u) for u in ctx.state.units_at(h)):
            taken.add(h)
    return sorted(taken)


@implements("17.3A", "17.3B")
def losses(ctx: Any) -> dict[str, list[str]]:
    """Eliminated units that score (17.3): ``{"army_hqs", "front_hqs", "divisions",
    "panzer_divisions"}`` -> unit (or panzer division) ids. Withdrawn units and units back in
    play or pending (replacements, rebuilding) are no losses (permission ``count_as_loss``,
    17.3C)."""
    st = ctx.state
    present = {str(u.get("id", u.get("counter"))) for u in st.units} | {p["unit"] for p in st.pending}
    out: dict[str, list[str]] = {"army_hqs": [], "front_hqs": [], "divisions": [], "panzer_divisions": []}
    gone = [r["unit"] for r in st.removed  # 17.3C in victory.rules
            if ctx.allowed("count_as_loss", {"removal_reason": str(r.get("reason", "")),
                                             "back_in_play": r["unit"] in present})]
    counters = ctx.pack.counters
    panzer: dict[str, list[str]] = {}
    for c in counters.values():
        if c.get("side") == "german" and c.get("division") and c.get("size") == "regiment":
            panzer.setdefault(str(c["division"]), []).append(str(c["id"]))
    for uid in dict.fromkeys(gone):
        c = counters.get(uid) or {}
        kind = str(c.get("type", ""))
        if c.get("side") == "soviet" and c.get("class") == "hq":
            out["front_hqs" if "front" in kind.lower() else "army_hqs"].append(uid)
        elif c.get("side") == "german" and c.get("size") == "division" and c.get("class") != "hq":
            out["divisions"].append(uid)
    for div, regiments in sorted(panzer.items()):
        if all(r in gone for r in regiments):
            out["panzer_divisions"].append(div)
    return out


def _terrain_terms(ctx: Any, side: str) -> tuple[int, list[dict[str, Any]]]:
    ips = town_ips(ctx)
    total, towns = 0, []
    for h in sorted(ips):
        if ctx.state.control(h) != side or ips[h] <= 0:
            continue
        supplied = town_supplied(ctx, h, side)
        if supplied is False:
            continue
        total += ips[h]
        towns.append({"hex": h, "ip": ips[h], "supplied": supplied})
    return total, towns


@implements("17.1", "17.2", "17.3A", "17.3B")
def side_facts(ctx: Any, side: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The facts of the quantity ``victory_points`` for ``side`` (the IPs of the towns it controls
    and supplies, 17.1; the Moscow hexes taken, 17.2; the enemy units eliminated, 17.3) and what
    the ``vp`` answer shows beside the points: ``({facts}, {"towns", "moscow_taken", "losses"})``;
    the points are the shared area's (:func:`casebook.areas.scenario_victory.side_points`)."""
    ips, towns = _terrain_terms(ctx, side)
    lost = losses(ctx)
    taken = moscow_taken(ctx)
    facts = {"town_ips": ips, "moscow_hexes_taken": len(taken),
             "enemy_army_hqs_eliminated": len(lost["army_hqs"]),
             "enemy_front_hqs_eliminated": len(lost["front_hqs"]),
             "enemy_divisions_eliminated": len(lost["divisions"]),
             "enemy_panzer_divisions_eliminated": len(lost["panzer_divisions"])}
    mine = (["army_hqs", "front_hqs"] if side == "german" else ["divisions", "panzer_divisions"])
    return facts, {"towns": towns, "moscow_taken": taken if side == "german" else [],
                   "losses": {k: lost[k] for k in mine}}


def vp_answer(ctx: Any) -> dict[str, Any]:
    """The ``vp`` question: both sides' VPs with terms and the level (17.0-17.4), by the shared
    area (:func:`casebook.areas.scenario_victory.points_verdict`) over :func:`side_facts`."""
    return points_verdict(ctx, side_facts)
