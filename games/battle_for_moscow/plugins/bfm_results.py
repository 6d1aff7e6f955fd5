"""Battle for Moscow rules plugin ``bfm_results``: applying a CRT result (BM8.5-BM8.8) — step losses
of two-step units (BM3.1), retreats (BM8.6), exchanges (BM8.5E, BM8.8B) and the advance after combat (BM8.7).

It wraps ``casebook_combat`` (the shared ``combat`` plugin assesses the odds, shifts columns,
rolls one die and reads the CRT; this plugin applies the cell). The choices the rules leave to a
player are decisions of the combat step: ``take-loss unit=ID`` (which attacking unit loses a step,
BM8.5A, BM8.5E), ``retreat path=HEX,HEX`` (the defender, BM8.6) and ``advance path=HEX with=ID`` or
``advance hold=true`` (BM8.7). Called outside the combat step (``ask``, tests) every choice follows
the policy that orders the options (the cheapest loss that covers, the retreat nearest the
friendly edge, the strongest unit advances). Answers ``casebook ask … retreat UNIT``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.core.actions import Action
from casebook.core.cases import implements
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal, hookimpl

__all__ = ["STATE_SCHEMA", "REQUIRES", "QUESTIONS", "steps_of", "step_loss", "retreat_paths", "options", "run", "apply_result"]
#: What the pack must hold for this plugin (src/casebook/core/requires.py).
REQUIRES = {"tables": ["unit_steps"], "quantities": ["retreat_hexes"]}

QUESTIONS = {"retreat": "retreat UNIT — the legal retreat paths of UNIT, best first, or why it "
                        "would be eliminated (BM8.6A-B)",
             # this game's words for the questions of the shared combat and zoc plugins (ask --help)
             "attack": "attack HEX --with UNIT,UNIT… [--roll N] — odds, column shifts and every outcome of an "
                       "attack (BM8.1-BM8.5)",
             "zoc": "zoc HEX [--for UNIT] — the enemy ZOC in HEX: who exerts it, and its effect on moves, "
                    "communication and retreats (BM6.1-BM6.3, BM9.4, BM8.6B)"}
PLUGIN = "bfm_results"
#: The plugin_state key of a result awaiting a player's choice: the `combat` plugin offers no
#: attack while ``plugin_state.results.queue`` is not empty (the same contract as Moscow '41's).
STATE_KEY = "results"
_CHOICES = ("take-loss", "retreat", "advance")
#: result code -> the cases it cites (BM8.5A-F; BM8.6A for the retreats, BM8.8B for the exchange
#: in mud).
_RESULTS: dict[str, tuple[str, ...]] = {
    "AL": ("BM8.5A",), "DR": ("BM8.5B", "BM8.6A"), "DRL": ("BM8.5C", "BM8.6A"), "DE": ("BM8.5D",),
    "EX": ("BM8.5E", "BM8.8B"), "NE": ("BM8.5F",),
}


@implements("BM3.1A")
def steps_of(ctx: Any, uid: str) -> dict[str, int]:
    """``{"full", "reduced"}`` printed strengths of a unit (tables/unit_steps.yaml, BM3.1A)."""
    unit = ctx.state.unit(uid)
    key = unit.get("counter") or uid
    for row in ctx.records("unit_steps"):
        if row["unit"] == key:
            return {"full": int(row["full"]), "reduced": int(row["reduced"])}
    raise KeyError(f"no unit_steps row for {key!r}")


def _loss_value(ctx: Any, uid: str) -> int:
    """Printed strength a step loss costs the unit now (BM8.8B: printed, never the mud half)."""
    s, strength = steps_of(ctx, uid), int(ctx.state.unit(uid).get("strength") or 0)
    return strength - s["reduced"] if strength > s["reduced"] else strength


@implements("BM3.1B")
def step_loss(ctx: Any, uid: str, cases: Sequence[str]) -> dict[str, Any]:
    """A full unit flips to its reduced side; a reduced unit is eliminated (taken off the map:
    it may come back through replacements, BM9.2). Returns ``{"unit", "lost", "eliminated"}``."""
    unit = ctx.state.unit(uid)
    lost = _loss_value(ctx, uid)
    s = steps_of(ctx, uid)
    side, hex_ = unit["side"], unit.get("hex")
    if int(unit.get("strength") or 0) > s["reduced"]:
        ctx.state.update_unit(uid, strength=s["reduced"])
        ctx.record("step-loss", ["BM3.1B", *cases], {"unit": uid, "hex": hex_, "strength": s["reduced"]},
                   source=f"{PLUGIN}.step_loss", side=side)
        return {"unit": uid, "lost": lost, "eliminated": False}
    ctx.state.update_unit(uid, hex=None)
    ctx.record("eliminated", ["BM3.1B", *cases], {"unit": uid, "hex": hex_}, source=f"{PLUGIN}.step_loss", side=side)
    return {"unit": uid, "lost": lost, "eliminated": True}


def _ezoc(ctx: Any, hex_: str, side: str) -> bool:
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    return bool(answer and answer.get("exerted_by"))


@implements("BM8.6A", "BM8.6B")
def retreat_paths(ctx: Any, uid: str) -> list[list[str]]:
    """The legal retreats of ``uid``, best first: ``retreat_hexes`` hexes (BM8.6A), each entered
    hex on the map, free of enemy units and enemy ZOC (BM8.6B), ending that many hexes from the
    start in an empty hex (BM7.1; interpretation retreat-path). Order (the owner's choice, bots'
    policy): nearest the side's friendly map edge, then by labels. Empty: the unit is eliminated."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    n = int(ctx.value("retreat_hexes", {"side": side}))
    grid = ctx.board.grid
    paths: list[list[str]] = []

    def walk(path: list[str]) -> None:
        here = parse_hex(path[-1])
        if len(path) == n + 1:
            if grid.distance(parse_hex(start), here) == n and not ctx.state.units_at(path[-1]):
                paths.append(path[1:])
            return
        for nb in ctx.board.neighbours(here):
            label = hex_label(nb)
            if label in path or any(u.get("side") != side for u in ctx.state.units_at(label)):
                continue
            if _ezoc(ctx, label, side):
                continue
            walk(path + [label])

    walk([start])
    edge = {hex_label(h) for h in ctx.board.edge_hexes(_edge(ctx, side))}

    def key(p: list[str]) -> tuple:
        end = parse_hex(p[-1])
        return (min((grid.distance(end, parse_hex(e)) for e in edge), default=0), p)

    return sorted({tuple(p): p for p in paths}.values(), key=key)


