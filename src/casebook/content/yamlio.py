"""Safe YAML reading with a position for every key and value, and deterministic dumping.

Content never executes code (developers' rule 5): the document is read as a stream of parser
events (ruamel.yaml's safe parser) and built into plain Python data here, so no constructor of
any tag ever runs. Refused, each as a :class:`~casebook.core.errors.Problem` at its
``line:column``:

- any explicit tag (``!!python/object``, ``!custom``, even ``!!str``);
- anchors and aliases (``&a`` / ``*a``): every value is written where it is used;
- duplicate keys in one mapping; keys that are not scalars;
- YAML syntax errors; more than one document in a file;
- nesting deeper than :data:`MAX_DEPTH` collections, a document longer than :data:`MAX_CHARS`
  characters, a file that is not valid UTF-8.

This is the one YAML policy of every file every command reads (packs, positions, saves, rule
facts, manifests); SECURITY.md lists the limits.

Plain scalars resolve by the YAML 1.2 core schema (``ruamel.yaml``'s resolver): ``7`` is an int,
``"0303"`` (quoted) a string, ``0303`` an int, ``yes`` a string; dates stay strings.

Key paths are tuples of mapping keys and list indices, e.g. ``("units", 3, "strength")``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.representer import SafeRepresenter

from casebook.core.errors import ContentError, Problem

__all__ = ["YamlDoc", "KeyPath", "read_yaml", "load_yaml", "dump_yaml", "dotted", "MAX_DEPTH", "MAX_CHARS"]

#: Deepest nesting of collections (mappings and lists) in one document; shipped files use 6.
MAX_DEPTH = 48
#: Longest document, in characters (4 MiB; the largest shipped file is under 200 KB).
MAX_CHARS = 4 << 20

KeyPath = tuple  # tuple[str | int, ...]

_PLAIN = {
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
}


def dotted(path: Iterable[Any]) -> str:
    """A key path as printed in problems: ``units.3.strength``."""
    return ".".join(str(p) for p in path)


@dataclass(frozen=True)
class YamlDoc:
    """One loaded YAML document.

    ``data`` is plain Python (dict / list / str / int / float / bool / None); ``positions`` maps a
    key path to the 1-based ``(line, column)`` of its key (mapping entries) or of the item (list
    items); ``value_positions`` maps a key path to where its value starts. The root is ``()``.
    """

    file: str
    data: Any
    positions: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    value_positions: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Iterable[Any], *, value: bool = False) -> tuple[int, int]:
        """``(line, column)`` of ``path`` or of its nearest known ancestor; ``(0, 0)`` if none."""
        p = tuple(path)
        table = self.value_positions if value else self.positions
        while p:
            if p in table:
                return table[p]
            if value and p in self.positions:
                return self.positions[p]
            p = p[:-1]
        return self.positions.get((), (1, 1))

    def problem(self, path: Iterable[Any], message: str, *, value: bool = False) -> Problem:
        """A :class:`Problem` located at ``path`` of this document."""
        p = tuple(path)
        line, col = self.where(p, value=value)
        return Problem(self.file, line, col, dotted(p), message)


class _TooDeep(Exception):
    """Raised inside the builder at the first node nested deeper than :data:`MAX_DEPTH`."""


def _yaml() -> YAML:
    y = YAML(typ="safe", pure=True)
    return y


class _Builder:
    """Builds plain data from parser events, recording positions and problems."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.y = _yaml()
        self.resolver = self.y.resolver
        self.constructor = self.y.constructor
        self.positions: dict[KeyPath, tuple[int, int]] = {}
        self.value_positions: dict[KeyPath, tuple[int, int]] = {}
        self.problems: list[Problem] = []

    def _pos(self, event: Any) -> tuple[int, int]:
        m = event.start_mark
        return (m.line + 1, m.column + 1)

    def _problem(self, event: Any, path: KeyPath, message: str) -> None:
        line, col = self._pos(event)
        self.problems.append(Problem(self.file, line, col, dotted(path), message))

    def _check_node(self, event: Any, path: KeyPath) -> None:
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self._problem(event, path, f"anchors are not allowed (&{anchor}); write the value out")
        tag = getattr(event, "tag", None)
        if tag is not None:
            shown = str(tag).replace("tag:yaml.org,2002:", "!!")
            self._problem(
                event, path, f"tags are not allowed ({shown}): content is plain data, never code"
            )

    def scalar(self, event: ev.ScalarEvent) -> Any:
        if event.style is not None:  # quoted or block scalar: always a string
            return event.value
        tag = self.resolver.resolve(ScalarNode, event.value, (True, False))
        tag = str(tag)
        if tag not in _PLAIN:
            return event.value
        return self.constructor.construct_object(ScalarNode(tag, event.value), deep=True)

    def build(self, it: Any, path: KeyPath) -> Any:
        """Consume the events of one node (its start event already taken as ``it``)."""
        event, events = it
        self.value_positions[path] = self._pos(event)
        if isinstance(event, ev.AliasEvent):
            self._problem(event, path, f"aliases are not allowed (*{event.anchor}); write the value out")
            return None
        self._check_node(event, path)
        if isinstance(event, ev.ScalarEvent):
            return self.scalar(event)
        if isinstance(event, (ev.SequenceStartEvent, ev.MappingStartEvent)) and len(path) >= MAX_DEPTH:
            self._problem(event, path[:3] + ("…",), f"nested deeper than {MAX_DEPTH} levels")
            raise _TooDeep  # stop reading: the scanner's cost grows with the depth
        if isinstance(event, ev.SequenceStartEvent):
            out: list[Any] = []
            for child in events:
                if isinstance(child, ev.SequenceEndEvent):
                    return out
                cpath = path + (len(out),)
                self.positions[cpath] = self._pos(child)
                out.append(self.build((child, events), cpath))
            return out
        if isinstance(event, ev.MappingStartEvent):
            mapping: dict[Any, Any] = {}
            for kev in events:
                if isinstance(kev, ev.MappingEndEvent):
                    return mapping
                key: Any
                if isinstance(kev, ev.ScalarEvent):
                    self._check_node(kev, path)
                    key = self.scalar(kev)
                else:
                    self._problem(kev, path, "a mapping key must be a plain scalar")
                    self._skip(kev, events)
                    self._skip(next(events), events)
                    continue
                vev = next(events)
                if key in mapping:
                    self._problem(kev, path + (key,), f"duplicate key {key!r}")
                    self._skip(vev, events)
                    continue
                kpath = path + (key,)
                self.positions[kpath] = self._pos(kev)
                mapping[key] = self.build((vev, events), kpath)
            return mapping
        raise AssertionError(f"unexpected event {event!r}")  # pragma: no cover

    def _skip(self, event: Any, events: Any) -> None:
        if isinstance(event, (ev.SequenceStartEvent, ev.MappingStartEvent)):
            depth = 1
            for e in events:
                if isinstance(e, (ev.SequenceStartEvent, ev.MappingStartEvent)):
                    depth += 1
                elif isinstance(e, (ev.SequenceEndEvent, ev.MappingEndEvent)):
                    depth -= 1
                    if depth == 0:
                        return


