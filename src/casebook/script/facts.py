"""The facts declaration of a game: which names rule scripts may read, and their types.

``games/<game>/rules/facts.yaml`` (``kind: facts``) declares every fact the game's plugins publish to rule
scripts, and the action kinds that ``forbid`` / ``permit`` may name::

    kind: facts
    format: 1
    provenance: "reconstructed: facts the plugins publish"
    facts:
      ground: {type: enum, values: [dry, mud, snow], description: "ground condition (3.0D)"}
      attack_ips: {type: int, description: "IPs the attacker spends on support (10.4.2A)"}
      attackers:                     # a collection of records
        type: records
        each: attacker               # singular, so scripts may say `any attacker has ...`
        description: "the attacking units"
        fields:
          class: {type: enum, values: [infantry, armor]}
          fatigued: {type: bool}
    actions:
      force_march: "declare a force march (9.6)"

Types: ``int``, ``bool``, ``str``, ``enum`` (with ``values``), ``records`` (with ``fields``, whose
types are ``int | bool | str | enum``). Loaded safely; all problems are reported at once.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from casebook.core.errors import ContentError, Problem

__all__ = ["FactType", "FactSchema", "load_facts", "facts_from_mapping", "AskedFacts"]

_SCALAR_TYPES = ("int", "bool", "str", "enum")


@dataclass(frozen=True)
class FactType:
    """The type of a fact or a record field.

    ``kind`` is ``int | bool | str | enum | records``; ``values`` the allowed enum values;
    ``fields`` the record fields (``records`` only); ``each`` the singular name of a collection.
    """

    kind: str
    values: tuple[str, ...] = ()
    fields: Mapping[str, FactType] = field(default_factory=dict)
    each: str | None = None
    description: str = ""
    #: the value used when a plugin does not give the fact (``default:`` in facts.yaml)
    default: Any = None
    has_default: bool = False
    #: who gives the fact: ``engine``, ``setting``, ``track`` or ``markers`` (standard: every
    #: evaluation has it, see :mod:`casebook.script.standard`), else the plugin whose calls pass it
    provider: str = ""
    #: ``provider: track``: the track read (``of: partisans``); ``markers``: the marker kind counted
    of: str = ""
    #: ``provider: track`` of a keyed track: its keys (``keys: [german]``, literal key values)
    keys: tuple[str, ...] = ()
    #: where ``of:`` is written in facts.yaml (line, column; 0 unknown), for the check of the track
    of_at: tuple[int, int] = field(default=(0, 0), compare=False)
    #: where an enum's ``values:`` is written in facts.yaml (line, column; 0 unknown), for the
    #: messages that name the enum (a map terrain it lacks: :mod:`casebook.content.crossref`)
    values_at: tuple[int, int] = field(default=(0, 0), compare=False)

    @property
    def standard(self) -> bool:
        """Given to every evaluation by the engine (``provider: engine``, ``setting``, ``track``
        or ``markers``)."""
        return self.provider in ("engine", "setting", "track", "markers")


@dataclass(frozen=True)
class FactSchema:
    """All declared facts (by name) and action kinds (name -> description) of one game."""

    facts: Mapping[str, FactType]
    actions: Mapping[str, str]
    file: str = ""
    #: quantity or action -> the facts its callers give (``inputs:`` in facts.yaml); a name not
    #: listed is not checked (``casebook rules check`` warns)
    inputs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: where each ``inputs:`` entry is written: name -> (line, column)
    inputs_at: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    def given(self, name: str) -> frozenset[str] | None:
        """The facts an evaluation of quantity/action ``name`` has: the standard ones, those with
        a ``default:``, and its declared ``inputs``; ``None`` when its inputs are not declared."""
        inputs = self.inputs.get(name)
        if inputs is None:
            return None
        always = {n for n, t in self.facts.items() if t.standard or t.has_default}
        return frozenset(always | set(inputs))

    def collection(self, name: str) -> tuple[str, FactType] | None:
        """The records fact called ``name`` or whose singular (``each``) is ``name``."""
        t = self.facts.get(name)
        if t is not None and t.kind == "records":
            return name, t
        for n, t in self.facts.items():
            if t.kind == "records" and t.each == name:
                return n, t
        return None


def _pos(node: Any, key: Any = None) -> tuple[int, int]:
    lc = getattr(node, "lc", None)
    if lc is None:
        return 0, 0
    try:
        if key is not None:
            line, col = lc.key(key) if isinstance(key, str) else lc.item(key)
        else:
            line, col = lc.line, lc.col
    except Exception:
        line, col = lc.line, lc.col
    return line + 1, col + 1


def _type(node: Any, where: str, file: str, problems: list[Problem], parent: Any, key: str,
          allow_records: bool) -> FactType | None:
    line, col = _pos(parent, key)
    if isinstance(node, str):  # shorthand `fatigued: bool`
        node = {"type": node}
    if not isinstance(node, Mapping):
        problems.append(Problem(file, line, col, where, "expected a mapping with `type:`"))
        return None
    allowed = {"type", "values", "description", "fields", "each", "provenance", "default", "provider", "of", "keys"}
    for k in node:
        if k not in allowed:
            kl, kc = _pos(node, k)
            problems.append(Problem(file, kl, kc, f"{where}.{k}", f"unknown key `{k}` (allowed: "
                                    + ", ".join(sorted(allowed)) + ")"))
    kind = node.get("type")
    kinds = _SCALAR_TYPES + (("records",) if allow_records else ())
    if kind not in kinds:
        problems.append(Problem(file, line, col, f"{where}.type",
                                f"type must be one of {', '.join(kinds)} (got {kind!r})"))
        return None
    values: tuple[str, ...] = ()
    if kind == "enum":
        vals = node.get("values")
        if not isinstance(vals, list) or not vals or not all(isinstance(v, str) for v in vals):
            problems.append(Problem(file, line, col, f"{where}.values",
                                    "an enum needs `values:` — a non-empty list of names"))
        else:
            values = tuple(vals)
    fields: dict[str, FactType] = {}
    if kind == "records":
        raw = node.get("fields")
        if not isinstance(raw, Mapping) or not raw:
            problems.append(Problem(file, line, col, f"{where}.fields", "records need `fields:`"))
        else:
            for fname, fnode in raw.items():
                ft = _type(fnode, f"{where}.fields.{fname}", file, problems, raw, fname, False)
                if ft is not None:
                    fields[str(fname)] = ft
    each = node.get("each")
    has_default = "default" in node
    default = node.get("default")
    if has_default:
        ok = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "bool": lambda v: isinstance(v, bool), "str": lambda v: isinstance(v, str),
              "enum": lambda v: v in values}.get(kind, lambda v: False)
        if not ok(default):
            dl, dc = _pos(node, "default")
            problems.append(Problem(file, dl, dc, f"{where}.default",
                                    f"default {default!r} is not a valid {kind}"))
    provider = node.get("provider", "")
    if not isinstance(provider, str) or (provider and not provider.replace("_", "").isalnum()):
        pl, pc = _pos(node, "provider")
        problems.append(Problem(file, pl, pc, f"{where}.provider",
                                "provider must be `engine`, `setting` or a plugin name"))
        provider = ""
    elif provider == "engine":
        from .standard import ENGINE_COLLECTIONS, ENGINE_FACTS

        name = where.rsplit(".", 1)[-1]
        if name not in ENGINE_FACTS and not (kind == "records" and name in ENGINE_COLLECTIONS):
            pl, pc = _pos(node, "provider")
            problems.append(Problem(file, pl, pc, f"{where}.provider",
                                    f"the engine gives no fact `{name}` (it gives: "
                                    f"{', '.join([*ENGINE_FACTS, *ENGINE_COLLECTIONS])})"))
    of = node.get("of", "")
    if provider in ("track", "markers"):
        if kind != "int" or not isinstance(of, str) or not of:
            pl, pc = _pos(node, "provider")
            what = "track" if provider == "track" else "marker kind"
            problems.append(Problem(file, pl, pc, f"{where}.provider",
                                    f"`provider: {provider}` is an int fact naming its {what} with `of:`"))
    elif "of" in node:
        ol, oc = _pos(node, "of")
        problems.append(Problem(file, ol, oc, f"{where}.of", "`of:` goes with `provider: track` or `markers`"))
    keys = node.get("keys", [])
    if "keys" in node and (provider != "track" or not isinstance(keys, list)
                           or not all(isinstance(k, str) and k for k in keys)):
        kl, kc = _pos(node, "keys")
        problems.append(Problem(file, kl, kc, f"{where}.keys",
                                "`keys:` goes with `provider: track`: a list of the track's keys (`[german]`)"))
        keys = []
    return FactType(kind, values, fields, str(each) if each else None, str(node.get("description", "")),
                    default, has_default, provider, str(of) if isinstance(of, str) else "",
                    tuple(str(k) for k in keys) if isinstance(keys, list) else (),
                    _pos(node, "of") if "of" in node else (0, 0),
                    values_at=_pos(node, "values") if "values" in node else (0, 0))


def facts_from_mapping(data: Any, file: str) -> FactSchema:
    """Validate a loaded facts document; raises :class:`ContentError` listing every problem."""
    problems: list[Problem] = []
    if not isinstance(data, Mapping):
        raise ContentError([Problem(file, 1, 1, "", "expected a mapping (kind: facts)")])
    if data.get("kind") != "facts":
        problems.append(Problem(file, *_pos(data, "kind") if "kind" in data else (1, 1), "kind",
                                "expected `kind: facts`"))
    for k in data:
        if k not in {"kind", "format", "provenance", "facts", "actions", "inputs"}:
            problems.append(Problem(file, *_pos(data, k), str(k), f"unknown key `{k}`"))
    facts: dict[str, FactType] = {}
    raw = data.get("facts") or {}
    if not isinstance(raw, Mapping):
        problems.append(Problem(file, *_pos(data, "facts"), "facts", "expected a mapping"))
        raw = {}
    for name, node in raw.items():
        t = _type(node, f"facts.{name}", file, problems, raw, name, True)
        if t is not None:
            facts[str(name)] = t
    actions_raw = data.get("actions") or {}
    if not isinstance(actions_raw, Mapping):
        problems.append(Problem(file, *_pos(data, "actions"), "actions",
                                "expected a mapping of action name -> description"))
        actions_raw = {}
    inputs, inputs_at = _inputs(data, facts, file, problems)
    if problems:
        raise ContentError(problems)
    return FactSchema(facts, {str(k): str(v) for k, v in actions_raw.items()}, file, inputs, inputs_at)


def _inputs(data: Mapping[str, Any], facts: Mapping[str, FactType], file: str,
            problems: list[Problem]) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[int, int]]]:
    """``inputs:`` — quantity or action name -> the list of facts its callers give."""
    raw = data.get("inputs") or {}
    if not isinstance(raw, Mapping):
        problems.append(Problem(file, *_pos(data, "inputs"), "inputs",
                                "expected a mapping of quantity or action -> list of facts"))
        return {}, {}
    out: dict[str, tuple[str, ...]] = {}
    at: dict[str, tuple[int, int]] = {}
    for name, given in raw.items():
        at[str(name)] = _pos(raw, name)
        if given is None:
            given = []
        if not isinstance(given, list) or not all(isinstance(g, str) for g in given):
            problems.append(Problem(file, *at[str(name)], f"inputs.{name}", "expected a list of fact names"))
            continue
        for i, g in enumerate(given):
            if g not in facts:
                close = difflib.get_close_matches(g, list(facts), n=1, cutoff=0.6)
                hint = f"; did you mean `{close[0]}`?" if close else ""
                problems.append(Problem(file, *_pos(given, i), f"inputs.{name}", f"unknown fact `{g}`{hint}"))
        out[str(name)] = tuple(given)
    return out, at


def load_facts(path: str | Path, display: str | None = None) -> FactSchema:
    """Load ``facts.yaml`` safely (tags refused); raises :class:`ContentError` with all problems."""
    path = Path(path)
    file = display or str(path)
    from casebook.content.yamlio import read_yaml

    doc, problems = read_yaml(path, file=file)  # the one YAML policy: no tags, anchors, duplicates
    if doc is None or problems:
        raise ContentError(problems)
    text = path.read_text(encoding="utf-8")
    try:
        data = YAML(typ="rt").load(text)  # round-trip: positions for messages (already checked)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise ContentError([Problem(file, line, col, "", f"YAML error: {getattr(exc, 'problem', exc)}")]) from exc
    schema = facts_from_mapping(data, file)
    if any(t.provider == "sequence" for t in schema.facts.values()):
        # `provider: sequence` facts (phase, step) take the ids of the pack's sequence file: the
        # pack is the rules folder's parent (src/casebook/script/pack.py)
        from .pack import sequence_world, with_sequence_facts

        schema = with_sequence_facts(schema, sequence_world(path.resolve().parent.parent))
    return schema


class AskedFacts(Mapping[str, Any]):
    """Facts for a rule script whose ``asked`` ones (name -> question) are put to their hooks
    only when a script line reads them: the verdict and its lines are those of the plain facts,
    with fewer questions (``not (supplied and in_command)`` asks command of supplied units only)."""

    def __init__(self, plain: Mapping[str, Any], asked: Mapping[str, Callable[[], Any]]) -> None:
        self._known = dict(plain)
        self._asked = dict(asked)
        #: asked fact -> the rule-script lines that computed it, when :attr:`collect` was set
        #: (:mod:`casebook.script.factlines`: a refusal by a line reading it names them)
        self.lines: dict[str, tuple[dict[str, Any], ...]] = {}
        self.collect: Callable[[Callable[[], Any]], tuple[Any, tuple[dict[str, Any], ...]]] | None = None

    def __getitem__(self, name: str) -> Any:
        if name not in self._known and name in self._asked:
            if self.collect is None:
                self._known[name] = self._asked[name]()
            else:
                self._known[name], self.lines[name] = self.collect(self._asked[name])
        return self._known[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._known, *self._asked]))

    def __len__(self) -> int:
        return len(set(self._known) | set(self._asked))
