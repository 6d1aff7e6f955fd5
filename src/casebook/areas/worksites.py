"""Shared rules area ``worksites``: where a side may build works (the ``fieldworks`` markers, paid
with its points) and where works protect a hex in combat. A library the game's plugin (and the
``combat`` area) calls; it names no side, marker, fact or step of a game and holds no case id:
the game's :class:`Sites` and rule lines give them (e.g. Moscow '41's fortifications, 14.1-14.3).

- The facts of a hex for the build lines (:func:`hex_facts`): the names come from
  :attr:`Sites.facts` — ``city`` / ``town`` (its town's kind is / is not ``city_kind``), ``road``
  (a hexside of the hex carries one of ``road_kinds``), ``supplied`` (a unit of the builder side
  there, else the ``reinforcement`` area's supply ``probe`` placed there, can trace supply),
  ``enemy_zoc`` (``casebook_zoc`` answers a ZOC there against the builder side),
  ``unit_present`` (a combat unit of the builder side: the game's ``counts_as_combat_unit``
  lines, ``zoc`` area's ``is_combat_unit``),
  ``built`` (the work's marker stands there); ``distances``: fact -> hexes to the nearest hex of
  that map hex set; ``side``: the builder side. The printed ones are kept per board.
- The build (:func:`refusals`, :func:`offers`, :func:`apply`, :func:`answer`): the action is legal
  in the builder side's ``step`` where the permission ``permission`` allows it and the points pay
  the quantity ``cost`` (kinds in ``pay_order``, a kind of ``pay_permits`` only where its
  permission allows); where the permission ``pinned`` forbids, the builder may not move this
  turn. Candidate hexes: those of the builder side's units, and those the permission allows
  with only the printed facts (no unit there, supplied, no enemy ZOC, not built on), per board.
- Protection in combat (:func:`protected`, :func:`attacks_across`, asked by the ``combat`` area
  and by :func:`attack_facts`, the game's answer: one code path): a marker whose kind the
  permission ``marker_fortifies`` allows (fact ``marker_kind``) protects its hex from every
  direction; the map's printed faced work (``fieldworks.printed_facing``) where the permission
  ``printed_fortifies`` allows (fact ``across_printed_hexside``: the attack crosses its faced
  hexside; a game without the permission: from every direction), while every marker in the hex is one
  the permission ``printed_fortification_stands`` allows. A game without the marker lines has no
  marker protection.

Public API: :class:`Sites` (its YAML model :data:`SITES_CONFIG`, a game's config file: its
``facts``, ``cases`` and ``texts`` have exactly the keys :class:`SiteFacts`, :class:`SiteCases`
and :data:`TEXTS` name) and the functions of ``__all__``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casebook.content.packconfig import Cases, Cites, config_model, texts
from casebook.content.packrefs import FactRef, PermissionRef, QuantityRef, SideRef, StepRef
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal
from casebook.script.factlines import FactLines, lines_of

from . import fieldworks as fw
from ._zoc_map import is_combat_unit
from .reinforcement import probe as q

__all__ = ["Sites", "SiteFacts", "SiteCases", "TEXTS", "SITES_CONFIG",
           "combat_units", "board_facts", "hex_facts", "probe_supply", "candidates", "printed_candidates",
           "refusals", "offers", "apply", "answer", "marker_kinds", "protected", "attacks_across",
           "attack_facts"]


class SiteFacts(Cites):
    """Role -> the name of the fact of the build lines (the roles of the module docstring)."""

    city: FactRef
    town: FactRef
    road: FactRef
    supplied: FactRef
    enemy_zoc: FactRef
    unit_present: FactRef
    built: FactRef


class SiteCases(Cites):
    """Refusal -> the cases it cites: not the builder's step (``step``), no hex of the map
    (``hex``), the builder named not a combat unit there (``unit``), too few points (``cost``)."""

    step: Cases
    hex: Cases
    unit: Cases
    cost: Cases


#: Refusal -> the ``{fields}`` its text fills in: exactly a config's ``texts:`` (lint checks).
TEXTS = {"step": (), "hex": ("hex",), "unit": ("unit", "hex"), "cost": ("hex", "cost")}


@dataclass(frozen=True, kw_only=True)
class Sites:
    """A game's build of works: ``works`` (the ``fieldworks`` names: the points' track and kinds,
    the work's marker), ``side`` (who builds), ``step`` (the sequence step it builds in),
    ``action`` (the action kind, ``hex=H [unit=U]``), ``permission`` / ``cost`` (the build's
    permission and cost quantity), ``pinned`` (a permission: forbidden, the builder may not
    move this turn), ``pay_order`` / ``pay_permits`` (see ``fieldworks.payment``), ``probe``
    (plain unit data: the supply probe of an empty hex), ``facts`` (role -> fact name, roles in the module docstring),
    ``city_kind``, ``road_kinds`` (hexside features), ``distances`` (fact -> hex set);
    ``cases`` / ``texts``: refusal name (``step``, ``hex``, ``unit``, ``cost``) -> the cases it
    cites (:class:`SiteCases`) / its message (:data:`TEXTS`: ``{hex}``, ``{unit}``, ``{cost}``)."""

    works: fw.Works
    side: SideRef
    step: StepRef
    action: str
    permission: PermissionRef
    cost: QuantityRef
    pinned: PermissionRef
    pay_order: tuple[str, ...]
    pay_permits: Mapping[str, PermissionRef]
    probe: Mapping[str, Any]
    facts: SiteFacts
    city_kind: str
    road_kinds: tuple[str, ...]
    distances: Mapping[str, str] = field(default_factory=dict)
    cases: SiteCases
    texts: texts(TEXTS)  # type: ignore[valid-type]


#: The strict model of a game's ``Sites`` as YAML (a config file, :mod:`casebook.content.packconfig`):
#: every field but ``works`` (the game's ``fieldworks`` names, read from their own file).
SITES_CONFIG = config_model(Sites, python=("works",))


def combat_units(ctx: Any, s: Sites, hex_: str) -> list[str]:
    """Combat units of the builder side in ``hex_`` (the game's ``counts_as_combat_unit`` lines,
    :func:`~._zoc_map.is_combat_unit`: the one reading of every area), stack order."""
    return [u["id"] for u in ctx.state.units_at(hex_) if u.get("side") == s.side and is_combat_unit(ctx, u)]


def probe_supply(ctx: Any, s: Sites, hexes: list[str]) -> dict[str, bool]:
    """Whether the ``probe`` unit could trace supply from each of ``hexes`` (empty of the builder
    side's units), all probes asked together (``casebook.areas.reinforcement.probe``)."""
    return q.probe_supply(ctx, hexes, s.probe)


def _supplied(ctx: Any, s: Sites, hex_: str) -> tuple[bool, tuple[dict[str, Any], ...]]:
    """Whether ``hex_`` is supplied for the builder, with the lines of the supply answer that
    decided it (``()`` where none are collected)."""
    here = [u["id"] for u in ctx.state.units_at(hex_) if u.get("side") == s.side]
    if here:
        return q.supplied_lines(ctx, here[0])
    return probe_supply(ctx, s, [hex_])[hex_], q.probe_lines(ctx, hex_, s.probe)


def _enemy_zoc(ctx: Any, s: Sites, hex_: str) -> tuple[bool, tuple[dict[str, Any], ...]]:
    """Whether ``hex_`` is in an enemy ZOC against the builder, with (while ``ask`` or a refusal
    records lines) the lines that decided the hex's ZOC: the ZOC map's for the hex (who exerts a
    ZOC into it), not those of what the ZOC blocks."""
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex=hex_, side=s.side)
    found = answer is not None and answer.get("kind", "none") != "none"
    if not ctx.engine.recording:
        return found, ()
    zoc_map = ctx.hook.casebook_zoc_map(ctx=ctx, side=s.side)
    return found, tuple(((zoc_map or {}).get("lines") or {}).get(hex_) or ())


