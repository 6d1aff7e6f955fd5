"""``ask … move`` and play agree on an explicit path (issue #15, guide rule 12: ask and play share
one code path for every legality and number): play lists one ``move`` per destination along one
cheapest path and accepts any other path no validator refuses (9.0A: "a path of contiguous
hexes"; the ``move`` template of each stack); ``ask move`` answers that same verdict, the same MPs
and the same refusal (its reasons and cases) — and ``ask why`` of a legal move names the lines
that decided its MPs (the MA's, the TEC lookups') and not the searches met on the way."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from casebook.content.position import position_to_dict
from casebook.core.actions import Action
from casebook.core.game import Game
from casebook.tools.cmd_ask import _position_engine, answer_ctx, why_not_lines

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "docs" / "examples" / "reach-move.yaml"


def _state(position: Path, pack: Path | None = None):
    pos, engine = _position_engine(str(position), str(pack) if pack else None)
    game = Game(engine, next(iter(engine.pack.scenarios)))
    return game.state_from_dict(position_to_dict(pos))


def _ask(state, stack: str, path: list[str]) -> dict:
    return answer_ctx(state.game.engine.ctx(state.data), "move", [stack, *path], {})


def _played(state, stack: str, path: list[str]) -> tuple[tuple[str, ...], str, dict | None]:
    """Play's verdict on ``move stack=… path=…`` (State.why_not) and, legal, its ``move`` event."""
    action = Action.make("move", state.current_player(), stack=stack, path=path)
    cases, reason = state.why_not(action)
    if reason != "legal":
        return cases, reason, None
    other = state.clone()
    seen = len(other.trace)
    other.apply(action)
    return cases, reason, next(e.data for e in list(other.trace)[seen:] if e.kind == "move")


def _agree(state, stack: str, path: list[str]) -> dict:
    answer = _ask(state, stack, path)
    cases, reason, event = _played(state, stack, path)
    assert answer["legal"] is (reason == "legal"), (path, answer, reason)
    if event is not None:  # the same MPs as play spends
        assert (answer["mp_spent"], answer["mp_left"], answer["stops_at"]) == (
            event["mp_spent"], event["mp_left"], path[-1]), (path, answer, event)
    else:  # the same refusal: play's reasons and cases
        assert (answer["refused"]["reason"], tuple(answer["refused"]["cases"])) == (reason, cases), (path, answer)
    return answer


@pytest.mark.case("9.0A", "9.1A", "9.2A", "9.2B", "7.2")
def test_9_0A_ask_move_and_play_agree_on_explicit_paths():
    state = _state(EXAMPLE)
    named = {  # path -> (legal, mp_spent)
        ("0203",): (True, 2),                          # the listed (cheapest) move: river 1 + clear 1, 9.2B
        ("0203", "0204", "0304"): (True, 4),           # not the cheapest way to 0304 (3 MPs): 9.2B's example
        ("0102", "0103", "0104", "0105"): (True, 4),   # another way than the listed one
        ("0203", "0204", "0304", "0404"): (False, 4),  # beyond the MA (9.1A)
        ("0302", "0402", "0403", "0404", "0405"): (False, 4),  # on through the EZOC of 0404 (7.2)
    }
    listed = {a.get("path") for a in state.legal_actions() if a.kind == "move" and a.get("stack") == "0202"}
    assert ("0203", "0204", "0304") not in listed and ("0203",) in listed
    for path, (legal, spent) in named.items():
        answer = _agree(state, "0202", list(path))
        assert (answer["legal"], answer["mp_spent"]) == (legal, spent), path
    # the EZOC refusal is play's: the movement area's and the ZOC area's, with their cases
    ezoc = _ask(state, "0202", ["0302", "0402", "0403", "0404", "0405"])["refused"]
    assert (ezoc["hex"], ezoc["cases"][0]) == ("0405", "7.2")
    # every path of one or two hexes from the infantry's hex, and the panzer regiment's (fluid ZOC, 8 MA)
    for stack in ("0202", "0104"):
        near = state.game.engine.ctx(state.data).board.label_neighbours
        for a in near(stack):
            for path in ([a], *([a, b] for b in near(a) if b != stack)):
                _agree(state, stack, path)