@implements("BM8.6A", "BM8.6B", "BM7.1")
def retreat_refusal(ctx: Any, uid: str, path: Sequence[str]) -> Refusal:
    """Why ``path`` is not a retreat of ``uid``, in Battle for Moscow's terms: its length and end
    (BM8.6A), an enemy unit or enemy ZOC entered (BM8.6B), an occupied last hex (BM7.1)."""
    unit = ctx.state.unit(uid)
    side, start = unit["side"], unit["hex"]
    n = int(ctx.value("retreat_hexes", {"side": side}))
    grid, hexes = ctx.board.grid, [start, *path]
    for before, here in zip(hexes, hexes[1:]):
        try:
            adjacent = ctx.board.contains(parse_hex(here)) and grid.distance(parse_hex(before), parse_hex(here)) == 1
        except ValueError:
            adjacent = False
        if not adjacent:
            return Refusal(f"a retreat moves hex by hex on the map: {here} is not a hex next to {before}",
                           ("BM8.6A",), PLUGIN)
        enemy = [u["id"] for u in ctx.state.units_at(here) if u.get("side") != side]
        if enemy:
            return Refusal(f"{uid} may not retreat into {here}: enemy unit {', '.join(enemy)} is there",
                           ("BM8.6B",), PLUGIN)
        zoc = ctx.hook.casebook_zoc(ctx=ctx, hex=here, side=side) or {}
        if zoc.get("exerted_by"):
            return Refusal(f"{uid} may not retreat into {here}: it is in the ZOC of enemy unit "
                           f"{', '.join(zoc['exerted_by'])}", ("BM8.6B",), PLUGIN)
    if len(path) != n or grid.distance(parse_hex(start), parse_hex(hexes[-1])) != n:
        return Refusal(f"{uid} retreats {n} hexes, ending {n} hexes from {start}; {','.join(path)} does not",
                       ("BM8.6A",), PLUGIN)
    held = [u["id"] for u in ctx.state.units_at(hexes[-1]) if u["id"] != uid]
    if held:
        return Refusal(f"a retreat may not end on another unit ({', '.join(held)} in {hexes[-1]})",
                       ("BM7.1", "BM8.6A"), PLUGIN)
    return Refusal(f"{','.join(path)} is not one of {uid}'s retreats", ("BM8.6A", "BM8.6B"), PLUGIN)


