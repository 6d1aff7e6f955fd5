"""Moscow '41 content checked against the history it reconstructs (issue #16).

The Initiative Chart at the scale of 1.3B's worked example, Army Group Centre's rear garrisons,
and the rivers and fortification line on the fronts of 2 Oct 1941. The values are the pack's
reconstructed stand-ins (docs/moscow41-pack.md); the figures asserted are the ones its
provenance gives (1.3B's 12 German town IPs on Turn 13, the Turn Track's 22 : 10 on Turn 1).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.areas.initiative import income
from casebook.content.position import load_position
from casebook.content.yamlio import load_yaml
from casebook.core.hexgrid import distance, parse_hex
from casebook.script.engine import state_from_position

PACK = Path(__file__).resolve().parent.parent / "games" / "moscow41"
LAYOUT = "flat-top-even-q"
SMOLENSK, ROSLAVL = "1308", "0212"
#: towns German-held on 19 Nov 1941, the start of Turn 13 (shared/reference/moscow41-oob.md timeline:
#: Vyazma 7 Oct, Kaluga 12-13 Oct, Kalinin 14 Oct, Mozhaisk 18 Oct; Smolensk and Roslavl since summer)
GERMAN_19_NOV = {"Smolensk", "Roslavl", "Vyazma", "Kaluga", "Kalinin", "Mozhaisk", "Rzhev", "Volokolamsk",
                 "Maloyaroslavets", "Staritsa", "Zubtsov", "Sychevka", "Bely", "Ruza", "Gzhatsk", "Dorogobuzh",
                 "Yelnya", "Spas-Demensk", "Yukhnov", "Medyn", "Kozelsk", "Sukhinichi", "Kirov", "Lyudinovo"}
#: still Soviet on 19 Nov: Klin and Solnechnogorsk fall ~23 Nov, Istra 27 Nov, Tula holds (19.3E)
SOVIET_19_NOV = {"Moscow", "Klin", "Solnechnogorsk", "Istra", "Dmitrov", "Yakhroma", "Zagorsk", "Noginsk",
                 "Naro-Fominsk", "Podolsk", "Serpukhov", "Kashira", "Kolomna", "Aleksin", "Tula", "Venev",
                 "Stalinogorsk"}


@pytest.fixture(scope="module")
def game_map():
    return load_yaml(PACK / "map.yaml").data


@pytest.fixture(scope="module")
def sides(game_map):
    return {frozenset(s["hexes"]): s for s in game_map["hexsides"]}


def scenario_ctx(m41, sid: str):
    pos = load_position(PACK / "scenarios" / f"{sid}.yaml", pack=m41.pack)
    return m41.ctx(state_from_position(pos))


def position_with_control(m41, control: dict[str, str]):
    text = ("kind: position\nformat: 1\ngame: moscow41\nturn: 13\nweather: {temperature: cold, ground: snow}\n"
            "ip: {german: 0, soviet: 0}\ncontrol: {" + ", ".join(f'"{h}": {s}' for h, s in control.items()) + "}\n")
    return m41.ctx(state_from_position(load_position(text, pack=m41.pack)))


# ------------------------------------------------------------------------------ Initiative Chart
@pytest.mark.case("1.3B", "1.1A")
def test_1_3B_the_historical_19_november_line_gives_the_germans_12_town_ips(m41, game_map):
    towns = {name: [h for h, t in game_map["towns"].items() if t["name"] == name]
             for name in GERMAN_19_NOV | SOVIET_19_NOV}
    assert all(towns.values()), [n for n, hs in towns.items() if not hs]   # every town is on the map
    control = {h: "german" for n in GERMAN_19_NOV for h in towns[n]}
    control |= {h: "soviet" for n in SOVIET_19_NOV for h in towns[n]}
    ctx = position_with_control(m41, control)
    assert income(ctx, "german")["town_ips"] == 12        # 1.3B: "The Germans hold 12 ... on Turn 13"
    assert income(ctx, "soviet")["town_ips"] == 7         # Moscow's 5 hexes and Tula
    assert income(ctx, "german", 5)["income"] == 19    # (12 + 17) x 2/3, as the example


@pytest.mark.case("1.1A", "1.2", "0.7.1.3A")
@pytest.mark.parametrize("sid", ["october-blitz", "campaign"])
def test_1_1A_town_ips_at_the_start_leave_the_october_initiative_to_the_germans(m41, sid):
    ctx = scenario_ctx(m41, sid)
    german, soviet = income(ctx, "german", 1), income(ctx, "soviet", 1)
    assert (german["town_ips"], soviet["town_ips"]) == (4, 15)   # Smolensk 3 + Roslavl 1 against the rest
    assert (german["track_bonus"], soviet["track_bonus"]) == (22, 10)
    assert german["income"] > soviet["income"]           # 26 against 25 before the die
    assert soviet["income"] < 40                          # was 73 (63 + 10) with all 45 towns on the chart


def test_1_1A_only_chart_towns_earn_ips_and_the_map_keeps_the_others(game_map):
    chart = load_yaml(PACK / "tables" / "initiative_chart.yaml").data["rows"]
    assert sum(r["ip"] for r in chart) == 19 and len(chart) == 13   # 8 towns and 5 Moscow hexes
    assert len(game_map["towns"]) == 45
    assert {t["name"] for h, t in game_map["towns"].items() if t["ip"] == 0} >= {"Volokolamsk", "Podolsk", "Klin"}


# --------------------------------------------------------------------------- the German rear
@pytest.mark.case("18.1.3D")
@pytest.mark.parametrize("sid", ["october-blitz", "campaign"])
def test_18_1_3D_smolensk_and_roslavl_are_garrisoned_at_the_start(m41, sid):
    ctx = scenario_ctx(m41, sid)
    counters = m41.pack.counters                          # with the errata (139 RD, 0.2.4.9)
    units = load_yaml(PACK / "scenarios" / f"{sid}.yaml").data["units"]
    held = {u["hex"]: u["counter"] for u in units if counters[u["counter"]]["side"] == "german"
            and counters[u["counter"]]["class"] != "hq"}
    assert held[SMOLENSK] == "g-403sd" and held[ROSLAVL] == "g-221sd"
    assert ctx.state.control(SMOLENSK) == "german"
    soviet = [(distance(parse_hex(u["hex"]), parse_hex(SMOLENSK), LAYOUT), u["counter"]) for u in units
              if counters[u["counter"]]["side"] == "soviet" and counters[u["counter"]]["class"] != "hq"]
    # the 16th and 20th Armies on the Dnieper east of Smolensk
    assert min(soviet)[0] == 6 and {c for d, c in soviet if d == 6} == {"s-129rd", "s-144rd"}
    # a German combat unit within 2 hexes of every hex of the Minsk highway between Smolensk and the front
    rear = [parse_hex(h) for h in held]
    for h in ("1308", "1309", "1409", "1410", "1511"):
        assert min(distance(parse_hex(h), r, LAYOUT) for r in rear) <= 2, h


def test_the_security_divisions_are_reconstructed_and_weaker_than_line_infantry():
    counters = {u["id"]: u for u in load_yaml(PACK / "counters.yaml").data["units"]}
    for cid in ("g-221sd", "g-286sd", "g-403sd", "g-339id"):
        u = counters[cid]
        assert u["provenance"].startswith("reconstructed:") and "security" in u["type"]
        assert u["strength"] < counters["g-7id"]["strength"]


# -------------------------------------------------------------------------------- geography
def _rivers(sides, pairs) -> list[bool]:
    return [bool({"river", "major_river"} & set(sides.get(frozenset(p), {}))) for p in pairs]


def _front(units, col: int) -> tuple[int, int]:
    """(eastmost German row, westmost Soviet row) of the units set up in column ``col``."""
    rows = {"g": [], "s": []}
    for u in units:
        if int(u["hex"][:2]) == col:
            rows[u["counter"][0]].append(int(u["hex"][2:]))
    return max(r for r in rows["g"] if r <= min(rows["s"])), min(rows["s"])


def test_the_desna_runs_along_the_43rd_armys_front(sides):
    # 43rd Army (53, 149, 211, 222 RD) in columns 04-07, the German 4th Army and Panzer Group 4
    # west of it; the Desna's hexsides lie on each division's west side (flat-top columns alternate
    # between rows 15 and 16 on one line)
    units = load_yaml(PACK / "scenarios" / "october-blitz.yaml").data["units"]
    army = [u["hex"] for u in units if u["counter"] in ("s-53rd", "s-149rd", "s-211rd", "s-222rd")]
    assert sorted(army) == ["0415", "0516", "0615", "0716"]
    west = [(h, f"{h[:2]}{int(h[2:]) - 1:02d}") for h in army]
    assert all(_rivers(sides, west))
    # and not behind it any more: no river between the army and its rear
    assert not any(_rivers(sides, [(h, f"{h[:2]}{int(h[2:]) + 1:02d}") for h in army]))
    for col in range(4, 8):                                   # every German of the front west of it
        g, s = _front(units, col)
        assert g < s and any(_rivers(sides, [(f"{col:02d}{r:02d}", f"{col:02d}{r + 1:02d}")
                                             for r in range(g, s)])), col


def test_the_vop_runs_along_the_front_north_of_yartsevo(sides):
    # the 16th and 19th Armies face the German 9th Army's right and the 4th Army across the Vop:
    # in columns 15-25 a river hexside lies between the eastmost German and westmost Soviet unit
    units = load_yaml(PACK / "scenarios" / "october-blitz.yaml").data["units"]
    for col in range(15, 26):
        g, s = _front(units, col)
        assert g < s, col
        assert any(_rivers(sides, [(f"{col:02d}{r:02d}", f"{col:02d}{r + 1:02d}") for r in range(g, s)])), col


@pytest.mark.case("14.2A")
def test_14_2A_the_mozhaisk_line_runs_from_the_volga_reservoir_to_kaluga(game_map, sides):
    protected = {s["fortification"]["protects"] for s in game_map["hexsides"] if "fortification" in s}
    assert {"0833", "1435", "2032", "2733"} <= protected                  # Kaluga ... Volokolamsk
    north = max(protected, key=lambda h: parse_hex(h).col)
    assert parse_hex(north).col >= 36                                     # beyond Volokolamsk (27)
    volga = [k for k, s in sides.items() if north in k and "major_river" in s]
    assert volga                                                          # its end on the reservoir
    provs = {s["provenance"] for s in game_map["hexsides"] if "fortification" in s}
    assert provs == {"reconstructed: the Mozhaisk Line (14.2A) along the Moscow Sea (Volga reservoir)-"
                     "Volokolamsk-Mozhaisk-Maloyaroslavets-Kaluga, facing west"}


@pytest.mark.case("11.3C", "10.3B")
@pytest.mark.parametrize("sid", ["october-blitz", "campaign"])
def test_11_3C_the_armies_worn_down_since_july_start_with_a_1_loss_marker(m41, sid):
    ctx = scenario_ctx(m41, sid)
    worn = {u["id"] for u in ctx.state.units if u.get("losses")}
    # the rifle divisions of the 16th, 19th, 20th, 24th and 43rd Armies (23 with the 139 RD of errata 0.2.4.9)
    assert len(worn) == 23 and {"s-144rd", "s-139rd", "s-53rd", "s-38rd"} <= worn
    assert all(ctx.state.unit(uid)["losses"] == 1 and uid.endswith("rd") for uid in worn)
    assert not {"s-133rd", "s-252rd", "s-5rd", "s-194rd"} & worn    # 22nd, 29th, 31st, 49th Armies fresh


# ------------------------------------------------------------------------- force ratio and the TEC
@pytest.mark.case("18.1.1")
@pytest.mark.parametrize("sid", ["october-blitz", "campaign"])
def test_the_force_ratio_on_the_map_at_the_start_is_that_of_2_october_1941(m41, sid):
    """Army Group Centre about 1.9 million men against 1.25 million in the Western, Reserve and
    Bryansk Fronts (D. Stahel, Operation Typhoon, 2013): 1.52 : 1, the German counters' provenance.
    The divisions on the map keep the order of battle's proportion (shared/reference/moscow41-oob.md:
    about 74 German divisions against 96 Soviet ones and 13 tank brigades)."""
    ctx = scenario_ctx(m41, sid)
    combat = [u for u in ctx.state.units if u.get("hex") and u["class"] != "hq"]
    strength = {s: sum(u["strength"] for u in combat if u["side"] == s) for s in ("german", "soviet")}
    assert 1.4 <= strength["german"] / strength["soviet"] <= 1.65, strength     # 1.9 / 1.25 = 1.52
    divisions = {s: sum(1 for u in combat if u["side"] == s and u.get("size") == "division")
                 + len({u["division"] for u in combat if u["side"] == s and u.get("division")})   # panzer divisions, 0.2.4.1
                 for s in strength}
    assert 1.1 <= divisions["soviet"] / divisions["german"] <= 1.4, divisions   # 96 / 74 = 1.30
    # 12.3B prints the rifle division at 6: the Soviet side is not what was scaled
    assert {u["strength"] for u in combat if u["type"] == "rifle division"} == {6}


@pytest.mark.case("4.3E", "4.3D")
def test_4_3E_the_mud_column_of_the_tec_repeats_the_dry_column():
    """4.3E: 'The Mud column is the Dry, Mud, and Frozen Conditions value on the TEC': Mud slows by
    the MA halving of 4.3D alone, no longer by dearer terrain as well."""
    def val(cols, c):
        v = cols[c]
        return v["value"] if isinstance(v, dict) else v

    for name in ("tec", "tec_hexside"):
        cells = load_yaml(PACK / "tables" / f"{name}.yaml").data["cells"]
        for terrain, rows in cells.items():
            for unit, cols in rows.items():
                assert val(cols, "mud") == val(cols, "dry"), (name, terrain, unit)
    assert load_yaml(PACK / "tables" / "tec_prohibited.yaml").data["rows"] == []


# ------------------------------------------------------------------------------ the HQs' values
#: the German corps on the map on 2 Oct 1941 and their divisions (shared/reference/moscow41-oob.md;
#: a panzer division is its three regiments' ``division``, 0.2.4.1; "2 Pz?" counted with XXXX as the pack has it)
CORPS_2_OCT = {
    "g-xxiii": ("g-102id", "g-206id", "g-251id", "g-256id"), "g-vi": ("g-6id", "g-26id", "g-110id"),
    "g-viii": ("g-8id", "g-28id", "g-87id"), "g-xxvii": ("g-86id", "g-161id", "g-162id", "g-255id"),
    "g-xxxxi-pz": ("g-1pz", "g-36mot"), "g-lvi-pz": ("g-6pz", "g-7pz", "g-14mot", "g-129id"),
    "g-v": ("g-5id", "g-35id", "g-106id"), "g-vii": ("g-7id", "g-23id", "g-197id", "g-267id"),
    "g-ix": ("g-137id", "g-183id", "g-263id", "g-292id"), "g-xx": ("g-15id", "g-78id", "g-268id"),
    "g-xxxx-pz": ("g-2pz", "g-10pz", "g-ssdr", "g-258id"), "g-xxxxvi-pz": ("g-5pz", "g-11pz", "g-252id"),
    "g-lvii-pz": ("g-19pz", "g-20pz", "g-3mot"), "g-xii": ("g-34id", "g-98id"), "g-xiii": ("g-17id", "g-260id"),
}


@pytest.mark.case("8.3.1A", "0.2.4.7", "0.2.4.8", "2.2C", "6.0A")
def test_8_3_1A_the_german_hq_values_have_their_own_provenance_from_the_order_of_battle():
    """The rulebook prints the command rules (0.2.4.7-8, 8.3.1A, 2.2C) but not the counters' values:
    each German HQ says how its limit, radius and MA were reconstructed, and the figures it names hold —
    limit 3 the median corps (2-4 divisions, a panzer division one stack of three regiments, 6.0A), the
    panzer corps' MA that of the armour it alone activates, every corps' divisions set up within 3 hexes."""
    counters = {u["id"]: u for u in load_yaml(PACK / "counters.yaml").data["units"]}
    hqs = [u for u in counters.values() if u["side"] == "german" and u["class"] == "hq"]
    assert len(hqs) == 19
    for hq in hqs:
        prov = hq["provenance"]
        assert prov.startswith("reconstructed: command limit 3 = the median") and "8.3.1A" in prov, hq["id"]
        assert ("2.2C" in prov) == hq["mechanized"] and ("radius 4" in prov) == hq["mechanized"], hq["id"]
    sizes = sorted(len(divs) for divs in CORPS_2_OCT.values())
    panzer = sorted(len(divs) for hq, divs in CORPS_2_OCT.items() if counters[hq]["mechanized"])
    assert (sizes[len(sizes) // 2], panzer[len(panzer) // 2]) == (3, 3) and panzer == [2, 3, 3, 4, 4]
    assert {hq["limit"] for hq in hqs} == {3}
    mobile = {u["ma"] for u in counters.values() if u["side"] == "german" and u["class"] in ("armor", "mechanized")}
    assert {hq["ma"] for hq in hqs if hq["mechanized"]} == mobile == {8}
    assert {hq["ma"] for hq in hqs if not hq["mechanized"]} == {counters["g-7id"]["ma"]} == {4}
    assert {hq["radius"] for hq in hqs} == {3, 4}
    setup = {u["counter"]: u["hex"] for u in load_yaml(PACK / "scenarios" / "october-blitz.yaml").data["units"]}
    for hq, divs in CORPS_2_OCT.items():
        members = [c for c, u in counters.items() if c in divs or u.get("division") in divs]
        assert len(members) >= len(divs), hq
        far = max(distance(parse_hex(setup[hq]), parse_hex(setup[c]), LAYOUT) for c in members)
        assert far <= 3 <= counters[hq]["radius"], (hq, far)
