"""The confinement policy: every path a pack, position or trace names stays inside its folder.

A downloaded pack is untrusted input (SECURITY.md). Every file name it gives — the manifest's
``cases:``, ``map:``, ``tables:``, ``scenarios:``, ``errata:``, ``rules:``, ``config:`` …, an erratum's
``file:`` — goes through :func:`confined_path` (or :func:`relpath_problem` for the name alone):

- the name is relative, with ``/`` separators: no leading ``/``, no drive (``C:``), no ``\\``,
  no NUL, no ``..`` segment, not empty;
- the path it names, **after following symlinks**, lies inside the folder it is relative to
  (the pack folder; for rule scripts the rules folder).

A pack's ``rules_dir:`` (:func:`rules_dir_problem`) is relative too and resolves inside the pack
folder or is the game's default rules folder (its own ``rules/``, or for a copied pack without one
the installed game's). A position's or trace's ``game:`` is a game id (:func:`is_game_id`), never a
path: a pack folder is given by a command-line option.

Messages name the offending *name* as written, never anything read from the file it points to.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

__all__ = ["relpath_problem", "confined_path", "inside", "rules_dir_problem", "is_game_id", "GAME_ID_RE"]

#: A game id: what ``game:`` of a position or trace holds (a pack's ``id:``, e.g. ``mini``).
GAME_ID_RE = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
_DRIVE = re.compile(r"^[A-Za-z]:")


def is_game_id(value: object) -> bool:
    """Whether ``value`` is a game id (lower-case slug, at most 64 characters), not a path."""
    return isinstance(value, str) and GAME_ID_RE.match(value) is not None


def relpath_problem(name: object) -> str | None:
    """Why ``name`` is not an acceptable relative file name of a pack, or None if it is."""
    if not isinstance(name, str) or not name:
        return "expected a non-empty path relative to the pack folder"
    if "\x00" in name:
        return "a path may not contain a NUL character"
    if name.startswith("/") or "\\" in name or _DRIVE.match(name):
        return f"expected a path relative to the pack folder (with / separators), got {name!r}"
    if ".." in PurePosixPath(name).parts:
        return f"a path may not leave its folder ('..'): {name!r}"
    return None


def inside(root: Path, path: Path) -> bool:
    """Whether ``path``, after following symlinks, is ``root`` or lies below it (also resolved)."""
    try:
        return Path(path).resolve().is_relative_to(Path(root).resolve())
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a bad name
        return False


def confined_path(root: Path, name: object) -> tuple[Path | None, str | None]:
    """``(root / name, None)`` when ``name`` passes :func:`relpath_problem` and resolves inside
    ``root`` after symlinks; else ``(None, reason)``."""
    why = relpath_problem(name)
    if why is not None:
        return None, why
    path = Path(root) / str(name)
    if not inside(root, path):
        return None, f"{name!r} leads outside its folder (a symlink out of the pack is not followed)"
    return path, None


def rules_dir_problem(pack_dir: Path, rules_dir: object, default: Path) -> str | None:
    """Why a manifest's ``rules_dir:`` is refused, or None: it must be relative (no drive, no
    ``\\``) and resolve inside the pack folder or be the game's ``default`` rules folder."""
    if not isinstance(rules_dir, str) or not rules_dir:
        return "expected a folder path relative to the pack folder"
    if rules_dir.startswith("/") or "\\" in rules_dir or "\x00" in rules_dir or _DRIVE.match(rules_dir):
        return f"rules_dir must be relative to the pack folder, got {rules_dir!r}"
    target = Path(pack_dir) / rules_dir
    if inside(pack_dir, target):
        return None
    try:
        if target.resolve() == Path(default).resolve():
            return None
    except (OSError, RuntimeError):
        pass
    return (f"rules_dir {rules_dir!r} leads outside the pack folder (allowed: a folder inside it, "
            f"or the game's default rules folder)")
