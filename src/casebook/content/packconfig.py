"""A pack's configuration of its rules areas and plugins, as YAML a modder edits (issue #15).

A shared area or a game's plugin is configured with names and texts — the cases a refusal or an
event cites, its message, the track, marker, action or event names it uses. They are data, so
they live in the pack, one file per configuration, named by the manifest::

    config:
      fieldworks: config/fieldworks.yaml

A config file is ``kind: config``, ``format: 1``, an optional ``provenance:``, and the keys of
the strict pydantic model (:class:`casebook.content.schema_base.Model`: no coercion, no unknown
key) that the plugin reading it declares as a module attribute, ``CONFIG = {"fieldworks": Model}``
(like ``REQUIRES`` and ``VICTORY_SCHEMA``, :mod:`casebook.content.requires`). A model may be
derived from the area's own dataclass (:func:`config_model`: its data fields, a list for a tuple;
the fields holding functions stay Python and are passed to :func:`build_config`). Case ids are
typed :data:`CitedCase`: a case of the pack's index (``did you mean``).
An area's texts are typed :func:`texts` (key -> the ``{fields}`` the area fills in): exactly
those keys, each text using only those placeholders, so a misspelt key or placeholder is a
located content error, never a refusal at play time.

The file is read under the one YAML policy (:mod:`casebook.content.yamlio`: no tags, anchors or
duplicate keys, bounded size), its name confined to the pack folder (:mod:`.confine`).
:func:`config_problems` lists every problem of every listed plugin's configs at once
(``file:line:column: key.path: message``); ``casebook lint`` reports them and
:meth:`casebook.script.engine.Engine.load` refuses a pack with them. At run time
:func:`pack_config` gives the validated configuration (or what ``build`` makes of it), read and
validated once per loaded pack (the pack folder's hash keys the pack, and every file of the
folder is in it, so a modder's copy has its own).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import operator
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, Discriminator, Field, Strict, Tag, ValidationError, ValidationInfo, create_model

from casebook.content.schema_base import CASE_ID, Model
from casebook.core.errors import ContentError, Problem

__all__ = ["CitedCase", "Cases", "Cites", "Message", "Messages", "messages", "Texts", "texts", "reasons", "placeholders", "config_model",
           "build_config", "read_config", "pack_config", "config_reader", "config_problems", "declared_configs",
           "config_citations"]

_ENVELOPE = {"kind": "config", "format": 1}
#: (id(pack), name, id(model), id(build)) -> (pack, value): each config once per loaded pack
_CACHE: dict[tuple[int, str, int, int], tuple[Any, Any]] = {}


def _check_cited(text: str, info: ValidationInfo) -> str:
    import re

    if not re.fullmatch(CASE_ID, text):
        raise ValueError(f"expected a case id such as '9.6C', got {text!r}")
    known = (info.context or {}).get("cases")
    if known is not None and text not in known:
        from casebook.content.schema import did_you_mean

        raise ValueError(f"case {text!r} is not in the pack's case index{did_you_mean(text, known)}")
    return text


#: A case id the configuration cites: its form, and (validated by :func:`read_config`) a case of
#: the pack's index.
CitedCase = Annotated[str, AfterValidator(_check_cited)]
#: The cases one verdict, event or refusal cites: a YAML list of :data:`CitedCase`, held as a tuple.
Cases = Annotated[tuple[CitedCase, ...], Strict(False)]


class Cites(Model):
    """A model of cases by key that an area reads as a mapping (``cites["enemy"]``)."""

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)


class Message(Model):
    """A refusal's or event's ``text`` (``{name}`` fields filled in by the plugin) and ``cases``."""

    text: str
    cases: Cases

    def format(self, **fields: Any) -> str:
        """The text with ``fields`` filled in."""
        return self.text.format(**fields)


class Messages(Model):
    """The messages of a plugin by key (:func:`messages`), read as a mapping (``says["done"]``)."""

    def __getitem__(self, key: str) -> Message:
        found: Message = getattr(self, key)
        return found


def messages(*keys: str, fills: Mapping[str, tuple[str, ...]] | None = None) -> Any:
    """The type of a config's messages: a mapping of exactly ``keys`` (what the plugin says) to a
    :class:`Message` each; a missing or unknown key is an error at its line (with a did-you-mean).
    With ``fills`` (key -> the ``{fields}`` the plugin fills in; a key not listed fills none),
    a placeholder of a text the plugin does not fill is an error too."""
    def check(key: str) -> Callable[[Message], Message]:
        def one(message: Message) -> Message:
            if fills is not None:
                _fills(tuple(fills.get(key, ())))(message.text)
            return message
        return one

    fields: dict[str, Any] = {key: (Annotated[Message, AfterValidator(check(key))], ...) for key in keys}
    return create_model("Messages", __base__=Messages, **fields)


def placeholders(text: str) -> list[str]:
    """The names of the ``{name}`` fields of ``text`` (``str.format``'s), in order; ``ValueError``
    when the text is not a valid format string (an unmatched brace)."""
    import re
    import string

    return [re.split(r"[.\[!:]", name, maxsplit=1)[0] for _, name, _, _ in string.Formatter().parse(text)
            if name is not None]


def _fills(fills: tuple[str, ...]) -> Callable[[str], str]:
    """A check that a text's ``{name}`` placeholders are among ``fills``."""
    def check(text: str) -> str:
        from casebook.content.schema import did_you_mean

        wrong = []
        for name in dict.fromkeys(placeholders(text)):  # a stray brace: ValueError, reported as is
            if name not in fills:
                known = ", ".join("{" + f + "}" for f in fills) or "none"
                wrong.append(f"placeholder {{{name}}} is not filled in (this text has {known})"
                             f"{did_you_mean(name, fills)}")
        if wrong:
            raise ValueError("; ".join(wrong))
        return text

    return check


class Texts(Model):
    """The texts of an area by key (:func:`texts`), read as a mapping (``texts["pinned"]``)."""

    def __getitem__(self, key: str) -> str:
        return str(getattr(self, key))


def texts(spec: Mapping[str, tuple[str, ...]], name: str = "Texts") -> Any:
    """The type of a config's texts: a mapping of exactly the keys of ``spec`` (what the area
    says) to a string each, whose ``{name}`` placeholders are among ``spec[key]`` (the fields the
    area fills in). A missing or unknown key (with a did-you-mean) or a placeholder the area does
    not fill is an error at its own line, also when the whole mapping is missing."""
    fields: dict[str, Any] = {key: (Annotated[str, AfterValidator(_fills(tuple(fills)))], ...)
                              for key, fills in spec.items()}
    model: type[Texts] = create_model(name, __base__=Texts, **fields)
    return Annotated[model, Field(validate_default=True)]


def reasons(spec: Mapping[str, tuple[str, ...]], name: str = "Reasons") -> Any:
    """The type of a config's reasons for refusals the rule lines decide (the ``reason`` of
    ``refusals`` in a plugin: the lines' cases are cited): exactly the keys of ``spec``, each a
    text or a mapping case -> text (the text of the first case the deciding line cites), every
    text's placeholders among ``spec[key]``. Read as a mapping (``reasons["overrun"]``)."""
    def one(fills: tuple[str, ...]) -> Any:
        text = Annotated[str, AfterValidator(_fills(fills))]
        # a text, or the mapping: only the branch of the value's own shape reports its errors
        return Annotated[Annotated[text, Tag("text")] | Annotated[dict[CitedCase, text], Tag("cases")],
                         Discriminator(lambda v: "text" if isinstance(v, str) else "cases")]

    fields: dict[str, Any] = {key: (one(tuple(fills)), ...) for key, fills in spec.items()}
    model: type[Cites] = create_model(name, __base__=Cites, **fields)
    return Annotated[model, Field(validate_default=True)]


def _yaml_type(tp: Any) -> Any:
    """The type a YAML value of a dataclass field of type ``tp`` is validated as: YAML has lists,
    not tuples or frozensets, so those accept a list (``Strict(False)`` on the container alone:
    its items, and every scalar, stay strict)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return Annotated[(_yaml_type(args[0]), *args[1:])]
    if not args:
        return tp
    inner = tuple(a if a is Ellipsis else _yaml_type(a) for a in args)
    generic: Any = origin
    if origin in (tuple, frozenset, set):
        return Annotated[generic[inner], Strict(False)]
    if origin in (dict, Mapping, collections.abc.Mapping):
        return _DICT[inner]
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, inner)
    if origin is list:
        return generic[inner]
    return tp


_DICT: Any = dict


def config_model(cls: type, *, python: tuple[str, ...] = (), name: str | None = None) -> type[Model]:
    """A strict model of the data fields of dataclass ``cls`` (every field but those named in
    ``python``: functions a plugin passes); tuples and frozensets are YAML lists, defaults are
    the dataclass's."""
    hints = typing.get_type_hints(cls, include_extras=True)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in python or f.name.startswith("_"):  # a private field: the object's own cache
            continue
        if f.default is not dataclasses.MISSING:
            default: Any = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = ...
        fields[f.name] = (_yaml_type(hints[f.name]), default)
    model: type[Model] = create_model(name or f"{cls.__name__}Config", __base__=Model, **fields)
    return model


def build_config(cls: type, config: Any, **python: Any) -> Any:
    """An instance of dataclass ``cls`` from a validated :func:`config_model` instance ``config``
    and the ``python`` fields (functions) the plugin gives."""
    values = {f.name: getattr(config, f.name) for f in dataclasses.fields(cls)
              if f.name not in python and hasattr(config, f.name)}
    return cls(**values, **python)


def _manifest_problem(pack: Any, key: tuple, message: str) -> Problem:
    from casebook.content.loader import display_path
    from casebook.content.yamlio import read_yaml

    path = pack.dir / "game.yaml"
    doc, _ = read_yaml(path, file=display_path(path))
    if doc is None:
        return Problem(display_path(path), 0, 0, ".".join(map(str, key)), message)
    return doc.problem(key, message, value=len(key) > 1)


def read_config(pack: Any, name: str, model: type[Model],
                refs: Mapping[str, frozenset[str]] | None = None) -> tuple[Any, list[Problem]]:
    """``(instance or None, problems)``: the config ``name`` of ``pack`` (a loaded
    :class:`~casebook.content.pack.Pack`) validated by ``model``; every problem at once. With
    ``refs`` (:func:`casebook.content.packrefs.pack_refs`) its reference-typed values are resolved."""
    from casebook.content.confine import confined_path
    from casebook.content.loader import display_path
    from casebook.content.schema import convert_errors, describe, doc_locator
    from casebook.content.yamlio import read_yaml

    files = pack.manifest.get("config") or {}
    rel = files.get(name)
    if rel is None:
        return None, [_manifest_problem(pack, ("config",), f"no configuration {name!r}: a listed plugin reads it; "
                                        f"name its file under config: (e.g. {name}: config/{name}.yaml)")]
    path, why = confined_path(pack.dir, rel)
    if path is None or not path.is_file():
        return None, [_manifest_problem(pack, ("config", name), why or f"file not found: {rel}")]
    doc, problems = read_yaml(path, file=display_path(path))
    if doc is None or problems:
        return None, problems
    locate = doc_locator(doc)
    data = doc.data
    if not isinstance(data, dict):
        file, line, col = locate(())
        return None, [Problem(file, line, col, "", f"expected a mapping (kind: config), got {describe(data)}")]
    for key, want in _ENVELOPE.items():
        if data.get(key) != want:
            file, line, col = locate((key,))
            problems.append(Problem(file, line, col, key, f"expected {key}: {want}, got {describe(data.get(key))}"))
    body = {k: v for k, v in data.items() if k not in _ENVELOPE}
    try:
        instance = model.model_validate(body, context={"cases": frozenset(pack.cases), "refs": refs})
    except ValidationError as exc:
        return None, problems + convert_errors(exc, model, body, locate)
    return (None if problems else instance), problems


def pack_config(pack: Any, name: str, model: type[Model], build: Callable[[Any], Any] | None = None) -> Any:
    """The config ``name`` of ``pack`` validated by ``model`` (``build(instance)`` when given),
    once per loaded pack; :class:`ContentError` listing every problem when it is invalid."""
    slot = (id(pack), name, id(model), id(build))
    got = _CACHE.get(slot)
    if got is not None and got[0] is pack:
        return got[1]
    instance, problems = read_config(pack, name, model)
    if problems or instance is None:
        raise ContentError(problems)
    value = build(instance) if build is not None else instance
    _CACHE[slot] = (pack, value)
    while len(_CACHE) > 64:
        _CACHE.pop(next(iter(_CACHE)))
    return value


def config_reader(name: str, model: type[Model], cls: type | None = None, /, *,
                  build: Callable[[Any], Any] | None = None, **python: Any) -> Callable[[Any], Any]:
    """A plugin's reader of its config ``name``: ``read(ctx)`` is :func:`pack_config` of
    ``ctx.pack`` — validated by ``model``, then ``build(instance)`` or an instance of dataclass
    ``cls`` with the ``python`` fields (:func:`build_config`) when given — once per loaded pack."""
    if build is None and cls is not None:
        def build(config: Any) -> Any:
            return build_config(cls, config, **python)

    def read(ctx: Any) -> Any:
        return pack_config(ctx.pack, name, model, build)

    read.__doc__ = f"The pack's configuration {name!r} (the file its manifest's ``config:`` names)."
    return read


def declared_configs(plugins: Any) -> list[tuple[int, str, str, type[Model]]]:
    """``(index, plugin, config name, model)`` of every ``CONFIG`` a listed plugin declares."""
    from casebook.content.plugins import resolve_plugin

    out = []
    for i, plugin in enumerate(plugins):
        try:
            module = resolve_plugin(plugin)
        except LookupError:  # an unregistered plugin is reported by the pack's own checks
            continue
        for name, model in (getattr(module, "CONFIG", None) or {}).items():
            out.append((i, plugin, name, model))
    return out


def config_problems(pack: Any, rules: Any = None) -> list[Problem]:
    """Every problem of the configs the pack's listed plugins read (each file once; a value naming
    a step, fact, track … the pack or its compiled ``rules`` lacks: :mod:`.packrefs`), and a
    ``config:`` entry no listed plugin reads (a misspelt name would otherwise do nothing)."""
    from casebook.content.packrefs import pack_refs

    refs = pack_refs(pack, rules)
    declared = declared_configs(pack.manifest.get("plugins") or ())
    out: list[Problem] = []
    seen: set[str] = set()
    for _, _, name, model in declared:
        if name in seen:
            continue
        seen.add(name)
        _, problems = read_config(pack, name, model, refs)
        out += problems
    from casebook.content.schema import did_you_mean

    for name in pack.manifest.get("config") or {}:
        if name not in seen:
            out.append(_manifest_problem(pack, ("config", name), f"no listed plugin reads configuration {name!r}"
                                         f"{did_you_mean(name, sorted(seen))}"))
    return out


def config_citations(pack_dir: Any, warnings: list[str]) -> dict[str, list[str]]:
    """case -> ``config:<file>`` for each config file the manifest in ``pack_dir`` names that
    cites the case (``casebook cases`` reports them as ``cited_by``). A citation, not an
    implementation: the procedure citing the case is Python, so it never makes a case implemented,
    nor a Python-only case anything else. Unreadable files are added to ``warnings``."""
    from pathlib import Path

    from casebook.content.confine import confined_path
    from casebook.content.yamlio import load_yaml

    root = Path(pack_dir)
    try:
        manifest = load_yaml(root / "game.yaml").data
    except ContentError:
        return {}
    out: dict[str, list[str]] = {}
    files = manifest.get("config") if isinstance(manifest, dict) else None
    for rel in (files or {}).values():
        path, _ = confined_path(root, rel)
        try:
            data = load_yaml(path).data if path is not None else None
        except ContentError as exc:  # report, keep counting the rest
            warnings.append(f"config {rel} not counted: {exc}".splitlines()[0])
            continue
        for case in dict.fromkeys(_case_strings(data)):
            out.setdefault(case, []).append(f"config:{rel}")
    return out


def _case_strings(node: Any) -> list[str]:
    """Every string of ``node`` (nested mappings and lists) that is a case id."""
    import re

    if isinstance(node, dict):
        return [c for v in node.values() for c in _case_strings(v)]
    if isinstance(node, list):
        return [c for v in node for c in _case_strings(v)]
    return [node] if isinstance(node, str) and re.fullmatch(CASE_ID, node) else []
