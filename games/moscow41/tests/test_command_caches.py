"""The shortcuts and caches behind the Command Step listing (2.1A, 2.2A, 8.0-8.4) and the hedgehog
listing (14.4A) (issue #9).

- the listing asks supply only when a verdict turns on it, keeps the ``hq_activate_unit`` verdicts
  per engine and indexes the stacks once per state version: over a played prefix its actions
  equal those of the plain definition (every unit asked, every hex traced, every verdict
  worked out) on an engine with nothing kept;
- the hedgehog listing asks only hexes holding an activated German unit: its actions equal those
  of asking every German hex, both ways.
"""

from __future__ import annotations

import pytest

from casebook.areas import activation as act
from casebook.core.actions import Action
from casebook.core.game import Game
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.games.moscow41.plugins import _area_config as cp
from casebook.games.moscow41.plugins import _command_steps as steps
from casebook.games.moscow41.plugins import _fortification_effects as fx
from casebook.script.engine import Engine
from casebook.tools.bots import make_bot
from games.moscow41.tests.test_command import HQ, at, eng, ours  # noqa: F401  (eng: fixture)
from games.moscow41.tests.test_supply import G


def _fresh(m41):
    """An engine on the same content with nothing kept (its own caches)."""
    return Engine(m41.pack, m41.board, m41.rules, m41.pm, m41.sequence)


def _plain_hq_stacks(ctx, hq):
    """8.2A, 2.2C, 2.2E, 2.0 as written: every hex of the side traced, every unit's verdict asked."""
    out = {}
    hexes = sorted({u["hex"] for u in ctx.state.units if u.get("side") == hq["side"] and u.get("hex")})
    for hex_ in hexes:
        path = cp.command_paths(ctx).path(ctx, hq, parse_hex(hex_))
        if path is None:
            continue
        ids = [u["id"] for u in ctx.state.units_at(hex_)
               if u.get("side") == hq["side"] and u.get("class") != "hq" and not u.get("activated")
               and ctx.permission("hq_activate_unit", {"panzer_division": cp.is_panzer(u),
                                                      "hq_mechanized": bool(hq.get("mechanized")),
                                                      "unit_class": u.get("class")}).value]
        if ids:
            out[hex_] = (len(path) - 1, ids)
    return [h for h, _ in sorted(out.items(), key=lambda kv: (kv[1][0], kv[0]))]


def _plain_listing(ctx, side):
    """The Command Step actions by the plain definition (2.1A, 2.2A-B, 8.3): supply asked of
    every HQ and every unactivated unit."""
    ip, out = ctx.state.track("ip", side), []
    for hq in cp.command_paths(ctx).hqs(ctx, side):
        if hq.get("activated") or act.hq_cost(ctx, hq) > ip:
            continue
        stacks = _plain_hq_stacks(ctx, hq)
        out.append(Action.make("activate-hq", side, hq=hq["id"],
                               stacks=stacks[:act.hq_limit(ctx, hq, len(stacks))] or None))
    if ctx.value("ip_cost", {"ip_use": "activate_stack"}) <= ip:
        out += [Action.make("activate-stack", side, stack=h) for h in act.single_stacks(cp.command_paths(ctx), ctx, side)]
    return out + [Action.make("pass", side)]


def _plain_hedgehogs(ctx):
    hexes = sorted({u["hex"] for u in ctx.state.units if u.get("side") == "german" and "hex" in u})
    out = []
    for hex_ in hexes:
        for remove in (False, True):
            a = Action.make("hedgehog", "german", stack=hex_, remove=True if remove else None)
            if not fx.hedgehog_refusals(ctx, a):
                out.append(a)
    return out