def _alive(ctx: Any, ids: Sequence[str]) -> list[str]:
    return [a for a in ids if ctx.state.has_unit(a) and ctx.state.unit(a).get("hex")]


def _stages(code: str, defenders: list[str]) -> list[dict[str, Any]]:
    """The steps of applying ``code``, in order (BM8.5A-F); the advance is judged at the end."""
    out: list[dict[str, Any]] = []
    if code == "AL":
        out.append({"kind": "attacker_loss", "owed": 0})
    if code == "DE":
        out += [{"kind": "eliminate", "unit": d} for d in defenders]
    if code in ("DRL", "EX"):
        out += [{"kind": "defender_loss", "unit": d} for d in defenders]
    if code == "EX":
        out.append({"kind": "attacker_loss", "owed": None})      # set from the defender's loss
    if code in ("DR", "DRL", "EX"):
        out += [{"kind": "retreat", "unit": d} for d in defenders]
    if code != "NE":
        out.append({"kind": "advance"})
    return out


@implements("BM8.5A", "BM8.5E", "BM8.8B", "BM8.6A", "BM8.6B", "BM8.7")
def options(ctx: Any, rec: Mapping[str, Any], stage: Mapping[str, Any]) -> list[Action]:
    """The choices a stage leaves to a player, the bots' policy first; empty when there is
    nothing to choose (the stage is applied as it stands)."""
    a_side, d_side = rec["attacker_side"], rec["defender_side"]
    kind = stage["kind"]
    if kind == "attacker_loss":
        alive = _alive(ctx, rec["attackers"])
        owed = int(stage.get("owed") or 0)
        values = sorted((_loss_value(ctx, a), a) for a in alive)
        covering = [v for v in values if v[0] >= owed]
        first = covering[:1] if covering else values[-1:]
        ordered = first + [v for v in values if v not in first]
        return [Action.make("take-loss", a_side, unit=a) for _, a in ordered]
    if kind == "retreat" and ctx.state.has_unit(stage["unit"]) and ctx.state.unit(stage["unit"]).get("hex"):
        return [Action.make("retreat", d_side, path=p) for p in retreat_paths(ctx, stage["unit"])]
    if kind == "advance" and not ctx.state.units_at(rec["hex"]):
        alive = sorted(_alive(ctx, rec["attackers"]),
                       key=lambda a: (-int(ctx.state.unit(a).get("strength") or 0), a))
        if alive:
            return [Action.make("advance", a_side, path=[rec["hex"]], **{"with": [a]}) for a in alive] \
                + [Action.make("advance", a_side, hold=True)]
    return []


