"""A pack's config files (src/casebook/content/packconfig.py, the manifest's ``config:``): the
names, cited cases and messages of the shared areas Moscow '41 configures, edited on a copy of the
pack — the answer or refusal changes with no Python touched — and a bad key, type or case id
reported as ``file:line:column`` by ``casebook lint`` and refused by ``Engine.load``. The recipe's
lines must appear in docs/modding.md (recipe 26)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.actions import Action
from casebook.core.errors import ContentError
from casebook.games.moscow41.plugins import fortification as F
from casebook.games.moscow41.plugins import movement as mv
from casebook.script.engine import Engine
from casebook.tools.cli import cli
from games.moscow41.tests import _fakes, _movement_fixtures
from tests._pack_edits import copy_edited
from tests.conftest import m41_position, make_ctx

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "modding.md").read_text(encoding="utf-8")
HEDGEHOG = m41_position("movement", hedgehog=True)


def copied(tmp_path: Path, file: str, *edits: tuple[str, str], doc: bool = True) -> Path:
    """A copy of the pack with ``config/<file>`` edited (each ``(old, new)`` once); each ``new``
    line is in docs/modding.md when ``doc``."""
    for _, new in edits if doc else ():
        assert new.strip() in DOC, f"recipe line not in docs/modding.md: {new.strip()}"
    return copy_edited(tmp_path, f"config/{file}", *edits)


def refusals(engine: Engine) -> list[tuple[str, tuple[str, ...]]]:
    ctx = make_ctx(_fakes.engine_with(engine, fake=_fakes.FakeAreas()), HEDGEHOG)
    move = Action.make("move", "german", stack="0303", path=["0304"])
    return [(r.reason, tuple(r.cases)) for r in F.casebook_validate_action(ctx, move)]


def why_move(tmp_path: Path, pack: Path | None = None) -> str:
    """``casebook ask POSITION why 'german: move stack=0303 path=0304'`` of the hedgehog, as a
    player asks it (``--pack`` a copied pack)."""
    position = tmp_path / "hedgehog.yaml"
    position.write_text(HEDGEHOG, encoding="utf-8")
    args = ["ask", str(position), "why", "german: move stack=0303 path=0304"]
    result = CliRunner().invoke(cli, args + (["--pack", str(pack)] if pack else []))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.case("14.4C")
def test_14_4C_a_modder_changes_the_hedgehog_refusal_in_config_yaml(m41, tmp_path):
    """Recipe 26: the message and the cases of the refusal of a hedgehog's move are
    config/fieldworks.yaml's ``texts.pinned`` and ``cases.unit`` — the plugin's answer and
    ``why german: move stack=…`` on the command line alike."""
    assert refusals(m41) == [("in hedgehog formation, cannot move: g-6id", ("14.4C",))]
    assert "reason: in hedgehog formation, cannot move: g-6id\ncases: 14.4C\n" in why_move(tmp_path)
    pack = copied(tmp_path, "fieldworks.yaml",
                  ('  unit: ["14.4C"]\n', '  unit: ["14.4C", "14.4A"]\n'),
                  ('  pinned: "in hedgehog formation, cannot move: {units}"\n',
                   '  pinned: "dug in as a hedgehog until the Movement Step: {units}"\n'))
    assert refusals(Engine.load(pack)) == [("dug in as a hedgehog until the Movement Step: g-6id", ("14.4C", "14.4A"))]
    assert ("reason: dug in as a hedgehog until the Movement Step: g-6id\ncases: 14.4C, 14.4A\n"
            in why_move(tmp_path, pack))
    assert refusals(m41) == [("in hedgehog formation, cannot move: g-6id", ("14.4C",))]  # each pack its own


@pytest.mark.case("9.0A")
def test_9_0A_a_modder_changes_the_cases_a_skipped_hex_cites(m41, tmp_path):
    """The cases of a path's verdicts are config/movement.yaml's ``walk``: the shared walk cites them."""
    def skipped(engine: Engine) -> list[str]:
        eng = _movement_fixtures.engine_with(engine, fake=_movement_fixtures.FakeAreas())
        ctx = make_ctx(eng, _movement_fixtures.position_text(G1))
        ans = mv.move_answer(ctx, "g1", ["0201", "0401"], "stack")
        assert not ans["legal"] and ans["stops_at"] == "0201"
        return list(ans["refused"]["cases"])

    assert skipped(m41) == ["9.0A"]
    pack = copied(tmp_path, "movement.yaml", ('  adjacent: ["9.0A"]', '  adjacent: ["9.0A", "9.1A"]'), doc=False)
    assert skipped(Engine.load(pack)) == ["9.0A", "9.1A"]


def lint(pack: Path) -> list[str]:
    result = CliRunner().invoke(cli, ["lint", str(pack)])
    assert result.exit_code == 1, result.output
    return result.output.splitlines()


def test_a_misspelt_key_a_wrong_type_and_an_unknown_case_are_located(tmp_path):
    """Every problem of a config file at once, each at its file:line:column with its key."""
    pack = copied(tmp_path, "fieldworks.yaml", ("plugin: fortification\n", "plugn: fortification\n"),
                  ("point_kinds: [normal, moscow]\n", "point_kinds: normal\n"),
                  ('  helps: ["14.2E"]\n', '  helps: ["14.2X"]\n'), doc=False)
    text = (pack / "config" / "fieldworks.yaml").read_text(encoding="utf-8").splitlines()
    line = {key: next(i for i, ln in enumerate(text, 1) if ln.lstrip().startswith(key)) for key in
            ("plugn:", "point_kinds:", "helps:")}
    out = lint(pack)
    where = str(pack / "config" / "fieldworks.yaml")
    assert any(o.startswith(f"{where}:{line['plugn:']}:1: plugn: unknown key 'plugn' (did you mean 'plugin'?)")
               for o in out), out
    assert f"{where}:{line['point_kinds:']}:1: point_kinds: expected a list, got 'normal'" in out
    assert f"{where}:{line['helps:']}:11: cases.helps.0: case '14.2X' is not in the pack's case index " \
           "(did you mean '14.2'?)" in out
    assert out[-1].endswith(": 4 errors")  # the three, and `plugin` missing
    with pytest.raises(ContentError, match="unknown key 'plugn'"):
        Engine.load(pack)


def test_a_config_nothing_reads_or_a_missing_file_is_an_error(tmp_path):
    pack = copied(tmp_path, "results.yaml", doc=False)
    manifest = pack / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("  results: config/results.yaml\n", "  result: config/results.yaml\n"),
                        encoding="utf-8")
    out = "\n".join(lint(pack))
    assert "config.result: no listed plugin reads configuration 'result' (did you mean 'results'?)" in out
    assert "config: no configuration 'results': a listed plugin reads it" in out
    manifest.write_text(text.replace("config/results.yaml", "config/../../results.yaml"), encoding="utf-8")
    assert "config.results: a path may not leave its folder ('..')" in "\n".join(lint(pack))


G1 = '- {id: g1, side: german, class: infantry, size: division, strength: 7, ma: 4, hex: "0202"}'


def edit(pack: Path, file: str, old: str, new: str) -> None:
    path = pack / "config" / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{file}: {old!r} not found once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_each_config_file_is_what_its_plugin_reads(m41, tmp_path):
    """One edit per config file on a copy of the pack: the command and paratroop refusals change
    (message and cases), and each other file's reader returns the edited names and cases."""
    from casebook.games.moscow41.plugins import _area_config, _command_steps, paratroops, partisans, results
    from casebook.games.moscow41.plugins._movement_paths import movement_config

    pack = copied(tmp_path, "command.yaml", ('not_command_step: {text: "{kind} is taken in the {want} step, not {step}", '
                                             'cases: ["0.7.3.1"]}',
                                             'not_command_step: {text: "activate in the Command Step", cases: ["0.7.3.1", "2.0"]}'),
                  doc=False)
    edit(pack, "paratroops.yaml", 'step_cases: ["15.1B"]', 'step_cases: ["15.1B", "15.1C"]')
    edit(pack, "results.yaml", 'ezoc: ["11.2B", "7.5A"]', 'ezoc: ["11.2B"]')
    edit(pack, "supply.yaml", '["enemy unit", ["5.4A", "5.2A"]]', '["an enemy unit", ["5.4A"]]')
    edit(pack, "unit_points.yaml", 'cases_unsupplied: ["16.1B", "5.5B"]', 'cases_unsupplied: ["16.1B", "5.5C"]')
    edit(pack, "movement.yaml", 'roll: ["9.6C"]', 'roll: ["9.6C", "9.6B"]')
    copy = Engine.load(pack)

    def said(engine: Engine) -> list[tuple[str, tuple[str, ...]]]:
        ctx = make_ctx(engine, _movement_fixtures.position_text(G1))
        stack = _command_steps.refusals(ctx, Action.make("activate-stack", "german", stack="0202"))
        drop = [r for r in paratroops.casebook_validate_action(ctx, Action.make("drop", "soviet", unit="g1", hex="0303"))
                if "Step" in r.reason]
        return [(r.reason, tuple(r.cases)) for r in (stack[0], drop[0])]

    assert said(m41) == [("activate-stack is taken in the command step, not movement", ("0.7.3.1",)),
                         ("paratroops drop in the Replacement and Reinforcement Step", ("15.1B",))]
    assert said(copy) == [("activate in the Command Step", ("0.7.3.1", "2.0")),
                          ("paratroops drop in the Replacement and Reinforcement Step", ("15.1B", "15.1C"))]
    ctx = make_ctx(copy, _movement_fixtures.position_text(G1))
    assert results.setup(ctx).cites["ezoc"] == ("11.2B",)
    assert _area_config.supply_paths(ctx).reasons[0] == ("an enemy unit", ("5.4A",))
    assert partisans.tally(ctx).cases_unsupplied == ("16.1B", "5.5C")
    assert movement_config(ctx).fatigue["roll"] == ("9.6C", "9.6B")
    installed = make_ctx(m41, _movement_fixtures.position_text(G1))
    assert results.setup(installed).cites["ezoc"] == ("11.2B", "7.5A")
    assert _area_config.supply_paths(installed).reasons[0] == ("enemy unit", ("5.4A", "5.2A"))


