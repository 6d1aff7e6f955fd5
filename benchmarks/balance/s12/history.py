"""The October Blitz's turns against the dates of the rulebook's history (session 12, issue #16).

    python benchmarks/balance/s12/history.py [PACK_DIR]

Reads the pack's Turn Track (tables/turn_track.yaml: each turn's first day, Ground Mod.) and places on
it the dated events of the rulebook's history (Part 19, each with its case) and of the shared
reference's chronology (/work/shared/reference/moscow41-oob.md, "Key dates"), then says which of the
five towns of 18.1.3A had fallen by the end of each turn — the historical par of the scenario.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import yaml

TOWNS = ("Kalinin", "Volokolamsk", "Mozhaisk", "Maloyaroslavets", "Kaluga")
#: (first day, last day, what, source) — the rulebook's words, or the reference's dates
EVENTS = [
    ("1941-10-02", "1941-10-02", "the main German attack (Typhoon's northern and central wings)", "rulebook: 19.0E"),
    ("1941-10-06", "1941-10-06", "56th Panzer Corps cuts the Vyazma-Moscow highway", "rulebook: 19.0G"),
    ("1941-10-07", "1941-10-07", "the Vyazma pocket closes; 'elements of Panzer Gruppe 3 were at Mozhaisk'", "rulebook: 19.0G"),
    ("1941-10-07", "1941-10-07", "snow at Bryansk and Mozhaisk; it melts into 'rivers of mud'", "rulebook: 19.0J, 19.1A"),
    ("1941-10-08", "1941-10-10", "'the front before Moscow was a sea of mud'", "rulebook: 19.1E"),
    ("1941-10-11", "1941-10-11", "a minor cold snap hardens the ground in some sectors; the advance resumes", "rulebook: 19.1E"),
    ("1941-10-12", "1941-10-13", "Kaluga falls ('by mid-October', 19.1D)", "reference: moscow41-oob.md (Kaluga 12-13 Oct)"),
    ("1941-10-14", "1941-10-14", "Kalinin taken by Model's battle group 'against almost no resistance'", "rulebook: 19.1F"),
    ("1941-10-15", "1941-10-21", "third week: 'slow progress and heavy fighting' at Maloyaroslavets and Mozhaisk", "rulebook: 19.1F"),
    ("1941-10-18", "1941-10-18", "Mozhaisk and Maloyaroslavets fall", "reference: moscow41-oob.md"),
    ("1941-10-27", "1941-10-27", "Volokolamsk falls", "reference: moscow41-oob.md"),
]
FALLS = {"Kaluga": "1941-10-13", "Kalinin": "1941-10-14", "Mozhaisk": "1941-10-18",
         "Maloyaroslavets": "1941-10-18", "Volokolamsk": "1941-10-27"}  # the last day of each fall above


def main() -> None:
    pack = Path(sys.argv[1] if len(sys.argv) > 1 else "games/moscow41")
    track = yaml.safe_load((pack / "tables" / "turn_track.yaml").read_text(encoding="utf-8"))
    print(f"Turn Track: {track['provenance']}")
    rows = {r["turn"]: r for r in track["rows"]}
    day = dt.timedelta(days=1)
    print("\nturn | days | Ground Mod. | the history (source) | towns of 18.1.3A fallen by the turn's end")
    for turn in range(1, 8):
        first = dt.date.fromisoformat(rows[turn]["date"])
        last = dt.date.fromisoformat(rows[turn + 1]["date"]) - day
        seen = [f"{what} ({src})" for a, b, what, src in EVENTS
                if dt.date.fromisoformat(a) <= last and dt.date.fromisoformat(b) >= first]
        fallen = [t for t in TOWNS if dt.date.fromisoformat(FALLS[t]) <= last]
        tag = " (the Blitz's last turn, 18.1.2)" if turn == 4 else ""
        print(f"{turn}{tag} | {first:%d %b}-{last:%d %b} | {rows[turn]['ground_drm']:+d} | "
              f"{'; '.join(seen) or '-'} | {len(fallen)}: {', '.join(fallen) or '-'}")
    end4 = dt.date.fromisoformat(rows[5]["date"]) - day
    third = sorted(FALLS.values())[2]
    print(f"\nThe Blitz ends on {end4:%d %b} (Turn 4's last day); the third town fell on {third}: "
          f"{(dt.date.fromisoformat(third) - end4).days} day(s) after it. Historical par at the end: "
          f"{sum(1 for d in FALLS.values() if dt.date.fromisoformat(d) <= end4)} of the 3 towns 18.1.3A asks for.")


if __name__ == "__main__":
    main()
