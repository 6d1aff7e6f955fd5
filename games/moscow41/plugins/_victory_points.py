"""Moscow '41 victory points (17.0-17.4): the terms of each side's VPs, private to ``victory``.

Readings (docs/ask/vp.md):

- town IP values are the ``initiative`` area's (quantity ``town_ip``: the Initiative Chart, 0.2.2.10:
  the chart is authoritative, on the pack's map; the inline map's ``towns`` on a test map);
- "controlled" is ``state.control`` (1.1B, kept by the control owner); "can trace a supply line
  to the hex" (17.1) is the supply plugin's ``casebook_supply`` for a friendly unit in the hex,
  else for a probe unit of the side put in the hex on a scratch copy of the state;
- a combat unit is one zoc.rules' ``counts_as_combat_unit`` lines allow (not an HQ, 0.5.4, nor
  a remnant, 11.3D: ``_area_config.non_combat``);
- a Moscow hex is "taken" (17.2) once a German combat unit stands in it or the Germans control
  it; the hexes are remembered in ``plugin_data("victory")["moscow_taken"]``;
- losses (17.3) are the ``removed`` records with reason ``eliminated`` whose unit is neither
  back on the map nor pending (17.3C); a panzer division counts when none of its regiments is
  left (interpretation panzer-division-elimination-vp).

Every number is the rule script's (games/moscow41/rules/victory.rules).
"""

from __future__ import annotations

from typing import Any

from casebook.areas.initiative import town_values
from casebook.areas.scenario_victory import held_values, points_verdict, taken_hexes
from casebook.content.cases import implements
from casebook.core.hexgrid import hex_label

from ._area_config import non_combat

__all__ = ["PLUGIN", "PROBE", "town_ips", "moscow_taken",
           "moscow_hexes", "losses", "side_facts", "vp_answer"]

PLUGIN = "victory"
#: the unit put in a town to ask whether a side can trace supply to it (17.1), when none of its is there
PROBE = {"id": "_victory-supply-probe", "class": "infantry", "size": "division", "strength": 1, "ma": 4}


def town_ips(ctx: Any) -> dict[str, int]:
    """Hex label -> IP value of every town and city hex (1.1A): the ``initiative`` area's
    :func:`casebook.areas.initiative.town_values` (quantity ``town_ip``: the Initiative Chart's row of the hex
    on the pack's map, 1.1C and 0.2.2.10; the inline map's ``towns`` on a position with its own map)."""
    return {h: int(v["ip"]) for h, v in town_values(ctx).items()}


def moscow_hexes(ctx: Any) -> list[str]:
    """The Moscow city hexes of the board, as labels in order."""
    return sorted(hex_label(h) for h in ctx.board.hex_set("moscow"))


@implements("17.2")
def moscow_taken(ctx: Any) -> list[str]:
    """The Moscow hexes the Germans have taken so far (17.2: counted once each, even if lost
    later): those remembered in plugin_data plus any now held by a German combat unit or
    German-controlled."""
    return taken_hexes(ctx, PLUGIN, "moscow_taken", moscow_hexes(ctx), "german", non_combat(ctx))


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


@implements("17.1", "17.2", "17.3A", "17.3B")
def side_facts(ctx: Any, side: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The facts of the quantity ``victory_points`` for ``side`` (the IPs of the towns it controls
    and supplies, 17.1; the Moscow hexes taken, 17.2; the enemy units eliminated, 17.3) and what
    the ``vp`` answer shows beside the points: ``({facts}, {"towns", "moscow_taken", "losses"})``;
    the points are the shared area's (:func:`casebook.areas.scenario_victory.side_points`)."""
    ips, towns = held_values(ctx, side, town_ips(ctx), PROBE, non_combat(ctx))  # 17.1: controlled and supplied
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
