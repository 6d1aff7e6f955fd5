"""Shared rules area ``scenario_victory``: a scenario's victory conditions, read from the
``victory:`` block of its scenario file — conditions per side, or victory points and levels
from the game's rule-script quantities. A library a game's victory plugin calls (it keeps its
hooks and says when to judge); it names no game and holds no case id: each condition cites the
``case`` of its own entry, a points verdict the block's ``case`` and the cases of the lines of
its quantities.

The block (schema :class:`ConditionsBlock`; a game subclasses it to name its sides' lists and any
printed terms of its own):

- ``kind: points`` (with ``case``): at the end each side's points are the quantity
  ``victory_points`` over the facts the game gives per side (:func:`points_verdict`); the level
  is the quantity ``victory_level`` of the difference (``vp_difference``); equal levels named
  ``draw`` have no winner;
- a list of :class:`Condition` per side (keyed by the side's id, in the vocabulary's order):
  ``control_count`` (the side controls at least ``at_least`` of ``hexes``), ``enter`` (a unit of
  the side — with ``unit: combat``, one whose class is not in the block's ``non_combat`` —
  stands in the ``target``: a hex set of the map, or the hexes of the town named ``town`` with
  ``target: town``), ``otherwise`` (the side wins at the end if no other condition was met).
  ``when`` says when a condition is judged: at the ``end``, at any ``instant`` (after every
  action), or ``script`` (a rule-script line decides it; the area skips the entry, which names
  the goal for a planning bot). ``when_setting`` names a setting whose value (``end`` /
  ``instant``) replaces ``when`` (an optional rule).

A result is ``{"winner", "level", "reason", "cases", "condition"}`` (points add ``"vp"``; a
condition's result adds ``"lines"``: the scenario file's line of the condition met — of an
``otherwise``, its line then those of the other sides' conditions judged and not met —
:func:`condition_lines`); the game keeps it with :func:`store_result` in its plugin data.

Public API: :func:`victory_block`, :func:`conditions`, :func:`target_hexes`, :func:`instant_result`,
:func:`end_result`, :func:`side_points`, :func:`points_verdict`, :func:`level_for`, :func:`stored_result`,
:func:`store_result`, :func:`conditions_answer`, :func:`condition_lines`, :func:`hex_supplied`, :func:`held_values`,
:func:`taken_hexes`, :func:`remember_taken`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from casebook.content.schema_base import CaseId, HexLabel, Model, Slug
from casebook.content.yamlio import YamlDoc
from casebook.core.hexgrid import hex_label
from casebook.script.explain import plain

__all__ = ["Condition", "ConditionsBlock", "SideFacts", "victory_block", "sides", "conditions", "target_hexes",
           "instant_result", "end_result", "condition_lines", "side_points", "points_verdict", "level_for", "stored_result", "store_result",
           "conditions_answer", "hex_supplied", "held_values", "taken_hexes", "remember_taken"]

#: A game's facts of one side for the quantity ``victory_points``: ``(facts, detail)`` — the
#: facts the quantity reads, and what the answer shows beside the points (towns, losses, …).
SideFacts = Callable[[Any, str], tuple[Mapping[str, Any], Mapping[str, Any]]]


class Condition(Model):
    """One victory condition of a side: ``control_count`` (``at_least`` of ``hexes``), ``enter``
    (a ``unit`` — ``combat`` or ``any`` — enters the ``target``: a hex set, or ``town`` with
    ``town`` its name), ``otherwise``. ``when``: ``end``, ``instant`` or ``script`` (a rule-script
    line decides it); ``when_setting``: a setting whose value replaces ``when``."""

    id: Slug | None = None
    case: CaseId | None = None
    kind: Literal["control_count", "enter", "otherwise"]
    when: Literal["instant", "end", "script"] = "end"
    when_setting: str | None = None
    hexes: list[HexLabel] = []
    names: list[str] = []
    at_least: int | None = Field(None, ge=0)
    unit: Literal["combat", "any"] | None = None
    target: str | None = None
    town: str | None = None


class ConditionsBlock(Model):
    """A scenario's ``victory:`` block as the area reads it: ``kind: points`` with its ``case``, and
    the unit classes that are no combat units (``non_combat``). A game's subclass adds one
    ``list[Condition]`` field per side."""

    kind: Literal["points"] | None = None
    case: CaseId | None = None
    non_combat: list[str] = []


def victory_block(ctx: Any) -> Mapping[str, Any] | None:
    """The scenario's ``victory`` block, or None (no scenario: no victory conditions)."""
    block = (ctx.state.scenario or {}).get("victory")
    return block if isinstance(block, Mapping) else None


