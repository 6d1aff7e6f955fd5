"""The moving stack's bookkeeping — a module of the shared areas' API (not a plugin): a game
whose movement steps move one stack at a time (a stack is picked, moves, may go on moving,
and is done when the next one starts) keeps in its plugin data which units have moved this
phase and the stack being moved. It holds no case id and no number: the game cites its own
cases where it calls these functions, and says which unit lists and stack fields it keeps.

The plugin data (plain data, the game's plugin name)::

    {"moved": [unit ids that finished moving], <the game's other unit lists and counters>,
     "current": {"units", "hex", "spent", "budget", <the game's own fields>} | absent}

- :func:`book` reads it, with defaults filled in; units of the moving stack eliminated or
  displaced meanwhile (e.g. by a combat during the move) drop out of it, and a stack with none
  left is no longer being moved;
- :func:`begin` starts a new stack (the game ends the previous one first), :func:`end` takes the
  stack being moved off the books and counts its units as moved;
- :func:`replace_unit` puts units in the place of one unit everywhere in the books (a unit
  broken down into others while moving: they go on with its MPs left);
- :func:`path_templates`: the player's choice of a move's path (one ``move`` is listed per
  destination, along one path; any other path is a template's filling the validators judge);
- :func:`move_lines`: the lines a legal move's event names — those ``ask … why`` names of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from casebook.core.templates import ActionTemplate
from casebook.script.factlines import rule_lines

__all__ = ["book", "save", "begin", "end", "mark_moved", "replace_unit", "path_templates", "move_lines"]


def book(ctx: Any, plugin: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Plugin data ``plugin`` with ``defaults`` filled in (a copy of each default list), ``moved``
    always a list; the moving stack (``current``) less its units no longer in its hex, or gone
    when none is left."""
    d = ctx.state.plugin_data(plugin) or {}
    d.setdefault("moved", [])
    for key, value in defaults.items():
        d.setdefault(key, list(value) if isinstance(value, list) else value)
    cur = d.get("current")
    if cur and cur.get("units"):
        here = [u for u in cur["units"] if ctx.state.has_unit(u) and ctx.state.unit(u).get("hex") == cur["hex"]]
        if len(here) != len(cur["units"]):
            cur = dict(cur, units=here)
            d["current"] = cur if here else None
    return d


def save(ctx: Any, plugin: str, d: dict[str, Any]) -> None:
    """Store the books ``d`` as plugin data ``plugin`` (the state changed)."""
    ctx.state.set_plugin_data(plugin, d)
    ctx.changed()


def mark_moved(d: dict[str, Any], units: Iterable[str]) -> None:
    """Count ``units`` as moved this phase (``d["moved"]``, sorted, each once)."""
    d["moved"] = sorted(set(d["moved"]) | set(units))


def begin(d: dict[str, Any], units: Sequence[str], hex_: str, budget: int, **fields: Any) -> dict[str, Any]:
    """Make ``units`` in ``hex_`` the stack being moved, with ``budget`` MPs none spent and the
    game's own ``fields``; returns it. The game ends the previous stack first (:func:`end`)."""
    d["current"] = {"units": list(units), "hex": hex_, "spent": 0, "budget": budget, **fields}
    return d["current"]


def end(ctx: Any, d: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
    """Take the stack being moved off the books and count its units as moved; returns ``(stack,
    units still on the map)`` (``(None, [])`` when no stack was being moved)."""
    cur = d.pop("current", None)
    if not cur:
        return None, []
    mark_moved(d, cur["units"])
    return cur, [u for u in cur["units"] if ctx.state.has_unit(u)]


def replace_unit(ctx: Any, plugin: str, lists: Sequence[str], old: str, new: Sequence[str],
                 mp_cost: int = 0, flags: Sequence[str] = ()) -> None:
    """Units ``new`` take the place of unit ``old`` in the books of ``plugin``: in each unit list
    ``lists`` and in the stack being moved, where they go on with its MPs left less ``mp_cost``
    (none left below zero) and with ``old``'s value of each per-unit map ``flags`` of the stack
    (unit id -> value; True when it had none). Changes the state only when ``old`` is there."""
    raw = ctx.state.plugin_data(plugin)
    if not raw:
        return
    d = dict(raw)
    swap = lambda ids: [n for i in ids for n in ((*new,) if i == old else (i,))]  # noqa: E731
    changed = False
    for key in lists:
        if old in d.get(key, ()):
            d[key], changed = sorted(swap(d[key])), True
    cur = d.get("current")
    if cur and old in cur.get("units", ()):
        maps = {}
        for name in flags:
            values = dict(cur.get(name) or {})
            was = values.pop(old, True)
            maps[name] = {**values, **{n: was for n in new}}
        d["current"] = dict(cur, units=swap(cur["units"]), **maps,
                            spent=min(cur["budget"], cur["spent"] + max(0, mp_cost)))
        changed = True
    if changed:
        save(ctx, plugin, d)


def path_templates(listed: Sequence[Any], hint: str, cases: Sequence[str]) -> list[ActionTemplate]:
    """For each stack (and ``units=``) a listed ``move`` starts from, a template whose ``path`` is
    any path (``hint``: the game's words), citing ``cases`` (the game's): play lists one move per
    destination along one cheapest path, and accepts any other path no validator refuses — the
    check a listed move passed (:meth:`casebook.core.play.State.why_not`)."""
    out, seen = [], set()
    for a in listed:
        key = (a.get("stack"), a.get("units"))
        if a.kind == "move" and key not in seen:
            seen.add(key)
            out.append(ActionTemplate.of(a, {"path": hint}, tuple(cases)))
    return out


def move_lines(ctx: Any, cases: Iterable[str]) -> dict[str, Any]:
    """``{"lines": […]}`` for the ``data`` of a legal move's event (``{}`` when play collects no
    lines, or none decided it): of the lines that fired since the context's last event, those
    :func:`casebook.script.factlines.rule_lines` keeps for the move's ``cases`` (the game's: its
    MA's and its path's) — the rule lines ``ask … why`` names of the same move — then the chart
    cells its steps read (the TEC's, noted ``"cell"`` by :mod:`casebook.areas.terrain_costs`). Not
    the lines of whose units move now, nor of a supply search an MA line did not read (issue #15,
    rule 12: ``ask move``, ``why`` and play agree)."""
    fired = list((ctx.event_lines or {}).values())
    cells = [ln for ln in fired if ln.get("cell")]  # the steps' chart cells (areas/terrain_costs), last as why names them
    kept = [*rule_lines([ln for ln in fired if not ln.get("cell")], cases), *cells]
    return {"lines": [{"source": ln["source"], "cases": list(ln["cases"])} for ln in kept]} if kept else {}
