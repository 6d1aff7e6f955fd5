"""Who an HQ activation, a single-stack activation and a recovery may take, for the games whose
HQs activate the units in command (the eligibility walks of a Command Step and a Recovery Step):
game-neutral, parameterised by a :class:`~casebook.areas.command.CommandPaths` and the game's
lines. It holds no case id; every number and verdict is a line's —

- quantities ``command_step_side`` (who acts in those steps: a side or ``phasing_side`` as the
  line computes it), ``hq_stack_ip_cost`` (IPs each stack an HQ activates costs besides the HQ),
  ``stack_activation_marker`` (``reserve`` or ``none``: the marker a stack activated on its own
  receives), ``hq_activation_limit`` (facts ``side``, ``command_limit``, ``stacks_in_command``),
  ``ip_cost`` (facts ``ip_use``: ``activate_hq`` with ``side`` and ``supplied``,
  ``activate_stack``, ``remove_fatigue`` with ``recovering_divisions``);
- permissions ``hq_activate_unit`` (the command area's), ``activate_stack`` (fact ``supplied``),
  ``remove_fatigue`` (facts ``supplied``, ``in_command``).

- permission ``activate_hq`` (fact ``activated``: whether an HQ may be activated);
- permission ``remove_activation_markers`` (fact ``ending_step``): the step at whose end the
  Activation and Reserve markers come off (:func:`clear_activation` cites its lines).

Supply is the supply plugin's verdict (``casebook_supply``; in supply when none answers).
Stacks are hex labels; units the state's unit mappings; the plugin data of the configuration's
``name`` holds ``done`` (the step's activation is made) and ``activated_by`` (unit -> the HQ
that activated it, until the markers come off).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casebook.core.actions import Action
from casebook.core.hexgrid import parse_hex
from casebook.core.templates import ActionTemplate

from ._zoc_cites import line_cases
from .command import CommandPaths
from .search import path_within
from .supply import allowed

__all__ = ["step_side", "stack_ip", "stack_marker", "supplied", "stack_units", "unit_hexes", "side_stacks",
           "eligible", "hq_cost", "hq_stacks", "hq_limit", "single_stacks", "recoverable", "recover_cost", "refused_stack",
           "refused_single", "refused_recovery", "done",
           "affordable", "activate_stack_hexes", "clear_activation", "activated_by", "legal", "templates", "apply"]


def _kept(cfg: CommandPaths, ctx: Any, quantity: str) -> Any:
    """The script quantity ``quantity`` (no facts), asked once per state version, its lines
    noted at every read (``ctx.memo_kept``)."""
    return ctx.memo_kept((cfg.name, quantity), lambda: ctx.value(quantity, {}))


def step_side(cfg: CommandPaths, ctx: Any) -> str:
    """Who acts in the Command and Recovery Steps: the script quantity ``command_step_side``
    (e.g. the phasing player), once per state version."""
    return str(_kept(cfg, ctx, "command_step_side"))


def stack_ip(cfg: CommandPaths, ctx: Any) -> int:
    """IPs each stack an HQ activates costs besides the HQ: script ``hq_stack_ip_cost``."""
    return int(_kept(cfg, ctx, "hq_stack_ip_cost"))


def stack_marker(cfg: CommandPaths, ctx: Any) -> str:
    """The marker a stack activated on its own receives: script ``stack_activation_marker``
    ``"reserve"`` or ``"none"``."""
    return str(_kept(cfg, ctx, "stack_activation_marker"))


def supplied(ctx: Any, uid: str) -> bool:
    """The supply plugin's verdict now; True when no plugin answers (degraded play)."""
    answer = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
    return True if answer is None else bool(answer.get("in_supply"))


def stack_units(cfg: CommandPaths, ctx: Any, side: str, hex_: str) -> list[Mapping[str, Any]]:
    """Units of ``side`` in ``hex_`` that an activation can take: not HQs, not yet activated."""
    return [u for u in ctx.state.units_at(hex_)
            if u.get("side") == side and u.get("class") != cfg.hq_class and not u.get("activated")]


def unit_hexes(ctx: Any, side: str) -> list[str]:
    return sorted({u["hex"] for u in ctx.state.units if u.get("side") == side and u.get("hex")})


