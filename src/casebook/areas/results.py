"""Shared rules area ``area_results``: applying a CRT result of the shared ``combat`` area —
step losses of two-step units, elimination, retreats of N hexes towards the side's map edge,
exchanges and the advance after combat — configured by the game's data.

What each result code does is a row of the game's records table ``crt_results`` (one row per
code the CRT holds: ``attacker_steps``, ``defender_steps``, ``defender_eliminated``, ``exchange``
— the attacker loses at least the printed strength the defender lost —, ``retreat``,
``advance``, and the ``cases`` the result cites); every unit's full and reduced strengths are
rows of ``unit_steps`` (``unit``, ``full``, ``reduced``). The rule scripts give the rest:
quantity ``retreat_hexes`` (fact ``side``) and ``stacking_limit``; the cases of permissions
``lose_step`` (a full unit flips, a reduced one is eliminated), ``retreat_into_enemy_hex`` and
``retreat_into_ezoc`` (forbid: a retreat enters neither; a unit without a retreat is
eliminated), ``advance_after_combat`` (forbid it to have no advance) and, for an exchange,
``exchange_at_printed_strength`` (the lines that fire are cited). The area holds no case id.

The choices the rules leave to a player are decisions of the combat step: ``take-loss unit=ID``,
``retreat path=HEX,HEX`` (the defender) and ``advance path=HEX with=ID`` / ``advance hold=true``.
Outside the combat step every choice follows the bots' policy (the cheapest loss that covers,
the retreat nearest the friendly edge, the strongest unit advances). Public API:
:func:`steps_of`, :func:`step_loss`, :func:`retreat_paths`, :func:`retreat_refusal`,
:func:`options`, :func:`run`, :func:`apply_result` (retreats: :mod:`casebook.areas.retreat`). Answers ``casebook ask … retreat UNIT``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hooks import Refusal, hookimpl

from ._zoc_cites import line_cases
from .retreat import retreat_cases, retreat_paths, retreat_refusal

__all__ = ["STATE_SCHEMA", "REQUIRES", "STEPS", "QUESTIONS", "TABLES", "result_row", "row_noted", "steps_of", "step_loss", "retreat_paths",
           "retreat_refusal", "options", "run", "start", "apply_result", "awaiting"]

QUESTIONS = {"retreat": "retreat UNIT — the legal retreat paths of UNIT, best first, or why it would be eliminated"}
PLUGIN = "area_results"
#: The records tables this area reads (``casebook cases`` counts the cases their values cite).
TABLES = ("crt_results", "unit_steps")
#: What the pack must hold for this area (src/casebook/content/requires.py).
REQUIRES = {"tables": list(TABLES), "quantities": ["retreat_hexes"]}
#: The sequence steps this area acts in: none of its own (it applies the results of combat).
STEPS: tuple[str, ...] = ()
#: The plugin_state key of a result awaiting a player's choice: the `combat` area offers no
#: attack while ``plugin_state.results.queue`` is not empty.
STATE_KEY = "results"
_CHOICES = ("take-loss", "retreat", "advance")
_STAGE_CHOICE = {"attacker_loss": "take-loss", "retreat": "retreat", "advance": "advance"}


def result_row(ctx: Any, code: str) -> Mapping[str, Any]:
    """The ``crt_results`` row of result ``code``; ValueError naming the codes if absent."""
    rows = {str(r["result"]): r for r in ctx.records("crt_results")}
    if code not in rows:
        raise ValueError(f"CRT result {code!r} is not one of {', '.join(rows)} (tables: crt_results)")
    return rows[code]


def steps_of(ctx: Any, uid: str) -> dict[str, int]:
    """``{"full", "reduced"}`` printed strengths of a unit (records ``unit_steps``)."""
    unit = ctx.state.unit(uid)
    key = unit.get("counter") or uid
    for row in ctx.records("unit_steps"):
        if row["unit"] == key:
            return {"full": int(row["full"]), "reduced": int(row["reduced"])}
    raise KeyError(f"no unit_steps row for {key!r}")


def _loss_value(ctx: Any, uid: str) -> int:
    """Printed strength a step loss costs the unit now (full minus reduced, or all of a reduced one)."""
    s, strength = steps_of(ctx, uid), int(ctx.state.unit(uid).get("strength") or 0)
    return strength - s["reduced"] if strength > s["reduced"] else strength


def step_loss(ctx: Any, uid: str, cases: Sequence[str]) -> dict[str, Any]:
    """A full unit flips to its reduced side; a reduced unit is eliminated (taken off the map),
    citing ``lose_step`` and ``cases``. Returns ``{"unit", "lost": printed strength, "eliminated"}``."""
    unit = ctx.state.unit(uid)
    lost, s = _loss_value(ctx, uid), steps_of(ctx, uid)
    side, hex_ = unit["side"], unit.get("hex")
    cited = [*line_cases(ctx, ("lose_step",)), *cases]
    if int(unit.get("strength") or 0) > s["reduced"]:
        ctx.state.update_unit(uid, strength=s["reduced"])
        ctx.record("step-loss", cited, {"unit": uid, "hex": hex_, "strength": s["reduced"]},
                   source=f"{PLUGIN}.step_loss", side=side)
        return {"unit": uid, "lost": lost, "eliminated": False}
    ctx.state.update_unit(uid, hex=None)
    ctx.record("eliminated", cited, {"unit": uid, "hex": hex_}, source=f"{PLUGIN}.step_loss", side=side)
    return {"unit": uid, "lost": lost, "eliminated": True}


def _alive(ctx: Any, ids: Sequence[str]) -> list[str]:
    return [a for a in ids if ctx.state.has_unit(a) and ctx.state.unit(a).get("hex")]


def _stages(row: Mapping[str, Any], defenders: list[str]) -> list[dict[str, Any]]:
    """The steps of applying a ``crt_results`` row, in order; the advance is judged at the end."""
    out: list[dict[str, Any]] = [{"kind": "attacker_loss", "owed": 0} for _ in range(int(row.get("attacker_steps") or 0))]
    if row.get("defender_eliminated"):
        out += [{"kind": "eliminate", "unit": d} for d in defenders]
    out += [{"kind": "defender_loss", "unit": d} for d in defenders for _ in range(int(row.get("defender_steps") or 0))]
    if row.get("exchange"):
        out.append({"kind": "attacker_loss", "owed": None})      # set from the defender's loss
    if row.get("retreat"):
        out += [{"kind": "retreat", "unit": d} for d in defenders]
    if row.get("advance"):
        out.append({"kind": "advance"})
    return out


def options(ctx: Any, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> list[Action]:
    """The choices a stage of result record ``rec`` leaves to a player, the bots' policy first;
    empty when there is nothing to choose (the stage is applied as it stands)."""
    a_side, d_side = rec["attacker_side"], rec["defender_side"]
    kind = stage["kind"]
    if kind == "attacker_loss":
        owed = int(stage.get("owed") or 0)
        values = sorted((_loss_value(ctx, a), a) for a in _alive(ctx, rec["attackers"]))
        covering = [v for v in values if v[0] >= owed]
        first = covering[:1] if covering else values[-1:]
        return [Action.make("take-loss", a_side, unit=a) for _, a in first + [v for v in values if v not in first]]
    if kind == "retreat" and ctx.state.has_unit(stage["unit"]) and ctx.state.unit(stage["unit"]).get("hex"):
        return [Action.make("retreat", d_side, path=p) for p in retreat_paths(ctx, stage["unit"])]
    if kind == "advance" and not ctx.state.units_at(rec["hex"]) and ctx.allowed("advance_after_combat", {}):
        alive = sorted(_alive(ctx, rec["attackers"]), key=lambda a: (-int(ctx.state.unit(a).get("strength") or 0), a))
        if alive:
            return [Action.make("advance", a_side, path=[rec["hex"]], **{"with": [a]}) for a in alive] \
                + [Action.make("advance", a_side, hold=True)]
    return []


def row_noted(ctx: Any, code: str) -> None:
    """Note the ``crt_results`` row of result ``code`` — its ``file:line``, or the erratum's that
    set or added it — for the next trace event (an event applying the result names the row that
    says what it does) and for an ``ask`` answer being recorded."""
    if ctx.trace is not None:
        found = ctx.pack.table_lines.row("crt_results", result_row(ctx, code))
        if found is not None:
            ctx.note_lines((found,))


def _apply_stage(ctx: Any, rec: dict[str, Any], stage: dict[str, Any], action: Action | None) -> bool:
    """Apply one stage with the chosen ``action`` (None: nothing to choose); True when done. Each
    event it records names the ``crt_results`` row of the result (:func:`row_noted`)."""
    cases, kind = rec["cases"], stage["kind"]
    if kind == "eliminate":
        unit = stage["unit"]
        if ctx.state.unit(unit).get("hex"):
            rec["lost"] += _loss_value(ctx, unit)
            ctx.state.update_unit(unit, hex=None)
            row_noted(ctx, rec["code"])
            ctx.record("eliminated", cases, {"unit": unit, "hex": rec["hex"]}, source=f"{PLUGIN}.apply",
                       side=rec["defender_side"])
        return True
    if kind == "defender_loss":
        if ctx.state.unit(stage["unit"]).get("hex"):
            row_noted(ctx, rec["code"])
            rec["lost"] += step_loss(ctx, stage["unit"], cases)["lost"]
        return True
    if kind == "attacker_loss":
        if stage.get("owed") is None:
            stage["owed"] = rec["lost"]                         # an exchange: at least the defender's loss
            if stage["owed"] <= 0:
                return True
        if action is None:
            return True
        row_noted(ctx, rec["code"])
        stage["owed"] = int(stage["owed"]) - step_loss(ctx, str(action.get("unit")), cases)["lost"]
        return stage["owed"] <= 0 or not _alive(ctx, rec["attackers"])
    if kind == "retreat":
        unit = stage["unit"]
        if not ctx.state.has_unit(unit) or not ctx.state.unit(unit).get("hex"):
            return True
        start_hex = ctx.state.unit(unit)["hex"]
        if action is None:
            ctx.state.update_unit(unit, hex=None)
            row_noted(ctx, rec["code"])
            ctx.record("eliminated", [*retreat_cases(ctx), *cases],
                       {"unit": unit, "hex": start_hex, "reason": "cannot retreat"},
                       source=f"{PLUGIN}.retreat", side=rec["defender_side"])
            return True
        path = list(action.get("path"))
        ctx.state.move_unit(unit, path[-1])
        length = ctx.quantity("retreat_hexes", {"side": rec["defender_side"]}).cases
        row_noted(ctx, rec["code"])
        ctx.record("retreat", list(dict.fromkeys([*length, *retreat_cases(ctx)])) + list(cases),
                   {"unit": unit, "from": start_hex, "path": path},
                   source=f"{PLUGIN}.retreat", side=rec["defender_side"])
        return True
    if kind == "advance" and action is not None and not action.get("hold"):
        mover = str(action.get("with")[0])
        start_hex = ctx.state.unit(mover)["hex"]
        ctx.state.move_unit(mover, rec["hex"])
        row_noted(ctx, rec["code"])
        ctx.record("advance", list(line_cases(ctx, ("advance_after_combat",))),
                   {"unit": mover, "from": start_hex, "to": rec["hex"]},
                   source=f"{PLUGIN}.advance", side=rec["attacker_side"])
    return True


def run(ctx: Any, rec: dict[str, Any], interactive: bool, choice: Action | None = None) -> dict[str, Any]:
    """Apply the stages of ``rec`` in order. A stage with a choice waits for its player when
    ``interactive`` (the record is kept in ``plugin_state.results`` as ``queue``, the contract
    the combat area reads); otherwise the first option (the policy) is taken."""
    while rec["stages"]:
        stage = rec["stages"][0]
        if stage["kind"] == "attacker_loss" and stage.get("owed") is None:
            _apply_stage(ctx, rec, stage, None)                 # fix what is owed first
            if stage["owed"] <= 0:
                rec["stages"].pop(0)
                continue
        opts = options(ctx, rec, stage)
        if choice is None and interactive and len(opts) > 1:
            ctx.state.set_plugin_data(STATE_KEY, {"queue": [rec]})
            ctx.changed()
            return {**rec, "pending": True}
        action, choice = (choice if choice is not None else (opts[0] if opts else None)), None
        if _apply_stage(ctx, rec, stage, action):
            rec["stages"].pop(0)
        ctx.changed()
    ctx.state.set_plugin_data(STATE_KEY, None)
    return {**rec, "pending": False}


def start(ctx: Any, outcome: Mapping[str, Any], defenders: list[str]) -> dict[str, Any]:
    """A result record for ``outcome``'s CRT cell (the combat area's answer): its row's cases,
    and for an exchange the fired lines of ``exchange_at_printed_strength``."""
    code = str(outcome["result"])
    row = result_row(ctx, code)
    cases = [str(c) for c in row.get("cases") or ()]
    if row.get("exchange"):
        cases += [c for c in ctx.permission("exchange_at_printed_strength", {}).cases if c not in cases]
    return {"code": code, "cases": cases, "hex": str(outcome["hex"]),
            "attackers": list(outcome["attackers"]), "defenders": defenders, "lost": 0,
            "attacker_side": outcome.get("attacker_side"), "defender_side": outcome.get("defender_side"),
            "stages": _stages(row, defenders)}


def apply_result(ctx: Any, outcome: Mapping[str, Any], interactive: bool = False) -> dict[str, Any]:
    """Apply the CRT cell of ``outcome`` (the combat area's answer): losses, exchange, retreat,
    advance. Without ``interactive`` every choice follows the policy (:func:`options` order)."""
    defenders = [u["id"] for u in ctx.state.units_at(str(outcome["hex"]))]
    return run(ctx, start(ctx, outcome, defenders), interactive)


def awaiting(ctx: Any) -> bool:
    """Whether a combat result awaits a player's choice (the queue of the result in progress)."""
    return _pending(ctx) is not None


def _pending(ctx: Any) -> dict[str, Any] | None:
    queue = (ctx.state.plugin_data(STATE_KEY) or {}).get("queue") or []
    return queue[0] if queue else None


def _awaits(ctx: Any, choice: str) -> tuple[str, tuple[str, ...]]:
    """What a choice answers and the cases of the results that ask it (the ``crt_results`` rows)."""
    rows = ctx.records("crt_results")
    if choice == "take-loss":
        cases = [c for r in rows if r.get("attacker_steps") or r.get("exchange") for c in r.get("cases") or ()]
        return "an attacking unit's step loss", tuple(dict.fromkeys(cases))
    if choice == "retreat":
        cases = [c for r in rows if r.get("retreat") for c in r.get("cases") or ()]
        return "the defender's retreat", tuple(dict.fromkeys(cases))
    return "an advance after combat", tuple(line_cases(ctx, ("advance_after_combat",)))


# ------------------------------------------------------------------------------------- hooks
@hookimpl(wrapper=True)
def casebook_combat(ctx, attackers, hex, kind, support):
    outcome = yield
    if outcome is None or "result" not in outcome:
        return outcome
    interactive = bool((ctx.state.plugin_data("combat") or {}).get("interactive"))
    return {**outcome, "applied": apply_result(ctx, outcome, interactive)}


@hookimpl(tryfirst=True)
def casebook_decider(ctx, phase, step):
    rec = _pending(ctx)
    if not rec:
        return None
    return rec["defender_side"] if rec["stages"][0]["kind"] == "retreat" else rec["attacker_side"]


@hookimpl
def casebook_legal_actions(ctx, phase, step):
    rec = _pending(ctx)
    return options(ctx, rec, rec["stages"][0]) if rec else []


@hookimpl
def casebook_validate_action(ctx, action):
    if action.kind not in _CHOICES:
        return []
    rec = _pending(ctx)
    stage = rec["stages"][0] if rec else None
    what, cases = _awaits(ctx, action.kind)
    if rec is None or stage is None or _STAGE_CHOICE.get(stage["kind"]) != action.kind:
        return [Refusal(f"no combat result awaits {what} now", cases, PLUGIN)]
    if action in options(ctx, rec, stage):
        return []
    path = action.get("path")
    if action.kind == "retreat" and path:
        return [retreat_refusal(ctx, stage["unit"], [path] if isinstance(path, str) else list(path))]
    return [Refusal(f"{action} is not one of the choices of {what}", cases, PLUGIN)]


@hookimpl(wrapper=True, specname="casebook_validate_action")
def casebook_validate_retreat(ctx, action):
    """A retreat is judged by this area alone (:func:`retreat_refusal`): the shared `zoc` area's
    refusal of retreats (e.g. Moscow '41 7.5A: an EZOC may be entered where a friendly combat unit
    stands) is not the rule of the games that use this area, so it is left out."""
    results = yield
    if action.kind != "retreat":
        return results
    return [[r for r in (rs or ()) if r.source != "zoc"] for rs in results]


@hookimpl
def casebook_apply_action(ctx, action):
    rec = _pending(ctx) if action.kind in _CHOICES else None
    return None if rec is None else run(ctx, rec, True, action)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question != "retreat":
        return None
    if len(args) != 1 or not ctx.state.has_unit(args[0]) or not ctx.state.unit(args[0]).get("hex"):
        from casebook.content.schema import did_you_mean

        hint = did_you_mean(args[0], [u["id"] for u in ctx.state.units if u.get("hex")]) if len(args) == 1 else ""
        raise QuestionError("usage: " + QUESTIONS["retreat"] + " (UNIT must be on the map)"
                            + (f": no unit {args[0]!r} on the map{hint}" if len(args) == 1 else ""))
    side = ctx.state.unit(args[0])["side"]
    paths = retreat_paths(ctx, args[0])
    q, limit = ctx.quantity("retreat_hexes", {"side": side}), ctx.quantity("stacking_limit", {"side": side})
    return {"unit": args[0], "hexes": int(q.value), "paths": paths, "eliminated_if_retreating": not paths,
            "cases": list(dict.fromkeys([*q.cases, *retreat_cases(ctx), *limit.cases]))}


class _Stage(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    kind: str
    unit: str
    owed: Annotated[int, Field(ge=0)] | None


class _Result(TypedDict, total=False):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    code: str
    cases: list[str]
    hex: str
    attackers: list[str]
    defenders: list[str]
    lost: Annotated[int, Field(ge=0)]
    attacker_side: str | None
    defender_side: str | None
    stages: list[_Stage]


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.results`` (``STATE_KEY``): the combat result awaiting a player's choice
    (:func:`start`), its stages still to run (see :func:`run`)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    queue: list[_Result]