def _apply_stage(ctx: Any, rec: dict[str, Any], stage: dict[str, Any], action: Action | None) -> bool:
    """Apply one stage with the chosen ``action`` (None: nothing to choose); True when done."""
    cases, kind = rec["cases"], stage["kind"]
    if kind == "eliminate":
        unit = stage["unit"]
        if ctx.state.unit(unit).get("hex"):
            rec["lost"] += _loss_value(ctx, unit)
            ctx.state.update_unit(unit, hex=None)
            ctx.record("eliminated", cases, {"unit": unit, "hex": rec["hex"]}, source=f"{PLUGIN}.apply",
                       side=rec["defender_side"])
        return True
    if kind == "defender_loss":
        if ctx.state.unit(stage["unit"]).get("hex"):
            rec["lost"] += step_loss(ctx, stage["unit"], cases)["lost"]
        return True
    if kind == "attacker_loss":
        if stage.get("owed") is None:
            stage["owed"] = rec["lost"]                         # BM8.5E: at least the defender's loss
            if stage["owed"] <= 0:
                return True
        if action is None:
            return True
        uid = str(action.get("unit"))
        stage["owed"] = int(stage["owed"]) - step_loss(ctx, uid, cases)["lost"]
        return rec["code"] == "AL" or stage["owed"] <= 0 or not _alive(ctx, rec["attackers"])
    if kind == "retreat":
        unit = stage["unit"]
        if not ctx.state.has_unit(unit) or not ctx.state.unit(unit).get("hex"):
            return True
        start = ctx.state.unit(unit)["hex"]
        if action is None:
            ctx.state.update_unit(unit, hex=None)
            ctx.record("eliminated", ["BM8.6B", *cases], {"unit": unit, "hex": start, "reason": "cannot retreat"},
                       source=f"{PLUGIN}.retreat", side=rec["defender_side"])
            return True
        path = list(action.get("path"))
        ctx.state.move_unit(unit, path[-1])
        ctx.record("retreat", ["BM8.6A", "BM8.6B", *cases], {"unit": unit, "from": start, "path": path},
                   source=f"{PLUGIN}.retreat", side=rec["defender_side"])
        return True
    if kind == "advance" and action is not None and not action.get("hold"):
        mover = str(action.get("with")[0])
        start = ctx.state.unit(mover)["hex"]
        ctx.state.move_unit(mover, rec["hex"])
        ctx.record("advance", ["BM8.7"], {"unit": mover, "from": start, "to": rec["hex"]},
                   source=f"{PLUGIN}.advance", side=rec["attacker_side"])
    return True


def run(ctx: Any, rec: dict[str, Any], interactive: bool, choice: Action | None = None) -> dict[str, Any]:
    """Apply the stages of ``rec`` in order. A stage with a choice waits for its player when
    ``interactive`` (the record is kept in ``plugin_state.results`` as ``queue``, the contract
    the combat plugin reads); otherwise the first option (the policy) is taken."""
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


def start(outcome: Mapping[str, Any], defenders: list[str], mud: bool = False) -> dict[str, Any]:
    """A result record for ``outcome``'s CRT cell; an exchange cites BM8.8B (printed strength)
    only in ``mud``, the one time printed and current strengths differ."""
    code = str(outcome["result"])
    if code not in _RESULTS:
        raise ValueError(f"Battle for Moscow CRT result {code!r} is not one of {', '.join(_RESULTS)}")
    cases = [c for c in _RESULTS[code] if mud or c != "BM8.8B"]
    return {"code": code, "cases": cases, "hex": str(outcome["hex"]),
            "attackers": list(outcome["attackers"]), "defenders": defenders, "lost": 0,
            "attacker_side": outcome.get("attacker_side"), "defender_side": outcome.get("defender_side"),
            "stages": _stages(code, defenders)}


@implements("BM8.5A", "BM8.5B", "BM8.5C", "BM8.5D", "BM8.5E", "BM8.5F", "BM8.7")
def apply_result(ctx: Any, outcome: Mapping[str, Any], interactive: bool = False) -> dict[str, Any]:
    """Apply the CRT cell of ``outcome`` (the combat plugin's answer): losses, exchange, retreat,
    advance. Without ``interactive`` every choice follows the policy (:func:`options` order)."""
    defenders = [u["id"] for u in ctx.state.units_at(str(outcome["hex"]))]
    mud = (ctx.state.weather or {}).get("ground") == "mud"
    return run(ctx, start(outcome, defenders, mud), interactive)


def _pending(ctx: Any) -> dict[str, Any] | None:
    queue = (ctx.state.plugin_data(STATE_KEY) or {}).get("queue") or []
    return queue[0] if queue else None


