"""Per-turn probe of a Blitz game (drive16): force marches, attacks (on the five towns or not),
IPs of support, and the towns held at each turn's end. Usage: probe_turns.py SEED planner|greedy"""

import collections
import sys
import time

from casebook.core.game import Game
from casebook.tools.bots import make_bot
from casebook.tools.planner import PlannerBot

FIVE = ("3733", "2733", "2032", "1435", "0833")


def main() -> None:
    seed, soviet = int(sys.argv[1]), sys.argv[2]
    game = Game.load("moscow41", "october-blitz")
    st = game.new_initial_state(seed)
    bots = {"german": PlannerBot("german", seed),
            "soviet": PlannerBot("soviet", seed) if soviet == "planner" else make_bot("greedy", "soviet", seed)}
    started, n, turn = time.time(), collections.Counter(), None

    def held() -> str:
        return f"held={[h for h in FIVE if st.data.control(h) == 'german']}"

    while not st.is_terminal():
        if st.data.turn != turn:
            if turn is not None:
                print("end T", turn, held(), dict(n))
                n.clear()
            turn = st.data.turn
            print("T", turn, st.data.weather)
        a = bots[st.current_player()].choose(st)
        if a.kind == "force-march":
            n[("fm", a.side)] += 1
        if a.kind == "attack":
            n[("att", a.side, a.get("hex") in FIVE)] += 1
            if a.get("support"):
                n[("ips", a.side)] += int(a.get("support"))
        st.apply(a)
        if a.kind == "attack" and a.side == "german" and a.get("hex") in FIVE:
            last = [(e.kind, e.data.get("result")) for e in st.trace if "result" in (e.data or {})][-1:]
            print("  town attack", a.get("hex"), len(a.get("with") or ()), a.get("support"), last)
    print("end T", turn, held(), dict(n))
    print(st.result(), round(time.time() - started))


if __name__ == "__main__":
    main()
