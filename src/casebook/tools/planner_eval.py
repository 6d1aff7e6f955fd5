"""The planning bot's evaluation: a plain-data view of a position and the value of a movement plan.

A :class:`View` is read once per decision from the public state (units by hex, control, the
scenario's :class:`~casebook.tools.planner_goals.Goals`). :func:`plan_value` rates a *whole plan*
— one destination hex per stack that may move now — without applying anything, so the search can
try hundreds of plans per decision. Its terms (all heuristics, weights in ``W``):

- **objectives**: an own combat stack on a hold or own-strike hex: its weight when taking it, a
  share of it when garrisoning it, growing with the enemy's threat to the hex;
- **hold**: a main objective held (victory hexes) is worth more with a garrison as strong as half
  the enemy strength within three hexes, and with own stacks around it (a ring);
- **guard** (:func:`casebook.tools.planner_guard.guard_value`): an own combat stack on (or next
  to) a hex whose entry wins at once for the enemy,
  by the threat to it (how close the nearest enemy combat unit is) and as strong as the enemy
  strength within ``GUARD_RADIUS`` (10) hexes asks; attacks on enemy stacks that near count triple;
  each own strength point in it or next to it is worth ``GUARD_HOLD`` up to what it needs against
  the enemy strength within reach (:func:`casebook.tools.bots_guard.need`);
- **attack set-up**: own strength gathered next to an enemy hex against its strength, paid from
  about 1.5 to 1 up (concentration), more on objectives and on the weak points of the enemy line
  (:attr:`View.breach`: the hexes an attack there would open, free of any other enemy stack's
  reach), so attacks gather where a gap can be torn;
- **advance**: closeness to the most valuable objective the side does not hold, linear in hexes;
  an objective farther than the side can march in the turns left (:attr:`View.horizon`) is worth
  a quarter, so the bot drives for what it can reach, not for what it cannot;
- **exposure**: a stack ending next to three times its strength, an HQ next to any enemy;
  **overstacking**: a stack staying overstacked or moving where it would be (the game's stacking
  answer, read per decision: an overstack at the end of a step costs fatigue and losses);
  **cohesion**: an HQ far from its combat units; **crowding**: stacks piled into one hex.
  (An HQ drawn along towards the objectives, ``hq_advance`` 0.2, was tried in session 8 and
  taken out: with it the HQs of the rear left Smolensk's garrison out of reach, 18.1.3D.)

Distances are in hexes; strengths are the counters' printed strength less half a point per step
lost (as :func:`casebook.tools.bots.score`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casebook.core.hexgrid import parse_hex, to_cube
from casebook.tools.bots_guard import GUARD_CORE, facing, need, pressure, short_guards
from casebook.tools.planner_aims import CountAim, aims_for, count_value, pulls, taken_by_count
from casebook.tools.planner_goals import HOLD_WEIGHT, Goals, non_combat
from casebook.tools.planner_guard import GUARD_APPROACH, GUARD_FILL, GUARD_HOLD, GUARD_RADIUS, guard_value, key_hq
from casebook.tools.planner_plan import Plan, plan_for, plan_pull

__all__ = ["View", "Mover", "W", "build_view", "plan_value", "strength", "THREAT_RADIUS", "BREACH", "FAR", "GUARD_RADIUS",
           "GRAB", "GRAB_RADIUS", "grab", "grabbers", "opened", "pocketed", "GUARD_FILL",
           "GUARD_APPROACH", "GUARD_HOLD"]

#: Hexes within which an enemy combat unit threatens an objective (threat 1 when adjacent).
THREAT_RADIUS = 12
#: Term weights of :func:`plan_value`.
W: dict[str, float] = {"take": 1.0, "garrison": 0.35, "guard": 1.0, "screen": 0.3, "attack": 1.2,
                       "advance": 0.4, "exposure": 1.5, "hq_exposure": 6.0, "cohesion": 0.4, "crowd": 0.5,
                       "overstack": 4.0, "ring": 0.6}
#: What each hex an attack would open (View.breach, at most 3) adds to the attack set-up term.
BREACH = 0.25
#: The share of its weight an objective keeps beyond the horizon (out of reach in the turns left).
FAR = 0.25
#: What a stack within GRAB_RADIUS hexes of a main objective its side does not hold adds to the
#: activation that wakes it, tapering with distance (session 9: a panzer stack stood 3 hexes from an
#: empty, unheld objective for two turns, never activated, while the guard calls took every IP).
GRAB = 40.0
GRAB_RADIUS = 6


def _cube_of(grid: Any, label: str) -> tuple[int, int]:
    c = to_cube(parse_hex(label), grid.layout)
    return c.q, c.r


def _far(dq: int, dr: int) -> int:
    """Hexes between two cube positions ``dq``, ``dr`` apart (as :meth:`View.distance`)."""
    return abs(dq + dr) if (dq >= 0) == (dr >= 0) else max(abs(dq), abs(dr))


def strength(unit: Mapping[str, Any]) -> float:
    """A unit's combat strength for the bot: printed strength less 0.5 per step lost (>= 0)."""
    return max(0.0, float(unit.get("strength") or 0) - 0.5 * int(unit.get("losses") or 0))