@pytest.mark.case("9.1A", "9.1D")
def test_9_1A_the_stack_being_moved_is_asked_with_its_mps_left_as_play_walks_it():
    state = _state(EXAMPLE)
    state.apply(Action.make("move", "german", stack="0202", path=["0203"]))  # 2 of its 4 MPs
    answer = _agree(state, "0203", ["0204", "0304"])
    assert (answer["legal"], answer["mp_spent"], answer["mp_left"]) == (True, 2, 0)
    over = _agree(state, "0203", ["0204", "0304", "0404"])
    assert (over["legal"], over["refused"]["hex"], over["refused"]["cases"]) == (False, "0404", ["9.1A", "9.2C", "9.2A"])


@pytest.mark.case("9.2A", "9.2C")
def test_9_2A_a_hexside_the_tec_prohibits_is_refused_alike_by_ask_and_play(tmp_path):
    pack = tmp_path / "moscow41"
    shutil.copytree(ROOT / "games" / "moscow41", pack, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    table = pack / "tables" / "tec_prohibited.yaml"
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace("rows: []", 'rows:\n  - {feature: "river", unit: "infantry", column: "dry"}'),
                     encoding="utf-8")
    state = _state(EXAMPLE, pack)
    for path in (["0203"], ["0203", "0204"], ["0302", "0303"], ["0102", "0203"]):
        answer = _agree(state, "0202", path)
        assert answer["legal"] is (path == ["0302", "0303"]), path
    assert "9.2A" in _ask(state, "0202", ["0203"])["refused"]["cases"]


def _lines(state, text: str) -> list[str]:
    cases, reason, lines = why_not_lines(state, text)
    assert reason == "legal", reason
    return [ln["source"] for ln in lines]


@pytest.mark.case("9.1A", "9.2A", "9.2B")
def test_9_2B_a_legal_move_names_its_ma_and_tec_lines_in_why_not_the_searches(tmp_path):
    # an all-clear map with the river: the supply search reads no TEC cell the path does not
    position = tmp_path / "clear.yaml"
    position.write_text(EXAMPLE.read_text(encoding="utf-8").replace(
        'terrain: {default: clear, "0303": forest, "0603": swamp}', "terrain: {default: clear}").replace(
        '    - {hexes: ["0302", "0303"], road: true}\n', ""), encoding="utf-8")
    state = _state(position)
    # 9.1A the MA, the TEC column (4.1B: Dry, it chose the cells), 9.2A the terrain, 9.2B the
    # river hexside and their TEC cells (clear, river)
    lines = _lines(state, "move stack=0202 path=0203")
    assert lines[:4] == ["movement.rules:7", "weather.rules:33", "movement.rules:19", "movement.rules:20"]
    assert sorted(lines[4:]) == ["tables/tec.yaml:17", "tables/tec_hexside.yaml:17"]
    # no river crossed: no hexside line; never the supply search's (supplied), the ZOC column's
    # or who moves (session 17, mv17)
    assert _lines(state, "move stack=0202 path=0302,0303") == ["movement.rules:7", "weather.rules:33",
                                                               "movement.rules:19", "tables/tec.yaml:17"]
    # a non-listed path is legal and names the same kind of lines
    assert _lines(state, "move stack=0202 path=0203,0204,0304")[:4] == [
        "movement.rules:7", "weather.rules:33", "movement.rules:19", "movement.rules:20"]


@pytest.mark.case("4.3D", "9.1A")
def test_4_3D_a_legal_move_in_mud_names_the_halved_ma_line(tmp_path):
    position = tmp_path / "mud.yaml"
    position.write_text(EXAMPLE.read_text(encoding="utf-8").replace("ground: dry", "ground: mud"), encoding="utf-8")
    state = _state(position)
    lines = _lines(state, "move stack=0202 path=0302")
    # the MA halved (4.3D), the Mud columns of the TEC and of the ZOC chart (4.3E, 4.3F: the movers'
    # costs and ZOC treatment), the TEC lookup and its clear/infantry/mud cell; no supply or stacking line
    assert sorted(s for s in lines if not s.startswith("tables/")) == [
        "movement.rules:19", "movement.rules:7", "movement.rules:9", "weather.rules:35", "weather.rules:42"]
    assert "tables/tec.yaml:19" in lines


def test_every_move_listed_is_its_stacks_template_filling():
    state = _state(EXAMPLE)
    templates = [t for t in state.action_templates() if t.kind == "move"]
    assert {dict(t.fixed)["stack"] for t in templates} == {"0202", "0104"}
    assert all(any(t.matches(a) for t in templates) for a in state.legal_actions() if a.kind == "move")
    assert all(t.cases == ("9.0A",) for t in templates)
    assert list(itertools.islice((str(t) for t in templates), 1)) == [
        "german: move path=<H,H… the hexes entered in order: any path> stack=0104"]
