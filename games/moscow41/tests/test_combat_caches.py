"""The combat listing's shortcuts and caches (issue #9) give the attacks the plain procedure gives.

- the legal ``attack`` actions of the combat and reaction-attacks steps — listed with cheap
  refusals first (the IP cost before supply and command), the record and eligible attackers kept
  per state version and verdicts kept for one listing — equal, over a played prefix and under
  varied IPs, those of the procedure without shortcuts (every refusal of ``attack_refusals``,
  then support) on an engine with nothing kept;
- the quick refusals are empty exactly when the full ones are, and are some of them;
- the defender's ``support`` choices equal the plain procedure's;
- a reaction the side cannot pay for is left out without asking supply or command, while
  ``why`` (the refusals of the action) still names both the 2.4A and the IP refusal.
"""

from __future__ import annotations

import pytest

from casebook.areas import combat
from casebook.areas._combat_listing import attack_actions, support_actions
from casebook.areas._combat_rules import (
    attack_refusals,
    max_support,
    reaction_cost,
    support_allowed,
    support_cost,
    targets,
    within_limit_groups,
)
from casebook.areas._combat_validators import attack_action, other_refusals
from casebook.core.actions import Action
from casebook.core.game import Game
from casebook.core.hooks import hookimpl
from casebook.core.play import State
from casebook.script.engine import Engine
from casebook.tools.bots import make_bot
from games.moscow41.tests._fakes import FakeAreasWithStacking, engine_with
from tests.conftest import m41_inline, make_ctx

_KIND = {"combat": "attack", "reaction_attacks": "reaction"}


def _fresh(m41):
    """An engine on the same content with nothing kept (its own memo and lasting caches)."""
    return Engine(m41.pack, m41.board, m41.rules, m41.pm, m41.sequence)


def _cold(engine, data):
    clone = data.clone()
    clone.touch()  # a version this engine has never seen
    return engine.ctx(clone)


def plain_attacks(ctx, side, kind):
    """The listing as the procedure reads without shortcuts (before issue #9): every group's
    full refusals — the combat area's and the other areas' (6.2D, 15.3C) — then the attacker's
    support (2.3B verdict, then the most worth buying)."""
    out = []

    def refused(hex_, group):
        return attack_refusals(ctx, side, hex_, group, kind) or other_refusals(ctx, attack_action(side, hex_, group))

    for hex_, units in targets(ctx, side, kind).items():
        whole = not refused(hex_, units)
        trimmed = [] if whole else within_limit_groups(ctx, units)  # 6.2D
        if kind == "reaction":
            groups = [list(units)] if whole or not trimmed else trimmed
        else:
            groups = [list(units)] if whole else trimmed + [[u] for u in units if [u] not in trimmed]
        for group in groups:
            if refused(hex_, group):
                continue
            paid = reaction_cost(ctx, side, group) if kind == "reaction" else 0
            options = [0]
            verdict = support_allowed(ctx, group, True)
            if verdict and verdict.value:
                f = combat.assess(ctx, group, hex_)["facts"]
                top = max_support(ctx, side, ctx.state.track("ip", side) - paid,
                                  lambda ips: {**f.drm_facts, "attacker_support_ips": ips})  # noqa: B023 - called at once, inside the loop
                options = sorted({0, top})
            out += [Action.make("attack", side, hex=hex_, support=n, **{"with": group}) for n in options]
    return out


def plain_support(ctx, pending):
    """The defender's support choices without shortcuts: 2.3C verdict, then the most worth buying."""
    side, hex_ = pending["defender_side"], pending["hex"]
    options = [0]
    verdict = support_allowed(ctx, [u["id"] for u in ctx.state.units_at(hex_)], False)
    if verdict is None or verdict.value:
        f = combat.assess(ctx, pending["attackers"], hex_, {"attacker": pending["attacker_support"]})["facts"]
        top = max_support(ctx, side, ctx.state.track("ip", side),
                          lambda ips: {**f.drm_facts, "attacker_support_ips": 0, "defender_support_ips": ips})
        options = sorted({0, top})
    return [Action.make("support", side, ips=n) for n in options]


def _with_ip(data, side, ips):
    other = data.clone()
    other.add_track("ip", ips - other.track("ip", side), side)
    return other


def _check_refusals(ctx, side, kind, seen):
    """Quick refusals: empty exactly when the full ones are, and some of them; for every
    candidate group (all adjacent eligible units, and each alone), with and without support."""
    for hex_, units in targets(ctx, side, kind).items():
        for group in [list(units)] + [[u] for u in units]:
            for support in (0, 2):
                full = attack_refusals(ctx, side, hex_, group, kind, support)
                quick = attack_refusals(ctx, side, hex_, group, kind, support, quick=True)
                assert bool(quick) == bool(full), (hex_, group, support)
                assert all(r in full for r in quick), (hex_, group, support)
                seen["refused" if full else "legal"] += 1