@pytest.mark.case("14.4C")
def test_14_4C_a_misspelt_text_key_or_unknown_placeholder_is_located(tmp_path):
    """config/fieldworks.yaml's ``texts:`` has exactly the keys the area says (areas/fieldworks.py
    ``TEXTS``), each using only the placeholders it fills: a misspelt key or an unknown placeholder
    is a located lint error, not a refusal blaming the player at play time."""
    pack = copied(tmp_path, "fieldworks.yaml", ('  stack: "no', '  stak: "no'),
                  ('  pinned: "in hedgehog formation, cannot move: {units}"',
                   '  pinned: "{nosuch} cannot move: {unit}"'), doc=False)
    text = (pack / "config" / "fieldworks.yaml").read_text(encoding="utf-8").splitlines()
    line = {key: next(i for i, ln in enumerate(text, 1) if ln.startswith(key)) for key in ("texts:", "  stak:",
                                                                                             "  pinned:")}
    out = lint(pack)
    where = str(pack / "config" / "fieldworks.yaml")
    assert f"{where}:{line['  stak:']}:3: texts.stak: unknown key 'stak' (did you mean 'stack'?)" in out
    assert f"{where}:{line['texts:']}:1: texts: missing required key 'stack'" in out
    assert f"{where}:{line['  pinned:']}:3: texts.pinned: placeholder {{nosuch}} is not filled in (this text " \
           "has {units}); placeholder {unit} is not filled in (this text has {units}) (did you mean 'units'?)" in out
    with pytest.raises(ContentError, match="unknown key 'stak'"):
        Engine.load(pack)


@pytest.mark.case("2.1A")
def test_2_1A_a_command_refusal_with_a_misspelt_key_or_unfilled_placeholder_is_located(tmp_path):
    """config/command.yaml's ``refusals:`` has exactly the keys the plugin says, each text using only
    the fields it fills (``done`` fills none): both are located lint errors."""
    pack = copied(tmp_path, "command.yaml", ("  done: {", "  dnoe: {"),
                  ('twice: {text: "a stack is named twice"', 'twice: {text: "a stack {hex} is named twice"'), doc=False)
    text = (pack / "config" / "command.yaml").read_text(encoding="utf-8").splitlines()
    line = {key: next(i for i, ln in enumerate(text, 1) if ln.startswith(key)) for key in ("  dnoe:", "  twice:")}
    out = lint(pack)
    where = str(pack / "config" / "command.yaml")
    assert f"{where}:{line['  dnoe:']}:3: refusals.dnoe: unknown key 'dnoe' (did you mean 'done'?)" in out
    assert f"{where}:{line['  twice:']}:3: refusals.twice: placeholder {{hex}} is not filled in (this text has none)" in out
    assert out[-1].endswith(": 3 errors")  # and `done` missing
