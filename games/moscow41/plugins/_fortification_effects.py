"""Moscow '41's names for the shared area ``fieldworks`` (FPs, fortifications 14.0-14.3,
hedgehogs 14.4) and the automatic fatigue of a scattered paratroop (14.4D2), for
``games/moscow41/plugins/fortification.py``. The numbers and verdicts are the lines of
``games/moscow41/rules/fortification.rules``; the procedures are ``casebook.areas.fieldworks``
(points, works) and ``casebook.areas.formation`` (hedgehogs).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casebook.areas import fieldworks as fw
from casebook.areas import formation, worksites
from casebook.content.cases import implements
from casebook.content.packconfig import config_reader
from casebook.core.actions import Action
from casebook.core.hooks import Refusal

__all__ = ["CONFIG", "works", "fortification_info", "attack_facts", "destroy_entered",
           "note_acted", "hedgehog_refusals", "apply_hedgehog", "hedgehog_actions", "movement_refusals",
           "scatter_fatigue"]

#: Moscow '41's FP pools, markers, hedgehog formation, the cases and messages they cite: the
#: pack's config/fieldworks.yaml (the manifest's ``config:``), read once per loaded pack
CONFIG = {"fieldworks": fw.WORKS_CONFIG}
works = config_reader("fieldworks", fw.WORKS_CONFIG, fw.Works)


@implements("14.0", "14.2A", "14.2B", "14.2D")
def fortification_info(ctx: Any, hex_: str) -> dict[str, Any]:
    """``{"marker"`` (all-round, 14.2B), ``"printed_from"`` (faced, 14.2A), ``"destroyed"}``;
    fortifications act on combat only, never on ZOCs (14.2D: no ZOC question is answered)."""
    return fw.work_info(ctx, works(ctx), hex_)


@implements("14.2C")
def attack_facts(ctx: Any, hex_: str, attackers: Iterable[str]) -> dict[str, Any]:
    """``across_fortification`` per attacker (14.2A-B: the lines ``marker_fortifies`` and
    ``printed_fortifies`` the combat area asks, one code path), ``fortified`` (+1 strength, -1 DRM
    in combat.rules, 14.2C), ``attackers_fortified`` (never, 14.2E)."""
    return worksites.attack_facts(ctx, works(ctx), hex_, attackers)


def destroy_entered(ctx: Any, action: Action) -> list[dict[str, Any]]:
    """Fortifications the Germans entered unoccupied are destroyed (14.3A-B in the scripts)."""
    return fw.destroy_entered(ctx, works(ctx), action)


def note_acted(ctx: Any, action: Action) -> None:
    """Remember the units that moved or attacked in this player phase (for 14.4A)."""
    formation.note_acted(ctx, works(ctx), action)


@implements("14.4A", "14.4B")
def hedgehog_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``hedgehog stack=H [remove=true]`` is illegal (14.4A; removal in the Movement Step)."""
    return formation.formation_refusals(ctx, works(ctx), action)


@implements("14.4A", "14.4B")
def apply_hedgehog(ctx: Any, action: Action) -> dict[str, Any]:
    """Form or remove a hedgehog (flag and Hedgehog marker, 14.4A-B)."""
    return formation.apply_formation(ctx, works(ctx), action)


def hedgehog_actions(ctx: Any, step: str) -> list[Action]:
    """Every ``hedgehog`` action :func:`hedgehog_refusals` accepts now."""
    return formation.formation_offers(ctx, works(ctx), "hedgehog")


@implements("14.4C", "14.1D")
def movement_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """A unit in hedgehog formation cannot move (14.4C); one that removed its Hedgehog marker
    has spent its MPs but may force march (14.4A-B); a unit whose hex was fortified this turn
    outside a city, town or the Moscow ring may neither move nor attack (14.1D)."""
    return formation.move_refusals(ctx, works(ctx), action)


def scatter_fatigue(ctx: Any) -> list[str]:
    """A scattered paratroop (``scattered: true``, 15.3) is automatically fatigued, once per
    scatter, unless the scripts allow ``scattered_unfatigued`` (14.4D2 forbids it); not a
    combat result, so no IPs can negate it (14.4D2). Returns the units fatigued now."""
    rec = fw.data(ctx, works(ctx))
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
        fw.save(ctx, works(ctx), rec)
    return fatigued
