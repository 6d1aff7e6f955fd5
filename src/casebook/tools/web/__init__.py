"""``casebook serve``: play, watch and ask in a browser (docs/serve.md).

- :mod:`casebook.tools.web.session` — one play in progress behind the page: the Game API, the
  players (human or bot), undo, save and load, the choices the page may send;
- :mod:`casebook.tools.web.views` — plain JSON views of a state: header, units, legal actions,
  the board geometry the page draws on, trace events with their cases and rule lines;
- :mod:`casebook.tools.web.watch` — stepping through a trace (positions rebuilt by re-executing it);
- :mod:`casebook.tools.web.app` — the Starlette application and its JSON API;
- ``static/`` — the page (plain HTML, CSS and JavaScript, no build step).

The page never decides legality: every choice it sends is matched against
``State.legal_actions()`` and applied through ``State.apply``, and every number it shows comes from
the rules' own ``casebook_answer`` (the questions of ``casebook ask``).
"""

__all__: list[str] = []
