"""``casebook explain TRACE SEQ [--json]`` — one trace event with the chain of cases behind it.

Shows the event's turn, phase, step, side, kind and source; every case it cites with the case's
title from the game's case index; its data; and, where the event carries a rule-script
explanation (``terms`` or ``lines``), every term with its case, value and source ``file:line``,
and the text of that script line (from the event, else read from the rule script).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from casebook.content.schema_base import CASE_ID

__all__ = ["changed_line", "changed_lines", "explain", "explain_event", "line_text", "moved_lines", "moved_to", "pack_hint"]


def explain_event(path: Path, seq: int, pack: Path | None = None,
                  warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The event ``seq`` of the trace at ``path`` with case titles (from ``pack``, the folder the
    game was played from, else :func:`casebook.tools.saves.trace_pack`: a pack folder of the
    trace's game above the trace, the folder a save beside it records, else the installed game)
    and ``rules_dir`` (where its rule lines live); ClickException if absent, or if ``pack`` is
    another game's; ContentError saying to pass ``--pack`` when no pack is found. ``warn`` is
    given :func:`casebook.tools.saves.trace_pack_warning`'s line when the pack found may not be
    the one the game was played on (edited since, or the installed game taken for want of one)."""
    from casebook.content.cases import CaseIndex
    from casebook.core.errors import shown_path
    from casebook.tools.cmd_replay import read_whole

    trace = read_whole(path)  # one file:line message for a bad or cut line
    events = [e for e in trace if e.seq == seq]
    if not events:
        last = trace[len(trace) - 1].seq if len(trace) else -1
        raise click.ClickException(f"{shown_path(path)}: no event with seq {seq} (0..{last})")
    event = events[0]
    from casebook.content.confine import is_game_id

    game = next((e.data.get("game") for e in trace if e.kind == "setup"), None)
    titles: dict[str, str] = {}
    if game is not None and not is_game_id(game):  # a game id, never a path (SECURITY.md)
        raise click.ClickException(f"{shown_path(path)}: the setup event's game must be a game id, got {game!r}")
    rules_dir = pack_dir = None
    index: Any = ()  # the case index of the pack (a table line's reconstructed provenance names its cases)
    if game or pack is not None:
        from casebook.content.loader import find_pack, resolve_rules_dir
        from casebook.content.yamlio import load_yaml
        from casebook.tools.saves import trace_pack, trace_pack_warning

        chosen = pack if pack is not None or game is None else trace_pack(path, str(game))
        if chosen is None:
            raise click.UsageError("no pack: name one with --pack")
        pack_dir = find_pack(chosen)
        other = (load_yaml(pack_dir / "game.yaml").data or {}).get("id")
        if game is not None and other != game:
            raise click.ClickException(f"{shown_path(pack_dir)} is a pack of {other!r}; the trace {shown_path(path)} is of {game!r}")
        # a save beside the trace records the pack's hash: checked against a --pack folder too
        note = trace_pack_warning(path, str(game), chosen) if game is not None else None
        if note and warn is not None:
            warn(note)
        index = CaseIndex.for_game(pack_dir)
        for case in event.cases:
            titles[case] = index[case].title if case in index else "(not in the case index)"
        manifest = load_yaml(pack_dir / "game.yaml").data
        rules_dir = resolve_rules_dir(pack_dir, manifest if isinstance(manifest, dict) else {})
    out = event.to_dict()
    out["case_titles"] = titles
    out["rules_dir"] = None if rules_dir is None else str(rules_dir)
    out["pack_dir"] = None if pack_dir is None else str(pack_dir)  # where its table lines live
    out["changed_lines"] = changed_lines(out["data"], rules_dir, pack_dir, index)
    if out["changed_lines"] and warn is not None:
        warn(f"warning: event {seq} of {shown_path(path)} {moved_lines(pack_dir, out['changed_lines'])}; "
             f"the texts shown for them are today's lines, not the ones that fired")
    return out


def changed_lines(data: Any, rules_dir: Path | str | None, pack_dir: Path | str | None, index: Any = ()) -> list[str]:
    """:func:`changed_line` for every rule or table line an event's ``data`` names (its ``lines``
    and ``terms``, nested too) without the text: why each is not the line the trace recorded
    (``explain``'s warning and ``replay``'s hint at a divergence, :func:`pack_hint`)."""
    return list(dict.fromkeys(
        why for t in _terms(data) if not t.get("text") and _LINE.match(str(t.get("source", "")))
        for why in [changed_line(str(t["source"]), line_text(str(t["source"]), rules_dir, pack_dir),
                                 t.get("cases") or t.get("case"), pack_dir, index)] if why))


