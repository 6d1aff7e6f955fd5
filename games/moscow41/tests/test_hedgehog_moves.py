"""A unit in hedgehog formation cannot move until the marker is removed (14.4C) — neither by an
advance after combat (11.4A) nor by being broken down into regiments and rebuilt elsewhere (13.0D-E).

The golden trace games/moscow41/golden/campaign-random-seed3 showed both before the fix: g-197id,
in hedgehog in 1610 (turn 3), attacked 1611 at half strength (14.4D), advanced into it after a
-/FR (turn 5), was broken down and rebuilt elsewhere, and removed its marker in 3711 (turn 8);
g-6id, in hedgehog in 3510 (turn 1), was broken down there and its division rebuilt from other
regiments, still flagged, and removed a marker in 3209 (turn 2).
"""

from __future__ import annotations

import pytest

from casebook.content.position import load_position, position_to_dict
from casebook.core.actions import Action, parse_action
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.games.moscow41.plugins import results
from games.moscow41.tests.test_decisions_results import engine, interactive, pos, refused  # noqa: F401
from games.moscow41.tests.test_results import g, s
from tests.conftest import m41_position


def _advances(ctx):
    return [a for a in results.casebook_legal_actions(ctx, "first_player", "combat") if a.kind == "advance"]


def _after_retreat(pos, **hedgehog):  # noqa: F811
    """g1 (0303) and g2 (0403) attack s1 (0304), an R result: s1 retreats, the hex is cleared."""
    extra = "markers:\n  - {kind: hedgehog, hex: '0303'}\n" if hedgehog.pop("marker", False) else ""
    ctx = pos(g("g1", "0303", **hedgehog) + g("g2", "0403") + s("s1", "0304"), ip="{german: 0, soviet: 0}")
    if extra:
        ctx.state.add_marker("hedgehog", "0303")
    interactive(ctx, "-/R", ("g1", "g2"))
    retreat = results.casebook_legal_actions(ctx, "first_player", "combat")[0]
    ctx.hook.casebook_apply_action(ctx=ctx, action=retreat)
    return ctx


@pytest.mark.case("14.4C", "11.4A")
@pytest.mark.parametrize("how", [{"hedgehog": True}, {"marker": True}], ids=["flag", "marker"])
def test_14_4C_a_hedgehog_unit_does_not_advance_after_combat(pos, how):  # noqa: F811
    """14.4C: "A unit in hedgehog formation cannot move until the marker is removed"; an advance
    after combat is movement. g1 in hedgehog (its flag, or the Hedgehog marker in its hex) is
    offered no advance and a typed one naming it is refused citing 14.4C (the line of
    fortification.rules); g2 beside it, not in hedgehog, advances (11.4A)."""
    ctx = _after_retreat(pos, **how)
    listed = _advances(ctx)
    assert Action.make("advance", "german", path=["0304"], **{"with": ["g2"]}) in listed
    assert not [a for a in listed if "g1" in (a.get("with") or ())]
    assert refused(ctx, "german: advance path=0304 with=g1") == ["14.4C"]
    assert refused(ctx, "german: advance path=0304 with=g1,g2") == ["14.4C"]
    assert refused(ctx, "german: advance path=0304 with=g2") == []
    ctx.hook.casebook_apply_action(ctx=ctx, action=parse_action("german: advance path=0304 with=g2"))
    assert (ctx.state.unit("g1")["hex"], ctx.state.unit("g2")["hex"]) == ("0303", "0304")


@pytest.mark.case("11.4A")
def test_11_4A_control_a_unit_out_of_hedgehog_advances(pos):  # noqa: F811
    ctx = _after_retreat(pos)
    assert Action.make("advance", "german", path=["0304"], **{"with": ["g1", "g2"]}) in _advances(ctx)
    assert refused(ctx, "german: advance path=0304 with=g1") == []


@pytest.fixture
def hedgehog_division(m41):
    """g-6id in hedgehog formation in 0303 since an earlier activation (flag and marker),
    activated again, in the Movement Step."""
    game = Game(m41, next(iter(m41.pack.scenarios)))
    text = m41_position("movement", hedgehog=True, first_player="german") + "markers:\n  - {kind: hedgehog, hex: '0303'}\n"
    st = game.state_from_dict(position_to_dict(load_position(text, pack=m41.pack)))
    assert st.data.unit("g-6id").get("hedgehog") is True
    return st


@pytest.mark.case("14.4C", "13.0D")
def test_14_4C_regiments_of_a_hedgehog_division_stay_in_hedgehog(hedgehog_division):
    """13.0D: the division is replaced "by three regiments in the same hex" — under its Hedgehog
    marker, so they are in hedgehog formation (14.4C) and cannot move: a typed move is refused
    citing 14.4C, the state unchanged. The division off the map keeps no hedgehog flag."""
    st = hedgehog_division
    st.apply("german: breakdown unit=g-6id")
    regiments = [u["id"] for u in st.data.units_at("0303")]
    assert len(regiments) == 3 and all(st.data.unit(r).get("hedgehog") is True for r in regiments)
    assert "hedgehog" not in st.to_dict()["plugin_state"]["area_breakdown"]["divisions"]["g-6id"]
    move = f"german: move units={regiments[0]} path=0304"
    assert "14.4C" in st.why_not(move)[0]
    before = st.to_dict()
    with pytest.raises(IllegalActionError) as err:
        st.apply(move)
    assert "14.4C" in err.value.cases and st.to_dict() == before


