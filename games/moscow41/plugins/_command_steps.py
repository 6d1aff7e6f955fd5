"""The Command Step (0.7.3.1, 2.0-2.2, 8.2-8.4, 9.4) and the Recovery Step (0.7.3.8, 2.5) of the
Moscow '41 `command` plugin: eligibility, legal actions, validation and application.

Actions (notation of ``casebook.core.actions``)::

    german: activate-hq hq=g-v stacks=0405,0506     # 2.1, 0.7.3.1A-B, 8.3-8.4
    german: activate-stack stack=0405               # 2.2A-B, 0.7.3.1C (Reserve marker, 9.4)
    german: recover stack=0405 units=g-5id          # 2.5A-B, 0.7.3.8A
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casebook.areas.search import path_within
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.hexgrid import parse_hex
from casebook.core.hooks import Refusal
from casebook.core.templates import ActionTemplate
from casebook.games.moscow41.plugins import _command_paths as cp
from casebook.games.moscow41.plugins._rule_refusals import memo_allowed
from casebook.games.moscow41.plugins._rule_refusals import refusals as rule_refusals

__all__ = ["step_side", "stack_ip", "stack_marker",
           "hq_cost", "hq_stacks", "hq_limit", "single_stacks", "recoverable", "legal", "templates", "refusals",
           "apply"]

_SRC = "command"


def step_side(ctx: Any) -> str:
    """Who acts in the Command and Recovery Steps: the script quantity ``command_step_side``
    (command.rules: the phasing player, 0.7.3.1A, 0.7.3.8A), once per state version."""
    key = ("command", "step-side")
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = str(ctx.value("command_step_side", {}))
    return found


def stack_ip(ctx: Any) -> int:
    """IPs each stack an HQ activates costs besides the HQ: script ``hq_stack_ip_cost`` (8.4A: none)."""
    key = ("command", "stack-ip")
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = int(ctx.value("hq_stack_ip_cost", {}))
    return int(found)


@implements("0.7.3.1C")
def stack_marker(ctx: Any) -> str:
    """The marker a stack activated on its own receives: script ``stack_activation_marker``
    (command.rules: a Reserve marker, 0.7.3.1C, 9.4D), ``"reserve"`` or ``"none"``."""
    key = ("command", "stack-marker")
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = str(ctx.value("stack_activation_marker", {}))
    return str(found)


def _supplied(ctx: Any, uid: str) -> bool:
    """The supply plugin's verdict (5.6A); True when no plugin answers (degraded play)."""
    answer = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
    return True if answer is None else bool(answer.get("in_supply"))


def _stack_units(ctx: Any, side: str, hex_: str) -> list[Mapping[str, Any]]:
    """Units of ``side`` in ``hex_`` that an activation can take: not HQs, not yet activated (2.0)."""
    return [u for u in ctx.state.units_at(hex_)
            if u.get("side") == side and u.get("class") != "hq" and not u.get("activated")]


def _hexes(ctx: Any, side: str) -> list[str]:
    return sorted({u["hex"] for u in ctx.state.units if u.get("side") == side and u.get("hex")})


def _side_stacks(ctx: Any, side: str, hqs: bool = False) -> dict[str, list[Mapping[str, Any]]]:
    """Hex -> :func:`_stack_units` of ``side`` (with ``hqs``, HQs too: an HQ's activation asks
    ``hq_activate_unit`` of each, 0.7.3.1B), for every hex of ``side`` (label order), built in
    one pass over the units once per state version (``ctx.memo``)."""
    key = ("command", "stacks", side, hqs)
    found = ctx.memo.get(key)
    if found is None:
        by_hex: dict[str, list[Mapping[str, Any]]] = {}
        for u in ctx.state.units:
            if u.get("side") == side and u.get("hex"):
                units = by_hex.setdefault(u["hex"], [])
                if (hqs or u.get("class") != "hq") and not u.get("activated"):
                    units.append(u)
        found = ctx.memo[key] = {h: by_hex[h] for h in sorted(by_hex)}
    return found


def _eligible(ctx: Any, side: str, hq_mechanized: bool) -> list[tuple[str, Any, list[str]]]:
    """``(hex label, Hex, unit ids)`` for every hex of ``side`` holding units an HQ (mechanized
    or not) may activate (2.0, 2.2C, 2.2E; never an HQ, 0.7.3.1B: the ``hq_activate_unit``
    lines of command.rules), in label order; once per state version."""
    key = ("command", "eligible", side, hq_mechanized)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = []
        for hex_, units in _side_stacks(ctx, side, hqs=True).items():
            ids = [u["id"] for u in units if cp.may_activate(ctx, cp.is_panzer(u), hq_mechanized, u.get("class"))]
            if ids:
                found.append((hex_, parse_hex(hex_), ids))
    return found