def board_facts(ctx: Any, s: Sites, hex_: str) -> dict[str, Any]:
    """The printed facts of ``hex_`` (``side``, ``city``, ``town``, ``road``, ``distances``), kept
    per board (``ctx.lasting``); ValueError/TypeError for a label that is no hex, KeyError for a
    hex off the map (as the board answers)."""
    cache = ctx.lasting("worksites.board_facts", s.side, s.facts["city"])
    found = cache.get(hex_)
    if found is None:
        h = parse_hex(hex_)
        town = ctx.board.hex(h).town or {}
        road = any(getattr(ctx.board.side(h, n), kind) for n in ctx.board.neighbours(h) for kind in s.road_kinds)
        found = {"side": s.side, s.facts["city"]: town.get("kind") == s.city_kind,
                 s.facts["town"]: bool(town) and town.get("kind") != s.city_kind, s.facts["road"]: road}
        for fact, hex_set in s.distances.items():
            found[fact] = min((ctx.board.grid.distance(h, m) for m in ctx.board.hex_set(hex_set)), default=999)
        cache[hex_] = found
    return found


def hex_facts(ctx: Any, s: Sites, hex_: str, supplied: bool | None = None) -> FactLines:
    """The facts of the build lines for ``hex_``: :func:`board_facts` and ``supplied``,
    ``enemy_zoc``, ``unit_present``, ``built``, with the lines that computed the supply, ZOC
    and combat-unit facts (:class:`~casebook.script.factlines.FactLines`: a refusal by a line
    reading one names them). ``supplied`` given: taken as the supply fact instead of asking (a
    pre-check)."""
    f = s.facts
    found, supply_lines = _supplied(ctx, s, hex_) if supplied is None else (supplied, ())
    zoc, zoc_lines = _enemy_zoc(ctx, s, hex_)
    present, present_lines = lines_of(ctx, lambda: bool(combat_units(ctx, s, hex_)))
    return FactLines({**board_facts(ctx, s, hex_), f["supplied"]: found, f["enemy_zoc"]: zoc,
                      f["unit_present"]: present, f["built"]: fw.has_marker(ctx, s.works.marker, hex_)},
                     {f["supplied"]: supply_lines, f["enemy_zoc"]: zoc_lines, f["unit_present"]: present_lines})