def side_stacks(cfg: CommandPaths, ctx: Any, side: str, hqs: bool = False) -> dict[str, list[Mapping[str, Any]]]:
    """Hex -> :func:`_stack_units` of ``side`` (with ``hqs``, HQs too: an HQ's activation asks
    ``hq_activate_unit`` of each), for every hex of ``side`` (label order), built in
    one pass over the units once per state version (``ctx.memo``)."""
    key = (cfg.name, "stacks", side, hqs)
    found = ctx.memo.get(key)
    if found is None:
        by_hex: dict[str, list[Mapping[str, Any]]] = {}
        for u in ctx.state.units:
            if u.get("side") == side and u.get("hex"):
                units = by_hex.setdefault(u["hex"], [])
                if (hqs or u.get("class") != cfg.hq_class) and not u.get("activated"):
                    units.append(u)
        found = ctx.memo[key] = {h: by_hex[h] for h in sorted(by_hex)}
    return found


def eligible(cfg: CommandPaths, ctx: Any, side: str, hq_mechanized: bool) -> list[tuple[str, Any, list[str]]]:
    """``(hex label, Hex, unit ids)`` for every hex of ``side`` holding units an HQ (mechanized
    or not) may activate (not yet activated; the ``hq_activate_unit`` lines), in label order;
    once per state version. A listing of the whole side: it names no line (the activation names
    the lines of the units it takes, :func:`apply`)."""
    key = (cfg.name, "eligible", side, hq_mechanized)
    memo = ctx.memo
    found: list[tuple[str, Any, list[str]]] | None = memo.get(key)
    if found is None:
        found = []
        with ctx.apart():
            for hex_, units in side_stacks(cfg, ctx, side, hqs=True).items():
                ids = [u["id"] for u in units if cfg.may_activate(ctx, u, hq_mechanized)]
                if ids:
                    found.append((hex_, parse_hex(hex_), ids))
        memo[key] = found
    return found


def hq_cost(ctx: Any, hq: Mapping[str, Any]) -> int:
    """IPs to activate ``hq``: ``ip_cost`` for ``activate_hq``, its side and its supply."""
    return ctx.value("ip_cost", {"ip_use": "activate_hq", "side": hq["side"],
                                 "supplied": supplied(ctx, hq["id"])})


def hq_stacks(cfg: CommandPaths, ctx: Any, hq: Mapping[str, Any]) -> dict[str, list[str]]:
    """Hex -> unit ids the HQ can activate now, judged when asked: units in command of it (its
    command paths, :class:`CommandPaths`) that it may activate and not yet activated; in
    canonical order (nearest first, then hex label). A hex with no unit the HQ could take is not
    traced to (same answer, one path search fewer)."""
    out: dict[str, tuple[int, list[str]]] = {}
    reach, radius, board = cfg.reach(ctx, hq), cfg.path_hexes(ctx, hq), ctx.board
    start, distance = parse_hex(hq["hex"]), ctx.board.grid.distance
    for hex_, h, ids in eligible(cfg, ctx, hq["side"], bool(hq.get("mechanized"))):
        path = reach.get(h)  # = cfg.path when traced to directly
        if path is None:
            if distance(start, h) > radius:
                continue  # farther than the path length: no command path (see cfg.answer)
            path = path_within(board, reach, h, radius)
        if path is not None:
            out[hex_] = (len(path) - 1, list(ids))
    return {h: ids for h, (_, ids) in sorted(out.items(), key=lambda kv: (kv[1][0], kv[0]))}


def hq_limit(ctx: Any, hq: Mapping[str, Any], eligible: int) -> int:
    """How many stacks ``hq`` may activate: ``hq_activation_limit`` for its side, its Command
    Limit and the ``eligible`` stacks in command."""
    return ctx.value("hq_activation_limit", {"side": hq["side"], "command_limit": int(hq.get("limit") or 0),
                                             "stacks_in_command": eligible})


def single_stacks(cfg: CommandPaths, ctx: Any, side: str) -> dict[str, list[str]]:
    """Hex -> unit ids an individual activation takes: unactivated units the ``activate_stack``
    lines allow (fact ``supplied``)."""
    out = {}
    for hex_ in unit_hexes(ctx, side):
        ids = [u["id"] for u in stack_units(cfg, ctx, side, hex_)
               if ctx.permission("activate_stack", {"supplied": supplied(ctx, u["id"])}).value]
        if ids:
            out[hex_] = ids
    return out


