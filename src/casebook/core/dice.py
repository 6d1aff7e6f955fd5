"""Dice: the one seeded random number generator of a game, held in the state.

The generator is **PCG32** (M. E. O'Neill, "PCG: A Family of Simple Fast Space-Efficient
Statistically Good Algorithms for Random Number Generation", 2014; variant XSH-RR, 64-bit state,
32-bit output). It was chosen over :class:`random.Random` because its whole state is one integer
(``0 <= state < 2**64``), so a save stores ``rng: {seed: 1, state: 12345…}`` as plain data instead of
625 Mersenne-Twister words. The stream constant is fixed (:data:`STREAM` = 54, the reference demo's
``initseq``), so seed 42 reproduces the published reference output (tested).

Rules of use:

- ``rng.state`` is null in a fresh position: the first roll seeds the generator from ``rng.seed``
  (``pcg32_srandom_r``). Loading a state draws nothing; only :func:`roll` advances the generator.
- Same seed, same calls → same rolls (replayable traces).
- Every roll is recorded as a trace event ``kind: roll`` with ``side: chance``, the purpose, the
  cases it serves and the faces: ``data = {"purpose", "dice", "faces", "total"}``.
- A die is a fair d6 (faces 1..6) drawn without modulo bias (rejection, ``pcg32_boundedrand_r``).
- Fixed rolls (to pose a rules question or test a rule): ``rng.fixed: [4, 2, 6]`` in a position,
  or ``casebook play --rolls 4,2,6`` (recorded in the trace's setup event, so ``replay`` gives
  them again), are the faces of the next dice, one per die, in order; the generator is not
  advanced by them. The ``roll`` event then says ``"fixed": n`` (faces taken from the list).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from casebook.core.state import GameState
    from casebook.core.trace import Trace

__all__ = ["roll", "Pcg32", "STREAM", "SIDES"]

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005
#: The PCG stream selector (``initseq``); the increment is ``(STREAM << 1) | 1``.
STREAM = 54
_INC = ((STREAM << 1) | 1) & _MASK64
#: Faces of one die.
SIDES = 6


class Pcg32:
    """PCG32 XSH-RR on a 64-bit integer state (pure, tiny; see the module docstring)."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        if not isinstance(state, int) or isinstance(state, bool) or not 0 <= state <= _MASK64:
            raise ValueError(f"rng state must be an int in [0, 2**64), got {state!r}")
        self.state = state

    @classmethod
    def seeded(cls, seed: int) -> Pcg32:
        """``pcg32_srandom_r(seed, STREAM)``: a generator from a non-negative int seed."""
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"rng seed must be an int >= 0, got {seed!r}")
        g = cls(0)
        g.next32()
        g.state = (g.state + (seed & _MASK64)) & _MASK64
        g.next32()
        return g

    def next32(self) -> int:
        """The next 32-bit output."""
        old = self.state
        self.state = (old * _MULT + _INC) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, bound: int) -> int:
        """A uniform int in ``[0, bound)`` without modulo bias."""
        threshold = ((1 << 32) - bound) % bound
        while True:
            r = self.next32()
            if r >= threshold:
                return r % bound


def _generator(state: GameState) -> Pcg32:
    rng = state.rng
    if rng.get("state") is None:
        return Pcg32.seeded(rng.get("seed", 0))
    return Pcg32(rng["state"])


def roll(
    state: GameState,
    dice: int = 1,
    *,
    purpose: str,
    cases: Sequence[str],
    trace: Trace,
    source: str = "casebook.core.dice",
) -> int:
    """Roll ``dice`` (1 or 2) six-sided dice; return the total (1..6 or 2..12).

    ``purpose`` says what the roll is for (``"temperature"``, ``"combat"``); ``cases`` the case ids
    calling for it (e.g. ``["0.7.1.1"]``); ``source`` the plugin function or rule line that rolled.
    Advances ``state.rng`` and appends a ``roll`` event to ``trace`` (seq from the state).
    Raises ``ValueError`` for another number of dice or an empty purpose.
    """
    if dice not in (1, 2):
        raise ValueError(f"dice must be 1 or 2, got {dice!r}")
    if not purpose:
        raise ValueError("a roll needs a purpose")
    fixed = list(state.rng.get("fixed") or ())
    faces = fixed[:dice]
    if fixed:
        state.set_rng_fixed(fixed[dice:])
    if len(faces) < dice:
        g = _generator(state)
        faces += [g.below(SIDES) + 1 for _ in range(dice - len(faces))]
        state.set_rng_state(g.state)
    total = sum(faces)
    data = {"purpose": purpose, "dice": dice, "faces": faces, "total": total}
    if fixed:
        data["fixed"] = min(dice, len(fixed))  # how many faces came from rng.fixed
    trace.record(state, "roll", cases=list(cases), source=source, side="chance", data=data)
    return total
