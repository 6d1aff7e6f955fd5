"""Moscow '41 paratroop drops (15.0-15.2, 15.4), private to ``paratroops``.

Who may drop (15.0: the Soviets only), which units (15.1A: the Soviet reinforcements marked with an
asterisk — ``drop: true`` in ``tables/reinforcements.yaml`` — that have arrived and are still off
the map, 15.1B), how often (15.1C: one a turn) and where (15.1D: within 15 hexes of a Soviet unit
in supply, never a city or an enemy-occupied hex). All verdicts are the ``paratroop_drop`` lines
of ``games/moscow41/rules/paratroops.rules``; the die is 15.2's (``drop_outcome``).

The plugin keeps ``plugin_data("paratroops") = {"drops": {turn: unit}, "dropped": {unit: turn}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.content.cases import implements
from casebook.core.hexgrid import Hex, hex_label, parse_hex, to_cube
from casebook.script.spatial import distance_field, grid_cubes

from ._reinforcement_entry import due_turn

__all__ = ["PLUGIN", "FAR", "data", "eligible_units", "drop_facts", "drop_verdict", "drop_targets",
           "supplied_soviet_hexes", "unit_record", "take_off_schedule"]

PLUGIN = "paratroops"
#: the distance fact when no Soviet unit in supply exists (declared in facts.yaml)
FAR = 999


def data(ctx: Any) -> dict[str, Any]:
    """The plugin's record: ``{"drops": {"<turn>": unit}, "dropped": {unit: turn}}``."""
    rec = ctx.state.plugin_data(PLUGIN) or {}
    rec.setdefault("drops", {})
    rec.setdefault("dropped", {})
    return rec


@implements("15.1A", "15.1B")
def eligible_units(ctx: Any) -> list[str]:
    """Paratroop units that may drop now: Soviet rows of the Reinforcement Schedule marked with
    the asterisk (``drop: true``, 15.1A) due this turn or earlier, not on the map (once placed as
    a reinforcement they may no longer drop, 15.1B), not eliminated, not already dropped."""
    st = ctx.state
    gone = {r["unit"] for r in st.removed}
    done = set(data(ctx)["dropped"])
    out = []
    for row in ctx.records("reinforcements"):
        uid = str(row.get("unit"))
        if (row.get("drop") and row.get("side") == "soviet" and due_turn(ctx, "reinforcements", row) <= st.turn
                and not st.has_unit(uid) and uid not in gone and uid not in done):
            out.append(uid)
    return sorted(dict.fromkeys(out))


def supplied_soviet_hexes(ctx: Any) -> list[str]:
    """Hexes of Soviet units in supply now (15.1D), by the supply plugin's ``casebook_supply``;
    without a supply answer a unit counts as supplied unless it is marked ``oos``."""
    key = ("paratroops", "supplied-hexes")
    if key not in ctx.memo:
        hexes = set()
        for u in ctx.state.units:
            if u.get("side") != "soviet" or "hex" not in u or u["hex"] in hexes:
                continue  # a hex already holding a Soviet unit in supply needs no second answer
            answer = ctx.hook.casebook_supply(ctx=ctx, unit=str(u.get("id", u.get("counter"))))
            ok = (not u.get("oos")) if answer is None else bool(answer.get("in_supply"))
            if ok:
                hexes.add(u["hex"])
        ctx.memo[key] = sorted(hexes)
    return ctx.memo[key]


def _distance_field(ctx: Any, sources: list[str]) -> dict[tuple[int, int], int]:
    """Hexes from every map hex to the nearest of ``sources`` (15.1D: counted through any
    terrain and enemy units, the grid's hex distance) by cube coordinates ``(q, r)``, found at
    once (casebook.script.spatial.distance_field) and kept per context: a ``drop_targets`` asks
    it of every hex of the map."""
    key = ("paratroops", "distance-field", tuple(sources))
    field = ctx.memo.get(key)
    if field is None:
        layout = ctx.board.grid.layout
        start = [(c.q, c.r) for c in (to_cube(parse_hex(s), layout) for s in sources)]
        field = ctx.memo[key] = distance_field(start, grid_cubes(ctx.board.grid))
    return field


