"""Typed references of a pack's configuration: config values that name something of the pack.

A config file (:mod:`casebook.content.packconfig`) names the things a procedure works with — the
sequence step it acts in, the rule-script facts, permissions and quantities it asks, the track,
marker, side or unit class it reads. A misspelt name would pass the config's shape and break play
silently (a step never reached, a fact never given), so a config model types such a field with a
reference kind::

    step: StepRef            # a step id of the pack's sequence
    facts: Mapping[str, FactRef]

Each kind is an annotated ``str`` (:data:`StepRef`, :data:`FactRef`, :data:`PermissionRef`,
:data:`QuantityRef`, :data:`TrackRef`, :data:`MarkerRef`, :data:`SideRef`, :data:`ClassRef`)
whose validator resolves the value against the names :func:`pack_refs` collects from the loaded
pack and its compiled rule scripts (passed as the validation context, ``refs``). An unknown name
is a problem at the value's ``file:line:column`` with its key and a did-you-mean, all of a load's
problems at once (``casebook lint`` and :meth:`casebook.script.engine.Engine.load` share the
check through :func:`casebook.content.requires.pack_requirement_problems`). A kind the pack does
not declare (no vocabulary ``markers:``, no compiled rules) is not checked; at run time (no
``refs`` in the context) nothing is checked again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, ValidationInfo

__all__ = ["StepRef", "FactRef", "PermissionRef", "QuantityRef", "TrackRef", "MarkerRef", "SideRef",
           "ClassRef", "REF_KINDS", "pack_refs"]

#: kind -> how a problem names it
REF_KINDS = {"step": "sequence step", "fact": "rule-script fact (rules/facts.yaml)",
             "permission": "rule-script permission", "quantity": "rule-script quantity",
             "track": "track (vocabulary tracks:)", "marker": "marker kind (vocabulary markers:)",
             "side": "side (vocabulary sides:)", "class": "unit class (vocabulary unit_classes:)"}


def _ref(kind: str) -> Callable[[str, ValidationInfo], str]:
    def check(text: str, info: ValidationInfo) -> str:
        known = ((info.context or {}).get("refs") or {}).get(kind)
        if known is not None and text not in known:
            from casebook.content.schema import did_you_mean

            raise ValueError(f"the pack has no {REF_KINDS[kind]} {text!r}{did_you_mean(text, sorted(known))}")
        return text

    return check


StepRef = Annotated[str, AfterValidator(_ref("step"))]
FactRef = Annotated[str, AfterValidator(_ref("fact"))]
PermissionRef = Annotated[str, AfterValidator(_ref("permission"))]
QuantityRef = Annotated[str, AfterValidator(_ref("quantity"))]
TrackRef = Annotated[str, AfterValidator(_ref("track"))]
MarkerRef = Annotated[str, AfterValidator(_ref("marker"))]
SideRef = Annotated[str, AfterValidator(_ref("side"))]
ClassRef = Annotated[str, AfterValidator(_ref("class"))]


def pack_refs(pack: Any, rules: Any = None) -> dict[str, frozenset[str]]:
    """kind -> the names of that kind the loaded ``pack`` (and its compiled ``rules``, a
    :class:`~casebook.script.ruleset.RuleSet` or None) has; a kind it does not declare is left
    out (not checked)."""
    out: dict[str, frozenset[str]] = {}
    steps = {str(s["id"]) for ph in pack.sequence.get("phases") or [] if isinstance(ph, dict)
             for s in ph.get("steps") or [] if isinstance(s, dict) and isinstance(s.get("id"), str)}
    if steps:
        out["step"] = frozenset(steps)
    if rules is not None:
        schema = getattr(rules, "schema", None)
        if schema is not None:
            out["fact"] = frozenset(schema.facts)
        out["permission"] = frozenset(rules.permissions)
        out["quantity"] = frozenset(rules.quantities)
    vocab = pack.vocabulary
    for kind, names in (("track", tuple(vocab.tracks)), ("marker", vocab.markers), ("side", vocab.side_ids),
                        ("class", vocab.unit_classes)):
        if names:
            out[kind] = frozenset(names)
    return out
