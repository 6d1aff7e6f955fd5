"""Battle for Moscow rules plugin ``bfm_results``: applying a CRT result (8.5-8.8) — step losses
of two-step units (3.1), retreats (8.6), exchanges (8.5E, 8.8B) and the advance after combat (8.7).

It wraps ``casebook_combat`` (the shared ``combat`` plugin assesses the odds, shifts columns,
rolls one die and reads the CRT; this plugin applies the cell). The choices the rules leave to a
player — which attacking unit takes a step loss, the retreat path, which unit advances — follow
a fixed policy (:func:`retreat_paths` order, weakest loss first, strongest advances) so bots and
replays are deterministic; they are not offered as decisions (docs/battle-for-moscow-pack.md).
Answers ``casebook ask … retreat UNIT``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from casebook.kernel.cases import implements
from casebook.kernel.errors import QuestionError
from casebook.kernel.hexgrid import hex_label, parse_hex
from casebook.kernel.hooks import hookimpl

__all__ = ["QUESTIONS", "steps_of", "step_loss", "retreat_paths", "apply_result"]

QUESTIONS = {"retreat": "retreat UNIT — the legal retreat paths of UNIT, best first, or why it "
                        "would be eliminated (8.6A-B)"}
PLUGIN = "bfm_results"
#: result code -> (cases, defender step losses, defender retreats, defender eliminated, attacker step)
_RESULTS: dict[str, tuple[tuple[str, ...], int, bool, bool, bool]] = {
    "AL": (("8.5A",), 0, False, False, True),
    "DR": (("8.5B", "8.6A"), 0, True, False, False),
    "DRL": (("8.5C", "8.6A"), 1, True, False, False),
    "DE": (("8.5D",), 0, False, True, False),
    "EX": (("8.5E", "8.8B"), 1, True, False, False),
    "NE": (("8.5F",), 0, False, False, False),
}
_EDGE = {"german": "west", "soviet": "east"}


def steps_of(ctx: Any, uid: str) -> dict[str, int]:
    """``{"full", "reduced"}`` printed strengths of a unit (tables/unit_steps.yaml, 3.1A)."""
    unit = ctx.state.unit(uid)
    key = unit.get("counter") or uid
    for row in ctx.records("unit_steps"):
        if row["unit"] == key:
            return {"full": int(row["full"]), "reduced": int(row["reduced"])}
    raise KeyError(f"no unit_steps row for {key!r}")


def _loss_value(ctx: Any, uid: str) -> int:
    """Printed strength a step loss costs the unit now (8.8B: printed, never the mud half)."""
    s, strength = steps_of(ctx, uid), int(ctx.state.unit(uid).get("strength") or 0)
    return strength - s["reduced"] if strength > s["reduced"] else strength


@implements("3.1B")
def step_loss(ctx: Any, uid: str, cases: Sequence[str]) -> dict[str, Any]:
    """A full unit flips to its reduced side; a reduced unit is eliminated (taken off the map:
    it may come back through replacements, 9.2). Returns ``{"unit", "lost", "eliminated"}``."""
    unit = ctx.state.unit(uid)
    lost = _loss_value(ctx, uid)
    s = steps_of(ctx, uid)
    side, hex_ = unit["side"], unit.get("hex")
    if int(unit.get("strength") or 0) > s["reduced"]:
        ctx.state.update_unit(uid, strength=s["reduced"])
        ctx.record("step-loss", ["3.1B", *cases], {"unit": uid, "hex": hex_, "strength": s["reduced"]},
                   source=f"{PLUGIN}.step_loss", side=side)
        return {"unit": uid, "lost": lost, "eliminated": False}
    ctx.state.update_unit(uid, hex=None)
    ctx.record("eliminated", ["3.1B", *cases], {"unit": uid, "hex": hex_}, source=f"{PLUGIN}.step_loss", side=side)
    return {"unit": uid, "lost": lost, "eliminated": True}


def _ezoc(ctx: Any, hex_: str, side: str) -> bool:
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    return bool(answer and answer.get("exerted_by"))


@implements("8.6A", "8.6B")
def retreat_paths(ctx: Any, uid: str) -> list[list[str]]:
    """The legal retreats of ``uid``, best first: ``retreat_hexes`` hexes (8.6A), each entered
    hex on the map, free of enemy units and enemy ZOC (8.6B), ending that many hexes from the
    start in an empty hex (7.1; interpretation retreat-path). Order (the owner's choice, bots'
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
    edge = {hex_label(h) for h in ctx.board.edge_hexes(_EDGE[side])}

    def key(p: list[str]) -> tuple:
        end = parse_hex(p[-1])
        return (min((grid.distance(end, parse_hex(e)) for e in edge), default=0), p)

    return sorted({tuple(p): p for p in paths}.values(), key=key)


def _retreat(ctx: Any, uid: str, cases: Sequence[str]) -> dict[str, Any]:
    if not ctx.state.has_unit(uid) or not ctx.state.unit(uid).get("hex"):
        return {"unit": uid, "retreat": None}
    paths = retreat_paths(ctx, uid)
    side = ctx.state.unit(uid)["side"]
    if not paths:
        hex_ = ctx.state.unit(uid)["hex"]
        ctx.state.update_unit(uid, hex=None)
        ctx.record("eliminated", ["8.6B", *cases], {"unit": uid, "hex": hex_, "reason": "cannot retreat"},
                   source=f"{PLUGIN}.retreat", side=side)
        return {"unit": uid, "retreat": None, "eliminated": True}
    start = ctx.state.unit(uid)["hex"]
    ctx.state.move_unit(uid, paths[0][-1])
    ctx.record("retreat", ["8.6A", "8.6B", *cases], {"unit": uid, "from": start, "path": paths[0]},
               source=f"{PLUGIN}.retreat", side=side)
    return {"unit": uid, "retreat": paths[0], "eliminated": False}


def _attacker_losses(ctx: Any, attackers: list[str], owed: int, cases: Sequence[str]) -> list[dict[str, Any]]:
    """8.5E, 8.8B: attacker step losses totalling at least ``owed`` printed strength, the least
    strength that covers it (policy: the smallest single step that covers, else the largest and
    go on)."""
    out: list[dict[str, Any]] = []
    while owed > 0:
        alive = [a for a in attackers if ctx.state.has_unit(a) and ctx.state.unit(a).get("hex")]
        if not alive:
            break
        values = sorted((_loss_value(ctx, a), a) for a in alive)
        covering = [v for v in values if v[0] >= owed]
        value, uid = covering[0] if covering else values[-1]
        out.append(step_loss(ctx, uid, cases))
        owed -= value
    return out


@implements("8.5A", "8.5B", "8.5C", "8.5D", "8.5E", "8.5F", "8.7")
def apply_result(ctx: Any, outcome: Mapping[str, Any]) -> dict[str, Any]:
    """Apply the CRT cell of ``outcome`` (the combat plugin's answer): losses, retreat, exchange,
    then the advance of one attacking unit into a vacated hex (8.7: policy, the strongest)."""
    code = str(outcome["result"])
    if code not in _RESULTS:
        raise ValueError(f"Battle for Moscow CRT result {code!r} is not one of {', '.join(_RESULTS)}")
    cases, d_steps, retreats, eliminated, a_step = _RESULTS[code]
    attackers, hex_ = list(outcome["attackers"]), str(outcome["hex"])
    defenders = [u["id"] for u in ctx.state.units_at(hex_)]
    applied: dict[str, Any] = {"result": code, "cases": list(cases), "defender": [], "attacker": []}
    if a_step:
        alive = sorted(attackers, key=lambda a: (_loss_value(ctx, a), a))
        applied["attacker"].append(step_loss(ctx, alive[0], cases))
    lost = 0
    for d in defenders:
        if eliminated:
            lost += _loss_value(ctx, d)
            ctx.state.update_unit(d, hex=None)
            ctx.record("eliminated", list(cases), {"unit": d, "hex": hex_}, source=f"{PLUGIN}.apply_result",
                       side=outcome.get("defender_side"))
            applied["defender"].append({"unit": d, "eliminated": True})
            continue
        for _ in range(d_steps):
            loss = step_loss(ctx, d, cases)
            lost += loss["lost"]
            applied["defender"].append(loss)
    if code == "EX":
        applied["attacker"] += _attacker_losses(ctx, attackers, lost, cases)
    if retreats:
        for d in defenders:
            if ctx.state.has_unit(d) and ctx.state.unit(d).get("hex"):
                applied["defender"].append(_retreat(ctx, d, cases))
    if not ctx.state.units_at(hex_) and code != "NE":
        alive = [a for a in attackers if ctx.state.unit(a).get("hex")]
        if alive:
            mover = sorted(alive, key=lambda a: (-int(ctx.state.unit(a).get("strength") or 0), a))[0]
            start = ctx.state.unit(mover)["hex"]
            ctx.state.move_unit(mover, hex_)
            ctx.record("advance", ["8.7"], {"unit": mover, "from": start, "to": hex_},
                       source=f"{PLUGIN}.apply_result", side=outcome.get("attacker_side"))
            applied["advance"] = {"unit": mover, "to": hex_}
    ctx.changed()
    return applied


# ------------------------------------------------------------------------------------- hooks
@hookimpl(wrapper=True)
def casebook_combat(ctx, attackers, hex, kind, support):
    outcome = yield
    if outcome is None or "result" not in outcome:
        return outcome
    return {**outcome, "applied": apply_result(ctx, outcome)}


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question != "retreat":
        return None
    if len(args) != 1 or not ctx.state.has_unit(args[0]) or not ctx.state.unit(args[0]).get("hex"):
        raise QuestionError("usage: " + QUESTIONS["retreat"] + " (UNIT must be on the map)")
    paths = retreat_paths(ctx, args[0])
    return {"unit": args[0], "hexes": int(ctx.value("retreat_hexes", {"side": ctx.state.unit(args[0])["side"]})),
            "paths": paths, "eliminated_if_retreating": not paths, "cases": ["8.6A", "8.6B", "7.1"]}
