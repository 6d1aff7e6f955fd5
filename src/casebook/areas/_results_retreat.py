"""Retreats and advances after combat, step by step, for a game whose rule scripts rank and
limit them (a helper of the shared results procedure, not a plugin; the whole-stack variant of
:mod:`casebook.areas.retreat`).

A retreat of N hexes moves one stack hex by hex; a step is refused when it goes back to a hex
already crossed, enters an enemy-occupied hex, enters an enemy ZOC (the ``casebook_zoc`` answer)
the ``retreat_into_ezoc`` lines close (fact ``friendly_combat_unit``; without such lines: where no
friendly combat unit stands), or enters a hex the ``casebook_move_cost`` answer
prohibits (mode ``retreat``); another area's refusal of the ``retreat`` action (e.g. stacking)
refuses a path. The longest paths possible are kept. The game's lines read:

- quantity ``retreat_shortfall_losses`` (fact ``hexes_short``): the losses of a retreat cut
  short; its ``start`` line's cases are cited when a path falls short;
- quantity ``retreat_rank`` (facts ``ends_adjacent_to_attacker``, ``supply_distance``,
  ``hexes_from_start``): the order of the paths, lowest first (ties by hex labels);
- quantity ``advance_hexes`` (facts ``defenders_eliminated``, ``retreat_required``) and the
  permissions ``advance_into`` (fact ``enemy_occupied``) and ``advance_beyond`` (fact
  ``in_ezoc``): the advance after combat.

The cases of a refused step come from the game's :class:`ResultsSetup` (``cites``). Public API:
:class:`ResultsSetup`, :func:`retreat_options`, :func:`path_refusals`, :func:`advance_paths`,
:func:`refused_path`, :func:`supply_target`, :func:`in_ezoc`, :func:`enemy_occupied`,
:func:`shortfall_losses`, :func:`quantity_cases`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casebook.content.packconfig import CitedCase, config_model
from casebook.core.actions import Action
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal

from ._zoc_cites import closes, line_cases
from ._zoc_map import is_combat_unit
from .retreat import paths_up_to, retreat_judge, side_edge

__all__ = ["ResultsSetup", "RESULTS_CONFIG", "retreat_options", "path_refusals", "advance_paths", "refused_path", "supply_target",
           "in_ezoc", "enemy_occupied", "shortfall_losses", "quantity_cases", "permission_cases", "memo_allowed",
           "may_advance", "leave_hold", "LINE_CITES",
           "MAX_PATHS", "retreat_question", "overstack_words"]


@dataclass(frozen=True)
class ResultsSetup:
    """How a game configures the results procedure: ``plugin``, the name of its results plugin
    (the source of its refusals; its own validator is left out when a retreat path is judged);
    ``cites``, the cases of the procedure's steps no rule line states, by key (``revisit``,
    ``enemy``, ``ezoc``, ``terrain``: a refused retreat step; ``retreat_path``: a path's
    hexes; the keys the stages and choices read, see :mod:`casebook.areas._results_stages`);
    ``hold_marks``: unit flags or marker kinds that let a stack ignore a forced retreat (each
    also a fact of permission ``advance_unit``, :func:`may_advance`)."""

    plugin: str
    cites: Mapping[str, tuple[CitedCase, ...]] = field(default_factory=dict)
    hold_marks: tuple[str, ...] = ()

    def cases(self, key: str, ctx: Any = None) -> tuple[str, ...]:
        """The cases of ``key``: the game's ``cites``, else (given ``ctx``) those of the lines
        :data:`LINE_CITES` names for it."""
        if key in self.cites or ctx is None:
            return tuple(self.cites.get(key, ()))
        out: list[str] = []
        for kind, name in LINE_CITES.get(key, ()):
            out += permission_cases(ctx, name) if kind == "lines" else quantity_cases(ctx, name)[0]
        return tuple(dict.fromkeys(out))


#: The strict model of a game's ``ResultsSetup`` as YAML (a config file, :mod:`casebook.content.packconfig`).
RESULTS_CONFIG = config_model(ResultsSetup)


#: The cites a game's lines give (unless its ``cites`` name them): ``lines`` of a permission,
#: the ``heading`` of a quantity — who retreats and how far (a path's hexes, the losses of the
#: hexes not retreated, the retreat effect), when and how far the attackers advance.
LINE_CITES: dict[str, tuple[tuple[str, str], ...]] = {
    "retreat_path": (("lines", "choose_retreat_length"),),
    "retreat_losses": (("heading", "retreat_hexes"), ("heading", "retreat_shortfall_losses")),
    "retreat_template": (("lines", "choose_retreat_length"), ("heading", "retreat_shortfall_losses"),
                         ("heading", "retreat_hexes")),
    "retreat": (("lines", "choose_retreat_length"), ("heading", "retreat_shortfall_losses")),
    "advance": (("lines", "advance_from_combat"), ("heading", "advance_hexes")),
    "advance_with": (("lines", "advance_from_combat"),),
    "advance_unit": (("lines", "advance_unit"),),
    "listed_retreat": (("heading", "retreat_shortfall_losses"), ("heading", "retreat_rank")),
}
MAX_PATHS = 3  # choices offered per retreat length / advance length (a bound on the action list)


#: why a step of a retreat is refused (:func:`_step_fault`), by its key in ``cites``
_FAULTS = {
    "revisit": "a retreat never enters a hex twice nor goes back to the hex it left",
    "enemy": "a retreating unit cannot enter an enemy-occupied hex",
    "ezoc": "a retreating unit cannot enter an EZOC unless a friendly combat unit is there",
    "terrain": "the TEC prohibits entering the hex",
}


def quantity_cases(ctx: Any, name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(heading cases, start-line cases)`` of the game's quantity ``name`` (read from the
    compiled scripts, not evaluated); empty when the game has no such quantity."""
    q = ctx.rules.quantities.get(name)
    if q is None:
        return (), ()
    return tuple(q.code.cases), tuple(q.base_code.cases) if q.base_code is not None else ()