def recoverable(cfg: CommandPaths, ctx: Any, side: str) -> dict[str, list[str]]:
    """Hex -> fatigued units of ``side`` that may recover: in supply and within command radius
    of any friendly HQ, as the ``remove_fatigue`` lines say (facts ``supplied``, ``in_command``)."""
    out = {}
    for hex_ in unit_hexes(ctx, side):
        ids = []
        for u in ctx.state.units_at(hex_):
            if u.get("side") != side or not u.get("fatigued") or u.get("class") == cfg.hq_class:
                continue
            facts = {"supplied": supplied(ctx, u["id"]),
                     "in_command": cfg.answer(ctx, u["id"])["in_command"]}
            if ctx.permission("remove_fatigue", facts).value:
                ids.append(u["id"])
        if ids:
            out[hex_] = ids
    return out


def recover_cost(ctx: Any, n: int) -> int:
    """IPs to recover ``n`` units: ``ip_cost`` for ``remove_fatigue``."""
    return ctx.value("ip_cost", {"ip_use": "remove_fatigue", "recovering_divisions": n})


def refused_stack(cfg: CommandPaths, ctx: Any, hq: Mapping[str, Any], hex_: str) -> dict[str, Any]:
    """The one reason ``hex_`` is out of :func:`hq_stacks` (read apart, ``ctx.apart(recorded=
    False)``), the first that holds in the order hq_stacks judges, its lines noted for a refusal:
    ``{"key": …, "distance": hexes from the HQ, "hexes": its command path length}``, key
    ``hq_no_unit`` (no unactivated unit there: 2.0), ``hq_may_not`` (the ``hq_activate_unit``
    verdicts of its units, e.g. 2.2C), ``hq_out_of_radius`` (farther than ``command_path_hexes``:
    that line, e.g. 8.1A) or ``hq_path_blocked`` (no nearer: that line and the blocks the HQ's
    paths met, e.g. 8.1B)."""
    mech, units = bool(hq.get("mechanized")), side_stacks(cfg, ctx, hq["side"], hqs=True).get(hex_, [])
    h = parse_hex(hex_)
    with ctx.apart(recorded=False):
        taken = any(cfg.may_activate(ctx, u, mech) for u in units)
        distance = ctx.board.grid.distance(parse_hex(hq["hex"]), h)
        near = distance <= cfg.path_hexes(ctx, hq)
    found = {"distance": distance, "hexes": cfg.path_hexes(ctx, hq) if taken else None}
    for u in units if not taken else ():
        cfg.may_activate(ctx, u, mech)
    if near and taken:
        cfg.reach(ctx, hq)
    return {**found, "key": "hq_no_unit" if not units else "hq_may_not" if not taken
            else "hq_path_blocked" if near else "hq_out_of_radius"}


def refused_single(cfg: CommandPaths, ctx: Any, side: str, hex_: str) -> None:
    """Note the ``activate_stack`` verdicts of the units of ``hex_`` (not among
    :func:`single_stacks`, read apart) for a refusal."""
    for u in stack_units(cfg, ctx, side, hex_):
        ctx.permission("activate_stack", {"supplied": supplied(ctx, u["id"])})


def refused_recovery(cfg: CommandPaths, ctx: Any, uid: str) -> None:
    """Note the ``remove_fatigue`` verdict of fatigued ``uid`` (not among :func:`recoverable`,
    read apart) for a refusal."""
    u = ctx.state.unit(uid) if ctx.state.has_unit(uid) else {}
    if u.get("fatigued") and u.get("hex") and u.get("class") != cfg.hq_class:
        ctx.permission("remove_fatigue", {"supplied": supplied(ctx, uid), "in_command": cfg.answer(ctx, uid)["in_command"]})


def done(cfg: CommandPaths, ctx: Any) -> bool:
    """Whether this step's activation is made (plugin data ``done``)."""
    return bool((ctx.state.plugin_data(cfg.name) or {}).get("done"))


def affordable(ctx: Any, hq: Mapping[str, Any], ip: int) -> bool:
    """``hq_cost(ctx, hq) <= ip``, asking supply only when the answer turns on it: the
    cost is worked out as if in supply and as if not, and supply is asked only when one fits
    ``ip`` and the other does not."""
    facts = {"ip_use": "activate_hq", "side": hq["side"]}
    fits = {ctx.value("ip_cost", {**facts, "supplied": s}) <= ip for s in (True, False)}
    return fits.pop() if len(fits) == 1 else hq_cost(ctx, hq) <= ip


