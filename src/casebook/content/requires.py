"""What a pack must hold for the plugins it lists, and the victory block they read.

A rules plugin declares, as module attributes (docs/plugins.md, "What a plugin needs"):

- ``REQUIRES = {"tables": [...], "quantities": [...], "permissions": [...]}`` — the tables
  (charts or records tables, by id), rule-script quantities and permissions it cannot do without
  (what it reads only when present is not listed);
- ``VICTORY_SCHEMA`` — a pydantic model (:class:`casebook.content.schema_base.Model`: strict, no
  unknown keys) of the scenario's ``scenario: victory:`` block it reads.

:func:`requirement_problems` lists every need the pack does not meet, located at the plugin's
entry of ``game.yaml`` (``plugins.N``) with a did-you-mean; ``casebook lint`` reports them and
:meth:`casebook.script.engine.Engine.load` refuses the pack with the same problems, so ``play`` on
a pack without its rules or a table stops with that error instead of failing mid-game.
:func:`victory_problems` checks a scenario's victory block against each listed plugin's schema
(every scenario position, by :mod:`casebook.content.position`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from casebook.core.errors import Problem

__all__ = ["requirements_of", "requirement_problems", "pack_requirement_problems", "track_bound_problems",
           "unlisted_plugin_problems", "step_problems", "table_check_problems",
           "victory_schemas", "victory_problems"]

Locate = Callable[[tuple], tuple[str, int, int]]
_KINDS = ("tables", "quantities", "permissions")


def _module(plugin: str) -> Any:
    from casebook.content.plugins import resolve_plugin

    try:
        return resolve_plugin(plugin)
    except LookupError:  # an unregistered plugin is reported by the pack's own checks
        return None


def requirements_of(plugin: str) -> dict[str, tuple[str, ...]]:
    """The ``REQUIRES`` plugin ``plugin`` declares: kind (tables, quantities, permissions) ->
    names (empty tuples when it declares none)."""
    declared = getattr(_module(plugin), "REQUIRES", None) or {}
    return {kind: tuple(str(n) for n in declared.get(kind) or ()) for kind in _KINDS}


def requirement_problems(plugins: Iterable[str], tables: Iterable[str], rules: Any, locate: Locate,
                         *, has_scripts: bool = True) -> list[Problem]:
    """Every table, quantity or permission a plugin of ``plugins`` (the manifest's list, in order)
    requires that the pack lacks: ``tables`` are the pack's table and records ids, ``rules`` the
    compiled rule scripts (None: none compiled); ``has_scripts`` False adds that the pack has no
    rule scripts at all. Each problem sits at ``plugins.N`` of the manifest."""
    from casebook.content.schema import did_you_mean

    have = {"tables": sorted(set(tables)),
            "quantities": sorted(getattr(rules, "quantities", {}) or {}),
            "permissions": sorted(getattr(rules, "permissions", {}) or {})}
    what = {"tables": "table", "quantities": "rule-script quantity", "permissions": "rule-script permission"}
    out: list[Problem] = []
    scriptless: list[str] = []  # plugins needing rule scripts when the pack has none: one problem
    for i, plugin in enumerate(plugins):
        for kind, names in requirements_of(plugin).items():
            for name in names:
                if name in have[kind]:
                    continue
                if kind != "tables" and not has_scripts:
                    scriptless += [plugin] if plugin not in scriptless else []
                    continue
                if kind == "tables":
                    why = f"the pack has no table {name!r}{did_you_mean(name, have[kind])} (list it under tables:)"
                else:
                    why = f"no rule script of the pack defines it{did_you_mean(name, have[kind])}"
                file, line, col = locate(("plugins", i))
                out.append(Problem(file, line, col, f"plugins.{i}",
                                   f"plugin {plugin!r} needs the {what[kind]} {name!r}: {why}"))
    if scriptless:
        file, line, col = locate(("plugins",))
        out.append(Problem(file, line, col, "plugins", "the pack has no rule scripts (no rules/ folder, or no "
                           f"*.rules in it; a pack reads only its own files): plugins {', '.join(scriptless)} need them"))
    return out


def pack_requirement_problems(pack: Any, rules: Any) -> list[Problem]:
    """:func:`requirement_problems` of a loaded pack (:class:`casebook.content.pack.Pack`) under
    its compiled ``rules``, located in its ``game.yaml``."""
    from casebook.content.loader import display_path
    from casebook.content.yamlio import read_yaml

    manifest = pack.dir / "game.yaml"
    doc, _ = read_yaml(manifest, file=display_path(manifest))

    def locate(kp: tuple) -> tuple[str, int, int]:
        if doc is None:
            return display_path(manifest), 0, 0
        line, col = doc.where(kp)
        return doc.file, line, col

    files = pack.rule_files if "rules" in pack.manifest else tuple(sorted(pack.rules_dir.glob("*.rules")))
    has_scripts = any(f.is_file() for f in files)
    out = requirement_problems(pack.manifest.get("plugins") or (), [*pack.tables, *pack.records], rules,
                               locate, has_scripts=has_scripts)
    out += unlisted_plugin_problems(pack, locate)
    out += step_problems(pack, rules)
    from casebook.content.areablocks import area_block_problems

    out += area_block_problems(pack, locate)  # area_cases: / area_procedures: (casebook.content.areablocks)
    if has_scripts:  # without scripts every row would repeat the one error at `plugins:`
        out += table_check_problems(pack, rules)
    from casebook.content.packconfig import config_problems

    # the configs the listed plugins read (casebook.content.packconfig); without scripts their fact,
    # permission and quantity names are not checked (each would repeat the one error at `plugins:`)
    out += config_problems(pack, rules if has_scripts else None)
    return out + (track_bound_problems(pack.vocabulary.tracks, rules, locate) if has_scripts else [])


def unlisted_plugin_problems(pack: Any, locate: Locate) -> list[Problem]:
    """A table of the pack that only registered plugins the manifest does not list read (their
    ``REQUIRES`` names it): e.g. ``tables/crt.yaml`` with ``combat`` left out of ``plugins:`` —
    nothing would resolve a combat. Located at ``plugins`` of the manifest."""
    import importlib.metadata

    listed = list(pack.manifest.get("plugins") or ())
    readers: dict[str, list[str]] = {}
    for ep in importlib.metadata.entry_points(group="casebook.plugins"):
        if not ep.value.startswith("casebook.areas."):
            continue  # a game's own plugin reads its own game's tables
        for table in requirements_of(ep.name)["tables"]:
            readers.setdefault(table, []).append(ep.name)
    out: list[Problem] = []
    for table in [*pack.tables, *pack.records]:
        names = sorted(set(readers.get(table, ())))
        if names and not set(names) & set(listed):
            file, line, col = locate(("plugins",))
            out.append(Problem(file, line, col, "plugins", f"the pack has table {table!r}, which only the shared area(s) "
                               f"{', '.join(names)} read: list one under plugins: (or drop the table)"))
    return out


def table_check_problems(pack: Any, rules: Any) -> list[Problem]:
    """What a listed plugin's ``TABLE_CHECKS`` (records table id -> ``check(row, rules)`` giving
    ``(field, message)`` pairs) find in the rows of the pack's table, located at
    ``rows.N.field`` of the table's file: e.g. a weather-effects row asking a quantity the rule
    scripts lack, or a label placeholder the area does not fill."""
    from casebook.content.loader import display_path
    from casebook.content.yamlio import read_yaml

    checks: dict[str, Any] = {}
    for plugin in pack.manifest.get("plugins") or ():
        checks.update(getattr(_module(plugin), "TABLE_CHECKS", None) or {})
    out: list[Problem] = []
    for rel in pack.manifest.get("tables") or () if checks else ():
        path = pack.dir / str(rel)
        doc, _ = read_yaml(path, file=display_path(path)) if path.is_file() else (None, [])
        data: Any = doc.data if doc is not None else None
        check = checks.get(str(data.get("id"))) if isinstance(data, dict) else None
        if check is None or doc is None:
            continue
        for i, row in enumerate(data.get("rows") or ()):
            for field, message in check(row, rules) if isinstance(row, dict) else ():
                kp = ("rows", i, field)
                line, col = doc.where(kp)
                out.append(Problem(doc.file, line, col, ".".join(map(str, kp)), message))
    return out


def step_problems(pack: Any, rules: Any) -> list[Problem]:
    """A step of the sequence no listed plugin acts in and no rule script names (``step is X``) —
    e.g. ``movment`` for ``movement``: that side would never move. Checked only when every listed
    plugin declares ``STEPS`` (the step ids it acts in, or a predicate on them; an ``offer … in step X``
    of the scripts names its step); located at the
    step's id in the sequence file, with a did-you-mean."""
    import re

    from casebook.content.loader import display_path
    from casebook.content.schema import did_you_mean
    from casebook.content.yamlio import read_yaml

    del rules
    found = [getattr(_module(p), "STEPS", None) for p in pack.manifest.get("plugins") or ()]
    declared: list[Any] = [d for d in found if d is not None]
    if not found or len(declared) < len(found):
        return []
    scripts = " ".join(f.read_text(encoding="utf-8", errors="replace") for f in pack.rule_files if f.is_file()) \
        if "rules" in pack.manifest else " ".join(f.read_text(encoding="utf-8", errors="replace")
                                                 for f in sorted(pack.rules_dir.glob("*.rules")))
    named = set(re.findall(r"\b(?:step is|in step) (\w+)", scripts))  # a line's condition, an offer's step

    def handled(step: str) -> bool:
        return step in named or any(d(step) if callable(d) else step in d for d in declared)

    ids: list[str] = [str(s["id"]) for ph in pack.sequence.get("phases") or [] if isinstance(ph, dict)
                      for s in ph.get("steps") or [] if isinstance(s, dict) and isinstance(s.get("id"), str)]
    known = sorted({s for d in declared if not callable(d) for s in d} | named | {s for s in ids if handled(s)})

    path = pack.dir / str(pack.manifest.get("sequence", "sequence.yaml"))
    doc, _ = read_yaml(path, file=display_path(path))
    out: list[Problem] = []
    for i, phase in enumerate(pack.sequence.get("phases") or []):
        for j, step in enumerate(phase.get("steps") or [] if isinstance(phase, dict) else []):
            sid = step.get("id") if isinstance(step, dict) else None
            if isinstance(sid, str) and not handled(sid):
                kp = ("phases", i, "steps", j, "id")
                line, col = doc.where(kp) if doc is not None else (0, 0)
                out.append(Problem(doc.file if doc is not None else str(path), line, col, ".".join(map(str, kp)),
                                   f"no listed plugin acts in step {sid!r} and no rule script names it: nothing would "
                                   f"happen in it{did_you_mean(sid, known)}"))
    return out


