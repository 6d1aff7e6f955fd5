"""A compiled-pack cache: a loaded, validated :class:`~casebook.content.pack.Pack` and the
:class:`~casebook.core.board.Board` of its map, kept on disk between runs of ``casebook``.

Loading a large pack (the first game's) parses about 60 YAML files with a pure-Python parser, validates them and builds
the board's tables: seconds of CPU before a single question is answered. Once a pack has loaded
without a problem, its result is stored here and the next load of the *same bytes* reads it back
in milliseconds.

**Key.** A SHA-256 of: the cache format, the Python version, the Casebook version, every source
file of ``casebook.core``, ``casebook.content`` (the loader and its schemas) and ``casebook.script``,
the names of the installed rules plugins,
the pack directory as given (and the working directory, since a relative pack dir stays relative
in the Pack), and the relative path and bytes of every file below the pack directory and the
rules directory. Any edit of any of them gives another key, so a stale entry is never read; entries
of keys no longer asked for are simply left (``CASEBOOK_CACHE=off`` or deleting the folder clears
the question). Only loads that raised no problem are stored; a pack with problems is loaded afresh
every time, so its messages are always the loader's own.

**Board tables.** A table derived from a pack's board alone (the supply searches' index of its
hexes and steps, ``casebook.areas._supply_search``) is kept too, as its own entry under the pack's
key, the table's kind and what its builder names (its module's source): :func:`board_table`. A
warm ``casebook ask`` reads it back (a few ms) instead of building it again (some 30 ms on the
first game's map).

**Where.** ``$CASEBOOK_CACHE`` if set (``off``, ``0`` or ``no`` disable the cache), else
``$XDG_CACHE_HOME/casebook``, else ``~/.cache/casebook``.

**Trust (why pickle is safe here).** Entries are pickles, and unpickling runs code named by the
file, so an entry is only read when (1) the cache folder is owned by the current user and is
private (mode 0700: no other user can write, or read the key), (2) the entry file is owned by the
user and not writable by group or others, and (3) it carries a valid HMAC-SHA256 made with this
folder's own random key (``hmac.key``, 0600, created once with :mod:`secrets`). A file copied in
from another user or machine, a truncated or corrupt entry, or one written under another key fails
(3) and is ignored and rebuilt — it is never unpickled. A folder that fails (1) disables the cache
for the run (nothing is read or written there). Writes go to a temporary file and are renamed in
place, so a reader never sees half an entry.
"""

from __future__ import annotations

import copyreg
import hashlib
import hmac
import os
import pickle
import secrets
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["CACHE_ENV", "FORMAT", "cache_dir", "pack_key", "cached_load", "cached_file_value", "cached_value",
           "cached_parse_script", "pack_board", "remember_board", "board_table"]

#: The environment variable naming the cache folder (or ``off``).
CACHE_ENV = "CASEBOOK_CACHE"
#: Bumped when the stored shape changes.
FORMAT = "casebook-pack-cache/1"
_OFF = frozenset({"off", "0", "no", "false", ""})
_DIGEST = hashlib.sha256().digest_size
_SKIP_DIRS = frozenset({"__pycache__", ".git", ".venv", "node_modules"})
#: id(map mapping) -> (the mapping, its Board): a pack's board, built once per process.
_BOARDS: dict[int, tuple[Any, Any]] = {}
_KERNEL_HASH: list[str] = []
#: the stat signature of the pack last hashed -> its key (:func:`pack_key`)
_KEYS: dict[tuple[Any, ...], str] = {}
#: cache key -> the Pack read for it in this process (a Pack is immutable: shared, like an Engine).
_PACKS: dict[str, Any] = {}
#: id(board) -> (the board, the cache key of the pack it is the board of): boards read or stored here
_BOARD_KEYS: dict[int, tuple[Any, str]] = {}
#: (id(board), kind, extra) -> (the board, a table derived from it): :func:`board_table`
_TABLES: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def _reduce_hex(h: Any) -> tuple[Any, tuple[Any, ...]]:
    """Pickle a Hex as ``tuple.__new__(Hex, (col, row))``: rebuilt in C, a third of the time of
    the NamedTuple default (a board holds thousands of them)."""
    return tuple.__new__, (type(h), (h.col, h.row))


def _register_reducers() -> None:
    from casebook.core.hexgrid import Hex

    copyreg.pickle(Hex, _reduce_hex)