@implements("2.1A")
def hq_cost(ctx: Any, hq: Mapping[str, Any]) -> int:
    """IPs to activate ``hq`` (2.1A: 1 in supply, 2 unsupplied German, 3 unsupplied Soviet)."""
    return ctx.value("ip_cost", {"ip_use": "activate_hq", "side": hq["side"],
                                 "supplied": _supplied(ctx, hq["id"])})


@implements("0.7.3.1B", "8.2A", "8.4A", "2.2C", "2.2E", "2.0")
def hq_stacks(ctx: Any, hq: Mapping[str, Any]) -> dict[str, list[str]]:
    """Hex -> unit ids the HQ can activate now, judged when it is activated (8.2A): units in
    command of it (8.0-8.1) that it may activate (2.2C, 2.2E) and not yet activated (2.0); in
    canonical order (nearest first, then hex label). A hex with no unit the HQ could take is not
    traced to (same answer, one path search fewer)."""
    out: dict[str, tuple[int, list[str]]] = {}
    reach, radius, board = cp.hq_reach(ctx, hq), cp.path_hexes(ctx, hq), ctx.board
    start, distance = parse_hex(hq["hex"]), ctx.board.grid.distance
    for hex_, h, ids in _eligible(ctx, hq["side"], bool(hq.get("mechanized"))):
        path = reach.get(h)  # = cp.command_path (8.1A) when traced to directly
        if path is None:
            if distance(start, h) > radius:
                continue  # farther than the radius: no command path (0.2.4.8, see cp.command_answer)
            path = path_within(board, reach, h, radius)
        if path is not None:
            out[hex_] = (len(path) - 1, list(ids))
    return {h: ids for h, (_, ids) in sorted(out.items(), key=lambda kv: (kv[1][0], kv[0]))}


@implements("8.3.1A", "8.3.2A", "0.2.4.7")
def hq_limit(ctx: Any, hq: Mapping[str, Any], eligible: int) -> int:
    """How many stacks ``hq`` may activate: its Command Limit (German, 8.3.1A) or every
    eligible stack (Soviet, 8.3.2A)."""
    return ctx.value("hq_activation_limit", {"side": hq["side"], "command_limit": int(hq.get("limit") or 0),
                                             "stacks_in_command": eligible})


@implements("2.2A", "5.7A")
def single_stacks(ctx: Any, side: str) -> dict[str, list[str]]:
    """Hex -> unit ids an individual activation takes: unactivated units in supply (2.2A; an
    OOS combat unit cannot receive IPs, 5.7A)."""
    out = {}
    for hex_ in _hexes(ctx, side):
        ids = [u["id"] for u in _stack_units(ctx, side, hex_)
               if ctx.permission("activate_stack", {"supplied": _supplied(ctx, u["id"])}).value]
        if ids:
            out[hex_] = ids
    return out


@implements("2.5A", "2.5B", "8.4B")
def recoverable(ctx: Any, side: str) -> dict[str, list[str]]:
    """Hex -> fatigued units of ``side`` that may recover: in supply and within command radius
    of any friendly HQ (2.5B, 8.4B; permission ``remove_fatigue``)."""
    out = {}
    for hex_ in _hexes(ctx, side):
        ids = []
        for u in ctx.state.units_at(hex_):
            if u.get("side") != side or not u.get("fatigued") or u.get("class") == "hq":
                continue
            facts = {"supplied": _supplied(ctx, u["id"]),
                     "in_command": cp.command_answer(ctx, u["id"])["in_command"]}
            if ctx.permission("remove_fatigue", facts).value:
                ids.append(u["id"])
        if ids:
            out[hex_] = ids
    return out


def _recover_cost(ctx: Any, n: int) -> int:
    # 2.5A: one IP per division or part; regiments and brigades count as a division (one a unit).
    return ctx.value("ip_cost", {"ip_use": "remove_fatigue", "recovering_divisions": n})


def _done(ctx: Any) -> bool:
    return bool((ctx.state.plugin_data("command") or {}).get("done"))


def _affordable(ctx: Any, hq: Mapping[str, Any], ip: int) -> bool:
    """``hq_cost(ctx, hq) <= ip`` (2.1A), asking supply only when the answer turns on it: the
    cost is worked out as if in supply and as if not, and supply is asked only when one fits
    ``ip`` and the other does not."""
    facts = {"ip_use": "activate_hq", "side": hq["side"]}
    fits = {ctx.value("ip_cost", {**facts, "supplied": s}) <= ip for s in (True, False)}
    return fits.pop() if len(fits) == 1 else hq_cost(ctx, hq) <= ip


