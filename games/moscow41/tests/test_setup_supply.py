"""Every unit of the Campaign Game setup (18.1.1, 18.2.1: both scenarios) starts in supply (5.1-5.4).

Asked through ``casebook_supply``, the answer play and ``casebook ask … supply`` give (the real ZOCs
and the pack's map), never a re-implementation. Until session 19 the 22nd Army (HQ and five rifle
divisions, 3610-4010) started out of supply: no road, trail or rail reached its sector
(geography.yaml: the Bologoye-Polotsk and Torzhok-Soblago railways); and four units north of Bely
started cut off by a saw-tooth of the setup (g-110id at 2812 and s-162rd at 2912, g-36mot and the
XXXXI Panzer Corps HQ at 2613, each among three enemy units; scenarios: 110 ID and 36 Mot one hex
back, the HQ two, behind the 1st Panzer Division).
"""

from __future__ import annotations

import pytest

from casebook.core.trace import Trace
from casebook.script.engine import state_from_position

SCENARIOS = ("october-blitz", "campaign")
TWENTY_SECOND_ARMY = {"s-22a": "3810", "s-133rd": "4010", "s-174rd": "3910", "s-179rd": "3810",
                      "s-186rd": "3711", "s-256rd": "3610"}


def _start(m41, sid):
    return m41.ctx(state_from_position(m41.pack.scenario(sid)), Trace())


def _unsupplied(ctx, side):
    out = {}
    for u in ctx.state.units:
        if u["side"] == side and u.get("hex"):
            answer = ctx.hook.casebook_supply(ctx=ctx, unit=u["id"])
            if not answer["in_supply"]:
                out[u["id"]] = [b["hex"] for b in answer["blocked"]]
    return out


@pytest.mark.case("5.1C", "5.2C", "5.3", "5.4A", "5.4B", "18.1.1", "18.2.1")
@pytest.mark.parametrize("sid", SCENARIOS)
def test_5_1C_every_soviet_unit_starts_in_supply(m41, sid):
    ctx = _start(m41, sid)
    assert _unsupplied(ctx, "soviet") == {}


@pytest.mark.case("5.1A", "5.2B", "5.3", "5.4A", "5.4B", "18.1.1", "18.2.1")
@pytest.mark.parametrize("sid", SCENARIOS)
def test_5_1A_every_german_unit_starts_in_supply(m41, sid):
    ctx = _start(m41, sid)
    assert _unsupplied(ctx, "german") == {}


@pytest.mark.case("5.1C", "5.2C", "5.2D")
def test_5_2C_the_22nd_army_traces_by_rail_to_kalinin(m41):
    """The 22nd Army's sector: its units stand where the setup puts them and trace supply along the
    Bologoye-Polotsk railway (Andreapol, 3610) and the Torzhok-Soblago line to Torzhok, then the
    Moscow-Kalinin line to Kalinin (3733), a friendly city (5.1C)."""
    ctx = _start(m41, "october-blitz")
    for uid, hex_ in TWENTY_SECOND_ARMY.items():
        assert ctx.state.unit(uid)["hex"] == hex_
        answer = ctx.hook.casebook_supply(ctx=ctx, unit=uid)
        assert answer["in_supply"] is True, uid
        assert answer["route"] == "rail", uid
        assert answer["path"][-1] == "3733", uid
        assert "5.2D" in answer["cases"], uid
    andreapol = ctx.hook.casebook_supply(ctx=ctx, unit="s-256rd")
    assert andreapol["mp"] == 0                  # it stands on the railway (Andreapol)


@pytest.mark.case("5.1A", "5.2B", "5.2D")
def test_5_2B_the_warsaw_highway_leads_off_the_west_edge(m41):
    """The Warsaw highway (geography.yaml: Roslavl-Krichev-Bobruisk) leaves the map by its west
    edge: a German unit on its last hex (0109) traces by road straight to the edge hex 0108 (5.1A),
    not back through Smolensk. Until session 19 the course ran Roslavl-Bobruisk and ended at 0109
    one hexside short of the edge, so the whole southern road net hung on Smolensk's exit (1308):
    in a planner game (seed 1, Turn 4) 18 German units were out of supply through it alone
    (BALANCE.md, "Session 19: German supply")."""
    pos = m41.pack.scenario("october-blitz")
    units = list(pos.units)
    at = next(i for i, u in enumerate(units) if u.side == "german" and u.class_ == "infantry")
    units[at] = units[at].model_copy(update={"hex": "0109"})
    ctx = m41.ctx(state_from_position(pos.model_copy(update={"units": units})), Trace())
    answer = ctx.hook.casebook_supply(ctx=ctx, unit=units[at].id)
    assert answer["in_supply"] is True
    assert answer["route"] == "road"
    assert answer["path"] == ["0109", "0108"]
    assert "5.2D" in answer["cases"]
