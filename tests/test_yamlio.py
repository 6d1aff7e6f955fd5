"""kernel.yamlio: safe loading with positions, refusals, deterministic dump."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casebook.content.yamlio import dump_yaml, load_yaml, read_yaml
from casebook.core.errors import ContentError

TEXT = """\
kind: counters
units:
  - {id: g1, strength: 7}
  - id: s1
    strength: 6
hex: "0303"
bare: 0303
word: yes
"""


def test_plain_data_and_positions():
    doc = load_yaml("c.yaml", text=TEXT)
    assert doc.data["units"][1] == {"id": "s1", "strength": 6}
    assert doc.data["hex"] == "0303" and doc.data["bare"] == 303 and doc.data["word"] == "yes"
    assert doc.positions[("units",)] == (2, 1)
    assert doc.positions[("units", 0, "strength")] == (3, 14)
    assert doc.positions[("units", 1, "strength")] == (5, 5)
    assert doc.value_positions[("units", 1, "strength")] == (5, 15)
    assert doc.where(("units", 1, "missing")) == (4, 5)  # nearest ancestor: the list item


@pytest.mark.parametrize(
    "text, where, what",
    [
        ("a: !!python/object:os.system x\n", (1, 4), "!!python/object:os.system"),
        ("a: 1\nb: !custom 2\n", (2, 4), "!custom"),
        ("a: !!str 1\n", (1, 4), "!!str"),
    ],
)
def test_any_tag_is_refused_at_its_position(text, where, what):
    _, problems = read_yaml("t.yaml", text=text)
    assert len(problems) == 1
    assert (problems[0].line, problems[0].column) == where
    assert what in problems[0].message and "tags are not allowed" in problems[0].message


def test_duplicate_keys_anchors_and_aliases_are_refused():
    _, problems = read_yaml("t.yaml", text="a: 1\nb: &x [1]\na: 2\nc: *x\n")
    assert [(p.line, p.key) for p in problems] == [(2, "b"), (3, "a"), (4, "c")]
    assert "duplicate key 'a'" in problems[1].message


def test_syntax_error_has_line_and_column():
    with pytest.raises(ContentError) as exc:
        load_yaml("bad.yaml", text="a:\n  b: 1\n c: 2\n")
    (p,) = exc.value.problems
    assert (p.file, p.line, p.column) == ("bad.yaml", 3, 2)
    assert p.message.startswith("YAML syntax error")
    assert p.context.splitlines()[0].strip() == "c: 2"


def test_dump_is_deterministic_and_quotes_lookalikes():
    data = {"hex": "0303", "n": 303, "t": "true", "d": "2020-01-01", "units": [{"id": "g1", "s": 7}]}
    text = dump_yaml(data)
    assert text == dump_yaml(data)
    assert "hex: '0303'" in text and "units:\n- {id: g1, s: 7}" in text
    assert load_yaml("x", text=text).data == data


_scalars = st.none() | st.booleans() | st.integers() | st.text(st.characters(categories=["L", "N", "P", "Zs"]))
_plain = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.characters(categories=["L", "N"]), min_size=1), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(_plain)
def test_dump_round_trips(data):
    assert load_yaml("x", text=dump_yaml(data)).data == data