def read_yaml(source: str | Path, *, text: str | None = None, file: str | None = None) -> tuple[YamlDoc | None, list[Problem]]:
    """Read one YAML document; return ``(doc, problems)``; ``doc`` is None when unusable.

    ``source`` is a path (read as UTF-8) unless ``text`` is given; ``file`` is the name used in
    problems (default: ``str(source)``). An empty file gives ``data = None``. Never raises for
    bad input: syntax errors, tags, anchors and duplicate keys all come back as problems.
    """
    name = file if file is not None else str(source)
    if text is None:
        try:
            raw = Path(source).read_bytes()
        except OSError as exc:
            return None, [Problem(name, 0, 0, "", f"cannot read file: {exc.strerror or exc}")]
        if len(raw) > 4 * MAX_CHARS:
            return None, [Problem(name, 1, 1, "", f"the document is longer than {MAX_CHARS} characters")]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            return None, [Problem(name, line, col, "", f"not valid UTF-8 (byte {raw[exc.start]:#04x})")]
    if len(text) > MAX_CHARS:
        return None, [Problem(name, 1, 1, "", f"the document is longer than {MAX_CHARS} characters")]
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        return None, [Problem(name, line, 1, "", "a NUL character: not a text file")]
    if len(text) < _CACHE_FROM:
        return _parse(name, text)
    from casebook.content.packcache import cached_value

    # a clean parse depends on the text and the name alone: kept in the compiled-pack cache
    # (a position asked about again, a scenario file, a save), never one with problems
    return cached_value("yaml", text.encode("utf-8"), lambda: _parse(name, text), name,
                        keep=lambda value: value[0] is not None and not value[1])