def sides(ctx: Any) -> list[str]:
    """The game's sides, in the vocabulary's order."""
    return list(ctx.pack.vocabulary.side_ids or ctx.state.sides)


def conditions(ctx: Any, when: str) -> list[tuple[str, Mapping[str, Any]]]:
    """``(side, condition)`` pairs of the block judged at ``when`` (``instant`` / ``end``), in the
    sides' and the block's order; ``when: script`` entries are never returned."""
    block = victory_block(ctx) or {}
    out = []
    for side in sides(ctx):
        for cond in block.get(side) or []:
            moment = cond.get("when", "end")
            if cond.get("when_setting"):
                moment = ctx.state.setting(str(cond["when_setting"]), moment)
            if moment == when:
                out.append((side, cond))
    return out


def target_hexes(ctx: Any, cond: Mapping[str, Any]) -> list[str]:
    """The hexes an ``enter`` condition names: those of the town ``town`` (``target: town``), else
    the hex set ``target`` of the map; label order."""
    if cond.get("target") == "town":
        name = cond.get("town")
        return sorted(hex_label(h) for h, t in ctx.board.towns().items() if t.get("name") == name)
    return sorted(hex_label(h) for h in ctx.board.hex_set(str(cond.get("target"))))


def _met(ctx: Any, side: str, cond: Mapping[str, Any]) -> str | None:
    """Why ``cond`` of ``side`` is met now (a sentence), or None."""
    kind = cond.get("kind")
    if kind == "enter":
        combat = cond.get("unit") == "combat"
        excluded = set((victory_block(ctx) or {}).get("non_combat") or ()) if combat else set()
        for h in target_hexes(ctx, cond):
            units = [u for u in ctx.state.units_at(h) if u.get("side") == side and u.get("class") not in excluded]
            if units:
                uid = units[0].get("id", units[0].get("counter"))
                return f"{side} {'combat unit' if combat else 'unit'} {uid} entered {h}"
        return None
    if kind == "control_count":
        hexes = list(cond.get("hexes", []))
        held = [h for h in hexes if ctx.state.control(h) == side]
        if len(held) >= int(cond.get("at_least", len(hexes))):
            return f"{side} controls {len(held)} of {', '.join(hexes)}: {', '.join(held)}"
    return None


def _result(ctx: Any, side: str, level: str, why: str, cond: Mapping[str, Any],
            unmet: Sequence[tuple[str, Mapping[str, Any]]] = ()) -> dict[str, Any]:
    out = {"winner": side, "level": level, "reason": why,
           "cases": [str(cond["case"])] if cond.get("case") else [], "condition": cond.get("id")}
    lines = condition_lines(ctx, [(side, cond), *unmet])
    return {**out, "lines": lines} if lines else out


def condition_lines(ctx: Any, conds: Sequence[tuple[str, Mapping[str, Any]]],
                    text: bool = False) -> list[dict[str, Any]]:
    """The lines of the scenario's file (``pack.scenarios``) that hold ``conds`` (``(side,
    condition)`` pairs), in order: ``[{"source": "scenarios/october-blitz.yaml:18", "cases": [the
    entry's case]}]`` (with ``text``: also the line's ``text``, as an ``ask`` answer's table lines);
    none for an entry the file does not hold as the state does (a position's own block)."""
    found = _scenario_doc(ctx)
    if found is None:
        return []
    rel, doc = found
    block = ((doc.data.get("scenario") or {}).get("victory") or {}) if isinstance(doc.data, dict) else {}
    out = []
    for side, cond in conds:
        entries = block.get(side) if isinstance(block, Mapping) else None
        at = next((i for i, c in enumerate(entries or []) if isinstance(c, Mapping)
                   and all(c.get(k) == cond.get(k) for k in ("id", "kind", "case"))), None)
        if at is None:
            continue
        entry = ctx.pack.table_lines.line(rel, doc.where(("scenario", "victory", side, at))[0],
                                          [str(cond["case"])] if cond.get("case") else [])
        out.append(entry if text else {k: v for k, v in entry.items() if k != "text"})
    return out


