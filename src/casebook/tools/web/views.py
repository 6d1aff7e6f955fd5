"""Plain JSON views of a play for the page: header, units, board geometry, trace events.

Nothing here decides anything: the views read a :class:`~casebook.core.play.State` and its pack.
They name no game: sides come from the position (``GameState.sides``), tracks are the position
format's track fields that hold something (``ip``, ``rp``, ``fp``, ``partisans``), the weather is
what ``play``'s header shows of it (none in a game without weather), case titles come from the pack's case index and rule
lines from its rule scripts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from casebook.core.grid import Grid
from casebook.core.hexgrid import hex_label
from casebook.tools import sheet
from casebook.tools.account import Narrator
from casebook.tools.human import TRACKS, header_tracks, header_weather, weather_text

__all__ = ["action_notes", "annotate", "case_title", "colours", "board_view", "header_view", "units_view",
           "event_view", "rule_line", "snapshot", "told", "decision_view", "TRACKS"]

_PALETTE = [("#a8b3ba", "#1f2a30"), ("#d99a6c", "#3b1a0c"), ("#9fc58f", "#16320f"), ("#c7a6d9", "#2d1538")]


def _grid(m: Mapping[str, Any]) -> Grid:
    first = m.get("first") or {}
    return Grid(m["layout"], m["size"]["columns"], m["size"]["rows"], first.get("column", 1),
                first.get("row", 1), m.get("north", "up"))


def board_view(state: Any, title: str) -> dict[str, Any]:
    """The map as the page draws it: ``svg`` (terrain, hexsides, towns, hex numbers, markers, no
    units: :func:`casebook.tools.render.render_svg`), and per hex label its centre ``[x, y]`` and
    its corner ``points`` in the SVG's px, so the page lays counters, highlights and click targets
    exactly on the drawn hexes; ``hex_size`` is the centre-to-corner distance in px."""
    from casebook.tools import render

    map_data = state.data.map or dict(state.game.engine.pack.map)
    svg = render.render_svg(map_data, [], title=title, markers=[dict(m) for m in state.data.markers],
                            styles=state.game.engine.pack.vocabulary.styles,
                            subtitle="click a stack, then a hex · wheel to zoom, drag to pan")
    grid = _grid(map_data)
    hexes: dict[str, Any] = {}
    for h in grid.hexes():
        x, y = sheet.center(grid, h, render.S)
        pts = " ".join(f"{px + render.MARGIN:.2f},{py + render.TOP:.2f}" for px, py in sheet.corners(grid, h, render.S))
        hexes[hex_label(h)] = {"c": [round(x + render.MARGIN, 2), round(y + render.TOP, 2)], "points": pts}
    return {"svg": svg, "hexes": hexes, "hex_size": render.S}


def colours(sides: tuple[str, ...]) -> dict[str, list[str]]:
    """Counter (fill, ink) per side: the game's vocabulary's where the pack gives them (see
    :func:`side_colours`), else a palette by order."""
    return {s: list(_PALETTE[i % len(_PALETTE)]) for i, s in enumerate(sides)}


def side_colours(pack: Any, sides: tuple[str, ...]) -> dict[str, list[str]]:
    """Counter (fill, ink) per side from the game's vocabulary (game.yaml ``vocabulary.sides``),
    the palette for sides it does not colour."""
    from casebook.tools.render import side_styles

    styles = side_styles(pack.vocabulary.sides, [{"side": s} for s in sides])
    return {s: [styles[s][1], styles[s][2]] for s in sides}


def units_view(data: Any) -> list[dict[str, Any]]:
    """Every unit on the map as flat JSON (id, name, side, class, strength, ma, hex, status flags)."""
    out = []
    for u in data.units:
        if not u.get("hex"):
            continue
        out.append({k: v for k, v in u.items() if v is None or isinstance(v, (str, int, float, bool))})
    return out


def header_view(state: Any, players: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Turn (and the scenario's last), phase and step, who decides (and whether a person or a bot),
    the weather where the game has it (``weather`` and its words ``weather_text``: the same as
    ``play``'s header, :func:`casebook.tools.human.header_weather`), the non-empty tracks, and the
    result once the game is over."""
    d = state.data
    tracks = header_tracks(state)  # play's header shows the same (tools/human.py)
    weather = header_weather(state)
    side = state.current_player()
    return {"turn": d.turn, "last_turn": state.game.last_turn, "phase": d.phase, "step": d.step,
            "decider": side, "decider_kind": (players or {}).get(side) if side else None,
            "weather": weather, "weather_text": weather_text(weather), "tracks": tracks, "result": state.result()}


@functools.lru_cache(maxsize=64)
def _rule_file(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines())
    except OSError:
        return ()


def rule_line(pack: Any, source: str) -> str | None:
    """The text of a rule-script line named ``file.rules:N`` (or ``file.rules:N:C``), else None."""
    if ".rules:" not in str(source):
        return None
    name, _, rest = str(source).partition(".rules:")
    number = rest.split(":")[0]
    if not number.isdigit():
        return None
    lines = _rule_file(str(Path(pack.rules_dir) / (Path(name).name + ".rules")))
    n = int(number)
    return lines[n - 1].strip() if 0 < n <= len(lines) else None


