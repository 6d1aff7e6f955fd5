"""Who may attack whom, and what it costs (private to the `combat` plugin): 10.1A-C, 0.7.3.3A,
0.7.3.5A, 10.5A-C, 2.3A-C, 10.4.2A-B; the plugin's own record of who attacked in this step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, islice, product
from typing import Any

from casebook.areas import _combat_odds as odds
from casebook.areas._combat_odds import below_table, gather, in_command, is_hq, procedure_cases, rules_permit, supplied
from casebook.areas._combat_support import attacker_in_command, unsupported
from casebook.areas._combat_validators import attack_action, cited, other_refusals
from casebook.areas._game_cases import given
from casebook.core.hexgrid import parse_hex
from casebook.core.hooks import Refusal
from casebook.script import AskedFacts

__all__ = ["record", "save", "noted_flags", "again", "attack_refusals", "support_allowed", "support_refused", "support_cost",
           "max_support",
           "reaction_cost", "eligible_attackers", "targets", "attack_groups", "attack_legal", "within_limit_groups",
           "per_version", "kept"]

PLUGIN = "combat"


def per_version(ctx: Any, key: Any, make: Any) -> Any:
    """``make()`` once per state version (``ctx.memo``: any change to the state makes a new
    version, so a kept value never outlives what it was computed from). Only for values read
    from the state and the content: answers of other areas' hooks are kept by :func:`kept`."""
    memo = ctx.memo
    mkey = (PLUGIN, key)
    if mkey not in memo:
        memo[mkey] = make()
    return memo[mkey]


def kept(cache: dict[Any, Any] | None, key: Any, make: Any) -> Any:
    """``make()`` once per ``cache`` — a dict living for one listing of the legal actions (the
    state cannot change during it), or None for no caching."""
    if cache is None:
        return make()
    if key not in cache:
        cache[key] = make()
    return cache[key]


def record(ctx: Any) -> dict[str, Any]:
    """The plugin's record (``plugin_state.combat``), reset when the phase changes."""
    rec = ctx.state.plugin_data(PLUGIN) or {}
    phase_key = f"{ctx.state.turn}:{ctx.state.phase}"
    if rec.get("phase") != phase_key:
        old = rec
        rec = {"phase": phase_key, "attacked_phase": [], "attacked_step": [], "defended_step": []}
        for flag in noted_flags(ctx):  # notes outlive the phase (_combat_notes)
            rec[flag] = old.get(flag, [])
    return rec


def noted_flags(ctx: Any) -> dict[str, tuple[str, ...]]:
    """The unit flags a combat roll notes units for: FLAG -> the cases of the game's
    ``note_FLAG`` lines, in script order (none: the game notes nothing; :mod:`._combat_notes`)."""
    kept_flags = ctx.lasting("combat.noted_flags", pause=False)  # cases read: no line fires
    if "flags" not in kept_flags:
        kept_flags["flags"] = {a[len("note_"):]: tuple(dict.fromkeys(c for _, rc, _ in code.lines for c in rc.cases))
                               for a, code in ctx.rules.permissions.items() if a.startswith("note_")}
    return kept_flags["flags"]


def _unit_facts(ctx: Any, uid: str, plain: Mapping[str, Any], support_path: str | None = None) -> AskedFacts:
    """``plain`` facts, and the unit's ``supplied`` and ``in_command`` asked when read; for combat
    support (``support_path`` "attacker"/"defender") ``in_command`` is 10.4.2B's path: to the
    activating HQ for the attacker, to any HQ for the defender (:mod:`._combat_support`)."""
    def command() -> bool:
        if support_path == "attacker":
            return attacker_in_command(ctx, uid)
        return in_command(ctx, uid)
    return AskedFacts(plain, {"supplied": lambda: supplied(ctx, uid), "in_command": command})


def _seen(ctx: Any) -> dict[str, frozenset[str]]:
    """Who attacked this phase and step and who defended this step (:func:`record`, read once
    per state version: each read of plugin data is a copy)."""
    def make() -> dict[str, frozenset[str]]:
        rec = record(ctx)
        return {k: frozenset(rec[k]) for k in ("attacked_phase", "attacked_step", "defended_step")}
    return per_version(ctx, "seen", make)


def save(ctx: Any, rec: Mapping[str, Any]) -> None:
    ctx.state.set_plugin_data(PLUGIN, dict(rec))


def _kind_for_step(ctx: Any) -> str:
    return "reaction" if ctx.state.step == "reaction_attacks" else "attack"


