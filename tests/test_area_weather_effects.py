"""The shared area ``weather_effects``: the effects report is what the game's records table says
to ask and how to word it — edited on a copy of the Moscow '41 pack, the answer changes and still
cites the rule lines that fired; a row naming nothing the rules know refuses the pack, located."""

from __future__ import annotations

from pathlib import Path

import pytest

from casebook.areas import weather_effects as area
from casebook.content.schema_tables import check_type
from casebook.core.errors import ContentError
from casebook.core.state import GameState
from casebook.core.trace import Trace
from casebook.script.engine import Engine
from tests._pack_edits import copy_edited

TABLE = "tables/weather_effects.yaml"


def _ctx(engine: Engine, temperature: str, ground: str):
    state = GameState.from_dict({"game": "moscow41", "turn": 2, "phase": "weather", "step": "ground",
                                 "weather": {"temperature": temperature, "ground": ground}})
    return engine.ctx(state, Trace())


def _copy(tmp_path_factory, edits: tuple[tuple[str, str], ...]) -> Path:
    """A copy of the Moscow '41 pack with ``edits`` (old, new) made to its effects table."""
    return copy_edited(tmp_path_factory.mktemp("we"), TABLE, *edits)


@pytest.fixture(scope="module")
def edited(tmp_path_factory):
    """A copy of the Moscow '41 pack whose effects table words the MP cost differently."""
    return Engine.load(_copy(tmp_path_factory, (('label: "{value:+d} MP to all terrain costs"',
                                                 'label: "{value:+d} MP per hex entered"'),)))


def test_4_6A_an_edited_label_words_the_effect_and_the_line_still_cites_its_case(edited):
    effects = area.effects_of(_ctx(edited, "arctic", "dry"), "weather_effects", "arctic", "dry")
    mp = [e for e in effects if e["effect"] == "+1 MP per hex entered"]
    assert mp == [{"effect": "+1 MP per hex entered", "value": 1, "cases": ["4.6A"]}]


def test_4_3D_a_row_naming_an_unknown_quantity_refuses_the_pack_located(tmp_path_factory, edited):
    """A row asking a quantity no script defines is a content error of the pack, located at the
    row (lint's check, the same at load); the other rows of the shipped table stand."""
    pack = _copy(tmp_path_factory, (("  - {report: factor, ask: ma, ", "  - {report: factor, ask: no_such_quantity, "),))
    with pytest.raises(ContentError) as refused:
        Engine.load(pack)
    assert "weather_effects.yaml:" in str(refused.value) and "the rules have no quantity 'no_such_quantity'" in str(refused.value)
    effects = area.effects_of(_ctx(edited, "warm", "mud"), "weather_effects", "warm", "mud")
    assert {"effect": "TEC column mud", "value": "mud", "cases": ["4.3E", "3.1B", "4.3A"]} in effects


def test_label_fills_only_the_names_it_is_given():
    assert area._label("{value:+d} to {side} ({value.__class__}, {other})", value=2, side="red") == \
        "+2 to red ({value.__class__}, {other})"


def test_facts_field_type_is_a_mapping_of_names():
    assert check_type("facts", {"supplied": True, "attackers": [{"class": "ski"}]}) is None
    assert check_type("facts", ["supplied"]) == "expected a mapping of fact names to values, got a list"