@pytest.mark.case("2.1A", "2.2A", "8.2A", "8.3.1A", "8.3.2A", "14.4A")
def test_command_listing_equals_the_plain_definition_over_a_played_prefix(m41):
    """Greedy bots play 220 actions of the October Blitz; at every Command Step decision (and
    every Movement Step one, for hedgehogs) the listing of the play's engine (kept verdicts and
    maps) equals the plain definition's on an engine with nothing kept."""
    game = Game(m41, "october-blitz")
    state = game.new_initial_state(seed=1)
    bots = {s: make_bot("greedy", s, 1) for s in ("german", "soviet")}
    fresh = _fresh(m41)
    checked = {"command": 0, "hedgehog": 0}
    kinds = set()
    for _ in range(220):
        if state.is_terminal():
            break
        step, side = state.data.step, state.data.phasing
        if step == "command" and not (state.data.plugin_data("command") or {}).get("done"):
            warm = state.ctx()
            got = steps.legal(warm, "command", side)
            clone = state.data.clone()
            clone.touch()  # a version the fresh engine has never seen
            want = _plain_listing(fresh.ctx(clone), side)
            assert got == want
            kinds |= {a.kind for a in got}
            checked["command"] += 1
        if side == "german" and step in ("command", "movement"):
            warm = state.ctx()
            clone = state.data.clone()
            clone.touch()
            assert fx.hedgehog_actions(warm, step) == _plain_hedgehogs(fresh.ctx(clone))
            checked["hedgehog"] += 1
        state.apply(bots[state.current_player()].choose(state))
    assert checked["command"] >= 20 and checked["hedgehog"] >= 20
    assert {"activate-hq", "activate-stack", "pass"} <= kinds


@pytest.mark.case("2.1A")
def test_2_1A_hq_listed_only_when_its_cost_by_supply_is_affordable(eng):  # noqa: F811
    """The listing asks supply only when the cost turns on it; the verdict is the rule's: an
    unsupplied German HQ costs 2 IPs (not listed with 1 IP, listed with 2), a supplied one 1."""
    def hqs(ctx):
        return [a.get("hq") for a in ours(ctx) if a.kind == "activate-hq"]

    oos = [G("hq", "1001", "hq", **HQ)]                                   # 9 MP from both edges
    assert hqs(at(eng, oos, ip=1)) == []
    assert hqs(at(eng, oos, ip=2)) == ["hq"]
    assert hqs(at(eng, [G("hq", "0301", "hq", **HQ)], ip=1)) == ["hq"]   # in supply: 1 IP
    assert hqs(at(eng, [G("hq", "0301", "hq", **HQ)], ip=0)) == []


@pytest.mark.case("2.2A", "5.7A", "5.3")
def test_2_2A_a_stack_qualifies_by_any_unit_in_supply_not_only_its_first(eng):  # noqa: F811
    """The listing stops at a stack's first unit in supply: a remnant out of supply (it may not
    use an HQ's radius, 5.3) stacked over an infantry division supplied through the corps HQ's
    radius still gives the stack's activation; the remnant alone does not (2.2A, 5.7A)."""
    def stacks(ctx):
        return [a.get("stack") for a in ours(ctx) if a.kind == "activate-stack"]

    corps = G("corps", "0901", "hq", **HQ)
    both = at(eng, [corps, G("rem", "1101", "remnant", size="regiment"), G("inf", "1101")])
    assert not both.hook.casebook_supply(ctx=both, unit="rem")["in_supply"]
    assert both.hook.casebook_supply(ctx=both, unit="inf")["route"] == "hq"
    assert stacks(both) == ["1101"]
    assert stacks(at(eng, [corps, G("rem", "1101", "remnant", size="regiment")])) == []


def _plain_answer(ctx, uid):
    """8.0-8.4 as written: every HQ of the side traced (no distance shortcut), every verdict and
    support limit worked out from the rule scripts."""
    unit = ctx.state.unit(uid)
    if unit.get("class") == "hq":
        return {"unit": uid, "in_command": True, "hqs": [], "cases": ["8.1C", "8.0B"]}
    hqs = []
    for hq in sorted((u for u in ctx.state.units if u.get("side") == unit["side"] and u.get("class") == "hq"
                      and u.get("hex")), key=lambda u: u["id"]):
        path = cp.command_paths(ctx).path(ctx, hq, parse_hex(unit["hex"]))
        if path is None:
            continue
        facts = {"panzer_division": cp.is_panzer(unit), "hq_mechanized": bool(hq.get("mechanized")),
                 "unit_class": unit.get("class")}
        hqs.append({"hq": hq["id"], "distance": len(path) - 1, "radius": int(hq.get("radius") or 0),
                    "can_activate": bool(ctx.permission("hq_activate_unit", facts).value),
                    "support_limit": ctx.value("hq_support_limit", {
                        "side": hq["side"], "command_limit": int(hq.get("limit") or 0),
                        "command_radius": int(hq.get("radius") or 0)})})
    hqs.sort(key=lambda e: (e["distance"], e["hq"]))
    cases = ["8.0A", "8.1A", "8.1B", "7.4", "0.2.4.8", "8.1D"] + (["2.2C", "2.2D"] if cp.is_panzer(unit) else [])
    return {"unit": uid, "in_command": bool(hqs), "hqs": hqs, "cases": cases}