def track_bound_problems(tracks: Mapping[str, Any], rules: Any, locate: Locate) -> list[Problem]:
    """A track whose ``high`` names a rule-script quantity (:mod:`casebook.content.tracks`) that the
    scripts do not define, or define without a constant unconditional ``at most``: located at
    ``vocabulary.tracks.NAME.high`` of the manifest."""
    from casebook.content.schema import did_you_mean
    from casebook.content.tracks import track_bounds

    quantities = sorted(getattr(rules, "quantities", {}) or {})
    bounds = track_bounds(tracks, rules)
    out: list[Problem] = []
    for name, decl in tracks.items():
        if not isinstance(decl.high, str):
            continue
        kp = ("vocabulary", "tracks", name, "high")
        file, line, col = locate(kp)
        if decl.high not in quantities:
            out.append(Problem(file, line, col, ".".join(kp), f"the track's maximum is the rule-script quantity "
                               f"{decl.high!r}, which no rule script defines{did_you_mean(decl.high, quantities)}"))
        elif bounds[name].high is None:
            out.append(Problem(file, line, col, ".".join(kp), f"quantity {decl.high!r} has no constant "
                               "unconditional `at most` to be the track's maximum"))
    return out


def victory_schemas(plugins: Iterable[str]) -> list[tuple[str, Any]]:
    """``(plugin, model)`` for each listed plugin that declares a ``VICTORY_SCHEMA``."""
    found = [(p, getattr(_module(p), "VICTORY_SCHEMA", None)) for p in plugins]
    return [(p, s) for p, s in found if s is not None]


def victory_problems(victory: Any, plugins: Iterable[str], locate: Locate,
                     base: tuple = ("scenario", "victory")) -> list[Problem]:
    """Every problem of a scenario's ``victory`` block (at ``base``) against the schema of each
    listed plugin that declares one: an unknown key with a did-you-mean, a wrong type, a missing
    key, each at its ``file:line:column``. No schema declared: not checked."""
    from casebook.content.schema import validate_model

    if victory is None:
        return []
    out: list[Problem] = []
    for _, schema in victory_schemas(plugins):
        if not isinstance(victory, Mapping):
            file, line, col = locate(base)
            out.append(Problem(file, line, col, ".".join(base), f"expected a mapping, got {victory!r}"))
            break
        _, problems = validate_model(schema, dict(victory), lambda kp: locate(base + tuple(kp)))
        for p in problems:
            key = ".".join(base) + ("." + p.key if p.key else "")
            out.append(Problem(p.file, p.line, p.column, key, p.message))
    return out
