"""Every action string applies or is refused with a reason and the cases, never an exception
(issue #19, "illegal actions that crash the play"): random and mutated action strings at random
states of both games refuse cleanly and leave the state (and its trace) unchanged."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casebook.core.actions import format_action, parse_action
from casebook.core.errors import IllegalActionError
from casebook.core.game import Game
from casebook.tools.bots import make_bot

GAMES = (("moscow41", "october-blitz"), ("battle_for_moscow", "campaign"))


def _states(game: Game, seed: int, stops: tuple[int, ...]) -> list:
    state = game.new_initial_state(seed)
    bots = {s: make_bot("random", s, seed) for s in ("german", "soviet")}
    out = []
    for n in range(max(stops) + 1):
        if state.is_terminal():
            break
        if n in stops:
            out.append(state.clone())
        state.apply(bots[state.current_player()].choose(state))
    return out


@pytest.fixture(scope="module")
def positions() -> list:
    """Plays of both games at several points (movement, combat, results steps …)."""
    out = []
    for game_id, scenario in GAMES:
        game = Game.load(game_id, scenario)
        for seed in (1, 2):
            out += _states(game, seed, (0, 7, 19, 41, 77))
    return out


def _attack_state(positions: list, game_id: str):
    """A play of ``game_id`` where an attack is legal, and that attack."""
    for state in positions:
        if state.game.engine.pack.id != game_id:
            continue
        attacks = [a for a in state.legal_actions() if a.kind == "attack"]
        if attacks:
            return state, attacks[0]
    for seed in range(3, 9):  # play on until some attack is offered
        game = next(s.game for s in positions if s.game.engine.pack.id == game_id)
        state = game.new_initial_state(seed)
        bots = {s: make_bot("random", s, seed) for s in ("german", "soviet")}
        for _ in range(400):
            attacks = [a for a in state.legal_actions() if a.kind == "attack"]
            if attacks:
                return state, attacks[0]
            state.apply(bots[state.current_player()].choose(state))
    pytest.skip(f"no attack offered in {game_id}")


def _refused_cleanly(state, text: str) -> IllegalActionError | None:
    """Apply ``text`` to a copy; if refused, the copy is unchanged. Returns the refusal (or None)."""
    play = state.clone()
    before, events = play.to_dict(), len(play.trace)
    try:
        play.apply(text)
    except IllegalActionError as exc:
        assert play.to_dict() == before and len(play.trace) == events
        assert str(exc)  # a reason …
        return exc
    action = parse_action(text, side=state.current_player())
    # applied: a listed action, or one filling a template of the step (docs/actions.md)
    assert action in state.legal_actions() or any(t.matches(action) for t in state.action_templates())
    return None


@pytest.mark.parametrize("game_id", ["moscow41", "battle_for_moscow"])
def test_the_reported_crashing_attacks_are_refused_with_cases(positions, game_id):
    state, attack = _attack_state(positions, game_id)
    side = attack.side
    enemy = next(u["id"] for u in state.data.units if u.get("side") != side and u.get("hex"))
    hex_ = attack.get("hex")
    bad = [
        format_action(attack).replace(f"with={','.join(attack.get('with'))}", f"with={enemy}"),  # KeyError 'hex'
        format_action(attack).replace(f"with={','.join(attack.get('with'))}", f"with={hex_}"),  # a hex in with=
        format_action(attack) + " support=zz",                                                  # ValueError
        f"{side}: pass side=x", f"{side}: pass kind=x",                                        # TypeError
        f"{side}: attack hex=9999 with={','.join(attack.get('with'))}",                        # off the map
        f"{side}: move stack={hex_} path=9999,0000",
    ]
    for text in bad:
        exc = _refused_cleanly(state, text)
        # refused by the cases that forbid it, or, a notation no rule can read ("support" given
        # twice), as not an action at all: no case of the game's is cited for a malformed line
        assert exc is not None and (exc.cases or exc.reason.startswith("not an action: ")), text


TOKENS = st.sampled_from(["zz", "-1", "0", "99999999999999999999", "9999", "0000", "abcd", "1,2", ",", "true",
                          "x=y", "s-5rd", "g-98id", "0303", "2032,2033", "é", "side", "kind"])


@st.composite
def mutated(draw, state):
    legal = state.legal_actions()
    base = format_action(draw(st.sampled_from(legal))) if legal else "german: pass"
    words = base.split(" ")
    how = draw(st.integers(0, 5))
    if how == 0 and len(words) > 2:  # a value replaced
        i = draw(st.integers(2, len(words) - 1))
        name = words[i].split("=", 1)[0]
        words[i] = f"{name}={draw(TOKENS)}"
    elif how == 1:  # an argument added
        name = draw(st.sampled_from(['side', 'kind', 'support', 'with', 'path', 'hex', 'zz']))
        words.append(f"{name}={draw(TOKENS)}")
    elif how == 2 and len(words) > 2:  # an argument dropped
        del words[draw(st.integers(2, len(words) - 1))]
    elif how == 3:  # the kind changed
        words[1] = draw(st.sampled_from(["attack", "move", "support", "retreat", "advance", "zz", "pass"]))
    elif how == 4:  # noise
        return draw(st.text(max_size=40))
    return " ".join(words)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(data=st.data())
def test_random_and_mutated_action_strings_refuse_cleanly(positions, data):
    state = data.draw(st.sampled_from([s for s in positions if not s.is_terminal()]))
    text = data.draw(mutated(state))
    _refused_cleanly(state, text)
