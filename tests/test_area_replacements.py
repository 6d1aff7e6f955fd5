"""The shared area ``replacements`` under names of its caller's choosing: the point kinds are the
track's declaration, the events and refusals carry the kinds, sources and cases the caller's
:class:`Replacements` gives, and the limit and verdicts are the game's lines (the Moscow '41
pack's scripts and Turn Track; the names below are made up)."""

from __future__ import annotations

from casebook.areas import replacements as rp
from casebook.core.actions import Action
from casebook.core.state import GameState
from casebook.core.trace import Trace

NAMES = rp.Replacements(
    track="rp", schedule="turn_track", assign="give-spade", rebuild="regrow", remnant_class="remnant",
    rebuild_kind="infantry", points="spades", track_title="Spade Pile",
    cases={"collected": ("X1",), "empty": ("X2",), "replaced": ("X3",), "from_remnant": ("X4",)},
    events={"collected": ("spades-in", "digging.collect"), "replaced": ("spade-given", "digging.give")})


def _ctx(m41, rp_track, units=()):
    state = GameState.from_dict({"game": "moscow41", "turn": 3, "phase": "first_initiative",
                                 "step": "replacement_reinforcement", "phasing": "german",
                                 "rp": rp_track, "units": list(units)})
    return m41.ctx(state, Trace())


def test_12_0C_the_kinds_are_the_tracks_declared_keys(m41):
    ctx = _ctx(m41, {})
    assert rp.kinds(ctx, NAMES) == ("infantry", "armor")
    assert rp.kinds(ctx, rp.Replacements(**{**NAMES.__dict__, "track": "ip"})) == ()  # keyed by side only


def test_12_2C_collect_adds_the_turns_row_up_to_the_limit_line_and_records_the_callers_event(m41):
    ctx = _ctx(m41, {"german": {"infantry": 10, "armor": 3}})
    assert rp.collect(ctx, NAMES, "german") == {"infantry": 10, "armor": 4}  # turn 3: +1 each, rp_limit 10
    event = next(e for e in ctx.trace if e.kind == "spades-in")
    assert (event.source, list(event.cases), event.data["limit"]) == ("digging.collect", ["X1"], 10)


def test_12_2C_the_collected_event_names_the_points_not_the_turn_tracks_provenance(m41):
    """Turn 13's German cell of the Turn Track carries its provenance (tables/turn_track.yaml); the
    event said ``new: {provenance: reconstructed: …, infantry: 1, armor: 0}`` (play --load of
    docs/examples/income-turn13.yaml)."""
    state = GameState.from_dict({"game": "moscow41", "turn": 13, "phase": "first_initiative",
                                 "step": "replacement_reinforcement", "phasing": "german",
                                 "rp": {"german": {"infantry": 0, "armor": 0}}, "units": []})
    ctx = m41.ctx(state, Trace())
    assert rp.collect(ctx, NAMES, "german") == {"infantry": 1, "armor": 0}
    assert next(e for e in ctx.trace if e.kind == "spades-in").data["new"] == {"infantry": 1, "armor": 0}


def test_12_2A_refusal_and_event_carry_the_callers_words_and_cases(m41):
    unit = {"id": "g-1", "side": "german", "class": "infantry", "hex": "0309", "losses": 1}
    ctx = _ctx(m41, {"german": {"infantry": 1, "armor": 0}}, [unit])
    refused = rp.assign_refusals(ctx, NAMES, Action.make("give-spade", "german", unit="g-1", rp="armor"))
    assert [(r.reason, tuple(r.cases)) for r in refused] == [("no armor spades left on the german Spade Pile",
                                                                ("X2",))]
    given = Action.make("give-spade", "german", unit="g-1", rp="infantry")
    # no HQ: not in command, so the game's own 12.2D line refuses it (and nothing is offered)
    assert [tuple(r.cases) for r in rp.assign_refusals(ctx, NAMES, given)] == [("12.2D",)]
    assert rp.assign_actions(ctx, NAMES, "german") == []
    out = rp.apply_assign(ctx, NAMES, given)
    assert out["cases"] == ["X3", "12.2G"]  # the caller's, then the replacement_removes_fatigue line's
    event = next(e for e in ctx.trace if e.kind == "spade-given")
    assert (event.source, list(event.cases)) == ("digging.give", ["X3"])
    assert ctx.state.track("rp", "german", "infantry") == 0 and not ctx.state.unit("g-1").get("losses")
