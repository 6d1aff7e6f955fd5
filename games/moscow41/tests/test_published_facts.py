"""Facts a plugin publishes that no rule reads are a symptom (issue #18: the partisans' ZOC was a
fact nothing read, so Partisan markers blocked nothing). This test lists, for every plugin of
``plugins/`` with a ``casebook_facts`` hook, the facts it publishes — each dict entry shaped
``"name": {"value": …}`` in the plugin's modules (``zoc.py`` and ``_zoc_*.py``) — and finds a
reader for each: a rule script reading the name, a module of another area naming it, or a rule
function of its own area (a validator, a hook answer) reading it. A fact with no reader must be
listed in :data:`QUERY_ONLY` with the hook that carries the same verdict to the rules; a new
unread fact fails the test, and so does a listed one that gained a reader or disappeared.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
#: where plugins live: the shared rules areas and each game's own
PLUGIN_DIRS = (ROOT / "src" / "casebook" / "areas", *sorted((ROOT / "games").glob("*/plugins")))

#: fact -> why no rule reads the fact itself (the same verdict reaches the rules another way)
QUERY_ONLY = {
    "attackers_fortified": "14.2E (no bonus attacking out of a fortification) is applied by the combat "
                           "area's own DRM facts (defender_hex_facts reads only the defender's hex)",
    # hedgehog_ignores_retreat (14.4C, applied by the results area from the unit's hedgehog flag) is
    # published by casebook.areas.formation.formation_facts under a name the plugin passes in (not a
    # dict literal this scan can see): since session 9 it is outside this check.
    "zoc_retreat_blocked": "7.5B is applied by the results area's retreat options (losses for hexes "
                           "not retreated), which ask casebook_zoc hex by hex",
    "soviet_reaction_allowed": "18.2.4B is the reaction_step permission of victory.rules, asked by "
                               "the sequence of play",
    "reinforcement_in_command": "12.1F reaches the rules through casebook_command (the reinforcement "
                                "area's wrapper makes an arriving unit in command)",
}


def _family(name: str) -> list[Path]:
    """The plugin's own modules (``name.py``, ``_name_*.py``) and the shared area modules they import
    (e.g. Moscow '41's fortification plugin publishes its facts through ``casebook.areas.fieldworks``)."""
    own = [p for d in PLUGIN_DIRS for p in (d / f"{name}.py", *sorted(d.glob(f"_{name}_*.py"))) if p.is_file()]
    areas = ROOT / "src" / "casebook" / "areas"
    used = []
    for f in own:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("casebook.areas"):
                parts = node.module.split(".")[2:]
                names = [parts[0]] if parts else [a.name for a in node.names]
                used += [areas / f"{n}.py" for n in names]
            elif isinstance(node, ast.Import):
                used += [areas / f"{a.name.split('.')[2]}.py" for a in node.names
                         if a.name.startswith("casebook.areas.")]
    return [*own, *sorted({u for u in used if u.is_file() and u not in own})]


def _plugin_files() -> list[Path]:
    return sorted(p for d in PLUGIN_DIRS for p in d.glob("*.py"))


def _published(files: list[Path]) -> set[str]:
    out = set()
    for f in files:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Dict) \
                            and any(isinstance(x, ast.Constant) and x.value == "value" for x in v.keys):
                        out.add(k.value)
    return out


def _strings(tree: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _own_readers(files: list[Path], name: str) -> bool:
    """A function of the area other than ``casebook_facts`` calls a function named ``name`` or
    reads the string ``name`` (e.g. a validator built on the fact's function)."""
    for f in files:
        for fn in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(fn, ast.FunctionDef) and fn.name not in ("casebook_facts", name):
                calls = {c.func.id for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
                if name in calls:
                    return True
    return False


def unread_facts() -> dict[str, str]:
    """fact -> publishing plugin, for every published fact without a reader."""
    rules = " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "games").glob("*/rules/*.rules"))
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in _plugin_files()}
    out = {}
    for module in (p for p in _plugin_files() if not p.name.startswith("_")):
        if "def casebook_facts" not in module.read_text(encoding="utf-8"):
            continue
        family = _family(module.stem)
        for name in sorted(_published(family)):
            others = any(name in _strings(t) for p, t in trees.items() if p not in family)
            if others or re.search(rf"\b{name}\b", rules) or _own_readers(family, name):
                continue
            out[name] = module.stem
    return out


def test_every_published_fact_has_a_reader_or_a_stated_reason():
    unread = unread_facts()
    assert sorted(unread) == sorted(QUERY_ONLY), unread
    assert "rail_attack_allowed" not in unread