def _activate_stack_hexes(ctx: Any, side: str) -> list[str]:
    """The keys of :func:`single_stacks`, asking supply no more than needed: the
    ``activate_stack`` verdict (2.2A, 5.7A) is worked out for a supplied and an unsupplied unit;
    when they differ, a hex qualifies at its first unit in supply (same hexes, fewer questions)."""
    verdict = {s: bool(ctx.permission("activate_stack", {"supplied": s}).value) for s in (True, False)}
    out = []
    for hex_, units in _side_stacks(ctx, side).items():
        if not units:
            continue
        if verdict[True] == verdict[False]:
            if verdict[True]:
                out.append(hex_)
        elif any(verdict[_supplied(ctx, u["id"])] for u in units):
            out.append(hex_)
    return out


@implements("0.7.3.1A", "0.7.3.1C", "0.7.3.8A", "2.1A", "2.2B")
def legal(ctx: Any, step: str, side: str) -> list[Action]:
    """The legal actions of ``side`` in ``step``: in the Command Step one ``activate-hq`` per
    affordable unactivated HQ (taking all its eligible stacks up to its limit) and one
    ``activate-stack`` per eligible hex, while nothing was activated in this step (2.1A: a single
    HQ; 2.2A: a single stack); in the Recovery Step one ``recover`` per hex; always ``pass``."""
    out: list[Action] = []
    ip = ctx.state.track("ip", side)
    if step == "command" and not _done(ctx):
        for hq in cp.hqs_of(ctx, side):
            if not memo_allowed(ctx, "activate_hq", {"activated": bool(hq.get("activated"))}) \
                    or not _affordable(ctx, hq, ip):  # 2.0, 2.1B (command.rules); 2.1A
                continue
            stacks = list(hq_stacks(ctx, hq))
            most = hq_limit(ctx, hq, len(stacks))
            per = stack_ip(ctx)  # 8.4A: the stacks an HQ activates cost nothing more (script)
            if per > 0:
                most = min(most, max(0, (ip - hq_cost(ctx, hq)) // per))
            out.append(Action.make("activate-hq", side, hq=hq["id"], stacks=stacks[:most] or None))
        if ctx.value("ip_cost", {"ip_use": "activate_stack"}) <= ip:
            out += [Action.make("activate-stack", side, stack=h) for h in _activate_stack_hexes(ctx, side)]
    elif step == "recovery":
        for hex_, ids in recoverable(ctx, side).items():
            if _recover_cost(ctx, len(ids)) <= ip:
                out.append(Action.make("recover", side, stack=hex_, units=ids))
    return out + [Action.make("pass", side)]


@implements("0.7.3.1B", "8.3.1A", "8.3.2A")
def templates(ctx: Any, step: str, side: str) -> list[ActionTemplate]:
    """The player's choice of stacks (0.7.3.1B: "the player indicates which stacks … will in turn
    be activated"): for each listed ``activate-hq`` (which takes every eligible stack up to the
    limit, nearest first), a template whose ``stacks`` are any of the HQ's eligible stacks, none
    or some, up to its limit (8.3.1A German Command Limit; 8.3.2A Soviet: all). :func:`refusals`
    names the cases of a filling that is not legal."""
    out: list[ActionTemplate] = []
    for action in legal(ctx, step, side) if step == "command" else ():
        if action.kind != "activate-hq":
            continue
        hq = ctx.state.unit(action.get("hq"))
        eligible = list(hq_stacks(ctx, hq))
        if not eligible:
            continue
        limit = hq_limit(ctx, hq, len(eligible))
        hint = f"HEX,… any of {','.join(eligible)}, at most {limit}; left out: the HQ alone"
        out.append(ActionTemplate.of(action, {"stacks": hint}, ("0.7.3.1B", "8.3.1A", "8.3.2A")))
    return out


def refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``action`` (one of this plugin's kinds) is illegal now; [] if legal."""
    side, st = action.side, ctx.state
    out: list[Refusal] = []
    bad = lambda reason, *cases: out.append(Refusal(reason, tuple(cases), _SRC))  # noqa: E731
    want = "recovery" if action.kind == "recover" else "command"
    if st.step != want:
        bad(f"{action.kind} is taken in the {want} step, not {st.step}", "0.7.3.1" if want == "command" else "0.7.3.8A")
    if st.phasing is not None and side != step_side(ctx):
        bad(f"only the phasing side ({st.phasing}) acts in this step", "0.7.3.1A")
    if action.kind in ("activate-hq", "activate-stack") and _done(ctx):
        bad("one HQ or one stack is activated per Command Step", "2.1A", "2.2A", "0.7.3.6")
    if action.kind == "activate-hq":
        hid = action.get("hq")
        if not isinstance(hid, str) or not st.has_unit(hid) or st.unit(hid).get("class") != "hq" \
                or st.unit(hid).get("side") != side or not st.unit(hid).get("hex"):
            bad(f"no {side} HQ {hid!r} on the map", "2.1A")
            return out
        hq = st.unit(hid)
        out += rule_refusals(ctx, "activate_hq", {"activated": bool(hq.get("activated"))},
                             f"HQ {hid} is already activated", _SRC)
        stacks = list(action.get("stacks", ()) or ())
        per_stack = stack_ip(ctx) * len(stacks)  # 8.4A (none as printed)
        cost = hq_cost(ctx, hq) + per_stack
        if cost > st.track("ip", side):
            bad(f"activating {hid} costs {cost} IPs, {side} has {st.track('ip', side)}", "2.1A", "2.0",
                *(("8.4A",) if per_stack else ()))
        eligible = hq_stacks(ctx, hq)
        for h in stacks:
            if h not in eligible:
                bad(f"no unit in {h} that {hid} can activate (command radius, 2.2C, already activated)",
                    "0.7.3.1B", "8.0A", "8.1A", "2.2C", "2.0")
        if len(set(stacks)) != len(stacks):
            bad("a stack is named twice", "0.7.3.1B")
        limit = hq_limit(ctx, hq, len(eligible))
        if len(stacks) > limit:
            bad(f"{hid} activates at most {limit} stacks, {len(stacks)} named", "8.3.1A", "0.2.4.7")
    elif action.kind == "activate-stack":
        h = action.get("stack")
        if h not in single_stacks(ctx, side):
            bad(f"no unactivated {side} unit in supply in {h!r}", "2.2A", "5.7A", "2.0")
        cost = ctx.value("ip_cost", {"ip_use": "activate_stack"})
        if cost > st.track("ip", side):
            bad(f"activating a stack costs {cost} IP, {side} has {st.track('ip', side)}", "2.2B")
    elif action.kind == "recover":
        ok = recoverable(ctx, side).get(action.get("stack"), [])
        units = list(action.get("units", ()) or ok)
        for uid in units:
            if uid not in ok:
                bad(f"{uid} cannot recover in {action.get('stack')}: not fatigued, OOS or out of command",
                    "2.5A", "2.5B")
        cost = _recover_cost(ctx, len(units))
        if cost > st.track("ip", side):
            bad(f"recovering {len(units)} units costs {cost} IPs, {side} has {st.track('ip', side)}", "2.5A")
    return out


@implements("2.1B", "0.7.3.1A", "0.7.3.1B", "0.7.3.1C", "8.4A")
def apply(ctx: Any, action: Action) -> dict[str, Any]:
    """Apply a validated action: spend the IPs, flip the HQ to its active side (2.1B), mark the
    units activated (one IP for the HQ covers all its stacks, 8.4A), a single stack also with a
    Reserve marker (0.7.3.1C, 9.4D), or flip fatigued units back (2.5A, 0.7.3.8A)."""
    st, side = ctx.state, action.side
    if action.kind == "recover":
        ok = recoverable(ctx, side)[action.get("stack")]
        units = list(action.get("units", ()) or ok)
        cost = _recover_cost(ctx, len(units))
        st.add_track("ip", -cost, side)
        for uid in units:
            st.update_unit(uid, fatigued=None)
        result = {"units": units, "ip": cost, "cases": ["2.5A", "0.7.3.8A"]}
    elif action.kind == "activate-hq":
        hq = st.unit(action.get("hq"))
        cost = hq_cost(ctx, hq) + stack_ip(ctx) * len(action.get("stacks", ()) or ())  # 2.1A; 8.4A
        eligible = hq_stacks(ctx, hq)
        units = [uid for h in action.get("stacks", ()) for uid in eligible[h]]
        st.add_track("ip", -cost, side)
        st.update_unit(hq["id"], activated=True)
        for uid in units:
            st.update_unit(uid, activated=True)
        result = {"hq": hq["id"], "units": units, "ip": cost, "cases": ["2.1A", "2.1B", "0.7.3.1B", "8.4A"]}
    else:
        units = single_stacks(ctx, side)[action.get("stack")]
        cost = ctx.value("ip_cost", {"ip_use": "activate_stack"})
        st.add_track("ip", -cost, side)
        reserve = action.get("reserve", stack_marker(ctx) == "reserve")  # 0.7.3.1C (command.rules)
        for uid in units:
            st.update_unit(uid, activated=True, reserve=True if reserve else None)
        result = {"stack": action.get("stack"), "units": units, "ip": cost,
                  "cases": ["2.2A", "2.2B", "0.7.3.1C", "9.4D"]}
    if action.kind != "recover":
        data = dict(st.plugin_data("command") or {})
        data["done"] = True
        if action.kind == "activate-hq":  # 10.4.2B: the attacker's support path is to this HQ
            data["activated_by"] = {**(data.get("activated_by") or {}), **dict.fromkeys(result["units"], result["hq"])}
        st.set_plugin_data("command", data)
    ctx.changed()
    ctx.record(action.kind, result["cases"], result, source=f"{_SRC}.apply", side=side)
    return result
