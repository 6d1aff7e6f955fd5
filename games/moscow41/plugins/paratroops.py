"""Moscow '41 paratroops (15.0-15.4): the Soviet drop, scatter and its effects, drop-turn supply.

Action ``soviet: drop unit=s-201ab hex=2540`` in the Soviet Replacement and Reinforcement Step
(15.1B: a paratroop reinforcement either enters normally or waits off the map to be dropped).
Eligibility and targets: ``_paratroops_drop`` and ``games/moscow41/rules/paratroops.rules``.

Scatter (15.2-15.3): the unit lands on the target hex with ``scattered: true``, a ``scatter``
marker; its automatic fatigue (14.4D2) is set by the fortification plugin after the action. While
scattered it cannot move, attack or react and cannot be attacked; enemy units cannot enter its
hex (refused in ``casebook_validate_action``; the hex itself is a ZOC, given to the ZOC area
through ``casebook_zoc_sources``). At the start of the next Soviet turn the marker goes
and the unit loses one step per enemy stack in its ZOC (15.3A, 15.3C).

Supply (15.4): on its drop turn the unit is in supply whatever its path (``casebook_supply``
answered first, route ``"airdrop"``); on later turns this plugin does not answer (normal rules).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.dice import roll
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal, hookimpl
from casebook.core.trace import Trace
from casebook.games.moscow41.plugins._paratroops_drop import (
    PLUGIN,
    data,
    drop_targets,
    drop_verdict,
    eligible_units,
    take_off_schedule,
    unit_record,
)

__all__ = ["REQUIRES", "STATE_SCHEMA", "QUESTIONS", "apply_drop", "lift_scatter", "lose_step", "scattered_in", "drop_supply",
           "casebook_legal_actions", "casebook_validate_action", "casebook_apply_action",
           "casebook_step_start", "casebook_supply", "casebook_zoc_sources", "scattered_zoc", "drop_answer",
           "casebook_answer",
           "scatter_refusals"]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": ["reinforcements"], "quantities": ["drop_dice", "drop_outcome", "scatter_step_losses"]}

#: question -> usage line, for `casebook ask` (see docs/ask/drop.md)
QUESTIONS: dict[str, str] = {
    "drop": "drop [UNIT] [HEX] — paratroops that may drop now, their target hexes, and whether UNIT "
            "may drop on HEX (15.1-15.2)",
}

REINFORCEMENT_STEP = "replacement_reinforcement"
#: kinds by which a unit moves, attacks or reacts (15.3B)
ACTING_KINDS = frozenset({"move", "force-march", "rail-move", "react-move", "react", "attack",
                          "overrun", "advance", "retreat"})
_HEX_ARGS = ("hex", "to", "into", "path", "hexes")


def _phasing(ctx: Any, phase: str) -> str | None:
    if ctx.state.phasing:
        return ctx.state.phasing
    first = ctx.state.first_player
    if first is None:
        return None
    return first if phase.startswith("first") else ctx.state.other_side(first)


def scattered_in(ctx: Any, hex_: str) -> list[str]:
    """Ids of scattered paratroop units in ``hex_`` (15.3B)."""
    return [str(u.get("id", u.get("counter"))) for u in ctx.state.units_at(hex_) if u.get("scattered")]


@implements("15.2")
def apply_drop(ctx: Any, unit: str, target: str) -> dict[str, Any]:
    """Drop ``unit`` on ``target`` (validated): roll one die (15.2: rule ``drop_dice``; rule
    ``drop_outcome``: on target on a 6); on target the unit is placed; otherwise it is placed scattered on the target
    hex with a ``scatter`` marker (the fortification plugin fatigues it, 14.4D2). Returns ``{"unit", "hex", "roll",
    "result", "cases"}``."""
    st = ctx.state
    trace = ctx.trace if ctx.trace is not None else Trace()
    dice = int(ctx.value("drop_dice", {}))
    die = roll(st, dice, purpose="paratroop drop", cases=["15.2"], trace=trace,
               source="paratroops.apply_drop")
    outcome = ctx.quantity("drop_outcome", {"drop_roll": die})
    take_off_schedule(ctx, unit)
    rec = unit_record(ctx, unit, target)
    cases = ["15.2", *outcome.cases]
    if outcome.value == "scattered":
        rec["scattered"] = True           # its automatic fatigue is the fortification area's (14.4D2)
        st.add_unit(rec)
        st.add_marker("scatter", target, unit=unit)
        cases += ["15.3A"]
    else:
        st.add_unit(rec)
    book = data(ctx)
    book["drops"][str(st.turn)] = unit
    book["dropped"][unit] = st.turn
    st.set_plugin_data(PLUGIN, book)
    result = {"unit": unit, "hex": target, "roll": die, "result": str(outcome.value),
              "cases": list(dict.fromkeys(cases))}
    ctx.record("paratroop-drop", result["cases"], result, source="paratroops.apply_drop", side="soviet")
    return result


def lose_step(ctx: Any, uid: str) -> str:
    """One step lost by Soviet unit ``uid`` for 15.3C, by the loss steps of 11.3C: a first loss
    sets ``losses: 1``; a unit already at one loss is replaced by a remnant counter in its hex; a remnant is eliminated
    (11.3D). Returns ``"1-loss"``, ``"remnant"`` or ``"eliminated"``."""
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
    rem = unit_record(ctx, free[0], unit["hex"])
    if unit.get("fatigued"):
        rem["fatigued"] = True
    st.add_unit(rem)
    return "remnant"


@implements("15.3C")
def lift_scatter(ctx: Any) -> list[dict[str, Any]]:
    """At the beginning of a Soviet turn: remove the Scattered marker of every paratroop dropped
    at least ``scatter_turns`` turns ago (15.3A in paratroops.rules: the next Soviet turn), then take one step per enemy stack in its ZOC
    (15.3C, rule ``scatter_step_losses``; no ZOC, no loss: ``exert_zoc``, e.g. Arctic 7.1C).
    Returns what happened to each unit."""
    st, out = ctx.state, []
    book = data(ctx)
    turns = int(ctx.value("scatter_turns", {}))  # 15.3A in paratroops.rules: one turn
    for u in [dict(u) for u in st.units if u.get("scattered")]:
        uid = str(u.get("id", u.get("counter")))
        if st.turn - book["dropped"].get(uid, 0) < turns:
            continue
        h = u["hex"]
        st.update_unit(uid, scattered=None)
        if any(m.get("kind") == "scatter" and m.get("hex") == h for m in st.markers):
            st.remove_marker("scatter", h)
        w = st.weather or {}
        zoc = ctx.permission("exert_zoc", {
            "temperature": w.get("temperature", "warm"), "ground": w.get("ground", "dry"),
            "side": u.get("side"), "unit_class": u.get("class"), "unit_size": u.get("size", "none"),
            "no_zoc_scope": st.setting("no_zoc_scope", "arctic"), "road_or_town_hex": False})
        stacks = 0
        if zoc.value:
            for n in ctx.board.neighbours(parse_hex(h)):
                if any(x.get("side") != u.get("side") for x in st.units_at(hex_label(n))):
                    stacks += 1
        losses = int(ctx.value("scatter_step_losses", {"enemy_stacks_in_zoc": stacks}))
        results = []
        for _ in range(losses):
            if not st.has_unit(uid):
                break
            results.append(lose_step(ctx, uid))
        entry = {"unit": uid, "hex": h, "enemy_stacks": stacks, "steps_lost": len(results),
                 "results": results, "cases": ["15.3A", "15.3C", *zoc.cases]}
        ctx.record("scatter-lifted", entry["cases"], entry, source="paratroops.lift_scatter", side="soviet")
        out.append(entry)
    return out


def drop_supply(ctx: Any, unit: str) -> dict[str, Any] | None:
    """A paratroop within ``airdrop_supply_turns`` of its drop (15.4A in paratroops.rules: the
    turn it was dropped) is in supply regardless of its path (the answer of
    ``casebook_supply``); on later turns None (the normal supply rules, 15.4B)."""
    found = ctx.memo.get(("paratroops", "dropped"))
    if found is None:  # read once per state version: asked for every supply question
        found = ctx.memo[("paratroops", "dropped")] = (data(ctx)["dropped"],
                                                        int(ctx.value("airdrop_supply_turns", {})))
    dropped, turns = found
    when = dropped.get(unit)
    if when is None or not 0 <= ctx.state.turn - when < turns or not ctx.state.has_unit(unit):
        return None
    return {"unit": unit, "in_supply": True, "route": "airdrop", "path": [], "mp": 0,
            "cases": ["15.4A"], "blocked": []}


def _acting_units(ctx: Any, action: Any) -> list[str]:
    named = [action.get(k) for k in ("unit", "units", "with")]
    ids: list[str] = []
    for v in named:
        if isinstance(v, str):
            ids.append(v)
        elif isinstance(v, tuple):
            ids += list(v)
    if ids:
        return ids
    for k in ("stack", "from"):
        h = action.get(k)
        if isinstance(h, str):
            return [str(u.get("id", u.get("counter"))) for u in ctx.state.units_at(h)
                    if u.get("side") == action.side]
    return []


@implements("15.3B", "15.3C")
def scatter_refusals(ctx: Any, action: Any) -> list[Refusal]:
    """15.3B: a scattered unit cannot move, attack or react, and enemy units cannot enter its
    hex; 15.3C: it cannot be attacked while scattered."""
    if action.kind not in ACTING_KINDS:
        return []
    out = []
    stuck = [u for u in _acting_units(ctx, action)
             if ctx.state.has_unit(u) and ctx.state.unit(u).get("scattered")]
    if stuck:
        out.append(Refusal(f"scattered paratroop {', '.join(stuck)} cannot move, attack or react",
                           ("15.3B",), source=PLUGIN))
    for h in dict.fromkeys(action.values_of(*_HEX_ARGS)):
        if not isinstance(h, str) or len(h) != 4:
            continue
        enemy = [u for u in scattered_in(ctx, h) if ctx.state.unit(u).get("side") != action.side]
        if enemy and action.kind in ("attack", "overrun"):
            out.append(Refusal(f"{', '.join(enemy)} in {h} is scattered and cannot be attacked",
                               ("15.3C",), source=PLUGIN))
        elif enemy:
            out.append(Refusal(f"{h} holds scattered paratroop {', '.join(enemy)}: its hex is a ZOC "
                               f"enemy units cannot occupy", ("15.3B",), source=PLUGIN))
    return out


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    """In the Soviet Replacement and Reinforcement Step: one ``drop`` per eligible unit and
    target hex, unless a unit was already dropped this turn (15.1C)."""
    if step != REINFORCEMENT_STEP or _phasing(ctx, phase) != "soviet":
        return []
    if str(ctx.state.turn) in data(ctx)["drops"]:
        return []
    units = eligible_units(ctx)
    if not units:
        return []
    targets = drop_targets(ctx)
    return [Action.make("drop", "soviet", unit=u, hex=h) for u in units for h in targets]


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """Refuse an illegal drop (15.0-15.1, the ``paratroop_drop`` lines) or step, and any action
    a scattered paratroop forbids (15.3B-C)."""
    out = scatter_refusals(ctx, action)
    if action.kind == "drop":
        if ctx.state.step != REINFORCEMENT_STEP:
            out.append(Refusal("paratroops drop in the Replacement and Reinforcement Step",
                               ("15.1B",), source=PLUGIN))
        ok, cases, _ = drop_verdict(ctx, action.side, str(action.get("unit", "")),
                                    str(action.get("hex", "")))
        if not ok:
            out.append(Refusal(f"{action.get('unit')} cannot be dropped on {action.get('hex')}",
                               cases, source=PLUGIN))
    return out


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    """Apply a ``drop`` (15.2)."""
    if action.kind != "drop":
        return None
    return apply_drop(ctx, str(action.get("unit")), str(action.get("hex")))


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """At the beginning of the Soviet turn (its IP Collection Step) lift last turn's scatter."""
    if step == "ip_collection" and _phasing(ctx, phase) == "soviet":
        lift_scatter(ctx)


