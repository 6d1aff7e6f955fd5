"""Building fortifications with FPs (14.1) for ``games/moscow41/plugins/fortification.py``:
Moscow '41's names for the shared area ``worksites`` (config/worksites.yaml, :func:`sites`). The
numbers and verdicts are the lines of ``games/moscow41/rules/fortification.rules``; the
procedures are ``casebook.areas.worksites`` and ``casebook.areas.fieldworks``.

The plugin's record (``state.plugin_data("fortification")``) keeps ``builders``: unit -> the
turn it had a fortification built in its hex (14.1D: it cannot move or attack that turn).
"""

from __future__ import annotations

from typing import Any

from casebook.areas import fieldworks as fw
from casebook.areas import worksites as ws
from casebook.content.cases import implements
from casebook.content.packconfig import build_config, config_reader
from casebook.core.actions import Action
from casebook.core.hooks import Refusal

from ._fortification_effects import works

__all__ = ["site_config", "sites", "collect_fps", "expire_moscow_fps", "hex_facts", "build_refusals",
           "build_actions", "apply_build", "build_answer"]

#: config/worksites.yaml: who builds where with which facts (those `fort_cost`, `build_fort`,
#: `spend_moscow_fp` and `builder_moves` read), the supply probe of an empty hex (14.1C) and the
#: cases and messages of the refusals.
site_config = config_reader("worksites", ws.SITES_CONFIG)
_BY_PACK: dict[tuple[int, int], tuple[Any, fw.Works, ws.Sites]] = {}


def sites(ctx: Any) -> ws.Sites:
    """The loaded pack's ``worksites`` names with its ``fieldworks`` names (config/worksites.yaml,
    config/fieldworks.yaml)."""
    cfg, w = site_config(ctx), works(ctx)
    found = _BY_PACK.get((id(cfg), id(w)))
    if found is None or found[0] is not cfg or found[1] is not w:
        found = _BY_PACK[(id(cfg), id(w))] = (cfg, w, build_config(ws.Sites, cfg, works=w))
    return found[2]


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


@implements("14.1B", "14.1C", "14.1D", "14.1E")
def hex_facts(ctx: Any, hex_: str, supplied: bool | None = None) -> dict[str, Any]:
    """The facts of ``fort_cost`` / ``build_fort`` / ``spend_moscow_fp`` for ``hex_``: city,
    town, road or trail (any hexside of the hex), hexes to Moscow, supply (14.1C), German ZOC
    (14.1E), a Soviet combat unit present (14.1D), a Fortification marker there (14.1G)."""
    return ws.hex_facts(ctx, sites(ctx), hex_, supplied)


@implements("14.1A", "14.1B", "14.1C", "14.1D", "14.1E", "14.1G")
def build_refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``build-fort hex=H [unit=U]`` is illegal: not the Soviet Reinforcement Step (14.1A),
    the ``build_fort`` permission (14.1C-E, 14.1G), U not a Soviet combat unit in H (14.1D), or
    FPs short of ``fort_cost`` (14.1B; Moscow FPs only within two hexes of Moscow, 14.1G)."""
    return ws.refusals(ctx, sites(ctx), action)


def build_actions(ctx: Any, side: str) -> list[Action]:
    """Every legal ``build-fort`` now (none without FPs)."""
    return ws.offers(ctx, sites(ctx), side)


@implements("14.1A", "14.1B", "14.1D")
def apply_build(ctx: Any, action: Action) -> dict[str, Any]:
    """Pay ``fort_cost`` FPs (Moscow FPs first where allowed, 14.1G) and place a Fortification
    marker in H. Outside cities, towns and the Moscow ring, the combat unit U (default: the first
    in the hex) may not move or attack this turn (14.1D, the line ``forbid builder_moves``).
    Returns ``{"hex", "cost", "paid", "unit", "cases"}``."""
    return ws.apply(ctx, sites(ctx), action)


def build_answer(ctx: Any, hex_: str) -> dict[str, Any]:
    """What a fortification in ``hex_`` costs and whether it may be built (14.1B-E): ``{"cost",
    "allowed", "refused"}``; QuestionError for a label that is no hex."""
    return ws.answer(ctx, sites(ctx), hex_)