def _payment(ctx: Any, s: Sites, facts: Mapping[str, Any], cost: int) -> dict[str, int] | None:
    return fw.payment(ctx, s.works, s.pay_order, s.pay_permits, facts, cost)


def refusals(ctx: Any, s: Sites, action: Action) -> list[Refusal]:
    """Why the build ``hex=H [unit=U]`` is illegal: not the builder side's ``step`` (text
    ``step``), H no hex (``hex``), the permission's forbid lines, U not a combat unit of the side
    in H (``unit``), or the points short of the cost (``cost``, asked only if nothing else is)."""
    if ctx.state.step != s.step or ctx.state.phasing != action.side:
        return [Refusal(s.texts["step"], s.cases["step"])]
    hex_ = action.get("hex")
    try:
        facts = hex_facts(ctx, s, hex_)
    except (ValueError, TypeError):
        return [Refusal(s.texts["hex"].format(hex=repr(hex_)), s.cases["hex"])]
    out = fw.forbidding(ctx, s.permission, facts.given(side=action.side))
    unit = action.get("unit")
    if unit is not None and unit not in combat_units(ctx, s, hex_):
        out.append(Refusal(s.texts["unit"].format(unit=unit, hex=hex_), s.cases["unit"]))
    cost = ctx.value(s.cost, facts)
    if not out and _payment(ctx, s, facts, cost) is None:
        out.append(Refusal(s.texts["cost"].format(hex=hex_, cost=cost), s.cases["cost"]))
    return out


def printed_candidates(ctx: Any, s: Sites) -> frozenset[str]:
    """The hexes the permission allows with only their printed facts (no unit there, supplied,
    no enemy ZOC, not built on): asked once per board and kept."""
    cache = ctx.lasting("worksites.candidates", s.side, s.permission)
    if "printed" not in cache:
        f = s.facts
        assumed = {f["supplied"]: True, f["enemy_zoc"]: False, f["unit_present"]: False, f["built"]: False}
        cache["printed"] = frozenset(label for label in map(hex_label, ctx.board.hexes())
                                     if ctx.allowed(s.permission, {**board_facts(ctx, s, label), **assumed}))
    return cache["printed"]


def candidates(ctx: Any, s: Sites) -> list[str]:
    """Hexes worth asking about, sorted: the builder side's units' and :func:`printed_candidates`."""
    out = {u["hex"] for u in ctx.state.units if u.get("side") == s.side and "hex" in u}
    return sorted(out | printed_candidates(ctx, s))


def offers(ctx: Any, s: Sites, side: str) -> list[Action]:
    """Every legal build now (none without points). Hexes are first checked as if in supply;
    supply (the costly question) is asked only of those that pass, all probes at once."""
    w = s.works
    if side != s.side or not any(ctx.state.track(w.track, k) for k in w.point_kinds) \
            or ctx.state.step != s.step or ctx.state.phasing != side:
        return []
    maybe = []
    for hex_ in candidates(ctx, s):
        facts = hex_facts(ctx, s, hex_, supplied=True)
        if ctx.allowed(s.permission, facts) and _payment(ctx, s, facts, ctx.value(s.cost, facts)):
            maybe.append(hex_)
    probe_supply(ctx, s, [h for h in maybe if not any(u.get("side") == side for u in ctx.state.units_at(h))])
    return [Action.make(s.action, side, hex=h) for h in maybe if _supplied(ctx, s, h)[0]]


def apply(ctx: Any, s: Sites, action: Action) -> dict[str, Any]:
    """Pay the cost (``pay_order``) and place the work's marker in H; where ``pinned`` forbids,
    the combat unit U (default: the first in H) may not move this turn (``fieldworks.build_work``)."""
    hex_ = action.get("hex")
    facts = hex_facts(ctx, s, hex_)
    explained = ctx.quantity(s.cost, facts)
    paid = _payment(ctx, s, facts, explained.value)
    builder = (action.get("unit") or combat_units(ctx, s, hex_)[0]) if not ctx.allowed(s.pinned, facts) else None
    return fw.build_work(ctx, s.works, action, explained, paid or {}, builder)