def permission_cases(ctx: Any, action: str) -> tuple[str, ...]:
    """The cases of every line of the game's permission ``action`` (read from the compiled
    scripts, not evaluated); empty when the game has none."""
    p = ctx.rules.permissions.get(action)
    return tuple(dict.fromkeys(c for _, code, _ in (p.lines if p is not None else ()) for c in code.cases))


def memo_allowed(ctx: Any, action: str, facts: Mapping[str, Any]) -> bool:
    """:meth:`ctx.allowed`, kept per state version by the facts given, with the deciding lines
    (``ctx.memo_kept``: every event of the version that reads the verdict names them)."""
    key = ("rules.allowed", action, tuple(sorted(facts.items())))
    return bool(ctx.memo_kept(key, lambda: ctx.allowed(action, facts)))


def enemy_occupied(ctx: Any, hex_: str, side: str) -> bool:
    return any(u.get("side") != side for u in ctx.state.units_at(hex_))


def _friendly_combat_unit(ctx: Any, hex_: str, side: str, exclude: Iterable[str] = ()) -> bool:
    skip = set(exclude)
    return any(u.get("side") == side and is_combat_unit(ctx, u) and u["id"] not in skip for u in ctx.state.units_at(hex_))


def in_ezoc(ctx: Any, hex_: str, side: str) -> bool:
    """Whether ``hex_`` is in an enemy ZOC for ``side``: asked of ``casebook_zoc``; without an
    answer, any adjacent enemy combat unit exerts one."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=side)
    if answer is not None:
        return answer.get("kind", "none") != "none" and bool(answer.get("exerted_by", [True]))
    return any(u.get("side") != side and is_combat_unit(ctx, u)
               for n in ctx.board.neighbours(parse_hex(hex_)) for u in ctx.state.units_at(hex_label(n)))


def _prohibited(ctx: Any, units: Sequence[str], a: str, b: str) -> bool:
    answer = ctx.hook.casebook_move_cost(ctx=ctx, units=list(units), from_hex=a, to_hex=b, mode="retreat")
    return answer is not None and answer.get("mp") is None


def supply_target(ctx: Any, units: Sequence[str], side: str) -> list[str]:
    """Hexes of the friendly supply source a retreat goes toward: the end of the route
    ``casebook_supply`` gives for the first unit, else the side's map edge (its ``edge``)."""
    for uid in units:
        answer = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
        if answer and answer.get("path"):
            return [str(answer["path"][-1])]
    try:
        edge = side_edge(ctx, side)
    except (KeyError, ValueError):
        return []
    return [hex_label(h) for h in ctx.board.edge_hexes(edge)]


