"""The engine: a pack, its board, compiled rules and plugins; contexts bound to a state."""

from __future__ import annotations

import pytest

from casebook.content.position import load_position
from casebook.core.errors import ContentError
from casebook.core.hooks import hookimpl
from casebook.core.trace import Trace
from casebook.script.engine import Engine, load_engine, state_from_position


class _Zoc:
    @hookimpl
    def casebook_zoc(self, ctx, hex, side):
        return {"hex": hex, "exerted_by": [u["id"] for u in ctx.state.units_at("0304")],
                "kind": "locking", "cases": ["7.0A"]}


def test_engine_loads_mini_pack_and_binds_a_state(mini_pack):
    engine = Engine.load(mini_pack, extra_plugins={"zoc": _Zoc()})
    engine.pm.record_calls()
    state = state_from_position(engine.pack.scenario("skirmish"))
    ctx = engine.ctx(state, Trace())
    assert ctx.board is engine.board          # the scenario has no inline map
    assert ctx.pack.id == "mini"
    answer = ctx.hook.casebook_zoc(ctx=ctx, hex="0305", side="soviet")
    assert answer["cases"] == ["7.0A"] and answer["kind"] == "locking"
    ev = ctx.record("note", ["7.0A"], {"x": 1}, source="test")
    assert ev.seq == 0 and ev.cases == ("7.0A",) and ctx.trace[0] is ev
    assert engine.pm.calls[-1].answered_by == ("zoc",)


def test_inline_map_position_gets_its_own_board(mini_pack):
    engine = Engine.load(mini_pack)
    pos = load_position(
        "kind: position\nformat: 1\ngame: mini\n"
        "map: {layout: flat-top-even-q, size: {columns: 3, rows: 3}, terrain: {default: clear}}\n"
        "turn: 1\nunits: []\n",
        pack=engine.pack,
    )
    ctx = engine.ctx(state_from_position(pos))
    assert ctx.board is not engine.board and len(ctx.board.grid.hexes()) == 9
    assert engine.ctx(state_from_position(pos)).board is ctx.board   # built once per map


def test_a_pure_query_context_records_nothing(mini_pack):
    engine = Engine.load(mini_pack)
    ctx = engine.ctx(state_from_position(engine.pack.scenario("skirmish")))
    assert ctx.record("note") is None
    with pytest.raises(KeyError, match="no table 'crt'"):
        ctx.table("crt")


def test_unregistered_plugin_in_manifest_is_refused(tmp_path, mini_pack):
    import shutil

    pack = tmp_path / "mini"
    shutil.copytree(mini_pack, pack)
    text = (pack / "game.yaml").read_text().replace("plugins: []", "plugins: [os]")
    (pack / "game.yaml").write_text(text)
    with pytest.raises(ContentError, match="os"):
        Engine.load(pack)


def test_moscow41_engine_compiles_its_rules():
    engine = load_engine("moscow41")
    assert load_engine("moscow41") is engine
    assert "attack_drm" in engine.rules.quantities