def cache_dir() -> Path | None:
    """The cache folder (see the module docstring), or None when the cache is disabled."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip().lower() in _OFF else Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "casebook"


def _tree_files(root: Path) -> list[Path]:
    out: list[Path] = []
    if not root.is_dir():
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        out += [Path(dirpath) / f for f in sorted(filenames) if not f.startswith(".")]
    return out


def _kernel_hash() -> str:
    """The hash of the loader's own sources (computed once per process)."""
    if not _KERNEL_HASH:
        import importlib.metadata

        h = hashlib.sha256()
        try:
            h.update(importlib.metadata.version("casebook").encode())
        except importlib.metadata.PackageNotFoundError:
            h.update(b"casebook-unversioned")
        root = Path(__file__).resolve().parent.parent  # the casebook package: its core, content and script
        for part in ("core", "content", "script"):
            for f in _tree_files(root / part):
                if f.suffix in (".py", ".lark"):
                    h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
        plugins = sorted(f"{ep.name}={ep.value}" for ep in importlib.metadata.entry_points(group="casebook.plugins"))
        h.update("\0".join(plugins).encode())
        h.update(sys.version.encode())
        _KERNEL_HASH.append(h.hexdigest())
    return _KERNEL_HASH[0]


def _signature(pack_dir: Path, rules_dir: Path | None) -> tuple[Any, ...]:
    """What :func:`pack_key` reads, by file name, size and modification time (no bytes read)."""
    sig: list[Any] = [str(pack_dir), str(rules_dir), os.getcwd()]
    for root in (pack_dir, rules_dir):
        for f in _tree_files(root) if root is not None else ():
            try:
                st = f.stat()
            except OSError:
                return ()
            sig.append((str(f), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
    return tuple(sig)


def pack_key(pack_dir: Path, rules_dir: Path | None) -> str:
    """The cache key of a pack: hex SHA-256 over everything its load depends on (module docstring).

    Files whose names, sizes, inodes and modification and change times (``st_ctime``: any write
    or ``touch`` moves it, and no user can set it back) are those of an earlier hashing are not
    read again: the key found then is reused, from this process or from a cache entry of that
    stat signature (a pack folder holds megabytes of golden traces; git's index does the same)."""
    sig = _signature(pack_dir, rules_dir)
    known = _KEYS.get(sig) if sig else None
    if known is not None:
        return known
    if sig:
        key = cached_value("packkey", repr(sig).encode("utf-8"), lambda: _hash_pack(pack_dir, rules_dir))
    else:
        key = _hash_pack(pack_dir, rules_dir)
    if sig:
        _KEYS[sig] = key
        while len(_KEYS) > 8:
            _KEYS.pop(next(iter(_KEYS)))
    return key


def _hash_pack(pack_dir: Path, rules_dir: Path | None) -> str:
    h = hashlib.sha256()
    h.update(FORMAT.encode() + b"\0" + _kernel_hash().encode() + b"\0")
    h.update(str(pack_dir).encode() + b"\0")
    if not pack_dir.is_absolute():
        h.update(str(Path.cwd()).encode() + b"\0")
    for root in (pack_dir, rules_dir):
        if root is None:
            continue
        h.update(b"\1" + str(root).encode() + b"\0")
        for f in _tree_files(root):
            data = f.read_bytes()
            h.update(str(f.relative_to(root)).encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def _private_dir(path: Path) -> bool:
    """Create ``path`` (0700) if absent; True iff it is a directory owned by us with no group or
    other permissions."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return st.st_mode & 0o077 == 0


def _secret(folder: Path) -> bytes | None:
    """The folder's HMAC key (created on first use), or None if it cannot be trusted."""
    path = folder / "hmac.key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return None
    else:
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077:
            return None
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return None
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) == 32 else None


def _read_entry(path: Path, key: bytes) -> Any | None:
    """The unpickled entry at ``path`` if it passes every check, else None."""
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022:
            return None
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return None
        blob = path.read_bytes()
    except OSError:
        return None
    mac, payload = blob[:_DIGEST], blob[_DIGEST:]
    if len(mac) != _DIGEST or not hmac.compare_digest(mac, hmac.new(key, payload, hashlib.sha256).digest()):
        return None
    try:
        return pickle.loads(payload)
    except Exception:  # a valid MAC over an unreadable pickle (another Python): rebuild it
        return None


def _write_entry(path: Path, key: bytes, value: Any) -> None:
    _register_reducers()
    try:
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return  # not picklable: simply not cached
    blob = hmac.new(key, payload, hashlib.sha256).digest() + payload
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pack")
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass


def _store() -> tuple[Path, bytes] | None:
    """The trusted cache folder and its HMAC key, or None (cache off or folder not private)."""
    folder = cache_dir()
    if folder is None or not _private_dir(folder):
        return None
    secret = _secret(folder)
    return None if secret is None else (folder, secret)


def cached_load(pack_dir: Path, rules_dir: Path | None, load: Callable[[], Any]) -> Any:
    """The pack of ``pack_dir``: from the cache when an entry for its key passes the checks, else
    ``load()`` (which raises on any problem: nothing is stored then), stored with its board."""
    store = _store()
    if store is None:
        return load()
    folder, secret = store
    key = pack_key(pack_dir, rules_dir)
    if key in _PACKS:  # this process read it already (a position's pack, then its engine's)
        return _PACKS[key]
    entry = folder / f"{key}.pack"
    if entry.is_file():
        value = _read_entry(entry, secret)
        if isinstance(value, tuple) and len(value) == 3 and value[0] == FORMAT:
            _, pack, board = value
            remember_board(pack.map, board)
            _remember_pack(key, pack)
            _remember_key(board, key)
            return pack
    pack = load()
    board = pack_board(pack)
    _write_entry(entry, secret, (FORMAT, pack, board))
    _remember_pack(key, pack)
    _remember_key(board, key)
    return pack


def _remember_key(board: Any, key: str) -> None:
    _BOARD_KEYS[id(board)] = (board, key)
    while len(_BOARD_KEYS) > 16:
        _BOARD_KEYS.pop(next(iter(_BOARD_KEYS)))


def board_table(board: Any, kind: str, build: Callable[[Any], Any], *extra: str) -> Any:
    """``build(board)``: a table derived from the (immutable) ``board`` alone — e.g. a search's
    index of its hexes — built once per board in this process and, for the board of a pack this
    cache holds, kept on disk beside it (an entry of ``kind`` under the pack's key and ``extra``),
    so the next process reads it back instead of building it again. ``extra`` must name everything
    else the table depends on, in particular the source of the code that builds it when that code
    is not the loader's own (the key covers only ``casebook.core``/``content``/``script``):
    e.g. a SHA-256 of the builder module's bytes."""
    slot = (id(board), kind, extra)
    got = _TABLES.get(slot)
    if got is not None and got[0] is board:
        return got[1]
    known = _BOARD_KEYS.get(id(board))
    if known is not None and known[0] is board:
        value = cached_value(kind, known[1].encode(), lambda: build(board), *extra)
    else:
        value = build(board)
    _TABLES[slot] = (board, value)
    while len(_TABLES) > 32:
        _TABLES.pop(next(iter(_TABLES)))
    return value


def _remember_pack(key: str, pack: Any) -> None:
    _PACKS[key] = pack
    while len(_PACKS) > 8:
        _PACKS.pop(next(iter(_PACKS)))


def cached_file_value(kind: str, path: Path, build: Callable[[], Any], *extra: str) -> Any:
    """``build()``, a value computed from the one file ``path`` alone (e.g. a rule pack's facts
    declaration), cached under a key of ``kind``, ``extra``, the loader's sources and the file's
    path and bytes. ``build`` raising is never cached."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return build()
    return cached_value(kind, data, build, str(path), *extra)


def cached_value(kind: str, data: bytes, build: Callable[[], Any], *extra: str,
                 keep: Callable[[Any], bool] = lambda value: True) -> Any:
    """``build()``, a value computed from ``data`` (and the strings ``extra``) alone, cached under
    a key of ``kind``, ``extra``, the loader's sources and ``data``; stored only if ``keep(value)``
    (e.g. only a parse without problems). ``build`` raising is never cached."""
    store = _store()
    if store is None:
        return build()
    folder, secret = store
    h = hashlib.sha256()
    for part in (FORMAT, _kernel_hash(), kind, *extra):
        h.update(part.encode() + b"\0")
    h.update(data)
    entry = folder / f"{h.hexdigest()}.{kind}"
    if entry.is_file():
        value = _read_entry(entry, secret)
        if isinstance(value, tuple) and len(value) == 2 and value[0] == FORMAT:
            return value[1]
    value = build()
    if keep(value):
        _write_entry(entry, secret, (FORMAT, value))
    return value


def cached_parse_script(text: str, file: str) -> tuple[Any, list[Any]]:
    """:func:`casebook.script.parser.parse_script` through the cache (a script's parse
    depends on its text and file name alone; a parse with problems is never stored, so syntax
    errors always come from the parser itself). The LALR parser is built only on a miss."""
    from casebook.script.parser import parse_script

    return cached_value("parse", text.encode("utf-8"), lambda: parse_script(text, file), file,
                        keep=lambda value: not value[1])


def remember_board(map_data: Any, board: Any) -> None:
    """Keep ``board`` as the Board of the map mapping ``map_data`` (the very object) for this process."""
    _BOARDS[id(map_data)] = (map_data, board)
    while len(_BOARDS) > 16:
        _BOARDS.pop(next(iter(_BOARDS)))


def pack_board(pack: Any) -> Any:
    """The :class:`~casebook.core.board.Board` of ``pack.map``, built once per process per pack
    (the board is immutable: the engine and position validation share it)."""
    from casebook.content.mapdata import board_from_map

    got = _BOARDS.get(id(pack.map))
    if got is not None and got[0] is pack.map:
        return got[1]
    board = board_from_map(pack.map)
    remember_board(pack.map, board)
    return board
