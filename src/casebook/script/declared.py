"""Rules plugin ``declared_actions``: the actions a game's rule scripts declare with ``offer``
(:mod:`casebook.script.offers`), listed, refused and carried out with no game code.

- **Listing** (``casebook_legal_actions``): in the offer's step, for the side it is offered to,
  one action per candidate (each hex of the map in the board's order, each unit on the map in
  the position's order; without ``for each``, one action) whose costs the tracks can pay and
  whose permission (the ``forbid``/``permit`` lines of the action's name) allows it.
- **Refusing** (``casebook_validate_action``): the same judgement of one action, each refusal
  naming the line's cases — the offer line (another step, another side, not a candidate), a
  ``cost`` line (the track cannot pay), the forbid lines that fired — so ``why`` and ``casebook
  serve`` give their ``file:line``.
- **Applying** (``casebook_apply_action``): each cost is taken from its track, each effect is
  carried out in the candidate's hex, and one event is recorded: its kind the offer's ``record``
  name (else the action's notation), its cases the offer's, data ``{<arg>: value, "cost",
  "track", "cases"}`` (the amount and the track after paying), source the offer's ``file:line``,
  and ``lines`` the offer's own lines with those that fired.

The facts of an evaluation are ``side`` (the acting side), the candidate (``hex``; a unit's
``unit`` and ``hex``) and the standard facts (``provider: engine|setting|track|markers``).
List the plugin in a manifest's ``plugins:`` where the actions should appear among the others'.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ConfigDict
from typing_extensions import TypedDict

from casebook.core.actions import Action
from casebook.core.hooks import Refusal, hookimpl

__all__ = ["STATE_SCHEMA", "STEPS", "QUESTIONS", "offers_of", "offered", "refusals", "allowed_lines", "carry_out",
           "casebook_legal_actions",
           "casebook_validate_action", "casebook_apply_action", "casebook_answer"]

PLUGIN = "declared_actions"
#: The steps it acts in of itself: none — each offer names its step in the scripts (``offer … in
#: step X``), which ``casebook lint``'s step check reads there (content.requires.step_problems).
STEPS: tuple[str, ...] = ()

#: question -> usage line, for `casebook ask` (docs/ask.md)
QUESTIONS: dict[str, str] = {
    "offer": "offer ACTION [ARG=VALUE] — a declared action (an `offer` block of the rule scripts): whether "
             "it is offered now, else each refusal with the rule line that makes it",
}


def offers_of(ctx: Any) -> tuple[Any, ...]:
    """The compiled offers of the game's rule scripts, in script order."""
    return tuple(getattr(ctx.rules, "offers", ()) or ())


def _side(ctx: Any, offer: Any) -> str | None:
    return ctx.state.phasing if offer.side in (None, "phasing") else offer.side


def _candidates(ctx: Any, offer: Any) -> Iterator[dict[str, Any]]:
    """The candidates of ``offer``: ``{"hex": h}`` per map hex, ``{"unit": id, "hex": h}`` per unit
    on the map, or one empty candidate (made as they are read: a listing may stop early)."""
    if offer.collection == "map_hexes":
        kept = ctx.engine.lasting(ctx.board, ("declared.hexes",))  # the labels: once per board
        if "labels" not in kept:
            from casebook.core.hexgrid import hex_label

            kept["labels"] = [hex_label(h) for h in ctx.board.hexes()]
        return ({"hex": h} for h in kept["labels"])
    if offer.collection == "map_units":
        return iter([{"unit": str(u.get("id")), "hex": u["hex"]} for u in ctx.state.units if "hex" in u])
    return iter([{}])


def _facts(side: str, candidate: dict[str, Any]) -> dict[str, Any]:
    return {"side": side, **candidate}


class _Reads(Mapping[str, Any]):
    """``facts`` noting the names a rule line reads (all of them when it iterates them)."""

    def __init__(self, facts: Mapping[str, Any]) -> None:
        self._facts = facts
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return self._facts[name]

    def __contains__(self, name: object) -> bool:
        self.read.add(str(name))
        return name in self._facts

    def __iter__(self) -> Iterator[str]:
        self.read.update(self._facts)
        return iter(self._facts)

    def __len__(self) -> int:
        return len(self._facts)