def _scenario_doc(ctx: Any) -> tuple[str, YamlDoc] | None:
    """``(path relative to the pack folder, the file as written)`` of the state's scenario, read
    once per loaded pack (``pack.table_lines``), or None."""
    path = (getattr(ctx.pack, "scenarios", None) or {}).get(str((ctx.state.scenario or {}).get("id", "")))
    if path is None:
        return None
    try:
        rel = Path(path).resolve().relative_to(Path(ctx.pack.dir).resolve()).as_posix()
    except (OSError, ValueError):
        return None
    doc = ctx.pack.table_lines.doc(rel)
    return None if doc is None else (rel, doc)


def instant_result(ctx: Any) -> dict[str, Any] | None:
    """The first ``instant`` condition met now, as a result at level ``automatic``; else None."""
    for side, cond in conditions(ctx, "instant"):
        why = _met(ctx, side, cond)
        if why:
            return _result(ctx, side, "automatic", why, cond)
    return None


def end_result(ctx: Any, side_facts: SideFacts) -> dict[str, Any] | None:
    """The result at the end of the scenario: the points verdict (``kind: points``, each side's
    facts from ``side_facts``), else the first ``end`` or ``instant`` condition met, else the
    first ``otherwise``. None without a victory block (or with nothing decided)."""
    block = victory_block(ctx)
    if block is None:
        return None
    if block.get("kind") == "points":
        vp = points_verdict(ctx, side_facts)
        return {"winner": vp["winner"], "level": vp["level"],
                "reason": ", ".join(f"{s.capitalize()} {vp[s]['vp']} VP" for s in sides(ctx))
                          + f": difference {vp['difference']}",
                "cases": list(dict.fromkeys([*([str(block["case"])] if block.get("case") else []), *vp["cases"]])),
                "condition": "points", "vp": {s: vp[s]["vp"] for s in sides(ctx)}}
    ends = conditions(ctx, "end") + conditions(ctx, "instant")
    for side, cond in ends:
        why = _met(ctx, side, cond)
        if why:
            return _result(ctx, side, "victory", why, cond)
    for side, cond in ends:  # its line, then those of the other sides' conditions not met
        if cond.get("kind") == "otherwise":
            others = " and ".join(s for s in sides(ctx) if s != side)
            unmet = [(s, c) for s, c in ends if s != side and c.get("kind") != "otherwise"]
            short = "; ".join(filter(None, (_short(ctx, s, c) for s, c in unmet)))
            return _result(ctx, side, "victory", f"the {others} conditions were not fulfilled"
                           + (f": {short}" if short else ""), cond, unmet)
    return None


def _short(ctx: Any, side: str, cond: Mapping[str, Any]) -> str:
    """How far a condition not met fell short, in words read from its entry (towns when every hex
    is one, else hexes; "" for another kind), e.g. ``german held 1 of the 3 towns needed — Kaluga
    0833 (not held: Kalinin 3733, …) (18.1.3A)``; e.g. ``no german combat unit entered a Moscow
    hex (2242, 2342, 2343, 2344, 2442) (18.1.3B)``."""
    case = f" ({cond['case']})" if cond.get("case") else ""
    if cond.get("kind") == "enter":
        return f"no {side} {'combat ' if cond.get('unit') == 'combat' else ''}unit entered {_target_words(ctx, cond)}{case}"
    if cond.get("kind") != "control_count":
        return ""
    hexes = [str(h) for h in cond.get("hexes") or []]
    names = [str(n) for n in cond.get("names") or []]
    named = [f"{names[i]} {h}" if i < len(names) else h for i, h in enumerate(hexes)]
    held = [n for h, n in zip(hexes, named, strict=True) if ctx.state.control(h) == side]
    towns = {hex_label(h) for h in ctx.board.towns()}
    noun = "towns" if hexes and all(h in towns for h in hexes) else "hexes"
    rest = ", ".join(n for n in named if n not in held)
    return (f"{side} held {len(held)} of the {cond.get('at_least', len(hexes))} {noun} needed"
            + (f" — {', '.join(held)}" if held else "") + (f" (not held: {rest})" if rest else "") + case)


def side_points(ctx: Any, side: str, side_facts: SideFacts) -> dict[str, Any]:
    """One side's points now (as if the game ended): ``{"side", "vp", "terms": [the lines of
    ``victory_points`` that fired, with amount and cases], …detail, "cases"}``."""
    facts, detail = side_facts(ctx, side)
    q = ctx.quantity("victory_points", {"side": side, **facts})
    terms = [{"text": " ".join(line.text.split()), "vp": plain(line.amount), "cases": list(line.cases)}
             for line in q.lines if line.fired and line.kind == "term"]
    return {"side": side, "vp": int(q.value), "terms": terms, **detail, "cases": list(q.cases)}