#: Documents at least this long (characters) go through the parse cache; shorter ones parse faster
#: than a cache entry is read.
_CACHE_FROM = 2048


def _parse(name: str, text: str) -> tuple[YamlDoc | None, list[Problem]]:
    """Parse ``text`` (already checked for size and NUL) into a YamlDoc and its problems."""
    b = _Builder(name)
    data: Any = None
    try:
        events = iter(b.y.parse(io.StringIO(text)))
        docs = 0
        for e in events:
            if isinstance(e, ev.DocumentStartEvent):
                docs += 1
                if docs > 1:
                    b._problem(e, (), "only one YAML document per file")
                    break
                root = next(events)
                if isinstance(root, ev.DocumentEndEvent):
                    continue
                b.positions[()] = b._pos(root)
                data = b.build((root, events), ())
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
        what = "; ".join(str(x) for x in (exc.context, exc.problem) if x)
        for jargon, plain in _JARGON.items():
            what = what.replace(jargon, plain)
        cm = exc.context_mark
        if cm is not None and mark is not None and (cm.line, cm.column) != (mark.line, mark.column):
            what += f" (the construct began at {cm.line + 1}:{cm.column + 1})"
        b.problems.append(
            Problem(name, line, col, "", f"YAML syntax error: {what}", _caret(text, line, col))
        )
        return None, b.problems
    except YAMLError as exc:
        b.problems.append(Problem(name, 0, 0, "", f"YAML error: {exc}"))
        return None, b.problems
    except _TooDeep:
        return None, b.problems
    except RecursionError:
        b.problems.append(Problem(name, 1, 1, "", f"nested deeper than {MAX_DEPTH} levels"))
        return None, b.problems
    return YamlDoc(name, data, b.positions, b.value_positions), b.problems


_JARGON = {
    "expected <block end>, but found '<block mapping start>'":
        "expected the block to end, but found a key indented differently (check the indentation)",
    "expected <block end>": "expected the block to end",
    "'<stream end>'": "the end of the file",
    "'<block mapping start>'": "a mapping",
    "'<block sequence start>'": "a list",
}


def _caret(text: str, line: int, col: int) -> str:
    """The source line ``line`` and a caret under ``col`` (both 1-based), or ``""``."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1]
    return f"    {src}\n    {' ' * (col - 1)}^"


def load_yaml(source: str | Path, *, text: str | None = None, file: str | None = None) -> YamlDoc:
    """Like :func:`read_yaml` but raises :class:`ContentError` listing every problem."""
    doc, problems = read_yaml(source, text=text, file=file)
    if problems or doc is None:
        raise ContentError(problems)
    return doc


_FLOW_UNSAFE = frozenset("?:-,[]{}#&*!|>'\"%@`")


def _represent_str(representer: Any, value: str) -> Any:
    """Quote strings a flow context could misread (``?0``, ``-x``, ``a, b``): ruamel's safe
    emitter writes some of them plain, and its own parser then refuses them."""
    style = None
    if value and (value[0] in _FLOW_UNSAFE or value != value.strip()
                  or any(not c.isprintable() for c in value)):
        style = '"'
    return representer.represent_scalar("tag:yaml.org,2002:str", value, style=style)


class _Representer(SafeRepresenter):
    """The safe representer with :func:`_represent_str` (a subclass: no global registration)."""


_Representer.add_representer(str, _represent_str)


def dump_yaml(data: Any) -> str:
    """Plain data as YAML text: deterministic (insertion order, no line wrapping), block style
    with leaf collections in flow style; ``read_yaml(dump_yaml(d)).data == d`` for plain data
    (strings that look like numbers, booleans or dates are quoted)."""
    y = YAML(typ="safe", pure=True)
    y.Representer = _Representer
    y.default_flow_style = None
    y.allow_unicode = True
    y.width = 1 << 16
    y.representer.sort_base_mapping_type_on_output = False
    out = io.StringIO()
    y.dump(data, out)
    return out.getvalue()