def _short(ctx: Any, offer: Any, facts: dict[str, Any],
           same: dict[Any, Any] | None = None) -> list[tuple[Any, int, int]]:
    """The costs of ``offer`` the tracks cannot pay: ``[(cost line, amount, on the track)]``.

    ``same`` (listing every candidate): cost index -> ``(amount, have)`` of a cost line that read
    none of the candidate's facts (its lines noted at the first), ``have`` ``None`` when its
    track's keys read one; ``same["fixed"]``: every cost is the same for each candidate."""
    out = []
    for i, cost in enumerate(offer.costs):
        have = None
        if same is not None and i in same:
            amount, have = same[i]
        elif same is not None:
            probe = _Reads(facts)
            amount = _amount(ctx, cost, probe)
            if not probe.read - {"side"}:  # the candidate's facts unread: the same for each
                keyed = any(is_fact and name in facts and name != "side" for is_fact, name in cost.keys)
                same[i] = (amount, None if keyed else ctx.state.track(cost.track, *_keys(ctx, cost, facts)))
                have = same[i][1]
        else:
            amount = _amount(ctx, cost, facts)
        if have is None:
            have = ctx.state.track(cost.track, *_keys(ctx, cost, facts))
        if amount > have:
            out.append((cost, amount, have))
    if same is not None and "fixed" not in same:
        same["fixed"] = all(i in same and same[i][1] is not None for i in range(len(offer.costs)))
    return out


def _keys(ctx: Any, line: Any, facts: dict[str, Any]) -> list[str]:
    """The keys of a ``cost`` / ``add`` line's keyed track: a fact of the evaluation (the
    candidate's, else a standard fact), else the literal key."""
    out = []
    for is_fact, name in line.keys:
        if not is_fact:
            out.append(name)
        elif name in facts:
            out.append(str(facts[name]))
        else:
            out.append(str(ctx.standard[name]))
    return out


def _note(ctx: Any, code: Any) -> None:
    """Add an offer's own line that refuses (the offer line, a cost line) to the lines a refusal
    is recorded with (:meth:`casebook.script.engine.Engine.recording_lines`), as its forbid lines are."""
    seen = ctx.engine._recording[0]
    if seen is not None and code.source not in seen:
        seen[code.source] = {"source": code.source, "cases": list(code.cases), "text": code.text}


def _track_name(line: Any, keys: list[str]) -> str:
    return " of ".join([line.track, ", ".join(keys)]) if keys else line.track


def _amount(ctx: Any, cost: Any, facts: Mapping[str, Any]) -> int:
    if cost.quantity is not None:  # a quantity by name: asked through the context (its lines noted)
        return int(ctx.value(cost.quantity, facts))
    return int(ctx.rules.offer_cost(cost, facts, ctx.engine.script_tables, ctx.standard))


def offered(ctx: Any, offer: Any) -> list[Action]:
    """The actions of ``offer`` that are legal now (see the module docstring), in candidate order."""
    side = _side(ctx, offer)
    if side is None or ctx.state.step != offer.step:
        return []
    key = ("declared.offered", offer.action, side)
    memo = ctx.memo
    if key in memo:
        return list(memo[key])
    out = []
    same: dict[Any, Any] = {}
    short = None  # the costs' verdict, once they are known to be the same for every candidate
    for cand in _candidates(ctx, offer):
        facts = _facts(side, cand)
        if short is None:
            cannot = bool(_short(ctx, offer, facts, same))
            if same.get("fixed"):
                short = cannot
        else:
            cannot = short
        if cannot:
            if short:
                break  # the same costs for every candidate: none can pay
            continue
        if ctx.allowed(offer.action, facts):
            out.append(Action.make(offer.kind, side, **({offer.arg: cand[offer.arg]} if offer.arg else {})))
    memo[key] = out
    return list(out)


def _candidate_of(ctx: Any, offer: Any, action: Action) -> dict[str, Any] | None:
    if offer.arg is None:
        return {} if not action.args else None
    value = action.get(offer.arg)
    if not isinstance(value, str) or {n for n, _ in action.args} != {offer.arg}:
        return None
    return next((c for c in _candidates(ctx, offer) if c[offer.arg] == value), None)


