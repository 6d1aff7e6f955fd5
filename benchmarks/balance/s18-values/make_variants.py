"""Write session 18's one-value variant packs (BALANCE.md "Session 18"): copies of games/moscow41
with one reconstructed value changed each, for `casebook batch DIR/NAME october-blitz`.

    python benchmarks/balance/s18-values/make_variants.py /work/wt/values18-variants [NAME ...]

- ``pzlimit4``: the five starting panzer corps HQs' command limit (0.2.4.7, 8.3.1A) 3 -> 4 (counters.yaml);
- ``t4ground2``: the Turn Track's Turn 4 Ground Mod. (0.3A, 3.0) +3 -> +2 (tables/turn_track.yaml);
- ``pzradius5``: the five starting panzer corps HQs' command radius (0.2.4.8, 8.1A) 4 -> 5 (counters.yaml);
- ``t4ground0``: the Turn Track's Turn 4 Ground Mod. +3 -> 0 (tables/turn_track.yaml; odds only, not played);
- ``pzma9``: the German armor and mechanized counters' MA 8 -> 9 (counters.yaml; the HQs keep 8).

Nothing else changes (XXIV and XXXXVII Pz enter on Turns 8 and 13, after the Blitz); the copies
are not shipped (the diffs: ``*.diff`` beside this file).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

__all__ = ["make_variants"]

PACK = Path(__file__).resolve().parents[3] / "games" / "moscow41"


def _edit(path: Path, old: str, new: str, count: int) -> None:
    """Replace ``old`` by ``new`` in ``path``; ValueError unless it occurs exactly ``count`` times."""
    text = path.read_text()
    if text.count(old) != count:
        raise ValueError(f"{path}: {old!r} occurs {text.count(old)} times, expected {count}")
    path.write_text(text.replace(old, new))


EDITS = {
    "pzlimit4": ("counters.yaml", 'radius: 4, limit: 3, mechanized: true, type: "panzer corps HQ"',
                 'radius: 4, limit: 4, mechanized: true, type: "panzer corps HQ"', 5),
    "pzradius5": ("counters.yaml", 'radius: 4, limit: 3, mechanized: true, type: "panzer corps HQ"',
                  'radius: 5, limit: 3, mechanized: true, type: "panzer corps HQ"', 5),
    "t4ground2": ("tables/turn_track.yaml", '{turn: 4, date: "1941-10-14", temperature_drm: -1, ground_drm: 3,',
                  '{turn: 4, date: "1941-10-14", temperature_drm: -1, ground_drm: 2,', 1),
    "t4ground0": ("tables/turn_track.yaml", '{turn: 4, date: "1941-10-14", temperature_drm: -1, ground_drm: 3,',
                  '{turn: 4, date: "1941-10-14", temperature_drm: -1, ground_drm: 0,', 1),
}
MOBILE = ('class: "armor"', 'class: "mechanized"')


def _faster(path: Path) -> None:
    """``pzma9``: every German armor / mechanized counter's ``ma: 8`` -> ``ma: 9``; ValueError if none."""
    lines = path.read_text().splitlines(True)
    out = [line.replace("ma: 8,", "ma: 9,", 1) if 'side: "german"' in line and any(m in line for m in MOBILE)
           else line for line in lines]
    if out == lines:
        raise ValueError(f"{path}: no German armor or mechanized counter with ma: 8")
    path.write_text("".join(out))


def make_variants(out: Path, names: list[str] | None = None) -> list[Path]:
    """Copy the pack once a variant under ``out`` and edit each copy; the copies' paths."""
    made = []
    for name in names or [*EDITS, "pzma9"]:
        target = out / name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(PACK, target, ignore=shutil.ignore_patterns("golden", "tests", "__pycache__"))
        made.append(target)
        if name == "pzma9":
            _faster(target / "counters.yaml")
            continue
        path, old, new, count = EDITS[name]
        _edit(target / path, old, new, count)
    return made


if __name__ == "__main__":
    for path in make_variants(Path(sys.argv[1] if len(sys.argv) > 1 else "variants"), sys.argv[2:]):
        print(path)