def eligible_attackers(ctx: Any, side: str, kind: str) -> list[Mapping[str, Any]]:
    """Units of ``side`` that may join an attack now (10.1A): in the combat step, activated units
    and units marked Reserve that have not attacked this phase (0.7.3.3A); in the reaction-attacks
    step, non-phasing units not yet activated this phase (activated for the attack, 10.5A, 2.0);
    never a unit that attacked in this step (10.1C). A game whose scripts permit
    ``attack_without_activation`` (e.g. BM8.1) lets every unit of the phasing side
    attack once a combat phase. Kept per state version."""
    return list(per_version(ctx, ("eligible", side, kind), lambda: _eligible(ctx, side, kind)))


def _eligible(ctx: Any, side: str, kind: str) -> tuple[Mapping[str, Any], ...]:
    rec = _seen(ctx)
    open_attack = kind == "attack" and rules_permit(ctx, "attack_without_activation")
    out = []
    for u in ctx.state.units:
        if u.get("side") != side or "hex" not in u or (u["id"] in rec["attacked_step"] and not again(ctx, "attack", kind)):
            continue
        if kind == "reaction":
            if u.get("activated") or side == ctx.state.phasing:
                continue
        elif u["id"] in rec["attacked_phase"] or not (open_attack or u.get("activated") or u.get("reserve")):
            continue
        out.append(u)
    return tuple(out)


def _eligible_ids(ctx: Any, side: str, kind: str) -> frozenset[str]:
    return per_version(ctx, ("eligible-ids", side, kind),
                       lambda: frozenset(u["id"] for u in eligible_attackers(ctx, side, kind)))


def targets(ctx: Any, side: str, kind: str) -> dict[str, list[str]]:
    """Enemy-occupied hex -> eligible adjacent attackers (ids, sorted), for the legal actions:
    hexes none of whose units was attacked in this step (10.1C)."""
    open_hexes = _open_targets(ctx, side, kind)
    found: dict[str, list[str]] = {}
    for u in eligible_attackers(ctx, side, kind):
        for h in ctx.board.label_neighbours(u["hex"]):
            if h in open_hexes:
                found.setdefault(h, []).append(u["id"])
    return {h: sorted(v) for h, v in sorted(found.items())}


def _open_targets(ctx: Any, side: str, kind: str = "attack") -> frozenset[str]:
    """Hexes holding units not of ``side``, none of them attacked in this step unless the game's
    ``defend_again`` lines allow it (per version)."""
    def make() -> frozenset[str]:
        defended = _seen(ctx)["defended_step"] if not again(ctx, "defend", kind) else frozenset()
        held, attacked = set(), set()
        for u in ctx.state.units:
            h = u.get("hex")
            if h is not None and u.get("side") != side:
                held.add(h)
                if u["id"] in defended:
                    attacked.add(h)
        return frozenset(held - attacked)
    return per_version(ctx, ("open-targets", side, kind), make)


def again(ctx: Any, role: str, kind: str) -> bool:
    """Whether a unit that attacked (``role`` "attack") or was attacked ("defend") in this step
    may do so again in an attack of ``kind`` (attack, reaction, overrun): the game's
    ``attack_again``/``defend_again`` lines (e.g. 10.1C: never, but a defender may be overrun
    again; BM8.1: once a combat phase). Per state version."""
    return bool(per_version(ctx, ("again", role, kind), lambda: ctx.allowed(f"{role}_again", {"kind": kind})))


def _again_cases(ctx: Any, role: str, kind: str) -> tuple[str, ...]:
    """The cases of the ``ROLE_again`` lines that forbid it for ``kind`` (the refusal's)."""
    verdict = ctx.permission(f"{role}_again", {"kind": kind})
    return tuple(dict.fromkeys(c for ln in verdict.lines if ln.fired and ln.kind == "forbid" for c in ln.cases))


def attack_groups(ctx: Any, side: str, hex_: str, units: Sequence[str], kind: str,
                  cache: dict[Any, Any] | None = None) -> list[list[str]]:
    """The groups of eligible adjacent ``units`` offered to attack ``hex_`` (before their own
    refusals are checked). A game whose scripts permit ``choose_attackers`` (e.g. BM8.1: one
    unit a hex, so at most six attackers, 63 groups) offers every non-empty subset, largest
    first, then in the order of the sorted ids; otherwise all of them, or,
    when all of them may not attack, the groups up to the stacking limit of each hex (6.2D:
    :func:`within_limit_groups`) and, outside reactions, each one alone. ``cache``: see
    :func:`kept`."""
    if kind == "attack" and rules_permit(ctx, "choose_attackers"):
        ids = sorted(units)
        return [list(c) for n in range(len(ids), 0, -1) for c in combinations(ids, n)]
    if kind in ("attack", "reaction") and not attack_legal(ctx, side, hex_, units, kind, cache):
        trimmed = within_limit_groups(ctx, units)
        if kind == "reaction":
            return trimmed or [list(units)]
        return trimmed + [[u] for u in units if [u] not in trimmed]
    return [list(units)]


