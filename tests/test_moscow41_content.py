"""The Moscow '41 content pack: charts, counter mix, schedules, scenarios, errata overlays.

Values asserted here are the rulebook's where the text gives them (cited per test); elsewhere the
tests check the shape the reconstructed stand-ins must keep (complete, monotone, consistent).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from casebook.content.loader import load_pack

PACK = Path(__file__).resolve().parent.parent / "games" / "moscow41"
FIVE_TOWNS = {"Kalinin": "3733", "Volokolamsk": "2733", "Mozhaisk": "2032", "Maloyaroslavets": "1435",
              "Kaluga": "0833"}

# Severity of CRT results, mildest first (tables/crt.yaml notes; interpretation crt-result-order).
# A number n lets the defender choose retreat or loss, so "1" is milder for it than a forced "R".
DEFENDER_ORDER = ["-", "F", "1", "R", "F1", "FR", "2", "F2", "3", "F3"]
ATTACKER_ORDER = ["-", "F", "1", "F1", "2"]


def raw(rel: str) -> dict:
    """A pack file as written, before errata (ruamel safe loader)."""
    return YAML(typ="safe").load((PACK / rel).read_text())


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK)


@pytest.fixture(scope="module")
def scenarios(pack):
    return {sid: pack.scenario(sid) for sid in ("october-blitz", "campaign")}


def rows(pack, rid: str) -> list[dict]:
    return list(pack.records[rid])


# ------------------------------------------------------------------------------------- charts
def test_every_table_file_carries_provenance_and_no_value_is_untagged(pack):
    for path in sorted((PACK / "tables").glob("*.yaml")):
        assert str(raw(f"tables/{path.name}").get("provenance", "")).split(":")[0] in (
            "rulebook", "errata", "reconstructed"), path.name
    untagged = {f.path.name: f.counts["untagged"] for f in pack.files if f.counts["untagged"]}
    assert untagged == {}
    listed = {Path(t).name for t in pack.manifest["tables"]}
    assert listed == {p.name for p in (PACK / "tables").glob("*.yaml")}


@pytest.mark.case("10.4.5C", "11.0B")
def test_10_4_5C_crt_rows_cover_2d6_with_the_clamped_drm(pack):
    crt = pack.tables["crt"]
    assert dict(crt.dims)["roll"] == tuple(range(2 - 4, 12 + 4 + 1))
    for odds in dict(crt.dims)["odds"]:
        for roll in dict(crt.dims)["roll"]:
            att, dfn = crt.lookup(odds=odds, roll=roll).split("/")
            assert att in ATTACKER_ORDER and dfn in DEFENDER_ORDER, (odds, roll)
    # attackers never retreat: R only for the defender (11.0B)
    assert not any("R" in crt.lookup(odds=o, roll=r).split("/")[0]
                   for o in dict(crt.dims)["odds"] for r in dict(crt.dims)["roll"])


def test_crt_is_monotone_for_the_attacker(pack):
    """Better odds or a higher roll never gives the attacker a worse result: the attacker's own
    result never gets more severe and the defender's never milder (orders above)."""
    crt = pack.tables["crt"]
    odds, rolls = dict(crt.dims)["odds"], dict(crt.dims)["roll"]

    def rank(o, r):
        att, dfn = crt.lookup(odds=o, roll=r).split("/")
        return ATTACKER_ORDER.index(att), DEFENDER_ORDER.index(dfn)

    for i, o in enumerate(odds):
        for j, r in enumerate(rolls):
            a, d = rank(o, r)
            for o2, r2 in ([(o, rolls[j + 1])] if j + 1 < len(rolls) else []) + (
                    [(odds[i + 1], r)] if i + 1 < len(odds) else []):
                a2, d2 = rank(o2, r2)
                assert a2 <= a and d2 >= d, f"{o2} {r2} is worse for the attacker than {o} {r}"
    # and the table is not flat: the extremes differ
    assert rank(odds[0], rolls[0]) != rank(odds[-1], rolls[-1])


