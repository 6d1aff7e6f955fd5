"""Casebook: a rules-as-data engine for hex-and-counter operational wargames.

A regular package (not a namespace package), so ``python -m casebook.tools`` never picks up a
``casebook/`` folder from the working directory. The parts: :mod:`casebook.core` (the neutral
engine), :mod:`casebook.script` (the rule language), :mod:`casebook.areas` (rules areas games
share), :mod:`casebook.tools` (the command line, bots, batch) and :mod:`casebook.games` (one
folder per shipped game: its data, rule scripts and only the plugins data cannot say).
"""