def activate_stack_hexes(cfg: CommandPaths, ctx: Any, side: str) -> list[str]:
    """The keys of :func:`single_stacks`, asking supply no more than needed: the
    ``activate_stack`` verdict is worked out for a supplied and an unsupplied unit;
    when they differ, a hex qualifies at its first unit in supply (same hexes, fewer questions)."""
    verdict = {s: bool(ctx.permission("activate_stack", {"supplied": s}).value) for s in (True, False)}
    out = []
    for hex_, units in side_stacks(cfg, ctx, side).items():
        if not units:
            continue
        if verdict[True] == verdict[False]:
            if verdict[True]:
                out.append(hex_)
        elif any(verdict[supplied(ctx, u["id"])] for u in units):
            out.append(hex_)
    return out


def clear_activation(cfg: CommandPaths, ctx: Any) -> list[str]:
    """Remove the Activation and Reserve markers (unit flags ``activated``, ``reserve``) from all
    units of every side and forget who activated them; records ``activation-cleared`` citing
    the ``remove_activation_markers`` lines. Returns the unit ids cleared."""
    cleared = []
    for unit in ctx.state.units:
        if unit.get("activated") or unit.get("reserve"):
            cleared.append(unit["id"])
            ctx.state.update_unit(unit["id"], activated=None, reserve=None)
    data = dict(ctx.state.plugin_data(cfg.name) or {})
    if data.pop("activated_by", None) is not None:
        ctx.state.set_plugin_data(cfg.name, data)
    ctx.changed()
    ctx.record("activation-cleared", list(line_cases(ctx, ("remove_activation_markers",))), {"units": cleared},
               source=f"{cfg.name}.clear_activation")
    return cleared


def activated_by(cfg: CommandPaths, ctx: Any, unit: str) -> str | None:
    """The HQ whose activation activated ``unit`` (plugin data ``activated_by``), or None (not
    activated, or activated on its own)."""
    found = ctx.memo.get((cfg.name, "activated-by"))
    if found is None:
        found = ctx.memo[(cfg.name, "activated-by")] = dict(
            (ctx.state.plugin_data(cfg.name) or {}).get("activated_by") or {})
    return found.get(unit) if ctx.state.has_unit(unit) and ctx.state.unit(unit).get("activated") else None


def legal(cfg: CommandPaths, ctx: Any, step: str, side: str) -> list[Action]:
    """The legal actions of ``side`` in ``step``: in the command step (``cfg.command_step``) one
    ``activate-hq`` per affordable HQ the ``activate_hq`` lines allow (taking its eligible stacks
    nearest first, up to its limit and the IPs left after ``hq_stack_ip_cost`` per stack) and one
    ``activate-stack`` per eligible hex, while nothing was activated in this step; in the recovery
    step (``cfg.recovery_step``) one ``recover`` per hex the side can pay for; always ``pass``."""
    with ctx.apart(recorded=False):  # a listing: a refusal names the lines of what it refuses
        return _legal(cfg, ctx, step, side)


