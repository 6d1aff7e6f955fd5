"""A hand-edited position that lacks a field the rules read (issue #18, session 8): one located
line naming the file, the field and what to add, exit 1 — in `ask`, `play --load` and `serve --load`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security._secutil import run

ROOT = Path(__file__).resolve().parents[1]


def _without(tmp_path: Path, source: str, *keys: str) -> Path:
    """A hand-edited copy of ``source`` without the top-level ``keys``."""
    lines = (ROOT / source).read_text().splitlines(keepends=True)
    out = tmp_path / "edited.yaml"
    out.write_text("".join(ln for ln in lines if not any(ln.startswith(f"{k}:") for k in keys)))
    return out


def test_a_position_without_phasing_is_refused_naming_the_file_and_the_field_ask_and_play_load(tmp_path):
    """Issue #18: a hand-edited Moscow '41 position (the Soviet Replacement Step of Turn 10) without
    `phasing` ended in a raw quoted KeyError text ("'fact `phasing_side` was not given
    (combat.rules:58:77)'"): the 10.7A Guards lines read the phasing side. Now `ask` and
    `play --load` say which file lacks which field and what to add, exit 1; without `first_player`
    as well, the position check refuses it first (tests/test_position_first_player.py)."""
    edited = _without(tmp_path, "docs/examples/reinforcements-turn10.yaml", "phasing")
    code, out = run("ask", edited, "partisans")
    first = out.strip().splitlines()[0]
    assert code == 1 and first.startswith(f"{edited}:3:1: phasing: not given, but the rules read it"), out
    assert "fact `phasing_side`, combat.rules:" in first and "add `phasing: SIDE` (SIDE: german, soviet)" in first
    assert "'" not in first.split("rules read it")[0] and "Traceback" not in out
    # without `first_player` as well, the position check refuses it first, at `phase:`
    both = _without(tmp_path, "docs/examples/reinforcements-turn10.yaml", "phasing", "first_player")
    at = next(i for i, ln in enumerate(both.read_text().splitlines(), 1) if ln.startswith("phase:"))
    code, out = run("play", "--load", both, "--player", "german=bot:greedy", "--player", "soviet=bot:greedy",
                    "--quiet", "--out", tmp_path / "out")
    assert code == 1 and out.strip().splitlines()[-2].startswith(f"{both}:{at}:1: first_player: not given"), out
    assert "Traceback" not in out
    from casebook.tools.cmd_serve import build_session
    from casebook.tools.web.session import ServeError

    with pytest.raises(ServeError) as refused:
        build_session("moscow41", None, {"soviet": "bot:greedy", "german": "bot:greedy"}, load=str(both),
                      root=tmp_path)
    assert f"{both}:{at}:1: first_player: not given, but phase 'first_initiative'" in refused.value.message
    # the same position with its phasing side given is answered
    code, out = run("ask", ROOT / "docs/examples/reinforcements-turn10.yaml", "partisans")
    assert code == 0, out


def test_a_missing_fact_error_reads_as_its_message_not_a_quoted_key():
    """MissingFactError is a KeyError (plugins catch it as one) but prints its message unquoted."""
    from casebook.script.values import MissingFactError

    exc = MissingFactError("fact `x` was not given (t.rules:1:5)", fact="x")
    assert str(exc) == "fact `x` was not given (t.rules:1:5)" and exc.fact == "x" and isinstance(exc, KeyError)
