"""Every answer explains itself with lines (issue #15 item 3), audited on a played position:
the October Blitz (greedy, seed 1) after 150 actions.

- every question Moscow '41 answers (``casebook ask``'s list, :func:`questions_of`) is asked;
  whenever a rule-script line that fired while it was computed cites a case the answer cites
  (a script line decided it), the answer carries ``lines``, and they name every such case; each
  line is a ``file:line`` of the game's rules folder with its text, which ``casebook explain``
  prints (:func:`casebook.tools.cmd_explain`'s reading of the line);
- the refusals of a sample of illegal actions carry the lines citing their cases the same way;
- a question is not skipped by the audit: the list of questions asked is the game's whole list.
"""

from __future__ import annotations

import re

import pytest

from casebook.core.hexgrid import hex_label, parse_hex
from casebook.tools.ask_cases import _cited
from casebook.tools.cmd_ask import answer_ctx, questions_of, why_not_lines
from tests.conftest import played_blitz

_SOURCE = re.compile(r"^[\w./-]+\.(rules|yaml):\d+$")  # a rule line, or a table row (content/tablelines.py)


@pytest.fixture(scope="module")
def played():
    return played_blitz(150)


def _args(state) -> dict[str, tuple[list[str], dict]]:
    """Arguments for every question, taken from the position: a German unit, a Soviet one next
    to it (an attack, an overrun, a retreat), a neighbour hex (a move, a ZOC)."""
    units = [u for u in state.data.units if u.get("hex")]
    ger = [u for u in units if u["side"] == "german" and u.get("class") != "hq"]
    sov = [u for u in units if u["side"] == "soviet" and u.get("class") != "hq"]
    board = state.ctx().board
    by_hex = {u["hex"]: u for u in sov}
    g, s = next((u, by_hex[hex_label(n)]) for u in ger for n in board.neighbours(parse_hex(u["hex"]))
                if hex_label(n) in by_hex)
    near = [hex_label(n) for n in board.neighbours(parse_hex(g["hex"])) if hex_label(n) not in by_hex]
    return {
        "attack": ([s["hex"]], {"with": [g["id"]]}), "command": ([g["id"]], {}), "drop": ([], {}),
        "fortification": ([g["hex"]], {}), "income": (["german"], {}), "move": ([g["hex"], near[0]], {}),
        "offer": (["place_partisan"], {}), "overrun": ([g["hex"], s["hex"]], {}), "partisans": ([], {}),
        "rail": ([s["hex"]], {}), "reach": ([g["hex"]], {}), "reinforcements": (["soviet"], {}),
        "retreat": ([s["id"]], {"hexes": 2}), "stacking": ([g["hex"]], {}), "supply": ([s["id"]], {}),
        "vp": ([], {}), "weather": ([], {}), "zoc": ([near[0]], {}),
    }


def _raw(ctx, question, args, options) -> list[dict]:
    """Every line that fired while the answer was computed (the recording, unfiltered)."""
    with ctx.engine.recording_lines() as raw:
        ctx.hook.casebook_answer(ctx=ctx, question=question, args=list(args), options=options)
    return raw


def _line_text(engine, source: str) -> str:
    """The line's text as ``casebook explain`` reads it: the rules folder's file at that line
    (a table line: the pack folder's file, its enclosing keys first)."""
    from casebook.content.loader import find_pack
    from casebook.content.tablelines import line_text_at

    name, number = source.rsplit(":", 1)
    if name.endswith(".yaml"):
        return line_text_at(find_pack(engine.pack.id), name, int(number))
    path = find_pack(engine.pack.id) / "rules" / name
    return path.read_text().splitlines()[int(number) - 1]


def test_every_question_of_the_game_is_audited(played):
    assert set(_args(played)) == set(_QUESTIONS) == set(questions_of(played.game.engine))


_QUESTIONS = ("attack", "command", "drop", "fortification", "income", "move", "offer", "overrun", "partisans",
              "rail", "reach", "reinforcements", "retreat", "stacking", "supply", "vp", "weather", "zoc")


@pytest.mark.parametrize("question", _QUESTIONS)
def test_an_answer_decided_by_a_script_line_names_it(played, question):
    args, options = _args(played)[question]
    ctx = played.ctx()
    answer = answer_ctx(ctx, question, args, options)
    cited = _cited(answer, set())
    deciding = {c for ln in _raw(ctx, question, args, options) for c in ln["cases"]} & cited
    if not deciding:
        return  # no line that fired decided anything the answer cites
    lines = answer.get("lines")
    assert lines, f"{question}: lines citing {sorted(deciding)} fired, the answer names none"
    assert deciding <= {c for ln in lines for c in ln["cases"]}
    for ln in lines:
        assert _SOURCE.match(ln["source"]), ln
        assert ln["text"].split("  by")[0].strip() in _line_text(ctx.engine, ln["source"])


def _illegal(state) -> list[str]:
    """Illegal actions of the player to act: an enemy stack activated, a unit broken down that
    the lines forbid (a Soviet one), an HQ activated twice, a move outside the Movement Step."""
    side = state.current_player()
    enemy = next(u for u in state.data.units if u.get("hex") and u["side"] != side)
    activated_hq = next((u for u in state.data.units if u.get("class") == "hq" and u.get("activated")
                         and u["side"] == side), None)
    own = next(u for u in state.data.units if u.get("hex") and u["side"] == side and u.get("class") != "hq")
    out = [f"{side}: activate-stack stack={enemy['hex']}", f"{side}: breakdown unit={enemy['id']}",
           f"{side}: move stack={own['hex']} path={own['hex']}"]
    if activated_hq is not None:
        out.append(f"{side}: activate-hq hq={activated_hq['id']}")
    return out


def test_a_refusal_decided_by_a_script_line_names_it(played):
    seen = 0
    for action in _illegal(played):
        state = played.clone()
        cases, reason, lines = why_not_lines(state, action)
        assert cases, action  # refused
        with state.game.engine.recording_lines() as raw:
            state.why_not(action)
        deciding = {c for ln in raw for c in ln["cases"]} & set(cases)
        if not deciding:
            continue
        seen += 1
        assert lines, f"{action}: lines citing {sorted(deciding)} fired, the refusal names none"
        assert deciding <= {c for ln in lines for c in ln["cases"]}
        assert all(_SOURCE.match(ln["source"]) and ln["text"] for ln in lines)
    assert seen  # at least one refusal of the sample is a script line's