@pytest.mark.case("9.2A", "9.2B", "4.1B", "4.2B", "4.3E", "4.4B", "4.5E", "3.1B")
def test_9_2A_tec_complete_for_every_terrain_class_and_ground(pack):
    tec, side, cols = pack.tables["tec"], pack.tables["tec_hexside"], pack.tables["chart_columns"]
    prohibited = {(r["feature"], r["unit"], r["column"]) for r in rows(pack, "tec_prohibited")}
    terrains = set(pack.map["terrain"].values()) | {"clear", "forest", "swamp", "town", "city", "road", "trail"}
    features = {"river", "major_river", "canal"}
    classes = ["infantry", "cavalry", "armor", "mechanized", "hq", "remnant", "ski", "paratroop"]
    grounds = ["dry", "frozen", "mud", "drying", "snow", "deep_snow"]
    found = set()
    for table, names in ((tec, terrains), (side, features)):
        dim = dict(table.dims)
        assert set(dim) == {"terrain" if table is tec else "feature", "unit", "column"}
        for t in names:
            for c in classes:
                for g in grounds:
                    col = cols.lookup(ground=g)
                    key = "terrain" if table is tec else "feature"
                    v = table.lookup(**{key: t, "unit": c, "column": col})
                    assert (v == 99) == ((t, c, col) in prohibited), (t, c, g, v)
                    assert 0 <= v <= 6 or v == 99, (t, c, g, v)
                    assert v >= 1 or table is side, (t, c, g, v)
                    if v == 99:
                        found.add((t, c, col))
    # the P cells of tec_prohibited and no others (none since session 9: 4.3E makes Mud repeat Dry)
    assert found == prohibited
    # 9.2B: an infantry division entering clear terrain across a river in dry weather pays 1 + 1 = 2 MPs
    assert tec.lookup(terrain="clear", unit="infantry", column="dry") + \
        side.lookup(feature="river", unit="infantry", column="dry") == 2
    assert cols.lookup(ground="drying") == "mud" and cols.lookup(ground="deep_snow") == "snow"


@pytest.mark.case("0.2.3.1", "4.6A", "7.1C", "11.3D", "7.0B")
def test_0_2_3_1_no_zoc_in_arctic_after_errata(pack):
    zoc = pack.tables["zoc_chart"]
    printed = raw("tables/zoc_chart.yaml")["cells"]
    for c in dict(zoc.dims)["unit"]:
        assert zoc.lookup(unit=c, weather="arctic") == "none"
    # the stand-in printed column is what the erratum corrects
    assert printed["infantry"]["arctic"]["value"] != "none"
    assert all(zoc.lookup(unit="remnant", weather=w) == "fluid" for w in ("dry", "frozen", "mud", "snow"))
    assert zoc.lookup(unit="infantry", weather="dry") == "locking"
    assert zoc.lookup(unit="armor", weather="dry") == "fluid"


@pytest.mark.case("4.3B", "4.3C", "4.4A", "4.5A", "4.5B", "3.1B")
def test_4_3B_weather_display_ip_multipliers(pack):
    wd = pack.tables["weather_display"]
    got = {(g, s): Fraction(wd.lookup(ground=g, side=s)) for g, _ in [(g, 0) for g in dict(wd.dims)["ground"]]
           for s in ("german", "soviet")}
    assert got["mud", "german"] == Fraction(1, 2) and got["mud", "soviet"] == Fraction(2, 3)
    assert got["drying", "german"] == Fraction(1, 2)
    assert got["snow", "german"] == Fraction(2, 3)
    assert got["deep_snow", "german"] == Fraction(1, 2) and got["deep_snow", "soviet"] == Fraction(2, 3)
    assert got["dry", "german"] == got["frozen", "soviet"] == 1


# ------------------------------------------------------------------------- turn track, weather
@pytest.mark.case("18.2.2", "0.1.1C", "0.3A")
def test_18_2_2_turn_track_has_31_turns_of_four_days_from_october_1941(pack):
    tt = rows(pack, "turn_track")
    assert [r["turn"] for r in tt] == list(range(1, 32))
    dates = [datetime.date.fromisoformat(r["date"]) for r in tt]
    assert dates[0].year == 1941 and dates[0].month == 10 and dates[0].day <= 7
    assert all((b - a).days == 4 for a, b in zip(dates, dates[1:]))
    assert dates[-1].year == 1942 and dates[-1].month == 1


