"""One YAML policy for every file of every command (issue #19, "unbounded memory"; #18,
RecursionError on deep YAML): no tags, no anchors/aliases, no duplicate keys, bounded nesting
and size, valid UTF-8 — each a located one-line error, exit 1, never a traceback. Every command
that reads YAML is run against the same hostile files."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from _secutil import run

from casebook.content.yamlio import MAX_CHARS, MAX_DEPTH, read_yaml

#: name -> (bytes appended to a valid file, or a whole file, what the error says)
LAUGHS = "".join(f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 10))
HOSTILE: dict[str, tuple[bytes, str]] = {
    "billion-laughs": (("l0: &l0 [lol]\n" + LAUGHS).encode(), "anchors are not allowed"),
    "set-tag": (b"evil: !!set {a, b}\n", "tags are not allowed (!!set)"),
    "python-tag": (b"evil: !!python/object/apply:os.system [echo owned]\n", "tags are not allowed"),
    "duplicate-key": (b"kind: game\n", "duplicate key 'kind'"),
    "deep-nesting": (b"deep: " + b"[" * 100_000 + b"]" * 100_000 + b"\n", f"nested deeper than {MAX_DEPTH}"),
    "bad-utf8": (b"name: caf\xe9\n", "not valid UTF-8"),
    "nul": (b"name: a\x00b\n", "NUL"),
    "huge": (b"pad: '" + b"x" * (MAX_CHARS + 10) + b"'\n", "longer than"),
}


def _poison(path: Path, name: str) -> str:
    extra, message = HOSTILE[name]
    path.write_bytes(path.read_bytes() + extra)
    return message


def _check(code: int, out: str, message: str, file: str) -> None:
    assert code == 1, out
    assert "Traceback" not in out and message in out, out
    located = [ln for ln in out.splitlines() if message in ln]
    assert located and re.search(rf"{re.escape(file)}:\d+:\d+:", located[0]), out


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_loader_refuses_each_hostile_file_with_a_location(name):
    extra, message = HOSTILE[name]
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "x.yaml"
        f.write_bytes(b"kind: game\n" + extra)
        doc, problems = read_yaml(f, file="x.yaml")
    assert doc is None or problems
    assert any(message in p.message for p in problems), [str(p) for p in problems]
    assert all(p.line >= 1 for p in problems)


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["lint", "rules-check", "provenance", "cases"])
def test_every_pack_command_refuses_a_hostile_manifest(pack_copy, name, command):
    message = _poison(pack_copy / "game.yaml", name)
    args = {"lint": ("lint", pack_copy), "rules-check": ("rules", "check", pack_copy),
            "provenance": ("provenance", pack_copy), "cases": ("cases", pack_copy)}[command]
    code, out = run(*args)
    _check(code, out, message, "game.yaml")


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["ask", "render", "play-load"])
def test_every_position_command_refuses_a_hostile_position(pack_copy, tmp_path, name, command):
    pos = tmp_path / "pos.yaml"
    shutil.copy(pack_copy / "scenarios" / "skirmish.yaml", pos)
    message = _poison(pos, name)
    args = {"ask": ("ask", pos, "weather"),
            "render": ("render", pack_copy, "--position", pos, "-o", tmp_path / "m.svg"),
            "play-load": ("play", "--load", pos, "--out", tmp_path / "out", "--quiet")}[command]
    code, out = run(*args)
    _check(code, out, message, "pos.yaml")


@pytest.mark.parametrize("name", ["billion-laughs", "set-tag", "duplicate-key", "deep-nesting"])
def test_a_hostile_facts_declaration_is_refused_by_rules_check(pack_copy, tmp_path, name):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "facts.yaml").write_text("kind: facts\nfacts: {}\n")
    (rules / "a.rules").write_text("")
    message = _poison(rules / "facts.yaml", name)
    code, out = run("rules", "check", rules)
    _check(code, out, message, "facts.yaml")
