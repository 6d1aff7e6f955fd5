"""The shared area ``fieldworks`` with a made-up game's names (no Moscow '41 pack): points paid
pool by pool in order, a pool used only where its permission allows; collected and expired
points follow the game's ``income`` quantity and ``save`` permission."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casebook.areas import fieldworks as fw

WORKS = fw.Works(
    plugin="digging", track="spades", point_kinds=("plain", "gold"), kind_fact="spade_kind", income="spade_income",
    save="keep_spades", points_side="blue", marker="trench", destroyed_marker="trench-gone", builder_side="blue",
    helps_attacker="trench_helps", destroy="fill_trench", destroyed="trench_result",
    formation_side="red", formation_flag="square", formation_marker="square", form_steps=("move",),
    remove_steps=("move",), formation="form_square", move_after_formation="move_after_square", left_fact="left",
    move_kinds=("move",), attack_kinds=("attack",), march_kind="march", advance_kind="advance",
    cases={"collected": ("X1",), "lost": ("X2",)},
    events={"collected": ("spades-in", "digging.collect"), "lost": ("spades-lost", "digging.expire")})


@dataclass
class _Answer:
    value: Any


@dataclass
class _State:
    tracks: dict[str, int]
    turn: int = 4

    def track(self, name: str, kind: str) -> int:
        return self.tracks.get(kind, 0)

    def add_track(self, name: str, n: int, kind: str) -> None:
        self.tracks[kind] = self.tracks.get(kind, 0) + n


@dataclass
class _Ctx:
    state: _State
    forbidden: set[str] = field(default_factory=set)
    events: list[tuple[str, tuple[str, ...], Any]] = field(default_factory=list)

    def allowed(self, name: str, facts: Any) -> bool:
        return (name, facts.get("spade_kind")) not in self.forbidden and name not in self.forbidden

    def quantity(self, name: str, facts: Any) -> _Answer:
        return _Answer({"plain": 3, "gold": 2}[facts["spade_kind"]])

    def fired_lines(self, answer: Any) -> list[Any]:
        return []

    def changed(self) -> None:
        pass

    def record(self, kind: str, cases: tuple[str, ...], payload: Any, **kw: Any) -> None:
        self.events.append((kind, cases, payload))


def test_payment_takes_the_pools_in_order_where_allowed():
    ctx = _Ctx(_State({"plain": 2, "gold": 1}))
    assert fw.payment(ctx, WORKS, ("gold", "plain"), {"gold": "use_gold"}, {}, 3) == {"gold": 1, "plain": 2}
    assert fw.payment(ctx, WORKS, ("gold", "plain"), {"gold": "use_gold"}, {}, 4) is None
    ctx.forbidden.add("use_gold")
    assert fw.payment(ctx, WORKS, ("gold", "plain"), {"gold": "use_gold"}, {}, 2) == {"gold": 0, "plain": 2}
    assert fw.payment(ctx, WORKS, ("gold", "plain"), {"gold": "use_gold"}, {}, 3) is None


def test_points_collected_and_the_unsaved_kind_lost():
    ctx = _Ctx(_State({"plain": 1, "gold": 5}), forbidden={("keep_spades", "gold")})
    assert fw.collect_points(ctx, WORKS) == {"plain": 4, "gold": 2}  # gold not kept: only this turn's
    assert ctx.events[-1][:2] == ("spades-in", ("X1",))
    assert fw.expire_points(ctx, WORKS) == 2
    assert ctx.state.tracks == {"plain": 4, "gold": 0}
    assert ctx.events[-1] == ("spades-lost", ("X2",), {"gold": 2})
