"""The compiled-pack cache (src/casebook/content/packcache.py): an edit of any pack file is a new key (the
answer follows the edit), a corrupt or foreign entry is ignored and rebuilt, never unpickled, and
the cache is off on request or in a folder other users could write."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from casebook.content import packcache
from casebook.content.loader import load_pack
from casebook.script.engine import _cached_engine
from casebook.tools.cmd_ask import ask_position

BFM = "games/battle_for_moscow"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh private cache folder; the process-level memo emptied before and after."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CASEBOOK_CACHE", str(folder))
    _new_process()
    yield folder
    _new_process()


def _new_process() -> None:
    """What a second run of ``casebook`` starts from: only the disk cache."""
    packcache._PACKS.clear()
    packcache._KEYS.clear()
    packcache._BOARD_KEYS.clear()
    packcache._TABLES.clear()
    _cached_engine.cache_clear()


def _entries(folder):
    return sorted(p.name for p in folder.glob("*.pack"))


def _results(answer):
    return [o["result"] for o in answer["outcomes"]]


def test_editing_a_pack_file_gives_a_new_key_and_the_answer_follows(cache, repo_root, tmp_path):
    pack = tmp_path / "bfm"
    shutil.copytree(repo_root / BFM, pack)
    position = str(pack / "scenarios" / "campaign.yaml")
    opts = {"with": ["g-ix", "g-xl-pz"]}
    first = ask_position(position, "attack", ["0304"], opts)
    assert _results(first) == ["DR", "DR", "DR", "EX", "EX", "DRL"]  # the printed CRT column
    assert len(_entries(cache)) == 1
    _new_process()
    assert _results(ask_position(position, "attack", ["0304"], opts)) == _results(first)  # a hit
    assert len(_entries(cache)) == 1

    crt = pack / "tables" / "crt.yaml"
    head, cells = crt.read_text(encoding="utf-8").split("cells:", 1)
    crt.write_text(head + "cells:" + re.sub(r"\b(AL|DRL|DR|EX|NE)\b", "DE", cells), encoding="utf-8")
    _new_process()
    assert _results(ask_position(position, "attack", ["0304"], opts)) == ["DE"] * 6
    assert len(_entries(cache)) == 2  # the edited pack is another key; the old entry is not read


def test_a_corrupt_entry_is_ignored_and_rebuilt(cache, mini_pack):
    first = load_pack(mini_pack)
    (entry,) = cache.glob("*.pack")
    good = entry.read_bytes()
    entry.write_bytes(good[:40] + bytes([good[40] ^ 0xFF]) + good[41:])  # one byte of the MAC'd pickle
    _new_process()
    again = load_pack(mini_pack)
    assert again.map == first.map and again.manifest["name"] == "Mini test pack"
    assert packcache._read_entry(entry, (cache / "hmac.key").read_bytes()) is not None  # rewritten whole
    _new_process()
    entry.write_bytes(b"garbage")  # truncated: no MAC at all
    assert load_pack(mini_pack).counters == first.counters


def test_an_entry_made_under_another_key_is_never_unpickled(cache, mini_pack, monkeypatch):
    load_pack(mini_pack)
    (entry,) = cache.glob("*.pack")
    (cache / "hmac.key").write_bytes(os.urandom(32))  # as if the entry came from another machine
    _new_process()
    calls = []
    monkeypatch.setattr(packcache.pickle, "loads", lambda data: calls.append(data))
    assert load_pack(mini_pack).id == "mini"
    assert calls == []


def test_the_cache_is_off_on_request(tmp_path, monkeypatch, mini_pack):
    monkeypatch.setenv("CASEBOOK_CACHE", "off")
    _new_process()
    assert packcache.cache_dir() is None
    assert load_pack(mini_pack).id == "mini"
    assert not packcache._PACKS


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_can_write_is_not_used(tmp_path, monkeypatch, mini_pack):
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    monkeypatch.setenv("CASEBOOK_CACHE", str(folder))
    _new_process()
    assert load_pack(mini_pack).id == "mini"
    assert list(folder.iterdir()) == []  # nothing read, nothing written


def test_the_cache_folder_defaults_to_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.delenv("CASEBOOK_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert packcache.cache_dir() == tmp_path / "xdg" / "casebook"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert packcache.cache_dir() == tmp_path / "home" / ".cache" / "casebook"


def test_a_new_folder_is_private(cache, mini_pack):
    load_pack(mini_pack)
    assert cache.stat().st_mode & 0o777 == 0o700
    assert (cache / "hmac.key").stat().st_mode & 0o777 == 0o600


def test_an_edit_that_keeps_size_and_modification_time_is_still_a_new_key(cache, tmp_path, mini_pack):
    """The key of an unchanged stat signature is reused without reading the files; the change
    time (which an edit always moves, and ``touch`` cannot set back) keeps an edit from hiding."""
    pack = tmp_path / "mini"
    shutil.copytree(mini_pack, pack)
    first = packcache.pack_key(pack, None)
    _new_process()
    assert packcache.pack_key(pack, None) == first  # from the signature's entry
    assert list(cache.glob("*.packkey"))
    game = pack / "game.yaml"
    before = game.stat()
    text = game.read_text(encoding="utf-8")
    edited = text.replace("mini", "mlni", 1)
    assert edited != text and len(edited) == len(text)
    game.write_text(edited, encoding="utf-8")
    os.utime(game, ns=(before.st_atime_ns, before.st_mtime_ns))
    _new_process()
    assert packcache.pack_key(pack, None) != first


def test_a_yaml_parse_is_kept_and_a_parse_with_problems_never(cache, tmp_path):
    from casebook.content.yamlio import read_yaml

    good = tmp_path / "good.yaml"
    good.write_text("units:\n" + "".join(f"  - {{id: u{i}, hex: '0{i % 9 + 1}0{i % 7 + 1}'}}\n"
                                         for i in range(80)), encoding="utf-8")
    fresh, problems = read_yaml(good)
    assert not problems and len(list(cache.glob("*.yaml"))) == 1
    again, problems = read_yaml(good)  # from the entry
    assert not problems
    assert (again.data, again.positions, again.value_positions) == (fresh.data, fresh.positions, fresh.value_positions)
    assert again.where(("units", 79, "hex")) == (81, 15)  # "  - {id: u79, hex: …": the key at column 15

    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text(encoding="utf-8") + "units: []\n", encoding="utf-8")
    for _ in range(2):
        doc, problems = read_yaml(bad)
        assert [p.message for p in problems] == ["duplicate key 'units'"]
    assert len(list(cache.glob("*.yaml"))) == 1


def _index_fields(index):
    return index.hexes, index.index, index.adj, index.step_kind, index.kind_step


def _never(board):
    raise AssertionError("built again: the kept table was not read")


def test_a_board_table_is_kept_beside_the_pack_and_read_back_by_the_next_run(cache, mini_pack):
    """The supply search's board index (areas/_supply_search.py) as the pack cache keeps it: built
    once, stored under the pack's key, read back equal by the next process; another builder source
    (``extra``) is another entry."""
    from casebook.areas._supply_search import BoardIndex

    board = packcache.pack_board(load_pack(mini_pack))
    built = packcache.board_table(board, "supplyindex", BoardIndex, "source-1")
    assert _index_fields(built) == _index_fields(BoardIndex(board)) and len(built.hexes) > 0
    assert len(list(cache.glob("*.supplyindex"))) == 1
    assert packcache.board_table(board, "supplyindex", _never, "source-1") is built  # this process: kept
    _new_process()
    board = packcache.pack_board(load_pack(mini_pack))  # the pack and its board read from the entry
    again = packcache.board_table(board, "supplyindex", _never, "source-1")
    assert _index_fields(again) == _index_fields(built)
    other = packcache.board_table(board, "supplyindex", BoardIndex, "source-2")
    assert _index_fields(other) == _index_fields(built) and len(list(cache.glob("*.supplyindex"))) == 2


def test_a_board_not_of_a_cached_pack_has_its_table_built_not_stored(cache, mini_pack):
    """An inline map's board (a position's own map) is no pack entry's board: its table is built in
    the process and nothing is written."""
    from casebook.areas._supply_search import BoardIndex
    from casebook.content.mapdata import board_from_map

    board = board_from_map(load_pack(mini_pack).map)  # a board built apart from the pack's
    index = packcache.board_table(board, "supplyindex", BoardIndex, "source-1")
    assert _index_fields(index) == _index_fields(BoardIndex(board))
    assert list(cache.glob("*.supplyindex")) == []
