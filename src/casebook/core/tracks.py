"""The bounds of a position's tracks (IPs, RPs, FPs, partisans), read from the pack.

:func:`track_bounds` is the one place a bound is read, so it is easy to redirect when tracks
become a pack vocabulary item. Today: every track is >= 0 (the kernel's tracks never go below
zero, :meth:`casebook.core.state.GameState.add_ip`); an upper bound comes from the rule
scripts — the IP track's is the unconditional ``at most`` of quantity ``ip_total`` (Moscow '41:
``at most 99 by 1.4``, "the maximum number of IPs either side can accumulate is 99"). A game
whose scripts bound nothing has no upper bound.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from casebook.core.errors import Problem

__all__ = ["TrackBound", "track_bounds", "track_problems"]

#: track -> the quantity whose unconditional ``at most`` is its maximum
_CAPPED_BY = {"ip": "ip_total"}


@dataclass(frozen=True)
class TrackBound:
    """A track's bounds: ``low`` and ``high`` (None: unbounded) and the cases that set them."""

    track: str
    low: int
    high: int | None
    cases: tuple[str, ...] = ()


def _cap(rules: Any, quantity: str) -> tuple[int | None, tuple[str, ...]]:
    q = getattr(rules, "quantities", {}).get(quantity) if rules is not None else None
    for bound in getattr(q, "bounds", ()):
        if bound.kind == "at_most" and bound.cond is None and bound.high is not None:
            from casebook.script.exprs import Env

            try:
                value = bound.high(Env({}, None, rules), None)
            except Exception:  # a bound that reads facts is not a constant maximum
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                return value, tuple(bound.code.cases)
    return None, ()


def track_bounds(rules: Any) -> dict[str, TrackBound]:
    """Bounds of the tracks ``ip``, ``rp``, ``fp``, ``partisans`` under compiled ``rules``."""
    out = {}
    for track in ("ip", "rp", "fp", "partisans"):
        high, cases = _cap(rules, _CAPPED_BY[track]) if track in _CAPPED_BY else (None, ())
        out[track] = TrackBound(track, 0, high, cases)
    return out


def _values(data: Mapping[str, Any], track: str) -> list[tuple[tuple, Any]]:
    value = data.get(track)
    if track == "partisans":
        return [] if value is None else [((track,), value)]
    if not isinstance(value, Mapping):
        return []
    out: list[tuple[tuple, Any]] = []
    for key, v in value.items():
        if isinstance(v, Mapping):
            out += [((track, key, k2), v2) for k2, v2 in v.items()]
        else:
            out.append(((track, key), v))
    return out


def track_problems(data: Mapping[str, Any], rules: Any,
                   locate: Callable[[tuple], tuple[str, int, int]]) -> list[Problem]:
    """Every track value of position ``data`` that is not an int within :func:`track_bounds`."""
    out = []
    for track, bound in track_bounds(rules).items():
        for kp, value in _values(data, track):
            file, line, col = locate(kp)
            key = ".".join(map(str, kp))
            if not isinstance(value, int) or isinstance(value, bool):
                out.append(Problem(file, line, col, key, f"expected an int, got {value!r}"))
            elif value < bound.low:
                out.append(Problem(file, line, col, key, f"{value} is below the track's minimum {bound.low}"))
            elif bound.high is not None and value > bound.high:
                by = f" ({', '.join(bound.cases)})" if bound.cases else ""
                out.append(Problem(file, line, col, key, f"{value} is above the track's maximum {bound.high}{by}"))
    return out
