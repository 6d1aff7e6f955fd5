"""The Command Step (0.7.3.1, 2.0-2.2, 8.2-8.4, 9.4) and the Recovery Step (0.7.3.8, 2.5) of the
Moscow '41 `command` plugin: eligibility, legal actions, validation and application.

Actions (notation of ``casebook.core.actions``)::

    german: activate-hq hq=g-v stacks=0405,0506     # 2.1, 0.7.3.1A-B, 8.3-8.4
    german: activate-stack stack=0405               # 2.2A-B, 0.7.3.1C (Reserve marker, 9.4)
    german: recover stack=0405 units=g-5id          # 2.5A-B, 0.7.3.8A
"""

from __future__ import annotations

from typing import Any, Literal

from casebook.areas import activation as act
from casebook.content.cases import implements
from casebook.content.packconfig import Cases, config_reader, messages
from casebook.content.schema_base import Model
from casebook.core.actions import Action
from casebook.core.hooks import Refusal
from casebook.core.templates import ActionTemplate
from casebook.games.moscow41.plugins._area_config import command_paths
from casebook.games.moscow41.plugins._rule_refusals import refusals as rule_refusals

__all__ = ["CommandConfig", "config", "legal", "templates", "refusals", "apply"]

_SRC = "command"


_STEP, _COST, _HQ = ("kind", "want", "step"), ("cost", "side", "ip"), ("hex", "hq", "distance", "hexes")
#: Each refusal of :func:`refusals` -> the ``{fields}`` its text fills in (lint checks the texts).
_FILLS = {"not_command_step": _STEP, "not_recovery_step": _STEP, "not_phasing": ("phasing",), "done": (),
          "no_hq": ("side", "hq"), "hq_activated": ("hq",), "hq_cost": ("hq", *_COST), "hq_cost_stacks": ("hq", *_COST),
          "hq_no_unit": _HQ, "hq_may_not": _HQ, "hq_out_of_radius": _HQ, "hq_path_blocked": _HQ, "twice": (),
          "over_limit": ("hq", "limit", "named"), "no_stack": ("side", "hex"), "stack_cost": _COST,
          "cannot_recover": ("unit", "hex"), "recover_cost": ("units", *_COST)}


class CommandConfig(Model):
    """config/command.yaml: the cases each action's event and result cite (``apply``), those of
    the choice of an HQ's stacks (``choose_stacks``) and the refusals of :func:`refusals`."""

    apply: dict[Literal["recover", "activate-hq", "activate-stack"], Cases]
    choose_stacks: Cases
    refusals: messages(*_FILLS, fills=_FILLS)  # type: ignore[valid-type]


config = config_reader("command", CommandConfig)


@implements("0.7.3.1A", "0.7.3.1C", "0.7.3.8A", "2.1A", "2.2B", "8.2A")
def legal(ctx: Any, step: str, side: str) -> list[Action]:
    """The legal actions of ``side`` in ``step``: in the Command Step one ``activate-hq`` per
    affordable unactivated HQ (taking all its eligible stacks up to its limit) and one
    ``activate-stack`` per eligible hex, while nothing was activated in this step (2.1A: a single
    HQ; 2.2A: a single stack); in the Recovery Step one ``recover`` per hex; always ``pass``.
    What an HQ activates is judged now, when it is activated (8.2A: the command area's
    ``hq_stacks`` on the position asked about)."""
    return act.legal(command_paths(ctx), ctx, step, side)


@implements("0.7.3.1B", "8.3.1A", "8.3.2A")
def templates(ctx: Any, step: str, side: str) -> list[ActionTemplate]:
    """The player's choice of stacks (0.7.3.1B: "the player indicates which stacks … will in turn
    be activated"): for each listed ``activate-hq`` (which takes every eligible stack up to the
    limit, nearest first), a template whose ``stacks`` are any of the HQ's eligible stacks, none
    or some, up to its limit (8.3.1A German Command Limit; 8.3.2A Soviet: all). :func:`refusals`
    names the cases of a filling that is not legal."""
    return act.templates(command_paths(ctx), ctx, step, side, config(ctx).choose_stacks)


