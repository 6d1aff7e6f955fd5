"""Moscow '41's names for the shared area ``fieldworks`` (FPs, fortifications 14.0-14.3,
hedgehogs 14.4) and the automatic fatigue of a scattered paratroop (14.4D2), for
``games/moscow41/plugins/fortification.py``. The numbers and verdicts are the lines of
``games/moscow41/rules/fortification.rules``; the procedures are ``casebook.areas.fieldworks``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casebook.areas import fieldworks as fw
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.hooks import Refusal

__all__ = ["WORKS", "fortification_info", "attack_facts", "destroy_entered",
           "note_acted", "hedgehog_refusals", "apply_hedgehog", "hedgehog_actions", "movement_refusals",
           "scatter_fatigue"]

#: Moscow '41's FP pools, markers, hedgehog formation, the cases and messages they cite.
WORKS = fw.Works(
    plugin="fortification", track="fp", point_kinds=("normal", "moscow"), kind_fact="fp_kind",
    income="fp_income", save="save_fp", points_side="soviet",
    marker="fortification", destroyed_marker="fort-destroyed", builder_side="soviet",
    protects="fortification_protects", helps_attacker="fortification_helps_attacker",
    destroy="destroy_fortification", destroyed="fortification_destroyed",
    formation_side="german", formation_flag="hedgehog", formation_marker="hedgehog",
    form_steps=("command", "movement"), remove_steps=("movement",), formation="hedgehog",
    move_after_formation="move_after_hedgehog", left_fact="removed_hedgehog",
    move_kinds=("move", "overrun", "rail-move", "react", "react-move"), attack_kinds=("attack",),
    march_kind="force-march", advance_kind="advance",
    cases={"collected": ("14.1A", "14.1F", "14.1H"), "lost": ("14.1G",), "across": ("14.2A", "14.2B"),
           "fortified": ("14.2A", "14.2B", "14.2C"), "helps": ("14.2E",), "destroyed": ("14.3A", "14.3B"),
           "form": ("14.4A",), "removed": ("14.4A", "14.4B"), "unit": ("14.4C",), "builder": ("14.1D",),
           "built": ("14.1A", "14.1B", "14.1D"), "placed": ("14.1A", "14.1B")},
    texts={"steps": "hedgehogs are formed by the phasing player in the Command or Movement Step "
                    "and removed in the Movement Step",
           "stack": "no activated German unit {what} in {hex}", "in_formation": "in hedgehog formation",
           "not_in_formation": "not yet in hedgehog formation",
           "pinned": "in hedgehog formation, cannot move: {units}",
           "spent": "spent all MPs removing the Hedgehog marker: {units}",
           "builder": "stays to build a fortification this turn: {units}"},
    events={"built": ("fortification-built", "fortification.apply_build"),
            "collected": ("fp-collected", "fortification.collect_fps"),
            "lost": ("fp-lost", "fortification.expire_moscow_fps"),
            "destroyed": ("fortification-destroyed", "fortification.destroy_entered"),
            "formation": ("hedgehog", "fortification.apply_hedgehog")})


@implements("14.0", "14.2A", "14.2B", "14.2D")
def fortification_info(ctx: Any, hex_: str) -> dict[str, Any]:
    """``{"marker"`` (all-round, 14.2B), ``"printed_from"`` (faced, 14.2A), ``"destroyed"}``;
    fortifications act on combat only, never on ZOCs (14.2D: no ZOC question is answered)."""
    return fw.work_info(ctx, WORKS, hex_)


@implements("14.2C")
def attack_facts(ctx: Any, hex_: str, attackers: Iterable[str]) -> dict[str, Any]:
    """``across_fortification`` per attacker (14.2A-B), ``fortified`` (+1 strength, -1 DRM in
    combat.rules, 14.2C), ``attackers_fortified`` (never, 14.2E)."""
    return fw.attack_facts(ctx, WORKS, hex_, attackers)


def destroy_entered(ctx: Any, action: Action) -> list[dict[str, Any]]:
    """Fortifications the Germans entered unoccupied are destroyed (14.3A-B in the scripts)."""
    return fw.destroy_entered(ctx, WORKS, action)


def note_acted(ctx: Any, action: Action) -> None:
    """Remember the units that moved or attacked in this player phase (for 14.4A)."""
    fw.note_acted(ctx, WORKS, action)


@implements("14.4A", "14.4B")
def hedgehog_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``hedgehog stack=H [remove=true]`` is illegal (14.4A; removal in the Movement Step)."""
    return fw.formation_refusals(ctx, WORKS, action)


@implements("14.4A", "14.4B")
def apply_hedgehog(ctx: Any, action: Action) -> dict[str, Any]:
    """Form or remove a hedgehog (flag and Hedgehog marker, 14.4A-B)."""
    return fw.apply_formation(ctx, WORKS, action)


def hedgehog_actions(ctx: Any, step: str) -> list[Action]:
    """Every ``hedgehog`` action :func:`hedgehog_refusals` accepts now."""
    return fw.formation_offers(ctx, WORKS, "hedgehog")


@implements("14.4C", "14.1D")
def movement_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """A unit in hedgehog formation cannot move (14.4C); one that removed its Hedgehog marker
    has spent its MPs but may force march (14.4A-B); a unit whose hex was fortified this turn
    outside a city, town or the Moscow ring may neither move nor attack (14.1D)."""
    return fw.move_refusals(ctx, WORKS, action)


def scatter_fatigue(ctx: Any) -> list[str]:
    """A scattered paratroop (``scattered: true``, 15.3) is automatically fatigued, once per
    scatter, unless the scripts allow ``scattered_unfatigued`` (14.4D2 forbids it); not a
    combat result, so no IPs can negate it (14.4D2). Returns the units fatigued now."""
    rec = fw.data(ctx, WORKS)
    done = set(rec.get("scatter_fatigued", []))
    scattered = {u["id"] for u in ctx.state.units if u.get("scattered")}
    new = sorted(scattered - done)
    fatigued = []
    for uid in new:
        if ctx.allowed("scattered_unfatigued", {}):  # 14.4D2 in fortification.rules forbids it
            continue
        if not ctx.state.unit(uid).get("fatigued"):
            ctx.state.update_unit(uid, fatigued=True)
            fatigued.append(uid)
            ctx.record("fatigue", ("14.4D2",), {"unit": uid, "source": "scatter", "negatable": False},
                       source="fortification.scatter_fatigue", side="soviet")
    if new or done - scattered:
        rec["scatter_fatigued"] = sorted(scattered)
        fw.save(ctx, WORKS, rec)
    return fatigued
