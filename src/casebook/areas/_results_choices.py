"""The player's choices inside a combat result (a helper of :mod:`._results_stages`), offered as
parameterised actions (src/casebook/core/templates.py): which attacking unit takes a fatigue
result, which units take the losses, any legal retreat path, which attacking units advance and
by which path. The listed actions stay the owner's defaults (bots choose among them); a filled
template is checked here, each refusal naming the cases the game's
:class:`~._results_retreat.ResultsSetup` gives (``cites``: ``fatigue_target``,
``fatigue_template``, ``loss_order``, ``loss_hq_last``, ``loss_eliminated``,
``retreat_template``, ``retreat_path``, ``retreat_losses``, ``hq_alone``, ``advance_with``,
``advance_path``, ``advance_stacking``; a template cites the cases of the refusals it can meet).

- ``negate-fatigue negate=false unit=ID`` — the attacker's fatigue falls on ``unit``, one of
  the attacking combat units.
- ``take-losses units=ID,…`` — the attacker's losses, named as for the defender below.
- ``retreat [path=…] losses=N units=ID,…`` — the first losses fall on the named defending units
  in order (a unit named again takes another; a unit replaced by a counter passes it to the
  replacement); losses not named follow the owner's default. An HQ is named only when no
  combat unit is left to take the loss.
- ``retreat path=HEX,… losses=N [units=ID,…]`` — any legal retreat path, not only the few listed
  per length (:func:`~._results_retreat.path_refusals`): a forced retreat goes its hexes as far
  as possible, a number result the path's length; the losses are the rest.
- ``advance path=HEX,… with=ID,…`` — any of the attacking units, by any advance path, all of
  them within the stacking limits of the hex they end in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.core.actions import Action
from casebook.core.hooks import Refusal
from casebook.core.templates import ActionTemplate

from ._results_losses import apply_loss, distribute_losses, is_hq, steps_left
from ._results_retreat import ResultsSetup, advance_paths, may_advance, path_refusals, shortfall_losses

__all__ = ["templates", "refusals", "allocate_losses", "fatigue_choice", "stack_fits"]


def _alive(ctx: Any, ids: Sequence[str]) -> list[str]:
    return [u for u in ids if ctx.state.has_unit(u)]


def _combat_units(ctx: Any, ids: Sequence[str]) -> list[str]:
    return [u for u in _alive(ctx, ids) if not is_hq(ctx.state.unit(u))]


def _cited(ctx: Any, setup: ResultsSetup, *keys: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c for k in keys for c in setup.cases(k, ctx)))


def _paren(cases: Sequence[str]) -> str:
    return f" ({', '.join(cases)})" if cases else ""


def stack_fits(ctx: Any, hex_: str, movers: list[str]) -> list[str]:
    """The movers that may enter ``hex_`` within the stacking limits (``casebook_stacking``),
    strongest first."""
    kept: list[str] = []
    for u in sorted(movers, key=lambda u: (-int(ctx.state.unit(u).get("strength") or 0), u)):
        present = [x["id"] for x in ctx.state.units_at(hex_)]
        answer = ctx.hook.casebook_stacking(ctx=ctx, hex=hex_, units=present + kept + [u])
        if answer is None or not answer.get("overstacked"):
            kept.append(u)
    return kept


def templates(ctx: Any, setup: ResultsSetup, rec: Mapping[str, Any], stage: Mapping[str, Any],
              listed: Sequence[Action]) -> list[ActionTemplate]:
    """The templates of the pending ``stage`` of the combat record ``rec``, built on its
    ``listed`` actions (see the module docstring)."""
    c, out = rec["combat"], []
    loss_cases = _cited(ctx, setup, "loss_order", "loss_eliminated", "loss_hq_last")
    hq_last = f"HQs last{_paren(setup.cases('loss_hq_last'))}"
    if stage["type"] == "fatigue" and stage.get("who") == "attacker":
        units = _combat_units(ctx, c["attackers"])
        declined = next((a for a in listed if a.kind == "negate-fatigue" and a.get("negate") is False), None)
        if len(units) > 1 and declined is not None:
            out.append(ActionTemplate.of(declined, {"unit": f"ID, one of {','.join(units)}"},
                                         setup.cases("fatigue_template")))
    elif stage["type"] == "attacker_losses":
        units = _alive(ctx, c["attackers"])
        hint = f"ID,… up to {stage['n']} of {','.join(units)} in order, a unit once per loss; {hq_last}"
        out += [ActionTemplate.of(a, {"units": hint}, loss_cases) for a in listed if a.kind == "take-losses"]
    if stage["type"] == "defender":
        out += _path_templates(ctx, setup, rec, stage, listed)
    if stage["type"] == "defender" and not stage.get("hq_alone"):
        units = _alive(ctx, c["defenders"])
        for a in listed:
            if a.kind == "retreat" and not a.get("hold") and int(a.get("losses", 0)) > 0 and len(units) > 1:
                hint = f"ID,… up to {a.get('losses')} of {','.join(units)} in order, a unit once per loss; {hq_last}"
                out.append(ActionTemplate.of(a, {"units": hint}, loss_cases))
    elif stage["type"] == "advance":
        movers = _alive(ctx, c["attackers"])
        example = next((a for a in listed if a.kind == "advance" and not a.get("hold")), None)
        if example is None and movers:  # none listed (none fits the stacking limits): still the player's to ask
            example = Action.make("advance", stage["side"], path=[c["hex"]], **{"with": movers})
        if example is not None:
            free = {"with": f"ID,… any of {','.join(movers)}{_paren(setup.cases('advance_with', ctx))}",
                    "path": "HEX,… an advance path: the cleared hex first, as far as the defenders retreated"
                            + _paren(setup.cases("advance_path"))}
            out.append(ActionTemplate.of(example, free, _cited(ctx, setup, "advance_with", "advance_stacking",
                                                               "advance_path")))
    return out


def _path_templates(ctx: Any, setup: ResultsSetup, rec: Mapping[str, Any], stage: Mapping[str, Any],
                    listed: Sequence[Action]) -> list[ActionTemplate]:
    """Any legal retreat path, not only the few listed per length: ``retreat path=<…>
    losses=<…> [units=<…>]``, the example being the first listed retreat with a path."""
    example = next((a for a in listed if a.kind == "retreat" and a.get("path") and not a.get("hold")), None)
    if example is None:
        return []
    n = int(stage["n"])
    hexes = "1 hex" if n == 1 else f"{n} hexes"
    how = f"exactly {hexes}, or as far as possible" if stage["forced"] else f"up to {hexes}, as you choose"
    free = {"path": (f"HEX,… a retreat path from {rec['combat']['hex']}, {how}{_paren(setup.cases('retreat_path', ctx))};"
                     " ask retreat lists them, best first"),
            "losses": f"{n} minus the hexes of the path{_paren(setup.cases('retreat_losses', ctx))}"}
    if not stage.get("hq_alone"):
        free["units"] = "ID,… who takes the losses, as below (optional)"
    return [ActionTemplate.of(example, free, setup.cases("retreat_template", ctx))]


def _retreat_refusals(ctx: Any, setup: ResultsSetup, rec: Mapping[str, Any], stage: Mapping[str, Any],
                      action: Action) -> list[Refusal]:
    """A filled ``retreat``'s path and losses: the path judged by ``path_refusals`` for the
    retreat the result demands (forced: its hexes, as far as possible) or the player chose (a
    number: the path's own length); the losses the hexes not retreated, and those the
    ``retreat_shortfall_losses`` lines add for a retreat cut short."""
    c = rec["combat"]
    path = [] if action.get("path") is None else _ids(action.get("path"))
    if path is None:
        return [Refusal("path must name hexes", setup.cases("retreat_path", ctx), setup.plugin)]
    n = int(stage["n"])
    hexes = n if stage["forced"] else min(len(path), n)
    found = path_refusals(ctx, setup, _alive(ctx, c["defenders"]), c["hex"], stage["side"], path, hexes,
                          c["attackers"])
    if found:
        return found
    losses = action.get("losses")
    due = n - hexes + shortfall_losses(ctx, hexes - len(path))
    if isinstance(losses, bool) or losses != due:
        return [Refusal(f"losses={losses}: a result of {n} retreated {len(path)} hexes leaves "
                        f"losses={due}", setup.cases("retreat_losses", ctx), setup.plugin)]
    if stage.get("hq_alone") and action.get("units") is not None:
        return [Refusal("HQs alone retreat or are eliminated together: no units to name", setup.cases("hq_alone"),
                        setup.plugin)]
    return []


def _ids(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def refusals(ctx: Any, setup: ResultsSetup, rec: Mapping[str, Any], stage: Mapping[str, Any],
             action: Action) -> list[Refusal]:
    """Why the filled template ``action`` is not a legal choice for the pending ``stage``
    (``[]`` when it is); each refusal names the game's cases."""
    c, out = rec["combat"], []

    def bad(reason: str, key: str, *more: str) -> None:
        out.append(Refusal(reason, (*setup.cases(key, ctx), *more), setup.plugin))
    if action.kind == "negate-fatigue":
        uid = action.get("unit")
        if uid not in _combat_units(ctx, c["attackers"]):
            bad(f"{uid!r} is not an attacking combat unit of this combat: the fatigue falls on one of them",
                "fatigue_target")
    elif action.kind == "take-losses":
        named = _ids(action.get("units"))
        if named is None:
            bad("units must name attacking units", "loss_order")
            return out
        _check_losses(ctx, c["attackers"], named, int(stage["n"]), bad)
    elif action.kind == "retreat":
        out += _retreat_refusals(ctx, setup, rec, stage, action)
        if out or action.get("units") is None:
            return out
        named = _ids(action.get("units"))
        if named is None:
            bad("units must name defending units", "loss_order")
            return out
        _check_losses(ctx, c["defenders"], named, int(action.get("losses", 0)), bad)
    elif action.kind == "advance":
        movers, path = _ids(action.get("with")), _ids(action.get("path"))
        attackers = _alive(ctx, c["attackers"])
        if not movers or any(m not in attackers for m in movers) or len(set(movers)) != len(movers):
            bad(f"with must name attacking units of this combat, each once: {','.join(attackers)}", "advance_with")
        held = [m for m in movers or () if m in attackers and not may_advance(ctx, setup, m)]
        if held:
            bad(f"{','.join(held)} cannot advance: a line of advance_unit forbids it", "advance_unit")
        paths = advance_paths(ctx, c["attacker_side"], c["hex"], rec.get("retreated", 0), stage["eliminated"])
        if path not in paths:
            longest = max(len(p) for p in paths)
            bad(f"not an advance path: the first hex is {c['hex']}, at most {longest} hexes, never into an enemy "
                "unit, stopping on entering an EZOC", "advance_path")
        elif movers and not out:
            present = [u["id"] for u in ctx.state.units_at(path[-1])]
            answer = ctx.hook.casebook_stacking(ctx=ctx, hex=path[-1], units=present + movers)
            if answer is not None and answer.get("overstacked"):
                bad(f"{','.join(movers)} would overstack {path[-1]}: the advance is within the stacking limits",
                    "advance_stacking", *answer.get("cases", ()))
    return out


def _check_losses(ctx: Any, units: Sequence[str], named: list[str], losses: int, bad: Any) -> None:
    """The named loss order against the force: at most ``losses`` names, each a unit of the force
    (``units``) with a loss left to take when its turn comes, an HQ only when no combat unit is left."""
    force = _alive(ctx, units)
    left = {u: steps_left(ctx, ctx.state.unit(u)) for u in force}
    if len(named) > losses:
        bad(f"{len(named)} units named for {losses} losses", "loss_order")
    for uid in named:
        if uid not in left:
            bad(f"{uid!r} is not a unit of this force: {','.join(force)}", "loss_order")
            return
        combat_left = [u for u in force if not is_hq(ctx.state.unit(u)) and left[u] > 0]
        if is_hq(ctx.state.unit(uid)):
            if combat_left:
                bad(f"HQ {uid} takes a loss only after the combat units it is stacked with", "loss_hq_last")
                return
            continue
        if left[uid] <= 0:
            bad(f"{uid} is eliminated by the losses named before it", "loss_eliminated")
            return
        left[uid] -= 1


def allocate_losses(ctx: Any, units: Sequence[str], named: Sequence[str], n: int) -> list[dict[str, Any]]:
    """Apply ``n`` losses to the force ``units``: the first to the ``named`` units in order (a
    unit replaced by a counter passes the next loss named for it to the replacement), the rest
    by the owner's default (:func:`~._results_losses.distribute_losses`). Returns the loss events."""
    events: list[dict[str, Any]] = []
    force, alias = list(units), dict[str, str]()
    for uid in list(named)[:n]:
        uid = alias.get(uid, uid)
        if not ctx.state.has_unit(uid):
            events += distribute_losses(ctx, force, 1)
            continue
        events.append(apply_loss(ctx, uid))
        if events[-1].get("remnant"):
            alias[uid] = events[-1]["remnant"]
            force.append(events[-1]["remnant"])
    rest = n - min(n, len(named))
    return events + (distribute_losses(ctx, force, rest) if rest else [])


def fatigue_choice(action: Action | None, default: list[str]) -> list[str]:
    """The attacking unit a fatigue result falls on: the one named by a declined
    ``negate-fatigue unit=ID``, else the owner's default."""
    if action is not None and not action.get("negate") and isinstance(action.get("unit"), str):
        return [action.get("unit")]
    return default
