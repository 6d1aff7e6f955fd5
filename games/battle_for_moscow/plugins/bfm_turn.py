"""Battle for Moscow rules plugin ``bfm_turn``: the Turn Record (mud turns BM4.3A, the 1st Shock
Army's arrival BM4.3B) and the replacement phases (BM4.1A, BM4.2A; BM9.1-BM9.5).

At the start of each turn the ground of the Turn Record row is set (``tables/turn_record.yaml``).
In a replacement phase the phasing side has the row's replacement steps (BM9.1; unused ones are
lost at the end of the phase) and spends them one at a time:

- ``assign-rp unit=ID`` — flip a half-strength unit on the map to full (BM9.2);
- ``place-reinforcement unit=ID hex=HEX`` — bring a unit off the map (the pool, eliminated units,
  the 1st Shock Army from turn 4) on at half strength (BM9.2) in an empty hex of the friendly map
  edge or an empty friendly city (BM9.3);

both where the script permission ``place_replacement`` allows: in communication (BM9.4), or for
the Soviets in Moscow without it (BM9.5). Answers ``casebook ask … communication HEX SIDE``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from casebook.areas.movement import in_ezoc
from casebook.areas.search import nearest
from casebook.content.cases import implements
from casebook.core.actions import Action
from casebook.core.errors import QuestionError
from casebook.core.hexgrid import hex_label, parse_hex
from casebook.core.hooks import Refusal, hookimpl

__all__ = ["STATE_SCHEMA", "REQUIRES", "QUESTIONS", "turn_row", "communication", "replacement_actions"]
#: What the pack must hold for this plugin (src/casebook/content/requires.py).
REQUIRES = {"tables": ["turn_record", "unit_steps"]}

QUESTIONS = {"communication": "communication HEX SIDE — is HEX in communication for SIDE: a path to "
                              "its map edge free of enemy units and enemy ZOC (BM9.4)"}
PLUGIN = "bfm_turn"


def turn_row(ctx: Any, turn: int | None = None) -> Mapping[str, Any]:
    """The Turn Record row of ``turn`` (default: now); the last row past the end."""
    rows = {int(r["turn"]): r for r in ctx.records("turn_record")}
    t = ctx.state.turn if turn is None else turn
    return rows.get(t) or rows[max(rows)]


@implements("BM9.4", "BM2.3A", "BM2.3B")
def communication(ctx: Any, hex_: str, side: str) -> list[str] | None:
    """A path from ``hex_`` to ``side``'s map edge (west German, east Soviet: BM2.3) whose hexes
    after the first hold no enemy unit and no enemy ZOC (BM9.4), or None. The shortest, in label
    order (the shared search's :func:`~casebook.areas.search.nearest`)."""
    key = ("bfm_turn.comm", hex_, side)
    if key in ctx.memo:
        return ctx.memo[key]
    edge = {hex_label(h) for h in ctx.board.edge_hexes(_edge(ctx, side))}
    found = nearest(hex_, lambda h: [hex_label(n) for n in ctx.board.neighbours(parse_hex(h))],
                    lambda here, there: not any(u.get("side") != side for u in ctx.state.units_at(there))
                    and not in_ezoc(ctx, there, side), lambda h: h in edge)
    ctx.memo[key] = found
    return found


def _allowed(ctx: Any, hex_: str, side: str) -> Any:
    facts = {"side": side, "in_communication": communication(ctx, hex_, side) is not None,
             "in_moscow": parse_hex(hex_) in ctx.board.hex_set("moscow")}
    return ctx.permission("place_replacement", facts)


def _left(ctx: Any) -> int:
    rec = ctx.state.plugin_data(PLUGIN) or {}
    return int(rec.get("left", 0)) if rec.get("key") == f"{ctx.state.turn}:{ctx.state.phase}" else 0


def _placement_hexes(ctx: Any, side: str) -> list[str]:
    """Empty hexes of the friendly map edge and empty friendly cities (BM9.3), label order."""
    hexes = {hex_label(h) for h in ctx.board.edge_hexes(_edge(ctx, side))}
    hexes |= {hex_label(h) for h in ctx.board.towns() if ctx.state.control(hex_label(h)) == side}
    return sorted(h for h in hexes if not ctx.state.units_at(h))


def _entry(ctx: Any, unit: Mapping[str, Any]) -> int:
    counter = ctx.pack.counters.get(unit.get("counter") or unit["id"], {})
    return int(counter.get("entry") or 1)


def _reduced(ctx: Any, unit: Mapping[str, Any]) -> tuple[int, int]:
    key = unit.get("counter") or unit["id"]
    row = next(r for r in ctx.records("unit_steps") if r["unit"] == key)
    return int(row["full"]), int(row["reduced"])


@implements("BM9.2", "BM9.3", "BM9.5", "BM4.3B")
def replacement_actions(ctx: Any, side: str) -> list[Action]:
    """The replacement steps ``side`` may take now (see the module docstring)."""
    if _left(ctx) <= 0:
        return []
    out = []
    for u in ctx.state.units:
        if u.get("side") != side:
            continue
        full, reduced = _reduced(ctx, u)
        if u.get("hex"):
            if int(u.get("strength") or 0) < full and _allowed(ctx, u["hex"], side).value:
                out.append(Action.make("assign-rp", side, unit=u["id"]))
        elif _entry(ctx, u) <= ctx.state.turn:
            for h in _placement_hexes(ctx, side):
                if _allowed(ctx, h, side).value:
                    out.append(Action.make("place-reinforcement", side, unit=u["id"], hex=h))
    return out


# ------------------------------------------------------------------------------------- hooks
@implements("BM4.3A", "BM9.1", "BM4.1A")
@hookimpl
def casebook_step_start(ctx: Any, phase: str, step: str) -> None:
    """The first step of a turn sets the Turn Record's ground (BM4.3A); a replacement phase gets
    the row's steps for the phasing side (BM9.1; none for the Germans on turn 1, BM4.1A)."""
    if step != "replacements":
        return
    row, side = turn_row(ctx), ctx.state.phasing
    if phase == ctx.engine.sequence.phases[0].id:
        ground = str(row["ground"])
        if (ctx.state.weather or {}).get("ground") != ground:
            ctx.state.set_weather(temperature=(ctx.state.weather or {}).get("temperature", "warm"), ground=ground)
        ctx.record("turn-record", ["BM4.3A"], {"turn": ctx.state.turn, "date": row["date"], "ground": ground},
                   source=f"{PLUGIN}.turn_record", side=None)
    steps = int(row["replacements"][side])
    ctx.state.set_plugin_data(PLUGIN, {"key": f"{ctx.state.turn}:{phase}", "left": steps})
    ctx.record("replacement-steps", ["BM9.1", "BM4.1A" if side == "german" else "BM4.2A"],
               {"side": side, "steps": steps}, source=f"{PLUGIN}.replacements", side=side)
    ctx.changed()


@hookimpl
def casebook_step_end(ctx: Any, phase: str, step: str) -> None:
    if step == "replacements" and _left(ctx) > 0:
        ctx.record("replacement-steps-lost", ["BM9.1"], {"side": ctx.state.phasing, "steps": _left(ctx)},
                   source=f"{PLUGIN}.replacements", side=ctx.state.phasing)
        ctx.state.set_plugin_data(PLUGIN, None)


@hookimpl
def casebook_decider(ctx: Any, phase: str, step: str) -> str | None:
    return ctx.state.phasing if step == "replacements" else None


@hookimpl
def casebook_legal_actions(ctx: Any, phase: str, step: str) -> list[Any]:
    if step != "replacements":
        return []
    return replacement_actions(ctx, ctx.state.phasing) + [Action.make("pass", ctx.state.phasing)]


@hookimpl
def casebook_validate_action(ctx: Any, action: Any) -> list[Any]:
    if action.kind not in ("assign-rp", "place-reinforcement") or ctx.state.step != "replacements":
        return []
    if _left(ctx) <= 0:
        return [Refusal(f"{action.side} has no replacement step left this turn", ("BM9.1",), PLUGIN)]
    if action not in replacement_actions(ctx, action.side):
        hex_ = action.get("hex") or (ctx.state.unit(str(action.get("unit"))).get("hex")
                                     if ctx.state.has_unit(str(action.get("unit"))) else None)
        cases = tuple(_allowed(ctx, str(hex_), action.side).cases) if hex_ else ("BM9.2",)
        return [Refusal("not a legal replacement: the unit must be half strength on the map (flip) or off "
                        "it and available (new), in an empty edge hex or friendly city in communication",
                        cases or ("BM9.2", "BM9.3"), PLUGIN)]
    return []


@hookimpl
def casebook_apply_action(ctx: Any, action: Any) -> Any:
    if action.kind not in ("assign-rp", "place-reinforcement") or ctx.state.step != "replacements":
        return None
    uid = str(action.get("unit"))
    full, reduced = _reduced(ctx, ctx.state.unit(uid))
    if action.kind == "assign-rp":
        ctx.state.update_unit(uid, strength=full)
        data, cases = {"unit": uid, "strength": full}, ["BM9.2"]
    else:
        hex_ = str(action.get("hex"))
        ctx.state.update_unit(uid, hex=hex_, strength=reduced)
        data, cases = {"unit": uid, "hex": hex_, "strength": reduced}, ["BM9.2", "BM9.3"]
        if parse_hex(hex_) in ctx.board.hex_set("moscow"):
            cases.append("BM9.5")
    rec = ctx.state.plugin_data(PLUGIN)
    rec["left"] = int(rec["left"]) - 1
    ctx.state.set_plugin_data(PLUGIN, rec)
    ctx.changed()
    ctx.record("replacement", cases, data, source=f"{PLUGIN}.apply", side=action.side)
    return data


@hookimpl
def casebook_answer(ctx: Any, question: str, args: Sequence[str], options: Mapping[str, Any]) -> Any:
    if question != "communication":
        return None
    if len(args) != 2 or args[1] not in ctx.pack.vocabulary.side_ids:
        raise QuestionError("usage: " + QUESTIONS["communication"])
    path = communication(ctx, args[0], args[1])
    verdict = _allowed(ctx, args[0], args[1])
    return {"hex": args[0], "side": args[1], "in_communication": path is not None, "path": path,
            "may_replace_here": bool(verdict.value), "cases": sorted({"BM9.4", *verdict.cases})}


def _edge(ctx: Any, side: str) -> str:
    """The map edge ``side`` retreats towards and draws replacements from: its ``edge`` in the
    game's vocabulary (game.yaml)."""
    edge = ctx.pack.vocabulary.side(side).edge
    if edge is None:
        raise ValueError(f"side {side!r} has no edge in the game's vocabulary (game.yaml)")
    return edge


class STATE_SCHEMA(TypedDict, total=False):  # noqa: N801  (read by src/casebook/content/savecheck.py)
    """``plugin_state.bfm_turn``: the replacement steps ``left`` to the phase ``key``
    ("turn:phase", BM9.1)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    key: str
    left: Annotated[int, Field(ge=0)]
