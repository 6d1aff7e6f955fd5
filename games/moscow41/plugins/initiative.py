"""Moscow '41 rules plugin ``initiative``: who is first player (0.7.1.3), IP collection
(0.7.2.1, 1.0-1.4), town control (1.1B) and the End Phase (0.7.5).

- Step ``initiative_determination`` (0.7.1.3): rule-script quantity ``initiative`` on the IPs on
  the Initiative Track at that step (the Germans on Turn 1 and on ties) → ``state.set_first_player``.
- Step ``ip_collection`` of each Initiative Phase (0.7.2.1, 0.7.4): the phasing side collects:
  town IPs held (1.1A-C) plus the Turn Track bonus
  (1.2) make the new IPs, multiplied by the weather (quantity ``ip_income``, 1.3; setting
  ``ip_multiplier_scope``), one die added (1.0C), added to the track and capped at 99 (quantities
  ``ip_available``, ``ip_total``, 1.4).
- After every action and at setup: town control (1.1B).
- Step ``advance_turn`` (0.7.5): recorded only — the kernel's ``SequenceMachine.advance`` moves
  the turn marker when it leaves the last step of the turn.

Plugin data (``state.plugin_data("initiative")``): ``{"base_ip": {side: town IPs}}`` — the
Base IP marker of 1.1D, set at each collection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.content.cases import implements
from casebook.core.dice import SIDES as FACES
from casebook.core.dice import roll as roll_dice
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label
from casebook.core.hooks import hookimpl
from casebook.core.trace import Trace

__all__ = ["REQUIRES", "STATE_SCHEMA",
    "QUESTIONS", "PLUGIN", "SIDES", "town_values", "towns_held", "update_control", "track_bonus",
    "town_ip_lines", "income", "collect_ips", "determine_first_player", "end_phase",
    "casebook_setup", "casebook_after_action", "casebook_step_start", "casebook_answer",
]

#: What the pack must hold for this plugin (src/casebook/content/requires.py; checked by ``casebook lint``).
REQUIRES = {"tables": ["initiative_chart", "turn_track"],
            "quantities": ["base_ip", "initiative", "ip_available", "ip_income", "ip_total", "town_ip"]}

PLUGIN = "initiative"
_SRC = "initiative"
#: The sides of the rule scripts' ``side`` enum.
SIDES = ("german", "soviet")

#: question -> usage line, for `casebook ask` (see docs/ask/income.md)
QUESTIONS: dict[str, str] = {
    "income": "income SIDE [--roll N] — the IPs SIDE collects this turn, term by term (1.0-1.4)",
}


def _setting(ctx: Any, name: str) -> Any:
    default = None
    for entry in ctx.pack.interpretations.values():
        setting = entry.get("setting") or {}
        if setting.get("name") == name:
            default = setting.get("value")
    return ctx.state.setting(name, default)


def _amount(value: Any) -> Any:
    return str(value) if isinstance(value, Fraction) and value.denominator != 1 else int(value)


@implements("1.1A")
def town_values(ctx: Any) -> dict[str, dict[str, Any]]:
    """Hex label -> ``{"town", "ip"}`` for every town hex that earns IPs (1.1A): the rows of the
    Initiative Chart (records ``initiative_chart``) on the pack's map, the towns of a position's
    own map; each hex's IPs are quantity ``town_ip`` (rules/initiative.rules: the chart's row of
    the hex, 1.1C each Moscow hex on its own, 0.2.2.10 the chart, not the value printed on the
    map, ``map_town_ip``; a position's own map carries its towns' values). Hexes worth 0 are
    left out."""
    if "initiative.towns" in ctx.memo:
        return dict(ctx.memo["initiative.towns"])
    own = bool(ctx.state.map)
    towns = {hex_label(h): (t.get("name"), int(t.get("ip") or 0)) for h, t in ctx.board.towns().items()}
    if not own:  # the pack's map: the chart's towns, each with the value printed on the map (if any)
        towns = {str(row["hex"]): (row.get("town"), towns.get(str(row["hex"]), (None, 0))[1])
                 for row in ctx.records("initiative_chart")}
    out = {}
    for h, (name, printed) in towns.items():
        ip = int(ctx.value("town_ip", {"hex": h, "map_town_ip": printed, "position_map": own}))
        if ip:
            out[h] = {"town": name, "ip": ip}
    ctx.memo["initiative.towns"] = out
    return dict(out)


def town_ip_lines(ctx: Any, hex_: str) -> list[dict[str, Any]]:
    """The lines of quantity ``town_ip`` that decided ``hex_``'s IPs (for a trace event's ``lines``)."""
    own = bool(ctx.state.map)
    printed = next((int(t.get("ip") or 0) for h, t in ctx.board.towns().items() if hex_label(h) == hex_), 0)
    return ctx.fired_lines(ctx.quantity("town_ip", {"hex": hex_, "map_town_ip": printed, "position_map": own}))


def towns_held(ctx: Any, side: str) -> list[dict[str, Any]]:
    """The towns ``side`` controls (``state.control``), each ``{"hex", "town", "ip"}``, in hex
    order (1.1A)."""
    return [{"hex": h, **v} for h, v in sorted(town_values(ctx).items()) if ctx.state.control(h) == side]


def _town_hexes(ctx: Any) -> list[str]:
    hexes = {hex_label(h) for h in ctx.board.towns()}
    if not ctx.state.map:
        hexes.update(str(row["hex"]) for row in ctx.records("initiative_chart"))
    hexes.update(hex_label(h) for h in ctx.board.towns())
    return sorted(hexes)


def update_control(ctx: Any) -> list[dict[str, Any]]:
    """Give each town or city hex occupied by a side's units to that side when the rule scripts
    allow it (permission ``gain_control``, 1.1B in ``rules/initiative.rules``: units of one side
    only — a friendly unit occupies it, or was the last to; enemy ZOCs have no effect, so none
    is asked). Hexes without units keep their last controller. Returns the changes, each
    ``{"hex", "side", "was"}``, and records a ``control`` event for each."""
    changes = []
    for h in _town_hexes(ctx):
        units = ctx.state.units_at(h)
        sides = sorted({u.get("side") for u in units} - {None})
        was = ctx.state.control(h)
        side = next((s for s in sides if s != was and ctx.allowed("gain_control", {
            "side": s, "occupying_sides": len(sides),
            "occupant_count": sum(1 for u in units if u.get("side") == s)})), None)
        if side is None:
            continue
        ctx.state.set_control(h, side)
        change = {"hex": h, "side": side, "was": was}
        changes.append(change)
        ctx.record("control", ("1.1B",), change, source=f"{_SRC}.update_control", side=side)
    if changes:
        ctx.changed()
    return changes


@implements("1.2")
def track_bonus(ctx: Any, side: str, turn: int | None = None) -> int:
    """The Turn Track initiative bonus of ``side`` for ``turn`` (default: now), in IPs (1.2;
    records ``turn_track``, field ``<side>.ip``). ``KeyError`` naming the turn if the track has
    no row for it."""
    turn = ctx.state.turn if turn is None else turn
    for row in ctx.records("turn_track"):
        if row.get("turn") == turn:
            return int(row[side]["ip"])
    raise KeyError(f"the Turn Track (turn_track) has no row for turn {turn}")


def _terms(ctx: Any, *explanations: Any) -> list[dict[str, Any]]:
    out = []
    for e in explanations:
        for ln in e.lines:
            if not ln.fired and ln.kind != "start":
                continue
            out.append({"case": ln.cases[0] if ln.cases else None, "cases": list(ln.cases),
                        "quantity": e.name, "kind": ln.kind, "value": _amount(ln.amount),
                        "source": ln.source, "text": ln.text.strip()})
    return out


@implements("1.0A", "1.0B", "1.0C", "1.3B", "1.4")
def income(ctx: Any, side: str, roll: int | None = None) -> dict[str, Any]:
    """The IPs ``side`` collects now (1.0): towns held (1.1A) + the Turn Track bonus (1.2) are
    the new IPs (quantities ``new_ips_collected`` / ``ips_unmodified``, 0.7.2.1A), multiplied
    by the ground condition's factor with fractions rounded down (1.3B;
    with setting ``ip_multiplier_scope: track_only`` only the bonus is multiplied), then the die
    ``roll`` (1-6) and the IPs already on the track are added, at most 99 (1.4).

    Returns ``{"side", "towns", "held": [{"hex", "town", "ip"}], "track_bonus", "multiplier"
    ("1/2"…), "income" (new IPs after the multiplier), "previous", "roll", "total", "range",
    "scope", "terms": [{"case", "cases", "quantity", "kind", "value", "source", "text"}],
    "cases"}``. Without ``roll``, ``total`` is None and ``range`` gives the totals for the lowest and highest roll of ``ip_dice``.
    Raises ``ValueError`` for an unknown side or no ground condition in force.
    """
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; expected one of {list(SIDES)}")
    ground = (ctx.state.weather or {}).get("ground")
    if ground is None:
        raise ValueError("no ground condition is in force (0.7.1.2): the weather multiplier is unknown")
    held = towns_held(ctx, side)
    towns = sum(t["ip"] for t in held)
    bonus = track_bonus(ctx, side)
    scope = _setting(ctx, "ip_multiplier_scope")
    collected = {"town_ips": towns, "track_bonus": bonus}  # 0.7.2.1A in initiative.rules
    e_new, e_unmodified = ctx.quantity("new_ips_collected", collected), ctx.quantity("ips_unmodified", collected)
    new_ips, unmodified = e_new.value, e_unmodified.value
    e_income = ctx.quantity("ip_income", {"new_ips": new_ips, "side": side, "ground": ground})
    multiplier = Fraction(1)
    for ln in e_income.lines:
        if ln.kind == "term" and ln.fired:
            multiplier *= Fraction(ln.amount)
    previous = ctx.state.track("ip", side)

    def total_for(die: int) -> tuple[Any, Any]:
        facts = {"new_ips": new_ips, "side": side, "ground": ground, "ip_roll": die,
                 "ip_previous": previous, "ip_unmodified": unmodified}
        return ctx.quantity("ip_available", facts), ctx.quantity("ip_total", facts)

    terms = _terms(ctx, e_new, e_unmodified, e_income)
    dice = int(ctx.value("ip_dice", {}))  # the range of the roll (0.7.2.1B)
    total = None
    if roll is not None:
        e_avail, e_total = total_for(roll)
        total = e_total.value
        terms += [t for t in _terms(ctx, e_avail, e_total)
                  if not (t["quantity"] == "ip_total" and t["text"].startswith("ip_available"))]
    cases = list(dict.fromkeys(c for t in terms for c in t["cases"]))
    return {
        "side": side, "towns": towns, "held": held, "track_bonus": bonus,
        "multiplier": _amount(multiplier), "income": e_income.value, "previous": previous,
        "roll": roll, "total": total, "range": [total_for(dice)[1].value, total_for(FACES * dice)[1].value],
        "scope": scope, "terms": terms, "cases": cases,
    }


@implements("0.7.2.1C", "1.1D", "0.7.4")
def collect_ips(ctx: Any, side: str | None = None, die: int | None = None) -> dict[str, Any]:
    """IP Collection (0.7.2.1) for ``side`` (default: the phasing side — the first player in
    0.7.2, the second in 0.7.4): roll the dice of quantity ``ip_dice`` (0.7.2.1B: one; or use ``die``), put the total on the Initiative
    Track (``state.add_ip``), set the Base IP marker to quantity ``base_ip`` (1.1D: the town
    IPs; plugin data).
    Returns :func:`income`'s answer. ``ValueError`` if no side is phasing."""
    side = side or ctx.state.phasing
    if side is None:
        raise ValueError("IP collection needs a phasing side (0.7.2.1A)")
    if die is None:
        trace = ctx.trace if ctx.trace is not None else Trace()
        die = roll_dice(ctx.state, int(ctx.value("ip_dice", {})), purpose="IP collection", cases=["0.7.2.1B", "1.0C"], trace=trace,
                        source=f"{_SRC}.collect_ips")
    answer = income(ctx, side, die)
    ctx.state.add_track("ip", answer["total"] - ctx.state.track("ip", side), side)
    e_base = ctx.quantity("base_ip", {"town_ips": answer["towns"]})  # 1.1D in initiative.rules
    data = ctx.state.plugin_data(PLUGIN) or {}
    data.setdefault("base_ip", {})[side] = e_base.value
    ctx.state.set_plugin_data(PLUGIN, data)
    ctx.changed()
    town_lines = town_ip_lines(ctx, answer["held"][0]["hex"]) if answer["held"] else []
    ctx.record("ip-collection", answer["cases"] + ["0.7.2.1C", "1.1D"],
               {**{k: answer[k] for k in ("towns", "track_bonus", "multiplier", "income", "previous",
                                          "roll", "total")},
                "lines": [{"source": t["source"], "cases": list(t["cases"])} for t in answer["terms"]]
                + town_lines + ctx.fired_lines(e_base)},
               source=f"{_SRC}.collect_ips", side=side)
    return answer


