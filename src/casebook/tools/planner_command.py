"""Which stacks an activated HQ takes, for the planning bot (docs/planner.md, "HQ activations").

A game whose HQ activation names the stacks it activates lists one concrete action per HQ — the
default, e.g. every eligible stack up to the HQ's limit, nearest first — and offers a template whose
free ``stacks`` argument the player fills otherwise (docs/actions.md, "Parameterised actions"; Moscow
'41: ``activate-hq hq=ID stacks=<…>``, 0.7.3.1B, 8.3.1A). Taking the listed default, the bot let an
HQ spend its limit on the stacks nearest to it, whoever they were: session 17 (BALANCE.md) read the
October Blitz's German Turn 2 of seed 2 (Dry ground): XXXXVI Panzer Corps activated 11th Panzer and two
infantry stacks next to it (260th Infantry, 221st Security) while 5th, 10th and 19th Panzer and 3rd
Motorized stood within its radius — units only a panzer corps may activate (2.2C) — and moved one hex
each in the Unactivated Movement Step (9.8B).

:func:`chosen_stacks` fills the template instead with the own combat stacks the bot values most
(``priority``, the planner's activation value of a stack), as many as the listed action takes, each
checked by the game (``State.why_not``: the rules decide which stacks are eligible; the bot reads no
radius, limit or unit class). Heuristics for a bot, not rules; this module names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from casebook.core.actions import Action

__all__ = ["chosen_stacks", "CANDIDATE_RADIUS", "SPARE_TRIES"]

#: Own stacks farther than this many hexes from the activating HQ are not tried (a bound on the
#: game's checks, not a rule: the game's answer decides eligibility).
CANDIDATE_RADIUS = 6
#: At most this many stacks beyond the listed count are tried per HQ (each try is one check by the game).
SPARE_TRIES = 3


def chosen_stacks(state: Any, actions: Sequence[Action], view_of: Callable[[], Any],
                  priority: Callable[[Any, str], float]) -> list[Action]:
    """Extra options for the listed ``actions`` with a ``stacks`` argument (an HQ's activation) whose
    kind the game offers as a template with ``stacks`` free: the same action with, instead, the own
    combat stacks (``view.own``) within ``CANDIDATE_RADIUS`` of the HQ ranked by ``priority(view, hex)``
    (highest first; only those worth more than the least valued listed stack are tried, at most
    ``SPARE_TRIES`` more than the listed count), added one at a time while the game accepts the set
    (``state.why_not`` answers "legal"), up to as many stacks as the listed action takes, the rest
    filled from the listed ones. An HQ is tried only while the ``priority`` sum of its best candidates
    could beat the best set found so far (listed or chosen; HQs in that bound's order), so most
    decisions check few sets. An option equal (as a set) to the listed one is not returned; the listed
    actions stay (the caller judges them all alike). ``view_of()`` gives the planner's view, built only
    when some listed action has ``stacks``."""
    if not any(a.get("stacks") for a in actions):
        return []
    view = view_of()
    free = {t.kind for t in state.action_templates() if any(name == "stacks" for name, _ in t.free)}
    worth: dict[str, float] = {}

    def pr(h: str) -> float:
        if h not in worth:
            worth[h] = priority(view, h)
        return worth[h]

    jobs = []  # (bound, action, hq hex): an HQ whose best stacks could beat the best listed activation
    best = 0.0
    for action in actions:
        listed = tuple(action.get("stacks") or ())
        if action.kind not in free or not listed or not action.get("hq"):
            continue
        best = max(best, sum(pr(h) for h in listed))
        try:
            hq_hex = state.data.unit(str(action.get("hq"))).get("hex")
        except (KeyError, LookupError):
            continue
        near = sorted((pr(h) for h in view.own if hq_hex and view.distance(h, hq_hex) <= CANDIDATE_RADIUS), reverse=True)
        jobs.append((sum(near[:len(listed)]), action, hq_hex))
    out: list[Action] = []
    for bound, action, hq_hex in sorted(jobs, key=lambda j: (-j[0], str(j[1].get("hq")))):
        if bound <= best:
            break  # no set of its stacks can be worth more than one already found
        listed = tuple(action.get("stacks") or ())
        floor = min(pr(h) for h in listed)
        ranked = sorted((h for h in view.own if view.distance(h, hq_hex) <= CANDIDATE_RADIUS), key=lambda h: (-pr(h), h))
        picked: list[str] = []
        tries = len(listed) + SPARE_TRIES
        for h in ranked:
            if len(picked) == len(listed) or tries <= 0:
                break
            if h not in listed and pr(h) <= floor:
                continue
            tries -= 1
            trial = Action.make(action.kind, action.side, **{**dict(action.params), "stacks": tuple(picked + [h])})
            if state.why_not(trial)[1] == "legal":
                picked.append(h)
        picked += [h for h in listed if h not in picked][:len(listed) - len(picked)]
        chosen = Action.make(action.kind, action.side, **{**dict(action.params), "stacks": tuple(picked)})
        if set(picked) != set(listed) and state.why_not(chosen)[1] == "legal":
            out.append(chosen)
            best = max(best, sum(pr(h) for h in picked))
    return out