# ------------------------------------------------------------------------------------- hooks
@hookimpl(wrapper=True)
def casebook_combat(ctx, attackers, hex, kind, support):
    outcome = yield
    if outcome is None or "result" not in outcome:
        return outcome
    interactive = bool((ctx.state.plugin_data("combat") or {}).get("interactive"))
    return {**outcome, "applied": apply_result(ctx, outcome, interactive)}


def _decider_of(rec: Mapping[str, Any]) -> str:
    return rec["defender_side"] if rec["stages"][0]["kind"] == "retreat" else rec["attacker_side"]


@hookimpl(tryfirst=True)
def casebook_decider(ctx, phase, step):
    rec = _pending(ctx)
    return _decider_of(rec) if rec else None


@hookimpl
def casebook_legal_actions(ctx, phase, step):
    rec = _pending(ctx)
    return options(ctx, rec, rec["stages"][0]) if rec else []


_STAGE_CHOICE = {"attacker_loss": "take-loss", "retreat": "retreat", "advance": "advance"}
_AWAITS = {"take-loss": ("an attacking unit's step loss", ("BM8.5A", "BM8.5E")),
           "retreat": ("the defender's retreat", ("BM8.5B", "BM8.6A")),
           "advance": ("an advance after combat", ("BM8.7",))}


@hookimpl
def casebook_validate_action(ctx, action):
    if action.kind not in _CHOICES:
        return []
    rec = _pending(ctx)
    stage = rec["stages"][0] if rec else None
    what, cases = _AWAITS[action.kind]
    if stage is None or _STAGE_CHOICE.get(stage["kind"]) != action.kind:
        return [Refusal(f"no combat result awaits {what} now", cases, PLUGIN)]
    if action in options(ctx, rec, stage):
        return []
    path = action.get("path")
    if action.kind == "retreat" and path:
        return [retreat_refusal(ctx, stage["unit"], [path] if isinstance(path, str) else list(path))]
    return [Refusal(f"{action} is not one of the choices of {what}", cases, PLUGIN)]


@hookimpl(wrapper=True, specname="casebook_validate_action")
def casebook_validate_retreat(ctx, action):
    """A Battle for Moscow retreat is judged by BM8.6 alone (:func:`retreat_refusal`): the shared
    `zoc` plugin's refusal of retreats (Moscow '41 7.5A: an EZOC may be entered where a friendly
    combat unit stands) is not this game's rule, so it is left out."""
    results = yield
    if action.kind != "retreat":
        return results
    return [[r for r in (rs or ()) if r.source != "zoc"] for rs in results]


@hookimpl
def casebook_apply_action(ctx, action):
    if action.kind not in _CHOICES or _pending(ctx) is None:
        return None
    return run(ctx, _pending(ctx), True, action)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question != "retreat":
        return None
    if len(args) != 1 or not ctx.state.has_unit(args[0]) or not ctx.state.unit(args[0]).get("hex"):
        raise QuestionError("usage: " + QUESTIONS["retreat"] + " (UNIT must be on the map)")
    paths = retreat_paths(ctx, args[0])
    return {"unit": args[0], "hexes": int(ctx.value("retreat_hexes", {"side": ctx.state.unit(args[0])["side"]})),
            "paths": paths, "eliminated_if_retreating": not paths, "cases": ["BM8.6A", "BM8.6B", "BM7.1"]}


def _edge(ctx: Any, side: str) -> str:
    """The map edge ``side`` retreats towards and draws replacements from: its ``edge`` in the
    game's vocabulary (game.yaml)."""
    edge = ctx.pack.vocabulary.side(side).edge
    if edge is None:
        raise ValueError(f"side {side!r} has no edge in the game's vocabulary (game.yaml)")
    return edge


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


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/core/savecheck.py)
    """``plugin_state.results`` (``STATE_KEY``): the combat result awaiting a player's choice
    (:func:`start`), its stages still to run (see :func:`run`)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    queue: list[_Result]
