"""Process settings for a program that loads a game and plays it: the tools' garbage collection.

A game allocates millions of short-lived objects (actions, answers, search tables) next to a large
body that lives as long as the process (the loaded pack, its board, the compiled rule scripts).
Python's cycle collector walks all of them each time its oldest generation is collected, which
took about a fifth of a whole game's time. :func:`tune_gc`, called by the ``casebook`` command
once a game is loaded (``play``, ``replay``, ``batch`` and its workers) and by ``benchmarks/``,
moves what is loaded so far out of the collector's reach (``gc.freeze``) and collects less often.
Reference counting frees everything as before; only reference cycles wait a little longer.
"""

from __future__ import annotations

import gc

__all__ = ["GC_THRESHOLD", "tune_gc"]

#: ``gc.set_threshold`` arguments for a playing process (Python's defaults: 700, 10, 10).
GC_THRESHOLD = (20000, 20, 100)


def tune_gc() -> None:
    """Freeze the objects allocated so far (call it after loading a game) and collect less often
    (:data:`GC_THRESHOLD`). Safe to call again after another load."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
