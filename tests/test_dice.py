"""Dice: PCG32 held in the state; seeded, replayable, every roll traced with purpose and cases."""

from __future__ import annotations

from fractions import Fraction

import pytest

from casebook.areas._combat_odds import distribution
from casebook.core.dice import Pcg32, roll
from casebook.core.state import GameState
from casebook.core.trace import Trace


def _state(seed: int = 1) -> GameState:
    return GameState.from_dict({"kind": "position", "format": 1, "game": "g", "rng": {"seed": seed, "state": None}})


def test_pcg32_matches_the_reference_output_for_seed_42() -> None:
    # pcg32-demo: pcg32_srandom_r(&rng, 42u, 54u) prints these six numbers first.
    g = Pcg32.seeded(42)
    assert [g.next32() for _ in range(6)] == [
        0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_same_seed_same_rolls_and_other_seed_other_rolls() -> None:
    def rolls(seed: int) -> list[int]:
        s, t = _state(seed), Trace()
        return [roll(s, 1, purpose="test", cases=[], trace=t) for _ in range(30)]

    assert rolls(7) == rolls(7)
    assert rolls(7) != rolls(8)
    assert set(rolls(7)) <= set(range(1, 7))


def test_roll_records_purpose_cases_and_faces() -> None:
    s, t = _state(3), Trace()
    total = roll(s, 2, purpose="combat", cases=["10.4.5C"], trace=t, source="plug.combat")
    (event,) = list(t)
    assert event.kind == "roll" and event.side == "chance" and event.cases == ("10.4.5C",)
    assert event.source == "plug.combat"
    assert event.data["purpose"] == "combat" and event.data["dice"] == 2
    assert len(event.data["faces"]) == 2 and sum(event.data["faces"]) == total == event.data["total"]
    assert 2 <= total <= 12


def test_loading_a_save_draws_nothing_and_continues_the_stream() -> None:
    s, t = _state(11), Trace()
    first = [roll(s, 1, purpose="a", cases=[], trace=t) for _ in range(5)]
    saved = s.to_dict()
    assert isinstance(saved["rng"]["state"], int)
    loaded = GameState.from_dict(saved)
    assert loaded.rng["state"] == s.rng["state"]          # loading drew no numbers
    rest_a = [roll(s, 1, purpose="a", cases=[], trace=t) for _ in range(5)]
    rest_b = [roll(loaded, 1, purpose="a", cases=[], trace=Trace()) for _ in range(5)]
    assert rest_a == rest_b
    fresh, ft = _state(11), Trace()
    assert [roll(fresh, 1, purpose="a", cases=[], trace=ft) for _ in range(10)] == first + rest_a


def test_rolls_are_roughly_uniform() -> None:
    s, t = _state(5), Trace()
    counts = [0] * 7
    for _ in range(6000):
        counts[roll(s, 1, purpose="u", cases=[], trace=t)] += 1
    assert all(850 < c < 1150 for c in counts[1:])


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="1 or 2"):
        roll(_state(), 3, purpose="x", cases=[], trace=Trace())
    with pytest.raises(ValueError, match="purpose"):
        roll(_state(), 1, purpose="", cases=[], trace=Trace())
    with pytest.raises(ValueError, match="seed"):
        Pcg32.seeded(-1)


def test_distribution_of_two_dice() -> None:
    d = distribution(2)
    assert d[2] == Fraction(1, 36) and d[7] == Fraction(1, 6) and sum(d.values()) == 1
    assert list(distribution(1)) == [1, 2, 3, 4, 5, 6]
