"""An ``ask`` with a warm compiled-pack cache imports neither networkx nor lark (issue #18): the
board's graph is built only when read and rule scripts are parsed only on a cache miss."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLITZ = ROOT / "games/moscow41/scenarios/october-blitz.yaml"
_PROBE = (
    "import sys\n"
    "from casebook.tools.cli import main\n"
    "try:\n"
    "    main(['ask', sys.argv[1], *sys.argv[2:]])\n"
    "finally:\n"
    "    print('MODULES', 'networkx' in sys.modules, 'lark' in sys.modules)\n"
)


def _ask(cache: Path, *question: str) -> str:
    env = {**os.environ, "CASEBOOK_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(BLITZ), *question], env=env,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_warm_ask_imports_neither_networkx_nor_lark(tmp_path):
    cache = tmp_path / "cache"
    first = _ask(cache, "weather")  # fills the cache: the scripts are parsed (lark) here
    assert "MODULES" in first
    for question in (("supply", "g-1pz-1"), ("reach", "g-xxxxi-pz"), ("zoc", "2712")):
        out = _ask(cache, *question)
        assert out.rstrip().splitlines()[-1] == "MODULES False False", (question, out[-500:])
        assert "g-" in out or "2712" in out  # a real answer was printed