def _distance(ctx: Any, target: Hex, sources: list[str]) -> int:
    """Hexes from ``target`` to the nearest of ``sources`` (:func:`_distance_field`);
    :data:`FAR` when there is none."""
    if not sources:
        return FAR
    c = to_cube(target, ctx.board.grid.layout)
    return _distance_field(ctx, sources)[c.q, c.r]


def _target_facts(ctx: Any, target: Hex) -> dict[str, Any]:
    """The target's facts of the ``paratroop_drop`` lines: its distance (hexes) from the nearest
    Soviet unit in supply, and its label (the lines read the map: a city, an enemy in it, 15.1D)."""
    return {"drop_distance": _distance(ctx, target, supplied_soviet_hexes(ctx)), "target": hex_label(target)}


def drop_facts(ctx: Any, side: str, unit: str, target: str) -> dict[str, Any]:
    """The facts of the ``paratroop_drop`` permission for dropping ``unit`` on ``target``:
    side, drop_eligible, drops_this_turn, drop_distance (hexes), target (the hex label).
    ValueError if ``target`` is off the map."""
    h = parse_hex(target)
    ctx.board.hex(h)  # ValueError off the map
    return {
        "side": side,
        "drop_eligible": unit in eligible_units(ctx),
        "drops_this_turn": 1 if str(ctx.state.turn) in data(ctx)["drops"] else 0,
        **_target_facts(ctx, h),
    }


@implements("15.0", "15.1A", "15.1B", "15.1C", "15.1D")
def drop_verdict(ctx: Any, side: str, unit: str, target: str) -> tuple[bool, tuple[str, ...], dict[str, Any]]:
    """Whether ``side`` may drop ``unit`` on hex ``target`` now: ``(allowed, cases, facts)``;
    the cases are those of the ``paratroop_drop`` lines that forbid it."""
    try:
        facts = drop_facts(ctx, side, unit, target)
    except ValueError:  # off the map
        return False, ("15.1D",), {}
    verdict = ctx.permission("paratroop_drop", facts)
    return bool(verdict.value), tuple(verdict.cases), facts


def drop_targets(ctx: Any) -> list[str]:
    """Every hex a Soviet paratroop may be dropped on now, apart from eligibility and the
    one-a-turn limit (15.1D), in label order (cached per context)."""
    key = ("paratroops", "targets")
    if key not in ctx.memo:
        out = []
        sources = supplied_soviet_hexes(ctx)
        field = _distance_field(ctx, sources) if sources else None  # as _target_facts, looked up once
        layout = ctx.board.grid.layout
        for h in ctx.board.hexes():
            c = to_cube(h, layout)
            facts = {"side": "soviet", "drop_eligible": True, "drops_this_turn": 0,
                     "drop_distance": FAR if field is None else field[c.q, c.r], "target": hex_label(h)}
            if ctx.allowed("paratroop_drop", facts):  # each line explained once while an answer records
                out.append(facts["target"])
        ctx.memo[key] = out
    return ctx.memo[key]


def unit_record(ctx: Any, uid: str, hex_: str) -> dict[str, Any]:
    """The plain unit record of counter ``uid`` placed in ``hex_``."""
    counter = dict(ctx.pack.counters.get(uid) or {"id": uid, "side": "soviet", "class": "paratroop"})
    fields = ("id", "name", "side", "class", "size", "strength", "ma", "type")
    rec = {k: counter[k] for k in fields if k in counter}
    rec["id"] = uid
    rec["hex"] = hex_
    return rec


def take_off_schedule(ctx: Any, uid: str) -> None:
    """Remove ``uid`` from ``state.pending`` and from the reinforcement plugin's list of units
    available this step (``plugin_data("reinforcement")["available"]``), so that a dropped unit is
    not placed again as a reinforcement (15.1B)."""
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
