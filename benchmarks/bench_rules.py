"""Speed of rule-script evaluation: ``attack_drm`` compiled from games/moscow41/rules/combat.rules against
the same computation hand-written in Python. Not a timed test; figures only.

    pytest benchmarks/bench_rules.py -s          # pytest-benchmark table, then the ratios
    python benchmarks/bench_rules.py             # timeit figures and the ratios
"""

from __future__ import annotations

import timeit

import pytest

from casebook.script.engine import load_engine

ENGINE = load_engine("moscow41")
RULES = ENGINE.rules
#: the tables the scripts read (the support DRM reads the IP chart, tables/ip_costs.yaml)
TABLES = ENGINE.script_tables

FACTS = {
    "ground": "snow", "temperature": "arctic", "attacker_side": "german", "defender_side": "soviet",
    "attacker_support_ips": 4, "defender_support_ips": 3, "whole_division": True,
    "attackers": [
        {"class": "armor", "fatigued": False, "supplied": True, "overstacked": False,
         "across_river": True, "across_fortification": False},
        {"class": "infantry", "fatigued": True, "supplied": True, "overstacked": False,
         "across_river": True, "across_fortification": False},
    ],
    "defenders": [{"class": "infantry", "hedgehog": False}],
}


def attack_drm_by_hand(f) -> int:
    """The attack DRM of combat.rules, written directly in Python (same terms, same order)."""
    total = 0
    a, d = f["attackers"], f["defenders"]
    if f["ground"] in ("mud", "drying"):
        total -= 2
    severe = []
    all_ski = all(x["class"] == "ski" for x in a)
    if f["ground"] == "snow" and not all_ski:
        severe.append(-1)
    if f["ground"] == "deep_snow" and not all_ski:
        severe.append(-2)
    if f["temperature"] == "arctic":
        severe.append(-4 if f["attacker_side"] == "german" else -3)
    if severe:
        total += min(severe)
    if any(x["class"] in ("armor", "mechanized") for x in a):
        total += 2
    if any(x["class"] in ("armor", "mechanized") for x in d):
        total -= 2
    if f["attacker_support_ips"] > 0:
        total += f["attacker_support_ips"] // (2 if f["attacker_side"] == "german" else 3)
    if f["defender_support_ips"] > 0:
        total -= f["defender_support_ips"] // (2 if f["defender_side"] == "german" else 3)
    if any(x["overstacked"] for x in a):
        total -= 1
    if any(x["fatigued"] for x in a):
        total -= 1
    if any(not x["supplied"] for x in a):
        total -= 2
    if f["whole_division"] and f["attacker_side"] == "german":
        total += 2
    fort = any(x["across_fortification"] for x in a)
    if fort:
        total -= 1
    if any(x["hedgehog"] for x in d) and not fort:
        total -= 1
    if all(x["across_river"] for x in a):
        total -= 1
    return max(-4, min(4, total))


def test_same_value():
    assert RULES.value("attack_drm", FACTS, TABLES) == attack_drm_by_hand(FACTS)
    assert RULES.explain("attack_drm", FACTS, TABLES).value == attack_drm_by_hand(FACTS)


_STATS: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    if {"hand", "script"} <= _STATS.keys():
        print(f"\nattack_drm: script value / hand-written = {_STATS['script'] / _STATS['hand']:.1f}x")
    if {"hand", "explain"} <= _STATS.keys():
        print(f"attack_drm: script explain / hand-written = {_STATS['explain'] / _STATS['hand']:.1f}x")


def test_bench_hand_written(benchmark):
    benchmark(attack_drm_by_hand, FACTS)
    _STATS["hand"] = benchmark.stats.stats.mean


def test_bench_script_value(benchmark):
    benchmark(RULES.value, "attack_drm", FACTS, TABLES)
    _STATS["script"] = benchmark.stats.stats.mean


def test_bench_script_explain(benchmark):
    benchmark(RULES.explain, "attack_drm", FACTS, TABLES)
    _STATS["explain"] = benchmark.stats.stats.mean


if __name__ == "__main__":
    n = 20000
    hand = min(timeit.repeat(lambda: attack_drm_by_hand(FACTS), number=n, repeat=5)) / n
    script = min(timeit.repeat(lambda: RULES.value("attack_drm", FACTS, TABLES), number=n, repeat=5)) / n
    explain = min(timeit.repeat(lambda: RULES.explain("attack_drm", FACTS, TABLES), number=n // 10, repeat=5)) / (n // 10)
    print(f"hand-written  {hand * 1e6:8.2f} µs")
    print(f"script value  {script * 1e6:8.2f} µs   ({script / hand:.1f}x)")
    print(f"script explain{explain * 1e6:8.2f} µs   ({explain / hand:.1f}x)")