def refusals(ctx: Any, offer: Any, action: Action) -> list[Refusal]:
    """Why ``action`` (of ``offer``'s kind) is refused now, each refusal with its line's cases
    (empty: it is legal)."""
    where = offer.code
    out = []
    if ctx.state.step != offer.step:
        _note(ctx, where)
        out.append(Refusal(f"{action.kind} is offered in the {offer.step} step [{where.source}]", where.cases, PLUGIN))
    cand = _candidate_of(ctx, offer, action)
    if cand is None:
        what = f"a {offer.arg}= of the map" if offer.arg else "no argument"
        _note(ctx, where)
        out.append(Refusal(f"{action.kind} takes {what} [{where.source}]", where.cases, PLUGIN))
        return out
    facts = _facts(action.side, cand)
    verdict = ctx.permission(offer.action, facts)
    if not verdict.value:
        fired = [ln for ln in verdict.lines if ln.fired and ln.kind == "forbid" and not ln.overridden]
        unmet = [f"{ln.text} [{ln.source}]" for ln in fired if ln.text.startswith("require ")]
        forbid = [ctx.rules.forbid_reason(ln, offer.action) for ln in fired if not ln.text.startswith("require ")]
        reason = "; ".join([*forbid, *(["not met: " + "; ".join(unmet)] if unmet else [])])
        out.append(Refusal(reason, tuple(verdict.cases), PLUGIN))
    elif action.side != _side(ctx, offer):
        _note(ctx, where)
        to = _side(ctx, offer) or "the phasing player, and the position has none yet"
        out.append(Refusal(f"{action.kind} is offered to {to} [{where.source}]", where.cases, PLUGIN))
    for cost, amount, have in _short(ctx, offer, facts):
        track = _track_name(cost, _keys(ctx, cost, facts))
        _note(ctx, cost.code)
        out.append(Refusal(f"costs {amount} from track {track}, which holds {have} [{cost.code.source}]",
                           cost.code.cases, PLUGIN))
    return out


def allowed_lines(ctx: Any, action: Action) -> list[dict[str, Any]]:
    """The lines that made a declared ``action`` allowed (none when it is refused or not a
    declared action): its offer line, its cost lines (the numbers it charges; a cost by quantity
    name notes that quantity's lines too), the ``require`` lines of its block that held and the
    ``permit`` lines that allowed it (:meth:`Explanation.deciding
    <casebook.script.explain.Explanation.deciding>`) — ``[{"source", "cases", "text"}]``, each
    also noted in a running :meth:`casebook.script.engine.Engine.recording_lines`."""
    offer = _offer(ctx, action.kind)
    cand = None if offer is None else _candidate_of(ctx, offer, action)
    if offer is None or cand is None or refusals(ctx, offer, action):
        return []
    facts = _facts(action.side, cand)
    for cost in offer.costs:
        _amount(ctx, cost, facts)
    verdict = ctx.permission(offer.action, facts)
    own = {r.code.source for r in offer.rules if r.verdict == "require"}
    held = [ln for ln in verdict.lines if ln.source in own and not ln.fired]
    out = [{"source": c.source, "cases": list(c.cases), "text": c.text} for c in [offer.code, *(c.code for c in offer.costs)]]
    out += [{"source": ln.source, "cases": list(ln.cases), "text": ln.text} for ln in [*held, *verdict.deciding()]]
    seen = ctx.engine._recording[0]
    for line in out:
        if seen is not None:
            seen.setdefault(line["source"], line)
    return out


