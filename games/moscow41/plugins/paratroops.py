"""Moscow '41 paratroops (15.0-15.4): the Soviet drop, scatter and its effects, drop-turn supply.

Action ``soviet: drop unit=s-201ab hex=2540`` in the Soviet Replacement and Reinforcement Step
(15.1B: a paratroop reinforcement either enters normally or waits off the map to be dropped).
The procedure is the shared area ``airdrop`` (src/casebook/areas/airdrop.py) configured here with
Moscow '41's names (``config/paratroops.yaml``, :func:`drop_config`): the asterisked rows of
``tables/reinforcements.yaml`` (``drop: true``, 15.1A), the ``paratroop_drop`` lines and the
quantities of ``games/moscow41/rules/paratroops.rules`` (15.0-15.4), the ``scatter`` marker and
the ``scattered`` unit flag; the config also names the step of a drop and which actions are acting
or attacking (15.3B-C). What stays here: when the area acts (the Soviet turn's start, 15.3A), the
loss steps of 11.3C a scatter costs (15.3C), taking a dropped unit off the schedule (15.1B), and
the ``drop`` question.

A scattered unit's automatic fatigue (14.4D2) is set by the fortification plugin after the action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.areas import airdrop
from casebook.areas.reinforcement import due_turn
from casebook.content.cases import implements
from casebook.content.packconfig import config_reader
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hooks import Refusal, hookimpl

from ._area_config import phasing

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "CONFIG", "drop_config", "lose_step", "take_off_schedule",
           "casebook_legal_actions", "casebook_validate_action", "casebook_apply_action",
           "casebook_step_start", "casebook_supply", "casebook_zoc_sources", "drop_answer", "casebook_answer"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": ["reinforcements"], "quantities": ["drop_dice", "drop_outcome", "scatter_step_losses"]}

#: question -> usage line, for `casebook ask` (see docs/ask/drop.md)
QUESTIONS: dict[str, str] = {
    "drop": "drop [UNIT] [HEX] — paratroops that may drop now, their target hexes, and whether UNIT "
            "may drop on HEX (15.1-15.2)",
}

PLUGIN = "paratroops"
_HEX_ARGS = ("hex", "to", "into", "path", "hexes")


def lose_step(ctx: Any, uid: str) -> str:
    """One step lost by unit ``uid`` for 15.3C, by the loss steps of 11.3C: a first loss sets
    ``losses: 1``; a unit already at one loss is replaced by a remnant counter in its hex; a remnant
    is eliminated (11.3D). Returns ``"1-loss"``, ``"remnant"`` or ``"eliminated"``."""
    st = ctx.state
    unit = dict(st.unit(uid))
    if unit.get("class") == "remnant":
        st.remove_unit(uid, "eliminated")
        return "eliminated"
    if not unit.get("losses"):
        st.update_unit(uid, losses=1)
        return "1-loss"
    st.remove_unit(uid, "eliminated")
    used = {str(u.get("id")) for u in st.units}
    free = sorted(k for k, c in ctx.pack.counters.items()
                  if c.get("class") == "remnant" and c.get("side") == unit.get("side") and k not in used)
    if not free:
        return "eliminated"
    rem = airdrop.unit_record(ctx, free[0], unit["hex"])
    if unit.get("fatigued"):
        rem["fatigued"] = True
    st.add_unit(rem)
    return "remnant"


def take_off_schedule(ctx: Any, uid: str) -> None:
    """Remove dropped ``uid`` from ``state.pending`` and from the reinforcement plugin's units
    available this step, so that it is not placed again as a reinforcement (15.1B)."""
    st = ctx.state
    for turn in sorted({p["turn"] for p in st.pending if p["unit"] == uid}):
        for p in st.take_pending(turn):
            if p["unit"] != uid:
                st.add_pending(p["unit"], p["turn"], p.get("area"))
    rec = st.plugin_data("reinforcement")
    if isinstance(rec, Mapping) and isinstance(rec.get("available"), list):
        rec = dict(rec)
        rec["available"] = [e for e in rec["available"] if not (isinstance(e, Mapping) and e.get("unit") == uid)]
        st.set_plugin_data("reinforcement", rec)


#: The configs it reads (src/casebook/content/packconfig.py): config/paratroops.yaml, the shared
#: area's ``Airdrop`` with Moscow '41's names (``drop_config(ctx)``) and the functions above.
CONFIG = {"paratroops": airdrop.AIRDROP_CONFIG}
drop_config = config_reader("paratroops", airdrop.AIRDROP_CONFIG, airdrop.Airdrop, due=lambda ctx, row: due_turn(
    ctx, "reinforcements", dict(row)), lose_step=lose_step, on_drop=take_off_schedule)


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    """In the phasing side's Replacement and Reinforcement Step: one ``drop`` per eligible unit of
    the side and target hex, unless a unit was already dropped this turn (15.1C)."""
    side = phasing(ctx, phase)
    if step != drop_config(ctx).step or side is None or str(ctx.state.turn) in airdrop.data(ctx, drop_config(ctx))["drops"]:
        return []
    units = airdrop.eligible_units(ctx, drop_config(ctx), side)
    if not units:
        return []
    return [Action.make("drop", side, unit=u, hex=h) for u in units for h in airdrop.drop_targets(ctx, drop_config(ctx), side)]


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """Refuse an illegal drop (the ``paratroop_drop`` lines) or step, and any action a scattered
    paratroop forbids (15.3B-C)."""
    cfg = drop_config(ctx)
    acting = airdrop.action_units(ctx, action) if action.kind in cfg.acting_kinds else []
    hexes = list(action.values_of(*_HEX_ARGS)) if action.kind in cfg.acting_kinds else []
    out = [Refusal(why, cases, source=PLUGIN) for why, cases in
           airdrop.scatter_refusals(ctx, cfg, action, acting, hexes, action.kind in cfg.attack_kinds)]
    if action.kind == "drop":
        if ctx.state.step != cfg.step:
            out.append(Refusal(cfg.step_refusal, cfg.step_cases, source=PLUGIN))
        out += [Refusal(why, cases, source=line or PLUGIN) for why, cases, line in airdrop.drop_refusals(  # in words
            ctx, drop_config(ctx), action.side, str(action.get("unit", "")), str(action.get("hex", "")))]
    return out


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    """Apply a ``drop`` (15.2)."""
    if action.kind != "drop":
        return None
    return airdrop.apply_drop(ctx, drop_config(ctx), str(action.get("unit")), str(action.get("hex")))


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """At the beginning of the Soviet turn (its IP Collection Step) lift last turn's scatter (15.3A)."""
    if step == "ip_collection" and phasing(ctx, phase) == "soviet":
        airdrop.lift_scatter(ctx, drop_config(ctx), "soviet")


