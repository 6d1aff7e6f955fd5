"""The manifest's ``area_cases:`` and ``area_procedures:`` blocks (src/casebook/content/areablocks.py)
are checked against the shared areas: an area the plugins do not load, a step key the area does not
ask for, a function that is none of the area's, a case id not in the index — each passed lint and
changed play silently in a fresh-user trial; now each is located with a did-you-mean, and the pack
is refused by ``Engine.load`` as every content error is. The areas' step keys are declared
(areas/_game_cases.py ``STEP_KEYS``) and every literal key their calls ask for is among them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casebook.areas import _game_cases
from tests._pack_edits import copy_edited, lint_errors, located_and_refused
from tests._pack_edits import line_of as line_in

ROOT = Path(__file__).resolve().parents[1]
AREAS = ROOT / "src" / "casebook" / "areas"


def copied(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    return copy_edited(tmp_path, "game.yaml", *edits)


def lint(pack: Path) -> list[str]:
    return lint_errors(pack).splitlines()


def line_of(pack: Path, text: str) -> int:
    return line_in(pack / "game.yaml", text)


@pytest.mark.case("10.3A")
def test_10_3A_a_misspelt_step_an_unknown_case_and_function_are_located(tmp_path):
    pack = copied(tmp_path, ('    no_target: ["10.3A"]', '    no_targt: ["10.3Q"]'),
                  ("    support_options: [", "    suport_options: ["))
    where = str(pack / "game.yaml")
    step, fn = line_of(pack, "no_targt:"), line_of(pack, "suport_options:")
    located_and_refused(pack, [
        f"{where}:{step}:5: area_cases.combat.no_targt: area 'combat' asks for no such step 'no_targt' "
        "(did you mean 'no_target'?)",
        f"{where}:{step}:16: area_cases.combat.no_targt.0: case '10.3Q' is not in the pack's case index "
        "(did you mean '10.3'?)",
        f"{where}:{fn}:5: area_procedures.combat.suport_options: area 'combat' has no such function "
        "'suport_options' (did you mean 'support_options'?)"], "asks for no such step 'no_targt'")


def test_an_area_the_plugins_do_not_load_is_located(tmp_path):
    pack = copied(tmp_path, ("area_cases:\n  combat:\n", "area_cases:\n  combatt:\n"))
    out = lint(pack)
    assert f"{pack / 'game.yaml'}:{line_of(pack, 'combatt:')}:3: area_cases.combatt: area 'combatt' is not one " \
           "the manifest's plugins: load (did you mean 'combat'?)" in out


def test_every_step_key_an_area_asks_for_is_declared():
    """The literal keys the combat and ZOC areas pass to their case look-ups are in ``STEP_KEYS``
    (``given`` refuses any other at run time), and Moscow '41 gives only declared ones."""
    call = r"\b(?:cited|_cases|_by|_procedure|given|given_or)\((?:ctx|c), (?:(?:PLUGIN|SOURCE|\"\w+\"), )?['\"](\w+)['\"]"
    for area, keys in _game_cases.STEP_KEYS.items():
        files = [AREAS / f"{area}.py", *AREAS.glob(f"_{area}_*.py")]
        asked = {k for f in files for k in re.findall(call, f.read_text(encoding="utf-8"))} - {area}
        assert asked and asked <= set(keys), (area, sorted(asked - set(keys)))
    with pytest.raises(LookupError, match="'no_targt'"):
        _game_cases.given(None, "combat", "no_targt")
