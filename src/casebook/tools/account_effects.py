"""A combat's results in the account's words, told where they happen. Split from
:mod:`casebook.tools.account` (at its 400 lines); :func:`effect_words`, :func:`combat_losses` and
:func:`value_words` are re-exported there under their old names.

A combat's results are applied in stages (the shared results procedure,
:mod:`casebook.areas._results_stages`: attacker fatigue, defender fatigue, attacker losses, the
defender's retreat and/or losses, the advance), some of them decided by a side (``negate-fatigue``,
``take-losses``, ``retreat``, ``advance`` actions), and the trace records them all in one
``combat-results`` event after the last decision (e.g. Moscow '41's 11.1C fatigue and 11.2A-B
retreat under the attacker's 11.4 advance). :func:`place_effects` tells each effect after the
decision (or the combat) it followed: a retreat's effects under the defender's ``retreat`` line, not
two lines later under the attacker's ``combat-results``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Placement", "combat_losses", "decision_kind", "effect_words", "place_effects", "value_words",
           "DECISION_STAGES"]

_SKIP_KEYS = frozenset({"terms", "explanation", "lines", "path_steps", "outcomes", "transitions",
                        "combat", "support", "cases"})

#: decision kind -> the results stage it decides, in the order stages apply (``negate-fatigue``
#: is the attacker's stage 0 or the defender's stage 1, by the deciding side)
DECISION_STAGES = {"negate-fatigue": 0, "take-losses": 2, "retreat": 3, "advance": 4}
_FATIGUE_ONLY = frozenset({"fatigued", "ignored", "loss", "fatigue negated"})  # effects of a fatigue stage


def value_words(v: Any, depth: int = 0) -> str:
    """A compact rendering in words: yes/no for a flag, lists comma-joined (long ones cut with a
    count), an effect as :func:`effect_words` says it, other mappings as ``key: value`` pairs in
    parentheses — never a Python or JSON form."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(x, Mapping) and x.get("effect") for x in v):
            return effect_words(v)
        items = [value_words(x, depth + 1) for x in v[:8]]
        more = f", … ({len(v)} in all)" if len(v) > 8 else ""
        return ", ".join(items) + more
    if isinstance(v, Mapping):
        if v.get("effect"):
            return effect_words([v])
        inner = "; ".join(f"{k}: {value_words(x, depth + 1)}" for k, x in v.items()
                          if k not in _SKIP_KEYS and x not in (None, "", [], {}))
        return f"({inner})"
    return str(v)


def effect_words(effects: Iterable[Mapping[str, Any]]) -> str:
    """Effects (a combat's results) in words, a unit's effects together: ``unit s-243rd: fatigued,
    1-loss · retreat (units s-229rd; path 1115)`` (a loss that replaced the unit names its
    replacement, ``remnant, replaced by s-rem-02``; a loss inside an effect is said in
    parentheses, ``loss (1-loss)``)."""
    said: list[tuple[Any, list[str]]] = []
    for e in effects:
        unit = e.get("unit")
        words = _one_effect(e)
        if unit is not None and said and said[-1][0] == unit:
            said[-1][1].append(words)
        else:
            said.append((unit, [words]))
    return " · ".join((f"unit {unit}: " if unit is not None else "") + ", ".join(words) for unit, words in said)


def _one_effect(e: Mapping[str, Any]) -> str:
    text = str(e.get("effect"))
    inner = e.get("loss")
    if isinstance(inner, Mapping):
        text += f" ({_one_effect(inner)})"
    if e.get("remnant"):
        text += f", replaced by {e['remnant']}"
    rest = "; ".join(f"{k} {value_words(x, 2)}" for k, x in e.items()
                     if k not in ("unit", "effect", "loss", "remnant", "cases") and x not in (None, "", [], {}))
    return text + (f" ({rest})" if rest else "")