@implements("0.7.1.3A", "0.7.1.3B", "1.0D")
def determine_first_player(ctx: Any) -> str:
    """Initiative Determination (0.7.1.3): the side with more IPs on the Initiative Track is the
    first player; the Germans on Turn 1 and on ties (quantity ``initiative``). Reading (interpretation
    initiative-ips-compared): the IPs compared are those on the track at this step, before the
    Initiative Phases' collection (0.7.2.1 comes after 0.7.1.3). Sets ``state.set_first_player``."""
    facts = {"turn": ctx.state.turn, "german_ips": ctx.state.track("ip", "german"), "soviet_ips": ctx.state.track("ip", "soviet")}
    e = ctx.quantity("initiative", facts)
    ctx.state.set_first_player(e.value)
    ctx.changed()
    ctx.record("first-player", list(e.cases), {**facts, "first_player": e.value, "lines": ctx.fired_lines(e)},
               source=f"{_SRC}.determine_first_player", side=None)
    return e.value


@implements("0.7.5")
def end_phase(ctx: Any) -> dict[str, Any]:
    """End Phase (0.7.5): the turn marker advances one space. The kernel's
    ``SequenceMachine.advance`` does it when it leaves this last step (``state.set_turn(turn +
    1)``), so this records the end of the turn and changes nothing: ``{"turn", "next_turn"}``."""
    out = {"turn": ctx.state.turn, "next_turn": ctx.state.turn + 1}
    ctx.record("end-phase", ("0.7.5",), out, source=f"{_SRC}.end_phase", side=None)
    return out