@dataclass(frozen=True)
class Mover:
    """A stack that may move now: its hex, combat strength, whether it is only HQs, and the
    destinations the search may give it (its own hex first: staying)."""

    origin: str
    strength: float
    hq_only: bool
    dests: tuple[str, ...]
    #: the stack is overstacked where it stands (the game's stacking answer): staying costs
    overstacked: bool = False
    #: destinations where it would be overstacked with the own units already there
    crowded: frozenset[str] = frozenset()
    #: it carries an HQ that alone may activate some stacks (planner_guard.key_hq): guards at a cost
    key_hq: bool = False


@dataclass
class View:
    """One side's plain-data view of a position (see the module docstring)."""

    side: str
    goals: Goals
    board: Any
    own: dict[str, float]                 # own combat strength per hex
    enemy: dict[str, float]               # enemy combat strength per hex
    control: dict[str, str | None]        # objective hex -> side controlling it
    threat: dict[str, float] = field(default_factory=dict)   # objective/guard hex -> 0..1
    targets: dict[str, float] = field(default_factory=dict)  # objectives not held -> weight
    menace: dict[str, float] = field(default_factory=dict)   # guard hex -> enemy strength within GUARD_RADIUS
    hold_menace: dict[str, float] = field(default_factory=dict)  # main objective held -> the same
    breach: dict[str, int] = field(default_factory=dict)  # enemy hex -> hexes next to it no other enemy touches
    horizon: int | None = None  # hexes the side can hope to advance in the turns left (None: no limit known)
    _cube: dict[str, tuple[int, int]] = field(default_factory=dict)
    _own_near: dict[str, int] = field(default_factory=dict)
    _near: dict[str, float] = field(default_factory=dict)
    _near_front: dict[str, int | None] = field(default_factory=dict)
    _next: dict[str, float] = field(default_factory=dict)
    #: ``goals.guard(side)``, read once (plan_value reads it per plan)
    guards: frozenset[str] = frozenset()
    _around: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: per-decision values the bot derives from the view (e.g. the rear's shortfall)
    memo: dict[str, float] = field(default_factory=dict)
    #: guard hex with no own combat unit on it -> the enemy's pressure on it (0..1, > 0 only)
    open_guard: dict[str, float] = field(default_factory=dict)
    #: open guard hex -> hexes from it to the nearest own combat stack of the position
    guard_near: dict[str, int] = field(default_factory=dict)
    #: guard hex -> the own strength it needs in it and next to it (> 0 only: an enemy within reach)
    guard_need: dict[str, float] = field(default_factory=dict)
    #: guard hex -> the own strength it needs in itself, ring open or closed (bots_guard.core_need; > 0 only)
    guard_core: dict[str, float] = field(default_factory=dict)
    #: own hexes whose stack carries a key HQ (planner_guard.key_hq): relieved in the guard (session 19)
    keyed: set[str] = field(default_factory=set)
    #: guard hex -> what it lacks of either (bots_guard.short_guards: 0 once no attacker can stand next to it)
    guard_short: dict[str, float] = field(default_factory=dict)
    #: objective -> its weight this decision (planner_aims: count sets, strike hexes in reach)
    aims: dict[str, float] = field(default_factory=dict)
    stake: dict[str, float] = field(default_factory=dict)  # hex -> hold weight its defenders' losses read
    counts: list[CountAim] = field(default_factory=list)
    plan: Plan | None = None  # the scenario's bot_plan this decision (planner_plan; None: no block)

    def neighbours(self, label: str) -> tuple[str, ...]:
        return self.board.label_neighbours(label)

    def distance(self, a: str, b: str) -> int:
        """Hexes between labels ``a`` and ``b`` (the grid's distance, from cube coordinates kept
        per label: the evaluation's hot path)."""
        cube = self._cube
        aq, ar = cube[a] if a in cube else self.cube(a)
        bq, br = cube[b] if b in cube else self.cube(b)
        dq, dr = aq - bq, ar - br
        return abs(dq + dr) if (dq >= 0) == (dr >= 0) else max(abs(dq), abs(dr))

    def cube(self, label: str) -> tuple[int, int]:
        """``label``'s cube coordinates (q, r), kept per label."""
        found = self._cube.get(label)
        if found is None:
            found = self._cube[label] = _cube_of(self.board.grid, label)
        return found

    def nearest_own(self, label: str) -> int:
        """Hexes from ``label`` to the nearest own combat stack of the position (before the plan
        moves anything; cached per label): an HQ's cohesion."""
        d = self._own_near.get(label)
        if d is None:
            d = self._own_near[label] = min((self.distance(label, h) for h in self.own), default=0)
        return d

    def enemy_next_to(self, label: str) -> float:
        """The enemy strength next to ``label`` (kept per label: the view does not change)."""
        found = self._next.get(label)
        if found is None:
            found = self._next[label] = sum(self.enemy.get(n, 0.0) for n in self.neighbours(label))
        return found

    def enemy_around(self, label: str) -> tuple[str, ...]:
        """The enemy-held hexes next to ``label``, in neighbour order (kept per label)."""
        found = self._around.get(label)
        if found is None:
            found = self._around[label] = tuple(n for n in self.neighbours(label) if n in self.enemy)
        return found

    def advance_pull(self, label: str) -> float:
        """max over objectives not held of (weight / HOLD_WEIGHT) * (reach - distance), 0 beyond
        ``reach`` (the map's larger dimension): every hex closer counts alike (cached)."""
        v = self._near.get(label)
        if v is None:
            reach = max(self.board.grid.columns, self.board.grid.rows)
            h, (q, r), cube = self.horizon, self.cube(label), self.cube
            values = []
            for t, w in self.targets.items():  # within() and distance() inlined (a hot path)
                tq, tr = cube(t)
                dq, dr = q - tq, r - tr
                d = abs(dq + dr) if (dq >= 0) == (dr >= 0) else max(abs(dq), abs(dr))
                values.append((1.0 if h is None or d <= h else FAR) * w / HOLD_WEIGHT * max(0, reach - d))
            v = self._near[label] = max(values, default=0.0)
        return v

    def objective_distance(self, label: str) -> int:
        """Hexes from ``label`` to the nearest main objective not held (weight >= HOLD_WEIGHT)
        within the horizon of it (99 if none)."""
        return min((self.distance(label, t) for t, w in self.targets.items()
                    if w >= HOLD_WEIGHT and self.within(label, t) == 1.0), default=99)

    def front(self) -> int | None:
        """The smallest :meth:`objective_distance` of an own combat stack (cached; None when no
        main objective is in reach)."""
        if "front" not in self._near_front:
            d = min((self.objective_distance(h) for h in self.own), default=99)
            self._near_front["front"] = None if d >= 99 else d
        return self._near_front["front"]

    def within(self, label: str, target: str) -> float:
        """1 when ``target`` lies within :attr:`horizon` hexes of ``label`` (or no horizon is
        known), else :data:`FAR`: an objective out of reach in the turns left pulls less."""
        h = self.horizon
        return 1.0 if h is None or self.distance(label, target) <= h else FAR


def opened(enemy: Mapping[str, float], neighbours: Any, e: str) -> int:
    """How many hexes next to enemy hex ``e`` are neither enemy-held nor next to another enemy
    stack: the gap clearing ``e`` would tear in the enemy's line (its zones of control gone)."""
    count = 0
    for n in neighbours(e):
        if n in enemy:
            continue
        if not any(m in enemy and m != e for m in neighbours(n)):
            count += 1
    return count


def pocketed(own: Mapping[str, float], enemy: Mapping[str, float], neighbours: Any, e: str) -> bool:
    """Whether the enemy stack in ``e`` has no hex to retreat into: every neighbour is held by
    ``own`` or next to an own stack and not held by the enemy (a retreat may not enter an enemy
    zone of control unless a friendly unit is there, as in Moscow '41 11.2B)."""
    for n in neighbours(e):
        if n in own:
            continue
        if n in enemy or not any(m in own for m in neighbours(n)):
            return False
    return True


def build_view(state: Any, side: str, goals: Goals) -> View:
    """The :class:`View` of ``state`` for ``side``: strengths by hex, control and threat of every
    objective, the objectives ``side`` does not hold, the gaps each enemy hex would open and the
    horizon: the largest printed movement allowance (``ma``) of the side's combat units times the
    turns left in the scenario (its ``last_turn``; a hex a turn per MP, at best)."""
    data = state.data
    board = state.game.engine.board_for(data)
    own: dict[str, float] = {}
    enemy: dict[str, float] = {}
    pace = 0
    skip = non_combat(data.scenario)  # HQs, and the classes the victory block names no combat unit (a
    for u in data.units:              # remnant, 11.3D-like: no garrison, it closes no ring; session 14)
        where = u.get("hex")
        if not where or u.get("class") in skip:
            continue
        if u.get("side") == side:
            try:
                pace = max(pace, int(u.get("ma") or 0))
            except (TypeError, ValueError):
                pass
        book = own if u.get("side") == side else enemy
        book[where] = book.get(where, 0.0) + max(strength(u), 0.5)
    marks = set(goals.hold) | set(goals.guard(side)) | set(goals.strike.get(side, ()))
    control = {h: data.control(h) for h in marks}
    view = View(side, goals, board, own, enemy, control)
    view._cube = board.__dict__.setdefault("_planner_cubes", {})  # a label's cube: the board's alone
    view.guards = goals.guard(side)
    last = getattr(state.game, "last_turn", None)
    left = None if last is None or data.turn is None else max(1, int(last) - int(data.turn) + 1)
    if pace and left is not None:
        view.horizon = max(1, pace) * left
    view.aims, view.stake, view.counts = aims_for(view, goals, pace, left)
    view.plan = plan_for(state, view, goals.plan, skip, strength) if goals.plan else None
    view.breach = {e: opened(enemy, board.label_neighbours, e) for e in enemy}
    cubes = [(view.cube(e), s) for e, s in enemy.items()]  # the distances inlined: the view's hot loops
    kept = board.__dict__.setdefault("_planner_nearest", {})  # hex -> hexes to the nearest enemy hex, kept
    if len(kept) > 32:  # per board and enemy hexes: the same while the enemy stands still (a step's moves)
        kept.clear()
    nearest: dict[str, int] = kept.setdefault(frozenset(enemy), {})
    for h in marks:
        d = nearest.get(h)
        if d is None:
            q, r = view.cube(h)
            d = nearest[h] = min((_far(q - c[0], r - c[1]) for c, _ in cubes), default=99)
        view.threat[h] = max(0.0, 1.0 - (d - 1) / THREAT_RADIUS)
    view.targets = {h: w for h, w in pulls(view.aims, view.counts).items() if control.get(h) != side}
    view.guard_short = short_guards(state, side) if goals.guard(side) else {}
    view.keyed = {u["hex"] for u in data.units if u.get("hex") and u.get("side") == side and key_hq((u,))}
    for g in goals.guard(side):
        q, r = view.cube(g)
        view.menace[g] = sum(s for c, s in cubes if _far(q - c[0], r - c[1]) <= GUARD_RADIUS)
        if (want := need(state, side, g)) > 0:
            view.guard_need[g] = want
        if (core := GUARD_CORE * facing(state, side, g)) > 0:  # bots_guard.core_need, whether or not
            view.guard_core[g] = core  # its ring is closed now: a plan may open it
        if g not in own and (p := pressure(state, side, g)) > 0:
            view.open_guard[g] = p
            view.guard_near[g] = min((view.distance(g, h) for h in own), default=99)
    for h, w in view.aims.items():  # the main objectives held: what threatens them
        if w >= HOLD_WEIGHT and control.get(h) == side:
            view.hold_menace[h] = sum(s for e, s in enemy.items() if view.distance(h, e) <= 3)
    return view


def grab(view: View, label: str) -> float:
    """:data:`GRAB` times the weight (per HOLD_WEIGHT) of the best main objective not held within
    :data:`GRAB_RADIUS` hexes of the own stack in ``label``, tapering to nothing past the radius:
    the stacks that can take an objective this turn or next are woken whatever else calls."""
    if label not in view.own:
        return 0.0
    key = "grab:" + label
    v = view.memo.get(key)
    if v is None:
        best = 0.0
        for t, w in view.targets.items():
            d = view.distance(label, t)
            if w >= HOLD_WEIGHT and d <= GRAB_RADIUS:
                best = max(best, min(1.0, w / HOLD_WEIGHT) * (1.0 - (max(d, 1) - 1) / GRAB_RADIUS))
        v = view.memo[key] = GRAB * best
    return v


def grabbers(state: Any, view: View) -> int:
    """Own stacks with a :func:`grab` value and no unit activated yet: IPs to keep for waking them."""
    active = {u.get("hex") for u in state.data.units if u.get("side") == view.side and u.get("activated")}
    return sum(1 for h in view.own if h not in active and grab(view, h) > 0)


def _near_guard(view: View, label: str) -> bool:
    return any(view.distance(label, g) <= 3 for g in view.menace)


def plan_value(view: View, movers: Sequence[Mover], dests: Sequence[str]) -> float:
    """The value of moving ``movers[i]`` to ``dests[i]`` (every other stack staying), for
    ``view.side`` (higher is better; only differences between plans mean anything)."""
    own = dict(view.own)
    for m, d in zip(movers, dests):
        if m.strength and d != m.origin:
            own[m.origin] = own.get(m.origin, 0.0) - m.strength
            if own[m.origin] <= 1e-9:
                del own[m.origin]
            own[d] = own.get(d, 0.0) + m.strength
    side, total = view.side, 0.0
    counted = taken_by_count(view.counts, view.control, side) if view.counts else frozenset()
    if counted:  # the chosen objectives of a count condition, as a set (planner_aims)
        total += W["take"] * count_value(view.counts, view.control, side, own)
    for h, w in view.aims.items():
        if h in own:
            taking = view.control.get(h) != side
            if taking:
                total += 0.0 if h in counted else w * W["take"]
            else:  # a garrison, worth more as strong as half the enemy strength within three hexes
                need = view.hold_menace.get(h)
                depth = 1.0 if need is None else 1.0 + 2.0 * min(1.0, own[h] / max(1.0, 0.5 * need))
                total += w * W["garrison"] * (0.3 + view.threat.get(h, 0.0)) * depth
    for h, menace in view.hold_menace.items():  # a ring of own stacks around a main objective held
        t = view.threat.get(h, 0.0)
        if t > 0 and menace > 0:
            ring = sum(own.get(n, 0.0) for n in view.neighbours(h))
            total += view.aims.get(h, HOLD_WEIGHT) * W["ring"] * t * min(1.0, ring / max(3.0, menace))
    total += guard_value(view, movers, dests, own, (W["guard"], W["screen"])) + plan_pull(view, movers, dests)
    attackers: dict[str, float] = {}
    seen: dict[str, int] = {}
    w_advance, w_exposure, next_to, pull, around = (W["advance"], W["exposure"], view.enemy_next_to,  # once
                                                    view.advance_pull, view.enemy_around)  # per plan
    for m, d in zip(movers, dests):
        seen[d] = seen.get(d, 0) + 1
        if (m.overstacked and d == m.origin) or d in m.crowded:
            total -= W["overstack"]
        if m.hq_only:
            near = view.nearest_own(d)
            total -= W["cohesion"] * max(0, near - 2)
            if next_to(d) > 0:
                total -= W["hq_exposure"]
            continue
        norm = m.strength / 5.0
        total += w_advance * norm * pull(d)
        for n in around(d):
            attackers[n] = attackers.get(n, 0.0) + m.strength
        against = next_to(d)
        here = own.get(d, m.strength)
        if against >= 3.0 * max(here, 0.5):
            total -= w_exposure * norm * min(3.0, against / max(here, 0.5) - 2.0)
    for e, s in attackers.items():
        ratio = s / max(view.enemy[e], 0.5)
        if ratio >= 1.5:
            bonus = (1.0 + view.stake.get(e, 0.0) / HOLD_WEIGHT + 2.0 * _near_guard(view, e)
                     + BREACH * min(3, view.breach.get(e, 0)))
            total += W["attack"] * min(ratio - 1.5, 2.5) * bonus * min(view.enemy[e], 10.0) / 5.0
    total -= W["crowd"] * sum(n - 1 for n in seen.values() if n > 1)
    return total
