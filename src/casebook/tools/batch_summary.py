"""Summaries of a batch of :class:`~casebook.tools.batch.GameRecord`: win rates by side and
victory level, mean victory points per side, game lengths (turns, actions), seconds per game —
and the comparison of two batches played on the same seeds (an erratum, another reading).

:func:`summarize` gives plain data (the ``--json`` summary); :func:`summary_rows` the lines of the
table ``casebook batch`` prints, each with a number so :func:`compare_rows` can show the
difference between two summaries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any

from casebook.tools.batch import GameRecord
from casebook.tools.batch_timeline import summarize_timelines

__all__ = ["summarize", "summary_rows", "compare_rows", "changed_seeds", "differing_traces", "Row", "outcome"]


@dataclass(frozen=True)
class Row:
    """One line of a summary: ``value`` is the number compared between batches (a percentage
    when ``unit`` is ``"%"``), ``text`` what is shown."""

    label: str
    value: float | None
    text: str
    unit: str = ""


def outcome(record: GameRecord) -> str:
    """``"german strategic"``, ``"draw"`` (a result without winner), ``"not scored"``, ``"error"``."""
    if record.error:
        return "error"
    if record.winner:
        return f"{record.winner} {record.level}" if record.level else record.winner
    return "draw" if record.level or record.over else "not scored"


def _stats(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"mean": mean(values), "min": min(values), "max": max(values)}


def summarize(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Plain data: ``games``, ``played`` (without error), ``over`` (ended by the rules),
    ``stopped`` (cut by a limit), ``errors`` (seeds), ``sides``, ``wins`` per side,
    ``outcomes`` (:func:`outcome` -> count), ``vp_mean`` per side, ``turns`` / ``actions`` /
    ``seconds`` (mean, min, max), ``actions_per_turn`` (mean) and ``timeline`` (the places'
    changes of hands and the median losses: :func:`~casebook.tools.batch_timeline.summarize_timelines`,
    None without timelines)."""
    played = [r for r in records if not r.error]
    sides: dict[str, None] = {}
    for r in records:
        sides.update(dict.fromkeys(r.bots))
    vp_mean = {}
    for side in sides:
        values = [r.vps[side] for r in played if r.vps and side in r.vps]
        if values:
            vp_mean[side] = mean(values)
    return {
        "games": len(records),
        "played": len(played),
        "over": sum(r.over for r in played),
        "stopped": sum(r.stopped is not None for r in played),
        "errors": [r.seed for r in records if r.error],
        "sides": list(sides),
        "wins": {side: sum(r.winner == side for r in played) for side in sides},
        "outcomes": dict(sorted(Counter(outcome(r) for r in records).items())),
        "vp_mean": vp_mean,
        "turns": _stats([r.turns for r in played]),
        "actions": _stats([r.actions for r in played]),
        "actions_per_turn": mean([r.actions / r.turns for r in played if r.turns]) if played else None,
        "seconds": _stats([r.seconds for r in played]),
        "timeline": summarize_timelines([r.timeline for r in played]),
    }


def _rate(n: int, of: int) -> tuple[float | None, str]:
    if not of:
        return None, f"{n}/0"
    return 100.0 * n / of, f"{n}/{of} ({100.0 * n / of:.0f}%)"


def summary_rows(summary: dict[str, Any]) -> list[Row]:
    """The table lines of a summary, in a fixed order (sides as the game names them)."""
    played = summary["played"]
    rows = [Row("games played", played, f"{played} of {summary['games']}"),
            Row("ended by the rules", *_rate(summary["over"], played), "%")]
    for side in summary["sides"]:
        rows.append(Row(f"{side} wins", *_rate(summary["wins"].get(side, 0), played), "%"))
    for name, n in summary["outcomes"].items():
        if name != "error":
            rows.append(Row(f"  {name}", *_rate(n, played), "%"))
    for side in summary["sides"]:
        if side in summary["vp_mean"]:
            v = summary["vp_mean"][side]
            rows.append(Row(f"mean VPs {side}", v, f"{v:.1f}"))
    for key, label, fmt, span in (("turns", "turns", ".1f", ".0f"), ("actions", "actions per game", ".0f", ".0f"),
                                  ("seconds", "seconds per game", ".1f", ".1f")):
        s = summary[key]
        if s is not None:
            rows.append(Row(label, s["mean"], f"{s['mean']:{fmt}} ({s['min']:{span}}–{s['max']:{span}})"))
        if key == "actions" and summary["actions_per_turn"] is not None:
            rows.append(Row("actions per turn", summary["actions_per_turn"], f"{summary['actions_per_turn']:.1f}"))
    rows.extend(_timeline_rows(summary.get("timeline")))
    errors = summary["errors"]
    rows.append(Row("errors", len(errors), f"{len(errors)}" + (f" (seeds {', '.join(map(str, errors))})" if errors else "")))
    return rows


def _timeline_rows(timeline: dict[str, Any] | None) -> list[Row]:
    """Per place: the games where it changed hands, who took it (in how many of them) and the median
    turn it first did; per side: the median units (strength points) eliminated by the last turn."""
    if not timeline:
        return []
    rows = []
    for h, p in timeline["places"].items():
        value, text = _rate(p["changed"], p["games"])
        if p.get("taken_by"):  # who held it at its first change (None: nobody)
            text += ", taken by " + ", ".join(f"{'nobody' if side in (None, 'None') else side} {n}"
                                              for side, n in sorted(p["taken_by"].items(), key=lambda kv: (-kv[1], str(kv[0]))))
        if p["first_turn_median"] is not None:
            text += f", first at turn {p['first_turn_median']:g}"
        rows.append(Row(f"{p['name']} {h} changed hands", value, text, "%"))
    for side, lost in timeline["eliminated_median"].items():
        rows.append(Row(f"median units eliminated {side}", lost["units"],
                        f"{lost['units']:g} ({lost['strength']:g} SP)"))
    return rows


def compare_rows(base: dict[str, Any], other: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """``(label, base text, other text, difference)`` for the rows of both summaries (a row
    missing on one side shows ``-``); percentages differ in points (``pp``)."""
    a = {r.label: r for r in summary_rows(base)}
    b = {r.label: r for r in summary_rows(other)}
    labels = list(a) + [label for label in b if label not in a]
    out = []
    for label in labels:
        ra, rb = a.get(label), b.get(label)
        diff = ""
        va = ra.value if ra is not None else (0.0 if rb is not None and rb.unit == "%" else None)
        vb = rb.value if rb is not None else (0.0 if ra is not None and ra.unit == "%" else None)
        if va is not None and vb is not None and label not in ("games played", "seconds per game"):
            unit = " pp" if (ra or rb).unit == "%" else ""  # type: ignore[union-attr]
            diff = f"{vb - va:+.1f}{unit}" if vb != va else "="
        out.append((label, ra.text if ra else "-", rb.text if rb else "-", diff))
    return out


def differing_traces(base: Sequence[GameRecord], other: Sequence[GameRecord]) -> list[int]:
    """Seeds whose play differs at all between two batches of the same seeds (trace digests)."""
    theirs = {r.seed: r.digest for r in other}
    return [r.seed for r in base if r.seed in theirs and theirs[r.seed] != r.digest]


def changed_seeds(base: Sequence[GameRecord], other: Sequence[GameRecord]) -> list[int]:
    """Seeds whose outcome (winner and level) differs between two batches of the same seeds."""
    theirs = {r.seed: outcome(r) for r in other}
    return [r.seed for r in base if r.seed in theirs and theirs[r.seed] != outcome(r)]
