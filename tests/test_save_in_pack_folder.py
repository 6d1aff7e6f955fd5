"""A save written while playing a copied pack never changes that pack's content hash (the
``pack.sha256`` a save records, tools/saves.py ``pack_identity``): a save, its trace, a play's
``out/`` and its maps written into the pack's folder (``cd ~/packs/x && casebook play .``) are not
content. Before, every save into the folder changed the hash, and loading it warned that the pack
had changed since."""

from __future__ import annotations

import shutil

from casebook.content.loader import load_pack
from casebook.core.game import Game
from casebook.tools.saves import pack_identity, save_pack, write_save


def test_a_save_and_a_plays_files_in_the_pack_folder_leave_its_hash(mini_pack, tmp_path):
    pack = tmp_path / "mini"
    shutil.copytree(mini_pack, pack)
    before = pack_identity(load_pack(pack))["sha256"]
    state = Game.load(str(pack)).new_initial_state(1)
    write_save(state, pack / "s1.yaml")
    (pack / "out").mkdir()
    state.trace.write(pack / "out" / "trace.jsonl")
    write_save(state, pack / "out" / "final.yaml")
    (pack / "out" / "turn-01.svg").write_text("<svg/>", encoding="utf-8")
    assert pack_identity(load_pack(pack))["sha256"] == before
    import yaml

    raw = yaml.safe_load((pack / "s1.yaml").read_text(encoding="utf-8"))
    assert raw["plugin_state"]["pack"]["sha256"] == before
    assert save_pack(raw, pack / "s1.yaml") == (pack, None)  # resumed on its pack, no "differs now" warning


def test_an_edit_of_the_pack_still_changes_its_hash(mini_pack, tmp_path):
    pack = tmp_path / "mini"
    shutil.copytree(mini_pack, pack)
    before = pack_identity(load_pack(pack))["sha256"]
    manifest = pack / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\n# a modder's note\n", encoding="utf-8")
    assert pack_identity(load_pack(pack))["sha256"] != before


def test_a_packs_tests_folder_is_not_content(mini_pack, tmp_path):
    """Session 18, a fresh user's report: an edit to a file of the pack's ``tests/`` (games/moscow41/tests:
    pytest modules, never loaded) made ``play --load`` warn that the pack had changed."""
    pack = tmp_path / "mini"
    shutil.copytree(mini_pack, pack)
    (pack / "tests").mkdir(exist_ok=True)
    (pack / "tests" / "test_x.py").write_text("def test_x():\n    assert 1 + 1 == 2\n", encoding="utf-8")
    before = pack_identity(load_pack(pack))["sha256"]
    (pack / "tests" / "test_x.py").write_text("def test_x():\n    assert 2 + 2 == 4\n", encoding="utf-8")
    (pack / "tests" / "conftest.py").write_text("", encoding="utf-8")
    assert pack_identity(load_pack(pack))["sha256"] == before