@pytest.mark.case("10.1A", "10.5A", "0.7.3.5A", "2.3A", "2.3B", "10.4.2A")
def test_listed_attacks_equal_the_plain_procedure_over_a_played_prefix(m41, monkeypatch):
    """Greedy bots play 300 actions of the October Blitz (the player turns of turn 1 and the
    start of turn 2). At every listing of the combat and reaction-attacks steps (the driver's
    own, including those it passes by itself), the listed attacks equal the plain procedure's on
    a fresh engine; so they do with the deciding side's IPs set to 0, 1, 2, 5, 9 and 40 (the
    play's engine, asked twice so the second listing reads what the first kept); so do the
    defender's support choices for the first listed attacks with the defender's IPs at 0, 2, 3
    and 40; and the quick refusals agree with the full ones."""
    game = Game(m41, "october-blitz")
    state = game.new_initial_state(seed=1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    fresh = _fresh(m41)
    seen = {"positions": 0, "reaction_positions": 0, "attacks": 0, "supported": 0, "reaction": 0,
            "defender_support": 0, "refused": 0, "legal": 0}
    gather = State._gather

    def checked_gather(self):
        out = gather(self)
        step, side = self.data.step, self._decider
        if step not in _KIND or not side or (self.data.plugin_data("combat") or {}).get("pending") \
                or (self.data.plugin_data("results") or {}).get("queue"):
            return out
        kind = _KIND[step]
        listed = [a for a in out if a.kind == "attack"]
        assert listed == plain_attacks(_cold(fresh, self.data), side, kind)
        seen["positions"] += 1
        seen["reaction_positions"] += kind == "reaction"
        for ips in (0, 1, 2, 5, 9, 40):
            data = _with_ip(self.data, side, ips)
            warm = game.engine.ctx(data)
            attack_actions(warm, side, kind)
            mine = attack_actions(warm, side, kind)
            assert mine == plain_attacks(_cold(fresh, data), side, kind), (step, ips)
            seen["attacks"] += len(mine)
            seen["supported"] += sum(1 for a in mine if a.get("support"))
            seen["reaction"] += len(mine) if kind == "reaction" else 0
        _check_refusals(game.engine.ctx(_with_ip(self.data, side, 9)), side, kind, seen)
        for a in listed[:2]:
            defender = self.data.units_at(a.get("hex"))[0]["side"]
            pending = {"attackers": list(a.get("with")), "hex": a.get("hex"), "kind": kind,
                       "attacker_support": a.get("support"), "attacker_side": side, "defender_side": defender}
            for ips in (0, 2, 3, 40):
                data = _with_ip(self.data, defender, ips)
                mine = support_actions(game.engine.ctx(data), pending)
                assert mine == plain_support(_cold(fresh, data), pending), (a, ips)
                seen["defender_support"] += len(mine) > 1
        return out

    monkeypatch.setattr(State, "_gather", checked_gather)
    for _ in range(300):
        if state.current_player() is None:     # the game is over (seed 1: 18.1.3D on turn 2, action 298)
            break
        state.apply(bots[state.current_player()].choose(state))
    # the prefix reaches every branch: attacks with and without support, reactions, defender support
    # supported attacks: fewer since 10.4.2B's support path must be to the activating HQ
    assert seen["positions"] >= 80 and seen["attacks"] >= 2000 and seen["supported"] >= 300, seen
    assert seen["reaction_positions"] >= 30 and seen["reaction"] >= 500 and seen["defender_support"] >= 100, seen
    assert seen["refused"] >= 5000 and seen["legal"] >= 1000, seen
    # support costs kept per engine are the script's (10.4.2A: 2 IPs a DRM German, 3 Soviet)
    ctx = state.ctx()
    for side, per in (("german", 2), ("soviet", 3)):
        for drm in range(1, 8):
            plain = ctx.value("ip_cost", {"ip_use": "combat_support", "side": side, "support_drm": drm})
            assert support_cost(ctx, side, drm) == plain == per * drm


class CountingAreas(FakeAreasWithStacking):
    """The fake areas, counting the supply and command questions."""

    def reset(self) -> None:
        super().reset()
        self.questions: list[tuple[str, str]] = []

    @property
    def asked(self) -> int:
        return len(self.questions)

    @hookimpl
    def casebook_supply(self, ctx, unit):
        self.questions.append(("supply", unit))
        return super().casebook_supply(ctx, unit)

    @hookimpl
    def casebook_command(self, ctx, unit):
        self.questions.append(("command", unit))
        return super().casebook_command(ctx, unit)


COUNT = CountingAreas()


@pytest.mark.case("0.7.3.5A", "2.4A", "2.3A")
def test_an_unaffordable_reaction_is_left_out_unasked_and_why_names_every_refusal(m41):
    """Two Soviet stacks next to an activated German division cost 2 IPs to activate (0.7.3.5A,
    one per stack); with 1 IP no reaction is offered and no supply or command question is asked,
    while the refusals of that very attack name both s1 out of supply (2.4A) and the IPs (2.4A: the
    reaction's cost, paid in the step of 0.7.3.5A). With 2 IPs and s1 in supply the same listing asks
    and offers the attack; buying support on top of it, the IPs refusal adds 2.3A."""
    units = ('  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0304", activated: true}\n'
             '  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0303"}\n'
             '  - {id: s2, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0305"}\n')

    def position(ip):
        return make_ctx(engine_with(m41, counting=COUNT),
                        m41_inline(units, step="reaction_attacks", ip=f"{{german: 0, soviet: {ip}}}"))

    COUNT.reset()
    COUNT.unsupplied.add("s1")
    ctx = position(1)
    assert attack_actions(ctx, "soviet", "reaction") == []
    assert COUNT.asked == 0
    why = attack_refusals(ctx, "soviet", "0304", ["s1", "s2"], "reaction")
    assert [r.cases for r in why] == [("2.4A",), ("2.4A", "0.7.3.5A")]
    assert why[1].reason == "soviet has 1 IPs, the attack needs 2"
    assert COUNT.asked > 0
    COUNT.reset()
    ctx = position(2)
    assert attack_actions(ctx, "soviet", "reaction") == [
        Action.make("attack", "soviet", hex="0304", support=0, **{"with": ["s1", "s2"]})]
    assert COUNT.asked > 0
    # the same attack buying a DRM of support: the IPs of the reaction (2.4A, 0.7.3.5A) and of the support
    # (2.3A), and the support's cost line (10.4.2A: initiative.rules, named by the refusal — session 16)
    why = attack_refusals(ctx, "soviet", "0304", ["s1", "s2"], "reaction", support=1)
    assert [(r.reason, r.cases) for r in why] == [
        ("soviet has 2 IPs, the attack needs 3", ("2.4A", "0.7.3.5A", "2.3A", "10.4.2A"))]


@pytest.mark.case("2.3B", "2.3C", "10.4.2B", "2.4A")
@pytest.mark.parametrize("unsupplied, out_of_command", [(False, False), (True, False), (False, True), (True, True)])
def test_support_and_reaction_verdicts_ask_command_only_when_the_script_reads_it(m41, unsupplied, out_of_command):
    """The verdicts on combat support (2.3B-C, 10.4.2B) and reaction activation (2.4A) are those
    of the plain facts, line for line; ``not (supplied and in_command)`` reads command only of a
    unit in supply, so an unsupplied unit is asked supply alone."""
    from casebook.areas._combat_odds import in_command, supplied
    from casebook.areas._combat_rules import _reaction_verdict

    COUNT.reset()
    ctx = make_ctx(engine_with(m41, counting=COUNT), """
kind: position
format: 1
game: moscow41
map:
  layout: flat-top-even-q
  size: {columns: 8, rows: 8}
  terrain: {default: clear}
turn: 3
weather: {temperature: warm, ground: dry}
phase: first_player
step: combat
phasing: german
first_player: german
ip: {german: 10, soviet: 9}
units:
  - {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0303", activated: true}
  - {id: s1, side: soviet, class: infantry, size: division, strength: 6, ma: 4, hex: "0304"}
""")
    if unsupplied:
        COUNT.unsupplied.add("g1")
    if out_of_command:
        COUNT.out_of_command.add("g1")
    plain = {"supplied": not unsupplied, "in_command": not out_of_command}
    for attacking in (True, False):
        COUNT.questions.clear()
        verdict = support_allowed(ctx, ["g1"], attacking)
        want = ctx.permission("combat_support", {**plain, "overrun": False, "attacking": attacking})
        assert (verdict.value, verdict.lines) == (want.value, want.lines)
        assert verdict.value == (not unsupplied and not out_of_command)
        assert COUNT.questions == ([("supply", "g1")] if unsupplied else [("supply", "g1"), ("command", "g1")])
    COUNT.questions.clear()
    verdict = _reaction_verdict(ctx, "german", "g1", None)
    want = ctx.permission("reaction_attack", {**plain, "turn": 3, "side": "german"})
    assert (verdict.value, verdict.lines) == (want.value, want.lines)
    assert ("command", "g1") not in COUNT.questions or not unsupplied
    assert (supplied(ctx, "g1"), in_command(ctx, "g1")) == (plain["supplied"], plain["in_command"])
