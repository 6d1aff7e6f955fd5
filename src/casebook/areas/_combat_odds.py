"""Combat arithmetic (private to the `combat` area): the facts of one combat, strengths, odds and
CRT column, DRMs, the outcome of each roll (Moscow '41 10.0-10.4 for example; any game's own).

Every number comes from the rule scripts (``combat_strength``, ``attack_drm``) and the CRT table
(``crt``, dims ``odds`` × ``roll``); nothing a rulebook states is a Python literal here. The
facts name no game: a unit's flags are the vocabulary's ``unit_flags``, a hex's sets its
``hex_sets`` (docs/rule-language.md, "Facts of the shared areas").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from casebook.core.dice import SIDES
from casebook.core.hexgrid import parse_hex
from casebook.script.factlines import FactLines

from . import worksites
from ._combat_crt import crt_lines, crt_result
from .supply import supplied_lines

__all__ = ["CombatFacts", "gather", "odds_column", "shifted_column", "outcomes", "distribution", "crt_result", "crt_lines",
           "supplied", "in_command", "is_hq", "unit_flags", "whole_division", "as_json_number", "fired_cases"]

#: Counter classes the combat facts know (the ``class`` enum of facts.yaml).
_HQ = "hq"


def is_hq(unit: Mapping[str, Any]) -> bool:
    return unit.get("class") == _HQ


def _marker_kinds(ctx: Any) -> dict[Any, set[str]]:
    """hex -> the kinds of the markers in it (once per state version)."""
    found: dict[str, set[str]] | None = ctx.memo.get("combat.marker_kinds")
    if found is None:
        found = {}
        ctx.memo["combat.marker_kinds"] = found
        for m in ctx.state.markers:
            found.setdefault(m.get("hex"), set()).add(m.get("kind"))
    return found


def unit_flags(ctx: Any, unit: Mapping[str, Any]) -> dict[str, bool]:
    """The game's unit flags (vocabulary ``unit_flags``) as combat facts of ``unit``: ``FLAG`` —
    the unit carries the flag, or a marker of the same kind is in its hex — and
    ``printed_FLAG`` — its counter is printed with it (e.g. Moscow '41 10.7C: a division printed
    with its flag carries no +1 marker for it)."""
    flags = ctx.pack.vocabulary.unit_flags
    if not flags:
        return {}
    counter = ctx.pack.counters.get(unit.get("counter") or unit.get("id"), {})
    here = _marker_kinds(ctx).get(unit.get("hex"), ())
    out: dict[str, bool] = {}
    for flag in flags:
        out[flag] = bool(unit.get(flag)) or flag in here
        out[f"printed_{flag}"] = bool(counter.get(flag, False))
    return out


def supplied(ctx: Any, uid: str) -> bool:
    """Supply at this instant (10.2), asked of ``casebook_supply``; in supply when no plugin
    answers (the supply area is optional for combat)."""
    return supplied_lines(ctx, uid)[0]


def in_command(ctx: Any, uid: str) -> bool:
    """Command at this instant (10.1B, 10.4.2B, 11.1B), asked of ``casebook_command``; in command
    when no plugin answers."""
    answer = ctx.hook.casebook_command(ctx=ctx, unit=uid)
    return True if answer is None else bool(answer.get("in_command", True))


def as_json_number(x: Fraction | int) -> Any:
    """An exact strength as JSON: an int when whole, else the fraction text (``"7/2"``)."""
    x = Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class CombatFacts:
    """What one combat is made of: ``attackers``/``defenders`` (unit ids), the sides, the exact
    strengths (strength points), the facts given to ``attack_drm`` and the terms of the odds."""

    hex: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    attacker_side: str
    defender_side: str
    attack_strength: Fraction
    defense_strength: Fraction
    drm_facts: Mapping[str, Any] = field(hash=False)
    #: CRT columns the Loss markers shift (right +): the game's quantity ``loss_shift`` (10.3B-C
    #: of Moscow '41, for example), 0 in a game without one
    loss_shift: int = 0
    #: the facts each ``combat_strength`` was computed from (attacking stacks, then the defence)
    strength_facts: tuple[Mapping[str, Any], ...] = field(default=(), hash=False, compare=False)


def _weather(ctx: Any) -> dict[str, str]:
    w = ctx.state.weather or {}
    return {"temperature": w.get("temperature", "warm"), "ground": w.get("ground", "dry")}


def _setting_facts(ctx: Any) -> dict[str, Any]:
    """The position's interpretation settings that the game's rule scripts declare as facts, for
    ``combat_strength`` (e.g. Battle for Moscow: ``mud_halving``, BM8.8A); kept per state version."""
    memo = ctx.memo  # per state version: every attack weighed in a position reads the same
    found = memo.get("combat_odds.settings")
    if found is None:
        setting = ctx.state.setting
        found = memo["combat_odds.settings"] = {n: v for n in ctx.rules.schema.facts if (v := setting(n)) is not None}
    return dict(found)


def _across(ctx: Any, from_hex: str, to_hex: str) -> tuple[bool, bool]:
    """(across a river, across works protecting ``to_hex``) for an attack from ``from_hex`` into
    ``to_hex`` (e.g. Moscow '41 10.4.7, 10.4.8, 14.2A-B; the works are the game's lines,
    ``worksites.attacks_across``: the one reading of the game's answer too)."""
    a, b = parse_hex(from_hex), parse_hex(to_hex)
    if ctx.board.grid.distance(a, b) != 1:
        return False, False  # not adjacent: refused by 10.1B, no hexside to cross
    side = ctx.board.side(a, b)
    return bool(side.river or side.major_river), worksites.attacks_across(ctx, from_hex, to_hex)


def terrain_facts(ctx: Any, hex_: str) -> dict[str, Any]:
    """10.4B: the Combat Modifiers Chart's row for the terrain the defender occupies — the row
    ``terrain_<town kind or terrain id>`` of the ``combat_modifiers`` records (a town's kind
    replaces the hex terrain, as on the TEC): ``defender_terrain_drm`` (its DRM, 0 without a
    row) and ``defender_terrain_row`` (its id, ``none`` without a row; a rule line reading the
    row by it cites the row's ``file:line``). ``{"defender_terrain_drm": 0}`` in a game without
    that chart (e.g. Battle for Moscow shifts columns)."""
    if "combat_modifiers" not in ctx.pack.records:
        return {"defender_terrain_drm": 0}
    info = ctx.board.hex(parse_hex(hex_))
    terrain = info.town.get("kind") if info.town else info.terrain
    for row in ctx.records("combat_modifiers"):
        if row.get("id") == f"terrain_{terrain}":
            return {"defender_terrain_drm": int(row.get("drm") or 0), "defender_terrain_row": row["id"]}
    return {"defender_terrain_drm": 0, "defender_terrain_row": "none"}


def terrain_drm(ctx: Any, hex_: str) -> int:
    """10.4B: the DRM of :func:`terrain_facts` (0 when the chart has no row for the terrain)."""
    return int(terrain_facts(ctx, hex_)["defender_terrain_drm"])


def defender_hex_facts(ctx: Any, hex_: str) -> dict[str, Any]:
    """Facts about the defender's hex for games that shift columns or add DRMs by terrain
    (e.g. BM8.3A-C, Moscow '41 10.4B): ``defender_terrain`` (the hex terrain id), ``defender_town``
    (the kind of its town or city, ``none`` without one), ``defender_in_SET`` for each of the
    vocabulary's ``hex_sets`` and ``defender_fortified`` (works protect the hex from some
    direction: a marker the game's ``marker_fortifies`` lines allow, or a printed faced work;
    ``worksites.protected``)."""
    h = parse_hex(hex_)
    info = ctx.board.hex(h)
    town = (info.town or {}).get("kind") or "none"
    return {"defender_terrain": info.terrain, "defender_town": str(town),
            **{f"defender_in_{name}": h in ctx.board.hex_set(name) for name in ctx.pack.vocabulary.hex_sets},
            "defender_fortified": worksites.protected(ctx, hex_)}


def _overstacked(ctx: Any, hex_: str) -> bool:
    """An attacker's hex is overstacked (the fact of 6.2D's DRM, e.g.), read apart: the stacking
    lines that compute it are no attack answer's or combat event's (only the DRM line, if it fires)."""
    with ctx.apart(recorded=False):
        answer = ctx.hook.casebook_stacking(ctx=ctx, hex=hex_, units=None)
    return bool(answer and answer.get("overstacked"))


def whole_division(ctx: Any, units: Sequence[Mapping[str, Any]]) -> bool:
    """Every counter of the mix with one ``division`` (a division of two or more counters) is
    among ``units`` (Moscow '41 10.4.6, for example, reads it with the attacker's side)."""
    ids = {u.get("counter") or u["id"] for u in units} | {u["id"] for u in units}
    divisions = {u.get("division") for u in units if u.get("division")}
    for d in divisions:
        members = {cid for cid, c in ctx.pack.counters.items() if c.get("division") == d}
        if len(members) > 1 and members <= ids:
            return True
    return False


def _stack_records(ctx: Any, units: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{"class": u.get("class"), "strength": int(u.get("strength") or 0), **unit_flags(ctx, u)} for u in units]


def gather(ctx: Any, attackers: Sequence[str], hex_: str, support: Mapping[str, int] | None = None,
           overrun: bool = False) -> CombatFacts:
    """The facts of an attack by ``attackers`` (unit ids) on the stack in ``hex_``.

    Strengths are the sums of ``combat_strength`` per stack (10.3A: one total per side; 10.6A:
    an HQ adds 1 per stack, in Moscow '41 for example; summed exactly before the ratio). Supply
    is judged now (10.2). Loss shifts: the game's ``loss_shift`` of the attackers' and
    defenders' records (each with its ``losses``; e.g. 10.3B-C). Raises KeyError for an unknown unit.
    All but the support (10.4.2A: ``attacker_support_ips``, ``defender_support_ips``) and the loss
    shift read from the facts are kept per state version with their lines (``ctx.memo_kept``): each
    support amount a bot or the listing weighs reads the same strengths and supply.
    """
    sup = dict(support or {})
    base = ctx.memo_kept(("combat_odds.gather", hex_, tuple(attackers), bool(overrun)),
                         lambda: _unsupported(ctx, attackers, hex_))
    kept = base.drm_facts
    assert isinstance(kept, FactLines)  # made by _unsupported
    drm_facts = kept.given(attacker_support_ips=0 if overrun else int(sup.get("attacker", 0)),
                                     defender_support_ips=int(sup.get("defender", 0)))
    loss_shift = int(ctx.value("loss_shift", drm_facts)) if rules_define(ctx, "loss_shift") else 0
    return CombatFacts(base.hex, base.attackers, base.defenders, base.attacker_side, base.defender_side,
                       base.attack_strength, base.defense_strength, drm_facts, loss_shift, base.strength_facts)


def _unsupported(ctx: Any, attackers: Sequence[str], hex_: str) -> CombatFacts:
    """:func:`gather`'s facts with no support and no loss shift (what a support amount leaves as it is)."""
    state = ctx.state
    att = [state.unit(a) for a in attackers]
    dfd = [u for u in state.units_at(hex_)]
    a_side = att[0]["side"] if att else (state.phasing or ctx.pack.vocabulary.side_ids[0])
    d_side = dfd[0]["side"] if dfd else state.other_side(a_side)
    weather = _weather(ctx)
    by_stack: dict[str, list[Mapping[str, Any]]] = {}
    for u in att:
        by_stack.setdefault(u["hex"], []).append(u)
    attack_strength = Fraction(0)
    settings = _setting_facts(ctx)
    strength_facts = []
    for units in by_stack.values():
        strength_facts.append({**weather, **settings, "units": _stack_records(ctx, units), "attacking": True,
                               "fortified": False})
        attack_strength += Fraction(ctx.value("combat_strength", strength_facts[-1]))
    att_records = []
    fortified = False
    unsupplied: list[dict[str, Any]] = []  # the supply lines of the attackers out of supply (5.7D's -2 reads them)
    for u in att:
        river, fort = _across(ctx, u["hex"], hex_)
        fortified |= fort
        ok, lines = supplied_lines(ctx, u["id"])
        unsupplied += () if ok else lines
        att_records.append({"class": u.get("class"), "fatigued": bool(u.get("fatigued")),
                            "supplied": ok, "overstacked": _overstacked(ctx, u["hex"]),
                            "across_river": river, "across_fortification": fort,
                            "losses": int(u.get("losses") or 0)})
    strength_facts.append({**weather, **settings, "units": _stack_records(ctx, dfd), "attacking": False,
                           "fortified": fortified})
    defense_strength = Fraction(ctx.value("combat_strength", strength_facts[-1]))
    drm_facts = FactLines({
        **weather, "attacker_side": a_side, "defender_side": d_side,
        "attacker_support_ips": 0, "defender_support_ips": 0,
        "whole_division": whole_division(ctx, att),
        **terrain_facts(ctx, hex_),
        **defender_hex_facts(ctx, hex_),
        "attackers": att_records,
        "defenders": [{"class": u.get("class"), "losses": int(u.get("losses") or 0), **unit_flags(ctx, u)}
                      for u in dfd],
    }, {"attackers.supplied": tuple({ln["source"]: ln for ln in unsupplied}.values())})
    return CombatFacts(hex_, tuple(attackers), tuple(u["id"] for u in dfd), a_side, d_side,
                       attack_strength, defense_strength, drm_facts, 0, tuple(strength_facts))


def _ratio(label: str) -> Fraction:
    a, _, d = str(label).partition(":")
    return Fraction(int(a), int(d))


def odds_column(ctx: Any, attack: Fraction, defense: Fraction) -> tuple[int, str]:
    """The CRT column index and label for ``attack`` : ``defense`` strength points, rounded in
    the defender's favour: the highest column whose ratio the odds reach. Odds below the first
    column use the first, above the last the last (interpretation crt-odds-beyond-the-table).
    Other games read their CRT the same way (e.g. BM8.2A: fractions dropped; BM8.2B: odds above
    the last column, 6:1, resolved at 6:1)."""
    columns = list(dict(ctx.table("crt").dims)["odds"])
    if defense <= 0:
        return len(columns) - 1, columns[-1]
    odds = Fraction(attack) / Fraction(defense)
    index = 0
    for i, label in enumerate(columns):
        if odds >= _ratio(label):
            index = i
    return index, columns[index]


def rules_define(ctx: Any, name: str) -> bool:
    """Whether the game's rule scripts define quantity ``name`` (a data switch, e.g.
    ``column_shift`` or ``combat_dice``)."""
    return name in ctx.rules.quantities


def rules_permit(ctx: Any, action: str, facts: Mapping[str, Any] | None = None) -> bool:
    """Whether the game's scripts have lines about ``action`` and allow it (an action no line
    names is *not* permitted here: this is an opt-in switch, e.g. ``attack_without_activation``)."""
    return action in ctx.rules.permissions and bool(ctx.permission(action, dict(facts or {})).value)


def combat_dice(ctx: Any) -> int:
    """Dice rolled for a combat: the game's quantity ``combat_dice`` (e.g. Moscow '41 10.0D: two;
    e.g. Battle for Moscow BM8.4: one)."""
    return int(ctx.value("combat_dice", {}))


def dice_cases(ctx: Any) -> list[str]:
    """The cases of the ``combat_dice`` line that decided the dice (e.g. 10.0D, BM8.4)."""
    return list(ctx.quantity("combat_dice", {}).cases)


def combat_lines(ctx: Any, f: CombatFacts) -> list[dict[str, Any]]:
    """The rule-script lines that decided one combat, ``[{"source", "cases"}]`` (a trace event's
    ``lines``): each stack's ``combat_strength`` lines, the ``loss_shift`` and ``column_shift``
    lines that fired (e.g. 10.3B, BM8.3), the ``attack_drm`` terms and bounds, and the
    ``combat_dice`` line — the quantities :func:`assess <casebook.areas.combat.assess>` read,
    explained for the same facts (docs/rule-language.md, "Which lines an event names")."""
    explained = [ctx.quantity("combat_strength", facts) for facts in f.strength_facts]
    explained += [ctx.quantity(name, f.drm_facts) for name in ("loss_shift", "column_shift", "attack_drm")
                  if rules_define(ctx, name)]
    explained.append(ctx.quantity("combat_dice", {}))
    return list({ln["source"]: ln for ln in ctx.fired_lines(*explained)}.values())


def procedure_cases(ctx: Any, default: Sequence[str]) -> list[str]:
    """The cases a resolved combat cites: those of ``default`` (the caller's procedure cases, e.g.
    10.0A-E) the game's case index holds, or, for a game that numbers none of them (its own
    rulebook), the cases heading its ``combat_strength`` and ``combat_dice`` quantities (e.g.
    BM8.2A, BM8.4; a column shift's cases are cited only where a shift fired, by the caller)."""
    known = [c for c in default if c in ctx.pack.cases]
    if known:
        return known
    out: list[str] = []
    for name in ("combat_strength", "combat_dice"):
        if rules_define(ctx, name):
            out += [c for c in ctx.rules.quantities[name].code.cases if c not in out]
    return out


def column_shift(ctx: Any, facts: Mapping[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """Column shifts the game's scripts give for an attack (quantity ``column_shift``, negative =
    left: e.g. BM8.3), with the terms that fired; ``(0, [])`` when it defines none."""
    if not rules_define(ctx, "column_shift"):
        return 0, []
    e = ctx.quantity("column_shift", facts)
    terms = [{"case": ", ".join(ln.cases), "value": ln.amount, "source": ln.source.rsplit("/", 1)[-1]}
             for ln in e.lines if ln.fired and ln.kind in ("term", "group")]
    return int(e.value), terms


def below_table(ctx: Any, attack: Fraction, defense: Fraction) -> bool:
    """The odds are below the CRT's first column (a game's ``forbid attack`` line reads it, e.g.
    BM8.2C; without one the first column is read, interpretation crt-odds-beyond-the-table)."""
    columns = list(dict(ctx.table("crt").dims)["odds"])
    return defense > 0 and Fraction(attack) / Fraction(defense) < _ratio(columns[0])


def fired_cases(ctx: Any, f: CombatFacts) -> list[str]:
    """The cases one combat adds to its procedure's: those of the ``combat_strength`` terms that
    fired (e.g. BM8.8A, in mud; 14.2C, a fortified defender) and, when the odds are above the
    CRT's last column, those of the script line ``permit attack_above_table`` (e.g. BM8.2B:
    resolved at 6:1)."""
    out: list[str] = []
    for facts in f.strength_facts:
        e = ctx.quantity("combat_strength", facts)
        out += [c for ln in e.lines if ln.fired and ln.kind in ("term", "group") and ln.amount for c in ln.cases]
    columns = list(dict(ctx.table("crt").dims)["odds"])
    d = Fraction(f.defense_strength)
    above = d <= 0 or int(Fraction(f.attack_strength) / d) > _ratio(columns[-1])
    if above and "attack_above_table" in ctx.rules.permissions:
        out += list(ctx.permission("attack_above_table", {}).cases)
    return list(dict.fromkeys(out))


def shifted_column(ctx: Any, index: int, shift: int) -> tuple[int, str]:
    """Shift column ``index`` by ``shift`` columns (right +, 10.3B); a shift past the table's
    edge stops at the edge column (interpretation crt-shift-past-the-edge)."""
    columns = list(dict(ctx.table("crt").dims)["odds"])
    j = max(0, min(len(columns) - 1, index + shift))
    return j, columns[j]


def distribution(dice: int = 1) -> dict[int, Fraction]:
    """The exact outcome distribution of the total of ``dice`` six-sided dice, the chances
    :func:`outcomes` gives (an ``ask`` answer, a bot weighing a CRT attack):
    ``distribution(2)[7] == Fraction(1, 6)``."""
    if dice < 1:
        raise ValueError(f"dice must be >= 1, got {dice!r}")
    counts: dict[int, int] = {}
    for faces in product(range(1, SIDES + 1), repeat=dice):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    n = SIDES ** dice
    return {total: Fraction(c, n) for total, c in sorted(counts.items())}


def outcomes(ctx: Any, column: str, drm: int) -> list[dict[str, Any]]:
    """Every roll of the combat dice with its exact probability (as text ``"1/36"`` and a float)
    and result."""
    out = []
    for total, p in distribution(combat_dice(ctx)).items():
        out.append({"roll": total, "probability": f"{p.numerator}/{p.denominator}",
                    "p": round(float(p), 4), "result": crt_result(ctx, column, total, drm)})
    return out
