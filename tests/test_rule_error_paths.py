"""A rule-script error names its script the same way wherever it stops a command: ``rules check``,
``play`` and ``ask --pack COPY`` alike print the script's path relative to the current folder (or
absolute), never the bare ``combat.rules:9:2`` that play and ask printed (the trace's way of
naming a line, relative to the rules folder)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_input_bounds import run

ROOT = Path(__file__).resolve().parent.parent


def test_a_syntax_error_is_named_by_its_path_in_rules_check_play_and_ask(tmp_path, monkeypatch):
    pack = tmp_path / "kp"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "tests"))
    script = pack / "rules" / "combat.rules"
    lines = script.read_text(encoding="utf-8").split("\n")
    assert lines[8] == ""  # a blank line between two statements
    lines[8] = " +"
    script.write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    want = "kp/rules/combat.rules:9:2: syntax error: unexpected `+`"
    for args in (("rules", "check", "kp"), ("play", "kp", "--quiet", "--out", "o"),
                 ("ask", "--pack", "kp", ROOT / "games/kestrel_pass/scenarios/meeting.yaml", "weather")):
        res = run(*args)
        assert res.exit_code == 1, (args, res.output)
        assert res.output.startswith(want) or f"\n{want}" in res.output, (args, res.output)


def test_a_rules_entry_leaving_its_folder_is_located_once_in_rules_check_and_play(tmp_path, monkeypatch):
    """``rules.0: a path may not leave its folder`` had no line:column in ``rules check`` (the same
    error under ``tables`` had), and play added a second "rule file not found" for it."""
    pack = tmp_path / "kp"
    shutil.copytree(ROOT / "games" / "kestrel_pass", pack, ignore=shutil.ignore_patterns("golden", "tests"))
    manifest = pack / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert text.count("\ntables:\n") == 1 and "\nrules:" not in text
    manifest.write_text(text.replace("\ntables:\n", "\nrules: [../x.rules, combat.rules]\ntables:\n"), encoding="utf-8")
    line = text[:text.index("\ntables:\n")].count("\n") + 2
    monkeypatch.chdir(tmp_path)
    want = f"kp/game.yaml:{line}:9: rules.0: a path may not leave its folder ('..'): '../x.rules'"
    for args in (("rules", "check", "kp"), ("play", "kp", "--quiet", "--out", "o")):
        res = run(*args)
        assert res.exit_code == 1, (args, res.output)
        assert res.output.splitlines()[:2] == [want, "1 error" if args[0] == "play" else "kp: 1 error"], (args, res.output)