def refusals(ctx: Any, action: Action) -> list[Refusal]:
    """Why ``action`` (one of this plugin's kinds) is illegal now; [] if legal (the messages and
    cases of config/command.yaml)."""
    side, st, says = action.side, ctx.state, config(ctx).refusals
    out: list[Refusal] = []

    def bad(key: str, **fields: Any) -> None:
        out.append(Refusal(says[key].format(**fields), says[key].cases, _SRC))

    want = "recovery" if action.kind == "recover" else "command"
    if st.step != want:
        bad(f"not_{want}_step", kind=action.kind, want=want, step=st.step)
    if st.phasing is not None and side != act.step_side(command_paths(ctx), ctx):
        bad("not_phasing", phasing=st.phasing)
    if action.kind in ("activate-hq", "activate-stack") and act.done(command_paths(ctx), ctx):
        bad("done")
    if action.kind == "activate-hq":
        hid = action.get("hq")
        if not isinstance(hid, str) or not st.has_unit(hid) or st.unit(hid).get("class") != "hq" \
                or st.unit(hid).get("side") != side or not st.unit(hid).get("hex"):
            bad("no_hq", side=side, hq=hid)
            return out
        hq = st.unit(hid)
        out += rule_refusals(ctx, "activate_hq", {"activated": bool(hq.get("activated"))},
                             says["hq_activated"].format(hq=hid), _SRC)
        stacks = list(action.get("stacks", ()) or ())
        per_stack = act.stack_ip(command_paths(ctx), ctx) * len(stacks)  # 8.4A (none as printed)
        cost = act.hq_cost(ctx, hq) + per_stack
        if cost > st.track("ip", side):
            bad("hq_cost_stacks" if per_stack else "hq_cost", hq=hid, cost=cost, side=side, ip=st.track("ip", side))
        with ctx.apart(recorded=False):  # a listing: each refused stack names its own lines
            eligible = act.hq_stacks(command_paths(ctx), ctx, hq)
        for h in stacks:
            if h not in eligible:
                bad(**act.refused_stack(command_paths(ctx), ctx, hq, h), hex=h, hq=hid)
        if len(set(stacks)) != len(stacks):
            bad("twice")
        limit = act.hq_limit(ctx, hq, len(eligible))
        if len(stacks) > limit:
            bad("over_limit", hq=hid, limit=limit, named=len(stacks))
    elif action.kind == "activate-stack":
        h = action.get("stack")
        with ctx.apart(recorded=False):
            listed = act.single_stacks(command_paths(ctx), ctx, side)
        if h not in listed:
            act.refused_single(command_paths(ctx), ctx, side, h)
            bad("no_stack", side=side, hex=h)
        cost = ctx.value("ip_cost", {"ip_use": "activate_stack"})
        if cost > st.track("ip", side):
            bad("stack_cost", cost=cost, side=side, ip=st.track("ip", side))
    elif action.kind == "recover":
        with ctx.apart(recorded=False):
            ok = act.recoverable(command_paths(ctx), ctx, side).get(action.get("stack"), [])
        units = list(action.get("units", ()) or ok)
        for uid in units:
            if uid not in ok:
                act.refused_recovery(command_paths(ctx), ctx, uid)
                bad("cannot_recover", unit=uid, hex=action.get("stack"))
        cost = act.recover_cost(ctx, len(units))
        if cost > st.track("ip", side):
            bad("recover_cost", units=len(units), cost=cost, side=side, ip=st.track("ip", side))
    return out


@implements("2.1B", "0.7.3.1A", "0.7.3.1B", "0.7.3.1C", "8.4A")
def apply(ctx: Any, action: Action) -> dict[str, Any]:
    """Apply a validated action: spend the IPs, flip the HQ to its active side (2.1B), mark the
    units activated (one IP for the HQ covers all its stacks, 8.4A), a single stack also with a
    Reserve marker (0.7.3.1C, 9.4D), or flip fatigued units back (2.5A, 0.7.3.8A)."""
    return act.apply(command_paths(ctx), ctx, action, config(ctx).apply)
