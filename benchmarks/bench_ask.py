"""CPU seconds of ``casebook ask`` answers once the game is loaded (issue #18: "a rules question must
answer in well under a second on a small map"). Measured, never asserted.

    python benchmarks/bench_ask.py            # one line per question: first call, then a repeat

Positions: the examples of docs/ask/ (8 x 8 and 12 x 12 inline maps) and the October Blitz setup
(the pack's map). Loading the pack and the position is reported apart: it is the same for every
question (and the CLI's part, not the rules').
"""

from __future__ import annotations

import time
from pathlib import Path

from casebook.content.position import load_position
from casebook.script.engine import load_engine, state_from_position

ROOT = Path(__file__).resolve().parents[1]
CASES = [
    ("docs/examples/vp-endgame.yaml", "vp", [], {}),
    ("games/moscow41/scenarios/october-blitz.yaml", "vp", [], {}),
    ("docs/examples/supply-road.yaml", "supply", None, {}),
    ("docs/examples/attack.yaml", "attack", ["0304"], {"with": ["g1", "g2"], "support": [2, 0]}),
    ("docs/examples/overrun.yaml", "overrun", ["r1", "0404"], {}),
    ("docs/examples/rail.yaml", "rail", ["0106"], {}),
    ("docs/examples/drop.yaml", "drop", ["s-201ab", "0909"], {}),
    ("docs/examples/partisans.yaml", "partisans", ["0106"], {}),
]


def main() -> None:
    t = time.process_time()
    engine = load_engine("moscow41")
    print(f"load moscow41: {time.process_time() - t:.3f} s")
    for path, question, args, options in CASES:
        t = time.process_time()
        pos = load_position(ROOT / path, pack=engine.pack)
        loaded = time.process_time() - t
        state = state_from_position(pos)
        if args is None:  # the first unit of the position
            args = [state.units[0]["id"]]
        times = []
        for _ in range(2):
            ctx = engine.ctx(state)
            t = time.process_time()
            ctx.hook.casebook_answer(ctx=ctx, question=question, args=args, options=options)
            times.append(time.process_time() - t)
        print(f"{path:50} {question:10} position {loaded:.3f} s  first {times[0]:.3f} s  again {times[1]:.3f} s")


if __name__ == "__main__":
    main()
