"""Moscow '41's config/movement.yaml (the manifest's ``config:``, read once per loaded pack): the
cases of the shared movement searches (``walk``, ``stops``, ``fatigue``: the area's
:class:`~casebook.areas._movement_reach.MovementCites`) and the movement plugin's own words —
its refusals (``refusals``: text and cases), the texts of the refusals the rule lines decide
(``forbidden``: a text, or case -> text; ``verdicts``: a text; the lines' cases are cited) and the
cases of its events (``events``). Private helper of the movement plugins; each key lists the
``{fields}`` its text fills in (lint checks them).
"""

from __future__ import annotations

from casebook.areas._movement_reach import MovementCites
from casebook.content.packconfig import Cases, Cites, config_reader, messages, reasons, texts

__all__ = ["REFUSALS", "FORBIDDEN", "VERDICTS", "MovementConfig", "MovementEvents", "movement_config"]

#: refusal -> the ``{fields}`` its text fills in
REFUSALS = {"not_step": ("kind", "side", "step"), "no_unit": ("side", "hex"), "not_with_stack": ("units", "hex"),
            "no_path": (), "ended_spent": ("hex",), "ended_stopped": ("hex",), "not_adjacent_enemy": ("target", "hex"),
            "tec_prohibits": ("target",), "no_force_march": (), "rail_capacity": ("left", "counted"),
            "rail_blocked": ("why",), "no_rail_path": ("stack", "to"), "no_react_unit": ("side", "hex"),
            "react_cost": ("cost", "ip"), "rail_attack": ("units",), "pending_result": (), "no_combat": ()}
#: a refusal the rule lines decide (``_rule_refusals.refusals``) -> the fields its texts fill in
FORBIDDEN = {"reserve": ("unit",), "foot": (), "overrun_step": (), "overrun": ("target", "cost", "terrain", "left"),
             "force_march": (), "rail": (), "react_step": ()}
#: a permission's verdict refused (its fired lines' cases cited) -> the fields its text fills in
VERDICTS = {"overrun_unit": ("unit",), "force_march_unit": (), "react_unit": ("unit",)}


class MovementEvents(Cites):
    """The cases of the movement plugin's events (and of the results of its actions)."""

    drop_off: Cases
    reserve: Cases
    overrun_pending: Cases
    overrun_advanced: Cases
    overrun_stopped: Cases
    force_march: Cases
    rail: Cases
    rail_hq: Cases
    react: Cases
    react_result: Cases
    react_marked: Cases


class MovementConfig(MovementCites):
    """config/movement.yaml: the searches' cases and the plugin's refusals and events."""

    refusals: messages(*REFUSALS, fills=REFUSALS)  # type: ignore[valid-type]
    forbidden: reasons(FORBIDDEN)  # type: ignore[valid-type]
    verdicts: texts(VERDICTS)  # type: ignore[valid-type]
    events: MovementEvents


#: ``movement_config(ctx)``: the loaded pack's config/movement.yaml
movement_config = config_reader("movement", MovementConfig)