def answer(ctx: Any, s: Sites, hex_: str) -> dict[str, Any]:
    """What building in ``hex_`` costs and whether it may be built now: ``{"cost", "allowed",
    "refused": [{"reason", "cases"}]}`` — play's verdict on ``ACTION hex=H`` (:func:`refusals`:
    the step, the forbid lines no permit overrides, the points short of the cost; one code path).
    QuestionError (text ``hex``) for a label that is no hex."""
    try:
        facts = hex_facts(ctx, s, hex_)
    except (ValueError, TypeError):
        raise QuestionError(s.texts["hex"].format(hex=repr(hex_))) from None
    refused = [{"reason": r.reason, "cases": list(r.cases)}
               for r in refusals(ctx, s, Action.make(s.action, s.side, hex=hex_))]
    return {"cost": ctx.value(s.cost, facts), "allowed": not refused, "refused": refused}


def marker_kinds(ctx: Any, hex_: str) -> frozenset[str]:
    """The kinds of the markers in ``hex_`` (indexed once per state version)."""
    found = ctx.memo.get("worksites.marker_kinds")
    if found is None:
        kinds: dict[Any, set[str]] = {}
        for m in ctx.state.markers:
            kinds.setdefault(m.get("hex"), set()).add(m.get("kind"))
        found = ctx.memo["worksites.marker_kinds"] = {h: frozenset(k) for h, k in kinds.items()}
    return found.get(hex_, frozenset())


def _line_allowed(ctx: Any, permission: str, fact: str, value: Any, default: bool) -> bool:
    """The game's ``permission`` for one value of one fact (``marker_kind``, ``across_printed_hexside``),
    once per state version; ``default`` in a game without the permission. Its lines are not an
    event's (not noted)."""
    if permission not in ctx.rules.permissions:
        return default
    kept = ctx.memo.setdefault(("worksites.line", permission), {})
    if value not in kept:
        kept[value] = ctx.rules.allowed(permission, {fact: value}, ctx.engine.script_tables, ctx.standard)
    return bool(kept[value])


def _kind_allowed(ctx: Any, permission: str, kind: str, default: bool) -> bool:
    return _line_allowed(ctx, permission, "marker_kind", kind, default)


def protected(ctx: Any, hex_: str, from_hex: str | None = None) -> bool:
    """Whether works protect ``hex_`` against an attack from the adjacent ``from_hex`` (None:
    from some direction): a marker ``marker_fortifies`` allows, or a printed faced work that
    ``printed_fortifies`` allows (``across_printed_hexside``: ``from_hex`` is across its faced
    hexside; always, for None) while ``printed_fortification_stands`` allows every marker there."""
    kinds = marker_kinds(ctx, hex_)
    if any(_kind_allowed(ctx, "marker_fortifies", k, False) for k in kinds):
        return True
    facing = fw.printed_facing(ctx, hex_)
    if not facing or not all(_kind_allowed(ctx, "printed_fortification_stands", k, True) for k in kinds):
        return False
    across = from_hex is None or from_hex in facing
    return _line_allowed(ctx, "printed_fortifies", "across_printed_hexside", across, True)


def attacks_across(ctx: Any, from_hex: str, to_hex: str) -> bool:
    """Whether an attack from ``from_hex`` into ``to_hex`` is against works protecting ``to_hex``
    (:func:`protected`; False unless the hexes are adjacent: no hexside is crossed)."""
    if ctx.board.grid.distance(parse_hex(from_hex), parse_hex(to_hex)) != 1:
        return False
    return protected(ctx, to_hex, from_hex)


def attack_facts(ctx: Any, w: fw.Works, hex_: str, attackers: Iterable[str]) -> dict[str, Any]:
    """Facts of an attack on ``hex_``, as the ``combat`` area judges them (:func:`attacks_across`):
    ``across_fortification`` per attacker, ``fortified`` (any of them) and ``attackers_fortified``
    (permission ``helps_attacker``), citing the Works' ``cases`` (``across``, ``fortified``, ``helps``)."""
    at = {a: ctx.state.unit(a).get("hex") for a in attackers}
    across = {a: bool(h) and attacks_across(ctx, h, hex_) for a, h in at.items()}
    return {"across_fortification": {"value": across, "cases": list(w.cases["across"])},
            "fortified": {"value": any(across.values()), "cases": list(w.cases["fortified"])},
            "attackers_fortified": {"value": ctx.allowed(w.helps_attacker, {}), "cases": list(w.cases["helps"])}}
