"""Write the three variant packs of BALANCE.md (session 6): copies of games/moscow41 with one
reconstructed value changed each, for `casebook batch DIR/NAME october-blitz`.

    python benchmarks/balance/s6/make_variants.py /tmp/var

- ``ma12``: German armor and mechanized counters' MA 8 -> 12 (counters.yaml);
- ``crt``: each CRT odds column takes the cells of the next higher one (tables/crt.yaml);
- ``wx``: Turns 2-4 ground DRM -3 on the Turn Track (tables/turn_track.yaml): Dry.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

__all__ = ["make_variants"]

PACK = Path(__file__).resolve().parents[3] / "games" / "moscow41"
COLUMNS = ["1:3", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1", "5:1", "6:1"]


def make_variants(out: Path) -> list[Path]:
    """Copy the pack three times under ``out`` and edit each copy; the copies' paths."""
    made = []
    for name in ("ma12", "crt", "wx"):
        target = out / name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(PACK, target, ignore=shutil.ignore_patterns("golden"))
        made.append(target)
    counters = out / "ma12" / "counters.yaml"
    lines = [line.replace("ma: 8", "ma: 12")
             if 'side: "german"' in line and ('class: "armor"' in line or 'class: "mechanized"' in line)
             else line for line in counters.read_text().splitlines(True)]
    counters.write_text("".join(lines))
    crt = out / "crt" / "tables" / "crt.yaml"
    text = crt.read_text()
    cells = {c: re.search(rf'^  "{re.escape(c)}": (\{{.*\}})$', text, re.M).group(1)  # type: ignore[union-attr]
             for c in COLUMNS}
    for low, high in zip(COLUMNS, COLUMNS[1:]):
        text = text.replace(f'  "{low}": {cells[low]}', f'  "{low}": {cells[high]}', 1)
    crt.write_text(text)
    track = out / "wx" / "tables" / "turn_track.yaml"
    track.write_text("".join(re.sub(r"ground_drm: -?\d+", "ground_drm: -3", line)
                             if re.match(r"  - \{turn: [234],", line) else line
                             for line in track.read_text().splitlines(True)))
    return made


if __name__ == "__main__":
    for path in make_variants(Path(sys.argv[1] if len(sys.argv) > 1 else "variants")):
        print(path)