@hookimpl(tryfirst=True)
def casebook_supply(ctx: Any, unit: str) -> dict[str, Any] | None:
    """15.4A: in supply on the drop turn; None otherwise (the supply plugin answers)."""
    return drop_supply(ctx, unit)


@implements("15.3B")
def scattered_zoc(ctx: Any, side: str) -> list[dict[str, Any]]:
    """15.3B: the hex a scattered paratroop occupies is itself a ZOC against the enemy (beside
    the ZOC it projects into the adjacent hexes as any unit, subject to the weather):
    ``[{"hex", "id": UNIT, "cases": ["15.3B"]}]`` for the scattered units not of ``side``."""
    return [{"hex": u["hex"], "id": str(u.get("id", u.get("counter"))), "cases": ["15.3B"]}
            for u in ctx.state.units if u.get("scattered") and u.get("hex") and u.get("side") != side]


@hookimpl
def casebook_zoc_sources(ctx: Any, side: str) -> list[dict[str, Any]]:
    """The own-hex ZOC of scattered paratroops against ``side`` (15.3B), read by the ZOC map."""
    return scattered_zoc(ctx, side)


@implements("15.1A", "15.1B", "15.1C", "15.1D", "15.2")
def drop_answer(ctx: Any, unit: str | None = None, hex_: str | None = None) -> dict[str, Any]:
    """``drop [UNIT] [HEX]``: ``{"eligible": [units that may drop now (15.1A-B)], "dropped_this_turn":
    unit or None (15.1C), "targets": [hexes, 15.1D], "offered": [drop actions play lists now],
    "verdict": {"unit", "hex", "allowed", "refusals"} (with UNIT and HEX), "on_target": "a 6"
    (15.2), "cases"}``. ``offered`` and ``verdict`` are play's: its legal actions and every
    validator of the ``drop`` action."""
    phase = ctx.state.phase or ""
    offered = casebook_legal_actions(ctx, phase, ctx.state.step or "")
    out: dict[str, Any] = {
        "eligible": eligible_units(ctx), "dropped_this_turn": data(ctx)["drops"].get(str(ctx.state.turn)),
        "targets": drop_targets(ctx), "offered": [str(a) for a in offered],
        "on_target": "a roll of 6 (rule drop_outcome); any other roll scatters (15.2, 15.3)",
        "cases": ["15.1A", "15.1B", "15.1C", "15.1D", "15.2"]}
    if unit is not None and hex_ is not None:
        action = Action.make("drop", "soviet", unit=unit, hex=hex_)
        refusals = [{"reason": r.reason, "cases": list(r.cases)}
                    for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in (rs or ())]
        out["verdict"] = {"unit": unit, "hex": hex_, "allowed": not refusals and action in offered,
                          "refusals": refusals}
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
