"""Shared rules area ``airdrop``: units dropped from off the map onto a hex, with the dice and
the verdicts of the game's rule scripts, and the scatter that may follow. A library the game's
plugin calls with its own names (:class:`Airdrop`); it names no side, marker or unit flag of a
game and holds no case id: every citation is the cases of the game's lines it reads.

Who may drop what, where and when (all the game's data and lines):

- the units that may drop are the rows of a records table with a true ``flag`` column (e.g. a
  reinforcement schedule's asterisk) that are due (the game's ``due`` function), not on the map,
  not removed and not dropped before; one action per such unit of the acting side and target;
- the verdict is the permission ``permission`` over the facts ``side``, ``drop_eligible``,
  ``drops_this_turn``, ``drop_distance`` (hexes from the nearest unit in supply of the dropped
  unit's side, by
  ``casebook_supply``; 999 when none) and ``target`` (the hex label, for the map terms);
- quantity ``drop_dice`` (the dice rolled), ``drop_outcome`` over ``drop_roll`` (``scattered`` or
  another value: on target); a scattered unit carries the unit flag ``flag`` and a ``marker`` in
  its hex;
- quantity ``scatter_turns``: the flag and marker go at the start of the side's turn that many
  turns after the drop (:func:`lift_scatter`), and the unit loses quantity
  ``scatter_step_losses`` of ``enemy_stacks_in_zoc`` steps (the enemy stacks adjacent, when the
  permission ``exert_zoc`` lets it have a ZOC), each by the game's ``lose_step``;
- while flagged the unit cannot act and its hex cannot be entered or attacked where the
  permissions ``scattered_acts`` / ``scattered_entered`` / ``scattered_attacked`` forbid it
  (:func:`scatter_refusals`), and its hex is a ZOC (:func:`scattered_zoc`, citing the
  ``scattered_entered`` lines);
- quantity ``airdrop_supply_turns``: the turns from the drop in which the unit is in supply
  whatever its path (:func:`drop_supply`).

The area keeps ``plugin_data(<plugin>) = {"drops": {turn: unit}, "dropped": {unit: turn}}``.
Public API: :class:`Airdrop` and the functions of ``__all__``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from casebook.content.packconfig import CitedCase, config_model
from casebook.content.packrefs import MarkerRef, PermissionRef, StepRef
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex, to_cube
from casebook.script.spatial import distance_field, grid_cubes

from ._roll_lines import dice_lines, roll_naming
from ._zoc_cites import line_cases

__all__ = ["Airdrop", "AIRDROP_PYTHON", "AIRDROP_CONFIG", "FAR", "data", "eligible_units", "supplied_hexes", "drop_facts", "drop_verdict",
           "drop_targets", "unit_record", "apply_drop", "lift_scatter", "drop_supply", "scattered_in",
           "action_units", "scatter_refusals", "scattered_zoc", "drop_answer", "on_target_rolls", "drop_refusals"]

#: the distance fact when no unit of the side in supply exists (the game declares it in facts.yaml)
FAR = 999


@dataclass(frozen=True)
class Airdrop:
    """A game's airdrop: ``plugin`` (its plugin-data key and the prefix of its trace sources),
    ``table`` and ``flag`` (the records table of droppable units and its yes/no column),
    ``permission`` (the drop's verdict lines), ``noun`` (the dropped units' name in events:
    ``<noun>-drop``), ``flag_name`` and ``marker`` (the scatter's unit flag and marker kind),
    ``due`` (the turn a row is due), ``lose_step`` (one step lost by a unit: what became of it),
    ``on_drop`` (anything else a drop changes, e.g. a reinforcement list)."""

    plugin: str
    table: str
    flag: str
    permission: PermissionRef
    noun: str
    flag_name: str
    marker: MarkerRef
    due: Callable[[Any, Mapping[str, Any]], int]
    lose_step: Callable[[Any, str], str]
    on_drop: Callable[[Any, str], None] = lambda ctx, unit: None
    #: what the game's plugin checks around the area's calls: the step of a drop and the refusal
    #: (message, cases) of a drop in another; the action kinds by which a unit acts, and those of
    #: them that attack a hex (what :func:`scatter_refusals` is asked about)
    step: StepRef = ""
    step_refusal: str = ""
    step_cases: tuple[CitedCase, ...] = ()
    acting_kinds: frozenset[str] = frozenset()
    attack_kinds: frozenset[str] = frozenset()


#: The fields a game gives in Python (functions); the strict model of the rest as YAML (a config
#: file, :mod:`casebook.content.packconfig`).
AIRDROP_PYTHON = ("due", "lose_step", "on_drop")
AIRDROP_CONFIG = config_model(Airdrop, python=AIRDROP_PYTHON)


def _uid(u: Mapping[str, Any]) -> str:
    return str(u.get("id", u.get("counter")))


def data(ctx: Any, cfg: Airdrop) -> dict[str, Any]:
    """The area's record: ``{"drops": {"<turn>": unit}, "dropped": {unit: turn}}``."""
    rec = ctx.state.plugin_data(cfg.plugin) or {}
    rec.setdefault("drops", {})
    rec.setdefault("dropped", {})
    return rec


def eligible_units(ctx: Any, cfg: Airdrop, side: str | None = None) -> list[str]:
    """Units that may drop now: rows of ``cfg.table`` with ``cfg.flag`` (of ``side``'s, by the row's
    ``side``, when given) due this turn or earlier, not on the map (placed otherwise, they may no
    longer drop), not removed, not dropped; sorted."""
    st = ctx.state
    gone = {r["unit"] for r in st.removed}
    done = set(data(ctx, cfg)["dropped"])
    out = []
    for row in ctx.records(cfg.table):
        uid = str(row.get("unit"))
        if (row.get(cfg.flag) and (side is None or row.get("side") == side) and cfg.due(ctx, row) <= st.turn
                and not st.has_unit(uid) and uid not in gone and uid not in done):
            out.append(uid)
    return sorted(dict.fromkeys(out))


def supplied_hexes(ctx: Any, cfg: Airdrop, side: str) -> list[str]:
    """Hexes of ``side``'s units in supply now (``casebook_supply``; without an answer a unit
    counts as supplied unless it is marked ``oos``), label order (memo per state)."""
    key = (cfg.plugin, "supplied-hexes", side)
    if key not in ctx.memo:
        hexes = set()
        for u in ctx.state.units:
            if u.get("side") != side or "hex" not in u or u["hex"] in hexes:
                continue  # a hex already holding a unit in supply needs no second answer
            answer = ctx.hook.casebook_supply(ctx=ctx, unit=_uid(u))
            if (not u.get("oos")) if answer is None else bool(answer.get("in_supply")):
                hexes.add(u["hex"])
        ctx.memo[key] = sorted(hexes)
    return ctx.memo[key]


def _field(ctx: Any, cfg: Airdrop, side: str) -> dict[tuple[int, int], int] | None:
    """Hexes from every map hex (by cube ``(q, r)``) to the nearest of :func:`supplied_hexes`,
    through any terrain and units (the grid's distance); None when there is none (memo)."""
    sources = supplied_hexes(ctx, cfg, side)
    if not sources:
        return None
    key = (cfg.plugin, "distance-field", tuple(sources))
    field = ctx.memo.get(key)
    if field is None:
        layout = ctx.board.grid.layout
        start = [(c.q, c.r) for c in (to_cube(parse_hex(s), layout) for s in sources)]
        field = ctx.memo[key] = distance_field(start, grid_cubes(ctx.board.grid))
    return field


def _distance(ctx: Any, field: dict[tuple[int, int], int] | None, target: Any) -> int:
    if field is None:
        return FAR
    c = to_cube(target, ctx.board.grid.layout)
    return field[c.q, c.r]


def drop_facts(ctx: Any, cfg: Airdrop, side: str, unit: str, target: str) -> dict[str, Any]:
    """The facts of the drop permission for ``side`` dropping ``unit`` on ``target`` (the distance
    counted from the units in supply of the unit's own side). ValueError if ``target`` is off the
    map."""
    h = parse_hex(target)
    ctx.board.hex(h)  # ValueError off the map
    own = str((ctx.pack.counters.get(unit) or {}).get("side", side))
    return {"side": side, "drop_eligible": unit in eligible_units(ctx, cfg),
            "drops_this_turn": 1 if str(ctx.state.turn) in data(ctx, cfg)["drops"] else 0,
            "drop_distance": _distance(ctx, _field(ctx, cfg, own), h), "target": hex_label(h)}


def drop_verdict(ctx: Any, cfg: Airdrop, side: str, unit: str, target: str) -> tuple[bool, tuple[str, ...], dict[str, Any]]:
    """Whether ``side`` may drop ``unit`` on ``target`` now: ``(allowed, cases, facts)``, the cases
    those of the permission's lines that forbid it. A ``target`` off the map is refused with the
    cases of the permission's last ``forbid`` line (a game writes its lines about the target
    hex last)."""
    try:
        facts = drop_facts(ctx, cfg, side, unit, target)
    except ValueError:  # off the map
        return False, line_cases(ctx, (cfg.permission,), "forbid")[-1:], {}
    verdict = ctx.permission(cfg.permission, facts)
    return bool(verdict.value), tuple(verdict.cases), facts


def drop_refusals(ctx: Any, cfg: Airdrop, side: str, unit: str, target: str) -> list[tuple[str, tuple[str, ...], str]]:
    """``(reason, cases, file:line)`` of each ``forbid`` line that refuses ``side`` dropping
    ``unit`` on ``target`` now (none when allowed), worded as every refusal by a rule line
    (:meth:`casebook.script.ruleset.RuleSet.forbid_reason`: what the action does, the cases, the
    condition and what its facts mean, the line's ``file:line``) — 15.1D's "forbidden by 15.1D when
    town(target) is city". A ``target`` off the map: ``"UNIT cannot be dropped on TARGET"`` with
    :func:`drop_verdict`'s cases."""
    ok, cases, facts = drop_verdict(ctx, cfg, side, unit, target)
    if ok:
        return []
    if not facts:
        return [(f"{unit} cannot be dropped on {target}", cases, "")]
    verdict = ctx.permission(cfg.permission, facts)
    return [(ctx.rules.forbid_reason(ln, cfg.permission), tuple(ln.cases), ln.source)
            for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]


def drop_targets(ctx: Any, cfg: Airdrop, side: str) -> list[str]:
    """Every hex ``side`` may drop on now, apart from eligibility and the drops made (label
    order, memo per state)."""
    key = (cfg.plugin, "targets", side)
    if key not in ctx.memo:
        field = _field(ctx, cfg, side)
        out = []
        for h in ctx.board.hexes():
            facts = {"side": side, "drop_eligible": True, "drops_this_turn": 0,
                     "drop_distance": _distance(ctx, field, h), "target": hex_label(h)}
            if ctx.allowed(cfg.permission, facts):  # each line explained once while an answer records
                out.append(facts["target"])
        ctx.memo[key] = out
    return ctx.memo[key]


def unit_record(ctx: Any, uid: str, hex_: str) -> dict[str, Any]:
    """The plain unit record of counter ``uid`` placed in ``hex_``."""
    counter = dict(ctx.pack.counters.get(uid) or {"id": uid})
    rec = {k: counter[k] for k in ("id", "name", "side", "class", "size", "strength", "ma", "type") if k in counter}
    rec.update(id=uid, hex=hex_)
    return rec


def _cases(ctx: Any, name: str) -> list[str]:
    """The cases of quantity ``name``'s own line (read without evaluating it)."""
    q = ctx.rules.quantities.get(name)
    return list(q.code.cases) if q is not None else []


def apply_drop(ctx: Any, cfg: Airdrop, unit: str, target: str) -> dict[str, Any]:
    """Drop ``unit`` on ``target`` (validated): roll ``drop_dice``, read ``drop_outcome``; the unit
    is placed, flagged and marked when ``scattered``. Records ``<noun>-drop``; returns ``{"unit",
    "hex", "roll", "result", "cases"}``."""
    st = ctx.state
    source = f"{cfg.plugin}.apply_drop"
    dice = int(ctx.value("drop_dice", {}))  # the roll event names the drop_dice line
    die = roll_naming(ctx, dice, dice_lines(ctx, "drop_dice"), purpose=f"{cfg.noun} drop",
                      cases=_cases(ctx, "drop_dice"), source=source)
    outcome = ctx.quantity("drop_outcome", {"drop_roll": die})
    cfg.on_drop(ctx, unit)
    rec = unit_record(ctx, unit, target)
    cases = [*_cases(ctx, "drop_dice"), *outcome.cases]
    if outcome.value == "scattered":
        rec[cfg.flag_name] = True
        st.add_unit(rec)
        st.add_marker(cfg.marker, target, unit=unit)
        cases += _cases(ctx, "scatter_turns")
    else:
        st.add_unit(rec)
    book = data(ctx, cfg)
    book["drops"][str(st.turn)] = unit
    book["dropped"][unit] = st.turn
    st.set_plugin_data(cfg.plugin, book)
    result = {"unit": unit, "hex": target, "roll": die, "result": str(outcome.value),
              "cases": list(dict.fromkeys(cases))}
    ctx.record(f"{cfg.noun}-drop", result["cases"], result, source=source, side=rec.get("side"))
    return result


def lift_scatter(ctx: Any, cfg: Airdrop, side: str) -> list[dict[str, Any]]:
    """At the start of ``side``'s turn: unflag every unit of the side dropped at least
    ``scatter_turns`` turns ago, remove its marker and take ``scatter_step_losses`` steps
    (``lose_step``). Records ``scatter-lifted`` for each; returns the entries."""
    st, out = ctx.state, []
    book = data(ctx, cfg)
    turns = int(ctx.value("scatter_turns", {}))
    for u in [dict(u) for u in st.units if u.get(cfg.flag_name) and u.get("side") == side]:
        uid = _uid(u)
        if st.turn - book["dropped"].get(uid, 0) < turns:
            continue
        h = u["hex"]
        st.update_unit(uid, **{cfg.flag_name: None})
        if any(m.get("kind") == cfg.marker and m.get("hex") == h for m in st.markers):
            st.remove_marker(cfg.marker, h)
        w = st.weather or {}
        zoc = ctx.permission("exert_zoc", {
            "temperature": w.get("temperature", "warm"), "ground": w.get("ground", "dry"),
            "side": u.get("side"), "unit_class": u.get("class"), "unit_size": u.get("size", "none"),
            "no_zoc_scope": st.setting("no_zoc_scope", "arctic"), "road_or_town_hex": False})
        stacks = 0
        if zoc.value:
            stacks = sum(1 for n in ctx.board.neighbours(parse_hex(h))
                         if any(x.get("side") != u.get("side") for x in st.units_at(hex_label(n))))
        losses = int(ctx.value("scatter_step_losses", {"enemy_stacks_in_zoc": stacks}))
        results = []
        for _ in range(losses):
            if not st.has_unit(uid):
                break
            results.append(cfg.lose_step(ctx, uid))
        entry = {"unit": uid, "hex": h, "enemy_stacks": stacks, "steps_lost": len(results), "results": results,
                 "cases": [*_cases(ctx, "scatter_turns"), *_cases(ctx, "scatter_step_losses"), *zoc.cases]}
        ctx.record("scatter-lifted", entry["cases"], entry, source=f"{cfg.plugin}.lift_scatter", side=side)
        out.append(entry)
    return out


def drop_supply(ctx: Any, cfg: Airdrop, unit: str) -> dict[str, Any] | None:
    """A unit within ``airdrop_supply_turns`` of its drop is in supply whatever its path (route
    ``"airdrop"``); otherwise None (the game's supply rules answer)."""
    dropped = ctx.memo.get((cfg.plugin, "dropped"))
    if dropped is None:  # read once per state version: asked for every supply question
        dropped = ctx.memo[(cfg.plugin, "dropped")] = data(ctx, cfg)["dropped"]
    when = dropped.get(unit)
    if when is None:  # never dropped: no line decided (the turns are named for a dropped unit only)
        return None
    turns = ctx.memo_kept((cfg.plugin, "turns"), lambda: int(ctx.value("airdrop_supply_turns", {})))
    if not 0 <= ctx.state.turn - when < turns or not ctx.state.has_unit(unit):
        return None
    return {"unit": unit, "in_supply": True, "route": "airdrop", "path": [], "mp": 0,
            "cases": _cases(ctx, "airdrop_supply_turns"), "blocked": []}


def scattered_in(ctx: Any, cfg: Airdrop, hex_: str) -> list[str]:
    """Ids of the flagged (scattered) units in ``hex_``."""
    return [_uid(u) for u in ctx.state.units_at(hex_) if u.get(cfg.flag_name)]


def action_units(ctx: Any, action: Any) -> list[str]:
    """The units an action acts with: its ``unit=``, ``units=`` and ``with=`` arguments, else the
    acting side's units in its ``stack=`` or ``from=`` hex."""
    ids: list[str] = []
    for v in (action.get(k) for k in ("unit", "units", "with")):
        if isinstance(v, str):
            ids.append(v)
        elif isinstance(v, tuple):
            ids += list(v)
    if ids:
        return ids
    for k in ("stack", "from"):
        h = action.get(k)
        if isinstance(h, str):
            return [_uid(u) for u in ctx.state.units_at(h) if u.get("side") == action.side]
    return []


def scatter_refusals(ctx: Any, cfg: Airdrop, action: Any, units: list[str], hexes: list[Any],
                     attack: bool) -> list[tuple[str, tuple[str, ...]]]:
    """``(reason, cases)`` refusals of an action by acting ``units`` that enters or targets
    ``hexes`` (``attack``: it attacks them), as the game's lines forbid them: a scattered unit
    acting (permission ``scattered_acts``), a hex holding an enemy scattered unit attacked
    (``scattered_attacked``) or entered (``scattered_entered``). A permission with no line
    forbids nothing."""
    out = []
    stuck = [u for u in units if ctx.state.has_unit(u) and ctx.state.unit(u).get(cfg.flag_name)]
    verdict = ctx.permission("scattered_acts", {}) if stuck else None
    if verdict is not None and not verdict.value:
        out.append((f"scattered {cfg.noun} {', '.join(stuck)} cannot move, attack or react", tuple(verdict.cases)))
    for h in dict.fromkeys(hexes):
        if not isinstance(h, str) or len(h) != 4:
            continue
        enemy = [u for u in scattered_in(ctx, cfg, h) if ctx.state.unit(u).get("side") != action.side]
        verdict = ctx.permission("scattered_attacked" if attack else "scattered_entered", {}) if enemy else None
        if verdict is None or verdict.value:
            continue
        if attack:
            out.append((f"{', '.join(enemy)} in {h} is scattered and cannot be attacked", tuple(verdict.cases)))
        else:
            out.append((f"{h} holds scattered {cfg.noun} {', '.join(enemy)}: its hex is a ZOC "
                        f"enemy units cannot occupy", tuple(verdict.cases)))
    return out


def scattered_zoc(ctx: Any, cfg: Airdrop, side: str) -> list[dict[str, Any]]:
    """The hexes of scattered units not of ``side``: each a ZOC against ``side`` in its own hex
    (``[{"hex", "id", "cases"}]``, the cases of the ``scattered_entered`` lines)."""
    cases = list(line_cases(ctx, ("scattered_entered",)))
    return [{"hex": u["hex"], "id": _uid(u), "cases": cases}
            for u in ctx.state.units if u.get(cfg.flag_name) and u.get("hex") and u.get("side") != side]


def drop_answer(ctx: Any, cfg: Airdrop, side: str, offered: list[Any], unit: str | None = None,
                hex_: str | None = None) -> dict[str, Any]:
    """What ``side`` may drop now: ``{"eligible", "dropped_this_turn", "targets", "offered": [the
    actions play lists, ``offered``], "verdict": {"unit", "hex", "allowed", "refusals"} (with
    ``unit`` and ``hex_``: every validator of the drop action, as play judges it)}``. Asked about
    one drop, the listings name no line (``ctx.apart(recorded=False)``): the verdict names those
    that decided for ``hex_`` (``offered``, too, is then listed apart by the caller)."""
    with ctx.apart(recorded=unit is None or hex_ is None):
        out: dict[str, Any] = {
            "eligible": eligible_units(ctx, cfg), "dropped_this_turn": data(ctx, cfg)["drops"].get(str(ctx.state.turn)),
            "targets": drop_targets(ctx, cfg, side), "offered": [str(a) for a in offered]}
    if unit is not None and hex_ is not None:
        action = Action.make("drop", side, unit=unit, hex=hex_)
        refusals = [{"reason": r.reason, "cases": list(r.cases)}
                    for rs in ctx.hook.casebook_validate_action(ctx=ctx, action=action) for r in (rs or ())]
        out["verdict"] = {"unit": unit, "hex": hex_, "allowed": not refusals and action in offered,
                          "refusals": refusals}
    return out


def on_target_rolls(ctx: Any) -> list[int]:
    """The rolls of the ``drop_dice`` (six-sided) on which ``drop_outcome`` is not ``scattered``,
    read from the lines (a modder's die or threshold changes them). An answer recording lines
    names the ``drop_outcome`` line of the on-target rolls only (a ``first``'s deciding branch,
    ``on_target … when drop_roll = 6``), not the ``otherwise scattered`` of the other rolls."""
    dice = int(ctx.value("drop_dice", {}))
    with ctx.apart(recorded=False):  # every roll tried: a listing, not the answer's lines
        rolls = [r for r in range(dice, 6 * dice + 1) if ctx.value("drop_outcome", {"drop_roll": r}) != "scattered"]
    for r in rolls:  # the rolls on target, asked again: their deciding lines are the answer's
        ctx.value("drop_outcome", {"drop_roll": r})
    return rolls