def level_for(ctx: Any, points: Mapping[str, int]) -> dict[str, Any]:
    """The victory level (quantity ``victory_level`` of ``vp_difference``, the leader's points
    less the next side's): ``{"winner": side or None, "difference", "level", "cases"}``; a level
    named ``draw`` has no winner."""
    ranked = sorted(points, key=lambda s: -points[s])
    diff = points[ranked[0]] - points[ranked[1]] if len(ranked) > 1 else 0
    q = ctx.quantity("victory_level", {"vp_difference": diff})
    level = str(q.value)
    return {"winner": None if level == "draw" else ranked[0], "difference": diff, "level": level,
            "cases": list(q.cases)}


def points_verdict(ctx: Any, side_facts: SideFacts) -> dict[str, Any]:
    """Every side's points now, term by term, and the level (the cases: the ``victory_points``
    line's own, then those of the lines that fired): ``{<side>: {"side", "vp", "terms",
    …detail, "cases"}, "difference", "winner", "level", "cases"}``."""
    per = {s: side_points(ctx, s, side_facts) for s in sides(ctx)}
    lvl = level_for(ctx, {s: p["vp"] for s, p in per.items()})
    whole = ctx.rules.quantities.get("victory_points")  # the cases of the quantity's own line first
    head = list(whole.code.cases) if whole is not None else []
    cases = list(dict.fromkeys(head + [c for p in per.values() for c in p["cases"]] + lvl["cases"]))
    return {**per, "difference": lvl["difference"], "winner": lvl["winner"],
            "level": lvl["level"], "cases": cases}


def stored_result(ctx: Any, plugin: str) -> dict[str, Any] | None:
    """The result kept in ``plugin``'s data, if the game is over."""
    return (ctx.state.plugin_data(plugin) or {}).get("result")


def store_result(ctx: Any, plugin: str, result: Mapping[str, Any], source: str) -> None:
    """Keep ``result`` in ``plugin``'s data (once) and record it as a ``victory`` event; a result
    without ``lines`` keeps the event's (the rule lines that fired computing it: a points
    verdict's), so the driver's ``game-over`` names them too."""
    data = ctx.state.plugin_data(plugin) or {}
    if data.get("result"):
        return
    event = ctx.record("victory", result.get("cases", ()), dict(result), source=source)
    lines = event.data.get("lines") if event is not None and "lines" not in result else None
    data["result"] = {**result, "lines": lines} if lines else dict(result)
    ctx.state.set_plugin_data(plugin, data)


def conditions_answer(ctx: Any, note: str) -> dict[str, Any]:
    """For a scenario decided by its own conditions (no ``kind: points``): ``{"scenario_conditions":
    {side: [{"id", "case", "when"}]}, "note": note, "script_conditions": [each ``when action ends
    … end the game`` line, with ``fires``: whether it would end the game after a move now]}``;
    ``{}`` for a points scenario or none. Its ``table_lines`` (``casebook ask`` cites them) are the
    scenario file's line of each condition listed (:func:`condition_lines`)."""
    block = victory_block(ctx)
    if block is None or block.get("kind") == "points":
        return {}
    phasing = ctx.state.phasing or sides(ctx)[0]
    lines = ctx.engine.rules.explain_event("action_ends", {"side": phasing, "action_kind": "move"},
                                           ctx.engine.script_tables, ctx.standard)
    listed = [(side, c) for side in sides(ctx) for c in block.get(side) or [] if isinstance(c, Mapping)]
    return {"scenario_conditions": {side: [{"id": c.get("id"), "case": c.get("case"), "when": c.get("when"),
                                            "needs": _needs(ctx, c)} for s, c in listed if s == side]
                                    for side in sides(ctx)},
            "note": note, "script_conditions": [line for line in lines if line["effect"] == "end_game"],
            "table_lines": condition_lines(ctx, listed, text=True)}


