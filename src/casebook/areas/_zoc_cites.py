"""What each game's rule scripts say about ZOCs, for the answers of the `zoc` plugin (private
helper): the cases a ZOC answer cites and which paths an EZOC blocks come from the game's own
lines, never from constants here (e.g. Moscow '41 cites 7.x and Battle for Moscow BM6.x).

The lines read (all optional; a game without a line simply has no such citation or effect):

- ``permit zoc_into_hex`` / ``permit exert_zoc``: what a ZOC is (cited by every answer);
- ``permit exert_zoc_in_ezoc``: an enemy ZOC does not affect a unit's own (the ZOC map);
- ``forbid add_zoc_effects``: several ZOCs add nothing (cited where an EZOC is; what it decides,
  a fluid step's cost, :func:`casebook.areas.terrain_costs.zoc_effects`);
- ``forbid trace_supply_through_ezoc``, ``trace_command_through_ezoc``,
  ``trace_communication_through_ezoc``, ``retreat_into_ezoc`` (fact ``friendly_combat_unit``):
  the ``blocks_supply``, ``blocks_command``, ``blocks_communication``, ``blocks_retreat`` keys —
  each key's lines named only by the reader of that key (:func:`closes`, :func:`answer_closes`:
  a retreat names the retreat line, not the supply and command ones);
- ``forbid``/``permit move_on_in_ezoc`` (fact ``zoc_kind``): the cases of what a locking, fluid
  or no ZOC means for a moving unit (``--for UNIT``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["BLOCKS", "line_cases", "definition_cases", "map_cases", "combine_cases", "blocks",
           "closes", "answer_closes", "note_blocks", "effect_cases", "note_binding"]

#: answer key -> the permission a rule script forbids (when it may not pass an EZOC hex)
BLOCKS: tuple[tuple[str, str], ...] = (
    ("blocks_supply", "trace_supply_through_ezoc"),
    ("blocks_command", "trace_command_through_ezoc"),
    ("blocks_communication", "trace_communication_through_ezoc"),
    ("blocks_retreat", "retreat_into_ezoc"),
)


def line_cases(ctx: Any, actions: tuple[str, ...], verdict: str | None = None) -> tuple[str, ...]:
    """The cases of every ``verdict`` line (``permit``/``forbid``; None: both) of ``actions``, in
    the order of ``actions`` then script order, without repeats (the compiled scripts: kept per
    board and rules)."""
    cache = ctx.lasting("zoc.line_cases", id(ctx.rules), pause=False)  # cases read: no line fires
    key = (actions, verdict)
    found = cache.get(key)
    if found is None:
        out: list[str] = []
        for action in actions:
            p = ctx.rules.permissions.get(action)
            for v, code, _ in (p.lines if p is not None else ()):
                if verdict is None or v == verdict:
                    out.extend(code.cases)
        found = cache[key] = tuple(dict.fromkeys(out))
    return found


def definition_cases(ctx: Any) -> tuple[str, ...]:
    """What a ZOC is: the cases of the ``permit zoc_into_hex`` and ``permit exert_zoc`` lines."""
    return line_cases(ctx, ("zoc_into_hex", "exert_zoc"), "permit")


def map_cases(ctx: Any) -> tuple[str, ...]:
    """The cases of the whole ZOC map: :func:`definition_cases`, and ``permit exert_zoc_in_ezoc``."""
    return tuple(dict.fromkeys((*definition_cases(ctx), *line_cases(ctx, ("exert_zoc_in_ezoc",), "permit"))))


def combine_cases(ctx: Any) -> tuple[str, ...]:
    """Several ZOCs add nothing: the cases of the ``forbid add_zoc_effects`` lines."""
    return line_cases(ctx, ("add_zoc_effects",), "forbid")


def blocks(ctx: Any, exerted: bool, friendly: bool) -> tuple[dict[str, bool], tuple[str, ...]]:
    """``({blocks_x: bool}, cases)`` for the paths the game's scripts close in an EZOC hex
    (:data:`BLOCKS`; only the keys the game has). ``exerted``: an EZOC is there; ``friendly``:
    a friendly non-remnant combat unit is in the hex (fact ``friendly_combat_unit``). The cases
    are those of every line of the game's blocking permissions (cited where an EZOC is). The
    verdicts are read without noting their lines: a reader of one key names that key's lines
    (:func:`answer_closes`; ``ask zoc``, which answers every key, :func:`note_blocks`)."""
    engine = ctx.engine
    perms = ctx.rules.permissions
    facts = {"friendly_combat_unit": friendly}
    found = {key: exerted and not engine.rules.allowed(action, facts, engine.script_tables, ctx.standard)
             for key, action in BLOCKS if action in perms}
    return found, line_cases(ctx, tuple(a for _, a in BLOCKS))


_ACTIONS = dict(BLOCKS)


def closes(ctx: Any, key: str, friendly: bool, otherwise: bool | None = None) -> bool | None:
    """Whether the game's lines close path ``key`` (a key of :data:`BLOCKS`, e.g.
    ``"blocks_retreat"``) in an EZOC hex where a friendly combat unit is (``friendly``) or not:
    the verdict of that key's permission alone (e.g. Moscow '41 7.5A ``retreat_into_ezoc``),
    noting only its deciding lines for the event or answer — kept per state version with them
    under the key the supply and command areas' path verdicts use (``ctx.memo_kept``).
    ``otherwise`` (default None): the answer when the game has no line of that permission."""
    action = _ACTIONS[key]
    if action not in ctx.rules.permissions:
        return otherwise
    facts = {"friendly_combat_unit": friendly}
    memo_key = ("rules.allowed", action, tuple(facts.items()))
    return not ctx.memo_kept(memo_key, lambda: bool(ctx.allowed(action, facts)))


def answer_closes(ctx: Any, answer: Any, key: str) -> bool:
    """Whether the EZOC of a ``casebook_zoc`` answer closes path ``key`` (e.g. ``"blocks_retreat"``):
    no EZOC, open; the answer's ``friendly_combat_unit`` judged by :func:`closes` (naming that
    key's lines only); else the answer's own ``key`` (a game without lines: closed)."""
    if not answer or not answer.get("exerted_by"):
        return False
    default = bool(answer.get(key, True))
    if "friendly_combat_unit" not in answer:
        return default
    return bool(closes(ctx, key, bool(answer["friendly_combat_unit"]), otherwise=default))


def note_blocks(ctx: Any, answer: Any) -> None:
    """Note the lines of every ``blocks_*`` key of a ``casebook_zoc`` answer (for ``ask zoc``,
    which answers them all)."""
    for key, _ in BLOCKS:
        if key in answer:
            answer_closes(ctx, answer, key)


def effect_cases(ctx: Any, kind: str) -> tuple[str, ...]:
    """The cases of what an EZOC of ``kind`` (locking, fluid, none) means for a moving unit: the
    lines of permission ``move_on_in_ezoc`` that fire for fact ``zoc_kind``."""
    if "move_on_in_ezoc" not in ctx.rules.permissions:
        return ()
    return ctx.kept(("zoc.effect_cases", id(ctx.rules)), kind,
                    lambda: tuple(ctx.permission("move_on_in_ezoc", {"zoc_kind": kind}).cases))


def note_binding(ctx: Any, rows: Any, kind: str, lines: Any = ()) -> tuple[str, ...]:
    """Note, for the answer or event an EZOC decided (a move refused by a locking EZOC, a fluid
    EZOC-to-EZOC step charged), the lines that decided it and return their cases: the ZOC Chart
    cells of those of the mover's chart ``rows`` that bind it as ``kind`` (all of them when none does;
    ``tables/zoc_chart.yaml``, the column in force:
    :func:`._zoc_chart.chart_column`, whose lines are noted too), the ``move_on_in_ezoc`` lines
    that fire for ``kind`` (e.g. Moscow '41 zoc.rules:35, 7.2) and ``lines`` (line entries: those
    that put the hexes met in an EZOC, e.g. the ``exert_zoc``/``zoc_into_hex`` lines of the
    exerting units, :func:`._zoc_map.hex_lines`; their cases, and what a ZOC is,
    :func:`definition_cases`, whether or not lines are collected)."""
    from casebook.content.tablelines import cite_again

    from ._zoc_chart import chart_column, chart_kind, kind_in_effect

    column, cases = chart_column(ctx)
    rows = [r for r in dict.fromkeys(rows) if kind_in_effect(ctx, chart_kind(ctx, r)[0]) == kind] or list(rows)
    reads = tuple(("zoc_chart", (("unit", row), ("weather", column))) for row in rows)
    cells = tuple(ln for ln in (ctx.pack.table_lines.cell("zoc_chart", unit=r, weather=column) for r in rows)
                  if ln is not None)
    cite_again(reads)  # a running ask collector cites them (cite_tables)
    entries = (*cells, *lines)
    ctx.note_lines(entries)  # and the event or the recording names them
    return tuple(dict.fromkeys((*cases, *effect_cases(ctx, kind), *(c for e in cells for c in e["cases"]),
                                *definition_cases(ctx), *(c for e in lines for c in e["cases"]))))