def attack_legal(ctx: Any, side: str, hex_: str, group: Sequence[str], kind: str,
                 cache: dict[Any, Any] | None = None) -> bool:
    """Whether :func:`attack_refusals` (its quick form) and the other areas' validators (6.2D,
    15.3B-C …: :func:`~casebook.areas._combat_validators.other_refusals`) have nothing against
    ``group`` attacking ``hex_`` without support (kept in ``cache``, see :func:`kept`)."""
    key = ("legal", side, hex_, tuple(group), kind)
    return kept(cache, key, lambda: not attack_refusals(ctx, side, hex_, group, kind, quick=True, cache=cache)
                and not other_refusals(ctx, attack_action(side, hex_, group)))


def within_limit_groups(ctx: Any, units: Sequence[str], most: int = 8) -> list[list[str]]:
    """6.2D "only units up to the stacking limit can attack, of the attacker's choice": the
    groups of ``units`` that keep, in every hex they attack from, the largest number of its units
    the stacking limit allows (each such choice, in the order of the sorted ids; at most ``most``
    groups). Empty when no hex of ``units`` is over the limit (the stacking area's answer)."""
    by_hex: dict[str, list[str]] = {}
    for u in sorted(units):
        by_hex.setdefault(ctx.state.unit(u)["hex"], []).append(u)
    choices: list[list[tuple[str, ...]]] = []
    trimmed = False
    for h, ids in sorted(by_hex.items()):
        options: list[tuple[str, ...]] = [tuple(ids)]
        for n in range(len(ids), 0, -1):
            fit = [c for c in combinations(ids, n) if not _over(ctx, h, c)]
            if fit:
                options = fit
                trimmed = trimmed or n < len(ids)
                break
        choices.append(options)
    if not trimmed:
        return []
    return [sorted(u for part in combo for u in part) for combo in islice(product(*choices), most)]


def _over(ctx: Any, hex_: str, ids: Sequence[str]) -> bool:
    answer = ctx.hook.casebook_stacking(ctx=ctx, hex=hex_, units=list(ids))
    return bool(answer and answer.get("overstacked"))


def reaction_cost(ctx: Any, side: str, attackers: Sequence[str]) -> int:
    """IPs to activate ``attackers`` for a reaction attack (0.7.3.5A): ``ip_cost`` for a reaction
    per stack, or per unit under setting ``reaction_cost_per`` (interpretation reaction-cost)."""
    per = ctx.value("ip_cost", {"ip_use": "reaction", "side": side})
    if ctx.state.setting("reaction_cost_per", "stack") == "unit":
        return per * len(attackers)
    return per * len({ctx.state.unit(a)["hex"] for a in attackers})


def support_cost(ctx: Any, side: str, drm: int) -> int:
    """IPs for ``drm`` DRMs of combat support (10.4.2A: script ``ip_cost``), kept per engine:
    the rule scripts and tables do not change during play."""
    return ctx.kept(("combat.support_cost",), (side, drm), lambda: ctx.value(
        "ip_cost", {"ip_use": "combat_support", "side": side, "support_drm": drm}))


def support_allowed(ctx: Any, units: Sequence[str], attacking: bool, overrun: bool = False,
                    cache: dict[Any, Any] | None = None) -> Any:
    """The verdict (script permission ``combat_support``) on buying combat support for ``units``:
    every one must be in supply and in command — an attacker of the activating HQ, a defender of
    any HQ (2.3B attacker, 2.3C defender, 10.4.2B: :mod:`._combat_support`); never for
    an overrunning attacker (9.5A). Returns the failing Explanation or the last passing one.
    Each unit's verdict is kept in ``cache`` (see :func:`kept`)."""
    verdict = None
    for u in units:
        if is_hq(ctx.state.unit(u)):
            continue
        verdict = kept(cache, ("support", u, attacking, overrun), lambda u=u: ctx.permission(
            "combat_support", _unit_facts(ctx, u, {"overrun": overrun, "attacking": attacking},
                                          "attacker" if attacking else "defender")))
        if not verdict.value:
            return verdict
    return verdict


