"""Fuzzed input never ends in a traceback (issue #18, "bad input that still ends in a traceback"):
a seeded mutator over the shipped packs, positions, rule scripts and traces, a few hundred runs
of ``lint``, ``ask``, ``rules check``, ``explain`` and ``replay``; each ends in exit 0 or a
one-line-per-problem error with exit 1. Bounded in time: each family stops after its budget."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

import pytest
from _secutil import run

ROOT = Path(__file__).resolve().parents[2]
JUNK = [b"[", b"{", b"}", b"]", b"&a ", b"*a ", b"!!set ", b": ", b"- ", b"\x00", b"\xff\xfe", b"'", b'"', b"\n  ",
        b"99999999999999999999999999", b"-1", b"null", b"[]", b"{}", b",", b"\t", b"(" * 300, b"[" * 3000, b"\\u",
        b"1e99999", b"#", b"by ", b"when ", b"quantity ", b" = sum by 1.4\n"]
#: seconds each family may take (the whole test stays within a couple of minutes on 2 cores)
BUDGET = 25.0


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random edits: a slice deleted, junk inserted, a line doubled or swapped, the
    end cut off."""
    for _ in range(rng.randint(1, 3)):
        how = rng.randrange(5)
        n = len(data)
        at = rng.randrange(n + 1)
        if how == 0 and n:
            data = data[:at] + data[at + rng.randint(1, 40):]
        elif how == 1:
            data = data[:at] + rng.choice(JUNK) + data[at:]
        elif how == 2:
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            data = b"\n".join(lines)
        elif how == 3:
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            data = data[:at]
    return data


def _family(cases: int, setup, command) -> int:
    """Run up to ``cases`` seeded mutations: ``setup(rng)`` writes the mutated file(s),
    ``command()`` gives the casebook arguments. Returns how many ran."""
    start = time.monotonic()
    done = 0
    for seed in range(cases):
        if time.monotonic() - start > BUDGET:
            break
        setup(random.Random(seed))
        code, out = run(*command())
        assert code in (0, 1), (seed, code, out)
        assert "Traceback" not in out, (seed, out)
        if code == 1:
            assert out.strip(), seed
        done += 1
    return done


def test_fuzzed_pack_files_lint_without_traceback(pack_copy, mini_pack):
    files = sorted(p.relative_to(mini_pack) for p in mini_pack.rglob("*.yaml"))

    def setup(rng):
        shutil.rmtree(pack_copy)
        shutil.copytree(mini_pack, pack_copy)
        rel = rng.choice(files)
        (pack_copy / rel).write_bytes(mutate((mini_pack / rel).read_bytes(), rng))

    assert _family(80, setup, lambda: ("lint", pack_copy)) >= 10


@pytest.mark.parametrize("question", [("weather",), ("vp",), ("stacking", "0303")])
def test_fuzzed_positions_ask_without_traceback(pack_copy, mini_pack, question):
    source = (mini_pack / "scenarios" / "skirmish.yaml").read_bytes()
    pos = pack_copy.parent / "pos.yaml"

    def setup(rng):
        pos.write_bytes(mutate(source, rng))

    assert _family(40, setup, lambda: ("ask", pos, *question)) >= 10


def test_fuzzed_rule_scripts_check_without_traceback(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "games" / "battle_for_moscow" / "rules", rules)
    scripts = sorted(rules.glob("*.rules")) + [rules / "facts.yaml"]
    originals = {p: p.read_bytes() for p in scripts}

    def setup(rng):
        for p, data in originals.items():
            p.write_bytes(data)
        target = rng.choice(scripts)
        target.write_bytes(mutate(originals[target], rng))

    assert _family(40, setup, lambda: ("rules", "check", rules)) >= 5


@pytest.fixture(scope="module")
def short_trace(tmp_path_factory) -> bytes:
    out = tmp_path_factory.mktemp("played")
    code, text = run("play", "battle_for_moscow", "--out", out, "--quiet")
    assert code == 0, text
    return b"".join((out / "trace.jsonl").read_bytes().splitlines(keepends=True)[:80])


@pytest.mark.parametrize("command", ["explain", "replay"])
def test_fuzzed_traces_explain_and_replay_without_traceback(tmp_path, short_trace, command):
    trace = tmp_path / "t.jsonl"

    def setup(rng):
        trace.write_bytes(mutate(short_trace, rng))

    args = (lambda: ("explain", trace, "3")) if command == "explain" else (lambda: ("replay", trace))
    assert _family(60, setup, args) >= 10
