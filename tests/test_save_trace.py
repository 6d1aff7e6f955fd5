"""A save and the trace beside it (src/casebook/tools/saves.py): ``play --load`` and the browser's
load refuse a trace that is not the one the save was written with (an edited trace was accepted,
and failed ``casebook replay`` only later), by a digest in the save, never a replay."""

from __future__ import annotations

import json

import pytest
from test_input_bounds import run

from casebook.tools.cmd_play import _resume, run_play


@pytest.fixture
def saved(tmp_path):
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "greedy")}
    run_play("battle_for_moscow", "campaign", players, 1, tmp_path / "out", max_actions=8,
             echo=lambda s: None, progress=False)
    return tmp_path / "out" / "final.yaml"


def _edit_trace(save, change):
    path = save.with_name(save.name + ".trace.jsonl")
    events = [json.loads(line) for line in path.read_text().splitlines()]
    change(events)
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events))


def _first_move(events):
    move = next(e for e in events if e["kind"] == "move")
    move["data"]["path"] = list(reversed(move["data"]["path"])) + ["0101"]


def test_a_save_links_its_trace_and_resumes_with_it(saved):
    assert "  trace: {sha256: " in saved.read_text()
    _, state, initial, _ = _resume(None, None, str(saved))
    assert initial is not None and len(state.history) == 8
    assert "trace" not in state.to_dict()["plugin_state"]  # a later save links its own trace


def test_an_edited_trace_beside_a_save_is_refused_by_play_load(saved, tmp_path):
    _edit_trace(saved, _first_move)
    res = run("play", "--load", saved, "--out", tmp_path / "again", "--quiet")
    code, out = res.exit_code, res.output
    assert code == 1, out
    assert f"{saved}.trace.jsonl: not the trace final.yaml was saved with (its SHA-256 differs" in out
    assert not (tmp_path / "again").exists()  # refused before anything was played or written


def test_without_a_digest_a_trace_of_another_seed_or_length_is_still_refused(saved, tmp_path):
    text = saved.read_text()
    saved.write_text("\n".join(line for line in text.splitlines() if not line.startswith("  trace: {sha256")) + "\n")
    _edit_trace(saved, lambda events: events[0]["data"].update(seed=77))
    res = run("play", "--load", saved, "--out", tmp_path / "a", "--quiet")
    code, out = res.exit_code, res.output
    assert code == 1 and "its setup event has seed 77, the save 1" in out, out
    _edit_trace(saved, lambda events: (events[0]["data"].update(seed=1), events.pop()))
    res = run("play", "--load", saved, "--out", tmp_path / "b", "--quiet")
    code, out = res.exit_code, res.output
    assert code == 1 and "it does not end where final.yaml stands" in out, out


def test_the_browser_load_refuses_an_edited_trace_too(saved):
    from casebook.core.game import Game
    from casebook.tools.web.session import ServeError, load_state

    game = Game.load("battle_for_moscow", "campaign")
    assert len(load_state(game, saved).history) == 8
    _edit_trace(saved, _first_move)
    with pytest.raises(ServeError, match="not the trace final.yaml was saved with"):
        load_state(game, saved)


def test_a_save_of_a_copied_pack_resumes_on_that_pack_and_says_when_it_changed(tmp_path, repo_root):
    """A save recorded only its game id: one played from a copied pack resumed on the installed
    game unless the folder was named. Now it names its pack (folder and content SHA-256), and
    ``play --load`` and ``ask`` both read it there; an edit of the pack since is reported."""
    import shutil

    from casebook.tools.cmd_ask import _position_engine

    pack = tmp_path / "packs" / "bfm"
    shutil.copytree(repo_root / "games" / "battle_for_moscow", pack, ignore=shutil.ignore_patterns("golden"))
    players = {"german": ("bot", "greedy"), "soviet": ("bot", "greedy")}
    run_play(str(pack), "campaign", players, 1, tmp_path / "elsewhere", max_actions=6, echo=lambda s: None,
             progress=False)
    save = tmp_path / "elsewhere" / "final.yaml"
    assert f"folder: {pack}" in save.read_text()
    game, _, _, _ = _resume(None, None, str(save))
    assert game.engine.pack.dir.resolve() == pack
    _, engine = _position_engine(str(save))
    assert engine.pack.dir.resolve() == pack
    res = run("ask", save, "zoc", "0303")
    assert res.exit_code == 0 and "warning" not in res.output

    crt = pack / "tables" / "crt.yaml"
    crt.write_text(crt.read_text() + "# edited\n")
    res = run("ask", save, "zoc", "0303")
    assert res.exit_code == 0 and f"warning: final.yaml was played on the pack in {pack} (content " in res.output
    assert "differs now" in res.output
    res = run("ask", save, "zoc", "0303", "--pack", repo_root / "games" / "moscow41")
    assert res.exit_code == 2 and "is a pack of 'moscow41', the position a position of 'battle_for_moscow'" in res.output