@pytest.mark.case("1.3B")
def test_1_3B_turn_13_german_bonus_is_the_worked_examples_17(pack):
    assert rows(pack, "turn_track")[12]["german"]["ip"] == 17


def _chance(pack, turn: int, column: str, result: str, extra: int = 0) -> Fraction:
    tt = rows(pack, "turn_track")[turn - 1]
    drm = (tt["temperature_drm"] if column == "temperature" else tt["ground_drm"]) + extra
    wt = pack.tables["weather_table"]
    return Fraction(sum(wt.lookup(column=column, roll=d + drm) == result for d in range(1, 7)), 6)


def test_turn_track_follows_the_historical_weather(pack):
    # mud season mid-October to early November: warm and wet most of the time
    for t in range(3, 10):
        assert _chance(pack, t, "temperature", "warm") >= Fraction(1, 2), t
        assert _chance(pack, t, "precipitation", "precipitation") >= Fraction(1, 2), t
    # hard frost from 7 November (turn 10): rarely warm
    assert rows(pack, "turn_track")[9]["date"] == "1941-11-07"
    for t in range(10, 32):
        assert _chance(pack, t, "temperature", "warm") <= Fraction(1, 6), t
    # severe cold in early December: Arctic at least even odds on turns 16-17
    assert all(_chance(pack, t, "temperature", "arctic") >= Fraction(1, 2) for t in (16, 17))
    gcm = pack.tables["ground_condition_matrix"]
    assert gcm.lookup(precipitation="precipitation", temperature="warm") == "mud"
    assert gcm.lookup(precipitation="none", temperature="cold") == "frozen"


def test_weather_table_covers_every_reachable_roll(pack):
    wt, box = pack.tables["weather_table"], pack.tables["temperature_box"]
    tt = rows(pack, "turn_track")
    rolls = set(dict(wt.dims)["roll"])
    for r in tt:
        assert {d + r["temperature_drm"] for d in range(1, 7)} <= rolls
        for temp in ("warm", "cold", "arctic"):
            assert {d + r["ground_drm"] + box.lookup(temperature=temp) for d in range(1, 7)} <= rolls


@pytest.mark.case("14.1H")
def test_14_1H_fortification_points(m41):
    def fp(turn, kind):
        return m41.rules.value("fp_income", {"fp_kind": kind}, standard={"turn": turn})

    fp = {t: (fp(t, "normal"), fp(t, "moscow")) for t in range(1, 32) if fp(t, "normal") or fp(t, "moscow")}
    assert sorted(fp) == list(range(3, 13))
    assert all(n == 3 for n, _ in fp.values())
    assert {t for t, (_, m) in fp.items() if m} == {5, 6, 7} and all(m == 2 for t, (_, m) in fp.items() if m)


# ------------------------------------------------------------------------------- counter mix
@pytest.mark.case("12.3B", "11.3D", "10.7C", "0.2.4.9E", "0.2.4.1")
def test_counter_values_agree_with_the_text(pack):
    units = pack.counters
    rifle = [u for u in units.values() if u.get("type") == "rifle division" or
             str(u.get("type", "")).startswith("rifle division;")]
    assert len(rifle) > 50 and all(u["strength"] == 6 for u in rifle)          # 12.3B
    remnants = [u for u in units.values() if u["class"] == "remnant"]
    assert remnants and all((u["strength"], u["ma"]) == (1, 4) for u in remnants)  # 11.3D
    assert (units["s-5cd"]["strength"], units["s-5cd"]["ma"]) == (5, 8)           # 0.2.4.9E
    assert all(u["strength"] == 7 for u in units.values() if u.get("guards") and u["size"] == "division"
               and u["class"] == "infantry")                                     # 10.7C: 6 + 1
    divisions = defaultdict(list)
    for u in units.values():
        if u.get("division"):
            divisions[u["division"]].append(u)
    assert len(divisions) >= 12 and all(len(v) == 3 for v in divisions.values())  # 0.2.4.1
    for d, regs in divisions.items():
        assert max(r["strength"] for r in regs) - min(r["strength"] for r in regs) <= 1
        assert all(r["name"].endswith("/" + d.split("-")[1].removesuffix("pz")) for r in regs)
    for u in units.values():
        assert (u["class"] == "hq") == ("radius" in u), u["id"]
        if u["class"] == "hq" and u["side"] == "german":
            assert u["limit"] >= 1                                                # 0.2.4.7
        if u["class"] == "hq" and u["side"] == "soviet":
            assert "limit" not in u                                               # 8.3.2A


