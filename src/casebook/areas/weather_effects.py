"""Shared rules area ``weather_effects`` (a library a game's plugin calls from its
``casebook_weather_effects`` hook): the effects of a temperature and ground condition, as the
game's own rule lines compute them. The area asks each quantity or permission a records table of
the pack names (e.g. Moscow '41's ``tables/weather_effects.yaml``) for a neutral case under the
weather asked about, and reports what the weather lines did; it holds no number, no wording and
no case id of its own — the numbers and cases are those of the lines that fired, the wording and
the neutral case the table's.

Each row of the table (in the order the effects are listed):

- ``report``: how the row is read (:data:`REPORTS`): ``statement`` (the row's ``label`` and
  ``cases``, for the ``grounds`` listed: a ground that states "no effect"), ``factor`` (the
  product of the fired ``×`` terms, listed when not 1; ``with_rounding``: the ``round`` lines are
  cited too), ``value`` (the value, always listed, citing the last line that fired: a chart
  column), ``forbidden`` (a permission the lines refuse: value False), ``each_term`` (one effect
  per fired term that is not a table lookup: value the term's amount), ``nonzero`` (the value,
  listed when not 0), ``changed`` (the value, listed when a term fired);
- ``ask``: the quantity or permission; ``facts``: the neutral case (the area adds facts
  ``ground`` and ``temperature``; each setting named in ``settings`` is given as a fact of its
  name); ``per_side``: asked once per side of the game's vocabulary, the strings ``{side}`` and
  ``{other_side}`` in ``facts`` replaced;
- ``label``: the effect's text, with ``{value}``, ``{value:+d}`` (signed), ``{side}``,
  ``{ground}``, ``{temperature}`` filled in (nothing else is formatted);
- ``variant`` (facts replacing some of ``facts``), ``variant_key``, ``variant_label``: the same
  question for a variant case; when its value differs, ``variant_label`` (with ``{variant}``) is
  appended to the effect's text and the value is given under ``variant_key``.

Public API: :func:`effects_of`, :func:`report`, :func:`row_problems` (what ``casebook lint``
checks of each row: its ``ask`` one of the compiled rules, its labels' placeholders ones the
area fills in; a plugin reading the table declares ``TABLE_CHECKS = {table: row_problems}``). Each effect is ``{"effect": text, "value",
"cases"}`` (and a variant's key); a row whose question needs a fact the table does not give, or
names a quantity the rules lack, gives ``{"effect": "<ask>: not computed (…)", "value": None,
"cases": []}`` rather than failing the whole answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from casebook.script.values import MissingFactError

__all__ = ["REPORTS", "effects_of", "report", "label_fields", "row_problems"]

#: The ways a row of the table is read (its field ``report``; see the module docstring).
REPORTS = ("statement", "factor", "value", "forbidden", "each_term", "nonzero", "changed")

_FIELD = re.compile(r"\{(\w+)(?::(\+d))?\}")


def _label(template: str, **values: Any) -> str:
    """``template`` with ``{name}`` / ``{name:+d}`` of ``values`` filled in (no other formatting)."""
    def one(m: re.Match[str]) -> str:
        if m.group(1) not in values:
            return m.group(0)
        v = values[m.group(1)]
        return f"{v:+d}" if m.group(2) else str(v)
    return _FIELD.sub(one, template)


def label_fields(row: Mapping[str, Any], key: str = "label") -> tuple[str, ...]:
    """The placeholders the area fills in the row's ``label`` (or ``variant_label``)."""
    side = ("side",) if row.get("per_side") else ()
    if key == "variant_label":
        return ("variant", "ground", "temperature", *side)
    if row.get("report") == "statement":
        return ("ground", "temperature")
    value = () if row.get("report") == "forbidden" else ("value",)  # a refusal has no value
    return (*value, "ground", "temperature", *side)


def row_problems(row: Mapping[str, Any], rules: Any) -> list[tuple[str, str]]:
    """``(field, message)`` for each thing of ``row`` the area cannot do under the compiled
    ``rules``: an ``ask`` that is no quantity (no permission, for ``forbidden``) of the rules, a
    placeholder of a label the area does not fill (or a brace it would print as is)."""
    from casebook.content.schema import did_you_mean

    out: list[tuple[str, str]] = []
    name, how = row.get("ask"), row.get("report")
    if how != "statement" and isinstance(name, str) and rules is not None:
        kind = "permission" if how == "forbidden" else "quantity"
        have = sorted(rules.permissions if how == "forbidden" else rules.quantities)
        if name not in have:
            out.append(("ask", f"the rules have no {kind} {name!r}{did_you_mean(name, have)}"))
    for key in ("label", "variant_label"):
        text = row.get(key)
        if not isinstance(text, str):
            continue
        fills = label_fields(row, key)
        for braced in re.findall(r"\{[^{}]*\}", text):
            m = _FIELD.fullmatch(braced)
            if m is None or m.group(1) not in fills:
                named = m.group(1) if m else braced.strip("{}")
                out.append((key, f"placeholder {braced} is not filled in (this {key} has "
                                 f"{', '.join('{' + f + '}' for f in fills)}){did_you_mean(named, fills)}"))
    return out


def _fired_terms(e: Any) -> list[Any]:
    """The term lines of an explanation that counted (a group's winning member)."""
    out = []
    for ln in e.lines:
        if ln.kind == "term" and ln.fired:
            out.append(ln)
        elif ln.kind == "group" and ln.fired:
            out += [m for m in ln.members if m.won]
    return out


def _cases(lines: list[Any]) -> list[str]:
    return list(dict.fromkeys(c for ln in lines for c in ln.cases))