def test_a_save_cut_at_a_line_boundary_is_refused_naming_what_is_missing(saved, tmp_path):
    """Rule 7: a corrupt save is refused whole — a save cut short loaded silently (units gone,
    RNG and players reset); its trace beside it only said the save's next event was 0."""
    lines = saved.read_text().splitlines(keepends=True)
    saved.write_text("".join(lines[:20]))  # cut in place: the trace sits beside it
    want = f"{saved.name}: truncated save: no rng, trace_seq (a save written by play has them all; it cannot be read)"
    for args in (("play", "--load", saved, "--out", tmp_path / "again", "--quiet"), ("ask", saved, "weather")):
        res = run(*args)
        assert res.exit_code == 1, res.output
        assert want.replace(saved.name, str(saved)) in res.output and "the save's next is 0" not in res.output
    assert not (tmp_path / "again").exists()
    alone = tmp_path / "cut.yaml"  # no trace beside it, but keys only a play writes (players)
    alone.write_text("".join(line for line in lines if not line.startswith("trace_seq:")))
    res = run("ask", alone, "weather")
    assert res.exit_code == 1 and f"{alone}: truncated save: no trace_seq (" in res.output, res.output


def test_a_save_cut_before_trace_seq_and_copied_alone_is_refused_by_its_mark(saved, tmp_path):
    """Rule 7 (issue #15 session 16): every save begins with the mark ``save: 1``, so a save cut
    before its last keys and copied without its trace — nothing else marks it a save — is refused
    whole; it loaded as a position (its RNG and trace position reset)."""
    lines = saved.read_text().splitlines(keepends=True)
    assert lines[0] == "save: 1\n" and lines[1] == "kind: position\n"
    units = next(i for i, line in enumerate(lines) if line.startswith("units:"))
    alone = tmp_path / "copied.yaml"
    alone.write_text("".join(lines[:units + 3]))  # cut among the units: no plugin_state, rng, trace_seq, players
    res = run("ask", alone, "weather")
    assert res.exit_code == 1 and f"{alone}: truncated save: no rng, trace_seq (" in res.output, res.output
    res = run("play", "--load", alone, "--out", tmp_path / "again", "--quiet")
    assert res.exit_code == 1 and f"{alone}: truncated save: no rng, trace_seq (" in res.output, res.output
    assert not (tmp_path / "again").exists()


def test_a_save_cut_at_its_last_line_is_refused_not_resumed_without_its_players(saved, tmp_path):
    """Rule 7 (a fresh user's trial, session 16): ``players`` was a save's last key and not required (the
    browser's saves have none), so a save cut at its last line resumed with its human players made bots.
    ``players`` is now written before ``rng`` and ``trace_seq``, the required last keys: every cut line is
    refused, the last one too, with its trace beside it or not."""
    lines = saved.read_text().splitlines(keepends=True)
    keys = [line.split(":")[0] for line in lines if line[:1].isalpha()]
    assert keys[-3:] == ["players", "rng", "trace_seq"]
    cut = tmp_path / "cut.yaml"
    cut.write_text("".join(lines[:-1]))  # the last line lost
    (tmp_path / "cut.yaml.trace.jsonl").write_bytes(saved.with_name(saved.name + ".trace.jsonl").read_bytes())
    for args in (("ask", cut, "weather"), ("play", "--load", cut, "--out", tmp_path / "again", "--quiet")):
        res = run(*args)
        assert res.exit_code == 1 and f"{cut}: truncated save: no trace_seq (" in res.output, res.output
    assert not (tmp_path / "again").exists()


def test_a_save_written_before_the_mark_still_loads(saved, tmp_path):
    old = tmp_path / "old.yaml"  # a session-15 save: no `save: 1`, its trace beside it
    old.write_text(saved.read_text().split("\n", 1)[1])
    (tmp_path / "old.yaml.trace.jsonl").write_bytes(saved.with_name(saved.name + ".trace.jsonl").read_bytes())
    _, state, initial, _ = _resume(None, None, str(old))
    assert initial is not None and len(state.history) == 8
    res = run("ask", old, "victory")
    assert res.exit_code == 0 and "winner" in res.output, res.output


def test_a_position_file_without_the_keys_of_a_save_is_still_read(repo_root):
    res = run("ask", repo_root / "docs/examples/attack.yaml", "weather")  # kind: position, no trace_seq/players
    assert res.exit_code == 0 and "temperature: cold" in res.output, res.output