@pytest.mark.case("0.2.4.9A", "0.2.4.9B", "0.2.4.9C", "0.2.4.9D", "0.2.4.9E")
def test_0_2_4_9_counter_errata_applied(pack):
    printed = {u["id"]: u for u in raw("counters.yaml")["units"]}
    assert printed["g-17pz-39"]["entry"] == printed["g-17pz-63"]["entry"] == 11
    assert pack.counters["g-17pz-39"]["entry"] == pack.counters["g-17pz-63"]["entry"] == 13
    assert printed["s-340rd"]["name"] == "40 RD" and pack.counters["s-340rd"]["name"] == "340 RD"
    for uid in ("s-139rd", "s-101mrd", "s-55rb", "s-5cd"):
        assert uid not in printed and uid in pack.counters


@pytest.mark.case("0.2.3.2", "0.2.3.3B", "0.2.4.9A")
def test_0_2_3_schedule_errata_applied(pack):
    sched = {r["unit"]: r for r in rows(pack, "reinforcements")}
    for uid in ("g-4pz-12", "g-4pz-33", "g-4pz-35"):
        assert (sched[uid]["turn"], sched[uid]["area"]) == (8, "B")
        assert "(1F)" in pack.counters[uid]["type"]
    assert sched["s-312rd"]["turn"] == 4 and pack.counters["s-312rd"]["entry"] == 4
    assert {r["unit"]: r["turn"] for r in raw("tables/reinforcements.yaml")["rows"]}["s-312rd"] == 27
    assert "s-9cd" not in sched and "s-9cd" in pack.counters
    assert sched["g-17pz-39"]["turn"] == sched["g-17pz-63"]["turn"] == 13


def test_every_unit_in_a_setup_or_schedule_exists_and_entries_agree(pack, scenarios):
    sched = rows(pack, "reinforcements")
    for r in sched + rows(pack, "withdrawals"):
        assert r["unit"] in pack.counters, r
    for pos in scenarios.values():
        for u in pos.units:
            assert u.counter in pack.counters, u.id
            assert "entry" not in pack.counters[u.counter], u.id
    seen = [r["unit"] for r in sched]
    assert len(seen) == len(set(seen))
    for r in sched:
        assert pack.counters[r["unit"]]["entry"] == r["turn"], r
        assert r.get("area") in (None, *pack.map["entry_areas"])
    scheduled = set(seen)
    unscheduled = {u["id"] for u in pack.counters.values() if u.get("entry") is not None} - scheduled
    assert unscheduled == {"s-9cd"}                                                # 0.2.3.3B
    for r in rows(pack, "withdrawals"):
        assert pack.counters[r["unit"]]["withdraw"] == r["turn"]                  # 0.2.4.3
        assert (pack.counters[r["unit"]]["type"], pack.counters[r["unit"]]["strength"]) == (r["type"], r["strength"])


@pytest.mark.case("0.3B")
def test_0_3B_shaded_turns_cover_the_schedules(pack):
    tt = {r["turn"]: r["shaded"] for r in rows(pack, "turn_track")}
    for r in rows(pack, "reinforcements") + rows(pack, "withdrawals"):
        assert tt[r["turn"]][r["side"]], r


# -------------------------------------------------------------------------------- scenarios
def _points(pack, uid: str) -> int:
    u = pack.counters[uid]
    if u["class"] == "hq":
        return 0                                                                  # 6.1
    if u["side"] == "german":
        return 3 if u.get("size") == "division" else 1                           # 6.0A
    return 2 if u.get("size") == "division" else 1                               # 6.0B