def moved_lines(pack_dir: Path | str | None, changed: list[str], most: int | None = None) -> str:
    """"names lines the pack in DIR no longer holds as the trace recorded them (…): the pack
    changed since the game was played" for the ``changed`` lines (:func:`changed_lines`; the
    first ``most`` of them, then how many more)."""
    from casebook.core.errors import shown_path

    where = "" if pack_dir is None else f" in {shown_path(pack_dir)}"
    shown = changed[:most] + ([f"and {len(changed) - most} more"] if most is not None and len(changed) > most else [])
    return (f"names lines the pack{where} no longer holds as the trace recorded them ({'; '.join(shown)}): "
            f"the pack changed since the game was played")


def pack_hint(path: Path, game: str, chosen: str | Path, events: Any, replayed: Any = None, most: int = 4) -> list[str]:
    """What ``replay`` adds to a divergence of the trace at ``path`` (of ``game``, replayed on the
    pack ``chosen``: :func:`casebook.tools.saves.trace_pack`) — what ``explain`` warns of: the
    save beside it records another pack's SHA-256 (:func:`~casebook.tools.saves.trace_pack_warning`),
    and the lines ``events`` (the recorded events up to the divergence) name that the pack no longer
    holds as recorded (:func:`changed_lines`; the first ``most``, then how many more); and, given
    the ``replayed`` event that differs from the last of ``events``, the lines of its file that
    cite the same cases at another place now (:func:`moved_to`). Empty when nothing tells the pack
    changed."""
    from casebook.content.cases import CaseIndex
    from casebook.content.loader import find_pack, resolve_rules_dir
    from casebook.content.yamlio import load_yaml
    from casebook.tools.saves import trace_pack_warning

    note = trace_pack_warning(path, game, chosen)
    out = [note] if note and note.startswith("warning:") else []
    pack_dir = find_pack(chosen)
    manifest = load_yaml(pack_dir / "game.yaml").data
    rules_dir = resolve_rules_dir(pack_dir, manifest if isinstance(manifest, dict) else {})
    index, seen, changed = CaseIndex.for_game(pack_dir), set(), list[str]()
    for event in events:
        for term in _terms(event.data):
            key = json.dumps([term.get("source"), term.get("cases") or term.get("case")])
            if key not in seen:  # a line named again, with the same cases, was judged already
                seen.add(key)
                changed += [f"seq {event.seq}: {why}" for why in changed_lines({"lines": [term]}, rules_dir, pack_dir, index)]
    out += [f"hint: the trace {moved_lines(pack_dir, changed, most)}"] if changed else []
    moved = moved_to(events[-1], replayed) if replayed is not None and len(events) else []
    return out + ([f"hint: event {events[-1].seq}'s lines moved: {'; '.join(moved)}"] if moved else [])


def moved_to(recorded: Any, replayed: Any) -> list[str]:
    """"combat.rules:15 (KP8.4) is combat.rules:19 now" for each rule or table line the
    ``recorded`` event names that the ``replayed`` one (the same event, replayed on today's pack)
    does not, where it names instead a line of the same file citing the same cases."""
    def named(event: Any) -> list[tuple[str, tuple[str, ...]]]:
        return [(str(t["source"]), tuple(t.get("cases") or [t.get("case")])) for t in _terms(event.data)
                if _LINE.match(str(t.get("source", "")))]

    old, new = named(recorded), named(replayed)
    came = [n for n in new if n not in old]
    out = []
    for source, cases in (o for o in old if o not in new):
        to = next((n for n in came if n[1] == cases and n[0].rpartition(":")[0] == source.rpartition(":")[0]), None)
        if to is not None:
            came.remove(to)
            out.append(f"{source} ({', '.join(map(str, cases))}) is {to[0]} now")
    return list(dict.fromkeys(out))


