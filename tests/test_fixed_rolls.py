"""Fixed rolls (issue #18: the rules lawyer fixes the next dice): ``rng.fixed`` in a position and
``casebook play --rolls``, recorded in the trace and given back by ``replay``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from casebook.content.position import load_position
from casebook.core.dice import roll
from casebook.core.errors import PositionError
from casebook.core.game import Game
from casebook.core.state import GameState
from casebook.core.trace import Trace
from casebook.games.moscow41.plugins import paratroops
from games.moscow41.tests._fakes_vp import FAKE, fake_engine
from games.moscow41.tests.test_paratroops import drop, pos
from tests.conftest import make_ctx


def _state(fixed):
    return GameState.from_dict({"kind": "position", "format": 1, "game": "g",
                                "rng": {"seed": 3, "state": None, "fixed": fixed}})


def test_fixed_faces_come_first_one_per_die_and_leave_the_generator_alone():
    s, t = _state([4, 2, 6]), Trace()
    assert roll(s, 2, purpose="combat", cases=["10.0D"], trace=t) == 6      # 4 + 2
    assert roll(s, 1, purpose="weather", cases=[], trace=t) == 6
    assert "fixed" not in s.rng
    plain, t2 = _state([]), Trace()
    assert [roll(s, 1, purpose="x", cases=[], trace=t) for _ in range(5)] == \
        [roll(plain, 1, purpose="x", cases=[], trace=t2) for _ in range(5)]
    assert [e.data.get("fixed") for e in t][:3] == [2, 1, None]
    assert t[0].data["faces"] == [4, 2]


def test_a_fixed_face_short_of_the_dice_is_completed_by_the_generator():
    s, t = _state([5]), Trace()
    total = roll(s, 2, purpose="combat", cases=[], trace=t)
    assert t[0].data["faces"][0] == 5 and total == 5 + t[0].data["faces"][1] and t[0].data["fixed"] == 1


def test_a_face_outside_1_to_6_is_refused_with_its_place(m41):
    text = pos().replace("rng: {seed: 0, state: null}", "rng: {seed: 0, state: null, fixed: [4, 7]}")
    with pytest.raises(PositionError) as exc:
        load_position(text, pack=m41.pack)
    assert "fixed dice faces must be 1-6" in str(exc.value)
    with pytest.raises(ValueError):
        Game.load("moscow41", "october-blitz").new_initial_state(1, [0])


@pytest.mark.case("15.2")
def test_15_2_a_fixed_6_drops_on_target_a_fixed_5_scatters():
    FAKE.reset()
    for face, result in ((6, "on_target"), (5, "scattered")):
        text = pos(seed=1).replace("rng: {seed: 1, state: null}", f"rng: {{seed: 1, state: null, fixed: [{face}]}}")
        c = make_ctx(fake_engine(), text, trace=True)
        out = paratroops.casebook_apply_action(c, drop(hex_="0505"))
        assert (out["roll"], out["result"]) == (face, result)


def test_play_rolls_are_in_the_setup_event_and_replay_gives_them_back(tmp_path):
    from casebook.tools.cli import cli as main
    from casebook.tools.cmd_replay import replay_trace

    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["play", "battle_for_moscow", "--rolls", "6,6,1", "--quiet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    events = [json.loads(line) for line in (out / "trace.jsonl").read_text().splitlines()]
    assert events[0]["data"]["rolls"] == [6, 6, 1]
    first = [e for e in events if e["kind"] == "roll"][:2]
    assert first[0]["data"]["faces"][:1] == [6] and first[0]["data"]["fixed"] >= 1
    assert replay_trace(out / "trace.jsonl")[0] is True
    bad = CliRunner().invoke(main, ["play", "battle_for_moscow", "--rolls", "7", "--quiet", "--out", str(out)])
    assert bad.exit_code == 2 and "die faces are 1-6" in bad.output