def _step_fault(ctx: Any, units: Sequence[str], start: str, side: str, here: str, nxt: str,
                path: Sequence[str]) -> str | None:
    """Why ``units`` retreating along ``path`` (so far) may not go on from ``here`` into the
    adjacent ``nxt`` (a key of :data:`_FAULTS`), or None."""
    if nxt == start or nxt in path:
        return "revisit"
    if enemy_occupied(ctx, nxt, side):
        return "enemy"
    if in_ezoc(ctx, nxt, side):  # closed as the game's retreat_into_ezoc lines say (e.g. 7.5A), named
        friendly = _friendly_combat_unit(ctx, nxt, side, units)
        if closes(ctx, "blocks_retreat", friendly, otherwise=not friendly):
            return "ezoc"
    if _prohibited(ctx, units, here, nxt):
        return "terrain"
    return None


def _neighbours(ctx: Any) -> Any:
    return lambda h: [hex_label(n) for n in ctx.board.neighbours(parse_hex(h))]


def _distance(ctx: Any) -> Any:
    return lambda a, b: ctx.board.grid.distance(parse_hex(a), parse_hex(b))


def _other_validators(ctx: Any, setup: ResultsSetup) -> Any:
    """``casebook_validate_action`` of every plugin but the game's results plugin (whose own
    check lists these options), kept per plugin manager."""
    pm = ctx.engine.pm
    kept = ctx.lasting("results.other-validators", id(pm), pause=False)  # a hook caller: no line
    if "caller" not in kept:
        mine = [p for p in (pm.get_plugin(setup.plugin),) if p is not None]
        kept["caller"] = pm.subset_hook_caller("casebook_validate_action", remove_plugins=mine)
    return kept["caller"]


def refused_path(ctx: Any, setup: ResultsSetup, units: Sequence[str], side: str, path: Sequence[str]) -> bool:
    """Whether another area refuses ``units`` retreating along ``path`` (the ``retreat`` action
    with ``path`` and ``units``)."""
    if not path:
        return False
    action = Action.make("retreat", side, path=list(path), units=list(units))
    return any(rs for rs in _other_validators(ctx, setup)(ctx=ctx, action=action))


def _rank(ctx: Any, adjacent: bool, supply_distance: int, away: int) -> int:
    """The game's quantity ``retreat_rank`` of a retreat (lowest first), kept per state version."""
    facts = {"ends_adjacent_to_attacker": adjacent, "supply_distance": supply_distance, "hexes_from_start": away}
    key = ("results.retreat_rank", adjacent, supply_distance, away)
    return int(ctx.memo_kept(key, lambda: int(ctx.value("retreat_rank", facts))))


def shortfall_losses(ctx: Any, hexes_short: int) -> int:
    """Combat losses for a retreat ``hexes_short`` hexes short of its distance: the game's
    quantity ``retreat_shortfall_losses``."""
    return int(ctx.value("retreat_shortfall_losses", {"hexes_short": hexes_short})) if hexes_short > 0 else 0


