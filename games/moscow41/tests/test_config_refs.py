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


@pytest.mark.case("5.4B")
def test_5_4B_a_misspelt_permission_class_step_fact_or_marker_of_the_other_configs_is_located(tmp_path):
    """The same check on the other areas' configs: config/supply.yaml's ``hq_class`` and
    ``through_ezoc`` (the permission a supply path through an EZOC asks, 5.4B),
    config/unit_points.yaml's ``step`` and ``count_fact``, config/paratroops.yaml's ``marker``,
    config/fieldworks.yaml's ``form_steps`` item."""
    pack = copy_edited(tmp_path, "config/supply.yaml", ("hq_class: hq\n", "hq_class: hqq\n"),
                       ("through_ezoc: trace_supply_through_ezoc\n", "through_ezoc: trace_supply_thru_ezoc\n"))
    cfg = pack / "config"
    edit(cfg / "unit_points.yaml", "step: recovery\n", "step: recovry\n")
    edit(cfg / "unit_points.yaml", "count_fact: remnants_disbanded\n", "count_fact: remnant_disbanded\n")
    edit(cfg / "paratroops.yaml", "marker: scatter ", "marker: scater ")
    edit(cfg / "fieldworks.yaml", "form_steps: [command, movement]", "form_steps: [command, movment]")
    out = lint_errors(pack)
    for file, text, message in (
            ("supply.yaml", "hq_class:", "hq_class: the pack has no unit class (vocabulary unit_classes:) 'hqq' "
                                         "(did you mean 'hq'?)"),
            ("supply.yaml", "through_ezoc:", "through_ezoc: the pack has no rule-script permission "
                                             "'trace_supply_thru_ezoc' (did you mean 'trace_supply_through_ezoc'?)"),
            ("unit_points.yaml", "step: recovry", "step: the pack has no sequence step 'recovry' "
                                                  "(did you mean 'recovery'?)"),
            ("unit_points.yaml", "count_fact:", "count_fact: the pack has no rule-script fact (rules/facts.yaml) "
                                                "'remnant_disbanded' (did you mean 'remnants_disbanded'?)"),
            ("paratroops.yaml", "marker: scater", "marker: the pack has no marker kind (vocabulary markers:) 'scater' "
                                                  "(did you mean 'scatter'?)"),
            ("fieldworks.yaml", "movment", "form_steps.1: the pack has no sequence step 'movment' "
                                           "(did you mean 'movement'?)")):
        assert f"{_at(cfg / file, text)}: {message}" in out, (file, text)
    assert out.splitlines()[-1].endswith(": 6 errors")