def _plain_blocked(ctx, side):
    """8.1B, 7.4 as written: enemy-occupied hexes, and every hex next to one that is in an EZOC
    (asked of ``casebook_zoc``) with no friendly non-remnant combat unit."""
    out = {}
    for u in ctx.state.units:
        if u.get("hex") and u["side"] != side:
            out[parse_hex(u["hex"])] = "enemy unit"
    for h in list(out):
        for n in ctx.board.neighbours(h):
            if n in out:
                continue
            label = hex_label(n)
            if any(u["side"] == side and u["class"] not in ("hq", "remnant") for u in ctx.state.units_at(label)):
                continue
            answer = ctx.hook.casebook_zoc(ctx=ctx, hex=label, side=side)
            if answer["exerted_by"] and answer["kind"] != "none":
                out[n] = "enemy ZOC"
    return out


@pytest.mark.case("8.1B", "7.4")
def test_enemy_blocks_kept_by_the_zoc_map_key_serve_a_sides_own_moves(m41):
    """A Soviet unit steps to an empty hex: the German ZOC map key is unchanged, so the enemy
    blocks against the Soviets are reused — and the blocked hexes still equal the plain
    definition's on a fresh engine (a friendly combat unit now opens its EZOC hex, 7.4)."""
    state = Game(m41, "october-blitz").new_initial_state(seed=1)
    ctx = state.ctx()
    from casebook.areas.supply import enemy_blocks

    def blocks(c):  # what command_blocked reads (the shared area's enemy blocks, command's cache)
        return enemy_blocks(c, "soviet", "command.enemy-blocks", cp.command_paths(c).keep, per_hex=True)
    before = blocks(ctx)
    blocked = cp.command_paths(ctx).blocked(ctx, "soviet")
    ezoc = [h for h, why in blocked.items() if why == "enemy ZOC"]
    assert ezoc
    mover = next(u for u in state.data.units if u.get("hex") and u["side"] == "soviet"
                 and u["class"] not in ("hq", "remnant"))
    state.data.move_unit(mover["id"], hex_label(ezoc[0]))
    moved = state.ctx()
    assert blocks(moved) is before                      # kept, not remade
    got = cp.command_paths(moved).blocked(moved, "soviet")
    assert ezoc[0] not in got                                               # 7.4: opened
    assert got == _plain_blocked(_fresh(m41).ctx(state.data), "soviet")


@pytest.mark.case("8.0A", "8.1A", "0.2.4.8", "2.2C", "8.3.1B", "8.3.2B")
def test_kept_command_answers_equal_plain_ones_over_a_played_prefix(m41):
    """Greedy bots play 150 actions of the October Blitz (seed 4); every fifth position, the
    command answer of every unit on the map (the play's engine: HQs farther than their radius
    skipped, verdicts and support limits kept per engine) equals the plain definition's on an
    engine with nothing kept."""
    game = Game(m41, "october-blitz")
    state = game.new_initial_state(seed=4)
    bots = {s: make_bot("greedy", s, 4) for s in ("german", "soviet")}
    fresh = _fresh(m41)
    checked, in_command, out_of_command = 0, 0, 0
    for i in range(150):
        if state.is_terminal():
            break
        state.apply(bots[state.current_player()].choose(state))
        if i % 5:
            continue
        warm = state.ctx()
        clone = state.data.clone()
        clone.touch()
        cold = fresh.ctx(clone)
        for side in ("german", "soviet"):
            assert cp.command_paths(warm).blocked(warm, side) == _plain_blocked(cold, side)
        for unit in state.data.units:
            if unit.get("hex"):
                got = warm.hook.casebook_command(ctx=warm, unit=unit["id"])
                # ``activated_by`` is read from the plugin data, not from the paths kept here
                paths = {k: v for k, v in got.items() if k != "activated_by"}
                assert paths == _plain_answer(cold, unit["id"]), unit["id"]
                in_command += got["in_command"] and bool(got["hqs"])
                out_of_command += not got["in_command"]
        checked += 1
    assert checked == 30 and in_command > 1000 and out_of_command > 10
