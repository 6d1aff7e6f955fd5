"""The shipped games, one folder each (``games/<id>/game.yaml`` and its data, ``rules/``,
``plugins/``, ``golden/``). Installed as :mod:`casebook.games`; a game's plugins are registered
as entry points of the group ``casebook.plugins`` in ``pyproject.toml``."""