@hookimpl
def casebook_setup(ctx: Any) -> None:
    """Town control from the units' positions at setup (1.1B)."""
    update_control(ctx)


@hookimpl
def casebook_after_action(ctx: Any, action: Any, result: Any) -> None:
    """Town control after every action (1.1B)."""
    update_control(ctx)


@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """Steps ``initiative_determination`` (0.7.1.3), ``ip_collection`` (0.7.2.1, 0.7.4) and
    ``advance_turn`` (0.7.5)."""
    if step == "initiative_determination":
        determine_first_player(ctx)
    elif step == "ip_collection":
        collect_ips(ctx)
    elif step == "advance_turn":
        end_phase(ctx)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    """``income SIDE [--roll N]``."""
    if question != "income":
        return None
    if len(args) != 1:
        raise QuestionError(f"usage: {QUESTIONS['income']}")
    die = (options or {}).get("roll")
    if die is not None:  # a roll the IP dice can show (quantity ip_dice: one die, 1-6, 0.7.2.1B)
        dice = int(ctx.value("ip_dice", {}))
        if isinstance(die, bool) or not isinstance(die, int) or not dice <= die <= dice * FACES:
            cases = ", ".join(ctx.rules.quantities["ip_dice"].code.cases)
            raise QuestionError(f"--roll {die!r}: the IP dice ({dice} × d{FACES}, by {cases}) roll "
                                f"{dice}-{dice * FACES}")
    try:
        return income(ctx, args[0], die)
    except (ValueError, KeyError) as exc:
        raise QuestionError(str(exc).strip("'\"")) from None


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.initiative``: the town IPs of each side at collection (see the module docstring)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    base_ip: dict[str, Annotated[int, Field(ge=0)]]