def _terms(data: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key in ("terms", "lines") and isinstance(value, list):
                found += [dict(t) for t in value if isinstance(t, Mapping)]
            else:
                found += _terms(value)
    elif isinstance(data, list):
        found += [t for item in data for t in _terms(item)]
    return found


def annotate(pack: Any, value: Any) -> Any:
    """A copy of an answer in which every mapping with a rule-script ``source`` (``file.rules:N``)
    also carries ``line``: the text of that line."""
    if isinstance(value, Mapping):
        out = {k: annotate(pack, v) for k, v in value.items()}
        if isinstance(out.get("source"), str) and "line" not in out:
            line = rule_line(pack, out["source"])
            if line is not None:
                out["line"] = line
        return out
    if isinstance(value, (list, tuple)):
        return [annotate(pack, v) for v in value]
    return value


def event_view(pack: Any, event: Any) -> dict[str, Any]:
    """A trace event as JSON with ``case_titles`` (case -> title from the pack's case index), the
    rule line of its ``source`` when that is a rule script (``source_line``), and ``terms``: every
    rule-script term it carries with its case, value, source and the text of that line."""
    out = event.to_dict()
    out["case_titles"] = {c: case_title(pack, c) for c in event.cases}
    out["source_line"] = rule_line(pack, event.source)
    terms = []
    for t in _terms(event.data):
        t["line"] = rule_line(pack, t.get("source", ""))
        terms.append(t)
    out["terms"] = terms
    return out


def case_title(pack: Any, case: str) -> str:
    """The title of ``case`` in the pack's case index ("" when it is not there)."""
    entry = pack.cases.get(case) if hasattr(pack.cases, "get") else None
    return str((entry or {}).get("title", "")) if isinstance(entry, Mapping) else ""


def snapshot(session: Any, recent: int = 40) -> dict[str, Any]:
    """Everything the page shows of the play now: header, units, markers, sides and colours, the
    players, the legal actions (when a person decides) with ``notes`` (action -> the note play's
    list shows beside it: a retreat into an overstack, 6.2F), the ``decision`` waited for
    (:func:`decision_view`), the last ``recent`` trace events
    (those the terminal's account tells, in its words, :func:`told`: ``text`` its line, ``lines`` a
    combat's shift and DRM terms, ``warnings`` those it prints under it: a support remainder, 10.4.2A)."""
    state = session.state
    pack = state.game.engine.pack
    human = session.human_decides()
    events = told(list(state.trace)[-3 * recent:], state.game.engine)[-recent:]  # as the account tells them
    legal = state.legal_actions() if human else []
    return {
        "game": pack.id, "name": pack.manifest.get("name", pack.id), "scenario": session.label,
        "header": header_view(state, session.players), "units": units_view(state.data),
        "markers": [dict(m) for m in state.data.markers], "sides": list(state.data.sides),
        "colours": side_colours(state.game.engine.pack, state.data.sides), "players": dict(session.players), "human": human,
        "legal": [str(a) for a in legal], "notes": action_notes(state, legal), "decision": decision_view(state),
        "history": len(state.history), "undoable": any(session.players.get(a.side) == "human"
                                                       for a in state.history[len(session.initial.history):]),
        "events": [{"seq": e.seq, "turn": e.turn, "side": e.side, "kind": e.kind, "cases": list(e.cases),
                    "text": head, "lines": [w for w in subs if not w.startswith("warning: ")],
                    "warnings": [w[len("warning: "):] for w in subs if w.startswith("warning: ")]}
                   for e, head, subs in events],
    }


def decision_view(state: Any) -> dict[str, Any] | None:
    """The decision the play waits for: ``{"side", "kinds"}`` (the kinds of its legal actions, in
    play's order: ``["retreat"]`` after a combat, ``["support"]`` for a defender's support); None
    when the game is over. The page tells it beside a side's action that must wait for it."""
    side = state.current_player()
    return {"side": side, "kinds": list(dict.fromkeys(a.kind for a in state.legal_actions()))} if side else None


def action_notes(state: Any, actions: Any) -> dict[str, str]:
    """Action text -> the note ``play`` prints beside it in its list (``casebook_stacking_note``:
    a retreat whose path ends overstacked, "overstacks 0305: 6 stacking points, limit 5 (6.2F,
    7.5A, 6.2E)"), for those of ``actions`` that have one."""
    engine = state.game.engine
    ctx = engine.ctx(state.data)
    notes = {str(a): engine.hook.casebook_stacking_note(ctx=ctx, action=a) for a in actions}
    return {a: n for a, n in notes.items() if n}


def told(events: Any, engine: Any) -> list[tuple[Any, str, list[str]]]:
    """``(event, line, lines under it)`` for each of ``events`` (trace order) the terminal's account
    tells (:class:`casebook.tools.account.Narrator`, its one source of words): its line without the
    ``#seq`` and the cases (the page shows them apart), and the lines under it (a combat's ``shift``
    and ``DRM`` terms, ``warning: …``). Left out as the account leaves them out: bookkeeping, a
    decision its effect tells (an attack's combat line), a roll its combat line tells."""
    by_seq = {e.seq: e for e in events}
    out = []
    for line in Narrator.for_engine(engine).lines(events):
        found = _NUMBERED.match(line)
        event = by_seq.get(int(found.group(1))) if found else None
        if found is None or event is None:
            continue  # a turn header or summary line: the page's header shows the turn
        head, *subs = found.group(2).split("\n")
        cases = f"  [{', '.join(event.cases)}]"
        out.append((event, head[: -len(cases)] if event.cases and head.endswith(cases) else head,
                    [s.strip() for s in subs if s.strip()]))
    return out


#: An account line of one event: ``  #SEQ   text`` (``*** #SEQ Game over…`` at the end).
_NUMBERED = re.compile(r"^\s*(?:\*\*\* )?#(\d+)\s+(.*)$", re.S)