def retreat_options(ctx: Any, setup: ResultsSetup, units: Sequence[str], start: str, side: str, hexes: int,
                    attackers: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The retreats of ``units`` (one stack, moving together) from ``start`` by ``hexes`` hexes,
    best first: the longest paths the steps allow that no other area's validator refuses
    (:func:`refused_path`), with the losses of the hexes not retreated, ordered by
    ``retreat_rank`` (not ending adjacent to an attacking unit, toward a friendly supply source,
    away from the combat hex), then by hex labels. Each: ``{"path", "hexes", "losses",
    "toward_supply", "ends_adjacent_to_attacker", "cases"}`` (the cases of the shortfall and
    rank quantities' headings, and of the shortfall line when the path falls short)."""
    units = [u for u in units if ctx.state.has_unit(u)]
    if not units:  # the whole stack is gone: nothing retreats
        return []
    paths = [p for p in paths_up_to(start, _neighbours(ctx), lambda here, nxt, path: _step_fault(
        ctx, units, start, side, here, nxt, path) is None, hexes) if not refused_path(ctx, setup, units, side, p)]
    best = max((len(p) for p in paths), default=0)
    att_hexes = {ctx.state.unit(a)["hex"] for a in attackers if ctx.state.has_unit(a)}
    judge = retreat_judge(start, _distance(ctx), supply_target(ctx, units, side), att_hexes)
    losses = shortfall_losses(ctx, hexes - best)
    short_head, short_line = quantity_cases(ctx, "retreat_shortfall_losses")
    head = [*short_head, *quantity_cases(ctx, "retreat_rank")[0]]
    options: list[dict[str, Any]] = []
    for p in paths:
        if len(p) != best:
            continue
        adjacent, d, toward, away = judge(p)
        cases = [*head, *short_line] if len(p) < hexes else head
        options.append({"path": p, "hexes": len(p), "losses": losses,
                        "toward_supply": toward, "ends_adjacent_to_attacker": adjacent,
                        "_key": (_rank(ctx, adjacent, d, away), p), "cases": list(dict.fromkeys(cases))})
    options.sort(key=lambda o: o.pop("_key"))
    return options


def path_refusals(ctx: Any, setup: ResultsSetup, units: Sequence[str], start: str, side: str, path: Sequence[Any],
                  hexes: int, attackers: Sequence[str] = ()) -> list[Refusal]:
    """Why ``units`` (one stack in ``start``) may not retreat along ``path`` when they retreat
    ``hexes`` hexes: each refusal names its cases; empty when ``path`` is one of
    :func:`retreat_options`. In order: hexes of the map, adjacent one after the other, at most
    ``hexes`` of them (``cites["retreat_path"]``); each step open to a retreat; no other area's
    refusal; as far as possible (the ``retreat_shortfall_losses`` start line). The rank refuses none."""
    here, walked = start, list[str]()

    def bad(reason: str, cases: Sequence[str]) -> list[Refusal]:
        return [Refusal(reason, tuple(cases), setup.plugin)]
    if len(path) > hexes:
        return bad(f"a path of {len(path)} hexes for a retreat of {hexes}", setup.cases("retreat_path", ctx))
    for h in path:
        try:
            on_map = isinstance(h, str) and ctx.board.contains(parse_hex(h))
        except ValueError:
            on_map = False
        if not on_map:
            return bad(f"{h!r} is not a hex of the map", setup.cases("retreat_path", ctx))
        if h not in {hex_label(n) for n in ctx.board.neighbours(parse_hex(here))}:
            start_too = " (list only the hexes entered, not the stack's own)" * (h == here == start)
            return bad(f"{h} is not adjacent to {here}: a retreat goes hex by hex{start_too}", setup.cases("retreat_path", ctx))
        fault = _step_fault(ctx, units, start, side, here, h, walked)
        if fault is not None:
            return bad(f"{h}: {_FAULTS[fault]}", setup.cases(fault))
        walked.append(h)
        here = h
    if walked:
        action = Action.make("retreat", side, path=list(walked), units=list(units))
        others = [r for rs in _other_validators(ctx, setup)(ctx=ctx, action=action) for r in (rs or ())]
        if others:
            return others
    options = retreat_options(ctx, setup, units, start, side, hexes, attackers)
    best = options[0]["hexes"] if options else 0
    if len(walked) < best:
        return bad(f"the stack can retreat {best} hexes (e.g. {','.join(options[0]['path'])}): it must retreat "
                   "as far as possible", quantity_cases(ctx, "retreat_shortfall_losses")[1])
    return []


def may_advance(ctx: Any, setup: ResultsSetup, uid: str) -> bool:
    """Whether attacking unit ``uid`` may advance after combat: permission ``advance_unit``, facts
    each of ``setup.hold_marks`` (the unit carries the flag or its hex holds the marker)."""
    u = ctx.state.unit(uid)
    held = {m["kind"] for m in ctx.state.markers if m.get("hex") == u.get("hex")}
    return memo_allowed(ctx, "advance_unit", {k: bool(u.get(k)) or k in held for k in setup.hold_marks})


def leave_hold(ctx: Any, setup: ResultsSetup, units: list[str], left: str) -> list[str]:
    """The stack ``units`` retreated out of ``left`` while holding (a flag of ``setup.hold_marks``
    on a unit, or its marker in ``left``): unless permission ``retreat_keeps_hold`` allows it, the
    flags are cleared and the markers removed from ``left``. Returns the cases of that
    permission's lines when the hold was left (else [])."""
    held = [k for k in setup.hold_marks if any(ctx.state.unit(u).get(k) for u in units)
            or any(m.get("kind") == k and m.get("hex") == left for m in ctx.state.markers)]
    if not held or ctx.allowed("retreat_keeps_hold", {}):
        return []
    for k in held:
        for u in units:
            if ctx.state.unit(u).get(k):
                ctx.state.update_unit(u, **{k: None})
        if any(m.get("kind") == k and m.get("hex") == left for m in ctx.state.markers):
            ctx.state.remove_marker(k, left)
    return list(permission_cases(ctx, "retreat_keeps_hold"))


def advance_paths(ctx: Any, side: str, vacated: str, hexes: int, eliminated: bool) -> list[list[str]]:
    """The advance paths after combat into the cleared hex ``vacated``: ``advance_hexes`` hexes
    at most (facts ``defenders_eliminated``, ``retreat_required``: ``hexes``), the first into the
    vacated hex, then any hex ``advance_into`` allows (fact ``enemy_occupied``), stopping where
    ``advance_beyond`` forbids going on (fact ``in_ezoc``). Paths of every length from 1, in
    label order (:func:`~casebook.areas.retreat.paths_up_to`)."""
    n = int(ctx.value("advance_hexes", {"defenders_eliminated": bool(eliminated), "retreat_required": hexes}))
    if n <= 1:
        return [[vacated]]

    def enter(here: str, there: str, path: list[str]) -> bool:
        return memo_allowed(ctx, "advance_into", {"enemy_occupied": enemy_occupied(ctx, there, side)})

    def stops(there: str) -> bool:
        return not memo_allowed(ctx, "advance_beyond", {"in_ezoc": in_ezoc(ctx, there, side)})
    return [[vacated, *p] for p in paths_up_to(vacated, _neighbours(ctx), enter, n - 1, stops)]


def overstack_words(ctx: Any, units: Sequence[str], end: str) -> tuple[str, tuple[str, ...]] | None:
    """``("0305: 6 stacking points, limit 5", cases)`` when ``units`` retreating into ``end`` would
    leave it overstacked (``casebook_stacking``; the cases of the stacking area's
    ``retreat_into_overstack`` and ``overstack_fatigue`` lines, e.g. 6.2F, 7.5A, 6.2E); else None."""
    over = ctx.hook.casebook_stacking(ctx=ctx, hex=end, units=[
        *(u["id"] for u in ctx.state.units_at(end) if u["id"] not in units), *units])
    if not over or not over.get("overstacked") or "points" not in over:
        return None
    return (f"{end}: {over['points']} stacking points, limit {over['limit']}",
            line_cases(ctx, ("retreat_into_overstack", "overstack_fatigue")))


def retreat_question(ctx: Any, setup: ResultsSetup, uid: str, hexes: int, path: list[str] | None = None) -> dict[str, Any]:
    """``retreat UNIT --hexes N``: the unit's stack retreating N hexes — every legal path of the
    greatest length possible, best first, with the losses for hexes not retreated; the
    attackers are the pending combat's when the unit is its defender (``attackers``, ``combat``:
    its hex — in an overrun the overrunning stack alone, 9.5), else taken to be the adjacent enemy
    units (``presumed_attackers``). The paths are those of the retreat
    prompt (:func:`retreat_options`); ``offered`` marks the best :data:`MAX_PATHS` the prompt
    lists as actions. With ``path``, ``"given"`` judges that path as the prompt judges a typed
    ``retreat path=…`` (:func:`path_refusals`): ``{"path", "legal", "refusals": [{"reason",
    "cases"}]}``. A path ending overstacked (legal where no other route is open) says so:
    ``"overstacks": "0305: 6 stacking points, limit 5"`` (``casebook_stacking``), its ``cases``
    adding those of the stacking area's ``retreat_into_overstack`` and ``overstack_fatigue``
    lines (e.g. 6.2F, 7.5A, 6.2E). ``cases``: those of the lines of who retreats, the shortfall, the rank and
    ``retreat_into_ezoc``. QuestionError for a unit not on the map."""
    from casebook.core.errors import QuestionError

    try:
        unit = ctx.state.unit(uid)
    except KeyError:
        raise QuestionError(f"retreat: no unit {uid!r} on the map") from None
    if "hex" not in unit:
        raise QuestionError(f"retreat: unit {uid!r} is not on the map")
    stack = [u["id"] for u in ctx.state.units_at(unit["hex"]) if u.get("side") == unit["side"]]
    rec = ctx.state.plugin_data("results") or {}  # a combat result awaiting this stack's retreat (_results_stages)
    combat = rec.get("combat") if rec.get("queue") and uid in (rec.get("combat") or {}).get("defenders", ()) else None
    adjacent = list(combat["attackers"]) if combat else [
        u["id"] for n in ctx.board.neighbours(parse_hex(unit["hex"]))
        for u in ctx.state.units_at(hex_label(n)) if u.get("side") != unit["side"]]
    options = retreat_options(ctx, setup, stack, unit["hex"], unit["side"], hexes, adjacent)
    for i, o in enumerate(options):  # the retreat prompt offers the best few of each length
        o["offered"] = i < MAX_PATHS
        over = overstack_words(ctx, stack, o["path"][-1]) if o["path"] else None
        if over is not None:  # legal (6.2F-like lines), but the stack ends overstacked
            o["overstacks"] = over[0]
            o["cases"] = list(dict.fromkeys([*o["cases"], *over[1]]))
    short_head, short_line = quantity_cases(ctx, "retreat_shortfall_losses")
    cases = [*permission_cases(ctx, "choose_retreat_length"), *short_head, *quantity_cases(ctx, "retreat_rank")[0],
             *permission_cases(ctx, "retreat_into_ezoc"), *short_line]
    out = {"unit": uid, "hex": unit["hex"], "stack": stack, "hexes": hexes,
           **({"attackers": adjacent, "combat": combat["hex"]} if combat else {"presumed_attackers": adjacent}),
           "options": options,
           "losses": options[0]["losses"] if options else hexes, "cases": list(dict.fromkeys(cases))}
    if path is not None:
        found = path_refusals(ctx, setup, stack, unit["hex"], unit["side"], path, hexes, adjacent)
        out["given"] = {"path": list(path), "legal": not found,
                        "refusals": [{"reason": r.reason, "cases": list(r.cases)} for r in found]}
    return out