def _terms(data: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("terms", "lines") and isinstance(value, list):
                found += [t for t in value if isinstance(t, dict)]
            else:
                found += _terms(value)
    elif isinstance(data, list):
        for item in data:
            found += _terms(item)
    return found


def line_text(source: str, rules_dir: Path | str | None, pack_dir: Path | str | None = None) -> str:
    """The text of the rule-script line at ``source`` (``x.rules:12``, relative to the game's
    ``rules_dir``), comment and surrounding blanks removed, continued lines (``\\``) joined;
    of a table line (``tables/crt.yaml:18``, relative to ``pack_dir``: the row or cell a number
    was read from, or the erratum that set it) as :class:`~casebook.content.tablelines.TableLines`
    gives it. Empty when the file or line is not found, or the name leads outside the folder."""
    from casebook.content.confine import confined_path

    path, _, line = source.rpartition(":")
    if path.endswith(".yaml") and line.isdigit() and pack_dir is not None:
        return _table_text(Path(pack_dir), path, int(line))
    if not path or not line.isdigit() or rules_dir is None:
        return ""
    f, why = confined_path(Path(rules_dir), path)
    if f is not None and why is None:
        if f.is_file():
            lines = f.read_text(encoding="utf-8").split("\n")
            n = int(line)
            if not 0 < n <= len(lines):
                return ""
            text = lines[n - 1].split("#")[0].strip()
            while text.endswith("\\") and n < len(lines):  # a continued line (a trigger's): all of it
                n += 1
                text = text[:-1].rstrip() + " " + lines[n - 1].split("#")[0].strip()
            return text
    return ""


_LINE = re.compile(r".+\.(?:rules|yaml):\d+$")  # a rule-script or table line's source
_BY = re.compile(r"\bby\s+(.*?)(?:\s+when\b.*)?$")
_CASE = re.compile(rf"(?<![\w.]){CASE_ID}(?![\w])")


def changed_line(source: str, text: str, cases: Any, pack_dir: Path | str | None = None,
                 known: Any = ()) -> str | None:
    """Why the line ``source`` read now (``text``: :func:`line_text`) is not the line a trace
    event recorded with ``cases`` (its ``cases`` list, or a term's ``case`` string), else None:
    the file has no such line now, or the line cites other cases than the trace recorded (a rule
    line's ``by`` cases, a table row's ``provenance``) — the pack changed since the game was
    played and the line numbers moved. A trace records a line's place and cases, not its text
    (nor the pack's hash): this is how ``explain`` tells a moved line (docs/rule-language.md,
    "Which lines an event names"). A line whose text names no case is not judged — but a table
    line, given ``pack_dir`` (the pack folder; ``known``: its case index), is judged by the cases the
    file cites at the line as a table line is cited (a cell's or row's own provenance, else the
    table's: :func:`~casebook.content.tablelines.cited_at`), which must be those recorded, and a
    line that is no cell, row, erratum or condition now (a comment, a row head) holds none."""
    recorded = {c.strip() for c in ([cases] if isinstance(cases, str) else cases or ()) for c in str(c).split(",")}
    recorded.discard("")
    if not text:
        return f"{source} holds no rule or table line now"
    path, _, number = source.rpartition(":")
    if path.endswith(".yaml") and pack_dir is not None and number.isdigit():
        from casebook.content.tablelines import cited_at

        found = cited_at(Path(pack_dir), path, int(number), known, recorded)
        if found is None:
            return f"{source} holds no rule or table line now"
        if set(found) != recorded:
            return f"{source} cites {', '.join(sorted(found)) or 'no case'} now, the trace recorded " \
                   f"{', '.join(sorted(recorded)) or 'no case'}"
        return None
    if path.endswith(".yaml"):
        now = set(_CASE.findall(text.split("provenance:", 1)[1])) if "provenance:" in text else set()
    else:
        by = _BY.search(text)
        now = set(_CASE.findall(by.group(1))) if by else set()
    if not now or recorded <= now:
        return None
    return (f"{source} cites {', '.join(sorted(now))} now, the trace recorded "
            f"{', '.join(sorted(recorded))}")


def _table_text(pack_dir: Path, path: str, line: int) -> str:
    """The text of line ``line`` of the pack file ``path`` as a table line cites it."""
    from casebook.content.confine import confined_path
    from casebook.content.tablelines import line_text_at

    f, why = confined_path(pack_dir, path)
    if f is None or why is not None or not f.is_file():
        return ""
    return line_text_at(pack_dir, path, line)


@click.command("explain")
@click.argument("trace", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("seq", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--pack", type=click.Path(exists=True, file_okay=False, resolve_path=True, path_type=Path), default=None,
              help="The pack folder the game was played from (default: a pack folder above the trace, the one "
                   "a save beside it records, else the installed game the trace names).")
def explain(trace: Path, seq: int, as_json: bool, pack: Path | None) -> None:
    """Show event SEQ of TRACE with its cases, case titles, terms and sources."""
    out = explain_event(trace, seq, pack, warn=lambda note: click.echo(note, err=True))
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    click.echo(f"event {out['seq']} · turn {out['turn']} · {out['phase']} / {out['step']} · "
               f"{out['side'] or '-'} · {out['kind']} · source {out['source'] or '-'}")
    for case in out["cases"]:
        click.echo(f"  case {case}: {out['case_titles'].get(case, '')}")
    for term in _terms(out["data"]):
        cases = ", ".join(term.get("cases") or ([term["case"]] if term.get("case") else []))
        value = term.get("amount", term.get("value"))
        shown = "" if value is None else str(value)
        fired = "" if term.get("fired", True) else " (did not apply)"
        source = str(term.get("source", ""))
        text = term.get("text") or line_text(source, out.get("rules_dir"), out.get("pack_dir"))
        if not term.get("text") and any(c.startswith(f"{source} ") for c in out["changed_lines"]):
            text = f"{text} (changed since the trace)"
        click.echo(f"    {shown:>6}  {cases:<14} {source}  {text}{fired}")
    from casebook.tools.account import data_words

    data = {k: v for k, v in out["data"].items() if k not in ("terms", "lines")}
    for n, words in enumerate(data_words(data)):  # in words (--json gives the data as it is)
        click.echo(("  data: " if n == 0 else "        ") + words)
