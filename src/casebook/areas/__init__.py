"""Casebook plugins: the game rules that are code, one concept per module.

**The registry.** A game's manifest (``games/<game>/game.yaml``) names its plugins by *name*::

    plugins: [weather, initiative, movement]

A name resolves only to

1. the module ``casebook.plugins.<name>`` (a module of this package), or
2. an installed entry point ``<name>`` in the group ``casebook.plugins`` (a third-party package
   declares ``[project.entry-points."casebook.plugins"] mygame_supply = "mypkg.supply"``).

Nothing else: a dotted path or an unknown name is a ``ContentError`` naming the plugin; content
never makes the engine import arbitrary code (``casebook.content.plugins.resolve_plugin`` and
``make_plugin_manager``).

**Writing a plugin.** A plugin module implements hooks of ``casebook.core.hooks.Specs`` (the
lifecycle and queries) and of the areas' spec classes (``casebook.areas.hookspecs``; each spec's
docstring is its contract). A shared area names no case: what it cites comes from the game's
rule lines, tables and manifest (``area_cases:`` for the steps of an area's procedure no line
states; ``area_procedures:`` for the cases its Python implements, counted by ``casebook
cases``; see :mod:`casebook.areas._game_cases`). A game's own plugin declares the cases each
function implements with :func:`casebook.content.cases.implements`::

    @hookimpl
    @implements(*WEATHER_CASES)    # e.g. a tuple of the game's case ids
    def casebook_step_start(ctx, phase, step):
        ...

Every hook receives ``ctx`` (``casebook.script.engine.Ctx``: state, board, rules, pack, trace,
hook). An implementation may take fewer arguments than its spec. The full conventions are in
``docs/plugins.md``. Plugins never import each other; they
meet through hooks and the state, and change the state only through ``GameState`` methods (inside
``state.transaction``). Every die is rolled with ``casebook.core.dice.roll`` (traced with its
purpose and cases). ``casebook cases GAME`` imports every module of this package to count the
cases they declare with ``implements``.

This ``__init__`` imports nothing: importing the package must not load any plugin.
"""
