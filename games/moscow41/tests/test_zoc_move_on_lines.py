"""7.2, 7.3, 7.0B: the ``move_on_in_ezoc`` lines of games/moscow41/rules/zoc.rules decide how a moving
unit is bound by an EZOC, not only what it cites (a fresh user's finding in session 15: editing
``forbid move_on_in_ezoc by 7.2 when zoc_kind is locking`` changed no move). A house rule that keeps
the line from firing lets a locking-ZOC infantry division move on from one EZOC into the next, in
``ask move`` (play's own validators, docs/ask/move.md) and ``ask zoc --for``; the shipped line refuses it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from casebook.tools.cli import cli
from tests._pack_edits import copy_edited

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "reach-move.yaml"
LOCKING = "forbid move_on_in_ezoc by 7.2   when zoc_kind is locking"


def _position(tmp_path: Path) -> Path:
    """docs/examples/reach-move.yaml with g1's MA 6: 0302 0402 0403 0404 0504 costs 5 MP (clear),
    0404 and 0504 both in s1's ZOC (0505)."""
    text = EXAMPLE.read_text(encoding="utf-8").replace('ma: 4, hex: "0202"', 'ma: 6, hex: "0202"')
    path = tmp_path / "position.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _ask(position: Path, *args: str, pack: Path | None = None) -> str:
    extra = ["--pack", str(pack)] if pack else []
    result = CliRunner().invoke(cli, ["ask", str(position), *args, *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_7_2_shipped_line_stops_the_move_in_the_first_ezoc(tmp_path):
    out = _ask(_position(tmp_path), "move", "g1", "0302", "0402", "0403", "0404", "0504")
    assert "legal: no" in out and "stops_at: 0404" in out
    assert "must stop on entering the EZOC in 0404" in out
    zoc = _ask(_position(tmp_path), "zoc", "0404", "--for", "g1")
    assert "must_stop_on_entering: yes" in zoc and "ezoc_to_ezoc: prohibited" in zoc


def test_7_2_house_rule_that_never_fires_lets_the_unit_move_on(tmp_path):
    pack = copy_edited(tmp_path / "house", "rules/zoc.rules", (LOCKING, LOCKING + " and turn > 99"))
    out = _ask(_position(tmp_path), "move", "g1", "0302", "0402", "0403", "0404", "0504", pack=pack)
    assert "legal: yes" in out and "mp_spent: 5" in out and "stops_at: 0504" in out
    zoc = _ask(_position(tmp_path), "zoc", "0404", "--for", "g1", pack=pack)
    assert "kind: locking" in zoc  # the ZOC Chart's cell is unchanged; the line no longer binds it
    assert "must_stop_on_entering: no" in zoc and "ezoc_to_ezoc: no effect" in zoc