@pytest.mark.case("14.4C", "13.0E", "13.0F")
def test_14_4C_a_rebuilt_division_is_in_hedgehog_only_where_its_regiments_were(m41):
    """The golden trace's g-6id: broken down in its hedgehog, the division rebuilt from other
    regiments elsewhere (13.0F: any regiments serve any division) came back still flagged. Now
    the formation stays with the hex: g-6id (in hedgehog, 0303) and g-26id (not, 0505) break
    down; g-6id rebuilt from 0505's regiments is not in hedgehog, g-26id rebuilt from 0303's is."""
    from casebook.areas import breakdown as B
    from games.moscow41.tests.test_breakdown import pos as board

    ctx = board(m41, "  - {counter: g-6id, hex: '0303', activated: true, hedgehog: true}\n"
                     "  - {counter: g-26id, hex: '0505', activated: true}")
    ctx.state.add_marker("hedgehog", "0303")
    for div in ("g-6id", "g-26id"):
        B.casebook_apply_action(ctx, Action.make("breakdown", "german", unit=div))
    here, there = ([u["id"] for u in ctx.state.units_at(h)] for h in ("0303", "0505"))
    assert [ctx.state.unit(u).get("hedgehog") for u in here + there] == [True] * 3 + [None] * 3
    B.casebook_apply_action(ctx, Action.make("recombine", "german", units=there, into="g-6id"))
    B.casebook_apply_action(ctx, Action.make("recombine", "german", units=here, into="g-26id"))
    assert (ctx.state.unit("g-6id")["hex"], ctx.state.unit("g-6id").get("hedgehog")) == ("0505", None)
    assert (ctx.state.unit("g-26id")["hex"], ctx.state.unit("g-26id").get("hedgehog")) == ("0303", True)


def _defended(pos, result):  # noqa: F811
    """s1 (0303) attacks g1 in hedgehog formation (flag and marker) in 0304: ``result`` applied,
    the German owner deciding."""
    ctx = pos(g("g1", "0304", hedgehog=True) + s("s1", "0303"), ip="{german: 0, soviet: 0}")
    ctx.state.add_marker("hedgehog", "0304")
    interactive(ctx, result, ("s1",))
    return ctx


def _retreats(ctx):
    return [a for a in results.casebook_legal_actions(ctx, "first_player", "combat") if a.kind == "retreat"]


@pytest.mark.case("14.4C", "11.2A")
def test_14_4C_a_hedgehog_that_takes_a_retreat_leaves_hedgehog_formation(pos):  # noqa: F811
    """14.4C: the hedgehog "can ignore all R results" but "cannot move until the marker is
    removed". On a 2 (11.2A: the owner may retreat instead of losing steps) g1 takes a one-hex
    retreat: it is no longer in hedgehog formation (flag cleared, marker off 0304), the retreat
    citing 14.4C (the `retreat_keeps_hold` line of fortification.rules) — not, as the golden trace
    campaign-random-seed3 had g-110id (2812 -> 2712, turn 3), a pinned unit in another hex with
    the marker left behind. Control: g1 taking both steps as losses stays in hedgehog."""
    ctx = _defended(pos, "-/2")
    moved = next(a for a in _retreats(ctx) if a.get("path") and len(a.get("path")) == 1)
    ctx.hook.casebook_apply_action(ctx=ctx, action=moved)
    assert ctx.state.unit("g1")["hex"] == moved.get("path")[0] != "0304" and not ctx.state.unit("g1").get("hedgehog")
    assert not [m for m in ctx.state.markers if m.get("kind") == "hedgehog"]
    (retreat,) = [e for e in ctx.state.plugin_data("results")["effects"] if e.get("effect") == "retreat"]
    assert retreat["cases"] == ["11.2A", "11.2B", "14.4C"]  # the effect the combat-results event names
    held = _defended(pos, "-/2")
    stay = next(a for a in _retreats(held) if not a.get("path"))
    held.hook.casebook_apply_action(ctx=held, action=stay)
    assert (held.state.unit("g1")["hex"], held.state.unit("g1").get("hedgehog")) == ("0304", True)
    assert [m["hex"] for m in held.state.markers if m.get("kind") == "hedgehog"] == ["0304"]


@pytest.mark.case("14.4A", "14.4C", "14.4D")
def test_14_4C_a_unit_that_joins_a_hedgehog_fights_under_its_marker_and_may_move_on(pos):  # noqa: F811
    """Interpretation hedgehog-joined (the text is silent on a unit joining a marked stack): g2,
    moved into 0303 under g1's Hedgehog marker, did not enter the formation (14.4A: it moved), so
    14.4C does not pin it — a move out is not refused — but under the marker it fights as the
    hedgehog stack: its facts ``hedgehog`` and ``hedgehog_ignores_retreat`` hold (14.4C-D)."""
    from casebook.games.moscow41.plugins import fortification

    ctx = pos(g("g1", "0303", hedgehog=True) + g("g2", "0303", activated=True) + s("s1", "0305"))
    ctx.state.add_marker("hedgehog", "0303")
    reading = ctx.pack.interpretations["hedgehog-joined"]
    assert {"14.4A", "14.4C"} <= set(reading["cases"]) and "may move on" in reading["reading"]
    joined, formed = fortification.unit_facts(ctx, "g2"), fortification.unit_facts(ctx, "g1")
    assert joined["hedgehog"]["value"] is formed["hedgehog"]["value"] is True
    assert joined["hedgehog_ignores_retreat"]["value"] is True and joined["hedgehog"]["cases"] == ["14.4C"]
    out = Action.make("move", "german", stack="0303", path=("0304",), units=("g2",))
    assert not [r for r in fortification.casebook_validate_action(ctx, out) if "14.4C" in r.cases]
    pinned = Action.make("move", "german", stack="0303", path=("0304",), units=("g1",))
    assert [r for r in fortification.casebook_validate_action(ctx, pinned) if "14.4C" in r.cases]