def support_refused(ctx: Any, units: Sequence[str], attacking: bool, overrun: bool = False) -> tuple[str, tuple[str, ...]]:
    """(Which of ``units`` may not receive combat support and why, the cases of the lines that refused
    them): ``._combat_support.unsupported`` on the facts :func:`support_allowed` asks (10.4.2B, 2.3B-C)."""
    return unsupported(ctx, units, lambda u: _unit_facts(ctx, u, {"overrun": overrun, "attacking": attacking},
                                                         "attacker" if attacking else "defender"))


def _reaction_verdict(ctx: Any, side: str, uid: str, cache: dict[Any, Any] | None) -> Any:
    """The verdict (permission ``reaction_attack``) on activating ``uid`` for a reaction attack
    (2.4A-B), kept in ``cache`` (see :func:`kept`)."""
    return kept(cache, ("reaction", side, uid), lambda: ctx.permission(
        "reaction_attack", _unit_facts(ctx, uid, {"turn": ctx.state.turn, "side": side})))


def max_support(ctx: Any, side: str, available: int, facts_for: Any) -> int:
    """The most IPs worth spending on support: the largest whole-DRM purchase ``side`` can afford
    that still changes the clamped DRM (``facts_for(ips)`` gives ``attack_drm`` facts)."""
    best, drm = 0, 1
    last = ctx.value("attack_drm", facts_for(0))
    while support_cost(ctx, side, drm) <= available:
        value = ctx.value("attack_drm", facts_for(support_cost(ctx, side, drm)))
        if value == last:
            break
        best, last, drm = support_cost(ctx, side, drm), value, drm + 1
    return best


def _cases(ctx: Any, key: str) -> tuple[str, ...]:
    """The cases an eligibility refusal cites: :func:`cited` ``key``, or in a game whose scripts
    permit ``attack_without_activation`` the cases of that line (e.g. BM8.1: who may attack)."""
    if rules_permit(ctx, "attack_without_activation"):
        return tuple(ctx.permission("attack_without_activation", {}).cases)
    return cited(ctx, key)