def _needs(ctx: Any, cond: Mapping[str, Any]) -> str:
    """What a condition asks, in words read from its data: ``at least 3 of 3733, 2733, …`` for a
    ``control_count``, e.g. ``a combat unit enters a Moscow hex (2242, …)`` for an ``enter``;
    ``""`` for another kind."""
    if cond.get("kind") == "control_count":
        hexes = [str(h) for h in cond.get("hexes") or []]
        return f"at least {cond.get('at_least', len(hexes))} of {', '.join(hexes)}"
    if cond.get("kind") == "enter":
        return f"a{' combat' if cond.get('unit') == 'combat' else ''} unit enters {_target_words(ctx, cond)}"
    return ""


def _target_words(ctx: Any, cond: Mapping[str, Any]) -> str:
    """An ``enter`` target as the map names it (its towns' names, not the hex set's key):
    e.g. ``Smolensk 1308``, e.g. ``a Moscow hex (2242, …)`` (every hex a town of one name), else
    the hexes ``any of 0101, 0102`` (labels; the key itself when the set is empty)."""
    hexes = target_hexes(ctx, cond)
    towns = {hex_label(h): t.get("name") for h, t in ctx.board.towns().items()}
    names = {towns.get(h) for h in hexes}
    if hexes and len(names) == 1 and None not in names:
        return f"{names.pop()} {hexes[0]}" if len(hexes) == 1 else f"a {names.pop()} hex ({', '.join(hexes)})"
    return f"any of {', '.join(hexes)}" if hexes else str(cond.get("town") or cond.get("target"))


def hex_supplied(ctx: Any, hex_: str, side: str, probe: Mapping[str, Any], non_combat: frozenset[str]) -> bool | None:
    """Whether ``side`` can trace a supply line to ``hex_`` now: ``casebook_supply`` for a unit of
    the side there whose class is not in ``non_combat``, else for ``probe`` (a unit record of
    the game's) put there on a scratch copy of the state. None when no plugin answers."""
    own = [u for u in ctx.state.units_at(hex_) if u.get("side") == side and u.get("class") not in non_combat]
    if own:
        answer = ctx.hook.casebook_supply(ctx=ctx, unit=str(own[0].get("id", own[0].get("counter"))))
    else:
        scratch = ctx.state.clone()
        scratch.add_unit({**probe, "side": side, "hex": hex_})
        answer = ctx.hook.casebook_supply(ctx=ctx.engine.ctx(scratch), unit=str(probe["id"]))
    return None if answer is None else bool(answer.get("in_supply"))


def held_values(ctx: Any, side: str, values: Mapping[str, int], probe: Mapping[str, Any],
                non_combat: frozenset[str]) -> tuple[int, list[dict[str, Any]]]:
    """The hexes of ``values`` (hex -> a positive value, e.g. a town's) ``side`` controls and can
    trace supply to (:func:`hex_supplied`; no answer: it counts), label order: ``(total, [{"hex",
    "ip": value, "supplied": True or None}])``."""
    total, held = 0, []
    for h in sorted(values):
        if ctx.state.control(h) != side or values[h] <= 0:
            continue
        supplied = hex_supplied(ctx, h, side, probe, non_combat)
        if supplied is False:
            continue
        total += values[h]
        held.append({"hex": h, "ip": values[h], "supplied": supplied})
    return total, held


def taken_hexes(ctx: Any, plugin: str, key: str, hexes: list[str], side: str, non_combat: frozenset[str]) -> list[str]:
    """The hexes of ``hexes`` ``side`` has taken so far (each counted once, even if lost later):
    those remembered in ``plugin``'s data under ``key``, and those it controls or holds with a
    unit whose class is not in ``non_combat`` now; label order."""
    taken = set((ctx.state.plugin_data(plugin) or {}).get(key, []))
    for h in hexes:
        if ctx.state.control(h) == side or any(
                u.get("side") == side and u.get("class") not in non_combat for u in ctx.state.units_at(h)):
            taken.add(h)
    return sorted(taken)


def remember_taken(ctx: Any, plugin: str, key: str, now: list[str], event: str, cases: tuple[str, ...],
                   source: str) -> list[str]:
    """Remember the hexes taken ``now`` (:func:`taken_hexes`) in ``plugin``'s data under ``key``;
    the new ones are recorded as an ``event`` citing ``cases``. Returns the new ones."""
    data = ctx.state.plugin_data(plugin) or {}
    before = list(data.get(key, []))
    new = [h for h in now if h not in before]
    if new:
        data[key] = now
        ctx.state.set_plugin_data(plugin, data)
        ctx.record(event, cases, {"hexes": new}, source=source)
    return new
