"""The layering of the casebook package (docs/architecture.md, "Layers"), checked on the source:
every ``import`` of every module under ``src/casebook`` and ``games/`` (parsed with :mod:`ast`, not
imported) goes down or sideways, never up:

    tools  →  games, areas  →  content, script  →  core

- the core imports nothing of casebook outside ``casebook.core`` — at module level nor inside a
  function, but for the one documented call-time import: ``Game.load`` builds its engine with
  ``casebook.script.engine.load_engine`` (:data:`CALL_TIME`);
- content and script are one layer (the loader caches parsed scripts, the runtime loads packs);
- an area never imports a game, and a game never imports another game;
- nothing imports the tools but the tools.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Layer of each top-level part of the casebook package (higher may import lower or equal).
LAYER = {"core": 0, "content": 1, "script": 1, "areas": 2, "games": 2, "tools": 3}
#: The imports against the direction that are allowed, each at call time only: (module, imported module).
CALL_TIME = {("casebook.core.game", "casebook.script.engine")}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "src" / "casebook").rglob("*.py")):
        parts = path.relative_to(ROOT / "src").with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for path in sorted((ROOT / "games").rglob("*.py")):
        if "tests" in path.relative_to(ROOT / "games").parts:  # a game's own tests drive it from the tools
            continue
        parts = ("casebook", "games", *path.relative_to(ROOT / "games").with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imports(module: str, path: Path) -> list[tuple[str, int, bool]]:
    """``(imported casebook module, line, at module level)`` of every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = {id(n) for n in tree.body} | {id(n) for s in tree.body if isinstance(s, ast.If) for n in s.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base] if node.module else [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        found += [(n, node.lineno, id(node) in top) for n in names if n.startswith("casebook")]
    return found


def _part(module: str) -> tuple[str, str]:
    """``("games", "moscow41")``, ``("core", "")``: the layer part and, for a game, which game."""
    bits = module.split(".")
    part = bits[1] if len(bits) > 1 else ""
    return part, (bits[2] if part == "games" and len(bits) > 2 else "")


def violations(modules: dict[str, Path], root: Path = ROOT) -> list[str]:
    """Every import against the layering, as ``path:line: module imports other``."""
    out = []
    for module, path in modules.items():
        part, game = _part(module)
        for other, line, _top in _imports(module, path):
            opart, ogame = _part(other)
            if part not in LAYER or opart not in LAYER or (module, other) in CALL_TIME and not _top:
                continue
            bad = (LAYER[opart] > LAYER[part]
                   or (part == "areas" and opart == "games")
                   or (part == opart == "games" and game and ogame and game != ogame))
            if bad:
                out.append(f"{path.relative_to(root)}:{line}: {module} imports {other}")
    return out


def test_every_import_follows_the_layering() -> None:
    modules = _modules()
    assert len(modules) > 150 and "casebook.core.game" in modules and "casebook.games.moscow41.plugins.supply" in modules
    assert violations(modules) == []


def test_the_allowed_call_time_import_is_inside_a_function() -> None:
    """Game.load's import of the engine is at call time: the core imports nothing above it when loaded."""
    modules = _modules()
    found = [(o, top) for o, _, top in _imports("casebook.core.game", modules["casebook.core.game"])
             if o == "casebook.script.engine"]
    assert found == [("casebook.script.engine", False)]


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("casebook.core.state", "from casebook.content.yamlio import load_yaml\n", "casebook.content.yamlio"),
    ("casebook.core.state", "def f():\n    from casebook.script import engine\n", "casebook.script"),
    ("casebook.areas.zoc", "from casebook.games.moscow41.plugins import supply\n", "casebook.games.moscow41.plugins"),
    ("casebook.games.kestrel_pass.plugins.x", "import casebook.games.moscow41.plugins.supply\n",
     "casebook.games.moscow41.plugins.supply"),
    ("casebook.script.pack", "from casebook.tools.cli import main\n", "casebook.tools.cli"),
    ("casebook.core.board", "from ..content import loader\n", "casebook.content"),
    ("casebook.core.game", "from casebook.script.engine import load_engine\n", "casebook.script.engine"),
])
def test_the_check_finds_an_import_against_the_layering(tmp_path, module, source, expected) -> None:
    """The check can fail: an upward import (at module level or in a function, absolute or
    relative; the one allowed call-time import at module level), an area importing a game, a game
    importing another game."""
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    found = violations({module: path}, tmp_path)
    assert [v.split(": ", 1)[1] for v in found] == [f"{module} imports {expected}"]


def private_names(path: Path) -> list[str]:
    """Every ``from M import _name`` of ``path`` whose ``_name`` is no module (a private module of a
    package, like ``casebook.areas._combat_odds``, is a module's to import; a private function or
    constant of another module is not): ``line: M._name``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("casebook.areas"):
            folder = ROOT / "src" / Path(*node.module.split("."))
            out += [f"{node.lineno}: {node.module}.{a.name}" for a in node.names
                    if a.name.startswith("_") and not (folder / f"{a.name}.py").is_file()]
    return out


def test_no_area_imports_another_modules_private_name(tmp_path) -> None:
    """The shared areas use each other's public names (the combat area's defender support refusal
    asks ``_combat_rules.support_refused``, not its private ``_unit_facts``)."""
    found = {str(p.relative_to(ROOT)): private_names(p) for p in sorted((ROOT / "src/casebook/areas").glob("*.py"))}
    assert {p: f for p, f in found.items() if f} == {}
    bad = tmp_path / "m.py"
    bad.write_text("from casebook.areas import _combat_odds\nfrom casebook.areas._combat_rules import _unit_facts\n")
    assert private_names(bad) == ["2: casebook.areas._combat_rules._unit_facts"]