def carry_out(ctx: Any, offer: Any, action: Action) -> dict[str, Any]:
    """Apply the legal ``action`` of ``offer``: pay its costs, carry out its effects, record its
    event; returns the event's data."""
    cand = _candidate_of(ctx, offer, action) or {}
    facts = _facts(action.side, cand)
    out: dict[str, Any] = {offer.arg: cand[offer.arg]} if offer.arg else {}
    for cost in offer.costs:
        amount = _amount(ctx, cost, facts)
        keys = _keys(ctx, cost, facts)
        ctx.state.add_track(cost.track, -amount, *keys)
        out["cost"] = amount
        out["track"] = ctx.state.track(cost.track, *keys)
    for effect in offer.effects:
        if effect.effect == "add_to_track":  # held to the track's declared bounds, as a trigger's
            from .effects import add_to_track

            done = {"arg": effect.arg, "keys": _keys(ctx, effect, facts), "amount": _amount(ctx, effect, facts)}
            add_to_track(ctx, done)
            out.setdefault("added", []).append({k: done[k] for k in ("arg", "keys", "added", "value",
                                                                        "bound_cases") if k in done})
            continue
        hex_ = cand.get("hex")
        if hex_ is None:
            continue
        if effect.effect == "place_marker":  # one more marker, even where one stands (16.2: "no other restriction")
            ctx.state.add_marker(effect.arg, hex_)
        elif any(m.get("kind") == effect.arg and m.get("hex") == hex_ for m in ctx.state.markers):
            ctx.state.remove_marker(effect.arg, hex_)
    out["cases"] = list(offer.code.cases)
    ctx.changed()
    if ctx.event_lines is not None:  # the offer's own lines decided it too
        for line in [*offer.lines(), *(r.code for r in offer.rules if r.verdict == "require")]:
            ctx.event_lines.setdefault(line.source, {"source": line.source, "cases": list(line.cases),
                                                     "text": line.text})
    ctx.record(offer.event, offer.code.cases, out, source=offer.code.source,
               side=action.side)
    return out


def _offer(ctx: Any, kind: str) -> Any:
    return next((o for o in offers_of(ctx) if o.kind == kind), None)


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Any, options: Any) -> Any:
    """``offer ACTION [ARG=VALUE]`` (or the whole notation, ``blue: dig-in hex=0204``): judged by
    :func:`refusals`, the code path of play and ``why``; the answer's ``lines`` (added by ``ask``)
    are the lines of its refusals; offered, the lines that allowed it (:func:`allowed_lines`)."""
    if question != "offer":
        return None
    from casebook.core.actions import parse_action
    from casebook.core.errors import QuestionError

    known = ", ".join(o.kind for o in offers_of(ctx)) or "none"
    text = " ".join(str(a) for a in args)
    kind = text.split(":", 1)[-1].split()[0].replace("_", "-") if text.split(":", 1)[-1].split() else ""
    offer = _offer(ctx, kind)
    if offer is None:
        raise QuestionError(f"usage: {QUESTIONS['offer']} (the game's declared actions: {known})")
    side = _side(ctx, offer)
    if side is None and ":" not in text:  # a scenario's start: no phasing side yet to take it from
        sides = ", ".join(ctx.state.sides) if hasattr(ctx.state, "sides") else "SIDE"
        raise QuestionError(f"whose {kind}? the position has no phasing side yet: give the side, "
                            f"e.g. 'offer \"{(sides.split(', ') or ['SIDE'])[0]}: {text}\"' (sides: {sides})")
    try:
        action = parse_action(text.replace(kind.replace("-", "_"), kind, 1), side=side)
    except ValueError as exc:
        raise QuestionError(str(exc)) from None
    refused = refusals(ctx, offer, action)
    held = [] if refused else allowed_lines(ctx, action)  # offered: the lines that allowed it, cited
    return {"action": str(action), "offered": not refused,
            "refusals": [{"reason": r.reason, "cases": list(r.cases)} for r in refused],
            "cases": list(dict.fromkeys(c for r in refused for c in r.cases))
            or list(dict.fromkeys([*offer.code.cases, *(c for ln in held for c in ln["cases"])]))}


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Action]:
    """The declared actions offered in ``step``, offer by offer in script order."""
    return [a for o in offers_of(ctx) if o.step == step for a in offered(ctx, o)]


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Refusal]:
    """The refusals of a declared action (none for other kinds)."""
    offer = _offer(ctx, action.kind)
    return [] if offer is None else refusals(ctx, offer, action)


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    """Carry out a declared action (None for other kinds)."""
    offer = _offer(ctx, action.kind)
    return None if offer is None else carry_out(ctx, offer, action)


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.declared_actions``: the plugin keeps no state (costs go to the tracks,
    effects to the markers); any record here is refused."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
