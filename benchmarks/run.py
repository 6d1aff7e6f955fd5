"""Run every benchmark of issue #9 and print the table of BENCHMARKS.md (``--write`` puts it there).

    python benchmarks/run.py [--campaign] [--write]

Figures 1–3 are pytest-benchmark runs (medians of many rounds) of an engine function against a
baseline doing the same job; figure 4 and 5 come from ``bench_engine.py`` (figure 5 plays each
game in a fresh process; ``--campaign`` adds the two 31-turn Campaign games, which take longest).
Nothing here is asserted: a missed target is reported as such in the table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: figure -> (what, benchmark file, engine test, baseline test, target ratio)
RATIOS = {
    1: ("supply status of every German unit, October Blitz setup, vs one networkx "
        "multi_source_dijkstra (cutoff 8)", "bench_supply.py", "test_bench_supply_cold",
        "test_bench_networkx_multi_source", 2.0),
    2: ("reachable hexes of one panzer stack (terrain, ZOC, stacking) vs a plain Dijkstra",
        "bench_reach.py", "test_bench_engine_reach", "test_bench_plain_dijkstra", 2.0),
    3: ("compiled `attack_drm` vs the same expression hand-written", "bench_rules.py",
        "test_bench_script_value", "test_bench_hand_written", 3.0),
}

#: figure -> more rows of the same file against the same baseline: (test, what)
EXTRA = {
    1: (("test_bench_supply_after_move", "the same after one German unit stepped (a new placement; "
         "the searches of earlier placements kept and reused where the move left them unchanged)"),
        ("test_bench_supply_warm", "the same for a new state version with an unchanged placement")),
}

#: figure 5 targets: wall seconds (greedy vs greedy) per scenario, peak MB for all
WALL_TARGET = {"october-blitz": 2.0, "campaign": 10.0}
PEAK_TARGET_MB = 200.0


def _medians(bench_file: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        cmd = [sys.executable, "-m", "pytest", str(HERE / bench_file), "-q", "-p", "no:cacheprovider",
               "--benchmark-only", f"--benchmark-json={out}"]
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if not out.exists():
            raise RuntimeError(f"{bench_file} did not run:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        data = json.loads(out.read_text())
    return {b["name"]: b["stats"]["median"] for b in data["benchmarks"]}


def _fmt_s(s: float) -> str:
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else (f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def table(campaign: bool) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows = ["| # | figure | engine | baseline | ratio / value | target | met |",
            "|---|---|---|---|---|---|---|"]
    for n, (what, file, engine, base, target) in RATIOS.items():
        if not (HERE / file).exists():
            rows.append(f"| {n} | {what} | – | – | not measured ({file} missing) | ≤ {target:g}× | – |")
            continue
        med = _medians(file)
        e, b = med.get(engine), med.get(base)
        if e is None or b is None:
            rows.append(f"| {n} | {what} | – | – | not measured (tests {engine}/{base}) | ≤ {target:g}× | – |")
            continue
        r = e / b
        rows.append(f"| {n} | {what} | {_fmt_s(e)} | {_fmt_s(b)} | {r:.1f}× | ≤ {target:g}× | "
                    f"{'yes' if r <= target else 'no'} |")
        for test, label in EXTRA.get(n, ()):
            x = med.get(test)
            if x is not None:
                rows.append(f"| {n} | {label} | {_fmt_s(x)} | {_fmt_s(b)} | {x / b:.1f}× | – | – |")
    sys.path.insert(0, str(HERE))
    import bench_engine

    lr = bench_engine.legal_rates()
    rows.append(f"| 4 | legal actions per second at a typical Movement Step (cold / in play) | "
                f"{lr['actions']} actions in {_fmt_s(lr['cold_s'])} | – | "
                f"{lr['cold_per_s']:.0f}/s cold, {lr['play_per_s']:.0f}/s in play | – | – |")
    for g in bench_engine.games(campaign):
        target = WALL_TARGET[g["scenario"]] if g["bot"] == "greedy" else None
        met = [g["peak_mb"] <= PEAK_TARGET_MB] + ([g["wall_s"] <= target] if target else [])
        rows.append(
            f"| 5 | {g['scenario']}, {g['bot']} vs {g['bot']}, seed {g['seed']}: {g['actions']} "
            f"actions, turn {g['turn']}, {g['winner'] or 'nobody'} {g['level'] or ''} | "
            f"{g['wall_s']:.1f} s, {g['peak_mb']:.0f} MB peak | – | pack load {g['load_s']:.1f} s apart | "
            f"{f'≤ {target:g} s, ' if target else ''}≤ {PEAK_TARGET_MB:g} MB | "
            f"{'yes' if all(met) else 'no'} |")
    legend = [
        "", "Ratios are engine ÷ baseline (medians). Targets are issue #9's for a 2-core machine.",
        "Figure 4: *cold* lists the legal actions with the per-state caches emptied (as after loading a",
        "position); *in play* is what a bot sees over the next 20 actions of the game (apply plus listing).",
        "Figure 5: one game per fresh process; wall time excludes loading the pack; peak memory is the",
        "process's maximum resident set. Figures taken on a busy machine run slower: note the load.",
    ]
    return "\n".join([f"Machine: {machine()}; load average {load:.1f} when the run started.", "",
                      *rows, *legend])


def write(text: str, campaign: bool) -> None:
    """Put ``text`` between the markers of BENCHMARKS.md; without ``campaign`` the Campaign rows
    of the table there are kept (marked as from an earlier run) rather than dropped."""
    path = ROOT / "BENCHMARKS.md"
    doc = path.read_text(encoding="utf-8")
    if not campaign:
        old = re.search(r"<!-- bench:start -->.*?<!-- bench:end -->", doc, flags=re.S)
        kept = [ln if ln.endswith("(earlier run) |") else ln[:-2] + " (earlier run) |"
                for ln in (old.group(0).splitlines() if old else []) if ln.startswith("| 5 | campaign")]
        if kept:
            lines = text.splitlines()
            last = max(i for i, ln in enumerate(lines) if ln.startswith("| "))
            text = "\n".join(lines[:last + 1] + kept + lines[last + 1:])
    block = f"<!-- bench:start -->\n{text}\n<!-- bench:end -->"
    if "<!-- bench:start -->" in doc:
        doc = re.sub(r"<!-- bench:start -->.*?<!-- bench:end -->", lambda _m: block, doc, flags=re.S)
    else:
        doc += "\n" + block + "\n"
    path.write_text(doc, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--campaign", action="store_true", help="also play the two Campaign games")
    ap.add_argument("--write", action="store_true", help="replace the table in BENCHMARKS.md")
    args = ap.parse_args()
    text = table(args.campaign)
    print(text)
    if args.write:
        write(text, args.campaign)


if __name__ == "__main__":
    main()