@pytest.mark.case("6.0A", "6.0B", "6.1")
def test_6_0_setup_respects_stacking(pack, scenarios):
    for sid, pos in scenarios.items():
        stacks = defaultdict(list)
        for u in pos.units:
            stacks[u.hex].append(u.counter)
        for h, ids in stacks.items():
            sides = {pack.counters[i]["side"] for i in ids}
            assert len(sides) == 1, (sid, h, ids)
            limit = 4 if sides == {"german"} else 5
            assert sum(_points(pack, i) for i in ids) <= limit, (sid, h, ids)
            if sides == {"soviet"}:
                assert sum(pack.counters[i].get("size") == "division" for i in ids) <= 2
            first = (pack.map.get("first") or {}).get("row", 1)
            assert 1 <= int(h[:2]) <= pack.map["size"]["columns"], (sid, h)
            assert first <= int(h[2:]) < first + pack.map["size"]["rows"], (sid, h)


@pytest.mark.case("0.2.3.3A")
def test_0_2_3_3A_252_rd_sets_up_in_3111(scenarios):
    for sid, pos in scenarios.items():
        assert [u.hex for u in pos.units if u.counter == "s-252rd"] == ["3111"], sid
        printed = [u for u in raw(f"scenarios/{sid}.yaml")["units"] if u["counter"] == "s-252rd"]
        assert printed[0]["hex"] != "3111"


@pytest.mark.case("18.1.1", "18.2.1")
def test_18_2_1_setup_on_the_historical_front(pack, scenarios):
    camp, blitz = scenarios["campaign"], scenarios["october-blitz"]
    assert [(u.counter, u.hex) for u in camp.units] == [(u.counter, u.hex) for u in blitz.units]
    cols = int(pack.map["size"]["columns"])
    west, east = defaultdict(list), defaultdict(list)
    for u in camp.units:
        col, row = int(u.hex[:2]), int(u.hex[2:])
        assert 1 <= col <= cols
        (west if u.side == "german" else east)[col].append(row)
    for col in west.keys() & east.keys():
        assert max(west[col]) < min(east[col]), col
    towns = {t["name"]: h for h, t in pack.map["towns"].items()}
    assert camp.control[towns["Smolensk"]] == "german" and camp.control[towns["Vyazma"]] == "soviet"
    assert camp.control[towns["Bely"]] == "soviet" and camp.control[towns["Roslavl"]] == "german"


@pytest.mark.case("18.1.2", "18.1.3A", "18.1.3B", "18.1.3D", "18.2.2", "18.2.4A", "17.4")
def test_18_scenario_blocks(pack, scenarios):
    blitz, camp = scenarios["october-blitz"], scenarios["campaign"]
    assert (blitz.scenario.first_turn, blitz.scenario.last_turn) == (1, 4)
    assert (camp.scenario.first_turn, camp.scenario.last_turn) == (1, 31)
    g = {c["id"]: c for c in blitz.scenario.victory["german"]}
    assert dict(zip(g["three-towns"]["names"], g["three-towns"]["hexes"])) == FIVE_TOWNS
    assert g["three-towns"]["at_least"] == 3 and g["enter-moscow"]["when"] == "instant"
    towns = {h: t["name"] for h, t in pack.map["towns"].items()}
    assert all(towns[h] == n for n, h in FIVE_TOWNS.items())
    s = {c["id"]: c for c in blitz.scenario.victory["soviet"]}
    assert s["enter-smolensk"]["town"] in towns.values()
    levels = camp.scenario.victory["levels"]["by_difference"]
    assert [(lv.get("min"), lv.get("max"), lv["level"]) for lv in levels] == [
        (0, 6, "draw"), (7, 12, "marginal"), (13, 18, "decisive"), (19, None, "strategic")]
    assert camp.scenario.victory["terrain"]["vp_per_ip"] == 2 and camp.scenario.victory["moscow"]["vp_per_hex"] == 5
    for pos in (blitz, camp):
        assert (pos.weather.temperature, pos.weather.ground) == ("warm", "dry")
        for name, value in pos.settings.items():
            setting = next(i["setting"] for i in pack.interpretations.values()
                           if i.get("setting", {}).get("name") == name)
            assert value in setting["choices"]


def test_interpretations_register_lists_the_known_flaws(pack):
    ids = set(pack.interpretations)
    assert {"ip-weather-multiplier-scope", "ip-example-arithmetic", "sequence-case-references",
            "hedgehog-second-d", "reaction-cost", "mark-1f", "mark-1"} <= ids
    for i in pack.interpretations.values():
        assert i["cases"] and i["question"] and i["reading"]
        assert all(c in pack.cases for c in i["cases"]), i["id"]
