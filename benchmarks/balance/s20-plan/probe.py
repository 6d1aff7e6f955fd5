"""Session 20 probe (issue #16, branch plan20): after each half-turn of a seeded October Blitz game, where
the German armor and mechanized stacks stand (hexes from Vyazma 1722, the bot_plan objective), who controls Vyazma,
how many Soviet stacks and strength points are out of supply (the supply plugin's answer, 5.2/5.4) and how
many Soviet units were eliminated.

    python benchmarks/balance/s20-plan/probe.py --seed 1 [--german planner] [--soviet greedy] [--turns 2]
    PYTHONPATH=/work/main/src python …/probe.py --seed 1 --pack /work/main/games/moscow41   # main's code and pack

One JSON line per half-turn end (``T1G``: after the German half of Turn 1), played by session 18's loop
(``s18-pocket/reading.py``), as ``casebook batch`` plays.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from casebook.core.hexgrid import distance, parse_hex
from casebook.tools.batch import load_game

_SPEC = importlib.util.spec_from_file_location("reading", Path(__file__).parents[1] / "s18-pocket" / "reading.py")
assert _SPEC is not None and _SPEC.loader is not None
reading = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(reading)  # session 18's probe: its game loop, NON_COMBAT, SEEN and _s
NON_COMBAT, SEEN, _s = reading.NON_COMBAT, reading.SEEN, reading._s
TARGET = "1722"


def snapshot(state: Any) -> dict[str, Any]:
    ctx = state.ctx()
    layout = ctx.board.grid.layout
    mech: dict[str, float] = {}
    sov: dict[str, list[Any]] = {}
    for u in state.data.units:
        if not u.get("hex") or u.get("class") in NON_COMBAT:
            continue
        if u.get("side") == "german" and u.get("class") in ("armor", "mechanized"):
            mech[u["hex"]] = mech.get(u["hex"], 0.0) + _s(u)
        elif u.get("side") == "soviet":
            sov.setdefault(u["hex"], []).append(u)
    oos, oos_s = 0, 0.0
    for _h, us in sorted(sov.items()):
        a = ctx.hook.casebook_supply(ctx=ctx, unit=us[0]["id"])
        if not (a or {}).get("in_supply", True):
            oos, oos_s = oos + 1, oos_s + sum(_s(u) for u in us)
    SEEN.update(u["id"] for u in state.data.units if u.get("side") == "soviet")
    gone = sum(1 for r in state.data.removed if r.get("unit") in SEEN and r.get("reason") == "eliminated")
    near = sorted((distance(parse_hex(h), parse_hex(TARGET), layout), h, s) for h, s in mech.items())
    return {"vyazma": state.data.control(TARGET), "mech_within_3": sum(1 for d, _, _ in near if d <= 3),
            "mech_nearest": near[:6], "sov_oos_stacks": oos, "sov_oos_strength": oos_s, "sov_eliminated": gone}


def main() -> None:
    """Session 18's game loop (``s18-pocket/reading.py``: the same bots and seed as ``casebook batch``) with
    this probe's snapshot, the Soviet side greedy by default, two turns and ``--pack``."""
    pack = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--pack"), "moscow41")
    args = [a for i, a in enumerate(sys.argv[1:], 1) if a != "--pack" and sys.argv[i - 1] != "--pack"]
    sys.argv = [sys.argv[0], "--soviet", "greedy", "--turns", "2", *args]  # later options win
    reading.snapshot, reading.load_game = snapshot, lambda _game, scenario: load_game(pack, scenario)
    reading.main()


if __name__ == "__main__":
    main()