def _legal(cfg: CommandPaths, ctx: Any, step: str, side: str) -> list[Action]:
    out: list[Action] = []
    ip = ctx.state.track("ip", side)
    if step == cfg.command_step and not done(cfg, ctx):
        for hq in cfg.hqs(ctx, side):
            if not allowed(ctx, "activate_hq", {"activated": bool(hq.get("activated"))}) \
                    or not affordable(ctx, hq, ip):
                continue
            stacks = list(hq_stacks(cfg, ctx, hq))
            most = hq_limit(ctx, hq, len(stacks))
            per = stack_ip(cfg, ctx)
            if per > 0:
                most = min(most, max(0, (ip - hq_cost(ctx, hq)) // per))
            out.append(Action.make("activate-hq", side, hq=hq["id"], stacks=stacks[:most] or None))
        if ctx.value("ip_cost", {"ip_use": "activate_stack"}) <= ip:
            out += [Action.make("activate-stack", side, stack=h) for h in activate_stack_hexes(cfg, ctx, side)]
    elif step == cfg.recovery_step:
        for hex_, ids in recoverable(cfg, ctx, side).items():
            if recover_cost(ctx, len(ids)) <= ip:
                out.append(Action.make("recover", side, stack=hex_, units=ids))
    return out + [Action.make("pass", side)]


def templates(cfg: CommandPaths, ctx: Any, step: str, side: str, cases: Sequence[str]) -> list[ActionTemplate]:
    """The player's choice of stacks: for each listed ``activate-hq`` (which takes every eligible
    stack up to the limit, nearest first), a template whose ``stacks`` are any of the HQ's
    eligible stacks, none or some, up to its limit; each template cites ``cases`` (the game's)."""
    with ctx.apart(recorded=False):  # a listing, as :func:`legal`
        return _templates(cfg, ctx, step, side, cases)


def _templates(cfg: CommandPaths, ctx: Any, step: str, side: str, cases: Sequence[str]) -> list[ActionTemplate]:
    out: list[ActionTemplate] = []
    for action in _legal(cfg, ctx, step, side) if step == cfg.command_step else ():
        if action.kind != "activate-hq":
            continue
        hq = ctx.state.unit(action.get("hq"))
        eligible = list(hq_stacks(cfg, ctx, hq))
        if not eligible:
            continue
        limit = hq_limit(ctx, hq, len(eligible))
        hint = f"HEX,… any of {','.join(eligible)}, at most {limit}; left out: the HQ alone"
        out.append(ActionTemplate.of(action, {"stacks": hint}, tuple(cases)))
    return out


def apply(cfg: CommandPaths, ctx: Any, action: Action, cases: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Apply a validated ``activate-hq``, ``activate-stack`` or ``recover``: spend the IPs, mark
    the HQ and the units it takes activated (an HQ's stacks cost ``hq_stack_ip_cost`` each), a
    single stack also with the ``stack_activation_marker`` (unless the action says ``reserve``),
    or clear the fatigue of the units recovering; the step's activation is then made (plugin data
    ``done``; ``activated_by`` remembers the HQ). Records the action citing ``cases[kind]`` (the
    game's) and returns the result."""
    st, side = ctx.state, action.side
    result: dict[str, Any]
    if action.kind == "recover":
        ok = recoverable(cfg, ctx, side)[action.get("stack")]
        units = list(action.get("units", ()) or ok)
        cost = recover_cost(ctx, len(units))
        st.add_track("ip", -cost, side)
        for uid in units:
            st.update_unit(uid, fatigued=None)
        result = {"units": units, "ip": cost, "cases": list(cases["recover"])}
    elif action.kind == "activate-hq":
        hq = st.unit(action.get("hq"))
        cost = hq_cost(ctx, hq) + stack_ip(cfg, ctx) * len(action.get("stacks", ()) or ())
        eligible = hq_stacks(cfg, ctx, hq)
        units = [uid for h in action.get("stacks", ()) for uid in eligible[h]]
        stacks = side_stacks(cfg, ctx, side, hqs=True)  # the lines that decided for the stacks
        for h in action.get("stacks", ()) or ():          # taken (the listing names none)
            for u in stacks.get(h, ()):
                cfg.may_activate(ctx, u, bool(hq.get("mechanized")))
        st.add_track("ip", -cost, side)
        st.update_unit(hq["id"], activated=True)
        for uid in units:
            st.update_unit(uid, activated=True)
        result = {"hq": hq["id"], "units": units, "ip": cost, "cases": list(cases["activate-hq"])}
    else:
        units = single_stacks(cfg, ctx, side)[action.get("stack")]
        cost = ctx.value("ip_cost", {"ip_use": "activate_stack"})
        st.add_track("ip", -cost, side)
        reserve = action.get("reserve", stack_marker(cfg, ctx) == "reserve")
        for uid in units:
            st.update_unit(uid, activated=True, reserve=True if reserve else None)
        result = {"stack": action.get("stack"), "units": units, "ip": cost,
                  "cases": list(cases["activate-stack"])}
    if action.kind != "recover":
        data = dict(st.plugin_data(cfg.name) or {})
        data["done"] = True
        if action.kind == "activate-hq":
            data["activated_by"] = {**(data.get("activated_by") or {}), **dict.fromkeys(result["units"], result["hq"])}
        st.set_plugin_data(cfg.name, data)
    ctx.changed()
    ctx.record(action.kind, result["cases"], result, source=f"{cfg.name}.apply", side=side)
    return result