def _fill(value: Any, side: str | None, other: str | None) -> Any:
    """``value`` with the strings ``{side}`` / ``{other_side}`` replaced, in lists and mappings too."""
    if isinstance(value, str):
        return side if value == "{side}" else other if value == "{other_side}" else value
    if isinstance(value, list):
        return [_fill(v, side, other) for v in value]
    if isinstance(value, Mapping):
        return {k: _fill(v, side, other) for k, v in value.items()}
    return value


def _facts(ctx: Any, row: Mapping[str, Any], temperature: str, ground: str, side: str | None,
           extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    other = None if side is None else ctx.state.other_side(side)
    facts = {"ground": ground, "temperature": temperature, **_fill(dict(row.get("facts") or {}), side, other)}
    facts.update(_fill(dict(extra or {}), side, other))
    for name in row.get("settings") or ():
        facts[name] = ctx.state.setting(name, ctx.engine.setting_defaults.get(name))
    return facts


def _one(ctx: Any, row: Mapping[str, Any], facts: dict[str, Any], fill: dict[str, Any]) -> list[dict[str, Any]]:
    """The effects of one question of ``row`` (one side's, or the only one)."""
    how, name, label = row["report"], row["ask"], row["label"]
    if how == "forbidden":
        verdict = ctx.permission(name, facts)
        if verdict.value:
            return []
        return [{"effect": _label(label, **fill), "value": False,
                 "cases": _cases([ln for ln in verdict.lines if ln.fired])}]
    e = ctx.quantity(name, facts)
    terms = _fired_terms(e)
    if how == "factor":
        factor = Fraction(1)
        for ln in terms:
            factor *= Fraction(ln.amount)
        if factor == 1:
            return []
        cited = terms + ([ln for ln in e.lines if ln.kind == "round"] if row.get("with_rounding") else [])
        return [{"effect": _label(label, value=factor, **fill), "value": str(factor), "cases": _cases(cited)}]
    if how == "value":
        fired = [ln for ln in e.lines if ln.fired]
        return [{"effect": _label(label, value=e.value, **fill), "value": e.value, "cases": _cases(fired[-1:])}]
    if how == "each_term":
        return [{"effect": _label(label, value=ln.amount, **fill), "value": ln.amount, "cases": list(ln.cases)}
                for ln in terms if not ln.text.lstrip().startswith("lookup")]
    if (how == "nonzero" and e.value == 0) or (how == "changed" and not terms):
        return []
    return [{"effect": _label(label, value=e.value, **fill), "value": e.value, "cases": _cases(terms)}]


def _row(ctx: Any, row: Mapping[str, Any], temperature: str, ground: str) -> list[dict[str, Any]]:
    if row["report"] == "statement":
        if ground not in (row.get("grounds") or ()):
            return []
        return [{"effect": _label(row["label"], ground=ground, temperature=temperature), "value": None,
                 "cases": list(row.get("cases") or ())}]
    name = row["ask"]
    if name not in ctx.rules.quantities and name not in ctx.rules.permissions:
        raise KeyError(f"the rules have no quantity or permission {name!r}")
    out: list[dict[str, Any]] = []
    sides = [s.id for s in ctx.pack.vocabulary.sides] if row.get("per_side") else [None]
    for side in sides:
        fill = {"ground": ground, "temperature": temperature, **({"side": side} if side else {})}
        facts = _facts(ctx, row, temperature, ground, side)
        if row.get("variant"):
            facts_v = _facts(ctx, row, temperature, ground, side, row["variant"])
            out += _with_variant(ctx, row, facts, facts_v, fill)
        else:
            out += _one(ctx, row, facts, fill)
    return out


def _with_variant(ctx: Any, row: Mapping[str, Any], facts: dict[str, Any], facts_v: dict[str, Any],
                  fill: dict[str, Any]) -> list[dict[str, Any]]:
    """The row's effects for ``facts``; when the value of the variant case (``facts_v``) differs,
    the row's ``variant_label`` appended and the value given under ``variant_key``."""
    found = _one(ctx, row, facts, fill)
    if found and row["report"] in ("nonzero", "changed"):
        other = ctx.quantity(row["ask"], facts_v)
        if other.value != found[0]["value"]:
            found[0]["effect"] += _label(row.get("variant_label") or "", variant=other.value, **fill)
            found[0][row.get("variant_key") or "variant"] = other.value
    return found


def effects_of(ctx: Any, table: str, temperature: str, ground: str) -> list[dict[str, Any]]:
    """The effects of ``temperature`` with ``ground``: one or more per row of records table
    ``table`` (module docstring), in the table's order; ``{"effect", "value", "cases"}`` each."""
    out: list[dict[str, Any]] = []
    for row in ctx.records(table):
        try:
            out += _row(ctx, row, temperature, ground)
        except (MissingFactError, KeyError) as exc:
            out.append({"effect": f"{row.get('ask')}: not computed ({exc})", "value": None, "cases": []})
    return out


def report(ctx: Any, table: str, temperature: str | None = None, ground: str | None = None,
           cases: tuple[str, ...] = ()) -> dict[str, Any]:
    """The weather in force (or ``temperature`` / ``ground`` given) and its effects
    (:func:`effects_of`): ``{"temperature", "ground", "effects", "cases"}``, the cases those the
    game passes (``cases``) then every effect's. Raises ``ValueError`` when no weather is in force."""
    weather = ctx.state.weather or {}
    temperature = temperature or weather.get("temperature")
    ground = ground or weather.get("ground")
    if temperature is None or ground is None:
        raise ValueError("no weather is in force: the position has no temperature and ground condition")
    effects = effects_of(ctx, table, temperature, ground)
    cited = list(dict.fromkeys([*cases, *(c for e in effects for c in e["cases"])]))
    return {"temperature": temperature, "ground": ground, "effects": effects, "cases": cited}