def combat_losses(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(side, ``unit effect``) of each loss among a ``combat-results`` event's effects: a loss
    marker (``1-loss``), an elimination, a replacement by a weaker counter (an effect naming its
    ``remnant``), a loss inside another effect (a fatigue result taken as a loss). The side is
    the combat's attacker or defender side the unit (or the unit it replaced) fought on."""
    combat = data.get("combat") or {}
    side_of = {str(u): str(combat.get("attacker_side")) for u in combat.get("attackers") or []}
    side_of |= {str(u): str(combat.get("defender_side")) for u in combat.get("defenders") or []}
    out: list[tuple[str, str]] = []
    for effect in data.get("effects") or []:
        if not isinstance(effect, Mapping) or effect.get("unit") is None:
            continue
        inner = effect.get("loss")
        loss: Mapping[str, Any] = inner if isinstance(inner, Mapping) else effect
        name = str(loss.get("effect"))
        unit = str(effect["unit"])
        if loss.get("remnant"):
            side_of.setdefault(str(loss["remnant"]), side_of.get(unit, ""))
        if (name == "eliminated" or name.endswith("-loss") or "remnant" in loss) and side_of.get(unit):
            out.append((side_of[unit], f"{unit} {name}"))
    return out


def decision_kind(event: Any) -> str:
    """The kind of the decision an ``action`` event records (``soviet: retreat losses=0 path=1115``
    -> ``retreat``)."""
    head = str(event.data.get("action", "")).split(": ", 1)[-1]
    return head.split(" ", 1)[0]


@dataclass
class Placement:
    """Where a batch's combat effects are told: ``before``/``after`` event seq -> lines (without
    the indent), ``remaining`` combat-results seq -> the effects its own line still tells."""

    before: dict[int, list[str]] = field(default_factory=dict)
    after: dict[int, list[str]] = field(default_factory=dict)
    remaining: dict[int, list[Mapping[str, Any]]] = field(default_factory=dict)


def place_effects(batch: Sequence[Any]) -> Placement:
    """For each ``combat-results`` event of ``batch`` (trace order) whose combat had decisions:
    each effect is told after the point it followed (the last decision of an earlier or the same
    stage, else the ``combat`` event), as ``effects (#N): <words>  [cases]``; the effects of the
    last point stay on the ``combat-results`` line (which follows it). A point before the batch
    (a running account that already printed it) tells its effects before the batch's first
    decision of that combat, so the account stays in trace order."""
    out = Placement()
    for i, event in enumerate(batch):
        if event.kind != "combat-results":
            continue
        data = event.data
        combat = data.get("combat") or {}
        start, decisions = _span(batch, i, combat)
        if not decisions:
            continue
        points = ([batch[start]] if start is not None else []) + decisions
        stages = [-1] * (start is not None) + [_decision_stage(d, combat) for d in decisions]
        lost = {_decision_side(d, combat) for d in decisions if _took_losses(d)}
        groups: dict[int, list[Mapping[str, Any]]] = {}
        stage = -1
        for effect in data.get("effects") or []:
            if isinstance(effect, Mapping):
                stage = _effect_stage(effect, combat, stage, lost)
                at = max((k for k, s in enumerate(stages) if s <= stage), default=None)
                groups.setdefault(-1 if at is None else points[at].seq, []).append(effect)
        last = points[-1].seq
        out.remaining[event.seq] = groups.pop(last, [])
        for seq, effects in groups.items():
            line = f"effects (#{event.seq}): {effect_words(effects)}{_cases(effects)}"
            if seq == -1:  # happened before any point in the batch: before its first decision
                out.before.setdefault(decisions[0].seq, []).append(line)
            else:
                out.after.setdefault(seq, []).append(line)
    return out


def _span(batch: Sequence[Any], i: int, combat: Mapping[str, Any]) -> tuple[int | None, list[Any]]:
    """(index of the ``combat`` event, or None when it is before the batch; the results decisions
    between it and the ``combat-results`` at ``i``)."""
    decisions: list[Any] = []
    for j in range(i - 1, -1, -1):
        e = batch[j]
        if e.kind == "combat" and e.data.get("hex") == combat.get("hex"):
            return j, decisions[::-1]
        if e.kind == "combat-results":
            break
        if e.kind == "action":
            if decision_kind(e) not in DECISION_STAGES:
                break
            decisions.append(e)
    return None, decisions[::-1]


def _decision_stage(event: Any, combat: Mapping[str, Any]) -> int:
    kind = decision_kind(event)
    if kind == "negate-fatigue" and event.side != combat.get("attacker_side"):
        return 1
    return DECISION_STAGES[kind]


def _decision_side(event: Any, combat: Mapping[str, Any]) -> str:
    return "defender" if event.side == combat.get("defender_side") else "attacker"


def _took_losses(event: Any) -> bool:
    """A results decision that took losses: the attacker's ``take-losses``, a ``retreat`` with
    ``losses`` > 0."""
    if decision_kind(event) == "take-losses":
        return True
    return any(w.startswith("losses=") and w[7:].isdigit() and int(w[7:]) > 0
               for w in str(event.data.get("action", "")).split())


def _effect_stage(effect: Mapping[str, Any], combat: Mapping[str, Any], after: int, lost: set[str]) -> int:
    """The results stage ``effect`` came from (no earlier than ``after``: effects are recorded in
    stage order). ``lost``: the roles (attacker/defender) whose decision took losses — their
    elimination is a loss's, else (ambiguous) the earliest stage it can be."""
    name = str(effect.get("effect"))
    if name in ("advance", "retreat"):
        return 4 if name == "advance" else 3
    defender = (str(effect.get("side")) == str(combat.get("defender_side")) if effect.get("unit") is None
                else str(effect["unit"]) in {str(u) for u in combat.get("defenders") or ()})
    fatigue, losses = (1, 3) if defender else (0, 2)
    if name in _FATIGUE_ONLY:
        candidates = [fatigue]
    elif name == "eliminated" and ("defender" if defender else "attacker") not in lost:
        candidates = [fatigue, losses]
    else:
        candidates = [losses]
    return next((c for c in candidates if c >= after), candidates[-1])


def _cases(effects: Iterable[Mapping[str, Any]]) -> str:
    cases = list(dict.fromkeys(str(c) for e in effects for c in e.get("cases") or ()))
    return f"  [{', '.join(cases)}]" if cases else ""