@hookimpl(tryfirst=True)
def casebook_supply(ctx: Any, unit: str) -> dict[str, Any] | None:
    """15.4A: in supply on the drop turn; None otherwise (the supply plugin answers)."""
    return airdrop.drop_supply(ctx, drop_config(ctx), unit)


@hookimpl
def casebook_zoc_sources(ctx: Any, side: str) -> list[dict[str, Any]]:
    """The own-hex ZOC of scattered paratroops against ``side`` (15.3B), read by the ZOC map."""
    return airdrop.scattered_zoc(ctx, drop_config(ctx), side)


@implements("15.1A", "15.1B", "15.1C", "15.1D", "15.2")
def drop_answer(ctx: Any, unit: str | None = None, hex_: str | None = None) -> dict[str, Any]:
    """``drop [UNIT] [HEX]``: ``{"eligible": [units that may drop now (15.1A-B)], "dropped_this_turn":
    unit or None (15.1C), "targets": [hexes, 15.1D], "offered": [drop actions play lists now],
    "verdict": {"unit", "hex", "allowed", "refusals"} (with UNIT and HEX), "on_target": "a roll of
    6 …" (15.2: the rolls the ``drop_outcome`` lines put on target), "cases"}``. ``offered`` and
    ``verdict`` are play's: its legal actions and every validator of the ``drop`` action."""
    with ctx.apart(recorded=unit is None or hex_ is None):  # one drop asked: its verdict names the lines
        offered = casebook_legal_actions(ctx, ctx.state.phase or "", ctx.state.step or "")
    out = airdrop.drop_answer(ctx, drop_config(ctx), "soviet", offered, unit, hex_)
    verdict = out.pop("verdict", None)
    rolls = [str(r) for r in airdrop.on_target_rolls(ctx)]  # 15.2: the drop_outcome lines decide
    either = f"a roll of {rolls[0]}" if len(rolls) == 1 else f"a roll of {', '.join(rolls[:-1])} or {rolls[-1]}" \
        if rolls else "no roll"
    out.update(on_target=f"{either} (rule drop_outcome); any other roll scatters (15.2, 15.3)",
               cases=["15.1A", "15.1B", "15.1C", "15.1D", "15.2"])
    if verdict is not None:
        out["verdict"] = verdict
    return out


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Any) -> Any:
    """``drop [UNIT HEX]``."""
    if question != "drop":
        return None
    if len(args) not in (0, 2):
        raise QuestionError("usage: " + QUESTIONS["drop"])
    return drop_answer(ctx, *args) if args else drop_answer(ctx)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.paratroops``: ``drops``: "<turn>" -> the unit dropped that turn,
    ``dropped``: unit -> the turn it dropped (15.1)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    drops: dict[str, str]
    dropped: dict[str, Annotated[int, Field(ge=1)]]
