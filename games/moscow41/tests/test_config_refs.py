"""Config values that name things of the pack (src/casebook/content/packrefs.py): a sequence
step, a rule-script fact, a track … a misspelt one is a located ``casebook lint`` error (and
``Engine.load`` refuses the pack), never a silent break of play — every one of a load at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casebook.core.errors import ContentError
from casebook.script.engine import Engine
from casebook.tools.cli import cli
from tests._pack_edits import copy_edited, edit, lint_errors

ROOT = Path(__file__).resolve().parents[3]


def _at(path: Path, text: str) -> str:
    """``file:line:column`` of the first ``text`` of ``path``."""
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return f"{path}:{i}:{line.index(text) + 1}"
    raise AssertionError(text)


@pytest.mark.case("14.1A")
def test_14_1A_a_misspelt_step_fact_or_track_of_a_config_is_located_all_at_once(tmp_path):
    """The trial's three breaks: config/worksites.yaml's ``step`` (14.1A: the Soviet Reinforcement
    Step) and ``facts.city`` (the fact the build lines read), config/replacements.yaml's ``track``
    (the RP track, 12.2A) — each at its key's line:column with the key and a did-you-mean."""
    pack = copy_edited(tmp_path, "config/worksites.yaml",
                       ("step: replacement_reinforcement ", "step: replacment_reinforcement "),
                       ("facts: {city: hex_city,", "facts: {city: hex_cty,"))
    edit(pack / "config" / "replacements.yaml", "track: rp ", "track: rpp ")
    out = lint_errors(pack)
    sites, rps = pack / "config" / "worksites.yaml", pack / "config" / "replacements.yaml"
    assert (f"{_at(sites, 'step: replacment_reinforcement')}: step: the pack has no sequence step "
            "'replacment_reinforcement' (did you mean 'replacement_reinforcement'?)") in out
    assert (f"{_at(sites, 'city: hex_cty')}: facts.city: the pack has no rule-script fact (rules/facts.yaml) "
            "'hex_cty' (did you mean 'hex_city'?)") in out
    assert f"{_at(rps, 'track: rpp')}: track: the pack has no track (vocabulary tracks:) 'rpp' (did you mean 'rp'?)" in out
    assert out.splitlines()[-1].endswith(": 3 errors")
    with pytest.raises(ContentError) as err:
        Engine.load(pack)
    assert all(name in str(err.value) for name in ("replacment_reinforcement", "hex_cty", "'rpp'"))


@pytest.mark.parametrize("game", ["moscow41", "battle_for_moscow", "kestrel_pass"])
def test_the_shipped_packs_configs_name_only_what_they_have(game):
    result = CliRunner().invoke(cli, ["lint", str(ROOT / "games" / game)])
    assert result.exit_code == 0, result.output
