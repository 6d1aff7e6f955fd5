"""A save edited by hand to make its units stronger is refused whole (a fresh user's check, session
19: ``sed -i 's/strength: 10/strength: 99/'`` on a save gave 29 units strength 99, ``play --load``
played on with them). Every save's unit names its ``counter:``; its ``strength`` and ``ma`` may fall
below the counter's in play (a step loss) but never rise above, and its ``side`` is the counter's:
each other value is a problem at its file:line:column and key, all of them at once, exit 1 (guide
rule 7: bad input, a clear error, nothing lost)."""

from __future__ import annotations

import pytest

from casebook.content.position import load_position
from casebook.core.errors import PositionError
from tests.test_position_fields import run


@pytest.fixture(scope="module")
def save_text(tmp_path_factory):
    from casebook.core.game import Game
    from casebook.tools.saves import write_save

    path = tmp_path_factory.mktemp("save") / "s.yaml"
    write_save(Game.load("moscow41", "october-blitz").new_initial_state(1), path)
    return path.read_text(encoding="utf-8")


def _line(text: str, unit: str) -> tuple[int, str]:
    return next((n, t) for n, t in enumerate(text.splitlines(), 1) if f"id: {unit}," in t)


def test_a_save_with_units_edited_to_strength_99_is_refused_whole_at_each_line(save_text, tmp_path):
    edited = tmp_path / "edited.yaml"
    edited.write_text(save_text.replace("strength: 10", "strength: 99"), encoding="utf-8")
    count = save_text.count("strength: 10")
    assert count == 29  # as the user's edit
    code, out = run("play", "--load", edited, "--quiet", "--out", tmp_path / "out")
    n, text = _line(save_text, "g-102id")
    col = text.index("strength: 10") + 1
    assert code == 1, out
    assert (f"{edited}:{n}:{col}: units.0.strength: unit 'g-102id': strength 99 is above 10, the value on its "
            "counter 'g-102id' (a unit's state never exceeds or changes its counter's: was the file edited?)") in out
    assert out.count("strength 99 is above 10") == count and f"{count} errors" in out
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())  # nothing played


def test_a_unit_on_the_other_side_or_faster_than_its_counter_is_refused_a_weaker_one_loads(save_text, tmp_path):
    n, text = _line(save_text, "g-102id")
    lines = save_text.splitlines()
    lines[n - 1] = text.replace("side: german", "side: soviet").replace("ma: 4", "ma: 9")
    edited = tmp_path / "edited.yaml"
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PositionError) as err:
        load_position(edited)
    said = sorted((p.key, p.message.split(" (")[0]) for p in err.value.problems)
    assert said == [("units.0.ma", "unit 'g-102id': ma 9 is above 4, the value on its counter 'g-102id'"),
                    ("units.0.side", "unit 'g-102id': side 'soviet' differs from 'german', the value on its counter "
                     "'g-102id'")]
    lines[n - 1] = text.replace("strength: 10", "strength: 7")  # a step loss: below the counter's is play
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert load_position(edited).units[0].strength == 7


@pytest.mark.parametrize("value", ["0", "-1"])
def test_a_unit_edited_to_no_strength_is_refused_naming_the_unit_and_the_key(save_text, tmp_path, value):
    """``strength: 0`` (a unit with nothing left is eliminated, under ``removed:``) or ``-1`` loaded (a
    fresh user's check, session 19): refused whole, once, naming the unit — not the schema's bare
    "greater than or equal to 0" as well."""
    n, text = _line(save_text, "g-102id")
    lines = save_text.splitlines()
    lines[n - 1] = text.replace("strength: 10", f"strength: {value}")
    edited = tmp_path / "edited.yaml"
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = run("play", "--load", edited, "--quiet", "--out", tmp_path / "out")
    assert code == 1, out
    assert out.splitlines()[:2] == [
        f"{edited}:{n}:{text.index('strength: 10') + 1}: units.0.strength: unit 'g-102id': strength {value} is below 1 "
        "(its counter 'g-102id' prints 10): a unit with no strength left is eliminated, listed under removed: "
        "(was the file edited?)", "1 error"]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())  # nothing played