def attack_refusals(ctx: Any, side: str, hex_: str, attackers: Sequence[str], kind: str,
                    support: int = 0, quick: bool = False, cache: dict[Any, Any] | None = None) -> list[Refusal]:
    """Why ``side`` may not attack ``hex_`` with ``attackers`` (``kind`` attack/reaction/overrun)
    paying ``support`` IPs: each refusal names its cases; empty when the attack is legal.

    ``quick`` (for the legal actions) stops at the first refusal found, judging the IP cost
    before the supply and command of each unit: the list is empty exactly when the full one is,
    and otherwise holds some of its refusals. ``cache``: see :func:`kept`."""
    out: list[Refusal] = []
    rec = _seen(ctx)
    try:
        parse_hex(hex_)
        on_map = ctx.board.contains(parse_hex(hex_))
    except ValueError:
        on_map = False
    enemy = [u for u in ctx.state.units_at(hex_) if u.get("side") != side] if on_map else []
    if not enemy:
        return [Refusal(f"no enemy unit in hex {hex_} to attack", _cases(ctx, "no_target"), PLUGIN)]
    if not attackers:
        return [Refusal("an attack needs at least one attacking unit", _cases(ctx, "no_attacker"), PLUGIN)]
    twice = sorted({a for a in attackers if list(attackers).count(a) > 1})
    if twice:
        return [Refusal(f"{', '.join(map(str, twice))} named more than once: the attacker announces each "
                        "attacking unit once", _cases(ctx, "attacker_twice"), PLUGIN)]
    if any(u["id"] in rec["defended_step"] for u in enemy) and not again(ctx, "defend", kind):
        out.append(Refusal(f"the units in {hex_} were already attacked in this step", _again_cases(ctx, "defend", kind),
                           PLUGIN))
    eligible = _eligible_ids(ctx, side, "reaction" if kind == "reaction" else "attack")
    units = []
    for a in attackers:
        if not ctx.state.has_unit(a):
            out.append(Refusal(f"no unit {a!r} on the map", _cases(ctx, "no_unit"), PLUGIN))
            continue
        u = ctx.state.unit(a)
        units.append(u)
        if u.get("side") != side:
            out.append(Refusal(f"{a} is not a {side} unit", _cases(ctx, "not_own_unit"), PLUGIN))
        elif hex_ not in ctx.board.label_neighbours(u["hex"]):  # on the map: adjacent = a neighbour
            out.append(Refusal(f"{a} is not adjacent to {hex_}", _cases(ctx, "not_adjacent"), PLUGIN))
        elif a in rec["attacked_step"] and not again(ctx, "attack", kind):
            out.append(Refusal(f"{a} already attacked in this step", _again_cases(ctx, "attack", kind), PLUGIN))
        elif kind != "overrun" and a not in eligible:
            cases = cited(ctx, "reaction_activated" if kind == "reaction" else "not_activated")
            why = ("is already activated in this phase" if kind == "reaction"
                   else "is neither activated nor in reserve, or attacked already this phase")
            out.append(Refusal(f"{a} {why}", cases, PLUGIN))
    hexes_with_combat = {u["hex"] for u in units if not is_hq(u)}
    for u in units:
        if is_hq(u) and u["hex"] not in hexes_with_combat:
            out.append(Refusal(f"HQ {u['id']} can join an attack only with combat units of its stack", _cases(ctx, "hq_alone"), PLUGIN))
    if kind == "attack" and any(u.get("reserve") for u in units) and not any(
            u.get("activated") and not u.get("reserve") for u in units):
        out.append(Refusal("a Reserve unit attacks only in conjunction with a currently activated unit",
                           _cases(ctx, "reserve_alone"), PLUGIN))
    if quick and out:
        return out
    if not out and units and "attack" in ctx.rules.permissions:
        f = gather(ctx, [u["id"] for u in units], hex_)
        verdict = ctx.permission("attack", {**f.drm_facts, "odds_below_table": below_table(
            ctx, f.attack_strength, f.defense_strength)})
        if not verdict.value:
            cases = tuple(c for ln in verdict.lines if ln.fired and ln.kind == "forbid" for c in ln.cases)
            first = dict(ctx.table("crt").dims)["odds"][0]
            out.append(Refusal(f"the odds {f.attack_strength}:{f.defense_strength} are below the CRT's first "
                               f"column, {first}", cases, PLUGIN))
    cost = reaction_cost(ctx, side, attackers) if kind == "reaction" and not out else 0
    if quick and (out or cost + max(0, support) > ctx.state.track("ip", side)):
        return out or [_ip_refusal(ctx, side, cost, support)]
    if kind == "reaction" and not out:
        for u in units:
            verdict = _reaction_verdict(ctx, side, u["id"], cache)
            if not verdict.value:
                cases = tuple(c for ln in verdict.lines if ln.fired and ln.kind == "forbid" for c in ln.cases)
                out.append(Refusal(f"{u['id']} may not be activated for a reaction attack",
                                   cases or cited(ctx, "reaction_refused"), PLUGIN))
                if quick:
                    return out
    if support:
        verdict = support_allowed(ctx, attackers, True, kind == "overrun", cache)
        if verdict is not None and not verdict.value:  # which units, and why (the facts the lines read)
            whys, cases = support_refused(ctx, attackers, True, kind == "overrun")
            out.append(Refusal(f"combat support needs every attacking unit in supply and in command: {whys}", cases, PLUGIN))
    if cost + max(0, support) > ctx.state.track("ip", side):
        out.append(_ip_refusal(ctx, side, cost, support))
    return out


def _ip_refusal(ctx: Any, side: str, cost: int, support: int) -> Refusal:
    # the reaction activation's IPs (ip_short_reaction) and any combat support's (ip_short)
    keys = ("ip_short_reaction",) * bool(cost) + ("ip_short",) * (support > 0 or not cost)
    cases = tuple(dict.fromkeys(c for k in keys for c in given(ctx, PLUGIN, k) or ()))
    if support > 0 and odds.rules_define(ctx, "ip_cost"):  # and the support's cost lines (10.4.2A), named as ask attack does
        fired = ctx.fired_lines(ctx.quantity("ip_cost", {"ip_use": "combat_support", "side": side, "support_drm": 1}))
        cases = tuple(dict.fromkeys([*cases, *(c for ln in fired for c in ln.get("cases") or ())]))
    if not any(c in ctx.pack.cases for c in cases):  # a game without IPs: no combat support to buy
        return Refusal(f"{side} has no combat support to buy in this game (support={support})",
                       tuple(procedure_cases(ctx, [])), PLUGIN)
    return Refusal(f"{side} has {ctx.state.track('ip', side)} IPs, the attack needs {cost + support}", cases, PLUGIN)
